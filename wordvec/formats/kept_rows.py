"""Matrices of which only some rows are stored: a fastText model's n-gram buckets (the rows
its words read; the rest are zero) as floats (:class:`SparseRows`), or any matrix as
product-quantisation codes (:class:`~wordvec.formats.compressed.CompressedRows`).

Both answer what queries, exports and the faces ask of a matrix (``shape``, ``len``,
``rows[i]``, ``rows[ids]``, ``rows[a:b]``, ``np.asarray(rows)``) with copies of the rows asked
for, zeros where a row is not stored: an unseen word's vector reads its few n-gram rows, and
nothing reads the others. In a model file a sparse matrix ``NAME`` is ``NAME.kept`` (int32,
the rows stored, increasing) and ``NAME.rows`` (float32, those rows), described in the
header's ``sparse`` table (``{NAME: {"rows": R, "dim": D}}``).
"""

from __future__ import annotations

import numpy as np

from wordvec.errors import FormatError
from wordvec.options import MAX_SETTING
from wordvec.runtime.memory import lazy_zeros

SPARSE = ("ngrams",)
"""The matrices a model file may store sparse."""


class KeptRows:
    """A ``rows x dim`` float32 matrix of which the rows ``kept`` are stored (None: all),
    the others zero; a subclass says how a stored row is read (:meth:`_stored`)."""

    dtype = np.dtype(np.float32)
    ndim = 2

    def __init__(self, rows: int, dim: int, kept: np.ndarray | None):
        self.shape = (rows, dim)
        self.kept = kept

    def __len__(self) -> int:
        return self.shape[0]

    def __getitem__(self, index) -> np.ndarray:
        rows = np.arange(len(self))[index] if isinstance(index, slice) else np.asarray(index)
        if rows.dtype.kind not in "iu":
            raise IndexError(f"rows are indexed by integers, not {rows.dtype}")
        flat = rows.ravel()
        if len(flat) and (flat.min() < -len(self) or flat.max() >= len(self)):
            raise IndexError(f"a row index is outside 0..{len(self) - 1}")
        found = self._rows(np.where(flat < 0, flat + len(self), flat))
        return found.reshape(rows.shape + (self.shape[1],))

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        """The whole matrix (the rows not stored: zero pages, taken only where written)."""
        whole = lazy_zeros(self.shape, np.float32)
        if self.kept is None:
            whole[:] = self._stored(np.arange(len(self)))
        elif len(self.kept):
            whole[self.kept] = self._stored(np.arange(len(self.kept)))
        return whole if dtype is None else whole.astype(dtype)

    def _rows(self, rows: np.ndarray) -> np.ndarray:
        """The rows ``rows`` (ids in range), zeros where a row is not stored."""
        if self.kept is None:
            return self._stored(rows)
        at = np.minimum(np.searchsorted(self.kept, rows), max(len(self.kept) - 1, 0))
        found = self.kept[at] == rows if len(self.kept) else np.zeros(len(rows), bool)
        out = np.zeros((len(rows), self.shape[1]), dtype=np.float32)
        if found.any():
            out[found] = self._stored(at[found])
        return out

    def _stored(self, at: np.ndarray) -> np.ndarray:
        """The stored rows at positions ``at`` of ``kept``, float32."""
        raise NotImplementedError


class SparseRows(KeptRows):
    """The rows ``kept`` of a matrix as floats (``values``, one row a kept row)."""

    def __init__(self, rows: int, kept: np.ndarray, values: np.ndarray):
        super().__init__(rows, values.shape[1], kept)
        self.values = values

    def __repr__(self) -> str:
        return f"SparseRows({self.shape[0]} x {self.shape[1]}, {len(self.kept)} stored)"

    def _stored(self, at: np.ndarray) -> np.ndarray:
        return np.array(self.values[at], dtype=np.float32)


def sparse_arrays(name: str, matrix: SparseRows) -> tuple[dict, dict[str, np.ndarray]]:
    """``matrix``'s entry of the header's ``sparse`` table and its arrays."""
    entry = {"rows": matrix.shape[0], "dim": matrix.shape[1]}
    return entry, {f"{name}.kept": matrix.kept, f"{name}.rows": matrix.values}


def described(file: str, kind: str, table, names: tuple[str, ...]) -> dict:
    """A header's table of ``kind`` matrices (``sparse``, ``compressed``): a JSON object whose
    keys are among ``names`` (``file`` names the file in errors)."""
    if not isinstance(table, dict) or not set(table) <= set(names):
        shown = sorted(table) if isinstance(table, dict) else type(table).__name__
        raise FormatError(f"{file} is corrupt ({kind} matrices {shown})")
    return table


def read_sparse(file: str, table, arrays: dict[str, np.ndarray]) -> dict[str, SparseRows]:
    """The sparse matrices the header's ``table`` describes (their arrays taken out of
    ``arrays``), each checked whole."""
    found = {}
    for name, entry in described(file, "sparse", table, SPARSE).items():
        kept, values = arrays.pop(f"{name}.kept", None), arrays.pop(f"{name}.rows", None)
        bad = f"{file} is corrupt (sparse {name}"
        rows = entry.get("rows") if isinstance(entry, dict) else None
        dim = entry.get("dim") if isinstance(entry, dict) else None
        if type(rows) is not int or type(dim) is not int or not 0 <= rows <= MAX_SETTING:
            raise FormatError(f"{bad}: {rows!r} rows of {dim!r})")
        if (
            kept is None
            or values is None
            or kept.dtype != np.int32
            or kept.ndim != 1
            or values.dtype != np.float32
            or values.shape != (len(kept), dim)
        ):
            raise FormatError(f"{bad}: rows stored do not fit {rows} x {dim})")
        check_kept(bad, kept, rows)
        if not np.isfinite(values).all():
            raise FormatError(f"{file}: the {name} rows are not finite (NaN or infinite)")
        found[name] = SparseRows(rows, np.asarray(kept), values)
    return found


def check_kept(bad: str, kept: np.ndarray, rows: int) -> None:
    """Rows stored must be increasing ids within the matrix: they are searched and indexed."""
    if len(kept) and (kept[0] < 0 or kept[-1] >= rows or np.any(np.diff(kept) <= 0)):
        raise FormatError(f"{bad}: rows stored are not increasing within 0..{rows - 1})")
