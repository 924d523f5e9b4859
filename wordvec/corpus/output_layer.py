"""The output layer of every model and its tables, built once here for the loss chosen
(:mod:`wordvec.kernels.losses` runs it): the output rows, the noise distribution's alias table
(negative sampling), the Huffman tree's codes (hierarchical softmax), and each thread's memory
for the loss step. Training builds it, and so does inference, which reads it.

Negative sampling draws millions of words from the noise distribution, by Walker's alias
method (O(1) a draw). word2vec uses a table of 1e8 entries (400 MB, a cache miss per draw)
and gensim a binary search over a cumulative table; an alias table holds two arrays of
vocabulary size and answers each draw with one random index and one comparison. The kernels
read it packed (:func:`pack_alias_table`), one 4-byte entry a column (8 past a million
words), so that a draw costs one load, which with the model's rows in cache is often a miss.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from wordvec.corpus.huffman import build_huffman
from wordvec.errors import ConfigError
from wordvec.kernels.losses import (
    COIN_BITS,
    LOSS_KINDS,
    LossMemory,
    OutputLayer,
    alias_split,
    targets_room,
)
from wordvec.runtime.memory import lazy_zeros, own_cache_lines

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
    # Python floats and lists: numpy's element access in this loop took 40-70 ms for 26k words.
    scaled = (p * (n / p.sum())).tolist()
    accept = [1.0] * n
    alias = list(range(n))
    small = [i for i in range(n) if scaled[i] < 1.0]
    large = [i for i in range(n) if scaled[i] >= 1.0]
    while small and large:
        s, g = small.pop(), large.pop()
        accept[s] = scaled[s]
        alias[s] = g
        scaled[g] -= 1.0 - scaled[s]
        (small if scaled[g] < 1.0 else large).append(g)
    # Whatever remains is 1 up to rounding: always accept.
    return AliasTable(np.array(accept, dtype=np.float32), np.array(alias, dtype=np.int32))


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


_EMPTY_U = np.zeros(0, dtype=np.uint64)
_EMPTY_I = np.zeros(0, dtype=np.int32)
_EMPTY_CODES = np.zeros((0, 0), dtype=np.int8)
_EMPTY_POINTS = np.zeros((0, 0), dtype=np.int32)


def noise_distribution(counts: np.ndarray, exponent: float) -> np.ndarray:
    """The negative-sampling distribution: count**exponent, normalised (float64)."""
    weights = np.asarray(counts).astype(np.float64) ** exponent
    return weights / weights.sum()


def output_layer(
    loss: str,
    w_out: np.ndarray,
    *,
    negative: int = 0,
    noise_table: np.ndarray = _EMPTY_U,
    huffman: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
) -> OutputLayer:
    """The output layer of ``loss`` (``ns``, ``hs``, ``softmax``, ``ova``) over ``w_out``, with
    the tables that loss reads (``huffman``: codes, points, code lengths) and empty ones for
    the others."""
    codes, points, lengths = huffman or (_EMPTY_CODES, _EMPTY_POINTS, _EMPTY_I)
    split = alias_split(max(len(noise_table), 1), 8 * noise_table.itemsize)
    return OutputLayer(LOSS_KINDS[loss], w_out, negative, noise_table, split, codes, points,
                       lengths)  # fmt: skip


def build_output_layer(
    loss: str, counts: np.ndarray, dim: int, *, negative: int = 0, ns_exponent: float = 0.75,
    spare_rows: int = 0,
) -> OutputLayer:  # fmt: skip
    """Zeroed output weights for predicting one of ``len(counts)`` words or labels (their
    counts in the corpus) and the tables ``loss`` needs: a row per word (negative sampling,
    softmax, one-vs-all), per inner node of the Huffman tree (hierarchical softmax), or both,
    the words' first (``hs+ns``), and ``spare_rows`` after them, for the threads' copies
    (:mod:`wordvec.training.copies`). The rows are ``dim`` wide, in memory that starts a page:
    a width of whole cache lines puts each row in lines of its own
    (:func:`~wordvec.runtime.memory.line_rows`)."""
    n_words = len(counts)
    word_rows = 0 if loss == "hs" else n_words
    inner_rows = n_words - 1 if loss in ("hs", "hs+ns") else 0
    if inner_rows and n_words < 2:
        raise ConfigError(f"--loss {loss} needs a vocabulary of at least two words")
    w_out = lazy_zeros((word_rows + inner_rows + spare_rows, dim), np.float32, huge_pages=True)
    huffman = None
    if inner_rows:
        codes, points, lengths = build_huffman(counts)
        huffman = codes, points + np.int32(word_rows), lengths  # the nodes' rows of w_out
    if loss not in ("ns", "hs+ns"):
        return output_layer(loss, w_out, huffman=huffman)
    table = pack_alias_table(build_alias_table(noise_distribution(counts, ns_exponent)))
    return output_layer(loss, w_out, negative=negative, noise_table=table, huffman=huffman)


def loss_memory(out: OutputLayer, dim: int, *, dots: int = 0, frozen: bool = False) -> LossMemory:
    """One thread's memory for the loss step of ``out``: room for ``dots`` scores (at least
    one step's targets); ``frozen``: room for the target rows that inference's step copies
    (:func:`~wordvec.kernels.losses.frozen_loss_step`)."""
    room = targets_room(out)
    block = room if frozen else 0
    softmax_rows = out.w_out.shape[0] if out.kind == LOSS_KINDS["softmax"] else 1
    return LossMemory(
        targets=own_cache_lines(room, np.int32),
        labels=own_cache_lines(room, np.float32),
        dots=own_cache_lines(max(dots, room), np.float32),
        scores=own_cache_lines(softmax_rows, np.float32),
        chunk_grad=own_cache_lines(dim, np.float32),
        noise=own_cache_lines(out.negative, np.int32),
        rng=own_cache_lines(1, np.uint64),
        block=own_cache_lines((block, dim), np.float32),
        order=np.arange(block, dtype=np.int32),
    )
