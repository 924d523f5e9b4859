"""Compiling the kernels ahead of time: what ``wordvec warmup`` runs.

Numba compiles a kernel the first time a run needs it and keeps it in its cache; a first run
so waits for its model's kernels (seconds, ``kernels/specialize.py``). :func:`warm_up` pays
that wait at a time of the user's choosing (after an install or an upgrade, in a container's
build, before a course): each model trains one epoch on a small sample at its defaults, which
compiles what the model's first real run at its defaults would, and the numba reader scans a
sample the size of a corpus it reads (at least :data:`~wordvec.corpus.reading.PYTHON_READS`).
Each is a process of its own, ``jobs`` at a time: numba compiles one function at a time in a
process, and the processes share its cache (their saves are locked, ``kernels/__init__.py``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from wordvec.errors import ConfigError, WordvecError
from wordvec.options import MODELS, SUPERVISED
from wordvec.runtime.progress import note, progress_bar


class WarmupFailed(WordvecError):
    """A model's warm-up process failed: the last line it wrote says why."""


READING = "reading"
"""The job that compiles the numba reader's kernels (big corpora's)."""
COMMANDS = ("quantize", "phrases")
"""The commands whose kernels no model's run compiles (``cooccur``'s are GloVe's): jobs that
quantize a made-up word model and join the phrases of a sample."""
WARMED = (*MODELS, READING, *COMMANDS)
"""What :func:`warm_up` can warm: every ``--model``, the reader of big corpora, and
:data:`COMMANDS`."""
SAMPLE_WORDS = 20_000
"""Words in the sample each model trains on: enough for every model to have a vocabulary at
its defaults, few enough to train in a blink."""


def warm_up(
    models: Sequence[str] = WARMED, *, jobs: int | None = None, quiet: bool = False
) -> dict[str, float]:
    """Compile the kernels of each of ``models`` (``--model`` names, or ``"reading"``) into
    numba's cache, ``jobs`` processes at a time (all cores by default); return each one's
    seconds, its process's whole time."""
    unknown = sorted(set(models) - set(WARMED))
    if unknown:
        raise ConfigError(f"warmup knows {', '.join(WARMED)}, not {', '.join(unknown)}")
    jobs = max(1, jobs or os.cpu_count() or 1)
    seconds: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="wordvec-warmup-") as folder:
        samples = _write_samples(Path(folder), models)
        waiting = list(dict.fromkeys(models))
        running: dict[str, tuple[subprocess.Popen, float]] = {}
        with progress_bar("compiling", len(waiting), unit="model", si=False, quiet=quiet) as bar:
            while waiting or running:
                while waiting and len(running) < jobs:
                    name = waiting.pop(0)
                    command = [sys.executable, "-m", __name__, name, str(samples[name])]
                    process = subprocess.Popen(command, stdout=subprocess.DEVNULL,
                                               stderr=subprocess.PIPE)  # fmt: skip
                    running[name] = (process, time.perf_counter())
                name = _next_done(running)
                process, started = running.pop(name)
                error = process.stderr.read().decode(errors="replace").strip()
                if process.wait() != 0:
                    for other, _ in running.values():
                        other.kill()
                    last = error.splitlines()[-1] if error else f"exit status {process.returncode}"
                    raise WarmupFailed(f"warming up {name} failed: {last}")
                seconds[name] = time.perf_counter() - started
                bar.update(1)
                bar.set_postfix_str(f"{name} {seconds[name]:.1f} s", refresh=False)
    if not quiet:
        note("compiled " + ", ".join(f"{name} ({took:.1f} s)" for name, took in seconds.items()))
    return seconds


def _next_done(running: dict[str, tuple[subprocess.Popen, float]]) -> str:
    """The name of a process of ``running`` that has ended, waiting for one."""
    while True:
        for name, (process, _) in running.items():
            if process.poll() is not None:
                return name
        time.sleep(0.05)


def _write_samples(folder: Path, models: Sequence[str]) -> dict[str, Path]:
    """Each model's sample: words drawn from a Zipf-like law over 500 made-up words, lines of
    20 (the classifier's with a ``__label__`` of three first); the reader's the size of a big
    corpus; the quantizer's a vector file of made-up rows."""
    from wordvec.corpus.reading import PYTHON_READS

    rng = np.random.default_rng(1)
    words = np.array([f"w{i}" for i in range(500)])
    weights = 1.0 / np.arange(1, 501)
    drawn = rng.choice(words, size=(SAMPLE_WORDS // 20, 20), p=weights / weights.sum())
    text = "\n".join(" ".join(line) for line in drawn) + "\n"
    labelled = "\n".join(f"__label__{i % 3} " + " ".join(line) for i, line in enumerate(drawn))
    paths = {"text": folder / "text.txt", "labelled": folder / "labelled.txt"}
    paths["text"].write_text(text, encoding="utf-8")
    paths["labelled"].write_text(labelled + "\n", encoding="utf-8")
    if READING in models:
        paths["big"] = folder / "big.txt"
        with open(paths["big"], "w", encoding="utf-8") as big:
            for _ in range(PYTHON_READS // len(text) + 1):
                big.write(text)
    if "quantize" in models:  # 300 made-up words of 16 dimensions: over the 256 of a slice
        paths["vectors"] = folder / "vectors.vec"
        rows = rng.normal(size=(300, 16)).astype(np.float32)
        lines = [f"{words[i]} " + " ".join(f"{x:.4f}" for x in row) for i, row in enumerate(rows)]
        paths["vectors"].write_text("300 16\n" + "\n".join(lines) + "\n", encoding="utf-8")
    by_model = {name: paths["text"] for name in models}
    if "quantize" in by_model:
        by_model["quantize"] = paths["vectors"]
    if SUPERVISED in by_model:
        by_model[SUPERVISED] = paths["labelled"]
    if READING in by_model:
        by_model[READING] = paths["big"]
    return by_model


def _warm(name: str, sample: str) -> None:
    """One job, in its own process: train ``name`` on ``sample`` (or scan it, ``reading``;
    quantize it, ``quantize``; join its phrases, ``phrases``)."""
    if name in (READING, *COMMANDS):
        with tempfile.TemporaryDirectory(prefix="wordvec-warmup-") as folder:
            if name == READING:
                from wordvec.corpus.reading import encode_corpus

                encode_corpus(sample, folder, min_count=1)
            elif name == "quantize":
                from wordvec.compression import compress

                compress(sample, Path(folder) / "small.wv")
            else:
                from wordvec.cooccur.phrases import find_phrases

                find_phrases(sample, Path(folder) / "phrased.txt", quiet=True)
        return
    from wordvec.options import OPTIONS
    from wordvec.training import train

    epochs = next(option for option in OPTIONS if option.name == "epochs")
    train(sample, model=name, quiet=True, **({"epochs": 1} if name in epochs.models else {}))


if __name__ == "__main__":
    _warm(*sys.argv[1:3])
