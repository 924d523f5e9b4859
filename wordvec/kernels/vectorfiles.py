"""Parsing big word2vec binary files: the scan from word to word is sequential (a row's
bytes may hold any value, spaces included), which Python does at ~6 us a word; compiled, it
runs at the speed of memory. :mod:`wordvec.formats.binvec` calls it for files too big for its
Python loop to be quick, and turns its status into messages."""

from numba import njit

OK = 0
TRUNCATED = 1
"""The file ends before the next word's space and row."""
NEWLINE_IN_WORD = 2
"""A word holds a newline: a damaged file (words end at a space, a newline only comes before)."""

_SPACE, _NEWLINE = 32, 10


@njit(cache=True, nogil=True)
def scan_binary(data, pos, first, count, row_bytes, rows, words, words_fill):
    """Read words ``first .. first + count - 1`` from ``data`` (the file's bytes) at ``pos``:
    each word, after any newlines and spaces, up to its space, then ``row_bytes`` bytes of its
    row. Words go to ``words`` from ``words_fill`` on, each followed by a newline (one decode
    of them all makes the list); rows' bytes to ``rows[i]`` (a uint8 view of the float32
    matrix). Returns (status, the word reached, pos, words_fill)."""
    n = data.shape[0]
    for i in range(first, first + count):
        while pos < n and (data[pos] == _NEWLINE or data[pos] == _SPACE):
            pos += 1
        start = pos
        while pos < n and data[pos] != _SPACE:
            if data[pos] == _NEWLINE:
                return NEWLINE_IN_WORD, i, start, words_fill
            pos += 1
        if pos >= n or pos + 1 + row_bytes > n:
            return TRUNCATED, i, start, words_fill
        for k in range(pos - start):  # explicit loops: numba's slice assignment is slower
            words[words_fill + k] = data[start + k]
        words_fill += pos - start
        words[words_fill] = _NEWLINE
        words_fill += 1
        row = rows[i]
        pos += 1
        for k in range(row_bytes):
            row[k] = data[pos + k]
        pos += row_bytes
    return OK, first + count, pos, words_fill
