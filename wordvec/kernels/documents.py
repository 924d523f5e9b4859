"""Inference of paragraph vectors: a new document's row trained with everything else frozen.

gensim's ``infer_vector``: the words' rows and the output layer stay as trained; a fresh row
for the document takes the model's steps (PV-DBOW: it predicts each word; PV-DM: it joins
each window that predicts a centre word) for ``epochs`` passes over the document, the learning
rate falling linearly from ``alpha`` to ``min_alpha`` across them, a step each pass.
"""

import numpy as np
from numba import njit

from wordvec.kernels import FASTMATH
from wordvec.kernels.losses import first_noise, frozen_loss_step
from wordvec.kernels.rng import rand_below
from wordvec.kernels.windows import PV_DM, next_sentence


@njit(cache=True, nogil=True, fastmath=FASTMATH, error_model="numpy", _nrt=False)
def infer_documents(ids, epochs, alpha, min_alpha, model, w_in, documents, out, sampling, memory):
    """Train row ``l`` of ``documents`` for line ``l`` of ``ids`` (whole lines, each ended by a
    negative id), from its starting values; ``w_in`` (the words' rows) and ``out`` are only
    read. Returns the summed loss of the last pass over each document."""
    keep, window, max_length = sampling.keep, sampling.window, sampling.max_sentence_length
    hidden, grad, sentence, losses = memory.hidden, memory.grad, memory.sentence, memory.loss
    rng = losses.rng
    dim = hidden.shape[0]
    loss = 0.0
    first_noise(out, losses)
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
                    for k in range(dim):
                        hidden[k] = documents[line, k]
                    if model == PV_DM:
                        reach = window - rand_below(rng, window)
                        for j in range(max(0, i - reach), min(n, i + reach + 1)):
                            if j != i:
                                word = sentence[j]
                                for k in range(dim):
                                    hidden[k] += w_in[word, k]
                                count += 1
                        scale = np.float32(1.0 / count)
                        for k in range(dim):
                            hidden[k] *= scale
                    step = frozen_loss_step(out, losses, hidden, grad, rate, sentence, i)
                    if last:
                        loss += step
                    for k in range(dim):
                        documents[line, k] += grad[k]
                if ids[pos - 1] < 0:
                    break
        start = stop + 1
        line += 1
    return loss
