"""Counting word co-occurrences: a dense block for frequent pairs and a hash table for the rest.

Counts are integers in units of ``1 / scale`` (``scale`` divisible by every distance in the
window, see :func:`wordvec.cooccur.counting.distance_weights`), so sums do not depend on the order
of additions: any number of threads, and counts spilled to disk and merged, give identical results.

Layout, as Stanford GloVe's ``cooccur``: the pair (row r, column c), ranks from 0, is kept in
the dense block when ``(r + 1) * (c + 1) <= max_product`` (row r holds columns
``0 .. dense_width[r] - 1`` from ``dense_start[r]``), else in an open-addressing hash table
keyed by ``r * n_words + c`` (-1 marks an empty slot).
"""

from typing import NamedTuple

import numpy as np
from numba import njit

EMPTY = -1
_HASH_MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)  # Fibonacci hashing: keep the high bits
_HIGH = np.uint64(29)


class DenseBlock(NamedTuple):
    """The frequent pairs' counts: row r's columns ``0 .. width[r] - 1`` from ``start[r]``."""

    start: np.ndarray  # int64 (V,)
    width: np.ndarray  # int64 (V,)
    counts: np.ndarray  # int64, one flat array


class PendingPairs(NamedTuple):
    """Pairs outside the dense block waiting for the hash table: keys and weights (int64)."""

    keys: np.ndarray
    weights: np.ndarray


class RowsOut(NamedTuple):
    """Where CSR rows are written: columns, values and the row pointers of a row range."""

    cols: np.ndarray  # int32
    values: np.ndarray  # int64, exact counts in units of 1 / scale
    row_ptr: np.ndarray  # int64, the range's rows + 1


@njit(cache=True, nogil=True, inline="always")
def _slot(key, capacity):
    return np.int64(((np.uint64(key) * _HASH_MULTIPLIER) >> _HIGH) % np.uint64(capacity))


@njit(cache=True, nogil=True, inline="always")
def _insert(key, weight, keys, values):
    """Add ``weight`` to ``key``'s slot (linear probing); return 1 if the key is new, else 0."""
    capacity = keys.shape[0]
    slot = _slot(key, capacity)
    while True:
        found = keys[slot]
        if found == key:
            values[slot] += weight
            return 0
        if found == EMPTY:
            keys[slot] = key
            values[slot] = weight
            return 1
        slot += 1
        if slot == capacity:
            slot = 0


@njit(cache=True, nogil=True)
def rehash(keys, values, new_keys, new_values):
    """Insert every entry of one table into another (empty, larger) one."""
    for i in range(keys.shape[0]):
        if keys[i] != EMPTY:
            _insert(keys[i], values[i], new_keys, new_values)


@njit(cache=True, nogil=True, inline="always")
def _add(row, col, weight, n_words, dense, pending, n):
    """Add ``weight`` to (row, col) in the dense block, or append the pair to the pending
    buffer at ``n``; return the new number of pending pairs."""
    if col < dense.width[row]:
        dense.counts[dense.start[row] + col] += weight
        return n
    pending.keys[n] = np.int64(row) * n_words + col
    pending.weights[n] = weight
    return n + 1


@njit(cache=True, nogil=True)
def count_pairs(ids, start, weights, symmetric, row_lo, row_hi, n_words, dense, pending):
    """Count the pairs of ``ids[start:]`` whose row is in ``[row_lo, row_hi)``.

    For each word and each earlier word of the same sentence (negative ids end sentences) at
    distance d <= window (``weights`` has window + 1 entries, ``weights[d]`` the integer weight),
    count (word, earlier) and, if ``symmetric``, (earlier, word). Pairs in the dense block are
    added there; the others are appended to ``pending`` for :func:`insert_pending`. Stops when
    the buffer may not hold another position's pairs; returns ``(next position, pairs
    pending)``.

    Why a buffer: with the hash-table insertion inlined in this loop, the loop ran four times
    slower even on rows that never reach the table (measured); apart, both loops stay tight,
    and the buffered insertions are independent, so their cache misses overlap.
    """
    window = weights.shape[0] - 1
    capacity = pending.keys.shape[0] - 2 * window
    pos = start
    sentence_start = start
    # a resumed call looks back into the window, but not past a sentence end
    while sentence_start > max(start - window, 0) and ids[sentence_start - 1] >= 0:
        sentence_start -= 1
    n = ids.shape[0]
    n_pending = 0
    while pos < n and n_pending <= capacity:
        word = ids[pos]
        if word < 0:
            sentence_start = pos + 1
            pos += 1
            continue
        mine = row_lo <= word < row_hi
        first = max(sentence_start, pos - window)
        for other_pos in range(first, pos):
            other = ids[other_pos]
            weight = weights[pos - other_pos]
            if mine:
                n_pending = _add(word, other, weight, n_words, dense, pending, n_pending)
            if symmetric and row_lo <= other < row_hi:
                n_pending = _add(other, word, weight, n_words, dense, pending, n_pending)
        pos += 1
    return pos, n_pending


@njit(cache=True, nogil=True)
def insert_pending(pending, first, stop, keys, values, used, max_used):
    """Add pending pairs ``first .. stop - 1`` to the table until it holds ``max_used``
    entries; return ``(next pending pair, entries used)``."""
    i = first
    while i < stop and used < max_used:
        used += _insert(pending.keys[i], pending.weights[i], keys, values)
        i += 1
    return i, used


@njit(cache=True, nogil=True)
def compact_sorted(keys, values, n_words, row_lo, row_hi):
    """Move the occupied slots to the front sorted by key; return ``(count, starts)``, where
    row ``row_lo + r``'s entries are ``starts[r]:starts[r + 1]``.

    A counting sort by row (rows ``row_lo .. row_hi - 1``, key // n_words), then each row's
    few entries sorted by column: far fewer cache misses than one sort of all the keys.
    The table is unusable afterwards until it is cleared (``keys[:] = EMPTY``).
    """
    n = 0
    for i in range(keys.shape[0]):
        if keys[i] != EMPTY:
            keys[n] = keys[i]
            values[n] = values[i]
            n += 1
    starts = np.zeros(row_hi - row_lo + 1, dtype=np.int64)
    for i in range(n):
        starts[keys[i] // n_words - row_lo + 1] += 1
    for r in range(row_hi - row_lo):
        starts[r + 1] += starts[r]
    fill = starts[:-1].copy()
    by_row_keys = np.empty(n, dtype=np.int64)
    by_row_values = np.empty(n, dtype=np.int64)
    for i in range(n):
        r = keys[i] // n_words - row_lo
        by_row_keys[fill[r]] = keys[i]
        by_row_values[fill[r]] = values[i]
        fill[r] += 1
    for r in range(row_hi - row_lo):
        _sort_segment(by_row_keys, by_row_values, starts[r], starts[r + 1])
    _copy_front(by_row_keys, keys, n)
    _copy_front(by_row_values, values, n)
    return n, starts


@njit(cache=True, nogil=True, inline="always")
def _copy_front(source, target, n):
    """``target[:n] = source[:n]``, as a loop: a slice assignment compiles numba's shape checks
    and their error messages (~3 s of a first GloVe run's compiling, measured)."""
    for i in range(n):
        target[i] = source[i]


@njit(cache=True, nogil=True)
def _sort_segment(keys, values, start, stop):
    """Sort ``keys[start:stop]`` (distinct) and ``values`` with them, in place: insertion sort
    for the short rows most are, heapsort for the rest. Not ``np.argsort``: its compile was
    2.4 s of a first ``cooccur`` or GloVe run's 4 (the 2-vCPU VM), and the copies it needs."""
    if stop - start < 24:
        for i in range(start + 1, stop):
            key, value = keys[i], values[i]
            j = i - 1
            while j >= start and keys[j] > key:
                keys[j + 1] = keys[j]
                values[j + 1] = values[j]
                j -= 1
            keys[j + 1] = key
            values[j + 1] = value
        return
    n = stop - start
    for root in range(n // 2 - 1, -1, -1):  # a max-heap of the segment
        _sift_down(keys, values, start, root, n)
    for end in range(n - 1, 0, -1):  # the largest to the end, the heap one shorter
        keys[start], keys[start + end] = keys[start + end], keys[start]
        values[start], values[start + end] = values[start + end], values[start]
        _sift_down(keys, values, start, 0, end)


@njit(cache=True, nogil=True, inline="always")
def _sift_down(keys, values, start, root, n):
    """Move heap entry ``root`` (of the ``n`` from ``start``) down to where it belongs."""
    key, value = keys[start + root], values[start + root]
    while True:
        child = 2 * root + 1
        if child >= n:
            break
        if child + 1 < n and keys[start + child + 1] > keys[start + child]:
            child += 1
        if keys[start + child] <= key:
            break
        keys[start + root] = keys[start + child]
        values[start + root] = values[start + child]
        root = child
    keys[start + root] = key
    values[start + root] = value


@njit(cache=True, nogil=True)
def rows_of_block(row_lo, row_hi, n_words, dense, keys, values, out, first_row):
    """Write rows ``row_lo .. row_hi - 1`` in order, each row's columns ascending: its dense
    nonzeros, then its hash-table entries (``keys``/``values``: sorted, distinct, all in these
    rows; their columns are past the row's dense width). Counts stay exact integers.

    ``out.row_ptr`` holds the pointers of the rows from ``first_row`` on: this sets
    ``row_ptr[row + 1 - first_row]`` to ``row_ptr[row_lo - first_row]`` plus the entries written
    up to that row's end. Returns the number of entries written to ``out.cols``/``out.values``.
    """
    cols, counts, row_ptr = out.cols, out.values, out.row_ptr
    base = row_ptr[row_lo - first_row]
    n = 0
    k = 0
    for row in range(row_lo, row_hi):
        start = dense.start[row]
        for col in range(dense.width[row]):
            count = dense.counts[start + col]
            if count != 0:
                cols[n] = col
                counts[n] = count
                n += 1
        while k < keys.shape[0] and keys[k] // n_words == row:
            cols[n] = keys[k] % n_words
            counts[n] = values[k]
            n += 1
            k += 1
        row_ptr[row + 1 - first_row] = base + n
    return n


@njit(cache=True, nogil=True)
def scale_counts(counts, scale, out):
    """``out[i] = counts[i] / scale`` in ``out``'s precision (float32): a product in float64,
    rounded once."""
    inverse = 1.0 / scale
    for i in range(counts.shape[0]):
        out[i] = counts[i] * inverse


@njit(cache=True, nogil=True)
def sum_runs(keys, values, heads, stops, out_keys, out_values, n):
    """Merge sorted runs of distinct keys (run i is ``keys[heads[i]:stops[i]]``) into
    ``out_keys`` from index ``n`` on, ascending and distinct, with the values of equal keys
    added up in ``out_values``; return the index past the last written. ``heads`` is used up.
    A k-way merge: a table's spilled runs, and the rows of a distributed run's parts."""
    runs = heads.shape[0]
    while True:
        smallest = -1
        for r in range(runs):
            if heads[r] < stops[r] and (smallest < 0 or keys[heads[r]] < smallest):
                smallest = keys[heads[r]]
        if smallest < 0:
            return n
        total = 0
        for r in range(runs):
            if heads[r] < stops[r] and keys[heads[r]] == smallest:
                total += values[heads[r]]
                heads[r] += 1
        out_keys[n] = smallest
        out_values[n] = total
        n += 1


@njit(cache=True, nogil=True)
def sum_rows(row_ptrs, cols, values, out_cols, out_values, out_row_ptr):
    """Add up CSR parts of the same rows: part p's row r is ``cols[row_ptrs[p, r]:row_ptrs[p,
    r + 1]]`` (columns ascending and distinct). Writes the summed rows to ``out_*`` (row
    pointers from 0) and returns how many entries."""
    parts, rows = row_ptrs.shape[0], row_ptrs.shape[1] - 1
    heads = np.empty(parts, dtype=np.int64)
    n = 0
    for row in range(rows):
        heads[:] = row_ptrs[:, row]
        n = sum_runs(cols, values, heads, row_ptrs[:, row + 1], out_cols, out_values, n)
        out_row_ptr[row + 1] = n
    return n
