"""Word co-occurrence counts over a vocabulary, as sparse rows, and their file.

The counts are made by :mod:`wordvec.cooccur.counting` (``wordvec cooccur``). File format (a wordvec
model file, :mod:`wordvec.formats.container`; meta ``format`` is ``wordvec-cooccurrence``,
``settings`` the counting options) holding CSR arrays:

=========  ==========================  ==================================================
``words``  uint8                       the vocabulary, UTF-8, one word per ``\\n``
``counts`` int64 (V,)                  corpus count of each word
``row_ptr``int64 (V + 1,)              row r's entries are ``row_ptr[r]:row_ptr[r + 1]``
``cols``   int32 (nnz,)                column (context word id) of each entry, ascending
``values`` float32 (nnz,)              its (weighted) count
=========  ==========================  ==================================================

It loads with NumPy alone (``np.memmap`` at the offsets in the JSON header), or as
``scipy.sparse.csr_matrix((values, cols, row_ptr))``.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from wordvec.corpus.vocab import Vocabulary
from wordvec.errors import FormatError
from wordvec.formats.container import read_container, write_container
from wordvec.formats.names import COUNTS_FORMAT


class Cooccurrences:
    """Sparse co-occurrence counts in CSR form over a vocabulary."""

    def __init__(
        self,
        vocab: Vocabulary,
        row_ptr: np.ndarray,
        cols: np.ndarray,
        values: np.ndarray,
        settings: dict | None = None,
    ):
        self.vocab = vocab
        self.row_ptr = row_ptr
        self.cols = cols
        self.values = values
        self.settings = dict(settings or {})

    @property
    def nnz(self) -> int:
        return len(self.values)

    def rows(self) -> np.ndarray:
        """The row of each entry (int32), expanded from ``row_ptr``."""
        lengths = np.diff(np.asarray(self.row_ptr))
        return np.repeat(np.arange(len(lengths), dtype=np.int32), lengths)

    def get(self, word: str, context: str) -> float:
        """The count of (word, context); 0 for a pair never seen."""
        row, col = self.vocab.index[word], self.vocab.index[context]
        start, stop = int(self.row_ptr[row]), int(self.row_ptr[row + 1])
        cols = np.asarray(self.cols[start:stop])
        at = int(np.searchsorted(cols, col))
        return float(self.values[start + at]) if at < len(cols) and cols[at] == col else 0.0

    def save(self, path: str | os.PathLike) -> None:
        """Write the counts to ``path`` atomically."""
        arrays = {"row_ptr": self.row_ptr, "cols": self.cols, "values": self.values}
        write_container(path, self.meta(self.settings), {**self.vocab.to_arrays(), **arrays})

    @staticmethod
    def meta(settings: dict) -> dict:
        """The file header of counts made with ``settings``."""
        return {"format": COUNTS_FORMAT, "settings": settings}

    @classmethod
    def load(cls, path: str | os.PathLike) -> Cooccurrences:
        """Read a counts file (memory-mapped); corrupt files give a :class:`FormatError`."""
        name = Path(path).name
        meta, arrays = read_container(path)
        if meta.get("format") != COUNTS_FORMAT:
            raise FormatError(f"{name} is not a co-occurrence file (see 'wordvec cooccur')")
        vocab = Vocabulary.from_arrays(arrays, name)
        try:
            row_ptr, cols, values = arrays["row_ptr"], arrays["cols"], arrays["values"]
        except KeyError:
            raise FormatError(f"{name} is corrupt (missing arrays)") from None
        _check_csr(name, len(vocab), row_ptr, cols, values)
        return cls(vocab, row_ptr, cols, values, meta.get("settings", {}))


def _check_csr(name: str, n_words: int, row_ptr, cols, values) -> None:
    """Raise :class:`FormatError` unless the arrays are CSR counts the kernels can trust: the
    documented dtypes, sizes that agree, row offsets from 0 to nnz never decreasing, every
    column a word id, every count finite and positive (GloVe takes its log). A hand-edited
    file that broke one of these crashed GloVe inside compiled code."""
    expected = {"row_ptr": (row_ptr, "<i8"), "cols": (cols, "<i4"), "values": (values, "<f4")}
    for array_name, (array, dtype) in expected.items():
        if array.dtype != np.dtype(dtype) or array.ndim != 1:
            raise FormatError(f"{name} is corrupt ({array_name} is not {dtype}, one dimension)")
    if not (len(row_ptr) == n_words + 1 and len(cols) == len(values)) or (
        row_ptr[0] != 0 or row_ptr[-1] != len(cols)
    ):
        raise FormatError(f"{name} is corrupt (array sizes disagree)")
    if np.any(np.diff(np.asarray(row_ptr)) < 0):
        raise FormatError(f"{name} is corrupt (row offsets decrease)")
    if len(cols) and (int(np.min(cols)) < 0 or int(np.max(cols)) >= n_words):
        raise FormatError(f"{name} is corrupt (a column is not a word id below {n_words:,})")
    if len(values) and not (np.all(np.isfinite(values)) and float(np.min(values)) > 0):
        raise FormatError(f"{name} is corrupt (a count is not a positive number)")
