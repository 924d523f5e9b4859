"""Runs a job kernel over every job of every epoch on worker threads, with progress.

The kernels release the GIL, so Python threads train in parallel on shared weights (Hogwild,
as word2vec and gensim do); the main thread only draws the progress bar and watches for
divergence and Ctrl-C. The learning rate of a job and its random seed depend only on the job's
place in the schedule, never on which thread runs it, so one thread with a fixed seed gives
byte-identical weights; several threads race on the weights and do not.
"""

from __future__ import annotations

import math
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from wordvec.encoded import EncodedCorpus, Job
from wordvec.errors import TrainingDiverged
from wordvec.kernels.rng import seed_state
from wordvec.progress import progress_bar

JOB_WORDS = 10_000
"""Words per job: the granularity of learning-rate decay and of work sharing."""

JobKernel = Callable[[np.ndarray, Job, float, float, int, Any], tuple[float, int, int]]
"""``kernel(ids, job, alpha_start, alpha_end, seed, scratch) -> (loss_sum, pairs, words)``:
``seed`` starts the job's random numbers; ``scratch`` is the calling thread's own working memory,
made by ``make_scratch``."""


@dataclass
class TrainingReport:
    """What a run measured: per-epoch mean loss per prediction, words, seconds.

    ``words`` counts what ``unit`` names: words trained on, or (GloVe) co-occurrence updates.
    """

    epoch_loss: list[float] = field(default_factory=list)
    words: int = 0
    seconds: float = 0.0
    unit: str = "words"

    @property
    def words_per_second(self) -> float:
        return self.words / self.seconds if self.seconds > 0 else 0.0


@dataclass
class _Schedule:
    jobs: list[Job]
    epochs: int
    alpha: float
    min_alpha: float
    words_per_epoch: int

    def alphas(self, epoch: int, index: int, words_before: int) -> tuple[float, float]:
        total = max(self.epochs * self.words_per_epoch, 1)
        start = epoch * self.words_per_epoch + words_before
        stop = start + self.jobs[index].words

        def at(done: int) -> float:
            return max(self.alpha - (self.alpha - self.min_alpha) * done / total, self.min_alpha)

        return at(start), at(stop)


def run_training(
    corpus: EncodedCorpus,
    kernel: JobKernel,
    make_scratch: Callable[[], Any],
    *,
    epochs: int,
    alpha: float,
    min_alpha: float,
    threads: int,
    seed: int,
    check_weights: Callable[[], bool],
    description: str = "training",
    quiet: bool = False,
) -> TrainingReport:
    """Train for ``epochs`` passes over ``corpus``; raise :class:`TrainingDiverged` on NaN/inf.

    ``check_weights()`` returns False when the weights hold NaN or inf; it is called after each
    epoch.
    """
    jobs = corpus.jobs(JOB_WORDS)
    schedule = _Schedule(jobs, epochs, alpha, min_alpha, corpus.words)
    words_before = np.concatenate([[0], np.cumsum([job.words for job in jobs])]).tolist()
    tasks: queue.SimpleQueue = queue.SimpleQueue()
    for epoch in range(epochs):
        for index in range(len(jobs)):
            tasks.put((epoch, index))
    results: queue.SimpleQueue = queue.SimpleQueue()
    stop = threading.Event()

    def work() -> None:
        try:
            scratch = make_scratch()
            while not stop.is_set():
                try:
                    epoch, index = tasks.get_nowait()
                except queue.Empty:
                    return
                job = jobs[index]
                a0, a1 = schedule.alphas(epoch, index, words_before[index])
                job_seed = seed_state(seed, epoch, index)
                ids = corpus.read(job.start, job.stop)
                loss, pairs, words = kernel(ids, job, a0, a1, job_seed, scratch)
                results.put((epoch, loss, pairs, words, a1))
        except BaseException as exc:  # handed to the main thread, which re-raises it
            results.put(exc)

    workers = [threading.Thread(target=work, daemon=True) for _ in range(threads)]
    report = TrainingReport()
    bar = progress_bar(description, epochs * corpus.words, quiet=quiet)
    epoch_sums = np.zeros((epochs, 3))  # loss, pairs, jobs done
    started = time.perf_counter()
    try:
        for worker in workers:
            worker.start()
        for _ in range(epochs * len(jobs)):
            result = results.get()
            if isinstance(result, BaseException):
                raise result
            epoch, loss, pairs, words, current_alpha = result
            if not math.isfinite(loss):
                raise _diverged(alpha, epoch)
            epoch_sums[epoch] += (loss, pairs, 1)
            bar.update(words)
            report.words += words
            mean_loss = epoch_sums[epoch, 0] / max(epoch_sums[epoch, 1], 1)
            bar.set_postfix_str(
                f"epoch={epoch + 1}/{epochs} lr={current_alpha:.5f} loss={mean_loss:.4f}",
                refresh=False,
            )
            if epoch_sums[epoch, 2] == len(jobs) and not check_weights():
                raise _diverged(alpha, epoch)
    finally:
        stop.set()
        for worker in workers:
            if worker.is_alive():
                worker.join()
        bar.close()
    report.seconds = time.perf_counter() - started
    report.epoch_loss = (epoch_sums[:, 0] / np.maximum(epoch_sums[:, 1], 1)).tolist()
    return report


def _diverged(alpha: float, epoch: int) -> TrainingDiverged:
    return TrainingDiverged(
        f"training diverged in epoch {epoch + 1} (NaN or infinite values); "
        f"try a lower --alpha than {alpha:g}"
    )
