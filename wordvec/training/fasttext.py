"""fastText training: skip-gram or CBOW whose input words are read through character n-grams.

The input matrix is ``n_words + bucket`` rows (see :func:`init_used_rows`); each word reads its
own row and its n-gram rows (:mod:`wordvec.corpus.subwords`), and the window loop of word2vec trains
it unchanged. The model keeps the word rows and the bucket rows, so unseen words get vectors
and ``export --format fasttext-bin`` can write fastText's ``.bin``; its ``vectors`` are each
word's full subword vector (what fastText's ``.vec`` holds).
"""

from __future__ import annotations

import numpy as np

from wordvec.corpus.reading import EncodedCorpus
from wordvec.corpus.subwords import subword_rows
from wordvec.corpus.vocab import Vocabulary
from wordvec.kernels.word2vec import InputRows, mean_input_vectors
from wordvec.model import Model
from wordvec.runtime.memory import lazy_zeros
from wordvec.training.config import TrainConfig
from wordvec.training.weights import FLOAT, init_input_weights
from wordvec.training.word2vec import (
    continued_rows,
    own_rows,
    start_from_vectors,
    train_windows,
)

_HALF_WIDTH = 1.0  # fastText initialises uniform in [-1/dim, 1/dim)
_INIT_CHUNK = 1 << 16


def vocabulary_input_rows(vocab: Vocabulary, config: TrainConfig) -> InputRows:
    """Each vocabulary word's rows: its own, then its n-grams' (none with ``--maxn 0``)."""
    if not config.subwords:
        return own_rows(len(vocab))
    ptr, idx = subword_rows(vocab.words, len(vocab), config.minn, config.maxn, config.bucket)
    return InputRows(ptr, idx)


def init_used_rows(n_rows: int, dim: int, used: np.ndarray, seed: int) -> np.ndarray:
    """The input matrix: the rows training uses uniform in [-1/dim, 1/dim), as fastText's;
    the rest zero and never touched, so the memory of unused buckets is never allocated.

    Unused rows matter only to unseen words whose n-grams no vocabulary word has; fastText
    0.9.2 initialises only one tenth of its matrix per thread and leaves the rest as allocated.
    """
    weights = lazy_zeros((n_rows, dim), FLOAT)
    for chunk, start in enumerate(range(0, len(used), _INIT_CHUNK)):
        rows = used[start : start + _INIT_CHUNK]
        weights[rows] = init_input_weights(len(rows), dim, (seed, chunk), _HALF_WIDTH)
    return weights


def train_fasttext(
    config: TrainConfig,
    vocab: Vocabulary,
    corpus: EncodedCorpus,
    *,
    init: Model | None = None,
    quiet: bool = False,
) -> Model:
    """Train fastText subword vectors (continuing ``init``, if given: its words' rows and its
    n-gram rows); ``config`` must be resolved."""
    n_words = len(vocab)
    buckets = config.buckets
    inputs = vocabulary_input_rows(vocab, config)
    w_in = init_used_rows(n_words + buckets, config.dim, np.unique(inputs.idx), config.seed)
    start_from_vectors(config, vocab, w_in, quiet=quiet)
    if init is not None:
        w_in[continued_rows(vocab, init)] = init.arrays["word_rows"]
        if buckets:
            w_in[n_words:] = init.arrays["ngrams"]
    out, report = train_windows(config, vocab, corpus, w_in, inputs, init=init, quiet=quiet)
    vectors = mean_input_vectors(w_in, inputs.ptr, inputs.idx)
    arrays = {"w_out": out.w_out, "word_rows": w_in[:n_words]}
    if buckets:
        arrays["ngrams"] = w_in[n_words:]
    return Model(vocab, vectors, settings=config.as_dict(), arrays=arrays, report=report)
