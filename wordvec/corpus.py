"""Streaming reading and whitespace tokenization of text corpora.

A corpus is a text file, plain or compressed with gzip or bzip2 (recognised by its first bytes,
not its name). It is read in blocks of characters, never whole: a corpus may be larger than
memory or one 100 MB line. Lines are sentences; a tokenizer (:mod:`wordvec.tokenize`) makes
words of them. Memory use is bounded by the block size, whatever the line length.
"""

from __future__ import annotations

import bz2
import contextlib
import gzip
import io
import multiprocessing
import os
import signal
import sys
import zlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import BinaryIO

from wordvec.errors import CorpusError
from wordvec.options import OPTION
from wordvec.remote import is_url, open_url, url_files, url_size
from wordvec.tokenize import get_converter, get_tokenizer

BLOCK_CHARS = 1 << 20
"""Characters decoded per read."""

MAX_TOKEN_CHARS = 100_000
"""A 'word' longer than this means the file is not text in our sense."""
_LINES_PER_TASK = 256  # lines a jieba worker segments at a time

ENCODING_ERRORS = ("strict", "replace", "ignore")

LONG_LINE_CUTS = (" ", "\t", "\r", "\x0b", "\x0c", "\u3000", "\xa0")
"""Where a line too long to hold is cut into pieces (never inside a word)."""
_GZIP_MAGIC = b"\x1f\x8b"
_BZIP2_MAGIC = b"BZh"


Corpus = str | os.PathLike | Sequence[str | os.PathLike]
"""A corpus: a file, ``-`` (standard input), a FIFO, a directory (its files in name order), a
URL (:mod:`wordvec.remote`), or a list of these."""


def corpus_files(corpus) -> list[str | Path]:
    """The files a corpus is read from, in order (``-`` stays as is); checked to exist."""
    paths = [corpus] if isinstance(corpus, (str, os.PathLike)) else list(corpus)
    if not paths:
        raise CorpusError("no corpus given")
    files: list[str | Path] = []
    for path in paths:
        if str(path) == "-":
            files.append("-")
            continue
        if is_url(path):
            files.extend(url_files(path))
            continue
        path = Path(path)
        if path.is_dir():
            inside = sorted(p for p in path.iterdir() if p.is_file() and not p.name.startswith("."))
            if not inside:
                raise CorpusError(f"corpus directory has no files: {path}")
            files.extend(inside)
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
    if str(files[0]) == "-":
        return "standard input"
    return str(files[0]).rstrip("/").rsplit("/", 1)[-1] if is_url(files[0]) else Path(files[0]).name


def rereadable(corpus) -> bool:
    """Whether the corpus can be read twice (no standard input, FIFO or other stream)."""
    return all(
        is_url(path) or (path != "-" and Path(path).is_file()) for path in corpus_files(corpus)
    )


def corpus_streams(corpus) -> Iterator[tuple[str, BinaryIO]]:
    """Each file of the corpus opened for decompressed bytes (gzip and bzip2 are recognised by
    their first bytes), one after another; each is closed before the next opens (standard
    input is read, never closed)."""
    for path in corpus_files(corpus):
        if path == "-":
            yield "standard input", _decompressed(sys.stdin.buffer)
            continue
        if file_size(path) == 0:
            raise CorpusError(f"corpus file is empty: {path}")
        with _opened(path) as raw:
            stream = _decompressed(raw)
            try:
                yield corpus_name(path), stream
            finally:
                if stream is not raw:
                    stream.close()  # a decompressor: leaves ``raw`` to the with


def file_size(path: str | Path) -> int | None:
    """The size in bytes of a corpus file or URL; None for a stream ('-', a FIFO)."""
    if is_url(path):
        return url_size(path)
    return Path(path).stat().st_size if Path(path).is_file() else None


def _opened(path: str | Path) -> BinaryIO:
    """A corpus file or URL opened for bytes."""
    return open_url(path) if is_url(path) else open(path, "rb")


def _decompressed(raw: BinaryIO) -> BinaryIO:
    if not hasattr(raw, "peek"):  # a BytesIO standing in for stdin
        raw = io.BufferedReader(raw)
    magic = raw.peek(3)[:3]
    if magic.startswith(_GZIP_MAGIC):
        return gzip.GzipFile(fileobj=raw, mode="rb")
    if magic.startswith(_BZIP2_MAGIC):
        return bz2.BZ2File(raw, "rb")
    return raw


def is_compressed(path: str | Path) -> bool:
    """Whether a file starts as gzip or bzip2 data (what :func:`corpus_streams` decompresses)."""
    with _opened(path) as probe:
        return probe.read(3).startswith((_GZIP_MAGIC, _BZIP2_MAGIC))


@contextlib.contextmanager
def decompression_errors(name: str) -> Iterator[None]:
    """Turn a damaged gzip or bzip2 stream into one readable :class:`CorpusError`."""
    try:
        yield
    except (OSError, EOFError, zlib.error) as exc:
        raise CorpusError(f"{name} cannot be decompressed: {exc}") from None


def read_pieces(
    corpus: Corpus,
    *,
    lowercase: bool = OPTION["lowercase"].default,
    encoding_errors: str = OPTION["encoding_errors"].default,
    tokenizer: str = OPTION["tokenizer"].default,
    convert: str | None = OPTION["convert"].default,
    workers: int = 1,
    block_chars: int = BLOCK_CHARS,
) -> Iterator[tuple[list[str], bool]]:
    """Yield ``(tokens, line_ends)`` pieces of the corpus (its files one after another) in
    order.

    Each piece holds whole tokens of one line; ``line_ends`` says whether the line ends after it.
    A long line comes in several pieces, cut at whitespace, so no more than about
    ``block_chars`` characters are held. (With the ``char`` and ``jieba`` tokenizers a line
    without whitespace for ``MAX_TOKEN_CHARS`` characters is cut there.) jieba segments on
    ``workers`` processes (jieba is Python, and holds the GIL).

    Raises :class:`CorpusError` for unreadable, binary or (with ``encoding_errors="strict"``)
    non-UTF-8 input.
    """
    tokenize = get_tokenizer(tokenizer)  # unknown or not installed: say so before reading
    converter = get_converter(convert)
    if encoding_errors not in ENCODING_ERRORS:
        raise CorpusError(f"encoding_errors must be one of {', '.join(ENCODING_ERRORS)}")
    with _lines_tokenizer(tokenizer, tokenize, workers) as tokenize_lines:
        for name, binary in corpus_streams(corpus):
            text = io.TextIOWrapper(binary, encoding="utf-8", errors=encoding_errors)
            yield from _file_pieces(
                text, name, block_chars, lowercase, converter, tokenizer, tokenize_lines
            )
            text.detach()


@contextlib.contextmanager
def _lines_tokenizer(name: str, tokenize, workers: int):
    """A function from lines to their tokens: in this process, or (jieba, several workers) on
    a pool of processes that fork with jieba's dictionary already loaded."""
    if name != "jieba" or workers <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        yield lambda lines: [tokenize(line) for line in lines]
        return
    tokenize("预热")  # loads the dictionary once, before the workers fork
    pool = multiprocessing.get_context("fork").Pool(workers, initializer=_default_signals)

    def on_pool(lines: list[str]) -> list[list[str]]:
        chunks = [lines[i : i + _LINES_PER_TASK] for i in range(0, len(lines), _LINES_PER_TASK)]
        return [tokens for chunk in pool.map(_jieba_lines, chunks) for tokens in chunk]

    try:
        yield on_pool
        pool.close()  # the workers finish and exit by themselves
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()


def _default_signals() -> None:
    """A worker leaves Ctrl-C to its parent, and SIGTERM (the pool's terminate) or SIGHUP ends
    it at once. Without this it inherits the CLI's handlers, which turn those signals into a
    KeyboardInterrupt, and a worker could outlive the pool's terminate and hang its join."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for number in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, signal.SIG_DFL)


def _jieba_lines(lines: list[str]) -> list[list[str]]:
    tokenize = get_tokenizer("jieba")
    return [tokenize(line) for line in lines]


def _file_pieces(text, name, block_chars, lowercase, converter, tokenizer, tokenize_lines):
    """:func:`read_pieces` of one file; ``tokenize_lines`` tokenizes a list of lines."""
    carry = ""
    while True:
        block = _read_block(text, name, block_chars)
        if not block:
            break
        if "\x00" in block:
            raise CorpusError(f"{name} looks like a binary file (it contains NUL bytes)")
        if converter is not None:
            block = converter(block)
        if lowercase:
            block = block.lower()
        lines = (carry + block).split("\n")
        carry = lines.pop()
        pieces = [(line, True) for line in lines]
        cut = max(carry.rfind(space) for space in LONG_LINE_CUTS)
        if cut >= 0:
            pieces.append((carry[:cut], False))
            carry = carry[cut + 1 :]
        if len(carry) > MAX_TOKEN_CHARS:
            if tokenizer == "whitespace":
                raise CorpusError(
                    f"{name} has a 'word' of over {MAX_TOKEN_CHARS:,} characters "
                    "without whitespace; is it a text file? (For unsegmented Chinese, "
                    "use --tokenizer char or jieba.)"
                )
            pieces.append((carry, False))
            carry = ""
        tokens = tokenize_lines([piece for piece, _ in pieces])
        yield from zip(tokens, (line_ends for _, line_ends in pieces))
    if carry:
        yield tokenize_lines([carry])[0], True


def _read_block(text: io.TextIOWrapper, name: str, block_chars: int) -> str:
    """One block of decoded text, with decoding and decompression errors made readable."""
    try:
        with decompression_errors(name):
            return text.read(block_chars)
    except UnicodeDecodeError as exc:
        raise CorpusError(
            f"{name} is not UTF-8 text ({exc.reason}, byte 0x{exc.object[exc.start]:02x}); "
            "if it is text, pass --encoding-errors replace"
        ) from None
