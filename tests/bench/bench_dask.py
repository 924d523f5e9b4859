"""Co-occurrence counting on a Dask cluster against a local run (issue: counting past one machine).

Cuts the shared Wikipedia corpus into ``--shards`` files (lines of 1,000 words, dealt out in
turn), then counts them, each in a process of its own: locally with ``--local-threads``
threads, and on a ``distributed.LocalCluster`` of ``--workers`` worker processes of
``--worker-threads`` threads each (its start-up timed apart: a real cluster is already up).
Reports wall time, peak memory of every process, and checks the two counts files are the same.

Example::

    python tests/bench/bench_dask.py --shards 8 --workers 2 --local-threads 2
    python tests/bench/bench_dask.py --shards 16 --workers 8 --local-threads 8  # 16 cores
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import subprocess
import sys
from pathlib import Path

from process import byte_compile_wordvec

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "corpora" / "wiki2015-text8like.txt.gz"
LINE_WORDS = 1000

LOCAL = """
import json, resource, sys, time
from wordvec.cooccur.counting import count_cooccurrences
shards, output, threads, window = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
started = time.perf_counter()
counts = count_cooccurrences([shards], output, quiet=True, threads=threads, window=window)
print(json.dumps({"seconds": time.perf_counter() - started, "nnz": counts.nnz,
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

CLUSTER = """
import json, resource, sys, time
from distributed import Client, LocalCluster
from wordvec.cooccur.cluster import count_on_cluster

def peak_rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

if __name__ == "__main__":
    shards, output, window = sys.argv[1], sys.argv[2], int(sys.argv[5])
    workers, threads = int(sys.argv[3]), int(sys.argv[4])
    started = time.perf_counter()
    with LocalCluster(n_workers=workers, threads_per_worker=threads, processes=True,
                      dashboard_address=None, memory_limit=0) as cluster:
        up = time.perf_counter()
        counts = count_on_cluster([shards], output, cluster.scheduler_address, quiet=True,
                                  window=window)
        seconds = time.perf_counter() - up
        with Client(cluster.scheduler_address) as client:
            worker_rss = sorted(client.run(peak_rss_mb).values())
    print(json.dumps({"seconds": seconds, "startup_seconds": up - started, "nnz": counts.nnz,
                      "peak_rss_mb": peak_rss_mb(), "worker_peak_rss_mb": worker_rss}))
"""


def make_shards(folder: Path, source: Path, shards: int) -> int:
    """Deal the source's words out to ``shards`` files in lines of LINE_WORDS; return tokens."""
    folder.mkdir(parents=True, exist_ok=True)
    tokens = line = 0
    carry: list[str] = []
    with contextlib.ExitStack() as files, gzip.open(source, "rt", encoding="utf-8") as text:
        outs = [
            files.enter_context(open(folder / f"part-{i:02d}.txt", "w", encoding="utf-8"))
            for i in range(shards)
        ]
        while block := text.read(1 << 22):
            words = carry + block.split()
            carry = [words.pop()] if words and not block[-1].isspace() else []
            for i in range(0, len(words) - len(words) % LINE_WORDS, LINE_WORDS):
                outs[line % shards].write(" ".join(words[i : i + LINE_WORDS]) + "\n")
                line += 1
                tokens += LINE_WORDS
            rest = len(words) % LINE_WORDS
            carry = (words[len(words) - rest :] if rest else []) + carry
        if carry:
            outs[line % shards].write(" ".join(carry) + "\n")
            tokens += len(carry)
    return tokens


def run(code: str, *args) -> dict:
    byte_compile_wordvec()
    done = subprocess.run(
        [sys.executable, "-c", code, *map(str, args)], capture_output=True, text=True, cwd=ROOT
    )
    if done.returncode != 0:
        raise SystemExit(done.stderr[-3000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, default=SHARED)
    parser.add_argument("--shards", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--worker-threads", type=int, default=1)
    parser.add_argument("--local-threads", type=int, default=2)
    parser.add_argument("--window", type=int, default=10)
    parser.add_argument("--workdir", type=Path, default=Path("bench-results/dask-work"))
    parser.add_argument("--out", type=Path, default=Path("bench-results/dask"))
    args = parser.parse_args()

    folder = args.workdir / f"shards-{args.shards}"
    tokens = make_shards(folder, args.source, args.shards)
    local = run(LOCAL, folder, args.workdir / "local.cooc", args.local_threads, args.window)
    cluster = run(
        CLUSTER, folder, args.workdir / "cluster.cooc", args.workers, args.worker_threads,
        args.window,
    )  # fmt: skip

    sys.path.insert(0, str(ROOT))
    import numpy as np

    from wordvec.cooccur.counts import Cooccurrences

    a = Cooccurrences.load(args.workdir / "local.cooc")
    b = Cooccurrences.load(args.workdir / "cluster.cooc")
    identical = a.vocab.words == b.vocab.words and all(
        np.array_equal(getattr(a, name), getattr(b, name)) for name in ("row_ptr", "cols", "values")
    )
    report = {
        "tokens": tokens, "shards": args.shards, "window": args.window,
        "local": {"threads": args.local_threads, **local},
        "cluster": {"workers": args.workers, "threads_per_worker": args.worker_threads, **cluster},
        "cluster_over_local": cluster["seconds"] / local["seconds"],
        "identical": identical,
    }  # fmt: skip
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.json").write_text(json.dumps(report, indent=2))
    print(f"{tokens:,} tokens in {args.shards} shards, window {args.window}")
    print(
        f"local   {args.local_threads} threads: {local['seconds']:7.1f} s, "
        f"peak {local['peak_rss_mb']:,.0f} MB"
    )
    print(
        f"cluster {args.workers} x {args.worker_threads}: {cluster['seconds']:7.1f} s "
        f"(+{cluster['startup_seconds']:.1f} s start-up), client peak "
        f"{cluster['peak_rss_mb']:,.0f} MB, workers' peaks "
        + ", ".join(f"{mb:,.0f}" for mb in cluster["worker_peak_rss_mb"])
        + " MB"
    )
    print(f"cluster / local: {report['cluster_over_local']:.2f}x; identical files: {identical}")


if __name__ == "__main__":
    main()
