"""Which rows each thread trains its own copies of, and where they are kept: the training side
of :mod:`wordvec.kernels.copies`, for the window models and the classifier alike.

Rows that nearly every step writes are copied (one thread copies none, so its results do not
change): with negative sampling, the most frequent words' rows of both matrices
(:data:`COPIED_WORDS`), where each word's input is its own row; with hierarchical softmax,
alone or with negative sampling, the Huffman tree's upper inner nodes (:data:`COPIED_NODES`),
except in skip-gram's window step, which writes each path row once a window; with the full
softmax and one-vs-all, every output row. A matrix with copies ends with ``threads`` blocks
of spare rows after its own, one for each running job (:class:`CopyPlaces`).
"""

from __future__ import annotations

import queue
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NamedTuple

import numpy as np

from wordvec.kernels.copies import MERGE_WORDS, RowCopies
from wordvec.runtime.memory import own_cache_lines

COPIED_WORDS = 128
"""The most frequent words whose rows of both matrices each thread trains its own copies of,
with negative sampling on several threads.
Skip-gram, 2 threads, 4M tokens, on an Intel Xeon with AVX-512: 1.47-1.51M words/s a thread
with none, 1.58-1.59M with 128 (1.56M with 64 or 256; 256 merged every other sentence
1.61M, but the training loss rose, 2.4060 against 2.4009); on the whole shared corpus,
quality level (seed 1: analogy 37.3% and 36.7% in two runs with 128, 37.0% with none;
WS-353 0.676 and 0.673 against 0.677)."""

COPIED_NODES = 128
"""The Huffman tree's inner nodes nearest the root (50 KB at dim 100) that each thread trains
its own copies of, with hierarchical softmax on several threads. Measured on 2 threads (2M
tokens, skip-gram a pair at a time), hierarchical softmax fell from ~400k words/s on one thread
to ~125k per thread; with a private output layer per thread it was back at ~400k, with these
copies ~215k per thread. Skip-gram's window step (``shared_targets``) writes each path row once
a window, not once a pair: with no copies its two threads ran 219k words/s each (2M tokens)."""


class CopyPlan(NamedTuple):
    """The rows a thread copies: ``in_rows`` of ``w_in`` from row 0 (the most frequent words,
    whose ``w_out`` rows are then the same rows), and ``out_rows`` of ``w_out`` from
    ``out_first``; the copies of both go in the spare rows after ``w_out``'s ``own_rows``, and
    merge every ``merge_words`` words (:mod:`wordvec.kernels.copies`)."""

    in_rows: int = 0
    out_first: int = 0
    out_rows: int = 0
    own_rows: int = 0  # w_out's rows before the spare ones (and w_in's, when in_rows)
    merge_words: int = MERGE_WORDS  # words between merges; 0: at a job's end only

    @property
    def block(self) -> int:
        """The spare rows a job's copies take."""
        return max(self.in_rows, self.out_rows)

    def spare_rows(self, threads: int) -> int:
        """The spare rows ``w_out`` ends with."""
        return threads * self.block

    def input_spare_rows(self, threads: int) -> int:
        """The spare rows ``w_in`` ends with (none unless ``in_rows``)."""
        return self.spare_rows(threads) if self.in_rows else 0


def window_copies(
    loss: str, threads: int, paths_once_a_window: bool, own_inputs: bool, n_words: int
) -> CopyPlan:
    """What the window models (skip-gram, CBOW, fastText, paragraph vectors) copy;
    ``paths_once_a_window``: every step of the model writes a Huffman path's rows once a
    window (skip-gram's window step alone: PV-DBOW's document steps take one a word)."""
    if threads <= 1:
        return CopyPlan()
    if loss == "ns" and own_inputs:
        words = min(COPIED_WORDS, n_words)
        return CopyPlan(in_rows=words, out_rows=words, own_rows=n_words)
    if loss in ("hs", "hs+ns") and not paths_once_a_window:
        first = n_words if loss == "hs+ns" else 0  # hs+ns: the words' rows, then the nodes'
        inner = n_words - 1  # numbered in merge order: the root and its nearest descendants last
        nodes = min(COPIED_NODES, inner)
        return CopyPlan(out_first=first + inner - nodes, out_rows=nodes, own_rows=first + inner)
    return CopyPlan()


OVA_MERGE_WORDS = 100
"""Tokens between the merges of one-vs-all's copies. Every one-vs-all step pushes every other
label's row the same way, so two threads' copies merged at a job's end (100,000 tokens) added
up to twice the step: on the cooking questions (lr 0.5, 5 epochs, 2 threads) the rows grew to
1e13 and P@1 fell to 0.22-0.27 in three seeds of three (one thread: 0.545-0.548, fastText's
Hogwild 0.546); merged every 1,000 tokens one run of six still blew up (P@1 0.42). Every 100:
0.540-0.550 over seven seeds, and the bigram model (25 epochs) 0.554-0.564 against one
thread's 0.556-0.561, in the time of merging at the end (1.5-2.0 s against 1.5 s; every
token: 3.7 s; no copies, the threads sharing the rows: 9.1 s). Rate 0.5 is the edge of
one-vs-all on these questions, not a margin: two threads diverged in 3 runs of 150 (one
thread 0 of 50, at 0.6 in 20 of 30), where fastText's own diverged in 9 of 20 on one thread
and 2 of 20 on two."""


def label_copies(loss: str, threads: int, n_labels: int) -> CopyPlan:
    """What the classifier copies: every output row for the losses over every row (whose
    threads, sharing them, ran no faster than one), merged at a job's end (the softmax) or
    every :data:`OVA_MERGE_WORDS` tokens (one-vs-all)."""
    if threads <= 1 or loss not in ("softmax", "ova"):
        return CopyPlan()
    merge_words = OVA_MERGE_WORDS if loss == "ova" else 0
    return CopyPlan(out_rows=n_labels, own_rows=n_labels, merge_words=merge_words)


class CopyPlaces:
    """The blocks of spare rows of one training run: a job takes one for its copies and gives it
    back when it ends (a block for each of ``threads`` running jobs)."""

    def __init__(self, plan: CopyPlan, threads: int) -> None:
        self.plan = plan
        self.free: queue.SimpleQueue = queue.SimpleQueue()
        for thread in range(threads if plan.block else 0):
            self.free.put(plan.own_rows + thread * plan.block)

    def memory(self, dim: int) -> RowCopies:
        """One thread's :class:`~wordvec.kernels.copies.RowCopies` (empty without copies)."""
        return RowCopies(
            at=own_cache_lines(1, np.int64),
            in_base=own_cache_lines((self.plan.in_rows, dim), np.float32),
            out_first=self.plan.out_first,
            out_base=own_cache_lines((self.plan.out_rows, dim), np.float32),
            merge_words=self.plan.merge_words,
        )

    @contextmanager
    def job(self, copies: RowCopies, words: int) -> Iterator[None]:
        """Give a job of ``words`` words a block for ``copies`` while it runs (none to a job
        with no words, or without copies)."""
        at = self.free.get() if self.plan.block and words else 0
        copies.at[0] = at
        try:
            yield
        finally:
            if at:
                self.free.put(at)


NO_PLACES = CopyPlaces(CopyPlan(), 1)
"""The places of a run that keeps no copies (one thread)."""
