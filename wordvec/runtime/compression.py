"""gzip, bzip2 and xz streams: recognised by their first bytes (a published ``.bin.gz`` or a
``.bz2`` renamed ``.txt`` is what it holds, whatever its name), undone as they are read (gzip by
ISA-L where the ``gzip`` extra installed it: ``pip install wordvec[gzip]``), and made when an
output's name ends in ``.gz``, ``.bz2`` or ``.xz``. Corpora and vector files
share them; a ``.zip`` archive (members, not a stream) is :mod:`wordvec.formats.sources`'."""

from __future__ import annotations

import bz2
import contextlib
import gzip
import io
import lzma
import os
import zlib
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import BinaryIO

from wordvec.runtime.atomic import atomic_write

MAGICS = {b"\x1f\x8b": "gzip", b"BZh": "bzip2", b"\xfd7zXZ\x00": "xz"}
"""A compressed stream's first bytes, and its kind."""
SUFFIXES = {".gz": "gzip", ".bz2": "bzip2", ".xz": "xz"}
"""The compression an output named so is written with."""
try:  # ISA-L's gzip, where installed (pip install wordvec[gzip])
    from isal import igzip as _igzip
    from isal.isal_zlib import error as _isal_error
except ImportError:
    _igzip, _isal_error = None, zlib.error

ERRORS = (OSError, EOFError, zlib.error, lzma.LZMAError, _isal_error)
"""What a damaged compressed stream raises as it is read."""


def compression_of(head: bytes) -> str | None:
    """The kind of compressed stream that starts with ``head`` (six bytes or more); None: not
    one."""
    return next((kind for magic, kind in MAGICS.items() if head.startswith(magic)), None)


def decompressed(raw: BinaryIO) -> BinaryIO:
    """``raw`` (a binary stream) undone if it is compressed, else ``raw`` itself (peeked at,
    not consumed). Closing the decompressor leaves ``raw`` open."""
    if not hasattr(raw, "peek"):  # a BytesIO standing in for stdin
        raw = io.BufferedReader(raw)
    kind = compression_of(raw.peek(6)[:6])
    if kind == "gzip":
        # ISA-L's inflate, where installed: a 3.4 GB .bin.gz in 15.2 s against zlib's 21.0 s
        reader = _igzip.IGzipFile if _igzip is not None else gzip.GzipFile
        return reader(fileobj=raw, mode="rb")
    if kind == "bzip2":
        return bz2.BZ2File(raw, "rb")
    if kind == "xz":
        return lzma.LZMAFile(raw, "rb")
    return raw


def suffix_compression(path: str | os.PathLike) -> str | None:
    """The compression an output named ``path`` gets (``vectors.txt.gz``: gzip); None: none."""
    return SUFFIXES.get(Path(path).suffix.lower())


@contextlib.contextmanager
def compressing(raw: BinaryIO, kind: str | None) -> Iterator[BinaryIO]:
    """A binary stream whose bytes reach ``raw`` compressed as ``kind`` (None: as they are);
    the compressed stream is finished, ``raw`` left open, when the block ends."""
    if kind is None:
        yield raw
        return
    opened = {
        # no name or time in the header: the same vectors give the same bytes
        "gzip": partial(
            gzip.GzipFile, fileobj=raw, mode="wb", compresslevel=6, mtime=0, filename=""
        ),
        "bzip2": partial(bz2.BZ2File, raw, "wb"),
        "xz": partial(lzma.LZMAFile, raw, "wb"),
    }[kind]
    with opened() as stream:
        yield stream


@contextlib.contextmanager
def atomic_packed_write(path: str | os.PathLike) -> Iterator[BinaryIO]:
    """:func:`~wordvec.runtime.atomic.atomic_write` of bytes, compressed as ``path``'s suffix
    says (``.gz``, ``.bz2``, ``.xz``; else as they are)."""
    with atomic_write(path, "wb") as raw, compressing(raw, suffix_compression(path)) as out:
        yield out
