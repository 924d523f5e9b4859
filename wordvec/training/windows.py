"""Skip-gram and CBOW training (word2vec, and fastText through its subword rows): weights,
the thread memory, and the call into the window loop.

``w_in`` are the input vectors (word2vec's ``syn0``; the word vectors we export) and ``w_out``
the output weights of the chosen loss (``syn1neg``, ``syn1`` or the softmax's). Initialisation
follows word2vec: ``w_in`` uniform in [-0.5/dim, 0.5/dim), ``w_out`` zero.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping

import numpy as np

from wordvec.corpus.encoded import EncodedCorpus
from wordvec.corpus.output_layer import build_output_layer, loss_memory
from wordvec.corpus.vocab import Vocabulary
from wordvec.kernels.losses import OutputLayer, targets_per_word
from wordvec.kernels.windows import (
    CBOW,
    CBOW_SUM,
    SKIP_GRAM,
    SKIP_GRAM_SHARED_TARGETS,
    InputRows,
    Sampling,
    WindowMemory,
    window_job,
)
from wordvec.model import Model
from wordvec.options import DOC2VEC
from wordvec.runtime.memory import narrow_rows, own_cache_lines
from wordvec.training.config import TrainConfig
from wordvec.training.copies import NO_PLACES, CopyPlaces, CopyPlan, window_copies
from wordvec.training.runner import (
    Divergence,
    Span,
    TrainingReport,
    run_training,
    window_spans,
)
from wordvec.training.weights import FLOAT, all_finite, init_line_rows, start_from_vectors


def word_output_layer(
    config: TrainConfig, vocab: Vocabulary, width: int, spare_rows: int = 0
) -> OutputLayer:
    """The output layer over ``vocab``'s words for ``config``'s loss, its rows ``width`` wide
    (padded past ``config.output_width`` as the input rows are), with ``spare_rows``."""
    return build_output_layer(
        config.loss, vocab.counts, width, negative=config.negative,
        ns_exponent=config.ns_exponent, spare_rows=spare_rows,
    )  # fmt: skip


def own_rows(n_words: int) -> InputRows:
    """Each word's input is its own row (plain word2vec)."""
    return InputRows(
        np.arange(n_words + 1, dtype=np.int64), np.arange(n_words, dtype=np.int32), own=True
    )


def thread_copies(config: TrainConfig, inputs: InputRows, n_words: int) -> CopyPlan:
    """The rows each thread trains its own copies of
    (:func:`~wordvec.training.copies.window_copies`); ``w_in`` needs ``input_spare_rows(threads)``
    spare rows after the words'."""
    if config.output_width != config.dim or inputs.locked:  # PV-DM's concatenated window,
        return CopyPlan()  # or locked rows (a copy would take every step): rows shared
    document_steps = config.model == DOC2VEC and config.arch == "dbow"
    paths_once_a_window = config.shared_targets and not document_steps
    return window_copies(config.loss, config.threads, paths_once_a_window, inputs.own, n_words)


def window_model(config: TrainConfig) -> int:
    """The window loop's mode for ``config``'s word model: one of the kernel's ``SKIP_GRAM``,
    ``CBOW`` (``CBOW_SUM``: --context sum), ``SKIP_GRAM_SHARED_TARGETS``."""
    if config.shared_targets:
        return SKIP_GRAM_SHARED_TARGETS
    if config.cbow:
        return CBOW_SUM if config.context == "sum" else CBOW
    return SKIP_GRAM


def window_memory(
    config: TrainConfig,
    out: OutputLayer,
    max_rows_per_word: int,
    copies: CopyPlaces = NO_PLACES,
    document_rows: int = 1,
) -> WindowMemory:
    """Working memory for one thread, with room for its jobs' ``copies`` and for a window's
    input rows: its words' and up to ``document_rows`` documents' (PV-DM); the hidden vector
    and its step are as wide as the output layer, the rest as the input rows: as wide as the
    output layer's too (padded alike, :func:`train_windows`), but PV-DM's over the
    concatenated window, whose input rows are ``config.dim`` wide."""
    out_width = out.w_out.shape[1]
    width = out_width if config.output_width == config.dim else config.dim
    step_targets = targets_per_word(out)
    window_inputs = 2 * config.window if config.shared_targets else 0
    span = window_inputs + 2 if window_inputs else 0
    # the window step's step sizes take one target more: a block's missing rows read zeros there
    dots = (step_targets + 1) * window_inputs
    return WindowMemory(
        hidden=own_cache_lines(out_width, FLOAT),
        grad=own_cache_lines(out_width, FLOAT),
        sentence=own_cache_lines(config.max_sentence_length, np.int32),
        rows=own_cache_lines(2 * config.window * max_rows_per_word + document_rows, np.int32),
        predict=own_cache_lines(2 * config.window, np.int32),
        loss=loss_memory(out, out_width, dots=dots),
        line=own_cache_lines(1, np.int64),
        span=own_cache_lines((span, width), FLOAT),
        span_grads=own_cache_lines((span, width), FLOAT),
        slots=own_cache_lines(window_inputs, np.int32),
        input_grads=own_cache_lines((window_inputs, width), FLOAT),
        flat_labels=own_cache_lines(step_targets * window_inputs, FLOAT),
        copies=copies.memory(width),
    )


def train_windows(
    config: TrainConfig,
    vocab: Vocabulary,
    corpus: EncodedCorpus,
    w_in: np.ndarray,
    inputs: InputRows,
    *,
    init: Model | None = None,
    documents: tuple[np.ndarray, np.ndarray] | None = None,
    mode: int | None = None,
    quiet: bool = False,
) -> tuple[OutputLayer, TrainingReport]:
    """Run skip-gram or CBOW (``config.model``) over ``corpus``; return the trained output layer
    and the run's report. Paragraph vectors give ``documents``, the rows of ``w_in`` that the
    lines train (their tags') and where each line's start, ``(rows, starts)`` as
    :class:`~wordvec.kernels.windows.Sampling` takes them, and their ``mode`` of the window
    loop (``PV_DBOW``, ``PV_DBOW_WORDS``, ``PV_DM``, ``PV_DM_SUM``).

    A word's input is the mean of its rows of ``w_in`` listed in ``inputs``: its own row for
    word2vec; a subword model (fastText) lists its n-gram rows too and reuses this unchanged.
    With several threads (:func:`thread_copies`), ``w_in`` ends with the spare rows where
    each job keeps its copies of the most frequent words' rows, if it keeps any (the returned
    output layer has no spare rows).
    Continuing ``init``, its words keep their output rows; the Huffman tree of hierarchical
    softmax (from the new counts) starts from zero.

    ``w_in``'s rows may be padded past ``config.dim`` to whole cache lines, zero there
    (:func:`~wordvec.runtime.memory.line_rows`): the output layer's rows then are too (but
    PV-DM's over the concatenated window), and the returned one is narrowed to its own width.
    """
    plan = thread_copies(config, inputs, len(vocab))
    spare_rows = plan.spare_rows(config.threads)
    width = w_in.shape[1]  # config.dim, or past it in whole cache lines (line_rows)
    out_width = width if config.output_width == config.dim else config.output_width
    out = word_output_layer(config, vocab, out_width, spare_rows)
    if plan.in_rows and w_in.shape[0] < out.w_out.shape[0]:
        raise ValueError("w_in needs the spare rows of thread_copies after the words' rows")
    places = CopyPlaces(plan, config.threads)
    if init is not None and config.loss != "hs":  # a row per word: each keeps its own
        word_rows = len(init.vocab)  # (hs+ns: the tree's rows follow)
        continued = init.arrays["w_out"][:word_rows]
        out.w_out[continued_rows(vocab, init), : config.output_width] = continued
    sampling = Sampling(
        vocab.keep_probabilities(config.sample), config.window, config.max_sentence_length,
        *([] if documents is None else documents),
    )  # fmt: skip
    spans = window_spans(corpus, whole_lines=documents is not None, threads=config.threads)
    first_line = _first_lines(spans)
    model = window_model(config) if mode is None else mode
    max_rows = int(np.diff(inputs.ptr).max())
    document_rows = 1 if documents is None else max(int(np.diff(documents[1]).max(initial=1)), 1)

    def new_memory() -> WindowMemory:
        return window_memory(config, out, max_rows, places, document_rows)

    kept = KeptWords()

    def kernel(span: Span, alpha_start: float, alpha_end: float, seed: int, memory):
        ids = corpus.read(span.start, span.stop)
        memory.loss.rng[0] = seed
        memory.line[0] = first_line.get(span.start, 0)
        with places.job(memory.copies, span.words):
            loss, predictions, words, span_kept = window_job(
                ids, span.words, alpha_start, alpha_end, model, w_in, inputs, out, sampling,
                memory,
            )  # fmt: skip
        kept.add(span_kept)
        return loss, predictions, words

    report = run_training(
        spans,
        kernel,
        new_memory,
        epochs=config.epochs,
        alpha=config.alpha,
        min_alpha=config.min_alpha,
        threads=config.threads,
        seed=config.seed,
        check_weights=lambda: all_finite(w_in, out.w_out),
        model_bytes=w_in.nbytes + out.w_out.nbytes,
        divergence=Divergence("training", "--alpha", config.alpha),
        description=f"{config.model}/{config.loss}",
        quiet=quiet,
    )
    report.kept = kept.total
    w_out = narrow_rows(out.w_out[: len(out.w_out) - spare_rows], config.output_width)
    return out._replace(w_out=w_out), report


class KeptWords:
    """The words the jobs kept after subsampling (gensim's "effective words"), summed over the
    threads' jobs."""

    def __init__(self) -> None:
        self.total = 0
        self._lock = threading.Lock()

    def add(self, words: int) -> None:
        with self._lock:
            self.total += int(words)


def _first_lines(spans: list[Span]) -> dict[int, int]:
    """The line each span (of whole lines) starts: its start, to the number of lines before
    (a span's entries that are not words are its line ends)."""
    first, lines = {}, 0
    for span in spans:
        first[span.start] = lines
        lines += span.stop - span.start - span.words
    return first


def train_word2vec(
    config: TrainConfig,
    vocab: Vocabulary,
    corpus: EncodedCorpus,
    *,
    init: Model | None = None,
    quiet: bool = False,
    word_locks: Mapping[str, float] | None = None,
) -> Model:
    """Train skip-gram or CBOW word vectors (continuing ``init``, if given); ``config`` must
    be resolved. ``word_locks``: the share of its steps a word's vector takes (gensim's
    ``vectors_lockf``; 0 keeps it as it is), 1 for the words it does not name."""
    inputs = own_rows(len(vocab))
    if word_locks:
        locks = np.ones(len(vocab), dtype=np.float32)
        index = vocab.index
        for word, share in word_locks.items():
            if word in index:
                locks[index[word]] = share
        inputs = inputs._replace(locks=locks)
    spare_rows = thread_copies(config, inputs, len(vocab)).input_spare_rows(config.threads)
    weights = init_line_rows(len(vocab) + spare_rows, config.dim, config.seed)
    vectors = weights[: len(vocab), : config.dim]  # the spare rows after: the threads' copies
    start_from_vectors(config, vocab, vectors, quiet=quiet)
    if init is not None:
        vectors[continued_rows(vocab, init)] = init.vectors
    out, report = train_windows(config, vocab, corpus, weights, inputs, init=init, quiet=quiet)
    return Model(
        vocab,
        narrow_rows(weights[: len(vocab)], config.dim),
        settings=config.as_dict(),
        arrays={"w_out": out.w_out},
        report=report,
    )


def continued_rows(vocab: Vocabulary, init: Model) -> np.ndarray:
    """Where each word of ``init``'s vocabulary is in ``vocab`` (which holds them all)."""
    index = vocab.index
    return np.array([index[word] for word in init.vocab.words], dtype=np.int64)
