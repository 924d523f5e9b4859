"""Side-by-side benchmark: wordvec's fastText vs fastText (its CLI, or its Python package), same
corpus and settings.

    python tests/bench/bench_fasttext.py --corpus ../shared/corpora/wiki2015-text8like.txt.gz
    python tests/bench/bench_fasttext.py --max-tokens 1000000 --epochs 1 --threads 1  # a look
    python tests/bench/bench_fasttext.py --tools wordvec,fasttext-cli --fasttext path/to/fasttext

Skip-gram with subwords, fastText's settings for both: dim 100, window 5, 5 negatives drawn
from count**0.5, minn 3, maxn 6, 2M buckets, lr 0.05, sample 1e-4, min-count 5. Each training
runs in its own process so that its peak RSS is its own. fastText's words/s/thread is the one
it reports itself (training only); ours is vocabulary tokens x epochs / training seconds.
Quality: Google analogies (semantic and syntactic, 3CosAdd over the 30,000 most frequent
words) and WS-353, on each tool's vocabulary vectors. Tools: ``wordvec`` (its default, shared
negatives), ``wordvec-pairs`` (``--per-pair-negatives``: fastText's own update, and wordvec's
before window batching), ``fasttext`` (the ``fasttext`` package) and ``fasttext-cli`` (the
``fasttext`` program built from fastText's source, ``--fasttext PATH``: ``make`` builds it with
``-march=native``, which the package's wheel is not; its whole time includes writing its
``.bin`` and ``.vec``, which it always does, and wordvec's writing its model file, as
``wordvec train -o`` does). The ratios are against the CLI where it ran.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_word2vec import bench_arguments, prepare_corpus, publish, quality, run_worker

SETTINGS = dict(dim=100, window=5, negative=5, minn=3, maxn=6, bucket=2_000_000, min_count=5)
FASTTEXT_ARGS = dict(
    model="skipgram", dim=100, ws=5, neg=5, minn=3, maxn=6, bucket=2_000_000, minCount=5,
    lr=0.05, t=1e-4,
)  # fmt: skip
_SPEED = re.compile(r"words/sec/thread:\s*(\d+)")


def worker(tool: str, threads: int, epochs: int, corpus: str) -> dict:
    started = time.perf_counter()
    if tool.startswith("wordvec"):
        import wordvec

        trained = wordvec.train(
            corpus,
            model="fasttext",
            threads=threads,
            epochs=epochs,
            quiet=True,
            shared_negatives=tool != "wordvec-pairs",
            **SETTINGS,
        )
        with tempfile.TemporaryDirectory(prefix="wordvec-") as folder:
            trained.save(Path(folder) / "model.wv")  # as the CLI writes its model files
            total_seconds = time.perf_counter() - started
        speed = trained.report.words_per_second / threads
        train_seconds = trained.report.seconds
        words, matrix = trained.vocab.words, trained.vectors
    elif tool == "fasttext-cli":
        from wordvec.formats import load_vectors

        with tempfile.TemporaryDirectory(prefix="fasttext-") as folder:
            output = Path(folder) / "model"
            options = [item for key, value in FASTTEXT_ARGS.items() if key != "model"
                       for item in (f"-{key}", str(value))]  # fmt: skip
            command = [os.environ["FASTTEXT"], "skipgram", "-input", corpus, "-output",
                       str(output), "-epoch", str(epochs), "-thread", str(threads),
                       *options]  # fmt: skip
            done = subprocess.run(command, check=True, capture_output=True, text=True)
            train_seconds = time.perf_counter() - started  # reading, training and writing
            speed = float(_SPEED.findall(done.stdout + done.stderr)[-1])
            trained = load_vectors(output.with_suffix(".vec"))
            words, matrix = trained.words, trained.vectors
        total_seconds = train_seconds
    else:
        import fasttext
        import numpy as np

        t0 = time.perf_counter()
        model = fasttext.train_unsupervised(
            corpus, epoch=epochs, thread=threads, verbose=2, **FASTTEXT_ARGS
        )
        train_seconds = time.perf_counter() - t0  # includes building its dictionary
        speed = None  # read by the parent from fastText's own progress line
        words = model.get_words()
        matrix = np.array([model.get_word_vector(w) for w in words])
    if tool == "fasttext":  # the package's users hold the model in memory: nothing written
        total_seconds = time.perf_counter() - started  # what a user waits for, no evaluation
    who = resource.RUSAGE_CHILDREN if tool == "fasttext-cli" else resource.RUSAGE_SELF
    peak = resource.getrusage(who).ru_maxrss / 1024
    result = quality(words, matrix)
    result.update(
        tool=tool,
        threads=threads,
        epochs=epochs,
        train_seconds=train_seconds,
        total_seconds=total_seconds,
        words_per_second_per_thread=speed,
        peak_rss_mb=peak,  # after training, before evaluation
    )
    return result


def run_worker_and_read_speed(tool: str, threads: int, epochs: int, corpus: Path) -> dict:
    """One training in its own process; fastText's words/s/thread is read from its log."""
    result, log = run_worker(__file__, tool, threads, epochs, corpus)
    if tool == "fasttext":  # the package prints its progress to the worker's stderr
        result["words_per_second_per_thread"] = float(_SPEED.findall(log)[-1])
    return result


def table(results: list[dict]) -> str:
    rows = [
        "| threads | tool | words/s/thread | ratio | train s | total s | whole ratio "
        "| peak RSS MB | semantic | syntactic | analogy | WS-353 | sim | rel |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    reference = {r["threads"]: r for r in results if r["tool"] == "fasttext"}
    reference |= {r["threads"]: r for r in results if r["tool"] == "fasttext-cli"}
    for r in results:
        ref = reference.get(r["threads"])
        speed = r["words_per_second_per_thread"]
        ratio = f"{speed / ref['words_per_second_per_thread']:.2f}x" if ref else "-"
        whole = f"{ref['total_seconds'] / r['total_seconds']:.2f}x" if ref else "-"
        rows.append(
            f"| {r['threads']} | {r['tool']} | {speed:,.0f} | {ratio} | {r['train_seconds']:.0f} "
            f"| {r['total_seconds']:.0f} | {whole} | {r['peak_rss_mb']:,.0f} "
            f"| {100 * r['semantic']:.1f}% "
            f"| {100 * r['syntactic']:.1f}% | {100 * r['analogy']:.1f}% | {r['ws353']:.3f} "
            f"| {r['ws353_sim']:.3f} | {r['ws353_rel']:.3f} |"
        )
    return "\n".join(rows)


def main() -> None:
    parser = bench_arguments(__doc__, "fasttext", epochs=5)
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--tools", default="wordvec,wordvec-pairs,fasttext")
    parser.add_argument(
        "--fasttext", type=Path, help="fastText's program, for --tools fasttext-cli"
    )
    parser.add_argument("--worker", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if "fasttext-cli" in args.tools.split(",") and not args.worker:
        if args.fasttext is None:
            parser.error("--tools fasttext-cli needs --fasttext PATH")
        os.environ["FASTTEXT"] = str(args.fasttext.resolve())
    if args.worker:
        tool, threads, epochs, corpus = args.worker
        print(json.dumps(worker(tool, int(threads), int(epochs), corpus)))
        return

    results = []
    with tempfile.TemporaryDirectory(prefix="wordvec-bench-") as workdir:
        corpus = prepare_corpus(args.corpus, args.max_tokens, Path(workdir))
        for threads in args.threads.split(","):
            for tool in args.tools.split(","):
                r = run_worker_and_read_speed(tool, int(threads), args.epochs, corpus)
                results.append(r)
                print(
                    f"{tool:8} threads={threads}: {r['words_per_second_per_thread']:,.0f} "
                    f"words/s/thread, analogy {100 * r['analogy']:.1f}% (semantic "
                    f"{100 * r['semantic']:.1f}%, syntactic {100 * r['syntactic']:.1f}%), "
                    f"WS-353 {r['ws353']:.3f}, peak RSS {r['peak_rss_mb']:,.0f} MB",
                    flush=True,
                )
    settings = f"{args.epochs} epochs, skip-gram with subwords, fastText's settings"
    publish(args, settings, table(results), results)


if __name__ == "__main__":
    main()
