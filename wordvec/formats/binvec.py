"""word2vec's binary format: a text header ``V dim\\n``, then per word its UTF-8 bytes, a
space, ``dim`` little-endian float32 and a newline (readers also accept no newline)."""

from __future__ import annotations

import mmap
import os
import sys
from pathlib import Path

import numpy as np

from wordvec.errors import FormatError
from wordvec.formats.textvec import parse_header
from wordvec.query.vectors import Vectors
from wordvec.runtime.atomic import atomic_write
from wordvec.runtime.memory import populated_empty


def write_binary(vectors: Vectors, path: str | os.PathLike) -> None:
    """Write word2vec binary atomically."""
    matrix = np.asarray(vectors.vectors, dtype="<f4")
    with atomic_write(path, "wb") as out:
        out.write(f"{len(vectors)} {vectors.dim}\n".encode())
        for word, row in zip(vectors.words, matrix):
            out.write(word.encode() + b" " + row.tobytes() + b"\n")


FAST_BYTES = 32 << 20
"""Files bigger than this are parsed by the compiled scan: its ~0.5 s start (numba) is then
less than the Python loop's ~6 us a word."""
_CHUNK_BYTES = 64 << 20
"""Bytes of the file mapped and scanned at a time."""


def read_binary(path: str | os.PathLike) -> Vectors:
    """Read word2vec binary; a short file is reported as truncated."""
    name = Path(path).name
    size = os.path.getsize(path)
    with open(path, "rb") as file:
        head = file.read(4096)
    end = head.find(b"\n")
    try:
        header_line = head[: max(end, 0)].decode("ascii")
    except UnicodeDecodeError:
        raise FormatError(f"{name}: the first line is not a 'words dimensions' header") from None
    count, dim = parse_header(name, header_line)
    # Each word takes at least a byte, a space and its row, so a header may not make us
    # allocate more rows than the file can hold; the scan reports such a file as truncated.
    capacity = (size - end - 1) // (4 * dim + 2)
    rows = populated_empty((min(count, capacity), dim), np.dtype("<f4"))
    if size > FAST_BYTES:
        words = _scan_compiled(path, end + 1, size, count, rows, name)
    else:
        words = _scan_in_python(Path(path).read_bytes(), end + 1, count, rows, name)
    return Vectors(words, rows if sys.byteorder == "little" else rows.astype(np.float32))


def _scan_in_python(data: bytes, pos: int, count: int, rows: np.ndarray, name: str) -> list[str]:
    row_bytes = 4 * rows.shape[1]
    words = []
    for i in range(count):
        while pos < len(data) and data[pos : pos + 1] in (b"\n", b" "):
            pos += 1
        space = data.find(b" ", pos)
        if space < 0 or space + 1 + row_bytes > len(data):
            raise _truncated(name, count, i)
        if b"\n" in data[pos:space]:
            raise _newline_in_word(name, i)
        try:
            words.append(data[pos:space].decode())
        except UnicodeDecodeError:
            raise _not_utf8(name, i) from None
        rows[i] = np.frombuffer(data, "<f4", rows.shape[1], space + 1)
        pos = space + 1 + row_bytes
    return words


def _scan_compiled(path, pos: int, size: int, count: int, rows: np.ndarray, name: str):
    """The numba scan, over the file mapped a window at a time: the system maps a window's
    pages in one call (page by page, 1.2 GB cost seconds of faults), nothing is copied but the
    rows, and a window is unmapped once scanned, so the file's pages do not add up."""
    from wordvec.kernels.vectorfiles import NEWLINE_IN_WORD, TRUNCATED, scan_binary
    from wordvec.runtime.progress import progress_bar

    row_bytes = 4 * rows.shape[1]
    words = np.empty(size + 1, dtype=np.uint8)  # only what words fill is touched
    as_bytes = rows.view(np.uint8).reshape(len(rows), row_bytes)
    todo, fill, done = min(count, len(rows)), 0, 0
    reach = max(_CHUNK_BYTES, 2 * (row_bytes + 4096))
    flags = mmap.MAP_SHARED | getattr(mmap, "MAP_POPULATE", 0)
    with open(path, "rb") as file, progress_bar(f"reading {name}", count, delay=1.0) as bar:
        while True:
            start = pos - pos % mmap.ALLOCATIONGRANULARITY
            length = min(reach, size - start)
            with mmap.mmap(file.fileno(), length, flags=flags, prot=mmap.PROT_READ,
                           offset=start) as window:  # fmt: skip
                view = np.frombuffer(window, dtype=np.uint8)
                status, reached, at, fill = scan_binary(
                    view, pos - start, done, todo - done, row_bytes, as_bytes, words, fill
                )
                del view  # the map closes only once no array looks into it
            bar.update(reached - done)
            progress, done, pos = reached > done, reached, start + at
            if status == NEWLINE_IN_WORD:
                raise _newline_in_word(name, reached)
            if status != TRUNCATED:
                break
            if start + length >= size:
                raise _truncated(name, count, reached)
            if not progress:  # one word longer than the window: a damaged file, or huge rows
                reach *= 2
    if done < count:  # more words in the header than the file can hold
        raise _truncated(name, count, done)
    text = words[:fill].tobytes()
    try:
        return text.decode().split("\n")[:-1]
    except UnicodeDecodeError as exc:
        raise _not_utf8(name, text.count(b"\n", 0, exc.start)) from None


def _truncated(name: str, count: int, found: int) -> FormatError:
    return FormatError(f"{name} is truncated: its header says {count} words, it holds {found}")


def _newline_in_word(name: str, index: int) -> FormatError:
    return FormatError(f"{name} is corrupt: word {index + 1} holds a newline")


def _not_utf8(name: str, index: int) -> FormatError:
    return FormatError(f"{name} is corrupt: word {index + 1} is not UTF-8")
