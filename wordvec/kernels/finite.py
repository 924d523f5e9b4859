"""The divergence check every trainer runs after each epoch."""

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def all_finite(matrix):
    """Whether no entry of a 2-d float matrix is NaN or infinite (no temporary array)."""
    for i in range(matrix.shape[0]):
        for k in range(matrix.shape[1]):
            if not np.isfinite(matrix[i, k]):
                return False
    return True
