"""Side-by-side benchmark: wordvec's classifier against the fastText CLI on fastText's tutorial.

    python tests/bench/bench_supervised.py --fasttext path/to/fasttext --threads 1,2 --runs 3

The data is ``../shared/classification/cooking.stackexchange.txt``, split as the tutorial does
(train: the first 12,404 lines; valid: the last 3,000) and, but for the ``raw`` setting,
preprocessed as it does (punctuation split off, ASCII lowercased). The four settings are those
of ``../shared/SOURCES.md``. Each tool trains in a process of its own (whole process: what a
user waits for, start-up and the model file included; peak RSS from ``wait4``), then its own
``test`` scores the model on valid (P@1, R@1). Runs alternate between the tools; the table
gives each one's median and range. fastText is built from its source (``make`` in a checkout);
it links no BLAS.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import string
import sys
import tempfile
from pathlib import Path

from process import cpu_model, timed

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT.parent / "shared" / "classification" / "cooking.stackexchange.txt"
TRAIN_LINES, VALID_LINES = 12_404, 3_000
_TUTORIAL = {"epoch": 25, "lr": 1.0}
SETTINGS = {
    "raw, defaults": ("raw", {}),
    "epoch 25, lr 1.0": ("pre", _TUTORIAL),
    "+ wordNgrams 2": ("pre", {**_TUTORIAL, "wordNgrams": 2}),
    "+ bucket 200k, dim 50, hs": (
        "pre", {**_TUTORIAL, "wordNgrams": 2, "bucket": 200_000, "dim": 50, "loss": "hs"},
    ),
}  # fmt: skip
OURS = {"epoch": "--epochs", "lr": "--alpha", "wordNgrams": "--word-ngrams", "bucket": "--bucket",
        "dim": "--dim", "loss": "--loss"}  # fmt: skip
_PUNCTUATION = re.compile(r"([.!?,'/()])")
_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


def prepare(workdir: Path) -> dict[str, tuple[Path, Path]]:
    """The raw and preprocessed train and valid files."""
    lines = DATA.read_text(encoding="utf-8").splitlines(keepends=True)
    parts = {"train": lines[:TRAIN_LINES], "valid": lines[-VALID_LINES:]}
    files = {}
    for kind in ("raw", "pre"):
        paths = []
        for name, part in parts.items():
            path = workdir / f"cooking.{name}.{kind}"
            if kind == "pre":
                part = [_PUNCTUATION.sub(r" \1 ", line).translate(_LOWER) for line in part]
            path.write_text("".join(part), encoding="utf-8")
            paths.append(path)
        files[kind] = tuple(paths)
    return files


def scores(output: str) -> tuple[float, float]:
    found = dict(line.split("\t") for line in output.splitlines() if "\t" in line)
    return float(found["P@1"]), float(found["R@1"])


def run(tool: str, fasttext: str, train: Path, valid: Path, args: dict, threads: int, out: Path):
    if tool == "fasttext":
        command = [fasttext, "supervised", "-input", str(train), "-output", str(out),
                   "-thread", str(threads), "-verbose", "0"]  # fmt: skip
        for name, value in args.items():
            command += [f"-{name}", str(value)]
        seconds, rss, _ = timed(command)
        _, _, tested = timed([fasttext, "test", f"{out}.bin", str(valid)])
    else:
        command = [sys.executable, "-m", "wordvec", "train", str(train), "-o", f"{out}.wv",
                   "--model", "supervised", "--threads", str(threads), "--quiet"]  # fmt: skip
        for name, value in args.items():
            command += [OURS[name], str(value)]
        seconds, rss, _ = timed(command)
        _, _, tested = timed([sys.executable, "-m", "wordvec", "test", f"{out}.wv", str(valid)])
    return seconds, rss, *scores(tested)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fasttext", required=True, help="the fastText CLI binary")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--settings", default=",".join(str(i) for i in range(len(SETTINGS))))
    options = parser.parse_args()
    chosen = [list(SETTINGS)[int(i)] for i in options.settings.split(",")]
    print(f"CPU: {cpu_model()}; {os.cpu_count()} cores", flush=True)
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-supervised-") as workdir:
        files = prepare(Path(workdir))
        for setting in chosen:
            kind, args = SETTINGS[setting]
            for threads in (int(t) for t in options.threads.split(",")):
                results = {"wordvec": [], "fasttext": []}
                for _ in range(options.runs):
                    for tool in results:
                        out = Path(workdir) / f"{tool}-model"
                        results[tool].append(
                            run(tool, options.fasttext, *files[kind], args, threads, out)
                        )
                rows.append((setting, threads, results))
                _print_rows(rows[-1:])
    print()
    _print_rows(rows, header=True)


def _print_rows(rows, header: bool = False) -> None:
    if header:
        print("| setting | threads | tool | whole process s | ratio | peak RSS MB | P@1 | R@1 |")
        print("|---|---|---|---|---|---|---|---|")
    for setting, threads, results in rows:
        median = {tool: statistics.median(r[0] for r in runs) for tool, runs in results.items()}
        for tool, runs in results.items():
            seconds = [r[0] for r in runs]
            spread = f" ({min(seconds):.1f}-{max(seconds):.1f})" if len(runs) > 1 else ""
            ratio = median["fasttext"] / median[tool]
            p1 = statistics.median(r[2] for r in runs)
            r1 = statistics.median(r[3] for r in runs)
            rss = max(r[1] for r in runs)
            print(f"| {setting} | {threads} | {tool} | {median[tool]:.1f}{spread} | "
                  f"{ratio:.2f}x | {rss} | {p1:.3f} | {r1:.3f} |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
