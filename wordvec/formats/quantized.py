"""fastText's product-quantised matrices (the input, and with ``-qout`` the output, of a
``.ftz``): each row stored as one byte per slice of ``dsub`` dimensions, the index of the
nearest of 256 centroids of that slice; with ``-qnorm`` the rows are scaled to length 1 first
and their lengths quantised the same way (one slice of one dimension).

Layout (as fastText's ``QuantMatrix::save`` and ``ProductQuantizer::save`` write it)::

    uint8 qnorm; int64 rows, int64 dim; int32 codesize (rows * nsubq)
    uint8 codes[rows][nsubq]
    pq      int32 dim, nsubq, dsub, lastdsub; float32 centroids[dim * 256]
            (slice m < nsubq - 1: 256 x dsub floats; the last slice 256 x lastdsub)
    if qnorm: uint8 norm_codes[rows]; pq of dim 1 (1, 1, 1, 1; 256 floats)

Reading checks every size against the others and against the rows the dictionary needs before
a byte is decoded, and decodes to float32 rows (the model's full size, as a ``.bin``'s).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from wordvec.errors import ConfigError, FormatError
from wordvec.runtime.parallel import available_cores, run_pool

KSUB = 256
"""Centroids per slice: one byte a code (fastText's ``nbits`` 8)."""
NITER = 25
"""k-means iterations (fastText's ``niter_``)."""
MAX_POINTS = 256 * KSUB
"""Rows sampled per slice for k-means (fastText's ``max_points_``, 65536)."""
DECODE_BLOCK = 65536
"""Rows decoded at a time."""
_MATRIX_HEAD = struct.Struct("<Bqqi")
_PQ_HEAD = struct.Struct("<4i")


@dataclass(frozen=True)
class ProductQuantizer:
    """The centroids of each slice of ``dim`` dimensions: ``centroids`` (nsubq, 256, dsub)
    float32, the last slice's columns past ``dim`` zero."""

    dim: int
    dsub: int
    centroids: np.ndarray

    @property
    def nsubq(self) -> int:
        return self.centroids.shape[0]

    @property
    def lastdsub(self) -> int:
        return self.dim - (self.nsubq - 1) * self.dsub

    @classmethod
    def train(cls, x: np.ndarray, dsub: int, rng: np.random.Generator) -> ProductQuantizer:
        """k-means of each slice of the rows of ``x`` over a sample of at most MAX_POINTS
        rows (one per slice), starting from sampled rows, as fastText's ``train``."""
        from wordvec.kernels.quantize import train_slice

        n, dim = x.shape
        if n < KSUB:
            raise ConfigError(
                f"product quantisation needs at least {KSUB} rows; this matrix has {n} "
                "(a larger --cutoff, or no --qout for fewer labels)"
            )
        nsubq = -(-dim // dsub)
        points = min(n, MAX_POINTS)
        samples = np.stack([rng.choice(n, points, replace=False) for _ in range(nsubq)])
        draws = rng.random((nsubq, NITER, KSUB))
        centroids = np.zeros((nsubq, KSUB, dsub), dtype=np.float32)
        x = np.ascontiguousarray(x, dtype=np.float32)

        def fit_slice(m: int) -> None:
            first = m * dsub
            width = min(dsub, dim - first)
            train_slice(x, samples[m], first, width, NITER, draws[m], centroids[m])

        run_pool(fit_slice, range(nsubq), available_cores())
        return cls(dim, dsub, centroids)

    def encode(self, x: np.ndarray) -> np.ndarray:
        """Each row's code: the nearest centroid of each slice, (rows, nsubq) uint8."""
        from wordvec.kernels.quantize import ENCODE_CHUNK, encode_rows

        codes = np.zeros((len(x), self.nsubq), dtype=np.uint8)
        x = np.ascontiguousarray(x, dtype=np.float32)
        by_column = np.ascontiguousarray(self.centroids.transpose(0, 2, 1))
        starts = range(0, len(x), ENCODE_CHUNK)
        run_pool(lambda start: encode_rows(x, by_column, self.dsub, codes, start,
                                           min(start + ENCODE_CHUNK, len(x))),
                 starts, available_cores())  # fmt: skip
        return codes

    def decode(self, codes: np.ndarray) -> np.ndarray:
        """The rows the codes stand for (rows, dim) float32: a slice's centroids gathered
        straight into their columns, a block of rows at a time (twice as fast as a column of
        the codes at once, whose gather leaves the cache)."""
        rows = np.empty((len(codes), self.dim), dtype=np.float32)
        for start in range(0, len(codes), DECODE_BLOCK):
            block, out = codes[start : start + DECODE_BLOCK], rows[start : start + DECODE_BLOCK]
            for m in range(self.nsubq):
                first = m * self.dsub
                width = min(self.dsub, self.dim - first)
                np.take(self.centroids[m, :, :width], block[:, m], axis=0,
                        out=out[:, first : first + width], mode="clip")  # fmt: skip
        return rows

    def to_bytes(self) -> bytes:
        last = self.centroids[-1, :, : self.lastdsub]
        floats = np.concatenate([self.centroids[:-1].ravel(), last.ravel()]).astype("<f4")
        head = _PQ_HEAD.pack(self.dim, self.nsubq, self.dsub, self.lastdsub)
        return head + floats.tobytes()

    @classmethod
    def read(cls, reader, name: str, dim: int) -> ProductQuantizer:
        """Read a quantizer of ``dim`` dimensions, each field checked against the others."""
        found_dim, nsubq, dsub, lastdsub = reader.unpack(_PQ_HEAD)
        if (
            found_dim != dim
            or not 1 <= dsub <= dim
            or nsubq != -(-dim // dsub)
            or lastdsub != dim - (nsubq - 1) * dsub
        ):
            raise FormatError(
                f"{name} is corrupt (quantizer of dim {found_dim}, {nsubq} slices of {dsub}, "
                f"last {lastdsub}, for rows of {dim})"
            )
        floats = np.asarray(reader.array(dim * KSUB, "<f4"), dtype=np.float32)
        if not np.isfinite(floats).all():
            raise FormatError(f"{name} is corrupt (a centroid is not finite)")
        centroids = np.zeros((nsubq, KSUB, dsub), dtype=np.float32)
        head = (nsubq - 1) * KSUB * dsub
        centroids[:-1] = floats[:head].reshape(nsubq - 1, KSUB, dsub)
        centroids[-1, :, :lastdsub] = floats[head:].reshape(KSUB, lastdsub)
        return cls(dim, dsub, centroids)


class QuantizedRows(NamedTuple):
    """Rows product-quantised: each row's ``codes`` (rows, nsubq) by ``pq``; with ``qnorm``
    the codes are of the unit rows and each length is ``norm_codes`` by ``norm_pq``."""

    pq: ProductQuantizer
    codes: np.ndarray
    norm_pq: ProductQuantizer | None
    norm_codes: np.ndarray | None


BLOCK = 1 << 16
"""Rows read, made unit and encoded at a time."""
POOL = 4 * MAX_POINTS
"""Rows k-means may sample from: every row of a matrix of up to this many (each slice then
samples its own MAX_POINTS, as fastText's k-means does), else so many drawn once (their unit
rows: 315 MB at dim 300, not the 3.6 GB of a 3M-row file)."""


def quantize_rows(
    rows, dsub: int, qnorm: bool, rng: np.random.Generator, *, name: str = "matrix",
    repeat: bool = False,
) -> QuantizedRows:  # fmt: skip
    """``rows`` (an array, a memory map, any matrix that slices) product-quantised, with
    ``qnorm`` their directions and, apart, their lengths (fastText's ``-qnorm``). The rows are
    read a block at a time (a published 3M x 300 file is not copied whole, nor its unit rows
    made whole); k-means samples from at most POOL of them. Fewer rows than centroids are an
    error (fastText's), or with ``repeat`` repeated for k-means, so that each is a centroid of
    its own. A row not finite, or one whose sums overflow, is a :class:`FormatError` naming
    ``name``."""
    norms = _norms(name, rows)
    scale = norms if qnorm else np.ones_like(norms)
    drawn = (  # fastText's k-means then samples MAX_POINTS of these for each slice
        np.arange(len(rows))
        if len(rows) <= POOL
        else np.sort(rng.choice(len(rows), POOL, replace=False))
    )
    sample = _unit(rows[drawn], scale[drawn])
    if repeat and len(sample) < KSUB:
        sample = np.resize(sample, (KSUB, sample.shape[1]))
    too_long = FormatError(f"the model's {name} rows are too long to quantize (a sum overflows)")
    pq = ProductQuantizer.train(sample, dsub, rng)
    if not np.isfinite(pq.centroids).all():
        raise too_long
    codes = np.empty((len(rows), pq.nsubq), dtype=np.uint8)
    for start in range(0, len(rows), BLOCK):
        stop = start + BLOCK
        codes[start:stop] = pq.encode(_unit(rows[start:stop], scale[start:stop]))
    if not qnorm:
        return QuantizedRows(pq, codes, None, None)
    lengths = norms[:, None]
    norm_pq = ProductQuantizer.train(np.resize(lengths, (max(len(norms), KSUB), 1)), 1, rng)
    if not np.isfinite(norm_pq.centroids).all():
        raise too_long
    return QuantizedRows(pq, codes, norm_pq, norm_pq.encode(lengths)[:, 0])


def _norms(name: str, rows) -> np.ndarray:
    """Each row's length, a block at a time; a row not finite (a damaged model's: codes of it
    would be noise) is an error."""
    norms = np.empty(len(rows), dtype=np.float32)
    for start in range(0, len(rows), BLOCK):
        block = np.asarray(rows[start : start + BLOCK], dtype=np.float32)
        if not np.isfinite(block).all():
            raise FormatError(f"the model's {name} rows are not finite (NaN or infinite)")
        norms[start : start + BLOCK] = np.linalg.norm(block, axis=1)
    return norms


def _unit(rows, scale: np.ndarray) -> np.ndarray:
    """``rows`` divided by ``scale`` (a zero row stays zero), float32, a copy."""
    return np.asarray(rows, dtype=np.float32) / np.where(scale > 0, scale, 1)[:, None]


def quantized_matrix_bytes(
    x: np.ndarray, dsub: int, qnorm: bool, rng: np.random.Generator
) -> list[bytes]:
    """The parts of a quantised ``x`` as fastText's ``QuantMatrix::save`` writes them."""
    rows, dim = x.shape
    found = quantize_rows(x, dsub, qnorm, rng)
    codes = found.codes
    parts = [_MATRIX_HEAD.pack(qnorm, rows, dim, codes.size), codes.tobytes(), found.pq.to_bytes()]
    if qnorm:
        parts += [found.norm_codes.tobytes(), found.norm_pq.to_bytes()]
    return parts


def read_quantized_matrix(reader, name: str, rows: int, dim: int) -> np.ndarray:
    """Read the quantised matrix that starts here (after its ``quantized`` flag), checked to be
    ``rows x dim``, and decode it to float32 rows."""
    qnorm, found_rows, found_dim, codesize = reader.unpack(_MATRIX_HEAD)
    if (found_rows, found_dim) != (rows, dim):
        raise FormatError(
            f"{name} is corrupt (quantized matrix {found_rows} x {found_dim}, expected "
            f"{rows} x {dim})"
        )
    if qnorm > 1 or dim < 1 or codesize < 0 or codesize % max(rows, 1):
        raise FormatError(f"{name} is corrupt (codes {codesize} for {rows} rows, qnorm {qnorm})")
    nsubq = codesize // rows if rows else 0
    codes = reader.array(codesize, np.uint8)  # every byte is a centroid's index: none too big
    pq = ProductQuantizer.read(reader, name, dim)
    if rows and nsubq != pq.nsubq:
        raise FormatError(f"{name} is corrupt ({nsubq} codes a row for {pq.nsubq} slices)")
    decoded = pq.decode(np.asarray(codes).reshape(rows, pq.nsubq))
    if qnorm:
        norm_codes = np.asarray(reader.array(rows, np.uint8))
        norms = ProductQuantizer.read(reader, name, 1)
        decoded *= norms.decode(norm_codes[:, None])
    return decoded
