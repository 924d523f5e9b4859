"""fastText's text classifier: the mean of a line's input rows predicts the line's labels.

A line's rows are its words' (their own row, or only their character n-grams for a word outside
the vocabulary, as :class:`~wordvec.kernels.windows.InputRows` lists them), the end-of-line
word's, and one hashed bucket row per word n-gram up to ``word_ngrams`` words, as fastText's
``Dictionary::getLine`` makes them: :func:`line_rows`. Training and prediction both call it, so
a model predicts from the rows it was trained on.

The output layer is one of the word models' (:mod:`wordvec.kernels.losses`), over labels
instead of words: the full softmax, negative sampling (noise labels from count ** 0.5) or
hierarchical softmax (a Huffman tree of the labels) for one label of the line drawn at random,
as fastText; one-vs-all takes every label as a logistic target (1 for the line's labels, 0 for
the others). The gradient for the hidden vector is divided by the number of rows before it is
added to each (fastText's ``normalizeGradient_`` for supervised models).

The course's feed-forward classifier adds to fastText's: the line's rows pooled by their mean
or by their maximum in each dimension (whose gradient goes to the row that gave it), then a
hidden layer, tanh(W x + b), between the pooled vector and the output layer
(:class:`HiddenLayer`; without units, fastText's model).
"""

from functools import cache
from typing import NamedTuple

import numpy as np
from numba import njit

from wordvec.kernels import FASTMATH
from wordvec.kernels.copies import MERGE, START, RowCopies, job_copies, out_copies
from wordvec.kernels.losses import ONE_VS_ALL, LossMemory, first_noise, loss_update
from wordvec.kernels.rng import rand_below
from wordvec.kernels.rows import add_to_rows, mean_of_rows

WORD = -1
"""``LineTables.label_of`` of a word."""
IGNORED = -2
"""``LineTables.label_of`` of a label a model does not know: neither word nor label."""
WORD_NGRAM_MULTIPLIER = np.uint64(116049371)
"""fastText's ``addWordNgrams``: h = h * 116049371 + hash(next word), in 64 bits."""


class LineTables(NamedTuple):
    """How the tokens of the id stream become rows and labels (token ids index each array)."""

    ptr: np.ndarray  # int64 (T + 1,): a token's rows are idx[ptr[t]:ptr[t + 1]]
    idx: np.ndarray  # int32
    hashes: np.ndarray  # uint64 (T,): fastText's hash of each word (for word n-grams)
    label_of: np.ndarray  # int32 (T,): a label token's label id, else WORD or IGNORED
    eos: int  # the token id of the end-of-line word, which ends every line
    word_ngrams: int  # n-grams of up to this many words get a row (1: none)
    n_words: int  # bucket rows start here
    bucket: int  # hashed rows (0: none)
    pruned: np.ndarray  # int64 (2, K): kept buckets (sorted) over their rows; (2, 0): all kept


class HiddenLayer(NamedTuple):
    """The pooling and the hidden layer between the rows and the output layer."""

    weights: np.ndarray  # float32 (units, dim): W; no rows, no layer
    bias: np.ndarray  # float32 (units,): b
    max_pool: bool  # pool the rows by their maximum in each dimension, not their mean


def rows_room(tables: LineTables, tokens: int) -> int:
    """Room for the input rows of a line of ``tokens`` tokens: each token's own rows, and
    one row for each word n-gram that starts at it, of which there are fewer than the line
    has tokens whatever ``word_ngrams`` says (a damaged file's 2^63 - 1 must not size it)."""
    per_token = int(np.diff(tables.ptr).max(initial=0))
    return tokens * (per_token + min(max(tables.word_ngrams - 1, 0), tokens)) + 1


class LineMemory(NamedTuple):
    """One thread's working memory."""

    hidden: np.ndarray  # float32 (dim,)
    grad: np.ndarray  # float32 (dim,)
    rows: np.ndarray  # int32: room for the rows of the longest line
    line_hashes: np.ndarray  # uint64: the word hashes of the longest line
    line_labels: np.ndarray  # int32: the labels of the longest line
    loss: LossMemory  # the loss step's (its rng is the thread's generator)
    activation: np.ndarray  # float32 (units,): the hidden layer's output (with a layer)
    activation_grad: np.ndarray  # float32 (units,): the output layer's step for it
    argmax: np.ndarray  # int32 (dim,): the row that gave each dimension's maximum
    copies: RowCopies  # the job's own copies of the output rows (softmax, one-vs-all)


@njit(cache=True, nogil=True, _nrt=False)
def line_rows(ids, start, stop, tables, rows, line_hashes, line_labels):
    """The rows and labels of the line ``ids[start:stop]`` (no end marker): writes them to
    ``rows`` and ``line_labels`` and returns ``(n_rows, n_labels)``.

    The rows are each word's, the end-of-line word's, then the buckets of the word n-grams
    (over every word's hash, words outside the vocabulary included, as fastText).
    """
    ptr, idx, hashes, label_of = tables.ptr, tables.idx, tables.hashes, tables.label_of
    n_rows = 0
    n_labels = 0
    n_hashes = 0
    for i in range(start, stop + 1):
        token = ids[i] if i < stop else tables.eos
        label = label_of[token]
        if label != WORD:
            if label >= 0:
                line_labels[n_labels] = label
                n_labels += 1
            continue  # a label, or IGNORED
        for r in range(ptr[token], ptr[token + 1]):
            rows[n_rows] = idx[r]
            n_rows += 1
        line_hashes[n_hashes] = hashes[token]
        n_hashes += 1
    if tables.bucket > 0:
        bucket = np.uint64(tables.bucket)
        pruned = tables.pruned
        for i in range(n_hashes):
            h = line_hashes[i]
            for j in range(i + 1, min(n_hashes, i + tables.word_ngrams)):
                h = h * WORD_NGRAM_MULTIPLIER + line_hashes[j]
                row = np.int64(h % bucket)
                if pruned.shape[1] > 0:  # a pruned model (.ftz) keeps some buckets only
                    at = np.searchsorted(pruned[0], row)
                    if at == pruned.shape[1] or pruned[0, at] != row:
                        continue
                    row = pruned[1, at]
                rows[n_rows] = tables.n_words + row
                n_rows += 1
    return n_rows, n_labels


@njit(cache=True, nogil=True, fastmath=FASTMATH, _nrt=False)
def line_means(
    ids, tables, word_rows, ngrams, hidden, label_ptr, labels, rows, line_hashes, max_pool
):
    """Each line of ``ids`` (whole lines, each ended by a negative id) as a classifier sees it:
    ``hidden[l]`` = the mean (``max_pool``: the maximum in each dimension) of line ``l``'s rows
    (:func:`line_rows`; a row below ``tables.n_words`` is one of ``word_rows``, the others rows
    of ``ngrams``), zero for a line without rows, and its labels
    ``labels[label_ptr[l]:label_ptr[l + 1]]``. ``rows`` and ``line_hashes`` have room for the
    longest line."""
    dim = hidden.shape[1]
    n_words = tables.n_words
    start = 0
    line = 0
    n_labels = 0
    while start < ids.shape[0]:
        stop = start
        while ids[stop] >= 0:
            stop += 1
        n_rows, line_labels = line_rows(
            ids, start, stop, tables, rows, line_hashes, labels[n_labels:]
        )
        n_labels += line_labels
        label_ptr[line + 1] = n_labels
        for r in range(n_rows):
            row = rows[r]
            for k in range(dim):
                value = word_rows[row, k] if row < n_words else ngrams[row - n_words, k]
                if not max_pool:
                    hidden[line, k] += value
                elif r == 0 or value > hidden[line, k]:
                    hidden[line, k] = value
        if n_rows > 1 and not max_pool:
            scale = np.float32(1.0 / n_rows)
            for k in range(dim):
                hidden[line, k] *= scale
        start = stop + 1
        line += 1


@njit(cache=True, nogil=True)
def mark_used_rows(ids, tables, used, rows, line_hashes, line_labels):
    """Set ``used[r]`` for every row a line of ``ids`` (whole lines) reads."""
    start = 0
    while start < ids.shape[0]:
        stop = start
        while stop < ids.shape[0] and ids[stop] >= 0:
            stop += 1
        n_rows, _ = line_rows(ids, start, stop, tables, rows, line_hashes, line_labels)
        for r in range(n_rows):
            used[rows[r]] = True
        start = stop + 1


def supervised_job(ids, job_words, alpha_start, alpha_end, w_in, tables, out, layer, memory):
    """Train over one span of the id stream (whole lines); return ``(loss_sum, predictions,
    tokens)``. Lines without labels, or without rows, are skipped, as fastText skips them.
    ``layer`` pools the rows and, if it has units, feeds the output layer through tanh. The
    step is :func:`~wordvec.kernels.losses.loss_update`'s, for one of the line's labels drawn
    at random (one-vs-all: all of them), as fastText's. With ``memory.copies`` set (the
    losses over every row, on several threads), the job trains its own copies of the output
    rows, merged into the shared rows at its end (:mod:`wordvec.kernels.copies`).

    Runs the kernel compiled for ``out``'s loss (:func:`supervised_kernel`)."""
    return supervised_kernel(out.kind)(
        ids, job_words, alpha_start, alpha_end, w_in, tables, out, layer, memory
    )


@cache
def supervised_kernel(kind: int):
    """:func:`supervised_job` compiled for one loss ``kind`` (the output layer's), a constant
    of the compiled function, so that numba compiles that loss alone
    (:mod:`wordvec.kernels.specialize`)."""
    draw_one = kind != ONE_VS_ALL

    @njit(cache=True, nogil=True, fastmath=FASTMATH, error_model="numpy", _nrt=False)
    def job(ids, job_words, alpha_start, alpha_end, w_in, tables, out, layer, memory):
        hidden, grad, rows = memory.hidden, memory.grad, memory.rows
        line_hashes, line_labels, losses = memory.line_hashes, memory.line_labels, memory.loss
        dim = hidden.shape[0]
        units = layer.weights.shape[0]
        feed, feed_grad = hidden, grad  # what the output layer sees, and its step for it
        if units > 0:
            feed, feed_grad = memory.activation, memory.activation_grad

        loss = 0.0
        predictions = 0
        done = 0
        start = 0
        copies = memory.copies
        copied = out_copies(copies)
        merge_words = copies.merge_words if copied[1] else 0
        w_out = out.w_out
        unmerged = 0
        job_copies(w_in, w_out, copies, START)
        first_noise(kind, out, losses, copied, True)
        while start < ids.shape[0]:
            stop = start
            while stop < ids.shape[0] and ids[stop] >= 0:
                stop += 1
            alpha = alpha_start + (alpha_end - alpha_start) * (done / max(job_words, 1))
            done += stop - start
            unmerged += stop - start
            if merge_words and unmerged >= merge_words:  # the copies' changes, to the shared rows
                job_copies(w_in, w_out, copies, MERGE)
                unmerged = 0
            n_rows, n_labels = line_rows(ids, start, stop, tables, rows, line_hashes, line_labels)
            start = stop + 1
            if n_labels == 0 or n_rows == 0:
                continue
            if layer.max_pool:
                max_of_rows(w_in, rows, n_rows, hidden, memory.argmax)
            else:
                mean_of_rows(w_in, rows, 0, n_rows, hidden)
            if units > 0:
                layer_forward(layer, hidden, feed)
            at = rand_below(losses.rng, n_labels) if draw_one else 0
            loss += loss_update(
                kind, out, losses, feed, feed_grad, alpha, line_labels, at, n_labels, copied, True
            )
            if units > 0:
                layer_backward(layer, hidden, feed, feed_grad, grad)
            if layer.max_pool:  # each dimension's step goes to the row that gave its maximum
                for k in range(dim):
                    w_in[memory.argmax[k], k] += grad[k]
            else:
                scale = np.float32(1.0 / n_rows)
                for k in range(dim):
                    grad[k] *= scale
                add_to_rows(w_in, rows, 0, n_rows, grad)
            predictions += 1
        job_copies(w_in, w_out, copies, MERGE)
        return loss, predictions, done

    return job


@njit(cache=True, nogil=True, fastmath=FASTMATH, _nrt=False)
def max_of_rows(w_in, rows, n_rows, pooled, argmax):
    """``pooled`` = the maximum in each dimension of the rows ``rows[:n_rows]`` of ``w_in``,
    and ``argmax`` the row that gave it (the first of equals)."""
    for k in range(pooled.shape[0]):
        pooled[k] = w_in[rows[0], k]
        argmax[k] = rows[0]
    for r in range(1, n_rows):
        row = rows[r]
        for k in range(pooled.shape[0]):
            if w_in[row, k] > pooled[k]:
                pooled[k] = w_in[row, k]
                argmax[k] = row


@njit(cache=True, nogil=True, fastmath=FASTMATH, _nrt=False)
def layer_forward(layer, pooled, activation):
    """``activation`` = tanh(W pooled + b)."""
    weights, bias = layer.weights, layer.bias
    for j in range(weights.shape[0]):
        total = bias[j]
        for k in range(pooled.shape[0]):
            total += weights[j, k] * pooled[k]
        activation[j] = np.tanh(total)


@njit(cache=True, nogil=True, fastmath=FASTMATH, _nrt=False)
def layer_backward(layer, pooled, activation, activation_grad, pooled_grad):
    """Given the output layer's step for ``activation`` (``activation_grad``: the gradient
    times -alpha), set ``pooled_grad`` to the step for the pooled vector and take the layer's
    own step (W and b), through tanh' = 1 - tanh^2; each weight is read before it is written."""
    weights, bias = layer.weights, layer.bias
    for k in range(pooled_grad.shape[0]):
        pooled_grad[k] = 0.0
    for j in range(weights.shape[0]):
        step = activation_grad[j] * (1.0 - activation[j] * activation[j])
        for k in range(pooled.shape[0]):
            pooled_grad[k] += step * weights[j, k]
            weights[j, k] += step * pooled[k]
        bias[j] += step
