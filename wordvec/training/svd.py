"""Truncated SVD of a sparse CSR matrix by randomized range finding (Halko, Martinsson and
Tropp, 2011), with NumPy for the small dense steps and numba kernels for the sparse products,
shared among threads by row ranges. No SciPy needed.
"""

from __future__ import annotations

import functools
import itertools
from typing import NamedTuple

import numpy as np

from wordvec.runtime.parallel import run_pool


class CSR(NamedTuple):
    """A sparse matrix: row r's entries are ``cols/values[row_ptr[r]:row_ptr[r + 1]]``."""

    row_ptr: np.ndarray
    cols: np.ndarray
    values: np.ndarray
    n_cols: int

    @property
    def n_rows(self) -> int:
        return len(self.row_ptr) - 1


def _row_ranges(matrix: CSR, threads: int) -> list[tuple[int, int]]:
    """Row ranges of about equal numbers of entries."""
    cuts = np.searchsorted(matrix.row_ptr, np.linspace(0, matrix.row_ptr[-1], threads + 1))
    cuts[0], cuts[-1] = 0, matrix.n_rows
    return [(int(a), int(b)) for a, b in itertools.pairwise(cuts) if b > a]


def matmul(matrix: CSR, dense: np.ndarray, threads: int = 1) -> np.ndarray:
    """``matrix @ dense``."""
    from wordvec.kernels.sparse import times

    out = np.empty((matrix.n_rows, dense.shape[1]), dtype=np.float64)
    ranges = _row_ranges(matrix, threads)
    run_pool(lambda rows: times(*matrix[:3], dense, out, *rows), ranges, threads)
    return out


def transpose_matmul(matrix: CSR, dense: np.ndarray, threads: int = 1) -> np.ndarray:
    """``matrix.T @ dense``."""
    from wordvec.kernels.sparse import transpose_times

    ranges = _row_ranges(matrix, threads)
    outs = [np.zeros((matrix.n_cols, dense.shape[1]), dtype=np.float64) for _ in ranges]

    def multiply(part: int) -> None:
        transpose_times(*matrix[:3], dense, outs[part], *ranges[part])

    run_pool(multiply, range(len(ranges)), threads)
    return functools.reduce(np.add, outs)


def randomized_svd(
    matrix: CSR,
    rank: int,
    *,
    oversample: int = 10,
    power_iterations: int = 3,
    seed: int = 1,
    threads: int = 1,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The top ``rank`` singular triplets ``(U, S, Vt)`` of ``matrix``, approximately.

    Power iterations sharpen the spectrum (PPMI matrices decay slowly); each one costs two
    sparse products with ``rank + oversample`` columns.
    """
    width = min(rank + oversample, matrix.n_rows, matrix.n_cols)
    rng = np.random.default_rng(seed)
    basis = _orthonormal(matmul(matrix, rng.standard_normal((matrix.n_cols, width)), threads))
    for _ in range(power_iterations):
        basis = _orthonormal(transpose_matmul(matrix, basis, threads))
        basis = _orthonormal(matmul(matrix, basis, threads))
    small = transpose_matmul(matrix, basis, threads).T  # basis.T @ matrix, width x n_cols
    u_small, s, vt = np.linalg.svd(small, full_matrices=False)
    return (basis @ u_small)[:, :rank], s[:rank], vt[:rank]


def _orthonormal(matrix: np.ndarray) -> np.ndarray:
    return np.linalg.qr(matrix)[0]
