"""A new user's first ``wordvec train`` of each model: in a fresh numba cache, and again warm.

    python tests/bench/bench_first_run.py                     # every model, 2 rounds
    python tests/bench/bench_first_run.py --models sg cbow --rounds 3

Each model trains a 200 KB text (the first 200,000 bytes of the bundled English sample; the
classifier: of the cooking questions) at its defaults, as a whole process: ``cold`` with
``NUMBA_CACHE_DIR`` pointed at an empty folder of its own (what a fresh install or an upgrade
meets: numba compiles every kernel the run uses), ``warm`` at once after it in the same cache.
Reported per model: the median and range of each over the rounds, and the peak RSS of the cold
run. The CPU is named: compiling is CPU-bound, and its seconds differ between machines.
"""

from __future__ import annotations

import argparse
import gzip
import os
import statistics
import sys
import tempfile
from pathlib import Path

from process import cpu_model, timed

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_BYTES = 200_000
MODELS = {
    "sg": [],
    "cbow": ["--model", "cbow"],
    "fasttext": ["--model", "fasttext"],
    "glove": ["--model", "glove"],
    "supervised": ["--model", "supervised"],
    "doc2vec": ["--model", "doc2vec"],
}


def sample(source: Path, target: Path) -> Path:
    """The first SAMPLE_BYTES of ``source`` (gzip), cut at a line's end (the English sample is
    one line: at a word's)."""
    with gzip.open(source, "rb") as stream:
        text = stream.read(SAMPLE_BYTES)
    end = text.rfind(b"\n") + 1 or text.rfind(b" ")
    target.write_bytes(text[:end] + b"\n")
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="+", default=list(MODELS), choices=list(MODELS))
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    wordvec = str(Path(sys.executable).with_name("wordvec"))
    with tempfile.TemporaryDirectory(prefix="wordvec-first-run-") as work:
        work = Path(work)
        text = sample(ROOT / "corpora" / "wiki-sample.txt.gz", work / "text.txt")
        labelled = sample(ROOT / "corpora" / "cooking.train.gz", work / "cooking.txt")
        print(f"CPU: {cpu_model()}, {os.cpu_count()} cores; a 200 KB text, each model's defaults")
        print(f"{'model':<11} {'cold s (range)':>20} {'warm s (range)':>18} {'cold peak MB':>13}")
        for name in args.models:
            corpus = labelled if name == "supervised" else text
            colds, warms, peaks = [], [], []
            for round_ in range(args.rounds):
                cache = work / f"cache-{name}-{round_}"
                cache.mkdir()
                os.environ["NUMBA_CACHE_DIR"] = str(cache)
                command = [wordvec, "train", str(corpus), "-o", str(work / "m.wv"), "-q",
                           *MODELS[name]]  # fmt: skip
                seconds, peak, _ = timed(command)
                colds.append(seconds)
                peaks.append(peak)
                warms.append(timed(command)[0])
            print(f"{name:<11} {_spread(colds):>20} {_spread(warms):>18} {max(peaks):>13}")


def _spread(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


if __name__ == "__main__":
    main()
