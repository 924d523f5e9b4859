"""gensim's ``evaluate_word_analogies`` and ``evaluate_word_pairs``, with gensim's numbers.

Where gensim differs from wordvec's ``eval`` (:mod:`wordvec.query.evaluate`), the face does as
gensim does, so a script's figures do not move when its import does:

- ``case_insensitive`` upper-cases the *vocabulary* (each upper-cased word stands for its most
  frequent form among the ``restrict_vocab`` first words) and the questions: a word seen only
  capitalised ("Paris") still answers "paris"; wordvec's ``eval`` lower-cases the questions.
- An analogy's answer is the best of the five nearest words to ``b - a + c`` (3CosAdd over the
  first ``restrict_vocab`` unit vectors, in float32) that is in the vocabulary and none of the
  question's words, upper-cased; ``similarity_function`` is accepted and, as in gensim,
  unused.
- Results and the log lines (``logging``, logger ``wordvec.gensim.evaluation``) are gensim's.
"""

from __future__ import annotations

import logging
import os
from typing import Any

import numpy as np

from wordvec.query.evaluate import read_analogies, read_similarity, spearman

logger = logging.getLogger(__name__)

_BATCH = 256
"""Questions answered by one matrix product."""
_TOPN = 5
"""The nearest words gensim looks at for an analogy's answer."""


def word_analogies(
    keyed: Any, path: str | os.PathLike, restrict_vocab: int, case_insensitive: bool,
    dummy4unknown: bool,
) -> tuple[float, list[dict]]:  # fmt: skip
    """gensim's ``evaluate_word_analogies`` of the KeyedVectors ``keyed``."""
    logger.info(
        "Evaluating word analogies for top %i words in the model on %s", restrict_vocab, path
    )
    known = _searched(keyed, restrict_vocab, case_insensitive)
    fold = str.upper if case_insensitive else str
    sections: dict[str, dict] = {}
    asked: list[tuple[dict, tuple[str, ...]]] = []
    unknown = questions = 0
    for name, *words in read_analogies(path):
        section = sections.setdefault(name, {"section": name, "correct": [], "incorrect": []})
        quadruple = tuple(fold(word) for word in words)
        questions += 1
        if all(word in known for word in quadruple):
            asked.append((section, quadruple))
            continue
        unknown += 1
        if dummy4unknown:
            section["incorrect"].append(quadruple)
    unit = _unit_rows(keyed, restrict_vocab)
    for start in range(0, len(asked), _BATCH):
        batch = asked[start : start + _BATCH]
        ids = np.array([[known[word] for word in quadruple[:3]] for _, quadruple in batch])
        targets = unit[ids[:, 1]] + unit[ids[:, 2]] - unit[ids[:, 0]]
        scores = unit @ targets.T  # the ranking of gensim's normalised mean: the same
        for column, (section, quadruple) in enumerate(batch):
            predicted = _answer(keyed, scores[:, column], ids[column], known, quadruple, fold)
            section["correct" if predicted == quadruple[3] else "incorrect"].append(quadruple)
    for section in sections.values():
        _log_accuracy(section)
    total = {"section": "Total accuracy"}
    for kind in ("correct", "incorrect"):
        total[kind] = [question for part in sections.values() for question in part[kind]]
    logger.info(
        "Quadruplets with out-of-vocabulary words: %.1f%%", 100.0 * unknown / max(questions, 1)
    )
    if not dummy4unknown:
        logger.info(
            "NB: analogies containing OOV words were skipped from evaluation! "
            'To change this behavior, use "dummy4unknown=True"'
        )
    return _log_accuracy(total), [*sections.values(), total]


def _searched(keyed: Any, restrict_vocab: int, case_insensitive: bool) -> dict[str, int]:
    """The first ``restrict_vocab`` words (upper-cased where ``case_insensitive``), each with
    the index of its most frequent form."""
    found: dict[str, int] = {}
    for index, word in enumerate(keyed.index_to_key[:restrict_vocab]):
        found.setdefault(word.upper() if case_insensitive else word, index)
    return found


def _unit_rows(keyed: Any, restrict_vocab: int) -> np.ndarray:
    """The first ``restrict_vocab`` vectors at unit length, in float32 as gensim's."""
    rows = np.asarray(keyed.vectors[:restrict_vocab], dtype=np.float32)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return rows / np.where(norms > 0, norms, 1).astype(np.float32)


def _answer(keyed, scores: np.ndarray, ids: np.ndarray, known: dict, quadruple, fold) -> str | None:
    """gensim's answer: the first of the five best words (the question's three left out) that
    is in ``known`` and not one of the question's words, as ``fold`` writes it."""
    count = min(_TOPN + 3, len(scores))
    best = np.argpartition(-scores, count - 1)[:count]
    nearest = [int(i) for i in best[np.argsort(-scores[best], kind="stable")] if i not in ids]
    predicted = None
    for index in nearest[:_TOPN]:
        predicted = fold(keyed.index_to_key[index])
        if predicted in known and predicted not in quadruple[:3]:
            break
    return predicted


def _log_accuracy(section: dict) -> float:
    """Log a section's accuracy as gensim does; its accuracy (0 with no questions)."""
    correct, incorrect = len(section["correct"]), len(section["incorrect"])
    if correct + incorrect == 0:
        return 0.0
    score = correct / (correct + incorrect)
    logger.info(
        "%s: %.1f%% (%i/%i)", section["section"], 100.0 * score, correct, correct + incorrect
    )
    return score


def word_pairs(
    keyed: Any, path: str | os.PathLike, restrict_vocab: int, case_insensitive: bool,
    dummy4unknown: bool,
) -> tuple[Any, Any, float]:  # fmt: skip
    """gensim's ``evaluate_word_pairs`` of the KeyedVectors ``keyed``: ((Pearson, p),
    (Spearman, p), the percentage of pairs with a word outside the vocabulary)."""
    known = _searched(keyed, restrict_vocab, case_insensitive)
    fold = str.upper if case_insensitive else str
    unit = _unit_rows(keyed, restrict_vocab)
    human, model, unknown = [], [], 0
    for first, second, score in read_similarity(path):
        first, second = fold(first), fold(second)
        if first in known and second in known:
            human.append(score)
            model.append(float(unit[known[first]] @ unit[known[second]]))
            continue
        unknown += 1
        if dummy4unknown:  # gensim's: an unknown pair scores 0
            human.append(score)
            model.append(0.0)
    if not human:
        raise ValueError(
            f"No valid similarity judgements found in {path}: all are out-of-vocabulary"
        )
    pearson, rank = correlation(human, model, "pearsonr"), correlation(human, model, "spearmanr")
    oov = 100.0 * unknown / (len(human) + (0 if dummy4unknown else unknown))
    logger.info("Pearson correlation coefficient against %s: %.4f", path, pearson[0])
    logger.info("Spearman rank-order correlation coefficient against %s: %.4f", path, rank[0])
    logger.info("Pairs with unknown words ratio: %.1f%%", oov)
    return pearson, rank, oov


def correlation(x: list, y: list, name: str) -> Any:
    """scipy's ``pearsonr`` or ``spearmanr`` of ``x`` and ``y``, its result as gensim returns
    it (``.statistic``, ``.pvalue``); without scipy, (Spearman's rho from wordvec, NaN)."""
    if len(x) < 2:
        return float("nan"), float("nan")
    try:
        from scipy import stats
    except ImportError:
        rho = spearman(np.array(x), np.array(y)) if name == "spearmanr" else np.corrcoef(x, y)[0, 1]
        return float(rho), float("nan")
    return getattr(stats, name)(x, y)
