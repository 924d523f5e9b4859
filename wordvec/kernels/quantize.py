"""Product quantisation's k-means: the centroids of each slice of dimensions, and each row's
nearest centroid per slice (fastText's ``ProductQuantizer``).

A row of ``dim`` floats is cut into ``nsubq`` slices of ``dsub`` dimensions (the last may be
shorter); each slice of each row is stored as the byte of its nearest of 256 centroids, which
k-means finds from a sample of the rows. The Python layer (:mod:`wordvec.formats.quantized`)
draws the samples and the random numbers, so these loops hold no generator, and runs the
slices and blocks of rows on its threads (the kernels release the GIL). They were numba's
``parallel=True`` kernels, with slice assignments (``centroids[:] = x[:k]``) where these copy
in loops: compiling them took 15-18 s of a first ``quantize`` on the 2-vCPU VM, 3.0 s now,
and their OpenMP threads did not survive a fork (a forked child ran them compiled again, serial).
"""

import numpy as np
from numba import njit

from wordvec.kernels import FASTMATH

SPLIT_EPS = np.float32(1e-7)
"""How far apart the two halves of a split cluster start (fastText's ``eps_``)."""
ENCODE_CHUNK = 4096
"""Rows a thread encodes in one call."""


@njit(cache=True, nogil=True, fastmath=FASTMATH)
def _nearest(x, by_column, width, dist):
    """The index of the centroid nearest ``x[:width]``; the first of equals, as fastText's
    ``assign_centroid``. ``by_column`` holds the centroids a column each, (width, k), so that
    the distances to all of them are computed a dimension at a time in SIMD (into ``dist``),
    before one pass finds the least: 3.5x faster than a centroid at a time.

    That pass compares integers: a distance is a sum of squares, and the bits of a float32 that
    is not negative order as the float does, so the least of ``bits << 32 | centroid`` is the
    nearest centroid, the first of equals. An integer least is a SIMD reduction to LLVM, where
    the float one (``dist[c] < dist[best]``) ran one comparison after another, each waiting
    for the last: 81 ns a row against 223 for 256 centroids of 2 dimensions."""
    k = dist.shape[0]
    for c in range(k):
        dist[c] = 0.0
    for j in range(width):
        xj = x[j]
        column = by_column[j]
        for c in range(k):
            diff = xj - column[c]
            dist[c] += diff * diff
    bits = dist.view(np.int32)
    least = np.int64(0x7FFFFFFFFFFFFFFF)
    for c in range(k):
        least = min(least, (np.int64(bits[c]) << 32) | c)
    return least & 0xFFFFFFFF


@njit(cache=True, nogil=True, fastmath=FASTMATH)
def _kmeans(x, centroids, niter, draws, codes, counts):
    """Lloyd's k-means of the rows of ``x`` (n, width) into ``centroids`` (k, width), which
    start as the first k rows. A cluster left empty takes half of a cluster chosen with
    probability proportional to its size minus one (``draws``: one uniform number per
    iteration and cluster), nudged apart by SPLIT_EPS, as fastText's ``MStep``."""
    k, width = centroids.shape
    n = x.shape[0]
    for c in range(k):
        for j in range(width):
            centroids[c, j] = x[c, j]
    by_column = np.empty((width, k), np.float32)
    dist = np.empty(k, np.float32)
    for it in range(niter):
        for c in range(k):
            for j in range(width):
                by_column[j, c] = centroids[c, j]
                centroids[c, j] = 0.0
        for i in range(n):
            codes[i] = _nearest(x[i], by_column, width, dist)
        for c in range(k):
            counts[c] = 0
        for i in range(n):
            c = codes[i]
            counts[c] += 1
            for j in range(width):
                centroids[c, j] += x[i, j]
        for c in range(k):
            if counts[c] > 0:
                for j in range(width):
                    centroids[c, j] /= counts[c]
        for c in range(k):
            if counts[c] != 0:
                continue
            total = 0
            for m in range(k):
                total += max(counts[m] - 1, 0)
            target = draws[it, c] * total
            m = 0
            seen = max(counts[0] - 1, 0)
            while seen <= target and m < k - 1:
                m += 1
                seen += max(counts[m] - 1, 0)
            for j in range(width):
                sign = np.float32((j % 2) * 2 - 1)
                centroids[c, j] = centroids[m, j] + sign * SPLIT_EPS
                centroids[m, j] -= sign * SPLIT_EPS
            counts[c] = counts[m] // 2
            counts[m] -= counts[c]


@njit(cache=True, nogil=True)
def train_slice(x, sample, first, width, niter, draws, centroids):
    """One slice's centroids: k-means of dimensions ``first .. first + width - 1`` of the rows
    ``sample`` of ``x`` (rows, dim) into ``centroids[:, :width]`` (k, dsub; the last slice's
    unused columns stay as they are, zero); ``draws`` are its k-means' random numbers."""
    k = centroids.shape[0]
    points = np.empty((sample.shape[0], width), np.float32)  # the slice, contiguous
    for i in range(sample.shape[0]):
        for j in range(width):
            points[i, j] = x[sample[i], first + j]
    codes = np.zeros(sample.shape[0], np.int64)
    counts = np.zeros(k, np.int64)
    block = np.zeros((k, width), np.float32)
    _kmeans(points, block, niter, draws, codes, counts)
    for c in range(k):
        for j in range(width):
            centroids[c, j] = block[c, j]


@njit(cache=True, nogil=True)
def encode_rows(x, by_column, dsub, codes, start, stop):
    """Rows ``start .. stop - 1``'s nearest centroid per slice into ``codes`` (rows, nsubq)
    uint8; ``by_column[m]`` holds slice ``m``'s centroids a column each (dsub, k)."""
    nsubq, k = by_column.shape[0], by_column.shape[2]
    dim = x.shape[1]
    dist = np.empty(k, np.float32)
    for i in range(start, stop):
        for m in range(nsubq):
            first = m * dsub
            width = min(dsub, dim - first)
            codes[i, m] = _nearest(x[i, first:], by_column[m], width, dist)
