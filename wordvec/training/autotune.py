"""fastText's autotune for the classifier: trials of settings around the best so far, each a
model trained on the training file and scored on a validation file, within a time budget.

The search is fastText's (``src/autotune.cc``): the first trial takes the settings given (the
defaults for the rest); each later one draws every setting the user did not give from a normal
distribution around the best trial's (in log space for epochs, learning rate, dimension and
buckets), narrowing as the budget runs out: epochs 1-100, learning rate 0.01-5, dimension
1-1000, word n-grams 1-5, character n-grams none, 2-5 or 3-6, buckets 10k-10M; the loss is the
softmax. wordvec trains a trial in a fraction of fastText's time, so the same budget runs more
trials. The best trial's model is the result (fastText trains it once more; its trial is the
same model).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from wordvec.errors import ConfigError, TrainingDiverged
from wordvec.runtime.progress import note

SEARCHED = ("epochs", "alpha", "dim", "word_ngrams", "minn", "bucket", "loss")
"""The options a trial draws (``maxn`` follows ``minn``), unless the user gave them."""
MINN_CHOICES = (0, 2, 3)
MEMORY_LIMIT = 2 << 30
"""Bytes the input rows of a trial may take: buckets are cut to fit (fastText's range reaches
10M buckets of 1,000 dimensions, 40 GB)."""


@dataclass
class Trial:
    """One trial's settings (wordvec's option names) and its validation score."""

    settings: dict
    score: float = float("nan")


class Search:
    """fastText's ``AutotuneStrategy``: the next trial's settings, given the time used."""

    def __init__(self, start: dict, given: set[str], duration: float, seed: int):
        self.best = dict(start)
        self.given = given
        self.duration = duration
        self.rng = np.random.default_rng(seed)
        self.trials = 0

    def ask(self, elapsed: float) -> dict:
        t = min(1.0, elapsed / self.duration)
        self.trials += 1
        if self.trials == 1:
            return dict(self.best)
        settings = dict(self.best)
        draw = self._draw
        if "epochs" not in self.given:
            settings["epochs"] = int(draw(settings["epochs"], 1, 100, 2.8, 2.5, t, False))
        if "alpha" not in self.given:
            settings["alpha"] = float(draw(settings["alpha"], 0.01, 5.0, 1.9, 1.0, t, False))
        if "dim" not in self.given:
            settings["dim"] = int(draw(settings["dim"], 1, 1000, 1.4, 0.3, t, False))
        if "word_ngrams" not in self.given:
            settings["word_ngrams"] = int(draw(settings["word_ngrams"], 1, 5, 4.3, 2.4, t, True))
        if "minn" not in self.given:
            best = MINN_CHOICES.index(self.best.get("minn", 0) if self.best.get("maxn") else 0)
            settings["minn"] = MINN_CHOICES[int(draw(best, 0, 2, 4.0, 1.4, t, True))]
            settings["maxn"] = settings["minn"] + 3 if settings["minn"] else 0
        if "bucket" not in self.given:
            settings["bucket"] = int(draw(self.best.get("bucket") or 2_000_000, 10_000,
                                          10_000_000, 2.0, 1.5, t, False))  # fmt: skip
        if "loss" not in self.given:
            settings["loss"] = "softmax"
        return settings

    def _draw(self, value, low, high, start_sigma, end_sigma, t, linear):
        """fastText's ``updateArgGauss``: ``value`` moved by a normal draw (added, or as a
        power of two), its spread narrowing from ``start_sigma`` to ``end_sigma`` over the
        middle half of the budget, then clipped to [low, high]."""
        sigma = start_sigma - (start_sigma - end_sigma) / 0.5 * min(0.5, max(t - 0.25, 0.0))
        coefficient = self.rng.normal(0.0, sigma)
        moved = value + coefficient if linear else value * 2.0**coefficient
        return min(max(moved, low), high)


def autotune(
    train: Callable[..., object],
    corpus,
    options: dict,
    *,
    validation: str,
    duration: float,
    metric: str,
    predictions: int,
    quiet: bool,
):
    """The best model of the trials that fit in ``duration`` seconds; ``train(corpus,
    **settings)`` trains one, scored on ``validation`` by ``metric`` (``f1`` or
    ``f1:LABEL``) over ``predictions`` labels a line."""
    from wordvec.corpus.sources import text_lines

    label = _metric_label(metric)
    defaults = {"epochs": 5, "alpha": 0.1, "dim": 100, "word_ngrams": 1, "minn": 0, "maxn": 0,
                "bucket": 2_000_000, "loss": "softmax"}  # fmt: skip
    given = set(options) & {*SEARCHED, "maxn"}
    search = Search({**defaults, **options}, given, duration, int(options.get("seed") or 0))
    started = time.monotonic()
    best, best_score, trials = None, -math.inf, 0
    while (elapsed := time.monotonic() - started) < duration:
        settings = _fitted(search.ask(elapsed))
        deadline = _Deadline(started + duration)
        try:
            model = train(corpus, **{**options, **settings}, quiet=True, callbacks=[deadline])
        except (_OutOfTime, TrainingDiverged):
            continue
        report = model.classifier.test(text_lines(validation), predictions)
        scores = report.labels.get(label) if label else report.total
        if label and scores is None:
            raise ConfigError(f"--autotune-metric {metric}: no such label in the model")
        score = 0.0 if math.isnan(scores.f1) else scores.f1
        trials += 1
        if score > best_score:
            best, best_score = model, score
            search.best = dict(settings)
        if not quiet:
            shown = ", ".join(f"{name} {_shown(value)}" for name, value in settings.items())
            note(f"trial {trials}: {metric} {score:.4f} (best {best_score:.4f}; {shown})")
    if best is None:
        raise ConfigError(f"no trial finished within --autotune-duration {duration:g} s")
    if not quiet:
        note(f"autotune: {trials} trials in {duration:g} s; best {metric} {best_score:.4f}")
    best.settings["autotune_trials"] = trials
    return best


class _OutOfTime(Exception):
    """A trial still training when the budget ran out."""


class _Deadline:
    """An epoch callback that stops a trial once the budget is spent."""

    def __init__(self, at: float):
        self.at = at

    def __call__(self, _end) -> None:
        if time.monotonic() > self.at:
            raise _OutOfTime


def _fitted(settings: dict) -> dict:
    """``settings`` with buckets cut so that the input rows fit :data:`MEMORY_LIMIT`, and
    none where neither character nor word n-grams use them (fastText's rule)."""
    if settings.get("word_ngrams", 1) <= 1 and not settings.get("maxn"):
        settings.pop("bucket", None)
    elif "bucket" in settings:
        settings["bucket"] = max(1, min(settings["bucket"], MEMORY_LIMIT // (4 * settings["dim"])))
    if not settings.get("maxn"):
        settings.pop("minn", None)
        settings["maxn"] = 0
    return settings


def _metric_label(metric: str) -> str | None:
    if metric == "f1":
        return None
    if metric.startswith("f1:") and len(metric) > 3:
        return metric[3:]
    raise ConfigError(f"--autotune-metric is f1 or f1:LABEL, not {metric!r}")


def _shown(value: object) -> str:
    return f"{value:.4g}" if isinstance(value, float) else str(value)
