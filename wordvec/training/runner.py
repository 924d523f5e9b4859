"""Runs a span kernel over every span of every epoch on worker threads, with progress.

The kernels release the GIL, so Python threads train in parallel on shared weights (Hogwild,
as word2vec, gensim and glove.c do); the calling thread only draws the progress bar and
watches for divergence and Ctrl-C (:class:`wordvec.runtime.parallel.Workers`, the same threads
for every epoch). Epochs run one after another, so a trainer may prepare each on those threads
(GloVe shuffles its counts). The learning rate of a span
and its random seed depend only on the span's place in the schedule, never on which thread runs
it, so one thread with a fixed seed gives byte-identical weights; several threads race on the
weights and do not.
"""

from __future__ import annotations

import contextlib
import contextvars
import math
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from wordvec.corpus.encoded import EncodedCorpus
from wordvec.errors import ConfigError, TrainingDiverged
from wordvec.kernels.rng import seed_state
from wordvec.runtime.ambient import set_within
from wordvec.runtime.atomic import check_output_space
from wordvec.runtime.parallel import Workers
from wordvec.runtime.progress import progress_bar

SPAN_WORDS = 10_000
"""Words per span: the granularity of work sharing (and of learning-rate decay, where a kernel
holds the rate over its span); the window models' spans are longer but at an epoch's end
(:func:`window_spans`)."""
WINDOW_SPAN_WORDS = 100_000
"""Words per span of the window models (skip-gram, CBOW, fastText, paragraph vectors) but at an
epoch's end. Each span costs its thread a read of its ids, a kernel call and a result handed to
the calling thread, the GIL passed to and fro: ~300 us a span in spans of 10,000 words, 7-11%
of CBOW's training time (3.4M tokens, this project's 2-vCPU AMD VM), ~2% in these. The window
kernels decay the learning rate across their span, so the schedule is the same line either
way."""
TAIL_SPANS = 16
"""With several threads, an epoch ends in this many spans of :data:`SPAN_WORDS` for each thread
but one: the others train them while the last long span ends, so that the epoch's threads
finish together (the next epoch waits for its last span)."""


class Span(NamedTuple):
    """One kernel call's share of an epoch, the runner's unit of work: ``[start, stop)`` of
    the training data (a slice of the corpus's ids, or of GloVe's nonzeros) and ``words``, what
    it counts for in the learning-rate schedule and on the progress bar."""

    start: int
    stop: int
    words: int


def window_spans(corpus: EncodedCorpus, *, whole_lines: bool, threads: int) -> list[Span]:
    """The spans of ``corpus`` for the window models on ``threads`` threads:
    :data:`WINDOW_SPAN_WORDS` each, then the epoch's tail."""
    tail = (TAIL_SPANS * (threads - 1) * SPAN_WORDS, SPAN_WORDS)
    pieces = corpus.slices(WINDOW_SPAN_WORDS, whole_lines=whole_lines, tail=tail)
    return [Span(*piece) for piece in pieces]


_UNIT_NAMES = {"w": "words", "tok": "tokens"}
"""What the report calls the progress bar's units (other units are GloVe's updates)."""

SpanKernel = Callable[[Span, float, float, int, Any], tuple[float, int, int]]
"""``kernel(span, alpha_start, alpha_end, seed, memory) -> (loss_sum, predictions, words)``:
``seed`` starts the span's random numbers; ``memory`` is the calling thread's own working memory,
made by ``make_memory``. ``words`` counts what the progress bar and the schedule count (the
spans' ``words``)."""


@dataclass
class TrainingReport:
    """What a run measured: per-epoch mean loss per prediction, words, seconds.

    ``words`` counts what ``unit`` names: words trained on, a classifier's tokens (labels
    included), or (GloVe) co-occurrence updates. ``interrupted``: Ctrl-C stopped the run
    after ``len(epoch_loss)`` of ``epochs`` epochs (the weights are what it had trained).
    """

    epoch_loss: list[float] = field(default_factory=list)
    words: int = 0
    seconds: float = 0.0
    unit: str = "words"
    epochs: int = 0
    interrupted: bool = False
    sentences: int = 0  # lines of the corpus read (gensim's corpus_count)
    tokens: int = 0  # tokens read, out-of-vocabulary ones included (gensim's corpus_total_words)
    kept: int = 0  # words trained on after subsampling (gensim's effective words; word models)

    @property
    def words_per_second(self) -> float:
        return self.words / self.seconds if self.seconds > 0 else 0.0


@dataclass
class _Schedule:
    spans: list[Span]
    epochs: int
    alpha: float
    min_alpha: float
    words_per_epoch: int

    def alphas(self, epoch: int, index: int, words_before: int) -> tuple[float, float]:
        total = max(self.epochs * self.words_per_epoch, 1)
        start = epoch * self.words_per_epoch + words_before
        stop = start + self.spans[index].words

        def at(done: int) -> float:
            return max(self.alpha - (self.alpha - self.min_alpha) * done / total, self.min_alpha)

        return at(start), at(stop)


class EpochEnd(NamedTuple):
    """What a callback of ``wordvec.train(callbacks=...)`` is given after each epoch."""

    epoch: int  # 1 for the first
    epochs: int
    loss: float  # the epoch's mean loss per prediction
    alpha: float  # the learning rate reached at its end
    words_per_second: float  # the epoch's (``unit``: words, tokens or GloVe's updates)
    loss_sum: float = 0.0  # the epoch's summed loss (gensim's running_training_loss adds these)


EpochCallback = Callable[[EpochEnd], Any]
"""A function of :class:`EpochEnd`, or an object with any of gensim's hooks: ``on_train_begin(
epochs)``, ``on_epoch_begin(epoch)`` (1 for the first), ``on_epoch_end(EpochEnd)``,
``on_train_end(report)`` (the :class:`TrainingReport`)."""

HOOKS = ("on_train_begin", "on_epoch_begin", "on_epoch_end", "on_train_end")

_CALLBACKS: contextvars.ContextVar[tuple[EpochCallback, ...]] = contextvars.ContextVar(
    "epoch_callbacks", default=()
)


@contextlib.contextmanager
def epoch_callbacks(callbacks: Sequence[EpochCallback]) -> Iterator[None]:
    """Within this block, :func:`run_training` calls each of ``callbacks`` after every epoch.
    Ambient, as the progress bar is, rather than passed down through every trainer."""
    for callback in callbacks:
        if not callable(callback) and not any(callable(getattr(callback, h, None)) for h in HOOKS):
            raise ConfigError(
                f"a callback is a function of the epoch's figures or has one of the methods "
                f"{', '.join(HOOKS)}, not {type(callback).__name__}"
            )
    with set_within(_CALLBACKS, tuple(callbacks)):
        yield


def _call_back(end: EpochEnd) -> None:
    for callback in _CALLBACKS.get():
        if callable(callback):
            callback(end)
        else:
            _call_hook("on_epoch_end", end, [callback])


def _call_hook(hook: str, argument: Any, callbacks: Sequence | None = None) -> None:
    """Call ``hook`` of each of ``callbacks`` (the ambient ones by default) that has it."""
    for callback in _CALLBACKS.get() if callbacks is None else callbacks:
        if callable(getattr(callback, hook, None)):
            getattr(callback, hook)(argument)


@dataclass(frozen=True)
class Divergence:
    """What a diverged run's error names: the trainer and the option that fixes it."""

    trainer: str = "training"
    option: str = "--alpha"
    value: float = 0.0

    def error(self, epoch: int) -> TrainingDiverged:
        return TrainingDiverged(
            f"{self.trainer} diverged in epoch {epoch + 1} (NaN or infinite values); "
            f"try a lower {self.option} than {self.value:g}"
        )


@contextlib.contextmanager
def _interruptible(report: TrainingReport) -> Iterator[None]:
    """A KeyboardInterrupt in the block ends it and marks ``report`` interrupted."""
    try:
        yield
    except KeyboardInterrupt:
        report.interrupted = True


def run_training(
    spans: Sequence[Span],
    kernel: SpanKernel,
    make_memory: Callable[[], Any],
    *,
    epochs: int,
    alpha: float,
    min_alpha: float,
    threads: int,
    seed: int,
    check_weights: Callable[[], bool],
    divergence: Divergence,
    before_epoch: Callable[[int, Workers], Any] | None = None,
    model_bytes: int = 0,
    description: str = "training",
    unit: str = "w",
    quiet: bool = False,
) -> TrainingReport:
    """Train for ``epochs`` passes over ``spans``; raise :class:`TrainingDiverged` on NaN/inf.

    ``before_epoch(epoch, workers)`` runs before each epoch's spans (on ``workers``' threads,
    the training's, if it runs work in parallel); ``check_weights()`` returns False
    when the weights hold NaN or inf and is called after each epoch. ``model_bytes``, about
    the size of the model file, is checked against the output's free space first
    (:func:`~wordvec.runtime.atomic.check_output_space`). Ctrl-C ends the run
    early, once every thread has returned, with the report marked ``interrupted``: the
    trainer then makes its model as usual and :func:`wordvec.train` hands it over in a
    :class:`~wordvec.errors.TrainingInterrupted`.
    """
    check_output_space(model_bytes)
    words_per_epoch = sum(span.words for span in spans)
    schedule = _Schedule(list(spans), epochs, alpha, min_alpha, words_per_epoch)
    words_before = np.concatenate([[0], np.cumsum([span.words for span in spans])]).tolist()
    local = threading.local()  # each thread's memory
    report = TrainingReport(unit=_UNIT_NAMES.get(unit, "updates"), epochs=epochs)
    if spans:  # an empty span compiles (or loads) the kernels outside the timed run
        empty = Span(spans[0].start, spans[0].start, 0)
        kernel(empty, alpha, alpha, seed_state(seed, 0, 0), make_memory())
    started = time.perf_counter()
    _call_hook("on_train_begin", epochs)
    with (
        progress_bar(description, epochs * words_per_epoch, unit=unit, quiet=quiet) as bar,
        _interruptible(report),
        Workers(threads) as workers,
    ):
        for epoch in range(epochs):
            if before_epoch is not None:
                before_epoch(epoch, workers)
            _call_hook("on_epoch_begin", epoch + 1)
            totals = np.zeros(2)  # loss, predictions
            epoch_started, words_so_far = time.perf_counter(), report.words

            def run_span(index: int, epoch: int = epoch) -> tuple[float, int, int, float]:
                if not hasattr(local, "memory"):
                    local.memory = make_memory()
                a0, a1 = schedule.alphas(epoch, index, words_before[index])
                span_seed = seed_state(seed, epoch, index)
                return (*kernel(spans[index], a0, a1, span_seed, local.memory), a1)

            def record(result, epoch: int = epoch, totals: np.ndarray = totals) -> None:
                loss, predictions, words, current_alpha = result
                if not math.isfinite(loss):
                    raise divergence.error(epoch)
                totals += (loss, predictions)
                bar.update(words)
                report.words += words
                bar.set_postfix_str(
                    f"epoch={epoch + 1}/{epochs} lr={current_alpha:.5f} "
                    f"loss={totals[0] / max(totals[1], 1):.4f}",
                    refresh=False,
                )

            workers.run(run_span, range(len(spans)), on_result=record)
            if not check_weights():
                raise divergence.error(epoch)
            report.epoch_loss.append(float(totals[0] / max(totals[1], 1)))
            seconds = max(time.perf_counter() - epoch_started, 1e-9)
            end_alpha = (
                schedule.alphas(epoch, len(spans) - 1, words_before[-2])[1] if spans else alpha
            )
            speed = (report.words - words_so_far) / seconds
            _call_back(EpochEnd(epoch + 1, epochs, report.epoch_loss[-1], end_alpha, speed,
                                float(totals[0])))  # fmt: skip
    report.seconds = time.perf_counter() - started
    _call_hook("on_train_end", report)
    return report
