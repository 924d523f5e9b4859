"""The PPMI + truncated SVD baseline (Levy, Goldberg and Dagan, 2015) on co-occurrence counts.

PPMI(w, c) = max(log P(w, c) / (P(w) P_a(c)) - log k, 0), where P_a smooths the context
distribution (count ** ``cds``, normalised: rare contexts get less inflated PMI) and k is the
shift ``neg`` (1: none). The sparse PPMI matrix M is factorised as U S Vt truncated to ``dim``;
the word vectors are U S ** ``eig`` (``eig`` 0.5 or 0 usually beat the classic 1).
"""

from __future__ import annotations

import time

import numpy as np

from wordvec.cooccur.counts import Cooccurrences
from wordvec.errors import VocabularyError
from wordvec.model import Model
from wordvec.runtime.progress import note
from wordvec.training.config import TrainConfig
from wordvec.training.runner import TrainingReport
from wordvec.training.svd import CSR, randomized_svd


def ppmi_matrix(counts: Cooccurrences, cds: float, neg: float) -> CSR:
    """The shifted positive PMI matrix of ``counts`` with context smoothing ``cds``."""
    from wordvec.kernels.sparse import positive_pmi

    n_words = len(counts.vocab)
    row_ptr = np.asarray(counts.row_ptr)
    cols = np.asarray(counts.cols)
    values = np.asarray(counts.values)
    nonempty = np.diff(row_ptr) > 0
    row_sums = np.ones(n_words)  # an empty row has no entry to use it
    row_sums[nonempty] = np.add.reduceat(values, row_ptr[:-1][nonempty], dtype=np.float64)
    context = np.bincount(cols, weights=values, minlength=n_words) ** cds
    with np.errstate(divide="ignore"):
        log_context = np.log(context / context.sum())
    pointers, kept_cols, ppmi = positive_pmi(
        row_ptr, cols, values, np.log(row_sums), log_context, float(np.log(neg))
    )
    return CSR(pointers, kept_cols, ppmi, n_words)


def train_ppmi_svd(config: TrainConfig, counts: Cooccurrences, *, quiet: bool = False) -> Model:
    """Word vectors from the truncated SVD of the PPMI matrix; ``config`` must be resolved."""
    started = time.perf_counter()
    matrix = ppmi_matrix(counts, config.cds, config.neg)
    if len(matrix.values) == 0:
        raise VocabularyError("the PPMI matrix is empty (no pair occurs more than by chance)")
    rank = min(config.dim, len(counts.vocab) - 1)
    if not quiet:
        note(f"PPMI: {len(matrix.values):,} positive entries; SVD to {rank} dimensions")
    u, s, _ = randomized_svd(matrix, max(rank, 1), seed=config.seed, threads=config.threads)
    vectors = (u * s**config.eig).astype(np.float32)
    report = TrainingReport(seconds=time.perf_counter() - started)
    settings = {**config.as_dict(), "counts": counts.settings}
    return Model(
        counts.vocab, vectors, settings=settings, arrays={"singular_values": s}, report=report
    )
