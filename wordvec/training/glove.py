"""GloVe training (Pennington et al., 2014) on co-occurrence counts, as Stanford's ``glove``.

Weights start as glove.c's: word and context vectors and biases uniform in
[-0.5/dim, 0.5/dim), AdaGrad sums at 1. Each epoch every thread shuffles its share of the
nonzeros in place and takes one step on each (:mod:`wordvec.kernels.glove`); the cost per
nonzero is shown and kept per epoch. The vectors are W + W~ (glove's ``-model 2``) or, with
``glove_output="word"``, W alone.
"""

from __future__ import annotations

import functools
import time

import numpy as np

from wordvec.cooccurrences import Cooccurrences
from wordvec.errors import TrainingDiverged
from wordvec.kernels.rng import seed_state
from wordvec.model import Model
from wordvec.parallel import run_parallel
from wordvec.progress import progress_bar
from wordvec.training.config import TrainConfig
from wordvec.training.runner import TrainingReport
from wordvec.training.word2vec import FLOAT, init_input_weights

_CHUNK = 1 << 20  # nonzeros between progress updates


def train_glove(config: TrainConfig, counts: Cooccurrences, *, quiet: bool = False) -> Model:
    """Train GloVe vectors on ``counts``; ``config`` must be resolved."""
    from wordvec.kernels.glove import glove_steps, shuffle_together

    n_words, dim = len(counts.vocab), config.dim
    w = init_input_weights(n_words, dim, (config.seed, 0))
    c = init_input_weights(n_words, dim, (config.seed, 1))
    b = init_input_weights(n_words, 1, (config.seed, 2))[:, 0]
    bc = init_input_weights(n_words, 1, (config.seed, 3))[:, 0]
    gw, gc = np.ones_like(w), np.ones_like(c)
    gb, gbc = np.ones_like(b), np.ones_like(bc)
    rows = counts.rows()
    cols = np.array(counts.cols, dtype=np.int32)
    values = np.array(counts.values, dtype=FLOAT)
    shares = np.linspace(0, len(values), config.threads + 1).astype(np.int64)
    report = TrainingReport(unit="updates")
    bar = progress_bar("glove", config.epochs * len(values), unit="x", quiet=quiet)
    started = time.perf_counter()
    with bar:
        for epoch in range(config.epochs):
            costs = np.zeros(config.threads)

            def work(t: int, epoch: int = epoch, costs: np.ndarray = costs) -> None:
                """Thread ``t``: shuffle its share of the nonzeros, then step through it."""
                lo, hi = shares[t], shares[t + 1]
                rng = np.array([seed_state(config.seed, epoch, t)], dtype=np.uint64)
                shuffle_together(rows[lo:hi], cols[lo:hi], values[lo:hi], rng)
                for start in range(lo, hi, _CHUNK):
                    stop = min(start + _CHUNK, hi)
                    costs[t] += glove_steps(
                        rows[start:stop], cols[start:stop], values[start:stop],
                        w, c, b, bc, gw, gc, gb, gbc, config.x_max, config.alpha, config.eta,
                    )  # fmt: skip
                    bar.update(stop - start)

            run_parallel([functools.partial(work, t) for t in range(config.threads)])
            cost = float(costs.sum()) / max(len(values), 1)
            if not (np.isfinite(cost) and _finite(w, c, b, bc)):
                raise TrainingDiverged(
                    f"GloVe diverged in epoch {epoch + 1} (cost {cost}); try a lower --eta "
                    f"(now {config.eta})"
                )
            report.epoch_loss.append(cost)
            bar.set_postfix(epoch=f"{epoch + 1}/{config.epochs}", cost=f"{cost:.4f}")
    report.seconds = time.perf_counter() - started
    report.words = config.epochs * len(values)
    vectors = w + c if config.glove_output == "both" else w.copy()
    arrays = {"w_word": w, "w_context": c, "bias": b, "bias_context": bc}
    settings = {**config.as_dict(), "counts": counts.settings}
    return Model(counts.vocab, vectors, settings=settings, arrays=arrays, report=report)


def _finite(*arrays: np.ndarray) -> bool:
    from wordvec.kernels.word2vec import all_finite

    return all(all_finite(a.reshape(len(a), -1)) for a in arrays)
