"""Walker's alias method: O(1) draws from a fixed discrete distribution.

Negative sampling draws millions of words from the noise distribution. word2vec uses a table of
1e8 entries (400 MB, a cache miss per draw) and gensim a binary search over a cumulative table;
an alias table holds two arrays of vocabulary size and answers each draw with one random index
and one comparison. The kernels read it packed (:func:`pack_alias_table`), one 4-byte entry a
column (8 past a million words), so that a draw costs one load, which with the model's rows
in cache is often a miss.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from wordvec.kernels.losses import COIN_BITS, alias_split

MIN_THRESHOLD_BITS = 12
"""The fewest bits a packed entry keeps for its threshold (its precision, 2**-12)."""


class AliasTable(NamedTuple):
    """Draw ``i = uniform index``; keep ``i`` if ``u < accept[i]``, else take ``alias[i]``."""

    accept: np.ndarray  # float32, probability of keeping the drawn column
    alias: np.ndarray  # int32, the other outcome in that column


def build_alias_table(probabilities: np.ndarray) -> AliasTable:
    """Build the alias table of a distribution (Vose's algorithm, exact up to rounding)."""
    p = np.asarray(probabilities, dtype=np.float64)
    if p.ndim != 1 or len(p) == 0 or np.any(p < 0) or not np.isfinite(p).all() or p.sum() <= 0:
        raise ValueError("probabilities must be a non-empty vector of finite weights >= 0")
    n = len(p)
    scaled = p * (n / p.sum())
    accept = np.ones(n, dtype=np.float64)
    alias = np.arange(n, dtype=np.int32)
    small = [i for i in range(n) if scaled[i] < 1.0]
    large = [i for i in range(n) if scaled[i] >= 1.0]
    while small and large:
        s, g = small.pop(), large.pop()
        accept[s] = scaled[s]
        alias[s] = g
        scaled[g] -= 1.0 - scaled[s]
        (small if scaled[g] < 1.0 else large).append(g)
    # Whatever remains is 1 up to rounding: always accept.
    return AliasTable(accept.astype(np.float32), alias)


def pack_alias_table(table: AliasTable) -> np.ndarray:
    """The table as one entry per column: uint32 where that leaves the threshold 12 bits or
    more (up to 2**20 columns), else uint64. The alias is in the low bits and, above it, the
    column's keep threshold for the top ``T`` bits of a 32-bit coin (keep the column if they
    are below it), ``ceil(accept * 2**T)``, at most ``2**T - 1``
    (:func:`~wordvec.kernels.losses.alias_split` gives the bits).

    For an integer c of ``T`` bits, ``c < ceil(accept * 2**T)`` exactly when
    ``c / 2**T < accept``: a draw keeps a column with probability ``accept`` rounded up to a
    multiple of ``2**-T`` (less than 1), at most 2**-12 from it (word2vec's 1e8-entry table
    rounds a rare word's probability by up to 1e-8, several percent of it).
    """
    n = len(table.accept)
    narrow = COIN_BITS - alias_split(n, 32)[1] >= MIN_THRESHOLD_BITS
    dtype = np.uint32 if narrow else np.uint64
    alias_bits, coin_shift = alias_split(n, 8 * np.dtype(dtype).itemsize)
    threshold_bits = COIN_BITS - coin_shift
    scale = float(1 << threshold_bits)
    threshold = np.ceil(table.accept.astype(np.float64) * scale)
    threshold = np.minimum(threshold, scale - 1).astype(dtype)
    return (threshold << dtype(alias_bits)) | table.alias.astype(dtype)
