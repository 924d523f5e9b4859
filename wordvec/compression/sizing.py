"""What a compressed model's file will weigh, and the settings that meet a target size
(``--size 5MB``): the finest slices that keep every row, else rows cut to fit."""

from __future__ import annotations

import re
from dataclasses import dataclass

from wordvec.errors import ConfigError
from wordvec.formats.quantized import KSUB

HEADER_BYTES = 8192
"""A bound on the file's JSON header and the alignment of its arrays."""
DSUB_CHOICES = (2, 3, 4)
"""Slices tried for a target size, finest first: past 4 dimensions a byte, quality falls
faster than cutting the least frequent n-gram rows costs it (docs/benchmarks.md's curve)."""
KEPT_NGRAMS = 0.5
"""The share of the trained n-gram rows a size keeps before it tries coarser slices: the
least frequent half cost unseen words 0.002 in the curve, the next quarter 0.03."""
_UNITS = {"": 1, "B": 1, "KB": 1000, "MB": 1000**2, "GB": 1000**3, "KIB": 1024, "MIB": 1024**2,
          "GIB": 1024**3}  # fmt: skip


def parse_size(text: str) -> int:
    """Bytes of a size as typed: ``50MB``, ``1.5GB``, ``800KiB``, ``123456``."""
    found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMG]i?B|B)?\s*", text, re.IGNORECASE)
    if not found or float(found[1]) <= 0:
        raise ConfigError(f"--size {text!r} is not a size: give one such as 50MB or 800KB")
    return int(float(found[1]) * _UNITS[(found[2] or "").upper()])


@dataclass(frozen=True)
class Plan:
    """What is kept: ``words`` and ``ngrams`` rows (None: the model has no buckets), the
    slices' width ``dsub``."""

    words: int
    ngrams: int | None
    dsub: int


def estimated_bytes(plan: Plan, dim: int, word_matrices: int, vocab_bytes: int, qnorm: bool) -> int:
    """The file's size at most, for ``word_matrices`` matrices a row per kept word (vectors,
    and a fastText model's word rows) and the buckets."""
    nsubq = -(-dim // plan.dsub)
    row = nsubq + qnorm
    table = nsubq * KSUB * plan.dsub * 4 + qnorm * KSUB * 4
    total = HEADER_BYTES + vocab_bytes * plan.words + word_matrices * (plan.words * row + table)
    if plan.ngrams is not None:
        total += plan.ngrams * (row + 4) + table  # and an int32 id a kept bucket
    return total


def plan_for_size(
    target: int, words: int, ngrams: int | None, dim: int, word_matrices: int,
    vocab_bytes: int, qnorm: bool,
) -> Plan:  # fmt: skip
    """The plan of the finest ``dsub`` of DSUB_CHOICES keeping every word and at least
    KEPT_NGRAMS of the n-gram rows (the most frequent) within ``target`` bytes; else the
    coarsest, with the n-gram rows then the words cut to fit. ``vocab_bytes``: a word's bytes
    in the file (its text and count)."""

    def size(plan: Plan) -> int:
        return estimated_bytes(plan, dim, word_matrices, vocab_bytes, qnorm)

    for dsub in DSUB_CHOICES:
        if size(Plan(words, ngrams, dsub)) <= target:
            return Plan(words, ngrams, dsub)
        if ngrams:
            cut = _most_that_fit(lambda n, d=dsub: size(Plan(words, n, d)) <= target, ngrams)
            if cut >= KEPT_NGRAMS * ngrams:
                return Plan(words, cut, dsub)
    dsub = DSUB_CHOICES[-1]
    fewest = Plan(min(words, KSUB), None if ngrams is None else min(ngrams, KSUB), dsub)
    if size(fewest) > target:
        raise ConfigError(
            f"--size {target:,} bytes is too small for this model: {size(fewest):,} bytes "
            f"keep {fewest.words} words at --dsub {dsub}"
        )
    if ngrams:
        cut = _most_that_fit(lambda n: size(Plan(words, n, dsub)) <= target, ngrams)
        if cut >= fewest.ngrams:
            return Plan(words, cut, dsub)
    kept = _most_that_fit(lambda n: size(Plan(n, fewest.ngrams, dsub)) <= target, words)
    return Plan(max(kept, fewest.words), fewest.ngrams, dsub)


def _most_that_fit(fits, most: int) -> int:
    """The largest n in 0..most with ``fits(n)`` (``fits`` holds up to a point, then not)."""
    low, high = 0, most
    while low < high:
        middle = (low + high + 1) // 2
        low, high = (middle, high) if fits(middle) else (low, middle - 1)
    return low
