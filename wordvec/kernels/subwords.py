"""fastText's character n-grams and their hash, over UTF-8 bytes.

A word is wrapped as ``<word>``; its n-grams are the runs of ``minn``..``maxn`` characters
(UTF-8 code points, never split) that start at each character, except the one-character
n-grams ``<`` and ``>``. Each is hashed with 32-bit FNV-1a in which every byte is first
sign-extended, as fastText does by hashing C++ ``char`` (signed on x86): for bytes >= 0x80
this differs from textbook FNV-1a, and it is what makes our buckets equal fastText's.
"""

import numpy as np
from numba import njit

_FNV_OFFSET = np.uint64(2166136261)
_FNV_PRIME = np.uint64(16777619)
_LOW32 = np.uint64(0xFFFFFFFF)


@njit(cache=True, nogil=True)
def fnv1a_signed(data, start, stop):
    """fastText's hash of ``data[start:stop]`` (uint8 array): a 32-bit value, as uint64."""
    h = _FNV_OFFSET
    for i in range(start, stop):
        byte = np.uint64(np.int64(np.int8(data[i])) & 0xFFFFFFFF)  # sign-extend, as a C++ char
        h = ((h ^ byte) * _FNV_PRIME) & _LOW32
    return h


@njit(cache=True, nogil=True)
def fnv1a_signed_words(data, offsets):
    """:func:`fnv1a_signed` of each word ``data[offsets[w]:offsets[w + 1]]`` (uint64)."""
    n = offsets.shape[0] - 1
    hashes = np.zeros(n, dtype=np.uint64)
    for w in range(n):
        hashes[w] = fnv1a_signed(data, offsets[w], offsets[w + 1])
    return hashes


@njit(cache=True, nogil=True, inline="always")
def _is_continuation(byte):
    return (byte & 0xC0) == 0x80


@njit(cache=True, nogil=True)
def ngram_spans(data, start, stop, minn, maxn, spans):
    """Write the byte spans ``(begin, end)`` of the n-grams of ``data[start:stop]`` (a wrapped
    word, ``<`` ... ``>``) into ``spans`` (int64, shape (k, 2)); return how many there are.

    ``spans`` must have room for ``characters * (maxn - minn + 1)`` rows.
    """
    count = 0
    for i in range(start, stop):
        if _is_continuation(data[i]):
            continue
        j = i
        n = 1
        while j < stop and n <= maxn:
            j += 1
            while j < stop and _is_continuation(data[j]):
                j += 1
            if n >= minn and not (n == 1 and (i == start or j == stop)):
                spans[count, 0] = i
                spans[count, 1] = j
                count += 1
            n += 1
    return count


def ngram_hashes(data: np.ndarray, offsets: np.ndarray, minn: int, maxn: int):
    """The hashes of the n-grams of each wrapped word ``data[offsets[w]:offsets[w + 1]]``,
    in fastText's order, as CSR ``(ptr, hashes)`` (uint32; repeats kept, as fastText keeps
    them). The arrays are made here, in numpy, and filled by :func:`_fill_ngram_hashes`: made
    in the kernel, they had numba compile its ``np.zeros`` and slicing (~1 s of a first
    fastText run on 2 cores)."""
    n = offsets.shape[0] - 1
    longest = max(int(np.diff(offsets).max(initial=1)), 1)
    # no n-gram is longer than the longest word (in bytes, at least its characters): a file's
    # maxn of 10^6 must not size these arrays
    per_char = max(min(maxn, longest) - minn + 1, 1)
    spans = np.zeros((longest * per_char, 2), dtype=np.int64)
    hashes = np.zeros(int(offsets[n]) * per_char, dtype=np.uint32)
    ptr = np.zeros(n + 1, dtype=np.int64)
    used = _fill_ngram_hashes(data, offsets, minn, maxn, spans, hashes, ptr)
    return ptr, hashes[:used].copy()


@njit(cache=True, nogil=True)
def _fill_ngram_hashes(data, offsets, minn, maxn, spans, hashes, ptr):
    """:func:`ngram_hashes`'s loop: fill ``hashes`` and ``ptr``; return the hashes' count."""
    used = 0
    for w in range(offsets.shape[0] - 1):
        count = ngram_spans(data, offsets[w], offsets[w + 1], minn, maxn, spans)
        for s in range(count):
            hashes[used] = fnv1a_signed(data, spans[s, 0], spans[s, 1])
            used += 1
        ptr[w + 1] = used
    return used
