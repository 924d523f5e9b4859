"""fastText's supervised text classifier: read the labelled lines, then train the kernel.

A line's hidden vector is the mean of its rows of ``w_in`` (its words', character n-grams' and
word n-grams', :func:`wordvec.kernels.supervised.line_rows`); the output layer is one of the
word models' over the labels (:func:`wordvec.corpus.output_layer.build_output_layer`). The input
matrix starts as fastText's (uniform in [-1/dim, 1/dim), only the rows the corpus uses), the
output at zero; the learning rate decays linearly over every token read, labels included, as
fastText's. The model keeps the word rows, the bucket rows, the output rows and the labels.
``--hidden N`` puts the course's hidden layer, tanh(W x + b), between the pooled rows and the
output layer (W uniform in +-1/sqrt(dim), b at zero), and ``--pooling max`` pools the rows by
their maximum in each dimension instead of their mean; the model then keeps W and b too.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from wordvec.corpus.encoded import EncodedCorpus
from wordvec.corpus.labelled import LabelledVocabulary, read_labelled
from wordvec.corpus.output_layer import build_output_layer, loss_memory
from wordvec.corpus.reading import check_free_space
from wordvec.corpus.sources import Corpus
from wordvec.errors import ConfigError
from wordvec.kernels.losses import OutputLayer
from wordvec.kernels.rows import mean_input_vectors
from wordvec.kernels.supervised import (
    HiddenLayer,
    LineMemory,
    LineTables,
    mark_used_rows,
    rows_room,
    supervised_job,
)
from wordvec.model import Model
from wordvec.options import OPTION
from wordvec.runtime.memory import own_cache_lines
from wordvec.runtime.progress import note, progress_bar
from wordvec.runtime.scratch import scratch_folder
from wordvec.training.config import NAMES, TrainConfig
from wordvec.training.copies import NO_PLACES, CopyPlaces, label_copies
from wordvec.training.runner import SPAN_WORDS, Divergence, Span, run_training
from wordvec.training.weights import FLOAT, all_finite, init_used_rows, start_from_vectors

_CHUNK = 1 << 20


def train_supervised(
    corpus: Corpus, config: TrainConfig, *, quiet: bool = False, tmp_dir=None
) -> Model:
    """Train a classifier on the labelled lines of ``corpus``; ``config`` must be resolved."""
    with scratch_folder(tmp_dir) as workdir:
        check_free_space(corpus, Path(workdir))
        with progress_bar("reading corpus", quiet=quiet) as bar:
            dictionary, tokens, stream = _read(corpus, config, workdir, on_tokens=bar.update)
        if not quiet:
            note(
                f"vocabulary: {len(dictionary.words):,} words (min count {config.min_count}), "
                f"{len(dictionary.labels):,} labels, {stream.length - stream.words:,} lines"
            )
        return _train(config, dictionary, dictionary.tables(tokens), stream, quiet=quiet)


def _read(corpus: Corpus, config: TrainConfig, workdir, on_tokens=None):
    """The labelled lines of ``corpus`` read as ``config`` says: (dictionary, tokens, ids)."""
    return read_labelled(
        corpus,
        workdir,
        prefix=config.label,
        reading=config.reading,
        subwords=(config.minn, config.maxn, config.buckets),
        word_ngrams=config.word_ngrams,
        on_tokens=on_tokens,
    )


def retrain_supervised(
    dictionary: LabelledVocabulary,
    settings: dict,
    weights: tuple[np.ndarray, np.ndarray | None, np.ndarray],
    corpus: Corpus,
    *,
    quiet: bool = True,
    tmp_dir=None,
) -> tuple[np.ndarray, np.ndarray | None, np.ndarray]:
    """Train a classifier's ``weights`` (word rows, bucket rows or None, output rows) further
    on the labelled lines of ``corpus`` with its ``settings`` (a model file's): fastText's
    ``-retrain`` of the rows a ``.ftz`` keeps (``dictionary.pruned``). Returns them trained."""
    known = {
        name: settings[name]
        for name in NAMES
        if settings.get(name) is not None and not OPTION[name].does_not_apply(settings)
    }
    if not known.get("bucket"):  # a file's 0: no n-grams, as the option left unset says
        known.pop("bucket", None)
    config = TrainConfig(**known).resolved()
    word_rows, ngrams, w_out = weights
    with scratch_folder(tmp_dir) as workdir:
        _, tokens, stream = _read(corpus, config, workdir)
        start = np.concatenate([word_rows, *([] if ngrams is None else [ngrams])])
        model = _train(
            config, dictionary, dictionary.tables(tokens), stream, quiet=quiet,
            start=(start, w_out),
        )  # fmt: skip
    n_words = len(word_rows)
    trained = model.arrays.get("word_rows", model.vectors)
    return trained[:n_words], model.arrays.get("ngrams"), model.arrays["w_out"]


def _train(
    config: TrainConfig,
    dictionary: LabelledVocabulary,
    tables: LineTables,
    stream: EncodedCorpus,
    *,
    quiet: bool,
    start: tuple[np.ndarray, np.ndarray] | None = None,
) -> Model:
    """Train on ``stream``: from fastText's random start, or from ``start`` (input rows, output
    rows) when given."""
    if config.loss == "hs" and len(dictionary.labels) < 2:
        raise ConfigError("--loss hs needs at least two labels")
    n_words = len(dictionary.words)
    layer = hidden_layer(config)
    # the output layer sees the hidden layer's units, or else the pooled rows
    plan = label_copies(config.loss, config.threads, len(dictionary.labels))
    places = CopyPlaces(plan, config.threads)
    spare_rows = plan.spare_rows(config.threads)
    out = build_output_layer(
        config.loss, dictionary.labels.counts, config.hidden or config.dim,
        negative=config.negative, ns_exponent=config.ns_exponent, spare_rows=spare_rows,
    )  # fmt: skip
    n_out = len(out.w_out) - spare_rows  # the output rows (the spare ones: the threads' copies)
    most_tokens = longest_line(stream)
    room = rows_room(tables, most_tokens + 1)
    if start is not None:
        w_in = np.array(start[0], dtype=FLOAT)
        out.w_out[:n_out] = start[1]
    else:
        rows = n_words + tables.bucket
        memory = line_memory(config, out, room, most_tokens + 1, places)
        w_in = init_used_rows(
            rows, config.dim, _used_rows(stream, tables, memory, rows), config.seed
        )
        start_from_vectors(config, dictionary.words, w_in, quiet=quiet)

    def new_memory() -> LineMemory:
        return line_memory(config, out, room, most_tokens + 1, places)

    def kernel(span: Span, alpha_start: float, alpha_end: float, seed: int, memory):
        memory.loss.rng[0] = seed
        ids = stream.read(span.start, span.stop)
        with places.job(memory.copies, span.words):
            return supervised_job(
                ids, span.words, alpha_start, alpha_end, w_in, tables, out, layer, memory
            )

    divergence = Divergence("training", "--alpha", config.alpha)
    report = run_training(
        [Span(*piece) for piece in stream.slices(SPAN_WORDS, whole_lines=True)],
        kernel,
        new_memory,
        epochs=config.epochs,
        alpha=config.alpha,
        min_alpha=config.min_alpha,
        threads=config.threads,
        seed=config.seed,
        # the output rows take part in every step: a NaN in a row a line reads reaches them at
        # that line (and checking them costs nothing, where 800 MB of bucket rows took 0.3 s an
        # epoch); the input rows are checked once, at the end
        check_weights=lambda: all_finite(out.w_out),
        model_bytes=w_in.nbytes + out.w_out.nbytes,
        divergence=divergence,
        description=f"supervised/{config.loss}",
        unit="tok",
        quiet=quiet,
    )
    if not all_finite(w_in):
        raise divergence.error(config.epochs - 1)
    _warn_if_collapsed(report.epoch_loss, config, len(dictionary.labels))
    arrays = {"w_out": out.w_out[:n_out], **dictionary.labels_arrays()}
    if config.hidden:
        if not (all_finite(layer.weights) and all_finite(layer.bias)):
            raise divergence.error(config.epochs - 1)
        arrays.update(hidden_weights=layer.weights, hidden_bias=layer.bias)
    if config.subwords:  # a word's vector is the mean of its rows, as fastText's
        vectors = mean_input_vectors(w_in, *dictionary.word_rows())
        arrays["word_rows"] = w_in[:n_words]
    else:
        vectors = w_in[:n_words]
    if len(w_in) > n_words:
        arrays["ngrams"] = w_in[n_words:]
    settings = {**config.as_dict(), "bucket": tables.bucket}
    return Model(dictionary.words, vectors, settings=settings, arrays=arrays, report=report)


def _warn_if_collapsed(epoch_loss: list[float], config: TrainConfig, labels: int) -> None:
    """Say so when training ended worse than it began: the last epoch's loss above the first
    epoch's, or above an untrained model's (every label as likely: a classifier that
    predicts one label for every line, as a hidden layer at rate 0.5-1.0 comes to, is far
    above it); the rate is the setting to lower."""
    chance = {
        "softmax": math.log(labels), "hs": math.log(labels),
        "ns": (1 + config.negative) * math.log(2), "ova": labels * math.log(2),
    }[config.loss]  # fmt: skip
    last = epoch_loss[-1] if epoch_loss else 0.0
    if len(epoch_loss) >= 2 and (last > epoch_loss[0] or last > chance):
        note(
            f"warning: the training loss ended at {last:.4g}, above where it began "
            f"({epoch_loss[0]:.4g}, first epoch; {chance:.4g} untrained): the classifier may "
            f"have collapsed onto a few labels; train again at a lower rate (--alpha, "
            f"fastText's lr; it was {config.alpha:g})"
        )


def hidden_layer(config: TrainConfig) -> HiddenLayer:
    """The pooling and hidden layer of ``config`` (no units: fastText's linear model)."""
    rng = np.random.default_rng(config.seed)
    bound = 1.0 / np.sqrt(config.dim)
    weights = rng.uniform(-bound, bound, (config.hidden, config.dim)).astype(FLOAT)
    return HiddenLayer(weights, np.zeros(config.hidden, FLOAT), config.pooling == "max")


def line_memory(
    config: TrainConfig,
    out: OutputLayer,
    rows: int,
    tokens: int,
    copies: CopyPlaces = NO_PLACES,
) -> LineMemory:
    """Working memory for one thread: room for the longest line's ``rows`` and ``tokens``, and
    for its jobs' ``copies``."""
    units = max(config.hidden, 1)
    return LineMemory(
        hidden=own_cache_lines(config.dim, FLOAT),
        grad=own_cache_lines(config.dim, FLOAT),
        rows=own_cache_lines(rows, np.int32),
        line_hashes=own_cache_lines(tokens, np.uint64),
        line_labels=own_cache_lines(tokens, np.int32),
        loss=loss_memory(out, max(config.dim, config.hidden)),
        activation=own_cache_lines(units, FLOAT),
        activation_grad=own_cache_lines(units, FLOAT),
        argmax=own_cache_lines(config.dim, np.int32),
        copies=copies.memory(config.hidden or config.dim),
    )


def longest_line(stream: EncodedCorpus) -> int:
    """The most tokens a line of ``stream`` has, read in chunks."""
    longest = carry = 0
    for start in range(0, stream.length, _CHUNK):
        ids = stream.read(start, min(start + _CHUNK, stream.length))
        ends = np.flatnonzero(ids < 0)
        if not len(ends):
            carry += len(ids)
            continue
        lengths = np.diff(ends, prepend=-1) - 1
        lengths[0] += carry
        longest = max(longest, int(lengths.max()))
        carry = len(ids) - int(ends[-1]) - 1
    return max(longest, carry)


def _used_rows(
    stream: EncodedCorpus, tables: LineTables, memory: LineMemory, n_rows: int
) -> np.ndarray:
    """The rows of ``w_in`` that a line of ``stream`` reads: only these start at random and
    take memory (2M bucket rows, 800 MB, for word bigrams, of which the cooking data uses
    11%), as :func:`wordvec.training.weights.init_used_rows` does for fastText's n-grams."""
    used = np.zeros(n_rows, dtype=bool)
    for piece in stream.slices(_CHUNK, whole_lines=True):
        ids = stream.read(piece.start, piece.stop)
        mark_used_rows(ids, tables, used, memory.rows, memory.line_hashes, memory.line_labels)
    return np.flatnonzero(used)
