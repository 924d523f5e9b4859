"""The corpus encoded as word ids: what training and counting read, in slices, however large.

The readers write each word's id and a SENTENCE_END marker after each line to a file (4 bytes
a token); once the vocabulary is fixed, the file of first-seen ids is renumbered to final ids
with out-of-vocabulary words dropped. Training then reads slices of the final file
(``os.pread``), so memory stays bounded by the vocabulary and the model.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

import numpy as np

SENTENCE_END = -1
"""Marks the end of a line (a sentence) in the id stream."""

ID_DTYPE = np.dtype("<i4")
_REMAP_CHUNK = 1 << 24


class CorpusSlice(NamedTuple):
    """A contiguous slice ``[start, stop)`` of the id stream holding ``words`` vocabulary words."""

    start: int
    stop: int
    words: int


class EncodedCorpus:
    """A file of int32 word ids with SENTENCE_END after every line; read in slices."""

    def __init__(
        self, path: Path, length: int, words: int, dropped: tuple[int, int] = (0, 0),
        tokens: int | None = None,
    ):  # fmt: skip
        self.path = Path(path)
        self.length = length  # entries, markers included
        self.words = words  # vocabulary tokens (the number that drives the learning rate)
        self.dropped = dropped  # words dropped while counting (--vocab-memory), highest count
        self.tokens = words if tokens is None else tokens  # every token read (gensim's total)

    def read(self, start: int, stop: int) -> np.ndarray:
        """The ids in ``[start, stop)`` as a fresh int32 array (thread-safe)."""
        nbytes = (stop - start) * ID_DTYPE.itemsize
        fd = os.open(self.path, os.O_RDONLY)
        try:
            data = os.pread(fd, nbytes, start * ID_DTYPE.itemsize)
        finally:
            os.close(fd)
        return np.frombuffer(data, dtype=ID_DTYPE).copy()

    def slices(
        self, size: int, *, whole_lines: bool = False, tail: tuple[int, int] = (0, 0)
    ) -> list[CorpusSlice]:
        """Cut the stream into slices of about ``size`` entries, cut after a marker if one
        is near, so that few sentences are split between slices; with ``whole_lines``, none
        is (a slice then runs on to its line's end: a classifier's line holds its labels).
        ``tail = (entries, tail_size)``: a slice of ``size`` leaves at least ``entries`` after
        it; those are cut into slices of about ``tail_size``."""
        tail_entries, tail_size = tail
        slices = []
        start = 0
        while start < self.length:
            in_tail = tail_entries and start + size > self.length - tail_entries
            piece = tail_size if in_tail else size
            stop = min(start + piece, self.length)
            ids = self.read(start, stop)
            if stop < self.length:
                ends = np.flatnonzero(ids[piece // 2 :] == SENTENCE_END)
                if len(ends):
                    stop = start + piece // 2 + int(ends[-1]) + 1
                    ids = ids[: stop - start]
                elif whole_lines:
                    ids = self._to_line_end(ids, stop)
                    stop = start + len(ids)
            slices.append(CorpusSlice(start, stop, int(np.count_nonzero(ids >= 0))))
            start = stop
        return slices

    def _to_line_end(self, ids: np.ndarray, stop: int) -> np.ndarray:
        """``ids`` (which end at ``stop``) with the rest of their last line appended."""
        pieces = [ids]
        while stop < self.length:
            more = self.read(stop, min(stop + len(ids), self.length))
            ends = np.flatnonzero(more == SENTENCE_END)
            if len(ends):
                pieces.append(more[: ends[0] + 1])
                break
            pieces.append(more)
            stop += len(more)
        return np.concatenate(pieces)


class IdsInMemory(EncodedCorpus):
    """An id stream held in memory (a task's share of a distributed count), read as the file
    of :class:`EncodedCorpus` is."""

    def __init__(self, ids: np.ndarray):
        self.path = None
        self.ids = ids
        self.length = len(ids)
        self.words = int(np.count_nonzero(ids >= 0))
        self.dropped = (0, 0)

    def read(self, start: int, stop: int) -> np.ndarray:
        return self.ids[start:stop].copy()


DROPPED = -2


def renumbering(remap: np.ndarray) -> np.ndarray:
    """The new id of each first-seen id + 1: index 0 is SENTENCE_END (kept), and words left
    out (-1 in ``remap``) become DROPPED, to be removed."""
    return np.concatenate([[SENTENCE_END], np.where(remap >= 0, remap, DROPPED)]).astype(ID_DTYPE)


def renumbered(table: np.ndarray, first_seen_ids: np.ndarray) -> np.ndarray:
    """First-seen ids (SENTENCE_END included) renumbered by a :func:`renumbering` table, the
    words it leaves out removed."""
    ids = table[first_seen_ids + 1]
    return ids[ids != DROPPED]


def remap_file(raw_path: Path, raw_length: int, remap: np.ndarray, out_path: Path) -> EncodedCorpus:
    """Rewrite first-seen ids as vocabulary ids, dropping words outside the vocabulary."""
    table = renumbering(remap)
    length = words = 0
    with open(raw_path, "rb") as raw, open(out_path, "wb") as out:
        for _ in range(0, raw_length, _REMAP_CHUNK):
            ids = renumbered(table, np.fromfile(raw, dtype=ID_DTYPE, count=_REMAP_CHUNK))
            ids.tofile(out)
            length += len(ids)
            words += int(np.count_nonzero(ids >= 0))
    return EncodedCorpus(out_path, length, words)
