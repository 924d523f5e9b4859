"""The Python corpus reader: text in blocks of characters to pieces of tokens.

It reads what the numba reader (:mod:`wordvec.corpus.numba_reader`) does not: the ``char`` and
``jieba`` tokenizers, ``--convert``, and bytes that need its judgement (not UTF-8). A corpus is
read in blocks of characters, never whole: it may be larger than memory or one 100 MB line.
Lines are sentences; a tokenizer (:mod:`wordvec.corpus.text`) makes words of them. Memory use
is bounded by the block size, whatever the line length.
"""

from __future__ import annotations

import contextlib
import io
import signal
from collections.abc import Iterator

from wordvec.corpus.sources import Corpus, corpus_streams, decompression_errors
from wordvec.corpus.text import (
    ENCODING_ERRORS,
    LONG_LINE_CUTS,
    MAX_TOKEN_CHARS,
    get_converter,
    get_tokenizer,
)
from wordvec.errors import CorpusError
from wordvec.options import OPTION

BLOCK_CHARS = 1 << 20
"""Characters decoded per read."""
JIEBA_BLOCK_CHARS = 1 << 16
"""... with jieba, which segments ~200,000 characters a second a process."""

_LINES_PER_TASK = 256  # lines a jieba worker segments at a time


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
    if tokenizer == "jieba":  # segmenting 1M characters takes seconds: show progress sooner
        block_chars = min(block_chars, JIEBA_BLOCK_CHARS)
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
    a pool of processes, each with jieba's dictionary loaded. The workers come from a fork
    server, a fresh process: forked from this one, which may run threads (progress bars,
    training), a worker could inherit a lock another thread held and wait on it for good."""
    if name == "jieba":
        from wordvec.runtime.progress import noted_if_slow

        with noted_if_slow("loading jieba's dictionary (its first use builds a cache)...",
                           "loaded jieba's dictionary in {seconds:.1f} s"):  # fmt: skip
            tokenize("预热")  # once, before the workers fork
    if name == "jieba" and workers > 1:
        import multiprocessing  # here: its import was 5 ms of every training's start (VM)

        if "forkserver" in multiprocessing.get_all_start_methods():
            yield from _on_a_pool(multiprocessing, workers)
            return
    yield lambda lines: [tokenize(line) for line in lines]


def _on_a_pool(multiprocessing, workers: int):
    """:func:`_lines_tokenizer`'s jieba on a pool of ``workers`` processes."""
    pool = multiprocessing.get_context("forkserver").Pool(workers, initializer=_start_worker)

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


def _start_worker() -> None:
    """A worker's signals (:func:`_default_signals`), and jieba's dictionary, loaded once."""
    _default_signals()
    get_tokenizer("jieba")("预热")


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
