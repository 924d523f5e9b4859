"""Compressed word models (``wordvec quantize MODEL -o SMALL.wv``): size against quality, and
opening the small model against the full one, the compression issue's figures.

    .venv/bin/python tests/bench/bench_compress.py [--fasttext FT.wv] [--skipgram SG.wv]
        [--dir /tmp/compressbench] [--repeats 3]

The models, unless named: fastText (``--model fasttext``, dim 100, 2,000,000 buckets, 5
epochs, ``--seed 1``) on the shared 5 MB English sample, and skip-gram (``--model sg``, the
defaults, ``--seed 1``) on the full shared corpus (``wiki2015-text8like.txt.gz``, 16.9M
tokens), trained once into ``--dir``. Each row of a table is one ``wordvec.compress`` of the
model (k-means seeded 0) and the small model's quality (:mod:`wordvec.compression.quality`:
WS-353 Spearman, subwords for unseen words; 3CosAdd on the bundled Google analogies among the
30,000 most frequent words; a fastText model's WS-353 from n-grams only) beside the full
model's. Opening is a fresh process per run (``load_vectors`` and one ``most_similar``, and
the whole ``wordvec neighbors M city`` command), ``--repeats`` each, medians (min-max).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from process import cpu_model, timed

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "corpora"
FASTTEXT_SETTINGS = [
    dict(dsub=1), dict(dsub=2), dict(dsub=2, qnorm=False), dict(dsub=3), dict(dsub=4),
    dict(dsub=5), dict(dsub=10), dict(dsub=2, ngram_cutoff=40_000),
    dict(dsub=2, ngram_cutoff=20_000), dict(dsub=2, ngram_cutoff=10_000),
    dict(dsub=2, cutoff=5_000, ngram_cutoff=20_000), dict(size=2_000_000),
    dict(size=1_000_000),
]  # fmt: skip
SKIPGRAM_SETTINGS = [
    dict(dsub=1), dict(dsub=2), dict(dsub=2, qnorm=False), dict(dsub=4), dict(dsub=5),
    dict(dsub=10), dict(dsub=2, cutoff=30_000), dict(dsub=1, cutoff=30_000),
]  # fmt: skip
OPEN = "from wordvec.formats import load_vectors; v = load_vectors({!r}); v.most_similar(['city'])"


def trained(folder: Path, name: str, corpus: Path, *args: str) -> Path:
    path = folder / name
    if not path.exists():
        subprocess.run([sys.executable, "-m", "wordvec", "train", str(corpus), "-o", str(path),
                        "--seed", "1", "-q", *args], check=True)  # fmt: skip
    return path


def sweep(model: Path, settings: list[dict], folder: Path) -> None:
    from wordvec.compression import compress
    from wordvec.compression.quality import MEASURES, quality
    from wordvec.formats import load_vectors

    full = quality(load_vectors(model))
    measures = [m for m in MEASURES if m in full]
    print(f"\n{model.name}: {model.stat().st_size:,} bytes; full model " +
          ", ".join(f"{m} {full[m]:.3f}" for m in measures))  # fmt: skip
    print(f"| settings | bytes | of the file | {' | '.join(measures)} | compress s |")
    print("|---|---:|---:|" + "---:|" * len(measures) + "---:|")
    for options in settings:
        small = folder / f"{model.stem}-small.wv"
        started = time.perf_counter()
        report = compress(model, small, **options)
        seconds = time.perf_counter() - started
        scores = quality(load_vectors(small))
        plan = report.plan
        shown = ", ".join(f"{k} {v:,}" if isinstance(v, int) else f"{k} {v}"
                          for k, v in options.items())  # fmt: skip
        if "size" in options:
            shown += f" (dsub {plan.dsub}, {plan.words:,} words, {plan.ngrams or 0:,} n-grams)"
        cells = [f"{scores[m]:.3f} ({scores[m] - full[m]:+.3f})" for m in measures]
        print(f"| {shown} | {report.small_bytes:,} | {report.ratio:.2%} | {' | '.join(cells)} "
              f"| {seconds:.1f} |", flush=True)  # fmt: skip


def opening(models: list[Path], repeats: int) -> None:
    print("\n| model | bytes | load + first query s | peak RSS MB | `wordvec neighbors` s |")
    print("|---|---:|---:|---:|---:|")
    for model in models:
        runs = [timed([sys.executable, "-c", OPEN.format(str(model))]) for _ in range(repeats)]
        command = [sys.executable, "-m", "wordvec", "neighbors", str(model), "city"]
        whole = [timed(command)[0] for _ in range(repeats)]
        print(
            f"| {model.name} | {model.stat().st_size:,} | {_spread([r[0] for r in runs])} | "
            f"{_spread([r[1] for r in runs], '.0f')} | {_spread(whole)} |",
            flush=True,
        )


def _spread(values: list[float], spec: str = ".2f") -> str:
    return f"{statistics.median(values):{spec}} ({min(values):{spec}}-{max(values):{spec}})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fasttext", type=Path)
    parser.add_argument("--skipgram", type=Path)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/compressbench"))
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    print(f"CPU: {cpu_model()}")
    fasttext = args.fasttext or trained(args.dir, "ft.wv", SHARED / "wiki2015-sample-5MB.txt",
                                        "--model", "fasttext", "--epochs", "5")  # fmt: skip
    skipgram = args.skipgram or trained(args.dir, "sg.wv", SHARED / "wiki2015-text8like.txt.gz",
                                        "--model", "sg")  # fmt: skip
    sweep(fasttext, FASTTEXT_SETTINGS, args.dir)
    sweep(skipgram, SKIPGRAM_SETTINGS, args.dir)
    from wordvec.compression import compress

    smalls = []
    for model in (fasttext, skipgram):
        smalls.append(args.dir / f"{model.stem}-default.wv")
        compress(model, smalls[-1])
    opening([fasttext, smalls[0], skipgram, smalls[1]], args.repeats)


if __name__ == "__main__":
    main()
