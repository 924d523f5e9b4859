"""GloVe training (Pennington et al., 2014) on co-occurrence counts, as Stanford's ``glove``.

Weights start as glove.c's, word and context vectors uniform in [-0.5/dim, 0.5/dim) and
AdaGrad sums at 1, but for the biases: uniform in [-0.5, 0.5), where glove.c draws them as the
vectors (its range scored the same: WS-353 0.253 against 0.256 on the 2M-token slice). Before
each epoch every thread's share of the nonzeros is shuffled in place (with its own seed); the
epoch then takes one step on each nonzero (:mod:`wordvec.kernels.glove`) in spans of
consecutive nonzeros, through the same runner as word2vec (:mod:`wordvec.training.runner`):
the cost per nonzero is shown and kept per epoch. The vectors are W + W~ (glove's
``-model 2``) or, with ``glove_output="word"``, W alone.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from wordvec.cooccur.counts import Cooccurrences
from wordvec.kernels.rng import seed_state
from wordvec.model import Model
from wordvec.runtime.parallel import Workers
from wordvec.training.config import TrainConfig
from wordvec.training.runner import Divergence, Span, run_training
from wordvec.training.weights import FLOAT, all_finite, init_input_weights

_SPAN_NONZEROS = 1 << 20


def train_glove(config: TrainConfig, counts: Cooccurrences, *, quiet: bool = False) -> Model:
    """Train GloVe vectors on ``counts``; ``config`` must be resolved."""
    from wordvec.kernels.glove import GloveWeights, glove_steps, shuffle_together

    n_words, dim = len(counts.vocab), config.dim
    w = init_input_weights(n_words, dim, (config.seed, 0))
    c = init_input_weights(n_words, dim, (config.seed, 1))
    b = init_input_weights(n_words, 1, (config.seed, 2))[:, 0]
    bc = init_input_weights(n_words, 1, (config.seed, 3))[:, 0]
    weights = GloveWeights(w, c, b, bc, *(np.ones_like(a) for a in (w, c, b, bc)))
    rows = counts.rows()
    cols = np.array(counts.cols, dtype=np.int32)
    log_values = np.log(counts.values, dtype=FLOAT)  # once: the kernel needs log x, not x
    shares = np.linspace(0, len(log_values), config.threads + 1).astype(np.int64).tolist()
    spans = [
        Span(start, min(start + _SPAN_NONZEROS, hi), min(_SPAN_NONZEROS, hi - start))
        for lo, hi in itertools.pairwise(shares)
        for start in range(lo, hi, _SPAN_NONZEROS)
    ]

    def shuffle(epoch: int, workers: Workers) -> None:
        """Shuffle each thread's share of the nonzeros, in parallel on the training's
        threads."""

        def one_share(t: int) -> None:
            lo, hi = shares[t], shares[t + 1]
            rng = np.array([seed_state(config.seed, epoch, t)], dtype=np.uint64)
            shuffle_together(rows[lo:hi], cols[lo:hi], log_values[lo:hi], rng)

        workers.run(one_share, range(config.threads))

    def steps(span: Span, alpha_start: float, alpha_end: float, seed: int, memory: None):
        nonzeros = slice(span.start, span.stop)
        cost = glove_steps(
            rows[nonzeros],
            cols[nonzeros],
            log_values[nonzeros],
            weights,
            math.log(config.x_max),
            config.alpha,
            config.eta,
        )
        return cost, span.words, span.words

    report = run_training(
        spans,
        steps,
        lambda: None,
        epochs=config.epochs,
        alpha=config.eta,  # AdaGrad's: the schedule keeps it
        min_alpha=config.eta,
        threads=config.threads,
        seed=config.seed,
        check_weights=lambda: all_finite(w, c, b, bc),
        model_bytes=3 * w.nbytes + b.nbytes + bc.nbytes,  # w, c, b, bc and the vectors
        divergence=Divergence("GloVe", "--eta", config.eta),
        before_epoch=shuffle,
        description="glove",
        unit="x",
        quiet=quiet,
    )
    vectors = w + c if config.glove_output == "both" else w.copy()
    arrays = {"w_word": w, "w_context": c, "bias": b, "bias_context": bc}
    settings = {**config.as_dict(), "counts": counts.settings}
    return Model(counts.vocab, vectors, settings=settings, arrays=arrays, report=report)
