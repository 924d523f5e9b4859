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
model's; the defaults again with the k-means seeded 0-4, as a seed moves the scores. Opening
is a fresh process per run (``load_vectors`` and one ``most_similar``, and the whole ``wordvec
neighbors M city`` command), ``--repeats`` each, medians (min-max), measured by a process of
its own that has held nothing big (a child's peak RSS starts from its parent's).
``--part`` runs one part: ``sweep``, ``seeds`` or ``open``.
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


SEEDS = range(5)


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
        shown = ", ".join(f"{k} {v:,}" if type(v) is int else f"{k} {v}"
                          for k, v in options.items())  # fmt: skip
        if "size" in options:
            shown += f" (dsub {plan.dsub}, {plan.words:,} words, {plan.ngrams or 0:,} n-grams)"
        cells = [f"{scores[m]:.3f} ({scores[m] - full[m]:+.3f})" for m in measures]
        print(f"| {shown} | {report.small_bytes:,} | {report.ratio:.2%} | {' | '.join(cells)} "
              f"| {seconds:.1f} |", flush=True)  # fmt: skip


def seeds(model: Path, folder: Path) -> None:
    """The defaults' scores at each k-means seed: their spread."""
    from wordvec.compression import compress
    from wordvec.compression.quality import MEASURES, quality
    from wordvec.formats import load_vectors

    full = quality(load_vectors(model))
    changes = {m: [] for m in MEASURES if m in full}
    for seed in SEEDS:
        compress(model, folder / "seeded.wv", seed=seed)
        small = quality(load_vectors(folder / "seeded.wv"))
        for measure, found in changes.items():
            found.append(small[measure] - full[measure])
    print(f"\n{model.name}, the defaults at seeds {SEEDS.start}-{SEEDS.stop - 1}: change " +
          ", ".join(f"{m} {statistics.median(c):+.3f} ({min(c):+.3f} to {max(c):+.3f})"
                    for m, c in changes.items()), flush=True)  # fmt: skip


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
    parser.add_argument("--part", choices=("sweep", "seeds", "open"))
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    print(f"CPU: {cpu_model()}")
    fasttext = args.fasttext or trained(args.dir, "ft.wv", SHARED / "wiki2015-sample-5MB.txt",
                                        "--model", "fasttext", "--epochs", "5")  # fmt: skip
    skipgram = args.skipgram or trained(args.dir, "sg.wv", SHARED / "wiki2015-text8like.txt.gz",
                                        "--model", "sg")  # fmt: skip
    smalls = [args.dir / f"{model.stem}-default.wv" for model in (fasttext, skipgram)]
    if args.part in (None, "sweep"):
        sweep(fasttext, FASTTEXT_SETTINGS, args.dir)
        sweep(skipgram, SKIPGRAM_SETTINGS, args.dir)
    if args.part in (None, "seeds"):
        seeds(fasttext, args.dir)
        seeds(skipgram, args.dir)
    if args.part == "open":
        opening([fasttext, smalls[0], skipgram, smalls[1]], args.repeats)
    elif args.part is None:  # by a fresh process: this one's peak RSS is the sweep's
        from wordvec.compression import compress

        for model, small in zip((fasttext, skipgram), smalls):
            compress(model, small)
        subprocess.run([sys.executable, __file__, "--part", "open", "--fasttext", str(fasttext),
                        "--skipgram", str(skipgram), "--dir", str(args.dir), "--repeats",
                        str(args.repeats)], check=True)  # fmt: skip


if __name__ == "__main__":
    main()
