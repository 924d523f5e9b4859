"""Vectors of BPE units, which answer for any word from the units it is made of.

A model trained with ``--bpe`` has a row per unit, keyed as the units are written in
subword-nmt's form (``cat@@`` continues into the next unit, ``s`` ends a word). A word is
segmented as the corpus was and gets the mean of its units' rows: every word whose characters
the units know has a vector, seen in training or not. A unit that the corpus only ever showed
inside longer words (most of them, in unsegmented Chinese, where a "word" is a whole line) is
found under either key: ``北京`` asked for is ``北京@@``'s row.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from wordvec.bpe.units import CONTINUED, Units
from wordvec.errors import UnknownWord, shown
from wordvec.query.vectors import Vectors


class UnitVectors(Vectors):
    """Unit vectors (``words`` are the units as written) that answer for any word: the row of
    the one unit it is, or else the mean of the rows of the units it segments into."""

    def __init__(
        self, words: Sequence[str], vectors: np.ndarray, counts: np.ndarray | None, *, units: Units
    ):
        super().__init__(words, vectors, counts)
        self.units = units
        self._pieces: dict[str, list[str]] = {}

    def pieces(self, word: str) -> list[str]:
        """The units ``word`` is made of, as the model's keys write them."""
        if word not in self._pieces:
            self._pieces[word] = self.units.encode(word)
        return self._pieces[word]

    def row_of(self, word: str) -> int | None:
        """The row of a unit, or of the one unit ``word`` is (under either key), or None."""
        row = super().row_of(word)
        if row is not None or not isinstance(word, str):
            return row
        pieces = self.pieces(word)
        return self._unit_row(pieces[0]) if len(pieces) == 1 else None

    def _unit_row(self, piece: str) -> int | None:
        """The row of a unit, as written or as it is written in the other place of a word."""
        row = super().row_of(piece)
        if row is None:
            other = piece[: -len(CONTINUED)] if piece.endswith(CONTINUED) else piece + CONTINUED
            row = super().row_of(other)
        return row

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and bool(self._unit_rows(word))

    def _query_rows(self, word: str) -> list[int]:
        """A query's answers leave out the units it is made of, not only itself."""
        return self._unit_rows(word)

    def _unit_rows(self, word: str) -> list[int]:
        """The rows ``word`` is pooled from: its own, or its units' that have one."""
        row = self.row_of(word)
        if row is not None:
            return [row]
        rows = (self._unit_row(unit) for unit in self.pieces(word))
        return [row for row in rows if row is not None]

    def vector(self, word: str) -> np.ndarray:
        """A unit's row, or the mean of the rows of the units ``word`` segments into."""
        rows = self._unit_rows(word)
        if not rows:
            raise UnknownWord(f"none of the BPE units of {shown(word)} has a vector")
        return np.asarray(self.vectors[rows], dtype=np.float32).mean(axis=0)
