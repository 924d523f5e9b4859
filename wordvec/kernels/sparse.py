"""Sparse (CSR) matrix kernels: products with dense matrices, and the PPMI transform.

A CSR matrix is ``(row_ptr, cols, values)``: row r's entries are ``row_ptr[r]:row_ptr[r+1]``.
Products take a row range so that threads can share the work: ``times`` writes disjoint rows
of ``out``; ``transpose_times`` scatters into its own ``out`` per thread, summed afterwards.
"""

import math

import numpy as np
from numba import njit

from wordvec.kernels import FASTMATH


@njit(cache=True, nogil=True, fastmath=FASTMATH)
def times(row_ptr, cols, values, dense, out, row_lo, row_hi):
    """``out[r] = sum_c A[r, c] * dense[c]`` for rows ``row_lo .. row_hi - 1``."""
    k = dense.shape[1]
    for r in range(row_lo, row_hi):
        for j in range(k):
            out[r, j] = 0.0
        for p in range(row_ptr[r], row_ptr[r + 1]):
            value = values[p]
            col = cols[p]
            for j in range(k):
                out[r, j] += value * dense[col, j]


@njit(cache=True, nogil=True, fastmath=FASTMATH)
def transpose_times(row_ptr, cols, values, dense, out, row_lo, row_hi):
    """``out[c] += A[r, c] * dense[r]`` over the rows ``row_lo .. row_hi - 1`` (Aᵀ · dense)."""
    k = dense.shape[1]
    for r in range(row_lo, row_hi):
        for p in range(row_ptr[r], row_ptr[r + 1]):
            value = values[p]
            col = cols[p]
            for j in range(k):
                out[col, j] += value * dense[r, j]


@njit(cache=True, nogil=True)
def positive_pmi(row_ptr, cols, counts, log_row, log_context, log_shift):
    """Shifted positive PMI of a count matrix, keeping only the positive entries.

    ``max(log count - log_row[r] - log_context[c] - log_shift, 0)``: with ``log_row`` the log
    of each row's sum and ``log_context`` the log of each column's smoothed probability, this is
    log P(w, c) / (P(w) P_alpha(c)) - log k. Returns a new CSR ``(row_ptr, cols, values)``.
    """
    n_rows = row_ptr.shape[0] - 1
    new_ptr = np.zeros(n_rows + 1, dtype=np.int64)
    new_cols = np.empty(cols.shape[0], dtype=np.int32)
    new_values = np.empty(cols.shape[0], dtype=np.float32)
    n = 0
    for r in range(n_rows):
        for p in range(row_ptr[r], row_ptr[r + 1]):
            pmi = math.log(counts[p]) - log_row[r] - log_context[cols[p]] - log_shift
            if pmi > 0:
                new_cols[n] = cols[p]
                new_values[n] = pmi
                n += 1
        new_ptr[r + 1] = n
    return new_ptr, new_cols[:n].copy(), new_values[:n].copy()
