"""The index issue's acceptance figures: wordvec's index through gensim's indexer protocol
against exact search and against gensim's own ``AnnoyIndexer`` (annoy), on the same vectors,
then ``wordvec index`` and ``wordvec neighbors --index`` on a published-style ``.bin.gz``.

    .venv/bin/python tests/bench/bench_index.py [--n 1000000] [--dim 100] [--queries 1000]
        [--dir /tmp/annbench] [--cases face,gensim,cli]

The vectors, queries and exact top 10 are :mod:`bench_ann`'s (made there if missing: 24-dim
Gaussian codes times a random 24 x dim matrix plus 0.3 x noise, unit rows; the queries are
not in the index). Each case is a process of its own (``python THIS --child CASE``), one at
a time, so that one's memory and threads do not weigh on another; wall seconds measured
inside it with ``perf_counter``:

* ``face``: ``from wordvec.gensim import KeyedVectors``; ``AnnoyIndexer(kv, 100)`` (its build
  on every core: 2 here), then ``indexer.most_similar(q, 10)`` for every query, one at a
  time on one thread: recall@10 against the exact top 10, queries/s; again at other search
  efforts (``indexer.index.expansion_search``); and exact search, ``kv.most_similar(q,
  topn=10)`` for 50 queries with BLAS on one thread (threadpoolctl), queries/s.
* ``gensim``: the same lines with gensim's ``KeyedVectors`` and
  ``gensim.similarities.annoy.AnnoyIndexer(kv, 100)`` (annoy; its trees built on every core),
  then, for a curve at equal recall, annoy's ``get_nns_by_vector`` at other ``search_k``.
* ``cli``: the rows written as ``big.bin.gz`` (word2vec binary, gzipped), ``wordvec index
  big.bin.gz`` timed as a whole process, then ``wordvec neighbors big.bin.gz`` with and
  without ``--exact`` on 100 sampled words: top-1 agreement.

It prints one table and the CPU model.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_ann import make_vectors, paths, recall
from process import cpu_model

TREES = 100
EXACT_QUERIES = 50
EFS = (32, 64, 128, 256)
SEARCH_KS = (1, 3, 10, 30, 100)  # x k x trees (annoy's default search_k is trees x k)


def words(n: int) -> list[str]:
    return [f"w{i}" for i in range(n)]


def ids(found: list[tuple[str, float]]) -> list[int]:
    return [int(word[1:]) for word, _ in found] + [-1] * (10 - len(found))


def single_queries(answer, queries: np.ndarray) -> tuple[np.ndarray, float]:
    """Each query answered on its own: the found ids and queries per second."""
    started = time.perf_counter()
    found = np.array([ids(answer(q)) for q in queries])
    return found, len(queries) / (time.perf_counter() - started)


def case_search(kind: str, args: argparse.Namespace) -> dict:
    from threadpoolctl import threadpool_limits

    files = paths(Path(args.dir), args.n, args.dim, args.queries, 0)
    data = np.load(files["data"])
    queries, truth = np.load(files["queries"]), np.load(files["truth"])
    if kind == "face":
        from wordvec.gensim import KeyedVectors
        from wordvec.gensim.similarities.annoy import AnnoyIndexer
    else:
        from gensim.models import KeyedVectors
        from gensim.similarities.annoy import AnnoyIndexer
    kv = KeyedVectors(args.dim)
    kv.add_vectors(words(args.n), data)
    del data
    started = time.perf_counter()
    indexer = AnnoyIndexer(kv, TREES)
    result = {"build_s": time.perf_counter() - started, "curve": []}
    with threadpool_limits(1):
        kv.most_similar(positive=[queries[0]], topn=10)  # the norms, computed once, untimed
        _, result["exact_qps"] = single_queries(
            lambda q: kv.most_similar(positive=[q], topn=10), queries[:EXACT_QUERIES]
        )
        found, qps = single_queries(lambda q: indexer.most_similar(q, 10), queries)
        result["default"] = {"recall": recall(found, truth), "qps": qps}
        if kind == "face":
            for ef in EFS:
                indexer.index.expansion_search = ef
                found, qps = single_queries(lambda q: indexer.most_similar(q, 10), queries)
                result["curve"].append({"ef": ef, "recall": recall(found, truth), "qps": qps})
        else:
            for times in SEARCH_KS:
                search_k = times * 10 * TREES

                def answer(q, search_k=search_k):
                    rows = indexer.index.get_nns_by_vector(q, 10, search_k=search_k)
                    return [(f"w{r}", 0.0) for r in rows]

                found, qps = single_queries(answer, queries)
                result["curve"].append({"search_k": search_k, "recall": recall(found, truth),
                                        "qps": qps})  # fmt: skip
    return result


def case_cli(args: argparse.Namespace) -> dict:
    from wordvec.formats import save_vectors
    from wordvec.query.vectors import Vectors

    files = paths(Path(args.dir), args.n, args.dim, args.queries, 0)
    big = Path(args.dir) / f"big-{args.n}x{args.dim}.bin.gz"
    if not big.exists():
        save_vectors(Vectors(words(args.n), np.load(files["data"], mmap_mode="r")), big)
    wordvec = [sys.executable, "-m", "wordvec"]
    started = time.perf_counter()
    subprocess.run([*wordvec, "index", str(big), "-q"], check=True)
    result = {"index_s": time.perf_counter() - started}
    sample = [f"w{i}" for i in np.random.default_rng(1).choice(args.n, 100, replace=False)]
    firsts = {}
    for mode in ("--index", "--exact"):
        extra = ["--index", f"{big}.index"] if mode == "--index" else ["--exact"]
        started = time.perf_counter()
        out = subprocess.run([*wordvec, "neighbors", str(big), *sample, "-k", "1", *extra],
                             check=True, capture_output=True, text=True).stdout  # fmt: skip
        result[f"neighbors{mode}_s"] = time.perf_counter() - started
        firsts[mode] = [line.split()[1] for line in out.splitlines() if line.startswith("    1")]
    result["top1_agree"] = sum(a == b for a, b in zip(firsts["--index"], firsts["--exact"]))
    result["top1_of"] = len(firsts["--exact"])
    return result


def run_child(case: str, args: argparse.Namespace) -> dict:
    command = [sys.executable, __file__, "--child", case, "--n", str(args.n), "--dim",
               str(args.dim), "--queries", str(args.queries), "--dir", args.dir]  # fmt: skip
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return json.loads(out.splitlines()[-1])


def report(results: dict, args: argparse.Namespace) -> None:
    print(f"\n{args.n:,} x {args.dim} unit vectors, {args.queries} queries; CPU: {cpu_model()}, "
          f"{os.cpu_count()} threads")  # fmt: skip
    for kind, name in (("face", "wordvec.gensim AnnoyIndexer (faiss HNSW)"),
                       ("gensim", "gensim AnnoyIndexer (annoy, 100 trees)")):  # fmt: skip
        if kind not in results:
            continue
        r = results[kind]
        d = r["default"]
        print(f"\n{name}: build {r['build_s']:.1f} s; exact search {r['exact_qps']:.1f} q/s "
              f"(1 thread)\n  most_similar(q, 10): recall@10 {d['recall']:.4f}, "
              f"{d['qps']:,.0f} q/s, {d['qps'] / r['exact_qps']:.0f}x exact")  # fmt: skip
        for point in r["curve"]:
            setting = ", ".join(f"{k} {v}" for k, v in point.items() if k not in ("recall", "qps"))
            print(f"  {setting:>16}: recall@10 {point['recall']:.4f}, {point['qps']:,.0f} q/s, "
                  f"{point['qps'] / r['exact_qps']:.0f}x exact")  # fmt: skip
    if "cli" in results:
        c = results["cli"]
        print(f"\nwordvec index big.bin.gz: {c['index_s']:.1f} s (whole process, load included)"
              f"\nneighbors, 100 sampled words: through the index {c['neighbors--index_s']:.1f} s,"
              f" --exact {c['neighbors--exact_s']:.1f} s (whole processes); top-1 the same for "
              f"{c['top1_agree']} of {c['top1_of']}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--dim", type=int, default=100)
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--dir", default="/tmp/annbench")
    parser.add_argument("--cases", default="face,gensim,cli")
    parser.add_argument("--child")
    args = parser.parse_args()
    if args.child:
        result = case_cli(args) if args.child == "cli" else case_search(args.child, args)
        print(json.dumps(result))
        return
    Path(args.dir).mkdir(parents=True, exist_ok=True)
    files = paths(Path(args.dir), args.n, args.dim, args.queries, 0)
    if not files["truth"].exists():
        make_vectors(files, args.n, args.dim, args.queries, 0)
    results = {}
    for case in args.cases.split(","):
        results[case] = run_child(case, args)
        print(case, json.dumps(results[case]), flush=True)
    report(results, args)


if __name__ == "__main__":
    main()
