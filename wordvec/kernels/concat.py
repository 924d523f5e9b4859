"""PV-DM over the concatenated window (Le and Mikolov's PV-DM as their paper draws it; gensim's
``dm_concat=1``): the hidden vector is the line's document rows, then the rows of the
``window`` words before the centre and the ``window`` after it, each in its own place, so that
the output layer is ``(tags + 2 * window) * dim`` wide and a word's place in the window matters.
A side that passes the sentence's end is padded with the pad row (gensim's null word ``"\\0"``,
a row trained like a word's and never predicted). The window is always ``window`` each side
(never drawn shorter), as the places are fixed. A line with another number of documents than
the layer has places for trains nothing, as gensim skips a document without
``dm_tag_count`` tags.

The step is the one update's (:func:`~wordvec.kernels.losses.loss_update`); each row then takes
its place's part of the step. Training (:func:`concat_steps`, inlined into the window loop) and
inference (:mod:`wordvec.kernels.documents`) share :func:`list_window` and :func:`gather_rows`.
"""

from numba import njit

from wordvec.kernels import FASTMATH
from wordvec.kernels.copies import NO_COPIES
from wordvec.kernels.losses import sampled_loss_update


@njit(cache=True, nogil=True, inline="always")
def concat_tags(hidden, dim, window):
    """The document places of a concatenated hidden vector of ``dim``-float rows."""
    return hidden.shape[0] // dim - 2 * window


@njit(cache=True, nogil=True, inline="always")
def list_window(sentence, n, i, window, pad, rows, at):
    """Write the rows of the ``window`` words each side of ``sentence[i]`` (of ``n``), the
    ``pad`` row past the sentence's ends, into ``rows`` from ``at``; return the end."""
    for j in range(i - window, i + window + 1):
        if j != i:
            rows[at] = sentence[j] if 0 <= j < n else pad
            at += 1
    return at


@njit(cache=True, nogil=True, fastmath=FASTMATH, inline="always")
def gather_rows(w_in, rows, first, stop, hidden):
    """Place ``s`` of ``hidden`` (its floats ``s * dim`` on) = row ``rows[s]`` of ``w_in``, for
    ``first <= s < stop``."""
    dim = w_in.shape[1]
    for s in range(first, stop):
        row = rows[s]
        for k in range(dim):
            hidden[s * dim + k] = w_in[row, k]


@njit(cache=True, nogil=True, fastmath=FASTMATH, error_model="numpy", inline="always")
def concat_steps(kind, out, losses, w_in, rows, window, hidden, grad, alpha, sentence, n, steps,
                 sample_every, exact):  # fmt: skip
    """One step for each of the sentence's ``n`` words, predicted from the concatenation of
    the line's documents (``rows[:tags]``, rows of ``w_in``, as many as ``hidden`` has places
    for) and its window's rows; the pad row is ``w_in``'s last. No row is a job's copy (the
    threads share them: :func:`~wordvec.training.windows.thread_copies`). Returns ``(loss,
    sampled)``: the summed loss of the steps in the job's sample (``steps``: the job's sampled
    kind of steps before these; the first ``exact``, then one in ``sample_every``) and their
    number."""
    dim = w_in.shape[1]
    pad = w_in.shape[0] - 1
    tags = concat_tags(hidden, dim, window)
    places = tags + 2 * window
    loss = 0.0
    sampled = 0
    for i in range(n):
        list_window(sentence, n, i, window, pad, rows, tags)
        gather_rows(w_in, rows, 0, places, hidden)
        step_loss, in_sample = sampled_loss_update(kind, out, losses, hidden, grad, alpha,
                                                   sentence, i, NO_COPIES, steps + i, exact,
                                                   sample_every)  # fmt: skip
        loss += step_loss
        sampled += in_sample
        for s in range(places):  # each row its place's part of the step
            row = rows[s]
            for k in range(dim):
                w_in[row, k] += grad[s * dim + k]
    return loss, sampled
