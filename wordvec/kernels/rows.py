"""The rows of ``w_in`` that make an input vector, read and written a SIMD chunk at a time: their
mean (a word's input vector, a CBOW window's hidden vector) and a step added to each of them,
shared by the window loop (:mod:`wordvec.kernels.windows`), the classifier's
(:mod:`wordvec.kernels.supervised`) and fastText's files."""

import numpy as np
from numba import njit

from wordvec.kernels import FASTMATH
from wordvec.kernels.simd import LANES, vadd, vget, vget1, vmul, vput, vput1, vsplat


@njit(cache=True, nogil=True, fastmath=FASTMATH, inline="always")
def mean_of_rows(w_in, rows, first, stop, hidden):
    """``hidden`` = the mean of the rows of ``w_in`` listed in ``rows[first:stop]``.

    The list is indexed, not sliced: a view of an array that other threads use too (``idx``)
    costs an atomic reference-count update that the threads contend on. Rows are read a SIMD
    chunk at a time, each chunk's sum kept in a register over the rows (see
    :func:`~wordvec.kernels.logistic.logistic_updates` for why chunks).
    """
    dim = hidden.shape[0]
    if stop == first:
        for k in range(dim):
            hidden[k] = 0.0
        return
    scale = vsplat(np.float32(1.0 / (stop - first)))
    whole = dim - dim % LANES  # the last dim - whole floats: one narrower chunk
    for c in range(0, whole, LANES):
        _mean_chunk(w_in, rows, first, stop, hidden, scale, c, LANES)
    if whole < dim:
        _mean_chunk(w_in, rows, first, stop, hidden, scale, whole, dim - whole)


@njit(cache=True, nogil=True, fastmath=FASTMATH, inline="always")
def _mean_chunk(w_in, rows, first, stop, hidden, scale, c, count):
    """This chunk (``count`` floats from column ``c``) of :func:`mean_of_rows`."""
    acc = vget(w_in, rows[first], c, count)
    for r in range(first + 1, stop):
        acc = vadd(acc, vget(w_in, rows[r], c, count))
    vput1(hidden, c, vmul(acc, scale), count)


def mean_input_vectors(w_in: np.ndarray, ptr: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """Every word's input vector (the mean of its rows), as a (words, dim) float32 matrix (made
    here: made in the kernel, numba compiled its ``np.zeros`` on a first fastText run)."""
    vectors = np.zeros((ptr.shape[0] - 1, w_in.shape[1]), dtype=np.float32)
    _fill_mean_input_vectors(w_in, ptr, idx, vectors)
    return vectors


@njit(cache=True, nogil=True, fastmath=FASTMATH)
def _fill_mean_input_vectors(w_in, ptr, idx, vectors):
    """:func:`mean_input_vectors`'s loop."""
    for word in range(vectors.shape[0]):
        mean_of_rows(w_in, idx, ptr[word], ptr[word + 1], vectors[word])


@njit(cache=True, nogil=True, fastmath=FASTMATH, inline="always")
def add_to_rows(w_in, rows, first, stop, grad):
    """Add ``grad`` to each row of ``w_in`` listed in ``rows[first:stop]`` (indexed, not sliced,
    as in :func:`mean_of_rows`)."""
    dim = grad.shape[0]
    whole = dim - dim % LANES  # the last dim - whole floats: one narrower chunk
    for c in range(0, whole, LANES):
        _add_chunk(w_in, rows, first, stop, grad, c, LANES)
    if whole < dim:
        _add_chunk(w_in, rows, first, stop, grad, whole, dim - whole)


@njit(cache=True, nogil=True, fastmath=FASTMATH, inline="always")
def _add_chunk(w_in, rows, first, stop, grad, c, count):
    """This chunk (``count`` floats from column ``c``) of :func:`add_to_rows`."""
    step = vget1(grad, c, count)
    for r in range(first, stop):
        row = rows[r]
        vput(w_in, row, c, vadd(vget(w_in, row, c, count), step), count)


@njit(cache=True, nogil=True, fastmath=FASTMATH, inline="always")
def add_locked_rows(w_in, rows, first, stop, grad, locks):
    """Add ``locks[row]`` times ``grad`` to each row of ``w_in`` listed in
    ``rows[first:stop]`` (gensim's ``vectors_lockf``: 0 keeps a row as it is)."""
    for r in range(first, stop):
        row = rows[r]
        share = locks[row]
        for k in range(grad.shape[0]):
            w_in[row, k] += share * grad[k]
