"""fastText's subwords: character n-grams and their hashed buckets.

The input matrix has one row per vocabulary word followed by ``bucket`` rows shared by all
character n-grams (``n_words + hash(ngram) % bucket``). A word's vector is the mean of its own
row and its n-gram rows; a word outside the vocabulary has no own row and gets the mean of its
n-gram rows, so any string has a vector, as in fastText.

Example::

    >>> char_ngrams("cats", 3, 3)
    ['<ca', 'cat', 'ats', 'ts>']
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from wordvec.errors import FormatError

BOW, EOW = "<", ">"
MAX_SETTING = 2**31 - 1
"""n-gram lengths and bucket counts fit fastText's int32 fields."""


def check_subword_settings(name: str, minn: int, maxn: int, bucket: int, rows: int) -> None:
    """Raise :class:`FormatError` unless a file's subword settings are ones training can make
    and its n-gram matrix has ``bucket`` rows: the n-gram code indexes rows by hash % bucket
    and loops over lengths minn..maxn, so a negative bucket or length read from a damaged file
    crashed it (SIGSEGV, SIGABRT). ``maxn`` 0 means no subwords."""
    if maxn == 0:
        return
    if not 1 <= minn <= maxn <= MAX_SETTING:
        raise FormatError(f"{name} is corrupt (n-gram lengths minn {minn}, maxn {maxn})")
    if not 1 <= bucket <= MAX_SETTING or rows != bucket:
        raise FormatError(f"{name} is corrupt ({rows} n-gram rows for {bucket} buckets)")


def wrapped_utf8(words: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """``<word>`` for each word as one UTF-8 byte array, and the offsets of each word in it."""
    encoded = [(BOW + word + EOW).encode() for word in words]
    offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
    np.cumsum([len(b) for b in encoded], out=offsets[1:])
    return np.frombuffer(b"".join(encoded), dtype=np.uint8), offsets


def char_ngrams(word: str, minn: int, maxn: int) -> list[str]:
    """The n-grams fastText hashes for ``word``, in its order (``<``/``>`` mark the ends)."""
    from wordvec.kernels.subwords import ngram_spans

    data, _ = wrapped_utf8([word])
    spans = np.zeros((len(data) * max(maxn - minn + 1, 1), 2), dtype=np.int64)
    count = ngram_spans(data, 0, len(data), minn, maxn, spans)
    return [bytes(data[a:b]).decode() for a, b in spans[:count]]


def ngram_hashes(words: Sequence[str], minn: int, maxn: int) -> tuple[np.ndarray, np.ndarray]:
    """fastText's 32-bit hash of every n-gram of every word, CSR ``(ptr, hashes)``."""
    from wordvec.kernels.subwords import ngram_hashes as hashes_kernel

    return hashes_kernel(*wrapped_utf8(words), minn, maxn)


def subword_rows(
    words: Sequence[str],
    n_words: int,
    minn: int,
    maxn: int,
    bucket: int,
    *,
    bare: Sequence[int] = (),
) -> tuple[np.ndarray, np.ndarray]:
    """Input rows of ``words`` as CSR ``(ptr, idx)``: the first ``n_words`` words (the
    vocabulary) read their own row first; then every word its n-grams' rows,
    ``n_words + hash % bucket``. Words listed in ``bare`` get no n-gram rows."""
    own = np.full(len(words), -1, dtype=np.int64)
    own[:n_words] = np.arange(n_words)
    return token_rows(words, own, n_words, minn, maxn, bucket, bare=bare)


def token_rows(
    tokens: Sequence[str],
    own: np.ndarray,
    n_words: int,
    minn: int,
    maxn: int,
    bucket: int,
    *,
    bare: Sequence[int] = (),
) -> tuple[np.ndarray, np.ndarray]:
    """Input rows of each token as CSR ``(ptr, idx)``: its own row ``own[t]`` first (none where
    it is -1: a word outside the vocabulary), then, with ``maxn`` > 0, its n-grams' rows
    ``n_words + hash % bucket`` (none for the tokens listed in ``bare``), as fastText's
    ``addSubwords`` lists them."""
    own = np.asarray(own, dtype=np.int64)
    if maxn > 0:
        ptr, hashes = ngram_hashes(tokens, minn, maxn)
    else:
        ptr, hashes = np.zeros(len(tokens) + 1, dtype=np.int64), np.zeros(0, dtype=np.uint32)
    owner = np.repeat(np.arange(len(tokens)), np.diff(ptr))
    keep = ~np.isin(owner, bare)
    has_own = np.flatnonzero(own >= 0)
    owner = np.concatenate([has_own, owner[keep]])
    rows = np.concatenate([own[has_own], n_words + hashes[keep] % max(bucket, 1)])
    order = np.argsort(owner, kind="stable")  # by token; own row first, n-grams in order
    counts = np.bincount(owner, minlength=len(tokens))
    return np.concatenate([[0], np.cumsum(counts)]), rows[order].astype(np.int32)


def word_hashes(words: Sequence[str]) -> np.ndarray:
    """fastText's hash of each whole word, as its word n-grams combine them: the 32-bit value
    read as a signed int32 and sign-extended to 64 bits (``addWordNgrams`` holds the hashes
    in a ``std::vector<int32_t>`` and widens them to ``uint64_t``)."""
    from wordvec.kernels.subwords import fnv1a_signed_words

    encoded = [word.encode() for word in words]
    offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
    np.cumsum([len(b) for b in encoded], out=offsets[1:])
    data = np.frombuffer(b"".join(encoded), dtype=np.uint8)
    hashes = fnv1a_signed_words(data, offsets).astype(np.uint32)
    return hashes.view(np.int32).astype(np.int64).view(np.uint64)
