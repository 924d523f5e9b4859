"""What a compressed model keeps of its full model's quality: WS-353, the bundled analogies,
and for a subword model unseen words (WS-353's pairs scored with each word's vector built from
its n-grams only, as for a word the model never saw)."""

from __future__ import annotations

import math

import numpy as np

from wordvec.query import ANALOGY_VOCABULARY
from wordvec.query.evalsets import bundled_file
from wordvec.query.evaluate import (
    evaluate_analogies,
    evaluate_similarity,
    read_analogies,
    read_similarity,
    spearman,
)
from wordvec.query.subword_vectors import SubwordVectors
from wordvec.query.vectors import Vectors

MEASURES = ("WS-353", "analogies", "unseen words")
"""The rows of the report: Spearman's rho, 3CosAdd accuracy, Spearman's rho."""


def quality(vectors: Vectors, restrict: int = ANALOGY_VOCABULARY) -> dict[str, float]:
    """Each of MEASURES for ``vectors`` (NaN where nothing is covered; unseen words only for
    a subword model)."""
    pairs = read_similarity(bundled_file("EN-WS-353-ALL.txt"))
    questions = read_analogies(bundled_file("questions-words.txt"))
    analogies = evaluate_analogies(vectors, questions, restrict=restrict)
    scores = {
        "WS-353": evaluate_similarity(vectors, pairs).rho,
        "analogies": analogies.accuracy if analogies.covered else math.nan,
    }
    if isinstance(vectors, SubwordVectors):
        scores["unseen words"] = unseen_word_rho(vectors, pairs)
    return scores


def unseen_word_rho(vectors: SubwordVectors, pairs: list[tuple[str, str, float]]) -> float:
    """Spearman's rho of ``pairs``, each word's vector the mean of its n-gram rows only."""
    human, model = [], []
    for first, second, score in pairs:
        a, b = (vectors.ngram_vector(word.lower()) for word in (first, second))
        norms = float(np.linalg.norm(a) * np.linalg.norm(b))
        if norms > 0:
            human.append(score)
            model.append(float(a @ b) / norms)
    return spearman(np.array(human), np.array(model)) if len(human) > 1 else math.nan


def format_quality(full: dict[str, float], small: dict[str, float]) -> str:
    """The report's table: each measure of the full and the small model, and the change."""
    lines = [f"{'':14}{'full':>8}{'small':>8}{'change':>9}"]
    for measure in MEASURES:
        if measure not in full:
            continue
        a, b = full[measure], small[measure]
        lines.append(f"{measure:14}{_shown(a):>8}{_shown(b):>8}{_shown(b - a, '+.3f'):>9}")
    return "\n".join(lines)


def _shown(value: float, spec: str = ".3f") -> str:
    return "-" if math.isnan(value) else format(value, spec)
