"""Count-based methods on the benchmark corpus: co-occurrence counting, GloVe and PPMI-SVD.

    python tests/bench/bench_glove.py --corpus ../shared/corpora/wiki2015-text8like.txt.gz
    python tests/bench/bench_glove.py --max-tokens 2000000 --epochs 2        # a quick look

Stanford GloVe cannot be run here; its figures below were measured on this machine class on
the same corpus (issue #4) and are printed beside ours. Settings are GloVe's demo's: window
10 symmetric with 1/d weights, min-count 5, dim 100, x_max 100, alpha 0.75, eta 0.05, 15
epochs. Each step runs in its own process so that its peak RSS is its own: counting with
``--memory 4`` (no spill), counting with the default ``--memory 0.5`` (spilling), one GloVe
epoch on 1 thread (updates/s per thread), GloVe on 2 threads, and PPMI-SVD. Counting is timed
after a warm-up count of a few words, so numba's compilation (once per install) is not in it.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_word2vec import bench_arguments, prepare_corpus, publish, quality, run_worker

GLOVE_REFERENCE = {
    "vocab_count_s": 2.3,
    "cooccur_s": 31.6,
    "nonzeros": 45.9e6,
    "cooccur_peak_rss_mb": 1490,
    "updates_per_s_1_thread": 0.34e6,
    "updates_per_s_2_threads": 0.62e6,
}
COUNTING = dict(window=10, min_count=5)
STEPS = "count-in-memory,count,glove-speed,glove,ppmi-svd"
GLOVE = dict(dim=100, x_max=100.0, alpha=0.75, eta=0.05)


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def worker(step: str, corpus: str, counts: str, epochs: int) -> dict:
    import wordvec
    from wordvec.cooccur.counting import count_cooccurrences

    if step.startswith("count"):
        warm_up = Path(counts).with_name("warm-up.txt")  # compile (or load) the kernels first
        warm_up.write_text("a b c a b c a\n" * 10)
        count_cooccurrences(
            warm_up, Path(counts).with_name("warm-up.cooc"), min_count=1, quiet=True
        )
    started = time.perf_counter()
    if step.startswith("count"):
        memory = 4.0 if step == "count-in-memory" else 0.5  # 0.5: the default, it spills
        result = count_cooccurrences(corpus, counts, memory=memory, quiet=True, **COUNTING)
        return {"seconds": time.perf_counter() - started, "nonzeros": result.nnz,
                "peak_rss_mb": peak_rss_mb()}  # fmt: skip
    if step.startswith("glove"):
        threads = 1 if step == "glove-speed" else 2
        model = wordvec.train(
            None, model="glove", cooccur=counts, epochs=1 if threads == 1 else epochs,
            threads=threads, quiet=True, **GLOVE,
        )  # fmt: skip
        report = model.report
        result = {"updates_per_s_per_thread": report.words_per_second / threads,
                  "seconds": report.seconds, "cost": report.epoch_loss[-1]}  # fmt: skip
    else:
        model = wordvec.train(None, model="ppmi-svd", cooccur=counts, dim=100, quiet=True)
        result = {"seconds": model.report.seconds}
    result["peak_rss_mb"] = peak_rss_mb()
    result.update(quality(model.vocab.words, model.vectors))
    return result


def report(results: dict, epochs: int) -> str:
    ref = GLOVE_REFERENCE
    memory, spill = results["count-in-memory"], results["count"]
    glove, speed, svd = results["glove"], results["glove-speed"], results["ppmi-svd"]
    lines = [
        "| step | wordvec | Stanford GloVe (reference) | ratio |",
        "|---|---|---|---|",
        f"| counting, window 10, default --memory 0.5 (s, incl. vocabulary) "
        f"| {spill['seconds']:.1f} | {ref['vocab_count_s'] + ref['cooccur_s']:.1f} "
        f"| {(ref['vocab_count_s'] + ref['cooccur_s']) / spill['seconds']:.2f}x |",
        f"| counting peak RSS (MB) | {spill['peak_rss_mb']:,.0f} "
        f"| {ref['cooccur_peak_rss_mb']:,} | |",
        f"| counting with --memory 4, no spill (s / peak MB) | {memory['seconds']:.1f} / "
        f"{memory['peak_rss_mb']:,.0f} | | spilling takes "
        f"{spill['seconds'] / memory['seconds']:.2f}x |",
        f"| nonzero pairs | {memory['nonzeros']:,} | {ref['nonzeros']:,.0f} | |",
        f"| GloVe updates/s, 1 thread | {speed['updates_per_s_per_thread']:,.0f} "
        f"| {ref['updates_per_s_1_thread']:,.0f} "
        f"| {speed['updates_per_s_per_thread'] / ref['updates_per_s_1_thread']:.2f}x |",
        f"| GloVe updates/s per thread, 2 threads | {glove['updates_per_s_per_thread']:,.0f} "
        f"| {ref['updates_per_s_2_threads'] / 2:,.0f} "
        f"| {2 * glove['updates_per_s_per_thread'] / ref['updates_per_s_2_threads']:.2f}x |",
        f"| GloVe {epochs} epochs, 2 threads (s / peak MB) | {glove['seconds']:.0f} / "
        f"{glove['peak_rss_mb']:,.0f} | | |",
        "",
        "| model | analogy | semantic | syntactic | WS-353 | seconds |",
        "|---|---|---|---|---|---|",
    ]
    for name, r in (("GloVe", glove), ("PPMI-SVD", svd)):
        lines.append(
            f"| {name} | {100 * r['analogy']:.1f}% | {100 * r['semantic']:.1f}% "
            f"| {100 * r['syntactic']:.1f}% | {r['ws353']:.3f} | {r['seconds']:.0f} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = bench_arguments(__doc__, "glove", epochs=15)
    parser.add_argument(
        "--steps", default=STEPS, help=f"a subset of {STEPS} (counting needs no training)"
    )
    parser.add_argument("--worker", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        step, corpus, counts, epochs = args.worker
        print(json.dumps(worker(step, corpus, counts, int(epochs))))
        return

    results = {}
    with tempfile.TemporaryDirectory(prefix="wordvec-bench-") as workdir:
        corpus = prepare_corpus(args.corpus, args.max_tokens, Path(workdir))
        counts = Path(workdir) / "counts.cooc"
        for step in args.steps.split(","):
            results[step], _ = run_worker(__file__, step, corpus, counts, args.epochs)
            print(step, json.dumps(results[step]), flush=True)
    if args.steps != STEPS:
        return  # a partial run prints its steps; the table needs them all
    settings = f"GloVe's demo settings, {args.epochs} epochs"
    publish(args, settings, report(results, args.epochs), results)


if __name__ == "__main__":
    main()
