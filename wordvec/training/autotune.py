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
import os
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from wordvec.errors import ConfigError, TrainingDiverged
from wordvec.kernels.specialize import CompileClock, watch_compiling
from wordvec.runtime.progress import note

SEARCHED = ("epochs", "alpha", "dim", "word_ngrams", "minn", "bucket", "loss")
"""The options a trial draws (``maxn`` follows ``minn``), unless the user gave them; with a
model size, the quantizer's ``dsub`` too."""
SIZE_UNITS = {"k": 1_000, "m": 1_000_000, "g": 1_000_000_000}
"""The suffixes of a model size, as fastText reads them (``2M``: 2,000,000 bytes)."""
CUTOFF_FLOOR = 256
"""fastText's least cutoff: a trial whose size would need fewer rows does not fit."""
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

    def __init__(self, start: dict, given: set[str], duration: float, seed: int,
                 sizing: bool = False):  # fmt: skip
        """``sizing``: a model size is asked for, so ``dsub`` is drawn too."""
        self.best = {**start, "dsub": 2} if sizing else dict(start)
        self.sizing = sizing
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
        if self.sizing:  # dsub 2, 4, 8 or 16
            exponent = int(draw(math.log2(self.best["dsub"]), 1, 4, 2.0, 1.0, t, True))
            settings["dsub"] = 1 << exponent
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
    model_size: str | None = None,
    tmp_dir: str | os.PathLike | None = None,
):
    """The best model of the trials that fit in ``duration`` seconds; ``train(corpus,
    **settings)`` trains one, scored on ``validation`` by ``metric`` (``f1`` or ``f1:LABEL``)
    over ``predictions`` labels a line. ``model_size`` (``2M``): each trial is quantized to
    fit that many bytes (:func:`size_plan`) and scored quantized, a trial that cannot fit
    skipped, as fastText's ``-autotune-modelsize``; the best model's ``dsub`` is then its
    ``autotune_dsub`` setting. The trials' scratch (and a sized trial's ``.ftz``) go in
    ``tmp_dir``, the run's ``--tmp-dir``."""
    from wordvec.corpus.sources import text_lines

    label = _metric_label(metric)
    size = None if model_size is None else size_in_bytes(model_size)
    defaults = {"epochs": 5, "alpha": 0.1, "dim": 100, "word_ngrams": 1, "minn": 0, "maxn": 0,
                "bucket": 2_000_000, "loss": "softmax"}  # fmt: skip
    given = set(options) & {*SEARCHED, "maxn"}
    search = Search({**defaults, **options}, given, duration, int(options.get("seed") or 0),
                    sizing=size is not None)  # fmt: skip
    with watch_compiling("supervised", quiet=quiet) as compiles:  # not the budget's time
        budget = _Budget(duration, compiles)
        best, best_score, trials, too_big = None, -math.inf, 0, 0
        while (elapsed := budget.spent()) < duration:
            tried = _fitted(search.ask(elapsed))
            settings = {name: value for name, value in tried.items() if name != "dsub"}
            dsub = tried.get("dsub")  # the quantizer's, drawn with a model size
            try:
                model = train(corpus, **{**options, **settings}, quiet=True, callbacks=[budget],
                              tmp_dir=tmp_dir)  # fmt: skip
                scored = model.classifier
                plan = None if size is None else size_plan(model, dsub, size)
                if plan is not None:
                    scored = _quantized(model, corpus, plan, tmp_dir)
            except (_OutOfTime, TrainingDiverged):
                continue
            if size is not None and plan is None:  # it cannot fit: fastText skips it too
                too_big += 1
                continue
            report = scored.test(text_lines(validation), predictions)
            scores = report.labels.get(label) if label else report.total
            if label and scores is None:
                raise ConfigError(f"--autotune-metric {metric}: no such label in the model")
            score = 0.0 if math.isnan(scores.f1) else scores.f1
            trials += 1
            if score > best_score:
                best, best_score = model, score
                search.best = dict(tried)
                if size is not None:
                    model.settings.update(autotune_model_size=model_size, autotune_dsub=dsub)
            if not quiet:
                shown = ", ".join(f"{name} {_shown(value)}" for name, value in tried.items())
                note(f"trial {trials}: {metric} {score:.4f} (best {best_score:.4f}; {shown})")
    if best is None and too_big:
        raise ConfigError(f"no trial fit --autotune-model-size {model_size} ({too_big} tried): "
                          "give a larger size")  # fmt: skip
    if best is None:
        raise ConfigError(f"no trial finished within --autotune-duration {duration:g} s")
    if not quiet:
        note(f"autotune: {trials} trials in {duration:g} s; best {metric} {best_score:.4f}")
    best.settings["autotune_trials"] = trials
    return best


def size_in_bytes(text: str) -> int:
    """A model size as fastText reads it: digits, then ``k``, ``M`` or ``G`` (decimal)."""
    digits, unit = (text[:-1], text[-1].lower()) if text[-1:].isalpha() else (text, "")
    if not digits.isdigit() or (unit and unit not in SIZE_UNITS) or int(digits) < 1:
        raise ConfigError(f"--autotune-model-size is a number of bytes, with k, M or G after "
                          f"it (2M), not {text!r}")  # fmt: skip
    return int(digits) * SIZE_UNITS.get(unit, 1)


def size_plan(model, dsub: int, size: int) -> dict | None:
    """The quantization of classifier ``model`` that makes its ``.ftz`` at most ``size``
    bytes, as fastText's autotune plans it: norms kept apart (``qnorm``), the output rows
    quantized where there are 256 or more (``qout``), the rows' codes of ``dsub``
    dimensions each, and the input rows cut to what the bytes left hold (``cutoff``, none
    where all fit; retrained after a cut). None where under 256 rows would fit."""
    from wordvec.formats.fasttext_ftz import input_rows
    from wordvec.formats.wordvec_model import label_vocabulary

    dim = model.vectors.shape[1]
    out_rows = len(model.arrays["w_out"])
    qout = out_rows >= CUTOFF_FLOOR
    if qout:  # fastText's sizes: the codes, the codebook, the norms, the headers
        out_bytes = 21 + out_rows * ((dim + 1) // 2) + 16 + 4 * dim * 256 + out_rows
    else:
        out_bytes = 16 + 4 * out_rows * dim
    # fastText's estimate leaves out the words' and labels' text (an entry is it, a NUL, a
    # count and a type): with it counted, the file stays under the size
    labels = sum(len(label.encode()) + 10 for label in label_vocabulary(model.arrays, "").words)
    word = math.ceil(np.mean([len(w.encode()) for w in model.vocab.words]))
    left = size - 107 - 4 * 256 * dim - out_bytes - labels
    cutoff = left // ((dim + dsub - 1) // dsub + 1 + 10 + word)  # a row's codes, norm, entry
    if cutoff <= CUTOFF_FLOOR:
        return None
    cut = cutoff < input_rows(model)
    return {"cutoff": cutoff if cut else 0, "retrain": cut, "qnorm": True, "qout": qout,
            "dsub": dsub}  # fmt: skip


def best_size_plan(model) -> dict:
    """The quantization of the best model of a search with a model size (its
    ``autotune_model_size`` and ``autotune_dsub`` settings), as its trial was quantized."""
    size = size_in_bytes(model.settings["autotune_model_size"])
    return size_plan(model, model.settings["autotune_dsub"], size)


def write_sized(model, path, corpus) -> None:
    """Write the best model of a search with a model size as the ``.ftz`` that fits,
    retrained on ``corpus`` where its rows are cut: what fastText's autotune ends with."""
    _write_quantized(model, path, corpus, best_size_plan(model))


def _quantized(model, corpus, plan: dict, tmp_dir):
    """``model`` quantized as ``plan`` says (:func:`size_plan`), read back as a classifier."""
    from pathlib import Path

    from wordvec.formats import load_classifier
    from wordvec.runtime.scratch import scratch_folder

    with scratch_folder(tmp_dir) as folder:
        path = Path(folder) / "trial.ftz"
        _write_quantized(model, path, corpus, plan)
        return load_classifier(path)


def _write_quantized(model, path, corpus, plan: dict) -> None:
    from wordvec.training.quantize import quantize

    quantize(model, path, cutoff=plan["cutoff"], retrain=corpus if plan["retrain"] else None,
             qnorm=plan["qnorm"], qout=plan["qout"], dsub=plan["dsub"])  # fmt: skip


class _OutOfTime(Exception):
    """A trial still training when the budget ran out."""


class _Budget:
    """The search's time: the seconds since it started, less those numba spent compiling (a
    fresh install's first search compiles the classifier's kernels, 6 s on the 2-vCPU VM, and
    with a model size the quantizer's: a 3 s budget that counted them ended with no trial);
    as an epoch callback, it stops a trial once they reach ``duration``."""

    def __init__(self, duration: float, compiles: CompileClock):
        self.duration = duration
        self.compiles = compiles
        self.started = time.monotonic()

    def spent(self) -> float:
        return time.monotonic() - self.started - self.compiles.compiling

    def __call__(self, _end) -> None:
        if self.spent() > self.duration:
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
