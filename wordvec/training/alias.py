"""Walker's alias method: O(1) draws from a fixed discrete distribution.

Negative sampling draws millions of words from the noise distribution. word2vec uses a table of
1e8 entries (400 MB, a cache miss per draw) and gensim a binary search over a cumulative table;
an alias table holds two arrays of vocabulary size and answers each draw with one random index
and one comparison. The kernels read it packed (:func:`pack_alias_table`), one 8-byte entry a
column, so that a draw costs one load, which with the model's rows in cache is often a miss.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from wordvec.kernels.losses import ALIAS_BITS


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
    """The table as one uint64 per column: the alias in the low :data:`ALIAS_BITS` bits and,
    above them, the column's keep threshold for a 32-bit coin (keep the column if the coin is
    below it), ``ceil(accept * 2**32)``: up to 2**32, 33 bits.

    For an integer coin c, ``c < ceil(accept * 2**32)`` exactly when ``c / 2**32 < accept``,
    so a packed draw takes the same words from the same random bits as the float comparison.
    """
    n = len(table.accept)
    if n > 1 << ALIAS_BITS:
        raise ValueError(f"an alias table packs at most 2**{ALIAS_BITS} columns, not {n:,}")
    threshold = np.ceil(table.accept.astype(np.float64) * 2.0**32).astype(np.uint64)
    return (threshold << np.uint64(ALIAS_BITS)) | table.alias.astype(np.uint64)
