"""fastText training: skip-gram or CBOW whose input words are read through character n-grams.

The input matrix is ``n_words + bucket`` rows; each word reads its own row and its n-gram rows
(:mod:`wordvec.corpus.subwords`), and the window loop of word2vec trains it unchanged. It
trains on the rows the vocabulary reads only, packed together (:class:`PackedRows`). The model
keeps the word rows and the bucket rows, so unseen words get vectors and ``export --format
fasttext-bin`` can write fastText's ``.bin``; its ``vectors`` are each word's full subword
vector (what fastText's ``.vec`` holds).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from wordvec.corpus.reading import EncodedCorpus
from wordvec.corpus.subwords import subword_rows
from wordvec.corpus.vocab import Vocabulary
from wordvec.formats.kept_rows import SparseRows
from wordvec.kernels.rows import mean_input_vectors
from wordvec.kernels.windows import InputRows
from wordvec.model import Model
from wordvec.runtime.memory import lazy_zeros, release
from wordvec.training.config import TrainConfig
from wordvec.training.weights import FLOAT, initial_rows, start_from_vectors
from wordvec.training.windows import continued_rows, own_rows, train_windows


def vocabulary_input_rows(vocab: Vocabulary, config: TrainConfig) -> InputRows:
    """Each vocabulary word's rows: its own, then its n-grams' (none with ``--maxn 0``)."""
    if not config.subwords:  # packed weights have no spare rows for frequent_copies
        return own_rows(len(vocab))._replace(own=False)
    ptr, idx = subword_rows(vocab.words, len(vocab), config.minn, config.maxn, config.bucket)
    return InputRows(ptr, idx, own=False)


class PackedRows(NamedTuple):
    """The rows of the input matrix that the vocabulary reads, packed: ``weights[i]`` is row
    ``used[i]`` of the whole matrix, and ``inputs`` lists each word's rows by their positions.

    Of the 2M buckets a vocabulary's n-grams hash to a few (362k of them for the shared
    corpus's 68k words): scattered over 800 MB, nearly every row read is a TLB miss as well as
    a cache miss. Packed in huge pages they take 145 MB, and in the order the words (most
    frequent first) first read them: a frequent word's own row and n-gram rows lie together, so
    its input vector is read as one stretch of memory. Training is the same, value for value.
    Huge pages only for a long enough training (:data:`HUGE_PAGES_FROM`).
    """

    weights: np.ndarray  # float32 (len(used), dim)
    used: np.ndarray  # int64: the row of the whole matrix at each position
    inputs: InputRows  # each word's rows, as positions in weights
    words: np.ndarray  # int64 (n_words,): the position of each word's own row


HUGE_PAGES_FROM = 10_000_000
"""Words trained (the vocabulary's tokens times the epochs) from which the packed rows are
in huge pages. Fresh huge pages are dear on a VM whose host takes freed memory back: 56 MB
of them (a 2M-token slice's rows) cost 0.3-1.0 s of system time there, 4 KiB pages 0.05 s.
Fewer TLB misses repaid that from about 10M words: on a 10M-token slice, one epoch, training
took 0.7-0.9 s less CPU (4.5%), on the 2M-token slice, two epochs, no measurable less."""


def pack_used_rows(
    inputs: InputRows, n_words: int, dim: int, seed: int, *, huge_pages: bool = False
) -> PackedRows:
    """The rows ``inputs`` reads (every word's own row among them), packed, with the values
    :func:`init_used_rows` gives them; in huge pages if asked."""
    ascending, first_read, inverse = np.unique(inputs.idx, return_index=True, return_inverse=True)
    order = np.argsort(first_read, kind="stable")  # position i holds ascending[order[i]]
    place = np.empty_like(order)
    place[order] = np.arange(len(order))
    weights = lazy_zeros((len(ascending), dim), FLOAT, huge_pages=huge_pages)
    for start, stop, values in initial_rows(len(ascending), dim, seed):
        weights[place[start:stop]] = values
    packed = InputRows(inputs.ptr, place[inverse].astype(np.int32), inputs.own)
    return PackedRows(weights, ascending[order], packed, place[:n_words])


def unpack(rows: PackedRows, n_words: int, buckets: int) -> tuple[np.ndarray, SparseRows | None]:
    """The words' own rows, and the bucket rows training wrote (``buckets`` of them in the
    whole matrix; 0: no subwords) as :class:`SparseRows`: the few a vocabulary reads, in the
    order of their buckets, not spread over a matrix of all of them (800 MB at the defaults,
    whose scattered rows touched most of its pages). The packed memory is given back as the
    rows are copied out."""
    is_word = rows.used < n_words
    words, grams = (_by_row(rows.used, np.flatnonzero(side)) for side in (is_word, ~is_word))
    word_rows = np.asarray(rows.weights[words], dtype=FLOAT)
    ngrams = None
    if buckets:
        kept = (rows.used[grams] - n_words).astype(np.int32)
        ngrams = SparseRows(buckets, kept, np.asarray(rows.weights[grams], dtype=FLOAT))
    release(rows.weights.reshape(-1), 0, rows.weights.size)
    return word_rows, ngrams


def _by_row(used: np.ndarray, at: np.ndarray) -> np.ndarray:
    """The packed positions ``at`` in the order of the rows they hold."""
    return at[np.argsort(used[at], kind="stable")]


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
    huge_pages = int(vocab.counts.sum()) * config.epochs >= HUGE_PAGES_FROM
    inputs = vocabulary_input_rows(vocab, config)
    rows = pack_used_rows(inputs, n_words, config.dim, config.seed, huge_pages=huge_pages)
    w_in = rows.weights
    _start_from(rows, config, vocab, init, quiet=quiet)
    out, report = train_windows(config, vocab, corpus, w_in, rows.inputs, init=init, quiet=quiet)
    vectors = mean_input_vectors(w_in, rows.inputs.ptr, rows.inputs.idx)
    word_rows, ngrams = unpack(rows, n_words, buckets)
    arrays = {"w_out": out.w_out, "word_rows": word_rows}
    if buckets:  # the buckets no word reads keep what they were: zero, or the continued model's
        arrays["ngrams"] = ngrams if init is None else _with_rows_of(ngrams, init.arrays["ngrams"])
    return Model(vocab, vectors, settings=config.as_dict(), arrays=arrays, report=report)


def _with_rows_of(trained: SparseRows, before) -> SparseRows | np.ndarray:
    """The rows ``trained``, and of the continued model's buckets (``before``) those this run
    did not read, as they were: sparse from sparse; from a whole matrix (an older file's, or
    the gensim face's, whose every bucket starts random) the whole matrix, a copy with the
    trained rows in their places, as it was continued before the rows were kept sparse."""
    if not isinstance(before, SparseRows):
        whole = np.array(before, dtype=FLOAT)
        whole[trained.kept] = trained.values
        return whole
    untouched = ~np.isin(before.kept, trained.kept)
    kept = np.concatenate([trained.kept, before.kept[untouched]])
    values = np.concatenate([trained.values, before.values[untouched]])
    order = np.argsort(kept, kind="stable")
    return SparseRows(trained.shape[0], kept[order], values[order])


def _start_from(rows: PackedRows, config: TrainConfig, vocab: Vocabulary, init: Model | None,
                *, quiet: bool) -> None:  # fmt: skip
    """The rows that start from ``--init-vectors`` or from the model continued."""
    if config.init_vectors is None and init is None:
        return
    n_words = len(vocab)
    word_rows = rows.weights[rows.words]
    start_from_vectors(config, vocab, word_rows, quiet=quiet)
    if init is not None:
        word_rows[continued_rows(vocab, init)] = init.arrays["word_rows"]
        if config.buckets:
            is_ngram = rows.used >= n_words
            rows.weights[is_ngram] = init.arrays["ngrams"][rows.used[is_ngram] - n_words]
    rows.weights[rows.words] = word_rows
