"""Count-based methods on the benchmark corpus: co-occurrence counting, GloVe and PPMI-SVD.

    python tests/bench/bench_glove.py --corpus ../shared/corpora/wiki2015-text8like.txt.gz
    python tests/bench/bench_glove.py --max-tokens 2000000 --epochs 2        # a quick look
    python tests/bench/bench_glove.py --max-tokens 2000000 --stanford ~/GloVe/build \
        --x-max 100,10                                     # side by side with Stanford's

Settings are GloVe's demo's: window 10 symmetric with 1/d weights, min-count 5, dim 100,
x_max 100, alpha 0.75, eta 0.05, 15 epochs. Each step runs in its own process so that its peak
RSS is its own: counting with ``--memory 4`` (no spill), counting with the default
``--memory 0.5`` (spilling), one GloVe epoch on 1 thread (updates/s per thread), GloVe on 2
threads, and PPMI-SVD. Counting is timed after a warm-up count of a few words, so numba's
compilation (once per install) is not in it. Without ``--stanford`` Stanford's figures are
the ones of issue #4 (measured on another machine), printed beside ours.

With ``--stanford BUILD`` (the ``build`` folder of https://github.com/stanfordnlp/GloVe after
``make``) it instead runs both whole pipelines side by side at each ``--x-max``, seed and the
same settings on ``--threads``: Stanford's ``vocab_count``, ``cooccur -memory 4``,
``shuffle -memory 4`` and ``glove -model 2`` (W + W~, its default), and ``wordvec train
--model glove`` as one process. Reported for each: wall and CPU seconds (user + system, which
a shared machine disturbs less), peak RSS (the largest of Stanford's four processes), and the
scores of ``bench_word2vec.quality`` (analogies, WS-353 and its halves).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_word2vec import ROOT, bench_arguments, prepare_corpus, publish, quality, run_worker
from process import cpu_model

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


class Run:
    """Processes run one after another and timed together: wall and CPU seconds, and the
    largest peak RSS among them (from ``wait4``)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.cpu_seconds = 0.0
        self.peak_rss_mb = 0.0

    def __call__(self, command: list, stdin: Path | None = None, stdout: Path | None = None,
                 cwd: Path | None = None) -> None:  # fmt: skip
        """Run ``command`` (reading ``stdin``, writing ``stdout`` if given) and add it up."""
        with open(stdin or os.devnull, "rb") as source, open(stdout or os.devnull, "wb") as sink:
            started = time.perf_counter()
            process = subprocess.Popen(
                [str(part) for part in command], stdin=source, stdout=sink,
                stderr=subprocess.PIPE, cwd=cwd,
            )  # fmt: skip
            errors = process.stderr.read().decode(errors="replace")
            _, status, usage = os.wait4(process.pid, 0)
            self.seconds += time.perf_counter() - started
        if status != 0:
            raise RuntimeError(f"{command[0]} failed ({status}): {errors[-2000:]}")
        self.cpu_seconds += usage.ru_utime + usage.ru_stime
        self.peak_rss_mb = max(self.peak_rss_mb, usage.ru_maxrss / 1024)

    def result(self, scores: dict, **settings) -> dict:
        """The timings with the run's scores and settings."""
        return {**settings, "seconds": self.seconds, "cpu_seconds": self.cpu_seconds,
                "peak_rss_mb": self.peak_rss_mb, **scores}  # fmt: skip


def stanford_pipeline(build: Path, corpus: Path, workdir: Path, x_max: float, threads: int,
                      seed: int, epochs: int) -> dict:  # fmt: skip
    """Stanford GloVe's four programs on ``corpus`` (in ``workdir``, where cooccur and
    shuffle write their temporary files); their timings and the scores of W + W~."""
    from wordvec.formats import load_vectors

    run = Run()
    vocab, counts, shuffled = workdir / "vocab.txt", workdir / "cooc.bin", workdir / "shuf.bin"
    run([build / "vocab_count", "-min-count", COUNTING["min_count"], "-verbose", 0],
        corpus, vocab)  # fmt: skip
    run([build / "cooccur", "-memory", 4.0, "-vocab-file", vocab, "-verbose", 0,
         "-window-size", COUNTING["window"], "-symmetric", 1], corpus, counts, workdir)  # fmt: skip
    run([build / "shuffle", "-memory", 4.0, "-verbose", 0, "-seed", seed], counts, shuffled,
        workdir)  # fmt: skip
    run([build / "glove", "-save-file", workdir / "vectors", "-threads", threads,
         "-input-file", shuffled, "-x-max", x_max, "-alpha", GLOVE["alpha"],
         "-eta", GLOVE["eta"], "-iter", epochs, "-vector-size", GLOVE["dim"], "-binary", 0,
         "-model", 2, "-vocab-file", vocab, "-verbose", 0, "-seed", seed])  # fmt: skip
    trained = load_vectors(workdir / "vectors.txt")
    keep = [k for k, word in enumerate(trained.words) if word != "<unk>"]  # glove's extra row
    scores = quality([trained.words[k] for k in keep], trained.vectors[keep])
    return run.result(scores, tool="Stanford", x_max=x_max, seed=seed)


def wordvec_pipeline(corpus: Path, workdir: Path, x_max: float, threads: int, seed: int,
                     epochs: int) -> dict:  # fmt: skip
    """``wordvec train --model glove`` on ``corpus`` as one process: counting and training."""
    from wordvec.formats import load_vectors

    run, model = Run(), workdir / "glove.wv"
    run([sys.executable, "-m", "wordvec", "train", corpus, "-o", model, "--model", "glove",
         "--window", COUNTING["window"], "--min-count", COUNTING["min_count"],
         "--dim", GLOVE["dim"], "--x-max", x_max, "--alpha", GLOVE["alpha"],
         "--eta", GLOVE["eta"], "--epochs", epochs, "--threads", threads, "--seed", seed,
         "--quiet"], cwd=ROOT)  # fmt: skip
    trained = load_vectors(model)
    scores = quality(trained.words, trained.vectors)
    return run.result(scores, tool="wordvec", x_max=x_max, seed=seed)


def side_by_side(results: list[dict], threads: int) -> str:
    """One row per pipeline run, each wordvec row with its speed ratios to Stanford's run of
    the same x_max and seed."""
    lines = [
        f"| x_max | seed | pipeline ({threads} threads) | wall s | CPU s | vs Stanford (wall / "
        "CPU) | peak RSS MB | analogy | semantic | syntactic | WS-353 | sim | rel |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        peer = next((s for s in results if s["tool"] == "Stanford"
                     and (s["x_max"], s["seed"]) == (r["x_max"], r["seed"])), None)  # fmt: skip
        ratio = "" if r["tool"] == "Stanford" or peer is None else (
            f"**{peer['seconds'] / r['seconds']:.1f}x** / "
            f"{peer['cpu_seconds'] / r['cpu_seconds']:.1f}x"
        )  # fmt: skip
        lines.append(
            f"| {r['x_max']:g} | {r['seed']} | {r['tool']} | {r['seconds']:.1f} "
            f"| {r['cpu_seconds']:.1f} | {ratio} | {r['peak_rss_mb']:,.0f} "
            f"| {100 * r['analogy']:.1f}% | {100 * r['semantic']:.1f}% "
            f"| {100 * r['syntactic']:.1f}% | {r['ws353']:.3f} | {r['ws353_sim']:.3f} "
            f"| {r['ws353_rel']:.3f} |"
        )
    return "\n".join(lines)


def compare_with_stanford(args: argparse.Namespace) -> None:
    """Both whole pipelines at each x_max and seed, one run at a time; publish the table."""
    build = args.stanford.resolve()
    results = []
    with tempfile.TemporaryDirectory(prefix="wordvec-bench-") as workdir:
        corpus = prepare_corpus(args.corpus, args.max_tokens, Path(workdir))
        for x_max in map(float, args.x_max.split(",")):
            for seed in map(int, args.seeds.split(",")):
                for pipeline in (stanford_pipeline, wordvec_pipeline):
                    rundir = Path(tempfile.mkdtemp(dir=workdir))
                    if pipeline is stanford_pipeline:
                        result = pipeline(build, corpus, rundir, x_max, args.threads, seed,
                                          args.epochs)  # fmt: skip
                    else:
                        result = pipeline(corpus, rundir, x_max, args.threads, seed, args.epochs)
                    results.append(result)
                    print(json.dumps(result), flush=True)
    settings = (f"GloVe's demo settings, {args.epochs} epochs, {args.threads} threads; "
                f"CPU: {cpu_model()}")  # fmt: skip
    publish(args, settings, side_by_side(results, args.threads), results)


def main() -> None:
    parser = bench_arguments(__doc__, "glove", epochs=15)
    parser.add_argument(
        "--steps", default=STEPS, help=f"a subset of {STEPS} (counting needs no training)"
    )
    parser.add_argument(
        "--stanford", type=Path, help="Stanford GloVe's build folder: run both pipelines"
    )
    parser.add_argument("--x-max", default="100", help="with --stanford: x_max values to run")
    parser.add_argument("--seeds", default="1", help="with --stanford: seeds to run")
    parser.add_argument("--threads", type=int, default=2, help="with --stanford: threads")
    parser.add_argument("--worker", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        step, corpus, counts, epochs = args.worker
        print(json.dumps(worker(step, corpus, counts, int(epochs))))
        return
    if args.stanford:
        compare_with_stanford(args)
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
