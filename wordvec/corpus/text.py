"""Tokenizers: how a line of text becomes words.

- ``whitespace`` (default): words are separated by whitespace; right for English and for
  text that is already segmented (Chinese segmented by jieba, say).
- ``char``: every CJK character is a word of its own; runs of other non-space characters
  (Latin words, numbers) stay whole. Unsegmented Chinese needs no extra package this way.
- ``jieba``: Chinese word segmentation with the jieba package (``pip install 'wordvec[zh]'``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from wordvec.errors import ConfigError
from wordvec.options import TOKENIZERS

MAX_TOKEN_CHARS = 100_000
"""A 'word' longer than this means the file is not text in our sense."""

ENCODING_ERRORS = ("strict", "replace", "ignore")

LONG_LINE_CUTS = (" ", "\t", "\r", "\x0b", "\x0c", "\u3000", "\xa0")
"""Where a line too long to hold is cut into pieces (never inside a word)."""

_CJK = (
    "\u2e80-\u2fdf\u3000-\u303f\u3040-\u30ff\u3100-\u312f\u3190-\u31ff\u3400-\u4dbf"
    "\u4e00-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\U00020000-\U0003134f"
)
_CHAR_TOKENS = re.compile(f"[{_CJK}]|[^\\s{_CJK}]+")

Tokenizer = Callable[[str], list[str]]


def whitespace_tokens(text: str) -> list[str]:
    return text.split()


def char_tokens(text: str) -> list[str]:
    """CJK characters one by one, other runs of non-space characters whole.

    >>> char_tokens("我爱Python 3和北京")
    ['我', '爱', 'Python', '3', '和', '北', '京']
    """
    return _CHAR_TOKENS.findall(text)


def get_tokenizer(name: str) -> Tokenizer:
    """The tokenizer called ``name``; :class:`ConfigError` if unknown or not installed."""
    if name == "whitespace":
        return whitespace_tokens
    if name == "char":
        return char_tokens
    if name == "jieba":
        try:
            import jieba
        except ImportError:
            raise ConfigError(
                "--tokenizer jieba needs the jieba package: pip install 'wordvec[zh]'"
            ) from None
        jieba.setLogLevel(60)  # no "Building prefix dict" chatter on stderr

        def jieba_tokens(text: str) -> list[str]:
            return [token for token in jieba.lcut(text) if not token.isspace()]

        return jieba_tokens
    raise ConfigError(f"--tokenizer must be one of {', '.join(TOKENIZERS)}, not {name!r}")


def get_converter(name: str | None) -> Callable[[str], str] | None:
    """The text conversion called ``name`` (``t2s``: traditional to simplified Chinese, with
    OpenCC), or None; :class:`ConfigError` if OpenCC is not installed."""
    if name is None:
        return None
    try:
        import opencc
    except ImportError:
        raise ConfigError(
            f"--convert {name} needs the opencc package: pip install 'wordvec[zh]'"
        ) from None
    return opencc.OpenCC(name).convert
