"""The one update of every model: a hidden vector predicts its target(s) through the loss.

A model (:mod:`wordvec.kernels.windows` for skip-gram, CBOW and fastText;
:mod:`wordvec.kernels.supervised` for the classifier) makes a hidden vector ``h`` from its input
rows (a centre word's rows, the mean of a window's, of a line's words and n-grams) and hands it
to :func:`loss_update` with what ``h`` should predict; it gets back the loss and ``grad``, the
step for ``h`` (``-alpha * dLoss/dh``, word2vec's ``neu1e``), which it adds to its input rows.
The loss is chosen here, once, by ``kind`` (the output layer's), which every function here
takes first: a model's kernel is compiled for one kind (:mod:`wordvec.kernels.specialize`), so
that numba prunes the other kinds' branches and compiles only the chosen loss:

- negative sampling: the target word (label 1) and ``negative`` noise words drawn from the
  packed alias table (label 0), one SGD step on their logistic losses
  (:func:`~wordvec.kernels.logistic.logistic_updates`);
- hierarchical softmax: the inner nodes on the target's Huffman path, labelled ``1 - code``,
  the same logistic step;
- both at once (word2vec's ``-hs 1 -negative 5``, gensim's ``hs=1, negative=5``): the path's
  nodes and the noise words in one logistic step, as word2vec adds both to one ``neu1e``;
  ``w_out`` holds a row per word (negative sampling's) and then the inner nodes, whose rows
  the output layer's ``points`` give as they are in ``w_out``;
- the full softmax over every output row (:func:`~wordvec.kernels.softmax.full_softmax_update`);
- one-vs-all: every output row a logistic target, 1 for each of the positives
  (:func:`~wordvec.kernels.softmax.one_vs_all_update`).

The losses that predict one target take ``positives[at]``: a model that has several (a line's
labels) draws which, as fastText does. Skip-gram's window step (pWord2Vec's HogBatch, several
inputs sharing one target's logistic targets) calls :func:`add_targets` and the shared step
itself: the same targets, one step for all the window's inputs.

The output layer and its tables are built by :mod:`wordvec.corpus.output_layer`.
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from wordvec.kernels import FASTMATH
from wordvec.kernels.copies import NO_COPIES, copy_of
from wordvec.kernels.logistic import STEP_CHUNK, logistic_updates
from wordvec.kernels.prefetch import prefetch_row
from wordvec.kernels.rng import below_and_coin, next_u64
from wordvec.kernels.softmax import full_softmax_update, one_vs_all_update

COIN_BITS = 32
"""Bits of the random coin that decides between a noise column and its alias."""

NEGATIVE_SAMPLING = 0
HIERARCHICAL_SOFTMAX = 1
FULL_SOFTMAX = 2
ONE_VS_ALL = 3
"""Every output row a logistic target (the classifier's ``--loss ova``,
:func:`wordvec.kernels.softmax.one_vs_all_update`)."""
HIERARCHICAL_AND_NEGATIVE = 4
"""Hierarchical softmax and negative sampling together, each its own rows of ``w_out``."""
NOISE_KINDS = (NEGATIVE_SAMPLING, HIERARCHICAL_AND_NEGATIVE)
"""The kinds that draw noise words (a constant tuple: ``kind in NOISE_KINDS`` is a branch numba
prunes for a compile-time ``kind``)."""
LOSS_KINDS = {
    "ns": NEGATIVE_SAMPLING,
    "hs": HIERARCHICAL_SOFTMAX,
    "softmax": FULL_SOFTMAX,
    "ova": ONE_VS_ALL,
    "hs+ns": HIERARCHICAL_AND_NEGATIVE,
}


class OutputLayer(NamedTuple):
    """The output weights and the tables the chosen loss reads (empty arrays for the others):
    made by :func:`wordvec.corpus.output_layer.build_output_layer`."""

    kind: int  # one of NEGATIVE_SAMPLING, HIERARCHICAL_SOFTMAX, FULL_SOFTMAX, ONE_VS_ALL
    w_out: np.ndarray  # float32 (rows, dim)
    negative: int  # noise words per target (negative sampling)
    noise_table: np.ndarray  # uint32 or uint64 (V,): the noise distribution's packed alias table
    split: tuple[int, int]  # how the table's entries divide their bits (alias_split)
    codes: np.ndarray  # int8 (V, max_code): Huffman code bits, root first
    points: np.ndarray  # int32 (V, max_code): inner-node rows of w_out along the path
    code_lengths: np.ndarray  # int32 (V,)


class LossMemory(NamedTuple):
    """One thread's working memory for :func:`loss_update`."""

    targets: np.ndarray  # int32: room for the logistic targets of one step (targets_room)
    labels: np.ndarray  # float32: their labels (1.0 or 0.0)
    dots: np.ndarray  # float32: their scores, then step sizes (the window step: more, see there)
    scores: np.ndarray  # float32 (rows,) for the full softmax, else (1,)
    chunk_grad: np.ndarray  # float32 (dim,): one-vs-all's step for h of one chunk of rows
    noise: np.ndarray  # int32 (negative,): the noise words drawn for the next prediction
    rng: np.ndarray  # uint64 (1,): the thread's generator state (the model draws from it too)
    block: np.ndarray  # float32 (targets, dim): inference's copy of one step's target rows
    order: np.ndarray  # int32 0, 1, 2, ...: the rows of block


def targets_per_word(out: OutputLayer) -> int:
    """The most logistic targets one predicted word adds: its path's inner nodes
    (hierarchical softmax: ``codes`` has a column per level), itself and its noise words, or
    both."""
    if out.kind == HIERARCHICAL_AND_NEGATIVE:
        return out.codes.shape[1] + out.negative + 1
    return max(out.codes.shape[1], out.negative + 1)


def targets_room(out: OutputLayer) -> int:
    """Room for the logistic targets of one step of ``out``'s loss (one-vs-all takes its rows a
    chunk at a time)."""
    return STEP_CHUNK if out.kind == ONE_VS_ALL else targets_per_word(out)


def alias_split(columns: int, entry_bits: int) -> tuple[int, int]:
    """How a packed alias-table entry of ``entry_bits`` (32 or 64) bits, in a table of
    ``columns`` columns, divides its bits (:func:`wordvec.corpus.output_layer.pack_alias_table`):
    ``(alias_bits, coin_shift)``. The alias is in the low ``alias_bits``, as few as hold a
    column; above it, the column's keep threshold for the top ``COIN_BITS - coin_shift`` bits
    of the coin, as many as are left (at most the coin's). Plain Python: only the output
    layer's builder asks, once (as a kernel, its load from numba's cache took 2.6 ms of
    every training's start)."""
    alias_bits = 1
    while (1 << alias_bits) < columns:
        alias_bits += 1
    return alias_bits, COIN_BITS - min(entry_bits - alias_bits, COIN_BITS)


@njit(cache=True, nogil=True, inline="always")
def draw_noise(negative, table, split, noise, rng, w_out, copies, writes):
    """Draw ``negative`` noise words from the packed alias ``table``, whose entries divide as
    ``split`` (:func:`alias_split`), into ``noise``, and start loading their rows of ``w_out``.

    The window loop draws a prediction's noise words one prediction ahead: their rows are
    scattered over the matrix (most miss the cache), and loading them while the current
    prediction computes made CBOW 30% faster (measured). A column's threshold and alias are one
    entry, one load, and the choice between them is a select, not a branch (which the coin
    decides at random, so it was mispredicted often). Starting to load the table entries one
    draw earlier as well (from random numbers drawn ahead) made CBOW 8% and skip-gram 7%
    slower: those loads took the miss buffers that the rows' prefetches wait for (25% slower
    on an AMD Zen 3 VM with 4-byte entries). The entries are 4 bytes for up to 2**20 columns:
    the prefetches of the next rows wait on the entry, and 68k words' table, 272 KB instead of
    544, missed the cache less (CBOW 6.6% faster on one thread, skip-gram 4% on two).

    A word the job keeps a copy of (``copies``, :func:`~wordvec.kernels.copies.copy_of`) is
    drawn as its copy's row. ``writes``: whether the step will write the rows (training; not
    inference's frozen step), which are then loaded to be written
    (:func:`~wordvec.kernels.prefetch.prefetch_row`).
    """
    n = table.shape[0]
    alias_bits, coin_shift = split
    mask = np.uint64((1 << alias_bits) - 1)
    for j in range(negative):
        column, coin = below_and_coin(next_u64(rng), n)
        entry = np.uint64(table[column])
        alias = np.int64(entry & mask)
        keep = (coin >> np.uint64(coin_shift)) < (entry >> np.uint64(alias_bits))
        word = copy_of(column if keep else alias, copies)
        noise[j] = word
        prefetch_row(w_out, word, writes)


@njit(cache=True, nogil=True, inline="always")
def add_noise_targets(word, noise, negative, targets, labels, n):
    """Negative sampling: append ``word`` (label 1) and the ``negative`` drawn ``noise`` words
    (label 0; one equal to ``word`` is skipped, as in word2vec) to ``targets``/``labels`` from
    position ``n``; return the new count."""
    targets[n] = word
    labels[n] = 1
    n += 1
    for j in range(negative):
        if noise[j] != word:
            targets[n] = noise[j]
            labels[n] = 0
            n += 1
    return n


@njit(cache=True, nogil=True, inline="always")
def add_path_targets(word, codes, points, code_lengths, targets, labels, n, copies):
    """Hierarchical softmax: append each inner node on ``word``'s Huffman path with label
    ``1 - code`` (word2vec's convention), as the row the job trains (its copy, if ``copies``
    holds one); return the new count."""
    for i in range(code_lengths[word]):
        targets[n] = copy_of(points[word, i], copies)
        labels[n] = 1 - codes[word, i]
        n += 1
    return n


@njit(cache=True, nogil=True, inline="always")
def first_noise(kind, out, memory, copies, writes):
    """Before a job's first prediction: draw its noise words (negative sampling), which
    :func:`add_targets` then draws one prediction ahead; ``writes``: as :func:`draw_noise`."""
    if kind in NOISE_KINDS:
        draw_noise(out.negative, out.noise_table, out.split, memory.noise, memory.rng, out.w_out,
                   copies, writes)  # fmt: skip


@njit(cache=True, nogil=True, inline="always")
def add_targets(kind, out, memory, word, copies, writes):
    """The logistic targets of predicting ``word`` into ``memory.targets``/``labels``; return
    their count. Hierarchical softmax: the inner nodes of ``word``'s path. Negative sampling:
    ``word`` and the noise words drawn for it, then the next prediction's are drawn (their rows
    load while this one computes). Both: ``word``, its noise words, then the path's nodes.
    A row the job keeps a copy of (``copies``, :mod:`wordvec.kernels.copies`) is given as its
    copy's. ``writes``: whether the step writes the rows (:func:`draw_noise`)."""
    if kind == HIERARCHICAL_SOFTMAX:
        return add_path_targets(
            word, out.codes, out.points, out.code_lengths, memory.targets, memory.labels, 0,
            copies,
        )  # fmt: skip
    n = add_noise_targets(word, memory.noise, out.negative, memory.targets, memory.labels, 0)
    draw_noise(out.negative, out.noise_table, out.split, memory.noise, memory.rng, out.w_out,
               copies, writes)  # fmt: skip
    if kind == HIERARCHICAL_AND_NEGATIVE:  # the path's nodes after the noise words
        n = add_path_targets(
            word, out.codes, out.points, out.code_lengths, memory.targets, memory.labels, n,
            copies,
        )  # fmt: skip
    return n


@njit(cache=True, nogil=True, fastmath=FASTMATH, error_model="numpy", inline="always")
def loss_update(kind, out, memory, h, grad, alpha, positives, at, count, copies, with_loss):
    """One SGD step of ``out``'s loss for ``h`` predicting ``positives[at]`` (one-vs-all: each of
    ``positives[at:at + count]``); sets ``grad`` to the step for ``h`` and returns the loss
    before the step. ``copies``: the rows of ``w_out`` the job keeps copies of, ``(first,
    count, at)`` (:mod:`wordvec.kernels.copies`); the losses over every row keep a copy of
    every row or of none. ``with_loss``: whether negative sampling and hierarchical softmax
    compute the loss they return (else 0.0; the losses over every row always do)."""
    if kind == ONE_VS_ALL:
        rows = _every_row(out.w_out, copies)
        return one_vs_all_update(h, rows, positives, at, count, grad, alpha, memory)
    if kind == FULL_SOFTMAX:
        for k in range(grad.shape[0]):
            grad[k] = 0.0
        rows = _every_row(out.w_out, copies)
        return full_softmax_update(h, positives[at], grad, alpha, rows, memory.scores)
    n = add_targets(kind, out, memory, positives[at], copies, True)
    return logistic_updates(
        h, out.w_out, memory.targets, memory.labels, n, grad, alpha, memory.dots, with_loss
    )


@njit(cache=True, nogil=True, fastmath=FASTMATH, error_model="numpy", inline="always")
def sampled_loss_update(kind, out, memory, h, grad, alpha, positives, at, copies, step, exact,
                        every):  # fmt: skip
    """:func:`loss_update` for the ``step``-th prediction of a job whose loss is computed for a
    sample of its predictions, the first ``exact`` and one in ``every`` after them; returns
    ``(loss, sampled)``: the step's loss and 1 where it is in the sample, else ``(0.0, 0)``
    (:func:`loss_update` computes no loss outside it)."""
    with_loss = step < exact or step % every == 0
    loss = loss_update(kind, out, memory, h, grad, alpha, positives, at, 1, copies, with_loss)
    return loss, 1 if with_loss else 0


@njit(cache=True, nogil=True, inline="always")
def _every_row(w_out, copies):
    """The rows a loss over every row trains: the job's copies of all of them, else ``w_out``
    (which then has no spare rows). A view, so that the loss's loops index its rows from 0:
    with the copies' offset added to every index, the softmax ran 18% slower (measured)."""
    if copies[1]:
        first = copy_of(0, copies)
        return w_out[first : first + copies[1]]
    return w_out


@njit(cache=True, nogil=True, fastmath=FASTMATH, error_model="numpy", inline="always")
def frozen_loss_step(kind, out, memory, h, grad, alpha, positives, at):
    """:func:`loss_update`'s step for ``h`` alone, the output layer left as it is (inference of
    a new document's vector, gensim's ``learn_hidden=False``): the targets' rows are copied to
    ``memory.block`` and the step taken there. Negative sampling or hierarchical softmax."""
    n = add_targets(kind, out, memory, positives[at], NO_COPIES, False)
    block, targets, w_out = memory.block, memory.targets, out.w_out
    for t in range(n):
        row = targets[t]
        for k in range(h.shape[0]):
            block[t, k] = w_out[row, k]
    return logistic_updates(
        h, block, memory.order, memory.labels, n, grad, alpha, memory.dots, True
    )
