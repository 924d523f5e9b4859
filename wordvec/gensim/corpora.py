"""gensim's corpus iterables: ``LineSentence``, ``PathLineSentences``, ``Text8Corpus``,
``TaggedDocument``, ``TaggedLineDocument``.

They iterate as gensim's do (lists of tokens, restartable), for scripts that read them. Training
does not iterate them: :func:`training_source` hands wordvec's reader the files behind them, which
it reads on every core, as ``corpus_file=`` would.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

logger = logging.getLogger(__name__)

MAX_WORDS_IN_BATCH = 10000
"""gensim's longest sentence: longer ones are cut into pieces of this many words."""


def _lines(source: Any, limit: int | None) -> Iterator[str]:
    """The lines of a path (plain, .gz or .bz2) or of an open file, at most ``limit``."""
    from wordvec.corpus.sources import text_lines

    if hasattr(source, "read"):
        source.seek(0)
        lines: Iterable = (
            line.decode("utf-8") if isinstance(line, bytes) else line for line in source
        )
    else:
        lines = text_lines(source)
    for number, line in enumerate(lines):
        if limit is not None and number >= limit:
            return
        yield line


def _pieces(tokens: list[str], size: int) -> Iterator[list[str]]:
    for start in range(0, len(tokens), size):
        yield tokens[start : start + size]


class LineSentence:
    """Sentences of a text file, one a line, its words split by whitespace (gensim's class).
    ``source`` is a path or a file object; at most ``limit`` lines; sentences longer than
    ``max_sentence_length`` words are cut."""

    def __init__(
        self, source: Any, max_sentence_length: int = MAX_WORDS_IN_BATCH, limit: int | None = None
    ):
        self.source = source
        self.max_sentence_length = max_sentence_length
        self.limit = limit

    def __iter__(self) -> Iterator[list[str]]:
        for line in _lines(self.source, self.limit):
            yield from _pieces(line.split(), self.max_sentence_length)


class PathLineSentences:
    """:class:`LineSentence` over every file of a folder (in name order), or over one file."""

    def __init__(
        self, source: str | os.PathLike, max_sentence_length: int = MAX_WORDS_IN_BATCH,
        limit: int | None = None,
    ):  # fmt: skip
        self.source = source
        self.max_sentence_length = max_sentence_length
        self.limit = limit
        path = Path(source)
        if path.is_file():
            self.input_files = [str(path)]
        elif path.is_dir():
            self.input_files = sorted(str(p) for p in path.iterdir() if p.is_file())
        else:
            raise ValueError("input is neither a file nor a path")

    def __iter__(self) -> Iterator[list[str]]:
        for path in self.input_files:
            yield from LineSentence(path, self.max_sentence_length, self.limit)


class Text8Corpus:
    """The text8 corpus (one line of words), as sentences of ``max_sentence_length`` words."""

    def __init__(self, fname: str | os.PathLike, max_sentence_length: int = MAX_WORDS_IN_BATCH):
        self.fname = fname
        self.max_sentence_length = max_sentence_length

    def __iter__(self) -> Iterator[list[str]]:
        words: list[str] = []
        for line in _lines(self.fname, None):
            words.extend(line.split())
            while len(words) >= self.max_sentence_length:
                yield words[: self.max_sentence_length]
                words = words[self.max_sentence_length :]
        if words:
            yield words


class TaggedDocument(NamedTuple):
    """A document for paragraph vectors: its ``words`` and its ``tags``."""

    words: list[str]
    tags: list[Any]

    def __str__(self) -> str:
        return f"{type(self).__name__}<{self.words}, {self.tags}>"


class TaggedLineDocument:
    """Documents of a text file, one a line, each tagged with its line number."""

    def __init__(self, source: Any):
        self.source = source

    def __iter__(self) -> Iterator[TaggedDocument]:
        for number, line in enumerate(_lines(self.source, None)):
            yield TaggedDocument(line.split(), [number])


def training_source(corpus: Any, max_sentence_length: int | None = None) -> Any:
    """What wordvec's reader is given for a gensim corpus: the files behind a
    :class:`LineSentence` (of a path, whole), :class:`PathLineSentences` or
    :class:`Text8Corpus`, read on every core; any other iterable as it is (its token lists
    joined a sentence at a time, :mod:`wordvec.corpus.python_text`), except a list of strings,
    which gensim takes, with a warning, for sentences of their characters (whitespace left
    out: a token holds none)."""
    if (
        isinstance(corpus, LineSentence)
        and corpus.limit is None
        and isinstance(corpus.source, (str, os.PathLike))
    ):
        return str(corpus.source)
    if isinstance(corpus, PathLineSentences) and corpus.limit is None:
        return list(corpus.input_files)
    if isinstance(corpus, Text8Corpus) and _one_line(corpus.fname):
        return str(corpus.fname)
    if isinstance(corpus, (list, tuple)) and corpus and isinstance(corpus[0], str):
        logger.warning(
            "Each 'sentences' item should be a list of words (usually unicode strings). First "
            "item here is instead plain %s.", type(corpus[0])
        )  # fmt: skip
        return [characters(text) for text in corpus]
    return corpus


def _one_line(path: str | os.PathLike) -> bool:
    """Whether a text (plain, .gz or .bz2) is one line, as text8 is: a line end, if any, only
    at its end. wordvec's reader ends a sentence at a line's end; :class:`Text8Corpus` reads
    through them (gensim's), so a text of several lines is read as the iterable it is."""
    from wordvec.corpus.sources import corpus_streams, decompression_errors

    for name, stream in corpus_streams(path):
        with decompression_errors(name):
            ended = False
            while block := stream.read(1 << 20):
                inner = block[:-1]
                if ended or b"\n" in inner or b"\r" in inner:
                    return False
                ended = block.endswith((b"\n", b"\r"))
    return True


def characters(text: str) -> list[str]:
    """What gensim makes of a string given as a list of words: its characters, whitespace left
    out (a token holds none)."""
    return list("".join(text.split()))


def sentence_length(corpus: Any, default: int) -> int:
    """The sentence length a gensim corpus object cuts at (``default`` for other iterables)."""
    return int(getattr(corpus, "max_sentence_length", default))
