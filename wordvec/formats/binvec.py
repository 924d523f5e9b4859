"""word2vec's binary format: a text header ``V dim\\n``, then per word its UTF-8 bytes, a
space, ``dim`` little-endian float32 and a newline (readers also accept no newline)."""

from __future__ import annotations

import os
import sys
from functools import partial

import numpy as np

from wordvec.errors import FormatError, TruncatedFile, UndecodableText
from wordvec.formats.mapped import decoded_words, loading_bar, scan_stream, scan_windows
from wordvec.formats.sources import Source, read_up_to, vector_source
from wordvec.formats.textvec import parse_header, rows_held
from wordvec.query.vectors import Vectors
from wordvec.runtime.compression import atomic_packed_write
from wordvec.runtime.memory import populated_empty
from wordvec.runtime.parallel import Background, available_cores, run_pool


def write_binary(vectors: Vectors, path: str | os.PathLike) -> None:
    """Write word2vec binary atomically (compressed where ``path`` ends in ``.gz``, ``.bz2``
    or ``.xz``)."""
    matrix = np.asarray(vectors.vectors, dtype="<f4")
    with atomic_packed_write(path) as out:
        out.write(f"{len(vectors)} {vectors.dim}\n".encode())
        for word, row in zip(vectors.words, matrix):
            out.write(word.encode() + b" " + row.tobytes() + b"\n")


FAST_BYTES = 32 << 20
"""Files bigger than this are parsed by the compiled scan: its ~0.5 s start (numba) is then
less than the Python loop's ~6 us a word."""


_WORD_BYTES = 64
"""Bytes a word takes at most, as a guess of how far to read a file for its first rows."""


def read_binary(
    path: str | os.PathLike | Source,
    encoding: str = "utf-8",
    errors: str = "strict",
    limit: int | None = None,
) -> Vectors:
    """Read word2vec binary (plain, compressed or in a zip: :mod:`wordvec.formats.sources`),
    the first ``limit`` words if given (no more is read); a short file is reported as
    truncated. The words are decoded by ``encoding`` with ``errors`` (``bytes.decode``'s)."""
    source = vector_source(path)
    name, size = source.name, source.size
    with source.open() as stream:
        head = stream.read(4096)
        end = head.find(b"\n")
        try:
            header_line = head[: max(end, 0)].decode("ascii")
        except UnicodeDecodeError:
            message = f"{name}: the first line is not a 'words dimensions' header"
            raise FormatError(message) from None
        count, dim = parse_header(name, header_line, size)
        # Each word takes at least a byte, a space and its row, so a header may not make us
        # allocate more rows than the file can hold; the scan reports such a file as truncated.
        held = rows_held(count, None if size is None else size - end - 1, 4 * dim + 2, limit)
        todo = min(count, limit) if limit is not None else count
        head = head[end + 1 :]
        # what the Python loop needs (a limit's rows need not be all; a file cut after them
        # still loads), or enough to know that the file is big
        wanted = FAST_BYTES + 1 if limit is None else todo * (4 * dim + 2 + _WORD_BYTES)
        if (encoding, errors) == ("utf-8", "strict"):  # else decoded in Python, word by word
            head += read_up_to(stream, min(wanted, FAST_BYTES + 1) - len(head))
        else:
            head += stream.read()
        if len(head) > FAST_BYTES and (encoding, errors) == ("utf-8", "strict"):
            with loading_bar(name, todo) as bar:
                # the system fills the pages while numba starts
                allocated = Background(populated_empty, (held, dim), np.dtype("<f4"))
                import wordvec.kernels.vectorfiles  # noqa: F401

                rows = allocated.result()
                if source.packed:
                    scan = partial(scan_stream, stream, head)
                else:
                    scan = partial(scan_windows, source.path, end + 1, size)
                words, norms = _scan_compiled(scan, todo, rows, name, bar)
        else:
            rows = np.empty((held, dim), dtype="<f4")
            while True:
                try:
                    words = _scan_in_python(head, 0, todo, rows, name, encoding, errors)
                    break
                except TruncatedFile:  # or longer words than guessed: read as much again
                    more = read_up_to(stream, len(head))
                    if not more:
                        raise
                    head += more
            norms = None
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


def _scan_compiled(scan, count: int, rows: np.ndarray, name: str, bar):
    """The words and rows' lengths of ``count`` words read by ``scan`` (:func:`scan_windows`
    or :func:`scan_stream`, bound to the file) into ``rows``."""
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
    status, done, _, raw = scan(todo, bar, step, longest=row_bytes + 4096, more=TRUNCATED)
    if status == NEWLINE_IN_WORD:
        raise _newline_in_word(name, done)
    if status != OK or done < count:
        raise _truncated(name, count, done)
    return decoded_words(raw, name), norms


def _truncated(name: str, count: int, found: int) -> TruncatedFile:
    return TruncatedFile(f"{name} is truncated: its header says {count} words, it holds {found}")


def _newline_in_word(name: str, index: int) -> FormatError:
    return FormatError(f"{name} is corrupt: word {index + 1} holds a newline")
