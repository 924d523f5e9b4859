"""A thread's own copies of the rows that nearly every step writes, merged into the shared rows
now and then: the one way a model keeps rows to a thread.

With several threads, a row that every step writes moves between the cores' caches at each
write, and the threads wait on each other: the output rows of the full softmax and one-vs-all
(every row, every step: 2 threads ran no faster than one), the Huffman tree's root and upper
inner nodes (hierarchical softmax fell from ~400k words/s on one thread to ~125k per thread on
two), and the most frequent words' rows (noise words above all, with negative sampling).

So a job trains on its own copies of rows ``first .. first + count - 1`` of a matrix, kept in
spare rows of that matrix from row ``at`` (the copy of row ``r`` is row ``at + r - first``,
:func:`copy_of`; the places are handed out per job, one a running thread). Each copy's change
since the last merge (the copy minus ``base``) is added to the shared row at a sentence's or a
line's end once ``merge_words`` (:data:`MERGE_WORDS`) were read since the last merge, and at
the job's end (:func:`merge_copies`); the copy starts again from the sum, which holds the
other threads' changes too. Other threads so see those rows' steps a few sentences late:
Hogwild with a delay. Not locked: two threads merging one row at the same instant can lose
one's change, as two Hogwild steps can. One thread keeps no copies, so its results do not
change.

The copies are passed down the loss as ``(first, count, at)``, a tuple of three integers (no
copies: ``count`` 0).
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from wordvec.kernels import FASTMATH

MERGE_WORDS = 1000
"""The window models' copies merge after the sentence that brings this many words read since
the last merge: after each sentence of the 1,000-word lines word2vec's tools read, and after
several short lines (a merge copies 2 x 128 rows: for 10-word questions it cost more than
their training). The classifier's copies of every output row merge at a job's end only
(merged every 1,000 tokens, its 735 rows made the cooking questions 10-14% slower on two
threads)."""

NO_COPIES = (0, 0, 0)
"""``(first, count, at)`` of a job that keeps no copies."""


class RowCopies(NamedTuple):
    """Where a job's copies are, and the shared rows' values at the last merge.

    ``w_in``'s copied rows are ``0 .. len(in_base) - 1`` (the most frequent words), ``w_out``'s
    ``out_first ..`` (``len(out_base)`` of them); both matrices keep their copies from row
    ``at[0]`` (an array, as the place is given per job; 0: the job keeps none)."""

    at: np.ndarray  # int64 (1,): the row of the first copy, 0 for none
    in_base: np.ndarray  # float32 (copied rows of w_in, dim)
    out_first: int  # the first row of w_out copied
    out_base: np.ndarray  # float32 (copied rows of w_out, dim)
    merge_words: int  # words between merges (MERGE_WORDS), 0: only at the job's end


@njit(cache=True, nogil=True, inline="always")
def copy_of(row, copies):
    """The row a job trains for ``row``: its copy if ``copies = (first, count, at)`` holds it."""
    first, count, at = copies
    local = row - first
    if np.uint64(local) < np.uint64(count):  # 0 <= local < count, in one comparison
        return at + local
    return row


@njit(cache=True, nogil=True, inline="always")
def out_copies(copies):
    """``(first, count, at)`` of ``copies``'s rows of ``w_out`` (``count`` 0 for none)."""
    at = copies.at[0]
    return copies.out_first, copies.out_base.shape[0] if at else 0, at


@njit(cache=True, nogil=True, fastmath=FASTMATH, inline="always")
def start_copies(weights, first, count, at, base):
    """Copy rows ``first .. first + count - 1`` of ``weights`` to rows ``at ..`` and to ``base``."""
    for row in range(count):
        for k in range(weights.shape[1]):
            x = weights[first + row, k]
            weights[at + row, k] = x
            base[row, k] = x


@njit(cache=True, nogil=True, fastmath=FASTMATH, inline="always")
def merge_copies(weights, first, count, at, base):
    """Add each copy's change since the last merge (its row minus ``base``'s) to the shared row,
    and start the copy and ``base`` again from the sum."""
    for row in range(count):
        for k in range(weights.shape[1]):
            x = weights[first + row, k] + (weights[at + row, k] - base[row, k])
            weights[first + row, k] = x
            weights[at + row, k] = x
            base[row, k] = x


START = np.bool_(False)
MERGE = np.bool_(True)
""":func:`job_copies`'s ``merge``, as numpy booleans: numba compiles the function once for
both (a literal ``True`` and ``False`` are two types to it, and were two compiles)."""


@njit(cache=True, nogil=True, fastmath=FASTMATH, _nrt=False)
def job_copies(w_in, w_out, copies, merge):
    """A job's copies of both matrices: started from the shared rows, at the job's start, or
    (``merge``) merged into them (:func:`merge_copies`). Nothing when the job keeps none."""
    at = copies.at[0]
    if not at:
        return
    in_base, out_base, first = copies.in_base, copies.out_base, copies.out_first
    if merge:
        merge_copies(w_in, 0, in_base.shape[0], at, in_base)
        merge_copies(w_out, first, out_base.shape[0], at, out_base)
    else:
        start_copies(w_in, 0, in_base.shape[0], at, in_base)
        start_copies(w_out, first, out_base.shape[0], at, out_base)
