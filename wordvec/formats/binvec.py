"""word2vec's binary format: a text header ``V dim\\n``, then per word its UTF-8 bytes, a
space, ``dim`` little-endian float32 and a newline (readers also accept no newline)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from wordvec.errors import FormatError
from wordvec.formats.textvec import parse_header
from wordvec.query.vectors import Vectors
from wordvec.runtime.atomic import atomic_write


def write_binary(vectors: Vectors, path: str | os.PathLike) -> None:
    """Write word2vec binary atomically."""
    matrix = np.asarray(vectors.vectors, dtype="<f4")
    with atomic_write(path, "wb") as out:
        out.write(f"{len(vectors)} {vectors.dim}\n".encode())
        for word, row in zip(vectors.words, matrix):
            out.write(word.encode() + b" " + row.tobytes() + b"\n")


def read_binary(path: str | os.PathLike) -> Vectors:
    """Read word2vec binary; a short file is reported as truncated."""
    name = Path(path).name
    data = Path(path).read_bytes()
    end = data.find(b"\n")
    try:
        header_line = data[:end].decode("ascii")
    except UnicodeDecodeError:
        raise FormatError(f"{name}: the first line is not a 'words dimensions' header") from None
    count, dim = parse_header(name, header_line)
    row_bytes = 4 * dim
    # Each word takes at least a byte, a space and its row, so a header may not make us
    # allocate more rows than the file can hold; the loop reports such a file as truncated.
    capacity = (len(data) - end - 1) // (row_bytes + 2)
    words, rows = [], np.empty((min(count, capacity), dim), dtype=np.float32)
    pos = end + 1
    for i in range(count):
        while pos < len(data) and data[pos : pos + 1] in (b"\n", b" "):
            pos += 1
        space = data.find(b" ", pos)
        if space < 0 or space + 1 + row_bytes > len(data):
            raise FormatError(f"{name} is truncated: its header says {count} words, it holds {i}")
        try:
            words.append(data[pos:space].decode())
        except UnicodeDecodeError:
            raise FormatError(f"{name} is corrupt: word {i + 1} is not UTF-8") from None
        rows[i] = np.frombuffer(data, "<f4", dim, space + 1)
        pos = space + 1 + row_bytes
    return Vectors(words, rows)
