"""Streaming reading and whitespace tokenization of text corpora.

A corpus is a text file, plain or compressed with gzip or bzip2 (recognised by its first bytes,
not its name). It is read in blocks of characters, never whole: a corpus may be larger than
memory or one 100 MB line. Lines are sentences; a tokenizer (:mod:`wordvec.tokenize`) makes
words of them. Memory use is bounded by the block size, whatever the line length.
"""

from __future__ import annotations

import bz2
import gzip
import io
import os
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from wordvec.errors import CorpusError
from wordvec.options import OPTION
from wordvec.tokenize import get_tokenizer

BLOCK_CHARS = 1 << 20
"""Characters decoded per read."""

MAX_TOKEN_CHARS = 100_000
"""A 'word' longer than this means the file is not text in our sense."""

ENCODING_ERRORS = ("strict", "replace", "ignore")

_SPACES = (" ", "\t", "\r", "\x0b", "\x0c", "\u3000", "\xa0")
_GZIP_MAGIC = b"\x1f\x8b"
_BZIP2_MAGIC = b"BZh"


def open_corpus_bytes(path: str | os.PathLike) -> BinaryIO:
    """Open ``path`` for reading decompressed bytes, checking that it exists and is not empty."""
    path = Path(path)
    if not path.exists():
        raise CorpusError(f"corpus file not found: {path}")
    if path.is_dir():
        raise CorpusError(f"{path} is a directory, not a corpus file")
    if path.stat().st_size == 0:
        raise CorpusError(f"corpus file is empty: {path}")
    with open(path, "rb") as probe:
        magic = probe.read(3)
    if magic.startswith(_GZIP_MAGIC):
        return gzip.open(path, "rb")
    if magic.startswith(_BZIP2_MAGIC):
        return bz2.open(path, "rb")
    return open(path, "rb")


def read_pieces(
    path: str | os.PathLike,
    *,
    lowercase: bool = OPTION["lowercase"].default,
    encoding_errors: str = OPTION["encoding_errors"].default,
    tokenizer: str = OPTION["tokenizer"].default,
    block_chars: int = BLOCK_CHARS,
) -> Iterator[tuple[list[str], bool]]:
    """Yield ``(tokens, line_ends)`` pieces of the corpus in order.

    Each piece holds whole tokens of one line; ``line_ends`` says whether the line ends after it.
    A long line comes in several pieces, cut at whitespace, so no more than about
    ``block_chars`` characters are held. (With the ``char`` and ``jieba`` tokenizers a line
    without whitespace for ``MAX_TOKEN_CHARS`` characters is cut there.)

    Raises :class:`CorpusError` for unreadable, binary or (with ``encoding_errors="strict"``)
    non-UTF-8 input.
    """
    tokenize = get_tokenizer(tokenizer)
    if encoding_errors not in ENCODING_ERRORS:
        raise CorpusError(f"encoding_errors must be one of {', '.join(ENCODING_ERRORS)}")
    name = Path(path).name
    with open_corpus_bytes(path) as binary:
        text = io.TextIOWrapper(binary, encoding="utf-8", errors=encoding_errors)
        carry = ""
        while True:
            block = _read_block(text, name, block_chars)
            if not block:
                break
            if "\x00" in block:
                raise CorpusError(f"{name} looks like a binary file (it contains NUL bytes)")
            if lowercase:
                block = block.lower()
            lines = (carry + block).split("\n")
            carry = lines.pop()
            for line in lines:
                yield tokenize(line), True
            cut = max(carry.rfind(space) for space in _SPACES)
            if cut >= 0:
                head, carry = carry[:cut], carry[cut + 1 :]
                yield tokenize(head), False
            if len(carry) > MAX_TOKEN_CHARS:
                if tokenizer == "whitespace":
                    raise CorpusError(
                        f"{name} has a 'word' of over {MAX_TOKEN_CHARS:,} characters "
                        "without whitespace; is it a text file? (For unsegmented Chinese, "
                        "use --tokenizer char or jieba.)"
                    )
                yield tokenize(carry), False
                carry = ""
        if carry:
            yield tokenize(carry), True


def _read_block(text: io.TextIOWrapper, name: str, block_chars: int) -> str:
    """One block of decoded text, with decoding and decompression errors made readable."""
    try:
        return text.read(block_chars)
    except UnicodeDecodeError as exc:
        raise CorpusError(
            f"{name} is not UTF-8 text ({exc.reason}, byte 0x{exc.object[exc.start]:02x}); "
            "if it is text, pass --encoding-errors replace"
        ) from None
    except (OSError, EOFError, zlib.error) as exc:
        raise CorpusError(f"{name} cannot be decompressed: {exc}") from None
