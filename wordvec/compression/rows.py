"""Which rows a compressed model keeps: the words (``--cutoff``) and the n-gram buckets
(``--ngram-cutoff``), each the most frequent or those of the largest norm (``--by``).

A bucket row that no vocabulary word reads is zero (training never touched it) and is always
dropped first: it reads back as zero. A bucket's frequency is the summed count of the
vocabulary words whose n-grams hash to it, so the n-grams of frequent words are kept first,
those an unseen word most likely shares.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from wordvec.corpus.subwords import ngram_hashes

ORDERS = ("frequency", "norm")
"""How rows are ranked for a cutoff (``--by``)."""


def kept_words(vectors: np.ndarray, counts: np.ndarray, cutoff: int, by: str) -> np.ndarray:
    """The rows of the ``cutoff`` words kept (0: all), increasing: the most frequent (the
    first rows, where the counts are unknown or tied, as files list words by frequency), or
    those of the largest norm."""
    n = len(vectors)
    if not cutoff or cutoff >= n:
        return np.arange(n)
    if by == "frequency":
        order = np.argsort(-np.asarray(counts), kind="stable")
    else:
        order = np.argsort(-_norms(vectors), kind="stable")
    return np.sort(order[:cutoff])


class Buckets(NamedTuple):
    """The bucket rows training wrote (increasing), each one's frequency (the summed counts
    of the vocabulary words reading it, each occurrence counted) and norm."""

    rows: np.ndarray
    frequency: np.ndarray
    norms: np.ndarray


def trained_buckets(ngrams, words: list[str], counts: np.ndarray, minn: int, maxn: int) -> Buckets:
    """The :class:`Buckets` of the rows the vocabulary's n-grams read that are not zero."""
    ptr, hashes = ngram_hashes(words, minn, maxn)
    buckets = hashes.astype(np.int64) % len(ngrams)
    per_word = np.repeat(np.asarray(counts, dtype=np.float64), np.diff(ptr))
    rows, inverse = np.unique(buckets, return_inverse=True)
    frequency = np.bincount(inverse, weights=per_word, minlength=len(rows))
    norms = np.zeros(len(rows), dtype=np.float32)
    for start in range(0, len(rows), _CHUNK):
        norms[start : start + _CHUNK] = _norms(ngrams[rows[start : start + _CHUNK]])
    nonzero = norms > 0
    return Buckets(rows[nonzero], frequency[nonzero], norms[nonzero])


def kept_buckets(buckets: Buckets, cutoff: int, by: str) -> np.ndarray:
    """The rows of the ``cutoff`` (0: all) trained buckets most frequent or of the largest
    norm, increasing."""
    if not cutoff or cutoff >= len(buckets.rows):
        return buckets.rows
    rank = buckets.frequency if by == "frequency" else buckets.norms
    return np.sort(buckets.rows[np.argsort(-rank, kind="stable")[:cutoff]])


_CHUNK = 65536
"""Bucket rows read at a time."""


def _norms(matrix: np.ndarray) -> np.ndarray:
    return np.linalg.norm(np.asarray(matrix, dtype=np.float32), axis=1)
