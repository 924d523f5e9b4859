"""A corpus given as Python objects rather than paths, read once as a stream of bytes, as
standard input is: no second pass, so a generator serves as well as a list.

Accepted (:func:`as_corpus`): a text or binary file object; an iterable of token lists
(gensim's ``sentences``: ``[["i", "like", "cats"], ...]``); an iterator or generator of lines
(``open(...)``, ``(line for line in ...)``). A list of strings stays a list of paths, as
before; lines in a list are passed as ``iter(lines)``. Tokens are joined by spaces, so a token
may not itself hold whitespace (or be empty): such a token is refused.
"""

from __future__ import annotations

import io
import itertools
import os
from collections.abc import Iterable, Iterator
from typing import BinaryIO

from wordvec.errors import CorpusError, NotSentences, shown

_CHUNK = 1 << 16
"""Bytes of text handed over at a time."""


class PythonText:
    """Text from a Python object, as one stream of UTF-8 bytes, one line a sentence."""

    name = "the Python corpus"

    def __init__(self, lines: Iterator[str] | None = None, binary: BinaryIO | None = None):
        self._lines, self._binary = lines, binary
        self._opened = False

    def stream(self) -> BinaryIO:
        """The bytes, once: a second call is a :class:`CorpusError` (the object is spent)."""
        if self._opened:
            raise CorpusError(f"{self.name} was read already; it can be read only once")
        self._opened = True
        if self._binary is not None:
            return self._binary
        return io.BufferedReader(_ChunkReader(_chunks(self._lines)), buffer_size=_CHUNK)


def as_corpus(corpus):
    """``corpus`` as the readers take it: paths (a path, or a list or tuple of paths) as they
    are; Python text as a one-item list of :class:`PythonText`."""
    if corpus is None or isinstance(corpus, (str, os.PathLike, PythonText)):
        return corpus
    if hasattr(corpus, "read"):
        if isinstance(corpus, io.TextIOBase):
            return [PythonText(lines=iter(corpus))]
        return [PythonText(binary=corpus)]
    if isinstance(corpus, (list, tuple)) and all(
        isinstance(item, (str, os.PathLike, PythonText)) for item in corpus
    ):
        for item in corpus:
            if _looks_like_text(item):
                raise CorpusError(
                    f"corpus file not found: {shown(item)} (a list of strings is a list of "
                    "paths: give lines of text as iter(lines), sentences as token lists)"
                )
        return corpus
    if not isinstance(corpus, Iterable):
        raise NotSentences(
            f"a corpus is a path, a file object or an iterable of sentences, not "
            f"{type(corpus).__name__}"
        )
    items = iter(corpus)
    first = next(items, _EMPTY)
    if first is _EMPTY:
        raise CorpusError(f"{PythonText.name} is empty")
    items = itertools.chain([first], items)
    if isinstance(first, str):
        return [PythonText(lines=items)]
    return [PythonText(lines=(_sentence_line(tokens) for tokens in items))]


_EMPTY = object()
"""What ``next`` returns for an empty corpus (an item may be None: that is another fault)."""


def _looks_like_text(item) -> bool:
    """Whether a 'path' of a list is rather a line of text: several words, and no such file."""
    return (
        isinstance(item, str) and len(item.split()) > 1 and "://" not in item
        and not os.path.exists(item)
    )  # fmt: skip


def _sentence_line(tokens) -> str:
    """A sentence's tokens as a line; a token that is empty or holds whitespace would become
    no word or several, so it is refused."""
    if isinstance(tokens, (bytes, bytearray)):
        raise NotSentences(
            f"{_SENTENCES}, not of bytes: decode each line (line.decode('utf-8')), or pass the "
            "file's path or the binary file object itself"
        )
    if isinstance(tokens, str) or not isinstance(tokens, Iterable):
        raise NotSentences(f"{_SENTENCES}, not of {type(tokens).__name__}")
    tokens = tokens if isinstance(tokens, list) else list(tokens)
    try:
        line = " ".join(tokens)  # in C; a token that is not a str is looked for only then
    except TypeError:
        odd = next(token for token in tokens if not isinstance(token, str))
        raise NotSentences(f"{_SENTENCES}: a token is a {type(odd).__name__}") from None
    if len(line.split()) != len(tokens):
        bad = next(token for token in tokens if len(token.split()) != 1)
        raise CorpusError(
            f"the token {shown(bad)} is {'empty' if not bad.strip() else 'more than one word'}: "
            "a token is one word without whitespace (join a phrase with '_', as new_york)"
        )
    return line


_SENTENCES = "a corpus of sentences is an iterable of lists of str tokens, each list a sentence"


def _chunks(lines: Iterator[str]) -> Iterator[bytes]:
    """The lines, each ending in a newline, encoded and joined into chunks of ~64 KB."""
    batch: list[str] = []
    size = 0
    for line in lines:
        if not isinstance(line, str):
            raise NotSentences(f"a line of {PythonText.name} is a {type(line).__name__}, not str")
        batch.append(line if line.endswith("\n") else line + "\n")
        size += len(line)
        if size >= _CHUNK:
            yield _encoded(batch)
            batch, size = [], 0
    if batch:
        yield _encoded(batch)


def _encoded(lines: list[str]) -> bytes:
    try:
        return "".join(lines).encode("utf-8")
    except UnicodeEncodeError as exc:
        raise CorpusError(
            f"{PythonText.name} holds text that is not Unicode ({exc.reason})"
        ) from None


class _ChunkReader(io.RawIOBase):
    """A raw binary stream over an iterator of byte chunks."""

    def __init__(self, chunks: Iterator[bytes]):
        self._chunks = chunks
        self._pending = memoryview(b"")

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        while not len(self._pending):
            chunk = next(self._chunks, None)
            if chunk is None:
                return 0
            self._pending = memoryview(chunk)
        n = min(len(buffer), len(self._pending))
        buffer[:n] = self._pending[:n]
        self._pending = self._pending[n:]
        return n
