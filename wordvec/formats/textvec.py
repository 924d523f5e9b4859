"""Text vector files: word2vec text (a ``V dim`` header line; also fastText's ``.vec``) and
GloVe text (no header). One word per line, then its components separated by spaces."""

from __future__ import annotations

import io
import itertools
import os
from collections import Counter
from collections.abc import Iterator
from functools import partial

import numpy as np

from wordvec.errors import FormatError, TruncatedFile, UndecodableText
from wordvec.formats.mapped import decoded_words, loading_bar, scan_stream, scan_windows
from wordvec.formats.sources import Source, vector_source
from wordvec.query.vectors import Vectors
from wordvec.runtime.compression import atomic_packed_write
from wordvec.runtime.memory import lazy_zeros, physical_memory, populated_empty

EXACT_DIGITS = 9
"""Significant digits that give back every float32 exactly (gensim's text files are exact)."""


def write_text(vectors: Vectors, path: str | os.PathLike, *, header: bool, digits: int = 6) -> None:
    """Write word2vec text (``header=True``) or GloVe text (``header=False``) atomically, each
    number to ``digits`` significant digits (:data:`EXACT_DIGITS`: read back unchanged);
    compressed where ``path`` ends in ``.gz``, ``.bz2`` or ``.xz``."""
    row_format = " ".join([f"%.{digits}g"] * vectors.dim)
    with atomic_packed_write(path) as raw, io.TextIOWrapper(raw, "utf-8", newline="\n") as out:
        if header:
            out.write(f"{len(vectors)} {vectors.dim}\n")
        for word, row in zip(vectors.words, np.asarray(vectors.vectors, dtype=np.float32)):
            out.write(f"{word} {row_format % tuple(row.tolist())}\n")


FAST_BYTES = 32 << 20
"""word2vec text files bigger than this are scanned by compiled code first (numba's start is
then worth it); a file it does not take as it is is read by the Python loop, whose messages
say what is wrong."""


def read_text(
    path: str | os.PathLike | Source,
    *,
    header: bool,
    encoding: str = "utf-8",
    errors: str = "strict",
    limit: int | None = None,
) -> Vectors:
    """Read word2vec text (``header=True``) or GloVe text (plain, compressed or in a zip:
    :mod:`wordvec.formats.sources`), the first ``limit`` rows if given (no more is read);
    strict about counts and widths. The words are decoded by ``encoding`` with ``errors``
    (``str.decode``'s: ``replace`` and ``ignore`` take a damaged word as it can be read).
    A GloVe row with more fields than the others holds a word with spaces (``glove.840B``
    has some): the last fields are its vector, the ones before its word."""
    source = vector_source(path)
    if header and (encoding, errors) == ("utf-8", "strict") and _big(source):
        fast = _read_compiled(source, limit)
        if fast is not None:
            return fast
    return _read_in_python(source, header=header, encoding=encoding, errors=errors, limit=limit)


_COMPRESSED_RATIO = 4
"""About how much gzip, bzip2 or xz shrink a text vector file (they do 3-5x)."""


def _big(source: Source) -> bool:
    """Whether ``source`` is bigger than :data:`FAST_BYTES` (a compressed one: likely to be)."""
    size = source.size
    if size is None:
        size = source.path.stat().st_size * _COMPRESSED_RATIO
    return size > FAST_BYTES


def _read_compiled(source: Source, limit: int | None = None) -> Vectors | None:
    """A well-formed word2vec text file read by :func:`wordvec.kernels.vectorfiles.scan_text`;
    None for any other (the Python loop then reads it, and names its fault)."""
    from wordvec.kernels.vectorfiles import OK, TRUNCATED, scan_text

    name, size = source.name, source.size
    with source.open() as stream:
        first = stream.readline(4096)
        try:
            count, dim = parse_header(name, first.decode("ascii"), size)
        except (UnicodeDecodeError, FormatError):
            return None
        # a number takes at least two bytes (a digit, a space): no more rows than the file holds
        todo = count if limit is None else min(count, limit)
        held = rows_held(count, size, 2 * dim + 2, limit)
        if held < todo:
            return None
        rows = populated_empty((held, dim), np.float32)

        def step(window, pos, first, todo, words, fill, final):
            return scan_text(window, pos, first, todo, rows, words, fill, final)

        if source.packed:
            scan = partial(scan_stream, stream, b"")
        else:
            scan = partial(scan_windows, source.path, len(first), size)
        with loading_bar(name, todo) as bar:
            status, done, rest, raw = scan(todo, bar, step, longest=64 * dim + 4096, more=TRUNCATED)
        if status != OK or done < todo:
            return None
        if limit is None and not _only_blank_after(source, stream, rest):
            return None
    try:
        return Vectors(decoded_words(raw, name), rows)
    except UndecodableText:
        return None


def _only_blank_after(source: Source, stream, rest: int | bytes) -> bool:
    """Whether the file holds nothing but blank lines after the rows read (more would be
    lines the header does not count: the Python loop says so); ``rest``: where the scan
    stopped in a plain file, or what it left unread of a stream's bytes."""
    if not source.packed:
        with open(source.path, "rb") as file:
            file.seek(rest)
            return not file.read(1 << 16).strip() and not file.read(1)
    return not rest.strip() and not stream.read(1 << 16).strip() and not stream.read(1)


MAX_LINE = 1 << 26
"""The longest line (in characters) a text vector file may have: a damaged or hostile file
(one 10 GB line, a decompression bomb) is refused before it fills the memory."""
_DIM_SAMPLE = 100
"""GloVe rows whose field count gives the dimensions (the most common one)."""


def _read_in_python(
    source: Source, *, header: bool, encoding: str = "utf-8", errors: str = "strict",
    limit: int | None = None,
) -> Vectors:  # fmt: skip
    name, size = source.name, source.size
    words: list[str] = []
    expected_words = None
    with source.open() as stream:
        lines = io.TextIOWrapper(stream, encoding=encoding, errors=errors)
        try:
            parsed = _rows(name, _split_lines(name, lines), header, size, limit)
            expected_words, held, dim = next(parsed)
            matrix = lazy_zeros((held, dim), np.float32)
            for number, word, values in parsed:
                if len(words) == len(matrix):  # only where a stream's size is not known
                    raise FormatError(f"{name} holds more rows than this machine's memory")
                try:  # a number too big for float32 is an infinity, which load_vectors names
                    with np.errstate(over="ignore"):
                        matrix[len(words)] = np.array(values, dtype=np.float32)
                except ValueError:
                    raise FormatError(f"{name}, line {number}: not a number") from None
                words.append(word)
        except UnicodeDecodeError as error:
            what = "UTF-8" if encoding == "utf-8" else encoding
            raise UndecodableText(
                f"{name} is not {what} text; is it a binary file?", error
            ) from None
    if expected_words is not None and len(words) != expected_words and len(words) != limit:
        error = TruncatedFile if len(words) < expected_words else FormatError
        raise error(
            f"{name} is truncated: its header says {expected_words} words, it holds {len(words)}"
        )
    if not words:
        raise FormatError(f"{name} holds no vectors")
    return Vectors(words, matrix[: len(words)])


def _split_lines(name: str, lines) -> Iterator[tuple[int, list[str]]]:
    """The line numbers and space-separated fields of the non-blank lines (a trailing space,
    as word2vec writes, is no field)."""
    number = 0
    while line := lines.readline(MAX_LINE):
        number += 1
        if len(line) == MAX_LINE and not line.endswith("\n"):
            raise FormatError(f"{name}, line {number}: longer than {MAX_LINE:,} characters")
        fields = line.rstrip("\n").rstrip("\r").split(" ")
        if fields and fields[-1] == "":
            fields.pop()
        if fields and fields != [""]:
            yield number, fields


def _rows(name: str, lines, header: bool, size: int | None, limit: int | None):
    """First (the header's word count or None, the rows to make room for, the dimensions),
    then (line number, word, its numbers as text) for each row, at most ``limit``."""
    if header:
        number, fields = next(lines, (1, []))
        count, dim = parse_header(name, " ".join(fields), size)
        seen: list[tuple[int, list[str]]] = []
        yield count, rows_held(count, size, 2 * dim + 2, limit), dim
    else:
        count = None
        seen = list(itertools.islice(lines, _DIM_SAMPLE))
        if not seen:
            raise FormatError(f"{name} holds no vectors")
        dim = Counter(len(fields) for _, fields in seen).most_common(1)[0][0] - 1
        if dim < 1:
            raise FormatError(f"{name}, line {seen[0][0]}: a word without a vector")
        # no more rows than the file holds; a stream's size is not known: half the memory
        most = physical_memory() // 2 // (4 * dim) if size is None else size // (2 * dim + 2) + 1
        yield None, most if limit is None else min(most, limit), dim
    for taken, (number, fields) in enumerate(itertools.chain(seen, lines)):
        if taken == limit:
            return
        if len(fields) == dim + 1 or (not header and len(fields) > dim + 1):
            yield number, " ".join(fields[:-dim]), fields[-dim:]
            continue
        raise FormatError(
            f"{name}, line {number}: expected a word and {dim} numbers, found {len(fields)} fields"
        )


def parse_header(name: str, line: str, size: int | None) -> tuple[int, int]:
    """The word count and dimensions of a word2vec header line (text and binary files) of a
    file of ``size`` bytes (None: a compressed stream's, not known). A row takes at least two
    bytes a dimension (a digit and a space, or half a float32), so a larger ``dim`` is a
    corrupt header, refused before any array is sized by it; a larger count is reported as a
    truncated file once the rows run out. Without a size, the matrix the header describes must
    fit in this machine's memory."""
    try:
        count, dim = (int(field) for field in line.split())
    except ValueError:
        raise FormatError(f"{name}: the first line is not a 'words dimensions' header") from None
    if count < 1 or dim < 1 or (size is not None and 2 * dim > size):
        held = f", more than its {size:,} bytes hold" if count >= 1 and dim >= 1 else ""
        raise FormatError(f"{name}: header says {count} words of {dim} dimensions{held}")
    if size is None and count * dim * 4 > physical_memory():
        raise FormatError(
            f"{name}: header says {count:,} words of {dim} dimensions, "
            f"{count * dim * 4 / 1e9:,.1f} GB, more than this machine's memory "
            f"({physical_memory() / 1e9:,.1f} GB)"
        )
    return count, dim


def rows_held(count: int, size: int | None, row_bytes: int, limit: int | None) -> int:
    """How many rows to make room for: the ``count`` a header gives, no more than a file of
    ``size`` bytes can hold at ``row_bytes`` or more a row (a stream's header was held to the
    machine's memory by :func:`parse_header`), nor than ``limit``."""
    held = count if size is None else min(count, size // row_bytes + 1)
    return held if limit is None else min(held, limit)


def has_word2vec_header(first_line: str) -> bool:
    """True if the line is ``<words> <dim>``."""
    fields = first_line.split()
    return len(fields) == 2 and all(field.isdigit() for field in fields)
