"""Joining phrases in an encoded corpus, and writing it back as text (for
:mod:`wordvec.cooccur.phrases`)."""

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def join_pairs(ids, good, n_words, previous, joined, used):
    """Mark ``joined[i] = 1`` where ``ids[i]`` joins the word before it: the pair's key
    ``previous * n_words + ids[i]`` is in the sorted ``good``, and the word before was not
    itself joined to its own predecessor; and ``used[k] = 1`` for each key of ``good`` so
    joined. Negative ids end lines. ``previous`` carries the last word (-1: none) from the
    chunk before; returns (joins made, the last word)."""
    made = 0
    for i in range(ids.shape[0]):
        word = ids[i]
        if word < 0:
            previous = -1
            continue
        if previous >= 0:
            key = previous * n_words + word
            at = np.searchsorted(good, key)
            if at < good.shape[0] and good[at] == key:
                joined[i] = 1
                used[at] = 1
                made += 1
                previous = -1  # a joined word starts no pair
                continue
        previous = word
    return made, previous


@njit(cache=True, nogil=True)
def write_tokens(ids, joined, word_bytes, starts, lengths, line_open, out):
    """Write the words of ``ids`` into ``out``: separated by a space, or ``_`` where joined,
    a newline at each line end (negative id). ``line_open``: a line is under way from the
    chunk before. Returns (bytes written, whether a line is still open)."""
    n = 0
    for i in range(ids.shape[0]):
        word = ids[i]
        if word < 0:
            out[n] = 10
            n += 1
            line_open = False
            continue
        if line_open:
            out[n] = 95 if joined[i] else 32
            n += 1
        start = starts[word]
        for k in range(lengths[word]):
            out[n + k] = word_bytes[start + k]
        n += lengths[word]
        line_open = True
    return n, line_open
