"""What every trainer's weights share: their dtype, how they start, and the NaN check."""

from __future__ import annotations

import numpy as np

FLOAT = np.float32


def init_input_weights(
    rows: int, dim: int, seed: int | tuple[int, ...], half_width: float = 0.5
) -> np.ndarray:
    """Uniform in [-half_width/dim, half_width/dim): word2vec's and GloVe's 0.5, fastText's 1.

    Computed in place, without temporaries the size of the matrix.
    """
    weights = np.random.default_rng(seed).random((rows, dim), dtype=FLOAT)
    weights -= FLOAT(0.5)
    weights *= FLOAT(2 * half_width / dim)
    return weights


def all_finite(*arrays: np.ndarray) -> bool:
    """Whether no entry of the arrays (vectors or matrices) is NaN or infinite."""
    from wordvec.kernels.finite import all_finite as matrix_finite

    return all(matrix_finite(array.reshape(len(array), -1)) for array in arrays)
