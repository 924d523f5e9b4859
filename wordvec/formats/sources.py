"""Where a vector file's bytes come from: a plain file, a compressed one (gzip, bzip2, xz:
told by their first bytes, not their names) or a member of a ``.zip`` archive, as published
vectors come (``GoogleNews-vectors-negative300.bin.gz``, ``sgns.wiki.word.bz2``,
``wiki-news-300d-1M.vec.zip``, ``glove.6B.zip:glove.6B.50d.txt``).

A plain file is read where it lies (mapped a window at a time, :mod:`wordvec.formats.mapped`);
a packed one is undone as it is read, never whole in memory and never to disk, except for the
formats that are read mapped at random (fastText's ``.bin``, wordvec's model file, ``.npy``):
those are undone to a temporary file first (:func:`unpacked_file`).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import BinaryIO

from wordvec.errors import FormatError
from wordvec.runtime.compression import ERRORS, compression_of, decompressed

_ZIP_MAGIC = b"PK\x03\x04"
_SHOWN_MEMBERS = 8


@dataclass(frozen=True)
class Source:
    """A vector file: ``path`` on disk, its ``kind`` (None: plain; ``gzip``, ``bzip2``, ``xz``,
    ``zip``) and for an archive the ``member`` read from it."""

    path: Path
    kind: str | None = None
    member: str | None = None

    @property
    def name(self) -> str:
        """How messages name it: ``x.bin.gz``, ``glove.6B.zip:glove.6B.50d.txt``."""
        return f"{self.path.name}:{self.member}" if self.member else self.path.name

    @property
    def packed(self) -> bool:
        """Whether its bytes are undone as they are read (not mapped where they lie)."""
        return self.kind is not None

    @cached_property  # a zip's directory is read once
    def size(self) -> int | None:
        """Its bytes once undone, where the file says (plain files and zip members); None for
        a compressed stream, whose size is known only once it has been read."""
        if self.kind is None:
            return self.path.stat().st_size
        if self.kind == "zip":
            with zipfile.ZipFile(self.path) as archive:
                return archive.getinfo(self.member).file_size
        return None

    @property
    def inner_name(self) -> str:
        """The name of what it holds: ``x.bin`` for ``x.bin.gz``, the member of a zip."""
        if self.member:
            return self.member
        name = self.path.name
        return name.rsplit(".", 1)[0] if self.kind and name.count(".") else name

    @contextlib.contextmanager
    def open(self) -> Iterator[BinaryIO]:
        """Its bytes, undone: damaged compressed data is a :class:`FormatError` naming it."""
        with open(self.path, "rb") as raw:
            if self.kind is None:
                yield raw
                return
            with unpacking_errors(self.name):
                if self.kind == "zip":
                    with zipfile.ZipFile(raw) as archive, archive.open(self.member) as member:
                        yield member
                else:
                    with decompressed(raw) as stream:
                        yield stream

    def head(self, size: int = 1 << 16) -> bytes:
        """Its first ``size`` bytes (fewer if it is shorter), undone."""
        with self.open() as stream:
            return read_up_to(stream, size)


def vector_source(path: str | os.PathLike | Source) -> Source:
    """The :class:`Source` of a vector file path; ``ARCHIVE.zip:MEMBER`` names a member. A
    missing file, a directory, an empty file, a damaged archive and an archive of several
    files with no member named are :class:`FormatError`\\ s (the last lists its members)."""
    if isinstance(path, Source):
        return path
    given = Path(path)
    member = None
    if not given.exists() and ":" in given.name:
        archive, member = str(path).rsplit(":", 1)
        if Path(archive).is_file():
            given = Path(archive)
        else:
            member = None
    if not given.exists():
        raise FormatError(f"file not found: {given}")
    if given.is_dir():
        raise FormatError(f"{given} is a directory, not a vector file")
    with open(given, "rb") as probe:
        first = probe.read(6)
    if not first:
        raise FormatError(f"{given.name} is empty")
    if first.startswith(_ZIP_MAGIC):
        return Source(given, "zip", _member(given, member))
    if member is not None:
        raise FormatError(f"{given.name} is not a zip archive: it has no member {member}")
    return Source(given, compression_of(first))


def _member(path: Path, wanted: str | None) -> str:
    """The member of the zip archive at ``path`` to read: ``wanted``, or its only file."""
    try:
        with zipfile.ZipFile(path) as archive:
            members = [info.filename for info in archive.infolist() if not info.is_dir()]
    except (zipfile.BadZipFile, *ERRORS) as exc:
        raise FormatError(f"{path.name} is a damaged zip archive ({exc})") from None
    if wanted is not None and wanted in members:
        return wanted
    listed = ", ".join(members[:_SHOWN_MEMBERS]) + (", ..." if len(members) > _SHOWN_MEMBERS
                                                    else "")  # fmt: skip
    if not members:
        raise FormatError(f"{path.name} is a zip archive with no files in it")
    if wanted is not None:
        raise FormatError(f"{path.name} has no member {wanted}; it holds {listed}")
    if len(members) > 1:
        raise FormatError(
            f"{path.name} holds {len(members)} files: name one as {path.name}:MEMBER "
            f"(it holds {listed})"
        )
    return members[0]


@contextlib.contextmanager
def unpacking_errors(name: str) -> Iterator[None]:
    """Turn damaged compressed data, met as it is read, into a :class:`FormatError`."""
    try:
        yield
    except FormatError:
        raise
    except (zipfile.BadZipFile, *ERRORS) as exc:
        raise FormatError(f"{name} cannot be decompressed ({exc}): a damaged file?") from None


def read_up_to(stream: BinaryIO, size: int) -> bytes:
    """``size`` bytes of ``stream``, fewer only where it ends (a decompressor's ``read`` may
    return fewer)."""
    parts, got = [], 0
    while got < size:
        part = stream.read(min(size - got, _COPY_BYTES))
        if not part:
            break
        parts.append(part)
        got += len(part)
    return b"".join(parts)


_COPY_BYTES = 16 << 20


@contextlib.contextmanager
def unpacked_file(source: Source) -> Iterator[Path]:
    """A plain file holding ``source``'s bytes: itself when plain, else a temporary copy
    undone (named as what it holds, so messages name the file), removed after the block; a
    file mapped from it stays readable until unmapped. The copy stops with an error where the
    disk would fill."""
    if not source.packed:
        yield source.path
        return
    folder = Path(tempfile.mkdtemp(prefix="wordvec-"))
    try:
        target = folder / Path(source.inner_name).name
        free = shutil.disk_usage(folder).free
        with source.open() as stream, unpacking_errors(source.name), open(target, "wb") as out:
            while chunk := stream.read(_COPY_BYTES):
                free -= len(chunk)
                if free < _COPY_BYTES:
                    raise FormatError(
                        f"{source.name} does not fit on the disk of {folder.parent} once "
                        f"decompressed; decompress it where there is room"
                    )
                out.write(chunk)
        yield target
    finally:
        shutil.rmtree(folder, ignore_errors=True)
