"""Text vector files: word2vec text (a ``V dim`` header line; also fastText's ``.vec``) and
GloVe text (no header). One word per line, then its components separated by spaces."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from wordvec.errors import FormatError, TruncatedFile, UndecodableText
from wordvec.formats.mapped import loading_bar, scan_windows
from wordvec.query.vectors import Vectors
from wordvec.runtime.atomic import atomic_write
from wordvec.runtime.memory import populated_empty

EXACT_DIGITS = 9
"""Significant digits that give back every float32 exactly (gensim's text files are exact)."""


def write_text(vectors: Vectors, path: str | os.PathLike, *, header: bool, digits: int = 6) -> None:
    """Write word2vec text (``header=True``) or GloVe text (``header=False``) atomically, each
    number to ``digits`` significant digits (:data:`EXACT_DIGITS`: read back unchanged)."""
    row_format = " ".join([f"%.{digits}g"] * vectors.dim)
    with atomic_write(path, "w", encoding="utf-8", newline="\n") as out:
        if header:
            out.write(f"{len(vectors)} {vectors.dim}\n")
        for word, row in zip(vectors.words, np.asarray(vectors.vectors, dtype=np.float32)):
            out.write(f"{word} {row_format % tuple(row.tolist())}\n")


FAST_BYTES = 32 << 20
"""word2vec text files bigger than this are scanned by compiled code first (numba's start is
then worth it); a file it does not take as it is is read by the Python loop, whose messages
say what is wrong."""


def read_text(
    path: str | os.PathLike, *, header: bool, encoding: str = "utf-8", errors: str = "strict"
) -> Vectors:
    """Read word2vec text (``header=True``) or GloVe text; strict about counts and widths.
    The words are decoded by ``encoding`` with ``errors`` (``str.decode``'s: ``replace`` and
    ``ignore`` take a damaged word as it can be read)."""
    if (encoding, errors) != ("utf-8", "strict"):
        return _read_in_python(path, header=header, encoding=encoding, errors=errors)
    if header and os.path.getsize(path) > FAST_BYTES:
        fast = _read_compiled(path)
        if fast is not None:
            return fast
    return _read_in_python(path, header=header)


def _read_compiled(path: str | os.PathLike) -> Vectors | None:
    """A well-formed word2vec text file read by :func:`wordvec.kernels.vectorfiles.scan_text`;
    None for any other (the Python loop then reads it, and names its fault)."""
    from wordvec.kernels.vectorfiles import OK, TRUNCATED, scan_text

    name, size = Path(path).name, os.path.getsize(path)
    with open(path, "rb") as file:
        first = file.readline(4096)
    try:
        count, dim = parse_header(name, first.decode("ascii"), size)
    except (UnicodeDecodeError, FormatError):
        return None
    # a number takes at least two bytes (a digit, a space): no more rows than the file holds
    rows = populated_empty((min(count, size // (2 * dim + 2) + 1), dim), np.float32)
    if len(rows) < count:
        return None

    def step(window, pos, first, todo, words, fill, final):
        return scan_text(window, pos, first, todo, rows, words, fill, final)

    with loading_bar(name, count) as bar:
        status, done, pos, text = scan_windows(path, len(first), size, count, bar, step,
                                               longest=64 * dim + 4096, more=TRUNCATED)  # fmt: skip
    if status != OK or done < count or text is None or not _only_blank_after(path, pos):
        return None
    return Vectors(text.split("\n")[:-1], rows)


def _only_blank_after(path, pos: int) -> bool:
    """Whether the file holds nothing but blank lines from ``pos`` on (more would be lines the
    header does not count: the Python loop says so)."""
    with open(path, "rb") as file:
        file.seek(pos)
        return not file.read(1 << 16).strip() and not file.read(1)


def _read_in_python(
    path: str | os.PathLike, *, header: bool, encoding: str = "utf-8", errors: str = "strict"
) -> Vectors:
    name = Path(path).name
    words: list[str] = []
    rows: list[np.ndarray] = []
    expected_words = dim = None
    with open(path, encoding=encoding, errors=errors) as lines:
        try:
            for number, line in enumerate(lines, start=1):
                fields = line.rstrip("\n").rstrip("\r").split(" ")
                if header and number == 1:
                    expected_words, dim = parse_header(name, line, os.path.getsize(path))
                    continue
                if fields and fields[-1] == "":
                    fields.pop()  # a trailing space, as word2vec writes
                if not fields or fields == [""]:
                    continue
                if dim is None:
                    dim = len(fields) - 1
                    if dim < 1:
                        raise FormatError(f"{name}, line {number}: a word without a vector")
                if len(fields) != dim + 1:
                    raise FormatError(
                        f"{name}, line {number}: expected a word and {dim} numbers, "
                        f"found {len(fields)} fields"
                    )
                try:
                    rows.append(np.array(fields[1:], dtype=np.float32))
                except ValueError:
                    raise FormatError(f"{name}, line {number}: not a number") from None
                words.append(fields[0])
        except UnicodeDecodeError as error:
            what = "UTF-8" if encoding == "utf-8" else encoding
            raise UndecodableText(
                f"{name} is not {what} text; is it a binary file?", error
            ) from None
    if expected_words is not None and len(words) != expected_words:
        error = TruncatedFile if len(words) < expected_words else FormatError
        raise error(
            f"{name} is truncated: its header says {expected_words} words, it holds {len(words)}"
        )
    if not words:
        raise FormatError(f"{name} holds no vectors")
    return Vectors(words, np.vstack(rows))


def parse_header(name: str, line: str, size: int) -> tuple[int, int]:
    """The word count and dimensions of a word2vec header line (text and binary files) of a
    file of ``size`` bytes. A row takes at least two bytes a dimension (a digit and a space,
    or half a float32), so a larger ``dim`` is a corrupt header, refused before any array is
    sized by it; a larger count is reported as a truncated file once the rows run out."""
    try:
        count, dim = (int(field) for field in line.split())
    except ValueError:
        raise FormatError(f"{name}: the first line is not a 'words dimensions' header") from None
    if count < 1 or dim < 1 or 2 * dim > size:
        held = f", more than its {size:,} bytes hold" if count >= 1 and dim >= 1 else ""
        raise FormatError(f"{name}: header says {count} words of {dim} dimensions{held}")
    return count, dim


def has_word2vec_header(first_line: str) -> bool:
    """True if the line is ``<words> <dim>``."""
    fields = first_line.split()
    return len(fields) == 2 and all(field.isdigit() for field in fields)
