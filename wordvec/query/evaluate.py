"""Intrinsic evaluation: word similarity (Spearman's rho) and analogies (3CosAdd).

Readers accept the usual files: tabs or spaces, CRLF line ends, ``#`` comments, blank lines,
and ``: section`` lines in analogy files (Google's questions-words.txt format).
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from wordvec.errors import FormatError
from wordvec.query import ANALOGY_VOCABULARY
from wordvec.query.vectors import Vectors


def _data_lines(path: str | os.PathLike):
    """(line number, fields) of the non-empty, non-comment lines; ``-`` reads standard input
    (as word2vec's compute-accuracy reads its questions)."""
    from wordvec.corpus.sources import standard_input

    stdin = str(path) == "-"
    with (
        contextlib.nullcontext(standard_input()) if stdin else open(path, encoding="utf-8") as lines
    ):
        try:
            for number, line in enumerate(lines, start=1):
                line = line.strip()
                if line and not line.startswith("#"):
                    yield number, line.split()
        except UnicodeDecodeError:  # raised for a whole block read, so no line number
            raise FormatError(f"{Path(path).name} is not UTF-8 text") from None


def read_similarity(path: str | os.PathLike) -> list[tuple[str, str, float]]:
    """``word1 word2 score`` lines."""
    pairs = []
    for number, fields in _data_lines(path):
        try:
            if len(fields) != 3:
                raise ValueError
            pairs.append((fields[0], fields[1], float(fields[2])))
        except ValueError:
            raise FormatError(
                f"{Path(path).name}, line {number}: expected 'word1 word2 score'"
            ) from None
    return pairs


def read_analogies(path: str | os.PathLike) -> list[tuple[str, str, str, str, str]]:
    """``(section, a, b, c, d)`` for 'a is to b as c is to d' lines under ``: section`` lines."""
    section = ""
    questions = []
    for number, fields in _data_lines(path):
        if fields[0] == ":":
            section = " ".join(fields[1:])
        elif fields[0].startswith(":"):
            section = " ".join([fields[0][1:], *fields[1:]])
        elif len(fields) == 4:
            questions.append((section, *fields))
        else:
            raise FormatError(f"{Path(path).name}, line {number}: expected four words")
    return questions


def rank(values: np.ndarray) -> np.ndarray:
    """Ranks from 1, ties sharing their mean rank."""
    values = np.asarray(values, dtype=np.float64)
    order = np.argsort(values, kind="stable")
    ranks = np.empty(len(values))
    ranks[order] = np.arange(1, len(values) + 1)
    _, inverse, counts = np.unique(values, return_inverse=True, return_counts=True)
    sums = np.bincount(inverse, weights=ranks)
    return sums[inverse] / counts[inverse]


def spearman(x: np.ndarray, y: np.ndarray) -> float:
    """Spearman's rank correlation (Pearson's r of the tie-averaged ranks)."""
    rx, ry = rank(x) - (len(x) + 1) / 2, rank(y) - (len(y) + 1) / 2
    denominator = np.sqrt((rx * rx).sum() * (ry * ry).sum())
    return float((rx * ry).sum() / denominator) if denominator > 0 else float("nan")


@dataclass
class SimilarityResult:
    rho: float
    covered: int  # pairs scored
    total: int
    in_vocabulary: int = 0  # pairs whose two words are in the vocabulary


OOV_CHOICES = ("subwords", "skip")


def evaluate_similarity(
    vectors: Vectors,
    pairs: list[tuple[str, str, float]],
    *,
    lowercase: bool = True,
    oov: str = "subwords",
) -> SimilarityResult:
    """Spearman's rho between human scores and cosines, over the pairs with both words known.

    With ``oov="subwords"``, vectors that build words from their parts (fastText's character
    n-grams, :class:`~wordvec.query.subword_vectors.SubwordVectors`; BPE units,
    :class:`~wordvec.query.unit_vectors.UnitVectors`) also score pairs with a word outside the
    vocabulary, as fastText's own evaluation does; ``"skip"`` leaves those pairs out.
    """
    if oov not in OOV_CHOICES:
        raise ValueError(f"oov must be one of {OOV_CHOICES}")
    from wordvec.errors import VocabularyError
    from wordvec.query.subword_vectors import SubwordVectors
    from wordvec.query.unit_vectors import UnitVectors

    subwords = oov == "subwords" and isinstance(vectors, (SubwordVectors, UnitVectors))
    human, model = [], []
    in_vocabulary = 0
    for first, second, score in pairs:
        if lowercase:
            first, second = first.lower(), second.lower()
        known = first in vectors.index and second in vectors.index
        in_vocabulary += known
        if known or subwords:
            try:
                model.append(vectors.similarity(first, second))
            except VocabularyError:  # no n-gram of the word was ever trained
                continue
            human.append(score)
    rho = spearman(np.array(human), np.array(model)) if len(human) > 1 else float("nan")
    return SimilarityResult(rho, len(human), len(pairs), in_vocabulary)


@dataclass
class AnalogyResult:
    correct: int
    covered: int
    total: int
    sections: dict[str, tuple[int, int]] = field(default_factory=dict)  # correct, covered
    hits: list[bool | None] = field(default_factory=list)  # each question's: None, not covered

    @property
    def accuracy(self) -> float:
        """Correct answers over questions covered (whose four words are all searched)."""
        return self.correct / self.covered if self.covered else 0.0


METHODS = ("3CosAdd", "3CosMul")
_COSMUL_EPSILON = 1e-3


def evaluate_analogies(
    vectors: Vectors,
    questions: list[tuple[str, str, str, str, str]],
    *,
    restrict: int | None = ANALOGY_VOCABULARY,
    lowercase: bool = True,
    method: str = "3CosAdd",
    batch: int = 256,
) -> AnalogyResult:
    """Accuracy on 'a is to b as c is to d' questions, the answer searched among the
    ``restrict`` most frequent words with a, b and c excluded (word2vec's compute-accuracy
    recipe; gensim's ``evaluate_word_analogies``). A question is covered when all four words
    are among those searched.

    ``3CosAdd``: the word nearest to b - a + c. ``3CosMul`` (Levy and Goldberg, 2014): the word
    maximising cos'(x, b) cos'(x, c) / (cos'(x, a) + 0.001) with cos' = (cos + 1) / 2.
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}")
    limit = len(vectors) if restrict is None else min(restrict, len(vectors))
    unit = vectors.unit_rows(limit)
    rows = {}  # each word's row among those searched, or None: vectors.row_of, once a word

    def row(word: str) -> int | None:
        if word not in rows:
            found = vectors.row_of(word)
            rows[word] = found if found is not None and found < limit else None
        return rows[word]

    result = AnalogyResult(0, 0, len(questions), hits=[None] * len(questions))
    known = []
    for number, (section, *words) in enumerate(questions):
        ids = [row(w.lower() if lowercase else w) for w in words]
        result.sections.setdefault(section, (0, 0))
        if None not in ids:
            known.append((section, ids, number))
    for start in range(0, len(known), batch):
        chunk = known[start : start + batch]
        ids = np.array([q for _, q, _ in chunk])
        if method == "3CosAdd":
            scores = (unit[ids[:, 1]] - unit[ids[:, 0]] + unit[ids[:, 2]]) @ unit.T
        else:
            cos_a, cos_b, cos_c = ((unit[ids[:, i]] @ unit.T + 1) / 2 for i in range(3))
            scores = cos_b * cos_c / (cos_a + _COSMUL_EPSILON)
        rows = np.arange(len(chunk))
        for column in range(3):
            scores[rows, ids[:, column]] = -np.inf
        answers = scores.argmax(axis=1)
        for (section, q, number), answer in zip(chunk, answers):
            correct, covered = result.sections[section]
            hit = int(answer == q[3])
            result.hits[number] = bool(hit)
            result.sections[section] = (correct + hit, covered + 1)
            result.correct += hit
            result.covered += 1
    return result


def is_syntactic(section: str) -> bool:
    """Google's analogy sections named gram* are syntactic, the others semantic."""
    return section.startswith("gram")


def split_accuracy(result: AnalogyResult) -> dict[str, tuple[int, int]]:
    """(correct, covered) for the semantic and syntactic sections and overall."""
    groups = {"semantic": [0, 0], "syntactic": [0, 0]}
    for section, (correct, covered) in result.sections.items():
        group = groups["syntactic" if is_syntactic(section) else "semantic"]
        group[0] += correct
        group[1] += covered
    return {
        "semantic": tuple(groups["semantic"]),
        "syntactic": tuple(groups["syntactic"]),
        "overall": (result.correct, result.covered),
    }
