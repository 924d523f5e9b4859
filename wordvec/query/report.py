"""``wordvec eval``'s report: scores for several files, as a dict (for --json) or a table."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

from wordvec.query import ANALOGY_VOCABULARY
from wordvec.query.evaluate import (
    METHODS,
    evaluate_analogies,
    evaluate_similarity,
    is_syntactic,
    read_analogies,
    read_similarity,
    split_accuracy,
)
from wordvec.query.vectors import Vectors


def report_json(report: dict) -> str:
    """``report`` as strict JSON: a score that is not a number (no pair or question covered)
    is ``null``, not the bare ``NaN`` that JSON parsers other than Python's refuse."""
    import json

    def strict(value):
        if isinstance(value, dict):
            return {key: strict(item) for key, item in value.items()}
        if isinstance(value, list):
            return [strict(item) for item in value]
        return None if isinstance(value, float) and not math.isfinite(value) else value

    return json.dumps(strict(report), indent=2, ensure_ascii=False, allow_nan=False)


def evaluation_report(
    vectors: Vectors,
    similarity_files: Sequence[Path],
    analogy_files: Sequence[Path],
    *,
    restrict: int = ANALOGY_VOCABULARY,
    lowercase: bool = True,
    oov: str = "subwords",
) -> dict:
    """Every score of every file, JSON-ready (``oov``: see :func:`evaluate_similarity`)."""
    report: dict = {"words": len(vectors), "similarity": [], "analogy": []}
    for path in similarity_files:
        result = evaluate_similarity(vectors, read_similarity(path), lowercase=lowercase, oov=oov)
        report["similarity"].append(
            {
                "file": Path(path).name,
                "spearman": result.rho,
                "pairs": result.total,
                "covered": result.covered,
                "in_vocabulary": result.in_vocabulary,
                "oov_pairs": result.total - result.in_vocabulary,
            }
        )
    for path in analogy_files:
        questions = read_analogies(path)
        entry = {"file": Path(path).name, "questions": len(questions), "restrict": restrict}
        for method in METHODS:
            result = evaluate_analogies(
                vectors, questions, restrict=restrict, lowercase=lowercase, method=method
            )
            entry["covered"] = result.covered
            groups = split_accuracy(result)
            has_syntactic = any(is_syntactic(section) for section in result.sections)
            entry[method] = {
                name: _accuracy(*counts)
                for name, counts in groups.items()
                if has_syntactic or name == "overall"
            }
            entry[method]["sections"] = {
                section: _accuracy(*counts) for section, counts in result.sections.items()
            }
        report["analogy"].append(entry)
    return report


def _accuracy(correct: int, covered: int) -> dict:
    return {
        "correct": correct,
        "covered": covered,
        "accuracy": correct / covered if covered else None,
    }


def _percent(entry: dict) -> str:
    return "-" if entry["accuracy"] is None else f"{100 * entry['accuracy']:.1f}%"


def format_report(report: dict, *, sections: bool = False) -> str:
    """A table for people; ``sections`` adds a line per analogy section."""
    lines = []
    if report["similarity"]:
        width = max(len(e["file"]) for e in report["similarity"])
        subwords = any(e["covered"] != e["in_vocabulary"] for e in report["similarity"])
        header = "  pairs covered" + ("  (in vocabulary; the rest by subwords)" * subwords)
        lines.append(f"{'similarity':<{width}}  spearman{header}")
        for e in report["similarity"]:
            rho = "-" if e["spearman"] != e["spearman"] else f"{e['spearman']:.3f}"
            vocabulary = f"  ({e['in_vocabulary']})" if subwords else ""
            lines.append(
                f"{e['file']:<{width}}  {rho:>8}  {e['covered']:>5}/{e['pairs']}{vocabulary}"
            )
    for e in report["analogy"]:
        if lines:
            lines.append("")
        lines.append(
            f"analogy {e['file']}: {e['covered']:,}/{e['questions']:,} questions covered "
            f"(answers among the {e['restrict']:,} most frequent words)"
        )
        add, mul = e["3CosAdd"], e["3CosMul"]
        rows = [(group, add[group], mul[group]) for group in add if group != "sections"]
        if sections:
            rows = [
                (name, add["sections"][name], mul["sections"][name]) for name in add["sections"]
            ] + rows
        width = max(10, *(len(name) for name, _, _ in rows))
        lines.append(f"  {'':<{width}}  {'3CosAdd':>8}  {'3CosMul':>8}")
        for name, add_score, mul_score in rows:
            lines.append(f"  {name:<{width}}  {_percent(add_score):>8}  {_percent(mul_score):>8}")
    return "\n".join(lines)
