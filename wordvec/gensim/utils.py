"""gensim's ``gensim.utils`` names that word-vector scripts use: its tokenizers
(``simple_preprocess``, ``tokenize``, ``simple_tokenize``, ``deaccent``), its text conversions
(``to_unicode``/``any2unicode``, ``to_utf8``/``any2utf8``), the ``trim_rule`` answers
(``RULE_DISCARD``, ``RULE_KEEP``, ``RULE_DEFAULT``) and ``open`` for local files (plain, .gz,
.bz2, .xz, as smart_open opens them). They behave as gensim 4.4's: the same tokens for the
same text."""

from __future__ import annotations

import builtins
import bz2
import gzip
import lzma
import os
import re
import unicodedata
from collections.abc import Iterator
from typing import IO, Any

from wordvec.gensim.vocabulary import RULE_DEFAULT, RULE_DISCARD, RULE_KEEP
from wordvec.runtime.compression import compression_of, suffix_compression

__all__ = [
    "RULE_DEFAULT", "RULE_DISCARD", "RULE_KEEP", "any2unicode", "any2utf8", "deaccent",
    "open", "simple_preprocess", "simple_tokenize", "to_unicode", "to_utf8", "tokenize",
]  # fmt: skip

_ALPHABETIC = re.compile(r"((?!\d)\w)+")
"""A token, as gensim's: a run of word characters that are not digits."""


def to_unicode(text: str | bytes, encoding: str = "utf8", errors: str = "strict") -> str:
    """``text`` as a str: bytes decoded by ``encoding`` with ``errors``."""
    return text if isinstance(text, str) else str(text, encoding, errors=errors)


any2unicode = to_unicode


def to_utf8(text: str | bytes, errors: str = "strict", encoding: str = "utf8") -> bytes:
    """``text`` as UTF-8 bytes (bytes decoded by ``encoding`` first)."""
    return to_unicode(text, encoding, errors).encode("utf8")


any2utf8 = to_utf8


def deaccent(text: str | bytes) -> str:
    """``text`` without its accents (combining marks): ``"Šéf chomutovských komunistů"`` ->
    ``"Sef chomutovskych komunistu"``."""
    decomposed = unicodedata.normalize("NFD", to_unicode(text))
    kept = "".join(ch for ch in decomposed if unicodedata.category(ch) != "Mn")
    return unicodedata.normalize("NFC", kept)


def simple_tokenize(text: str) -> Iterator[str]:
    """The runs of letters (word characters that are not digits) of ``text``."""
    for match in _ALPHABETIC.finditer(text):
        yield match.group()


def tokenize(
    text: str | bytes, lowercase: bool = False, deacc: bool = False, encoding: str = "utf8",
    errors: str = "strict", to_lower: bool = False, lower: bool = False,
) -> Iterator[str]:  # fmt: skip
    """The tokens of ``text`` (:func:`simple_tokenize`), lower-cased where ``lowercase`` (or
    its other names ``to_lower``, ``lower``), without accents where ``deacc``."""
    text = to_unicode(text, encoding, errors=errors)
    if lowercase or to_lower or lower:
        text = text.lower()
    if deacc:
        text = deaccent(text)
    return simple_tokenize(text)


def simple_preprocess(
    doc: str | bytes, deacc: bool = False, min_len: int = 2, max_len: int = 15
) -> list[str]:
    """``doc``'s lower-cased tokens of ``min_len`` to ``max_len`` characters, none starting with
    an underscore: gensim's usual first step over raw text."""
    return [
        token
        for token in tokenize(doc, lower=True, deacc=deacc, errors="ignore")
        if min_len <= len(token) <= max_len and not token.startswith("_")
    ]


def open(  # gensim's name: smart_open's open
    uri: str | os.PathLike, mode: str = "r", encoding: str | None = None, **kwargs: Any
) -> IO:
    """A local file opened as smart_open opens it: undone when it is gzip, bzip2 or xz (told by
    its bytes when read, by its suffix when written); text modes decode ``encoding``."""
    if "r" in mode:
        with builtins.open(uri, "rb") as probe:
            kind = compression_of(probe.read(6))
    else:
        kind = suffix_compression(uri)
    if kind is None:
        return builtins.open(uri, mode, encoding=encoding, **kwargs)
    if "b" not in mode and "t" not in mode:
        mode += "t"
    return _OPENERS[kind](uri, mode, encoding=encoding, **kwargs)


_OPENERS = {"gzip": gzip.open, "bzip2": bz2.open, "xz": lzma.open}
