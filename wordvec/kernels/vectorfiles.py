"""Parsing big word2vec binary files: the scan from word to word is sequential (a row's
bytes may hold any value, spaces included), which Python does at ~6 us a word; compiled, it
runs at the speed of memory. :mod:`wordvec.formats.binvec` calls it for files too big for its
Python loop to be quick, and turns its status into messages."""

import numpy as np
from numba import njit

OK = 0
TRUNCATED = 1
"""The file ends before the next word's space and row."""
NEWLINE_IN_WORD = 2
"""A word holds a newline: a damaged file (words end at a space, a newline only comes before)."""

_SPACE, _NEWLINE = 32, 10


@njit(cache=True, nogil=True)
def scan_binary(data, pos, first, count, row_bytes, offsets, words, words_fill):
    """Read words ``first .. first + count - 1`` from ``data`` (the file's bytes) at ``pos``:
    each word, after any newlines and spaces, up to its space, then ``row_bytes`` bytes of its
    row. Words go to ``words`` from ``words_fill`` on, each followed by a newline (one decode
    of them all makes the list); where each row starts, to ``offsets[i]`` (the rows are
    copied by :func:`copy_rows`, on several threads). Returns (status, the word reached, pos,
    words_fill)."""
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
        offsets[i] = pos + 1
        pos += 1 + row_bytes
    return OK, first + count, pos, words_fill


@njit(cache=True, nogil=True)
def copy_rows(data, offsets, lo, hi, rows, matrix, norms):
    """Copy the bytes of rows ``lo .. hi - 1`` from ``data`` at ``offsets`` to ``rows`` (a
    uint8 view of the float32 ``matrix``), and their lengths to ``norms`` while they are in
    cache (as :attr:`wordvec.query.vectors.Vectors.norms`: 1 for a zero row)."""
    row_bytes = rows.shape[1]
    for i in range(lo, hi):
        row = rows[i]
        at = offsets[i]
        for k in range(row_bytes):
            row[k] = data[at + k]
        total = 0.0
        for k in range(matrix.shape[1]):
            total += np.float64(matrix[i, k]) * matrix[i, k]
        norms[i] = np.sqrt(total) if total > 0 else 1.0


ODD = 3
"""A line the fast text scan does not take as it is (a field of another shape, a number with
more than 15 significant digits or out of float64's exact powers of ten): the Python reader
reads the file instead, and says what, if anything, is wrong."""

_POWERS = np.array([10.0**k for k in range(23)])  # exact in float64
_DIGITS = 15  # an integer of 15 digits is exact in float64


@njit(cache=True, nogil=True)
def _number(data, pos):
    """The float32 of the decimal number at ``pos`` (``-1.25e-3``), rounded as NumPy does
    (the exact decimal to float64, then to float32); (value, pos after it, taken)."""
    n = data.shape[0]
    negative = False
    if pos < n and (data[pos] == 45 or data[pos] == 43):  # - +
        negative = data[pos] == 45
        pos += 1
    mantissa, digits, exponent, seen = 0, 0, 0, False
    while pos < n and 48 <= data[pos] <= 57:
        if mantissa or data[pos] != 48:
            mantissa = mantissa * 10 + (data[pos] - 48)
            digits += 1
        seen = True
        pos += 1
    if pos < n and data[pos] == 46:  # .
        pos += 1
        while pos < n and 48 <= data[pos] <= 57:
            if mantissa or data[pos] != 48:
                mantissa = mantissa * 10 + (data[pos] - 48)
                digits += 1
            exponent -= 1
            seen = True
            pos += 1
    if not seen or digits > _DIGITS:
        return np.float32(0), pos, False
    if pos < n and (data[pos] == 101 or data[pos] == 69):  # e E
        pos += 1
        sign = 1
        if pos < n and (data[pos] == 45 or data[pos] == 43):
            sign = -1 if data[pos] == 45 else 1
            pos += 1
        value, any_digit = 0, False
        while pos < n and 48 <= data[pos] <= 57 and value < 10_000:
            value = value * 10 + (data[pos] - 48)
            any_digit = True
            pos += 1
        if not any_digit:
            return np.float32(0), pos, False
        exponent += sign * value
    if mantissa == 0:
        result = 0.0
    elif 0 <= exponent <= 22:
        result = mantissa * _POWERS[exponent]
    elif -22 <= exponent < 0:
        result = mantissa / _POWERS[-exponent]
    else:
        return np.float32(0), pos, False
    return np.float32(-result if negative else result), pos, True


@njit(cache=True, nogil=True)
def scan_text(data, pos, first, count, rows, words, words_fill, final):
    """Read lines ``first .. first + count - 1`` of word2vec text (``word v1 ... vdim``, single
    spaces, an optional trailing space and CR) from ``data`` at ``pos``; words as
    :func:`scan_binary` leaves them. Blank lines are skipped; ``final``: ``data`` ends where the
    file does (its last line may lack a newline). Returns (status, the line reached, pos,
    words_fill), pos and words_fill at the start of that line unless OK: TRUNCATED where the
    data ends before a whole line, ODD at a line of another shape."""
    n = data.shape[0]
    dim = rows.shape[1]
    for i in range(first, first + count):
        while pos < n and (data[pos] == _NEWLINE or data[pos] == 13):
            pos += 1
        start, line_fill = pos, words_fill
        while pos < n and data[pos] != _SPACE and data[pos] != _NEWLINE and data[pos] != 13:
            pos += 1
        if pos >= n:
            return (ODD if final and pos > start else TRUNCATED), i, start, line_fill
        if data[pos] != _SPACE or pos == start:
            return ODD, i, start, line_fill
        for k in range(pos - start):
            words[words_fill + k] = data[start + k]
        words_fill += pos - start
        words[words_fill] = _NEWLINE
        words_fill += 1
        pos += 1
        for k in range(dim):
            value, pos, taken = _number(data, pos)
            ended = pos >= n
            if not taken or (k < dim - 1 and (ended or data[pos] != _SPACE)):
                return (TRUNCATED if ended and not final else ODD), i, start, line_fill
            rows[i, k] = value
            pos += k < dim - 1
        if pos < n and data[pos] == _SPACE:
            pos += 1
        if pos < n and data[pos] == 13:
            pos += 1
        if pos >= n and not final:
            return TRUNCATED, i, start, line_fill
        if pos < n and data[pos] != _NEWLINE:
            return ODD, i, start, line_fill
        pos += 1
    return OK, first + count, pos, words_fill
