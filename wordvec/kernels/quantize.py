"""Product quantisation's k-means: the centroids of each slice of dimensions, and each row's
nearest centroid per slice (fastText's ``ProductQuantizer``).

A row of ``dim`` floats is cut into ``nsubq`` slices of ``dsub`` dimensions (the last may be
shorter); each slice of each row is stored as the byte of its nearest of 256 centroids, which
k-means finds from a sample of the rows. The Python layer (:mod:`wordvec.formats.quantized`)
draws the samples and the random numbers, so these loops hold no generator.
"""

import numpy as np
from numba import njit, prange

from wordvec.kernels import FASTMATH
from wordvec.runtime.forks import in_forked_child

SPLIT_EPS = np.float32(1e-7)
"""How far apart the two halves of a split cluster start (fastText's ``eps_``)."""
ENCODE_CHUNK = 4096
"""Rows a thread encodes with one scratch row of distances."""


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
    dist[:] = 0.0
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
    centroids[:] = x[:k]
    by_column = np.empty((width, k), np.float32)
    dist = np.empty(k, np.float32)
    for it in range(niter):
        by_column[:] = centroids.T
        for i in range(n):
            codes[i] = _nearest(x[i], by_column, width, dist)
        centroids[:] = 0.0
        counts[:] = 0
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


@njit(cache=True, parallel=True)
def train_centroids(x, samples, dsub, niter, draws, centroids):
    """The centroids of every slice: ``centroids[m]`` (k, dsub) from the rows ``samples[m]`` of
    ``x`` (rows, dim), slice ``m`` being dimensions ``m * dsub`` up to ``dim`` at most; the
    last slice's unused columns stay zero. ``draws[m]`` are its k-means' random numbers."""
    nsubq, k = centroids.shape[0], centroids.shape[1]
    dim = x.shape[1]
    for m in prange(nsubq):
        first = m * dsub
        width = min(dsub, dim - first)
        points = np.empty((samples.shape[1], width), np.float32)  # the slice, contiguous
        for i in range(samples.shape[1]):
            points[i] = x[samples[m, i], first : first + width]
        codes = np.zeros(samples.shape[1], np.int64)
        counts = np.zeros(k, np.int64)
        block = np.zeros((k, width), np.float32)
        _kmeans(points, block, niter, draws[m], codes, counts)
        centroids[m, :, :width] = block


@njit(cache=True, parallel=True)
def encode_rows(x, centroids, dsub, codes):
    """Each row's nearest centroid per slice: ``codes`` (rows, nsubq) uint8."""
    nsubq, k = centroids.shape[0], centroids.shape[1]
    dim, n = x.shape[1], x.shape[0]
    by_column = np.empty((nsubq, dsub, k), np.float32)
    for m in range(nsubq):
        by_column[m] = centroids[m].T
    chunks = (n + ENCODE_CHUNK - 1) // ENCODE_CHUNK
    for chunk in prange(chunks):
        dist = np.empty(k, np.float32)
        for i in range(chunk * ENCODE_CHUNK, min(n, (chunk + 1) * ENCODE_CHUNK)):
            for m in range(nsubq):
                first = m * dsub
                width = min(dsub, dim - first)
                codes[i, m] = _nearest(x[i, first:], by_column[m], width, dist)


_serial: dict = {}


def in_this_process(kernel):
    """``kernel`` (one of the parallel ones above), or in a forked process
    (:func:`~wordvec.runtime.forks.in_forked_child`), the same code compiled serial and
    uncached (its ``prange`` a ``range``): numba's OpenMP threads do not survive a fork, and
    numba ends a forked child that runs a parallel kernel ("Terminating: fork() called from a
    process already using GNU OpenMP, this is unsafe"), as the fuzz's forked runs of
    ``quantize`` were ended, and a ``multiprocessing`` child of a process that had quantized
    would be."""
    if not in_forked_child():
        return kernel
    if kernel not in _serial:
        _serial[kernel] = njit(kernel.py_func)
    return _serial[kernel]
