"""Where a corpus's bytes come from: files, folders, standard input, FIFOs and URLs.

A corpus is a text file, plain or compressed with gzip, bzip2 or xz (recognised by its first bytes,
not its name), a folder of them (in name order), ``-`` for standard input, or a URL
(:mod:`wordvec.corpus.urls`). This module opens them as binary streams, one after another;
turning the bytes into words is :mod:`wordvec.corpus.python_reader`'s and
:mod:`wordvec.corpus.numba_reader`'s job.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import BinaryIO, TextIO

from wordvec.corpus.folders import folder_files, regular_size
from wordvec.corpus.python_text import PythonText
from wordvec.corpus.urls import open_url, url_files, url_size
from wordvec.errors import CorpusError
from wordvec.runtime.compression import ERRORS as COMPRESSION_ERRORS
from wordvec.runtime.compression import compression_of, decompressed
from wordvec.runtime.paths import is_url

Corpus = str | os.PathLike | Sequence[str | os.PathLike]
"""A corpus: a file, ``-`` (standard input), a FIFO, a directory (its files in name order), a
URL (:mod:`wordvec.corpus.urls`), or a list of these; or Python text
(:func:`wordvec.corpus.python_text.as_corpus`)."""


def corpus_files(corpus) -> list[str | Path]:
    """The files a corpus is read from, in order (``-`` stays as is); checked to exist. A
    folder's files are chosen by :func:`folder_files`."""
    paths = [corpus] if isinstance(corpus, (str, os.PathLike)) else list(corpus)
    if not paths:
        raise CorpusError("no corpus given")
    files: list[str | Path] = []
    for path in paths:
        if isinstance(path, PythonText) or str(path) == "-":
            files.append(path)
            continue
        if is_url(path):
            files.extend(url_files(path))
            continue
        path = Path(path)
        if path.is_dir():
            entries = [(p.name, p, regular_size(p)) for p in path.iterdir()]
            files.extend(folder_files(path, entries))
        elif not path.exists():
            raise CorpusError(f"corpus file not found: {path}")
        else:
            files.append(path)
    return files


def corpus_name(corpus) -> str:
    """How messages name a corpus."""
    files = [corpus] if isinstance(corpus, (str, os.PathLike)) else list(corpus)
    if len(files) != 1:
        return f"{len(files)} corpus paths"
    if isinstance(files[0], PythonText):
        return files[0].name
    if str(files[0]) == "-":
        return "standard input"
    return str(files[0]).rstrip("/").rsplit("/", 1)[-1] if is_url(files[0]) else Path(files[0]).name


def rereadable(corpus) -> bool:
    """Whether the corpus can be read twice (no standard input, FIFO or other stream)."""
    return all(
        is_url(path) or (isinstance(path, Path) and path.is_file()) for path in corpus_files(corpus)
    )


def corpus_streams(corpus) -> Iterator[tuple[str, BinaryIO]]:
    """Each file of the corpus opened for decompressed bytes (gzip, bzip2 and xz are recognised by
    their first bytes), one after another; each is closed before the next opens (standard
    input is read, never closed)."""
    for path in corpus_files(corpus):
        if isinstance(path, PythonText):
            yield path.name, decompressed(path.stream())
            continue
        if path == "-":
            yield "standard input", decompressed(standard_input().buffer)
            continue
        if file_size(path) == 0:
            raise CorpusError(f"corpus file is empty: {path}")
        with _opened(path) as raw:
            stream = decompressed(raw)
            try:
                yield corpus_name(path), stream
            finally:
                if stream is not raw:
                    stream.close()  # a decompressor: leaves ``raw`` to the with


def standard_input() -> TextIO:
    """``sys.stdin``, or a :class:`CorpusError` if the process was started with it closed
    (``<&-``), where Python sets it to None."""
    if sys.stdin is None:
        raise CorpusError("standard input is closed: give a file, or pipe text in")
    return sys.stdin


def file_size(path: str | Path) -> int | None:
    """The size in bytes of a corpus file or URL; None for a stream ('-', a FIFO, Python
    text)."""
    if isinstance(path, PythonText):
        return None
    if is_url(path):
        return url_size(path)
    return Path(path).stat().st_size if Path(path).is_file() else None


def _opened(path: str | Path) -> BinaryIO:
    """A corpus file or URL opened for bytes."""
    return open_url(path) if is_url(path) else open(path, "rb")


def is_compressed(path: str | Path) -> bool:
    """Whether a file starts as gzip, bzip2 or xz data (what :func:`corpus_streams`
    decompresses)."""
    with _opened(path) as probe:
        return compression_of(probe.read(6)) is not None


@contextlib.contextmanager
def decompression_errors(name: str) -> Iterator[None]:
    """Turn a damaged gzip, bzip2 or xz stream into one readable :class:`CorpusError`."""
    try:
        yield
    except COMPRESSION_ERRORS as exc:
        raise CorpusError(f"{name} cannot be decompressed: {exc}") from None


def text_lines(source: str | os.PathLike, encoding_errors: str = "strict") -> Iterator[str]:
    """The lines of a text file (plain, .gz or .bz2) or of standard input (``-``), decoded as
    UTF-8 (bytes that are not: ``encoding_errors``, as in training), one at a time as they
    come (a pipe's line is given before the next arrives)."""
    for name, stream in corpus_streams(source):
        text = io.TextIOWrapper(stream, encoding="utf-8", errors=encoding_errors)
        try:
            with decompression_errors(name):
                yield from text
        except UnicodeDecodeError as exc:
            raise CorpusError(
                f"{name} is not UTF-8 text ({exc.reason}); if it is text, pass "
                "--encoding-errors replace"
            ) from None
        finally:
            with contextlib.suppress(ValueError):  # already closed: the reader stopped early
                text.detach()  # leave the stream (standard input) open
