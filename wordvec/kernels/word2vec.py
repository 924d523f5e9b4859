"""The skip-gram and CBOW window loops, shared by word2vec and fastText.

A word's input vector is the mean of its rows in ``w_in``, listed by ``InputRows`` (CSR): for
word2vec each word has one row, its own; for fastText its own row plus its character n-gram
buckets. After the output layer's update, the gradient is added to each of those rows (as
word2vec does for CBOW and fastText for both). Each loop processes one job, a slice of the id
stream, with the learning rate decaying linearly from ``alpha_start`` to ``alpha_end`` across it.
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from wordvec.kernels import FASTMATH
from wordvec.kernels.losses import FULL_SOFTMAX, add_targets, full_softmax_update, logistic_updates
from wordvec.kernels.rng import rand_below, rand_unit


class InputRows(NamedTuple):
    """Rows of ``w_in`` that make a word's input vector: ``idx[ptr[w]:ptr[w + 1]]``."""

    ptr: np.ndarray  # int64 (V + 1,)
    idx: np.ndarray  # int32


class Sampling(NamedTuple):
    """How a job's id stream becomes training windows."""

    keep: np.ndarray  # float32 (V,), subsampling keep probabilities
    window: int  # maximum reach; each centre draws its reach uniformly from 1..window
    max_sentence_length: int  # longer lines are cut into pieces of this many words


class Scratch(NamedTuple):
    """One thread's working memory."""

    hidden: np.ndarray  # float32 (dim,)
    grad: np.ndarray  # float32 (dim,)
    scores: np.ndarray  # float32 (V,) for the full softmax, else (1,)
    sentence: np.ndarray  # int32 (max_sentence_length,)
    rows: np.ndarray  # int32, room for the input rows of a whole CBOW window
    targets: np.ndarray  # int32, room for the logistic targets of a whole skip-gram window
    labels: np.ndarray  # int8, their labels
    dots: np.ndarray  # float32, their scores
    rng: np.ndarray  # int64 (1,), the generator state


@njit(cache=True, nogil=True)
def next_sentence(ids, pos, sampling, sentence, rng):
    """Read one sentence from ``ids[pos:]``, dropping subsampled words into ``sentence``.

    Returns ``(new_pos, kept, read)``: a sentence ends at SENTENCE_END (negative id) or after
    ``max_sentence_length`` words read.
    """
    kept = 0
    read = 0
    while pos < ids.shape[0] and read < sampling.max_sentence_length:
        word = ids[pos]
        pos += 1
        if word < 0:
            break
        read += 1
        p = sampling.keep[word]
        if p < 1.0 and p < rand_unit(rng):
            continue
        sentence[kept] = word
        kept += 1
    return pos, kept, read


@njit(cache=True, nogil=True, fastmath=FASTMATH, inline="always")
def train_window(w_in, rows, first, stop, predict, p_first, p_stop, alpha, out, scratch):
    """One SGD step: from the mean of ``w_in[rows[first:stop]]`` predict
    ``predict[p_first:p_stop]``.

    The output layer's gradient for all predictions is summed, then added to each input row.
    Returns the loss. Indexes in place rather than slicing (views cost reference-count updates
    that threads contend on).
    """
    hidden, grad = scratch.hidden, scratch.grad
    dim = hidden.shape[0]
    for k in range(dim):
        hidden[k] = 0.0
        grad[k] = 0.0
    for r in range(first, stop):
        row = rows[r]
        for k in range(dim):
            hidden[k] += w_in[row, k]
    if stop - first > 1:
        scale = np.float32(1.0 / (stop - first))
        for k in range(dim):
            hidden[k] *= scale
    loss = 0.0
    if out.kind == FULL_SOFTMAX:
        for p in range(p_first, p_stop):
            loss += full_softmax_update(hidden, predict[p], grad, alpha, out.w_out, scratch.scores)
    else:
        n = 0
        for p in range(p_first, p_stop):
            n = add_targets(out, predict[p], scratch.targets, scratch.labels, n, scratch.rng)
        loss = logistic_updates(
            hidden, out.w_out, scratch.targets, scratch.labels, n, grad, alpha, scratch.dots
        )
    for r in range(first, stop):
        row = rows[r]
        for k in range(dim):
            w_in[row, k] += grad[k]
    return loss


@njit(cache=True, nogil=True, fastmath=FASTMATH)
def skipgram_job(ids, job_words, alpha_start, alpha_end, w_in, inputs, out, sampling, scratch):
    """Skip-gram over one job: each centre word's input predicts the words in its window.

    The centre's rows are updated once per window with the summed gradient of its predictions
    (word2vec updates them after each prediction; the difference is a few tiny steps' timing).
    Returns ``(loss_sum, predictions, words_read)``.
    """
    sentence, rng, window, idx = scratch.sentence, scratch.rng, scratch.rows, inputs.idx
    loss = 0.0
    pairs = 0
    done = 0
    pos = 0
    while pos < ids.shape[0]:
        alpha = alpha_start + (alpha_end - alpha_start) * (done / max(job_words, 1))
        pos, n, read = next_sentence(ids, pos, sampling, sentence, rng)
        done += read
        for i in range(n):
            center = sentence[i]
            reach = sampling.window - rand_below(rng, sampling.window)
            lo, hi = max(0, i - reach), min(n, i + reach + 1)
            n_predict = 0
            for j in range(lo, hi):
                if j != i:
                    window[n_predict] = sentence[j]
                    n_predict += 1
            if n_predict > 0:
                first, stop = inputs.ptr[center], inputs.ptr[center + 1]
                loss += train_window(
                    w_in, idx, first, stop, window, 0, n_predict, alpha, out, scratch
                )
                pairs += n_predict
    return loss, pairs, done


@njit(cache=True, nogil=True, fastmath=FASTMATH)
def cbow_job(ids, job_words, alpha_start, alpha_end, w_in, inputs, out, sampling, scratch):
    """CBOW over one job: the mean of the window's input rows predicts the centre word.

    Returns ``(loss_sum, predictions, words_read)``.
    """
    sentence, rng, rows = scratch.sentence, scratch.rng, scratch.rows
    ptr, idx = inputs.ptr, inputs.idx
    loss = 0.0
    pairs = 0
    done = 0
    pos = 0
    while pos < ids.shape[0]:
        alpha = alpha_start + (alpha_end - alpha_start) * (done / max(job_words, 1))
        pos, n, read = next_sentence(ids, pos, sampling, sentence, rng)
        done += read
        for i in range(n):
            reach = sampling.window - rand_below(rng, sampling.window)
            n_rows = 0
            for j in range(max(0, i - reach), min(n, i + reach + 1)):
                if j != i:
                    word = sentence[j]
                    for r in range(ptr[word], ptr[word + 1]):
                        rows[n_rows] = idx[r]
                        n_rows += 1
            if n_rows > 0:
                loss += train_window(w_in, rows, 0, n_rows, sentence, i, i + 1, alpha, out, scratch)
                pairs += 1
    return loss, pairs, done
