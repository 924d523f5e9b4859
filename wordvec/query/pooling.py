"""Sentence vectors by pooling word vectors: one vector for a line of N words.

The static-embedding classifier input of our users' course texts: look up each word's vector
and pool the N of them into one, their mean or their maximum per dimension. For a fastText
(subword) model the mean is fastText's ``print-sentence-vectors``: each word's vector (an unseen
word's from its n-grams) scaled to length 1, words whose vector is zero left out. For plain
word vectors, the words outside the vocabulary are left out. A line with no word that has a
vector gets a zero vector.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from wordvec.errors import ConfigError
from wordvec.query.subword_vectors import SubwordVectors
from wordvec.query.unit_vectors import UnitVectors
from wordvec.query.vectors import Vectors

POOLINGS = ("mean", "max")


def sentence_vector(vectors: Vectors, words: list[str], pooling: str = "mean") -> np.ndarray | None:
    """The pooled vector of ``words``, or None when none of them has a vector."""
    if pooling not in POOLINGS:
        raise ConfigError(f"pooling must be one of {', '.join(POOLINGS)}, not {pooling!r}")
    rows = _word_vectors(vectors, words)
    if not len(rows):
        return None
    pooled = rows.mean(axis=0) if pooling == "mean" else rows.max(axis=0)
    return pooled.astype(np.float32)


def sentence_vectors(
    vectors: Vectors, lines: Iterable[str | list[str]], pooling: str = "mean"
) -> tuple[np.ndarray, int]:
    """The pooled vector of each line (a string split at whitespace, or a list of words), as
    a (lines, dim) float32 matrix, and how many lines had no word with a vector (their rows
    are zero). A model or a single string is a :class:`TypeError` saying what to pass, not
    an AttributeError or one row a character."""
    if not isinstance(vectors, Vectors):
        raise TypeError(
            f"sentence_vectors takes word vectors, not a {type(vectors).__name__}: pass "
            "model.wv (a classifier's sentence vectors: model.classifier.sentence_vectors)"
        )
    if isinstance(lines, str):
        raise TypeError("lines is one string: pass a list of lines, e.g. [text]")
    if not isinstance(lines, Iterable):
        raise TypeError(f"lines is a {type(lines).__name__}: pass a list of lines, e.g. [text]")
    pooled, empty = [], 0
    for line in lines:
        words = line.split() if isinstance(line, str) else list(line)
        vector = sentence_vector(vectors, words, pooling)
        if vector is None:
            empty += 1
            vector = np.zeros(vectors.dim, dtype=np.float32)
        pooled.append(vector)
    return np.array(pooled, dtype=np.float32).reshape(len(pooled), vectors.dim), empty


def _word_vectors(vectors: Vectors, words: list[str]) -> np.ndarray:
    if isinstance(vectors, SubwordVectors):
        rows = [
            vectors.vector(word) if vectors.row_of(word) is not None else vectors.ngram_vector(word)
            for word in words
        ]
        rows = [row / norm for row in rows if (norm := np.linalg.norm(row)) > 0]
    else:
        if isinstance(vectors, UnitVectors):  # the line's units, each with its own row
            words = vectors.units.encode(" ".join(words))
        index = vectors.index
        rows = [np.asarray(vectors.vectors[index[word]]) for word in words if word in index]
    return np.array(rows, dtype=np.float32).reshape(len(rows), vectors.dim)
