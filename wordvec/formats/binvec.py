"""word2vec's binary format: a text header ``V dim\\n``, then per word its UTF-8 bytes, a
space, ``dim`` little-endian float32 and a newline (readers also accept no newline)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np

from wordvec.errors import FormatError, TruncatedFile, UndecodableText
from wordvec.formats.mapped import loading_bar, scan_windows
from wordvec.formats.textvec import parse_header
from wordvec.query.vectors import Vectors
from wordvec.runtime.atomic import atomic_write
from wordvec.runtime.memory import populated_empty
from wordvec.runtime.parallel import Background, available_cores, run_pool


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


def read_binary(
    path: str | os.PathLike, encoding: str = "utf-8", errors: str = "strict"
) -> Vectors:
    """Read word2vec binary; a short file is reported as truncated. The words are decoded by
    ``encoding`` with ``errors`` (``bytes.decode``'s)."""
    name = Path(path).name
    size = os.path.getsize(path)
    with open(path, "rb") as file:
        head = file.read(4096)
    end = head.find(b"\n")
    try:
        header_line = head[: max(end, 0)].decode("ascii")
    except UnicodeDecodeError:
        raise FormatError(f"{name}: the first line is not a 'words dimensions' header") from None
    count, dim = parse_header(name, header_line, size)
    # Each word takes at least a byte, a space and its row, so a header may not make us
    # allocate more rows than the file can hold; the scan reports such a file as truncated.
    shape = (min(count, (size - end - 1) // (4 * dim + 2)), dim)
    if size > FAST_BYTES and (encoding, errors) == ("utf-8", "strict"):
        with loading_bar(name, count) as bar:
            # the system fills the pages while numba starts
            allocated = Background(populated_empty, shape, np.dtype("<f4"))
            import wordvec.kernels.vectorfiles  # noqa: F401

            rows = allocated.result()
            words, norms = _scan_compiled(path, end + 1, size, count, rows, name, bar)
    else:
        rows = np.empty(shape, dtype="<f4")
        data = Path(path).read_bytes()
        words, norms = _scan_in_python(data, end + 1, count, rows, name, encoding, errors), None
    if sys.byteorder != "little":
        rows, norms = rows.astype(np.float32), None
    return Vectors(words, rows, norms=norms)


def _scan_in_python(
    data: bytes, pos: int, count: int, rows: np.ndarray, name: str,
    encoding: str = "utf-8", errors: str = "strict",
) -> list[str]:  # fmt: skip
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
            words.append(data[pos:space].decode(encoding, errors))
        except UnicodeDecodeError as error:
            what = "UTF-8" if encoding == "utf-8" else encoding
            raise UndecodableText(f"{name} is corrupt: word {i + 1} is not {what}", error) from None
        rows[i] = np.frombuffer(data, "<f4", rows.shape[1], space + 1)
        pos = space + 1 + row_bytes
    return words


def _scan_compiled(path, pos: int, size: int, count: int, rows: np.ndarray, name: str, bar):
    from wordvec.kernels.vectorfiles import NEWLINE_IN_WORD, OK, TRUNCATED, copy_rows, scan_binary

    row_bytes = 4 * rows.shape[1]
    as_bytes = rows.view(np.uint8).reshape(len(rows), row_bytes)
    offsets = np.empty(len(rows), dtype=np.int64)
    norms = np.empty(len(rows), dtype=np.float32)
    threads = available_cores()

    def copy(window, lo: int, hi: int) -> None:
        copy_rows(window, offsets, lo, hi, as_bytes, rows, norms)

    def step(window, pos, first, todo, words, fill, final):
        """Find a window's words and rows, then copy the rows on every core."""
        result = scan_binary(window, pos, first, todo, row_bytes, offsets, words, fill)
        cuts = np.linspace(first, result[1], threads + 1).astype(np.int64)
        run_pool(lambda part: copy(window, cuts[part], cuts[part + 1]), range(threads), threads)
        return result

    todo = min(count, len(rows))  # more words in the header than the file can hold: truncated
    status, done, _, text = scan_windows(path, pos, size, todo, bar, step,
                                      longest=row_bytes + 4096, more=TRUNCATED)  # fmt: skip
    if status == NEWLINE_IN_WORD:
        raise _newline_in_word(name, done)
    if status != OK or done < count:
        raise _truncated(name, count, done)
    if text is None:  # the Python loop names the word that is not UTF-8
        return _scan_in_python(Path(path).read_bytes(), pos, count, rows, name), None
    return text.split("\n")[:-1], norms


def _truncated(name: str, count: int, found: int) -> TruncatedFile:
    return TruncatedFile(f"{name} is truncated: its header says {count} words, it holds {found}")


def _newline_in_word(name: str, index: int) -> FormatError:
    return FormatError(f"{name} is corrupt: word {index + 1} holds a newline")
