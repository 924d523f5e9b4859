"""Inference of paragraph vectors: a new document's row trained with everything else frozen.

gensim's ``infer_vector``: the words' rows and the output layer stay as trained; a fresh row
for the document takes the model's steps (PV-DBOW: it predicts each word; PV-DM: it joins
each window that predicts a centre word, in its places of the concatenated window with
``PV_DM_CONCAT``) for ``epochs`` passes over the document, the learning
rate falling linearly from ``alpha`` to ``min_alpha`` across them, a step each pass. The row
starts from the document's words (:func:`start_documents`), as gensim seeds it from its text.
"""

from functools import cache

import numpy as np
from numba import njit

from wordvec.kernels import FASTMATH
from wordvec.kernels.concat import concat_tags, gather_rows, list_window
from wordvec.kernels.copies import NO_COPIES
from wordvec.kernels.losses import first_noise, frozen_loss_step
from wordvec.kernels.rng import rand_below, rand_unit
from wordvec.kernels.windows import (
    DOCUMENT_IN_WINDOW_MODELS,
    PV_DM,
    PV_DM_CONCAT,
    PV_DM_SUM,
    next_sentence,
)

_FNV_PRIME = np.uint64(0x100000001B3)


@njit(cache=True, nogil=True, _nrt=False)
def start_documents(ids, starts, seed, state, rows):
    """Each new document's start row (``rows[d]`` for the ids ``ids[starts[d]:starts[d+1]]``),
    uniform in +-0.5/dim as gensim's ``infer_vector`` starts it, drawn from ``seed`` and a hash
    of the document's word ids: the same words start alike in any block, call or thread
    count (gensim seeds it from the words too). ``state`` is the generator's one-element
    uint64 array."""
    dim = rows.shape[1]
    for d in range(rows.shape[0]):
        h = np.uint64(seed)
        for i in range(starts[d], starts[d + 1]):
            h = (h ^ np.uint64(ids[i] + 1)) * _FNV_PRIME
        state[0] = h
        for j in range(dim):
            rows[d, j] = (rand_unit(state) - 0.5) / dim


def infer_documents(ids, epochs, alpha, min_alpha, model, w_in, documents, out, sampling, memory):
    """Train row ``l`` of ``documents`` for line ``l`` of ``ids`` (whole lines, each ended by a
    negative id), from its starting values; ``w_in`` (the words' rows) and ``out`` are only
    read (with ``PV_DM_CONCAT``, ``w_in`` ends with the pad row, and ``memory.hidden`` and
    ``grad`` are the output layer's width). Returns the summed loss of the last pass over each
    document. ``model``: PV-DBOW, PV-DM, PV-DM with the sum or over the concatenated window
    (:mod:`wordvec.kernels.windows`'s); runs the kernel compiled for ``out``'s loss
    (:func:`inference_kernel`)."""
    return inference_kernel(out.kind)(
        ids, epochs, alpha, min_alpha, model, w_in, documents, out, sampling, memory
    )


@cache
def inference_kernel(kind: int):
    """:func:`infer_documents` compiled for one loss ``kind``, a constant of the compiled
    function, so that numba compiles that loss's step alone
    (:mod:`wordvec.kernels.specialize`); the models' few differences are branches."""

    @njit(cache=True, nogil=True, fastmath=FASTMATH, error_model="numpy", _nrt=False)
    def infer(ids, epochs, alpha, min_alpha, model, w_in, documents, out, sampling, memory):
        in_window = model in DOCUMENT_IN_WINDOW_MODELS
        mean = model == PV_DM
        summed = model == PV_DM_SUM
        places = model == PV_DM_CONCAT
        keep, window, max_length = sampling.keep, sampling.window, sampling.max_sentence_length
        hidden, grad, sentence, losses = memory.hidden, memory.grad, memory.sentence, memory.loss
        rng = losses.rng
        dim = w_in.shape[1]
        pad = w_in.shape[0] - 1
        tags = concat_tags(hidden, dim, window) if places else 1
        loss = 0.0
        first_noise(kind, out, losses, NO_COPIES, False)  # rows only read: loaded shared
        start = 0
        line = 0
        while start < ids.shape[0]:
            stop = start
            while ids[stop] >= 0:
                stop += 1
            for epoch in range(epochs):
                rate = alpha - (alpha - min_alpha) * (epoch / max(epochs - 1, 1))
                last = epoch == epochs - 1
                pos = start
                while pos <= stop:
                    pos, n, _ = next_sentence(ids, pos, keep, max_length, sentence, rng)
                    for i in range(n):
                        count = 1
                        for t in range(tags):  # the document in each of its places
                            for k in range(dim):
                                hidden[t * dim + k] = documents[line, k]
                        if places:
                            end = list_window(sentence, n, i, window, pad, memory.rows, tags)
                            gather_rows(w_in, memory.rows, tags, end, hidden)
                        elif in_window:
                            reach = window - rand_below(rng, window)
                            for j in range(max(0, i - reach), min(n, i + reach + 1)):
                                if j != i:
                                    word = sentence[j]
                                    for k in range(dim):
                                        hidden[k] += w_in[word, k]
                                    count += 1
                            if mean:
                                scale = np.float32(1.0 / count)
                                for k in range(dim):
                                    hidden[k] *= scale
                        step = frozen_loss_step(kind, out, losses, hidden, grad, rate, sentence, i)
                        if summed:  # the step shared among the window's rows
                            scale = np.float32(1.0 / count)
                            for k in range(dim):
                                grad[k] *= scale
                        if last:
                            loss += step
                        for t in range(tags):
                            for k in range(dim):
                                documents[line, k] += grad[t * dim + k]
                    if ids[pos - 1] < 0:
                        break
            start = stop + 1
            line += 1
        return loss

    return infer
