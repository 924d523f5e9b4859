"""Which files of a corpus folder are read: the same rules for a local folder and for one at a
URL, so that the output folders of Hadoop and Spark jobs can be read as they are."""

from __future__ import annotations

import stat
from pathlib import Path
from typing import TypeVar

from wordvec.errors import CorpusError

T = TypeVar("T")
_NOTED_EMPTY: set = set()
"""The empty files already noted: a corpus's files are listed more than once in a run."""


def folder_files(folder, entries: list[tuple[str, T, int | None]]) -> list[T]:
    """The corpus files among a folder's ``entries`` (name below the folder, path, size or
    None if not a regular file), in name order, by the rules of Hadoop and Spark's output
    folders: a name (or a folder on its way) that starts with ``_`` or ``.`` is not data
    (``_SUCCESS``, ``_temporary/``, ``.part-00000.crc``); FIFOs, devices and sockets are
    skipped (a FIFO would block the run); an empty file is skipped with a note. A folder with
    nothing left is a :class:`CorpusError`."""
    chosen, empty = [], []
    for name, path, size in sorted(entries, key=lambda entry: entry[0]):
        if size is None or any(part.startswith(("_", ".")) for part in name.split("/")):
            continue
        (chosen if size else empty).append(path)
    from wordvec.runtime.progress import note  # tqdm: not for the CLI's every start

    for path in empty:
        if path not in _NOTED_EMPTY:
            _NOTED_EMPTY.add(path)
            note(f"note: skipping an empty file: {path}")
    if not chosen:
        what = "only empty files" if empty else "no files"
        raise CorpusError(f"corpus directory has {what}: {folder}")
    return chosen


def regular_size(path: Path) -> int | None:
    """The size of a regular file (or a link to one), None for anything else."""
    try:
        info = path.stat()
    except OSError:  # a dangling link
        return None
    return info.st_size if stat.S_ISREG(info.st_mode) else None
