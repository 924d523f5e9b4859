"""Approximate nearest neighbours (the issue of an optional ``wordvec[index]``): usearch,
hnswlib, faiss, annoy and pynndescent measured on the same vectors, against exact search.

    .venv/bin/python tests/bench/bench_ann.py [--n 1000000] [--dim 100] [--queries 1000]
        [--libs usearch,hnswlib,faiss,annoy,pynndescent] [--dir /tmp/annbench] [--threads 2]
        [--annoy-trees 100] [--timeout 3600] [--seed 0] [--no-robustness]

The vectors (made once in ``--dir`` by a process of its own, then reused), with
``numpy.random.default_rng(seed)``: a 24 x dim standard Gaussian matrix ``W``; then the
``--queries`` query rows; then the ``--n`` indexed rows, 100,000 at a time. A row is a
24-dimensional standard Gaussian code times ``W`` plus 0.3 x a dim-dimensional standard
Gaussian noise (codes drawn before the noise), normalised to length 1, float32: word-vector-like
(a low-dimensional structure, not uniform on the sphere). The queries are not in the index.
Ground truth: the exact cosine (inner product: the rows are unit) top 10 of every query, by
``queries @ block.T`` over blocks of rows and ``np.argpartition``.

Cases (``--libs`` takes libraries, each meaning its main cases, or cases by name):
``usearch`` = ``usearch-f32`` (``Index(metric='cos', dtype='f32', connectivity=16,
expansion_add=128)``), ``usearch-default`` (``Index(ndim, metric='cos')``: connectivity,
expansion_add and the storage type usearch picks for this CPU), ``usearch-f16``,
``usearch-i8`` (quantised storage); ``hnswlib`` (space 'cosine', M 16, ef_construction 128);
``faiss`` (``IndexHNSWFlat(dim, 16, METRIC_INNER_PRODUCT)``, efConstruction 128); ``annoy``
(metric 'angular', ``--annoy-trees`` trees, gensim's ``AnnoyIndexer(kv, 100)``);
``pynndescent`` (metric 'cosine', the default n_neighbors=30, then ``prepare()``).

Each case runs in two processes of its own (a crash, an overrun of ``--timeout`` or the memory
of one case does not touch the others; it is recorded and the benchmark goes on):

* build: the rows loaded into memory, then the peak RSS reset (``/proc/self/clear_refs``);
  build seconds (everything that makes the index searchable, on ``--threads`` threads where
  the library has threads: annoy adds items one at a time from Python, then builds its trees
  on threads; pynndescent is timed after a 10,000-row warm-up build, so that numba's
  compilation is not in it); save seconds and the file's size; the peak RSS growth over the
  build (VmHWM after minus VmRSS before: the index's own memory, the rows' copy included).
* search: the saved index opened as a product would, memory-mapped where the library can
  (usearch ``Index.restore(path, view=True)``; faiss ``read_index(path, IO_FLAG_MMAP_IFC)``,
  as ``IO_FLAG_MMAP`` reads an HNSW index into memory all the same; annoy ``load``; hnswlib
  reads the file into memory, pynndescent is unpickled): the module's import seconds, then
  open seconds and RSS growth (the file was just written: it is read from the page cache).
  One untimed pass of the queries at the first setting, then for each search-effort setting
  (HNSW ef: 16 to 512; annoy search_k: 1, 3, 10, 30, 100 x k x trees; pynndescent epsilon: 0
  to 0.5): recall@10 of the answers against the exact top 10 over all queries; single-query
  throughput, one query per call from a Python loop on one thread (usearch ``threads=1``,
  hnswlib ``num_threads=1``, ``faiss.omp_set_num_threads(1)``, ``numba.set_num_threads(1)``;
  annoy's queries are single threaded); and batch throughput, all queries in one call on
  ``--threads`` threads, where the library has a batch call (annoy has none; pynndescent's
  batch runs on a copy of the index with ``parallel_batch_queries=True``).

Exact search, in a process of its own with the rows in memory: 50 queries one at a time
(``data @ q``, ``argpartition``, the 10 sorted) with BLAS limited to one thread by
threadpoolctl, queries/s; and the ground truth's blocked batch over all queries on
``--threads`` threads. The ``x exact`` column is a case's single-query throughput over exact
search's.

pynndescent's numba compilation is timed apart: a process with an empty ``NUMBA_CACHE_DIR``
builds, prepares and queries a 10,000-row index twice (the first time compiles), then a second
process with the cache it filled does the same (the first time loads the cache). Every
pynndescent process uses a cache under ``--dir``, never the one in site-packages.

Robustness (``--no-robustness`` skips it): 20,000-row indexes of usearch (f32), hnswlib, faiss
and annoy (10 trees) are saved, then copies damaged: truncated to half; the first 8 bytes
inverted (XOR 0xFF); the vector count inverted (usearch: the dense head's ``count_present``
and the graph's size after it, the one a load reads; hnswlib: ``cur_element_count``; faiss:
``ntotal``; annoy's files have no header); and 4 KiB inverted inside the graph (usearch: 3/4
into the graph after the vectors; hnswlib: from the middle element's link list on; faiss: 10%
into the file, the neighbour lists; annoy: 90% into the file, the tree nodes). Each copy, and
the intact file, is opened (usearch both loaded and viewed, faiss with and without
``IO_FLAG_MMAP_IFC``) and searched for 100 queries in a process of its own (address space
limited to 8 GiB, so that a corrupt count fails an allocation rather than taking the
machine's memory): the table says whether the open raised a Python exception, killed the process
(segfault) or went through silently, and then the same of the search, with its recall.

Sizes and RSS are in MB of 2^20 bytes; an RSS growth is split into anonymous memory (copied
into the process) and file pages (the page cache's, mapped: shared, and dropped under memory
pressure rather than swapped). Timings on a shared machine are perturbed: the load
average before and after is printed. Results are also written to ``--dir``/results-N.json.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import pickle
import platform
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from importlib.metadata import version
from pathlib import Path

import numpy as np
from process import cpu_model

K = 10
CODE_DIM = 24
NOISE = 0.3
BLOCK = 100_000
M = 16
EF_CONSTRUCTION = 128
HNSW_EF = (16, 32, 64, 128, 256, 512)
ANNOY_MULTIPLES = (1, 3, 10, 30, 100)
PYNN_EPSILON = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5)
PYNN_WARM_ROWS = 10_000
EXACT_QUERIES = 50
ROBUST_ROWS = 20_000
ROBUST_QUERIES = 100
ROBUST_ANNOY_TREES = 10
ROBUST_MEMORY = 8 << 30
ROBUST_TIMEOUT = 120
BUSY = 0.2
"""Cores kept busy by other processes, on average over a measuring process, worth a note."""
LIBRARIES = {
    "usearch": ("usearch-f32", "usearch-default", "usearch-f16", "usearch-i8"),
    "hnswlib": ("hnswlib",),
    "faiss": ("faiss",),
    "annoy": ("annoy",),
    "pynndescent": ("pynndescent",),
}
MODULES = {"usearch": "usearch.index", "hnswlib": "hnswlib", "faiss": "faiss", "annoy": "annoy",
           "pynndescent": "pynndescent"}  # fmt: skip
PACKAGES = ("usearch", "hnswlib", "faiss-cpu", "annoy", "pynndescent", "numba", "numpy")


# -- the vectors -----------------------------------------------------------------------------


def paths(folder: Path, n: int, dim: int, queries: int, seed: int) -> dict[str, Path]:
    return {
        "data": folder / f"data-{n}x{dim}-s{seed}.npy",
        "queries": folder / f"queries-{queries}x{dim}-s{seed}.npy",
        "truth": folder / f"truth-{n}x{dim}-q{queries}-s{seed}.npy",
    }


def make_vectors(files: dict[str, Path], n: int, dim: int, queries: int, seed: int) -> None:
    """The rows, the queries and the exact top K of each query (the module's docstring)."""
    rng = np.random.default_rng(seed)
    mixing = rng.standard_normal((CODE_DIM, dim))

    def rows(count: int) -> np.ndarray:
        made = rng.standard_normal((count, CODE_DIM)) @ mixing
        made += NOISE * rng.standard_normal((count, dim))
        made /= np.linalg.norm(made, axis=1, keepdims=True)
        return made.astype(np.float32)

    asked = rows(queries)
    part = files["data"].with_suffix(".part.npy")
    data = np.lib.format.open_memmap(part, mode="w+", dtype=np.float32, shape=(n, dim))
    candidates = []
    for start in range(0, n, BLOCK):
        data[start : start + BLOCK] = block = rows(min(BLOCK, n - start))
        candidates.append(top_k(asked, block, start))
    data.flush()
    del data
    ids, scores = zip(*candidates)
    truth = merge_top_k(np.concatenate(ids, axis=1), np.concatenate(scores, axis=1))
    np.save(files["queries"], asked)
    np.save(files["truth"], truth)
    part.rename(files["data"])


def top_k(queries: np.ndarray, block: np.ndarray, start: int) -> tuple[np.ndarray, np.ndarray]:
    """The K best rows of ``block`` for each query: (row ids + ``start``, scores), unsorted."""
    scores = queries @ block.T
    keep = min(K, scores.shape[1])
    found = np.argpartition(-scores, keep - 1, axis=1)[:, :keep]
    return found + start, np.take_along_axis(scores, found, axis=1)


def merge_top_k(ids: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """The K best of each row's candidates, best first."""
    order = np.argsort(-scores, axis=1, kind="stable")[:, :K]
    return np.take_along_axis(ids, order, axis=1)


def exact(queries: np.ndarray, data: np.ndarray) -> np.ndarray:
    """The exact top K by blocked matrix products, best first."""
    found = [top_k(queries, data[s : s + BLOCK], s) for s in range(0, len(data), BLOCK)]
    ids, scores = zip(*found)
    return merge_top_k(np.concatenate(ids, axis=1), np.concatenate(scores, axis=1))


def recall(found: np.ndarray, truth: np.ndarray) -> float:
    """The share of the exact top K that ``found`` (queries x K ids, -1 for none) holds."""
    hits = (found[:, :, None] == truth[:, None, :]).any(axis=2)
    return float(hits.sum() / truth.size)


def padded(ids) -> np.ndarray:
    """One query's answer as K int64 ids, -1 where fewer came back."""
    row = np.full(K, -1, dtype=np.int64)
    ids = np.asarray(ids, dtype=np.int64).ravel()[:K]
    row[: len(ids)] = ids
    return row


# -- the libraries ---------------------------------------------------------------------------


class Library:
    """One case: how it builds, saves, opens and searches. Searches return int64 ids."""

    settings: tuple = HNSW_EF
    setting_name = "ef"
    has_batch = True
    build_threads = "yes"

    def __init__(self, case: str, dim: int, annoy_trees: int) -> None:
        self.case, self.dim, self.trees = case, dim, annoy_trees
        self.notes: list[str] = []

    def set_threads(self, threads: int) -> None:
        """For libraries whose thread count is process-wide (faiss, numba)."""

    def label(self, setting) -> str:
        return f"{self.setting_name}={setting}"

    def describe(self) -> str:
        return ""


class Usearch(Library):
    def __init__(self, case: str, dim: int, annoy_trees: int) -> None:
        super().__init__(case, dim, annoy_trees)
        kind = case.split("-", 1)[1]
        self.options = {} if kind == "default" else {"dtype": kind, "connectivity": M,
                                                     "expansion_add": EF_CONSTRUCTION}  # fmt: skip

    def build(self, data: np.ndarray, threads: int) -> None:
        from usearch.index import Index

        self.index = Index(ndim=data.shape[1], metric="cos", **self.options)
        self.index.add(np.arange(len(data), dtype=np.uint64), data, threads=threads)

    def save(self, path: Path) -> None:
        self.index.save(str(path))

    def open(self, path: Path, mapped: bool = True) -> None:
        from usearch.index import Index

        self.index = Index.restore(str(path), view=mapped)
        if self.index is None:
            raise RuntimeError(f"Index.restore({path}) returned None")

    def configure(self, setting: int) -> None:
        self.index.expansion_search = setting

    def one(self, query: np.ndarray):
        return self.index.search(query, K, threads=1).keys

    def batch(self, queries: np.ndarray, threads: int) -> np.ndarray:
        return self.index.search(queries, K, threads=threads).keys.astype(np.int64)

    def describe(self) -> str:
        index = self.index
        kind = str(index.dtype).rsplit(".", 1)[-1].lower()
        return (f"{kind}, M {index.connectivity}, ef_add {index.expansion_add}, "
                f"{index.hardware_acceleration}")  # fmt: skip


class Hnswlib(Library):
    def build(self, data: np.ndarray, threads: int) -> None:
        import hnswlib

        self.index = hnswlib.Index(space="cosine", dim=data.shape[1])
        self.index.init_index(max_elements=len(data), M=M, ef_construction=EF_CONSTRUCTION)
        self.index.add_items(data, np.arange(len(data)), num_threads=threads)

    def save(self, path: Path) -> None:
        self.index.save_index(str(path))

    def open(self, path: Path, mapped: bool = True) -> None:
        import hnswlib

        self.index = hnswlib.Index(space="cosine", dim=self.dim)  # not in the file
        self.index.load_index(str(path))

    def configure(self, setting: int) -> None:
        self.index.set_ef(setting)

    def one(self, query: np.ndarray):
        return self.index.knn_query(query, k=K, num_threads=1)[0]

    def batch(self, queries: np.ndarray, threads: int) -> np.ndarray:
        return self.index.knn_query(queries, k=K, num_threads=threads)[0].astype(np.int64)

    def describe(self) -> str:
        return f"f32, M {self.index.M}, ef_construction {self.index.ef_construction}"


class Faiss(Library):
    build_threads = "yes (OpenMP, process-wide)"

    def set_threads(self, threads: int) -> None:
        import faiss

        faiss.omp_set_num_threads(threads)

    def build(self, data: np.ndarray, threads: int) -> None:
        import faiss

        self.set_threads(threads)
        self.index = faiss.IndexHNSWFlat(data.shape[1], M, faiss.METRIC_INNER_PRODUCT)
        self.index.hnsw.efConstruction = EF_CONSTRUCTION
        self.index.add(data)

    def save(self, path: Path) -> None:
        import faiss

        faiss.write_index(self.index, str(path))

    def open(self, path: Path, mapped: bool = True) -> None:
        import faiss

        # IO_FLAG_MMAP (0x646f0008) reads an HNSW index into memory all the same (faiss 1.15)
        self.index = faiss.read_index(str(path), faiss.IO_FLAG_MMAP_IFC if mapped else 0)

    def configure(self, setting: int) -> None:
        self.index.hnsw.efSearch = setting

    def one(self, query: np.ndarray):
        return self.index.search(query[None], K)[1][0]

    def batch(self, queries: np.ndarray, threads: int) -> np.ndarray:
        self.set_threads(threads)
        return self.index.search(queries, K)[1]

    def describe(self) -> str:
        return f"f32, M {M}, efConstruction {self.index.hnsw.efConstruction}"


class Annoy(Library):
    setting_name = "search_k"
    has_batch = False
    build_threads = "trees only (items added from Python)"

    def __init__(self, case: str, dim: int, annoy_trees: int) -> None:
        super().__init__(case, dim, annoy_trees)
        self.settings = tuple(m * K * annoy_trees for m in ANNOY_MULTIPLES)
        self.search_k = -1

    def build(self, data: np.ndarray, threads: int) -> None:
        from annoy import AnnoyIndex

        self.index = AnnoyIndex(data.shape[1], "angular")
        started = time.perf_counter()
        for i, row in enumerate(data):
            self.index.add_item(i, row)
        added = time.perf_counter() - started
        self.index.build(self.trees, n_jobs=threads)
        built = time.perf_counter() - started - added
        self.notes.append(f"add_item loop {added:.1f} s + build {built:.1f} s")

    def save(self, path: Path) -> None:
        self.index.save(str(path))

    def open(self, path: Path, mapped: bool = True) -> None:
        from annoy import AnnoyIndex

        self.index = AnnoyIndex(self.dim, "angular")  # neither is in the file
        self.index.load(str(path))

    def configure(self, setting: int) -> None:
        self.search_k = setting

    def one(self, query: np.ndarray):
        return self.index.get_nns_by_vector(query, K, search_k=self.search_k)

    def describe(self) -> str:
        return f"angular, {self.index.get_n_trees()} trees"


class Pynndescent(Library):
    settings = PYNN_EPSILON
    setting_name = "epsilon"
    build_threads = "yes (numba, process-wide)"

    def set_threads(self, threads: int) -> None:
        import numba

        numba.set_num_threads(threads)

    def build(self, data: np.ndarray, threads: int) -> None:
        from pynndescent import NNDescent

        self.set_threads(threads)
        started = time.perf_counter()
        self.index = NNDescent(data, metric="cosine", n_jobs=threads)
        graph = time.perf_counter() - started
        self.index.prepare()
        prepared = time.perf_counter() - started - graph
        self.notes.append(f"NNDescent {graph:.1f} s + prepare {prepared:.1f} s")

    def save(self, path: Path) -> None:
        with open(path, "wb") as f:
            pickle.dump(self.index, f, protocol=pickle.HIGHEST_PROTOCOL)

    def open(self, path: Path, mapped: bool = True) -> None:
        with open(path, "rb") as f:
            self.index = pickle.load(f)
        self.parallel = None

    def configure(self, setting: float) -> None:
        self.epsilon = setting

    def one(self, query: np.ndarray):
        return self.index.query(query[None], k=K, epsilon=self.epsilon)[0][0]

    def batch(self, queries: np.ndarray, threads: int) -> np.ndarray:
        if self.parallel is None:  # the same arrays, a search function compiled parallel
            from pynndescent import NNDescent

            state = self.index.__getstate__()
            state["parallel_batch_queries"] = True
            self.parallel = NNDescent.__new__(NNDescent)
            self.parallel.__setstate__(state)
        self.set_threads(threads)
        return self.parallel.query(queries, k=K, epsilon=self.epsilon)[0].astype(np.int64)

    def describe(self) -> str:
        return f"cosine, n_neighbors {self.index.n_neighbors}"


def library(case: str, dim: int, annoy_trees: int = 100) -> Library:
    kinds = {"usearch": Usearch, "hnswlib": Hnswlib, "faiss": Faiss, "annoy": Annoy,
             "pynndescent": Pynndescent}  # fmt: skip
    return kinds[case.split("-", 1)[0]](case, dim, annoy_trees)


# -- the measuring processes -----------------------------------------------------------------


def memory(field: str) -> float:
    """``field`` of /proc/self/status (VmRSS, VmHWM), MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def reset_peak() -> float:
    """Make VmHWM the current RSS (Linux ``clear_refs`` 5); the RSS then, MB."""
    # where it fails, VmHWM starts at the peak so far: the rows' load, a little above the RSS
    with contextlib.suppress(OSError):
        Path("/proc/self/clear_refs").write_text("5")
    return memory("VmRSS")


def child_make(args: argparse.Namespace, out: dict) -> None:
    started = time.perf_counter()
    make_vectors(paths(args.dir, args.n, args.dim, args.queries, args.seed), args.n, args.dim,
                 args.queries, args.seed)  # fmt: skip
    out["seconds"] = time.perf_counter() - started


def child_build(args: argparse.Namespace, out: dict) -> None:
    files = paths(args.dir, args.n, args.dim, args.queries, args.seed)
    data = np.load(files["data"])
    lib = library(args.case, args.dim, args.annoy_trees)
    importlib.import_module(MODULES[args.case.split("-", 1)[0]])
    if isinstance(lib, Pynndescent):  # numba's compilation (or cache load) is not the build's
        started = time.perf_counter()
        library(args.case, args.dim).build(np.ascontiguousarray(data[:PYNN_WARM_ROWS]), 2)
        out["warm_up_s"] = time.perf_counter() - started
    before = reset_peak()
    started = time.perf_counter()
    lib.build(data, args.threads)
    out["build_s"] = time.perf_counter() - started
    out["build_peak_mb"] = memory("VmHWM") - before
    out["describe"] = lib.describe()
    path = index_path(args.dir, args.case, args.n)
    started = time.perf_counter()
    lib.save(path)
    out["save_s"] = time.perf_counter() - started
    out["size_bytes"] = path.stat().st_size
    out["build_threads"] = lib.build_threads
    out["notes"] = lib.notes


def child_search(args: argparse.Namespace, out: dict) -> None:
    files = paths(args.dir, args.n, args.dim, args.queries, args.seed)
    queries, truth = np.load(files["queries"]), np.load(files["truth"])
    lib = library(args.case, args.dim, args.annoy_trees)
    started = time.perf_counter()
    importlib.import_module(MODULES[args.case.split("-", 1)[0]])
    out["import_s"] = time.perf_counter() - started
    before = reset_peak()
    anon, mapped = memory("RssAnon"), memory("RssFile")
    started = time.perf_counter()
    lib.open(index_path(args.dir, args.case, args.n))
    out["open_s"] = time.perf_counter() - started
    out["open_rss_mb"] = memory("VmRSS") - before
    out["open_anon_mb"] = memory("RssAnon") - anon  # copied into the process
    out["open_file_mb"] = memory("RssFile") - mapped  # the page cache's, mapped
    lib.configure(lib.settings[0])
    lib.set_threads(1)
    started = time.perf_counter()
    for query in queries:  # the first pass: page faults of a mapped file, numba's dispatch
        lib.one(query)
    out["first_pass_s"] = time.perf_counter() - started
    if lib.has_batch:
        lib.batch(queries, args.threads)
    out["sweep"] = []
    for setting in lib.settings:
        lib.configure(setting)
        lib.set_threads(1)
        started = time.perf_counter()
        answers = [lib.one(query) for query in queries]
        single = time.perf_counter() - started
        found = np.stack([padded(a) for a in answers])
        row = {"setting": lib.label(setting), "recall": recall(found, truth),
               "single_qps": len(queries) / single}  # fmt: skip
        if lib.has_batch:
            started = time.perf_counter()
            found = lib.batch(queries, args.threads)
            row["batch_qps"] = len(queries) / (time.perf_counter() - started)
            row["batch_recall"] = recall(found, truth)
        out["sweep"].append(row)
        print(f"  {args.case} {row}", file=sys.stderr, flush=True)
    out["rss_after_mb"] = memory("VmRSS") - before
    out["anon_after_mb"] = memory("RssAnon") - anon
    out["file_after_mb"] = memory("RssFile") - mapped
    out["search_peak_mb"] = memory("VmHWM") - before


def child_exact(args: argparse.Namespace, out: dict) -> None:
    from threadpoolctl import threadpool_info, threadpool_limits

    files = paths(args.dir, args.n, args.dim, args.queries, args.seed)
    data, queries = np.load(files["data"]), np.load(files["queries"])
    truth = np.load(files["truth"])
    with threadpool_limits(1):
        out["blas"] = [f"{p['internal_api']} {p['version']} {p['architecture']} "
                       f"{p['num_threads']} thread(s)" for p in threadpool_info()]  # fmt: skip
        asked = queries[:EXACT_QUERIES]
        for query in asked[:3]:  # warm-up
            data @ query
        started = time.perf_counter()
        found = []
        for query in asked:
            scores = data @ query
            best = np.argpartition(-scores, K - 1)[:K]
            found.append(best[np.argsort(-scores[best])])
        out["single_qps"] = len(asked) / (time.perf_counter() - started)
        out["single_recall"] = recall(np.stack(found), truth[:EXACT_QUERIES])
    with threadpool_limits(args.threads):
        started = time.perf_counter()
        found = exact(queries, data)
        out["batch_qps"] = len(queries) / (time.perf_counter() - started)
        out["batch_recall"] = recall(found, truth)


def child_jit(args: argparse.Namespace, out: dict) -> None:
    """Build, prepare and query a small pynndescent index twice, timing each."""
    started = time.perf_counter()
    import pynndescent  # noqa: F401  (its import compiles or loads some functions)

    out["import_s"] = time.perf_counter() - started
    files = paths(args.dir, args.n, args.dim, args.queries, args.seed)
    data = np.ascontiguousarray(np.load(files["data"], mmap_mode="r")[:PYNN_WARM_ROWS])
    queries = np.load(files["queries"])
    for round_ in ("first", "second"):
        lib = library("pynndescent", args.dim)
        started = time.perf_counter()
        lib.build(data, args.threads)
        built = time.perf_counter()
        lib.index.query(queries[:1], k=K)
        queried = time.perf_counter()
        lib.index.query(queries, k=K)
        out[f"{round_}_build_s"] = built - started
        out[f"{round_}_query_s"] = queried - built
        out[f"{round_}_batch_s"] = time.perf_counter() - queried


def child_robust_make(args: argparse.Namespace, out: dict) -> None:
    files = paths(args.dir, args.n, args.dim, args.queries, args.seed)
    data = np.ascontiguousarray(np.load(files["data"], mmap_mode="r")[:ROBUST_ROWS])
    queries = np.load(files["queries"])[:ROBUST_QUERIES]
    np.save(args.dir / "robust" / "truth.npy", exact(queries, data))
    for case in ("usearch-f32", "hnswlib", "faiss", "annoy"):
        lib = library(case, args.dim, ROBUST_ANNOY_TREES)
        lib.build(data, args.threads)
        lib.save(args.dir / "robust" / f"intact.{case}")


def child_robust_try(args: argparse.Namespace, out: dict) -> None:
    """Open a (damaged) index and search it, noting each stage as it is reached: a process
    killed by a signal leaves the stage it died in."""
    resource.setrlimit(resource.RLIMIT_AS, (ROBUST_MEMORY, ROBUST_MEMORY))
    case, mode = args.case.rsplit(":", 1)
    lib = library(case, args.dim, ROBUST_ANNOY_TREES)
    files = paths(args.dir, args.n, args.dim, args.queries, args.seed)
    queries = np.load(files["queries"])[:ROBUST_QUERIES]
    truth = np.load(args.dir / "robust" / "truth.npy")
    out["stage"] = "open"
    write_result(args.out, out)
    lib.open(args.file, mapped=mode in ("view", "mmap"))
    out["stage"] = "search"
    write_result(args.out, out)
    lib.configure(lib.settings[2])
    lib.set_threads(1)
    out["recall"] = recall(np.stack([padded(lib.one(q)) for q in queries]), truth)
    out["stage"] = "done"


def index_path(folder: Path, case: str, n: int) -> Path:
    return folder / f"{case}-{n}.idx"


def write_result(path: Path, result: dict) -> None:
    part = path.with_name(path.name + ".part")
    part.write_text(json.dumps(result))
    part.replace(path)


def child(args: argparse.Namespace) -> None:
    """A measuring process: its result (or its exception) as JSON in ``--out``."""
    roles = {"make": child_make, "build": child_build, "search": child_search, "exact": child_exact,
             "jit": child_jit, "robust-make": child_robust_make,
             "robust-try": child_robust_try}  # fmt: skip
    out: dict = {}
    try:
        roles[args.child](args, out)
    except BaseException as exc:
        out["error"] = f"{type(exc).__name__}: {exc}"[:300]
        write_result(args.out, out)
        raise
    out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    write_result(args.out, out)


# -- the benchmark ---------------------------------------------------------------------------


def run(args: argparse.Namespace, role: str, case: str = "", timeout: float | None = None,
        env: dict | None = None, extra: list[str] | None = None) -> dict:  # fmt: skip
    """Run this script as the measuring process ``role``; its result, with ``failed`` set
    where it raised, was killed by a signal or ran past ``timeout`` (then killed)."""
    name = f"{role}-{case}-{args.n}".replace(":", "-").replace("/", "-")
    out = args.dir / "logs" / f"{name}.json"
    log = args.dir / "logs" / f"{name}.log"
    out.unlink(missing_ok=True)
    command = [sys.executable, __file__, "--child", role, "--case", case, "--out", str(out),
               f"--n={args.n}", f"--dim={args.dim}", f"--queries={args.queries}",
               f"--seed={args.seed}", f"--threads={args.threads}",
               f"--annoy-trees={args.annoy_trees}", f"--dir={args.dir}",
               *(extra or [])]  # fmt: skip
    timeout = args.timeout if timeout is None else timeout
    busy, started = machine_busy(), time.monotonic()
    with open(log, "wb") as err:
        process = subprocess.Popen(command, stdout=err, stderr=err, env=env)
        deadline = time.monotonic() + timeout
        timed_out = False
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                timed_out = True
                process.kill()
                _, status, usage = os.wait4(process.pid, 0)
                break
            time.sleep(0.1)
    process.returncode = code = os.waitstatus_to_exitcode(status)
    result = json.loads(out.read_text()) if out.exists() else {}
    result["child_peak_mb"] = usage.ru_maxrss / 1024
    wall = time.monotonic() - started
    others = machine_busy() - busy - usage.ru_utime - usage.ru_stime
    result["others_cores"] = max(0.0, others / wall)  # what else kept the CPUs busy
    if timed_out:
        result["failed"] = f"timed out after {timeout:.0f} s"
    elif code < 0:
        result["failed"] = f"killed by {signal.Signals(-code).name}"
    elif code != 0 or "error" in result:
        result["failed"] = result.get("error") or f"exit status {code}: {tail(log)}"
    if "failed" in result:
        print(f"  {role} {case}: FAILED ({result['failed']}); log: {log}", file=sys.stderr,
              flush=True)  # fmt: skip
    return result


def machine_busy() -> float:
    """CPU seconds all processes (and the host's steal) have used since boot (/proc/stat)."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    idle = int(fields[3]) + int(fields[4])  # idle, iowait
    return (sum(int(f) for f in fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def tail(path: Path) -> str:
    lines = path.read_text(errors="replace").strip().splitlines()
    return lines[-1][:200] if lines else "no output"


def numba_env(args: argparse.Namespace, cache: Path | None = None) -> dict[str, str]:
    """pynndescent's processes: numba's cache under ``--dir``, never in site-packages."""
    return {**os.environ, "NUMBA_CACHE_DIR": str(cache or args.dir / "numba-cache")}


def cases_of(libs: str, parser: argparse.ArgumentParser) -> list[str]:
    every = [c for group in LIBRARIES.values() for c in group]
    found = []
    for name in libs.split(","):
        name = name.strip()
        if name in LIBRARIES:
            found.extend(LIBRARIES[name])
        elif name in every:
            found.append(name)
        else:
            parser.error(f"unknown library or case {name!r}: {', '.join([*LIBRARIES, *every])}")
    return list(dict.fromkeys(found))


# -- robustness ------------------------------------------------------------------------------


ROBUST_OPENERS = (("usearch-f32", "load"), ("usearch-f32", "view"), ("hnswlib", "load"),
                  ("faiss", "mmap"), ("faiss", "load"), ("annoy", "mmap"))  # fmt: skip
DAMAGE = ("intact", "truncated to half", "first 8 bytes inverted", "vector count inverted",
          "4 KiB of the graph inverted")  # fmt: skip
GRAPH_DAMAGE = 4096


def damaged(intact: bytes, case: str, damage: str) -> bytes | None:
    """``intact`` damaged as the module's docstring says; None where it does not apply."""
    body = bytearray(intact)
    if damage == "truncated to half":
        return bytes(body[: len(body) // 2])
    if damage == "first 8 bytes inverted":
        spans = [(0, 8)]
    elif damage == "vector count inverted":
        if case == "usearch-f32":  # the dense head's count_present, the graph's size
            head = usearch_head(body)
            spans = [(head + 17, 8), (head + 64, 8)]
        elif case == "hnswlib":  # offsetLevel0, max_elements, cur_element_count
            spans = [(16, 8)]
        elif case == "faiss":  # fourcc, d, ntotal
            spans = [(8, 8)]
        else:
            return None
    elif damage == "4 KiB of the graph inverted":
        if case == "usearch-f32":
            head = usearch_head(body)
            spans = [(head + (len(body) - head) * 3 // 4, GRAPH_DAMAGE)]
        elif case == "hnswlib":  # 96 bytes of header, then count x size_data_per_element
            count = int.from_bytes(body[16:24], "little")
            size = int.from_bytes(body[24:32], "little")
            spans = [(96 + count // 2 * size, GRAPH_DAMAGE)]
        elif case == "faiss":
            spans = [(len(body) // 10, GRAPH_DAMAGE)]
        else:
            spans = [(len(body) * 9 // 10, GRAPH_DAMAGE)]
    else:
        return bytes(body)
    for start, length in spans:
        for i in range(start, start + length):
            body[i] ^= 0xFF
    return bytes(body)


def usearch_head(body: bytearray) -> int:
    """Where the index's head starts in a usearch file: after the vectors (rows and bytes per
    row as two u32, then the rows)."""
    rows = int.from_bytes(body[0:4], "little")
    width = int.from_bytes(body[4:8], "little")
    head = 8 + rows * width
    if body[head : head + 7] != b"usearch":
        raise ValueError("no usearch head after the vectors")
    return head


def robustness(args: argparse.Namespace) -> list[dict]:
    folder = args.dir / "robust"
    folder.mkdir(exist_ok=True)
    made = run(args, "robust-make", timeout=1800)
    if "failed" in made:
        return [{"case": "all", "damage": "-", "outcome": f"could not build: {made['failed']}"}]
    rows = []
    for case, mode in ROBUST_OPENERS:
        intact = (folder / f"intact.{case}").read_bytes()
        for damage in DAMAGE:
            body = damaged(intact, case, damage)
            if body is None:
                rows.append({"case": f"{case} {mode}", "damage": damage, "outcome": "n/a"})
                continue
            path = folder / f"{damage.replace(' ', '-')}.{case}"
            path.write_bytes(body)
            tried = run(args, "robust-try", f"{case}:{mode}", timeout=ROBUST_TIMEOUT,
                        extra=["--file", str(path)])  # fmt: skip
            rows.append({"case": f"{case} {mode}", "damage": damage, "outcome": outcome(tried)})
    return rows


def outcome(tried: dict) -> str:
    stage = tried.get("stage", "start")
    failed = tried.get("failed")
    if not failed:
        return f"opened silently; search ran, recall@10 {tried['recall']:.3f}"
    where = {"start": "before the open", "open": "open", "search": "opened silently; search"}
    if failed.startswith(("killed", "timed out")):
        return f"{where[stage]}: process {failed}"
    return f"{where[stage]}: raised {failed[:150]}"


# -- the report ------------------------------------------------------------------------------


def table(rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def report(args: argparse.Namespace, results: dict) -> None:
    exact_row = results["exact"]
    exact_qps = exact_row.get("single_qps")
    print()
    print(f"CPU: {cpu_model()}, {len(os.sched_getaffinity(0))} cores; "
          f"{platform.python_implementation()} {platform.python_version()}; "
          + ", ".join(f"{p} {results['versions'][p]}" for p in PACKAGES))  # fmt: skip
    print(f"{args.n:,} x {args.dim} unit float32 rows (24-d Gaussian codes x a 24 x {args.dim} "
          f"Gaussian matrix + {NOISE} x Gaussian noise; seed {args.seed}), {args.queries:,} "
          f"queries not in the index, k={K}, cosine; build on {args.threads} threads")  # fmt: skip
    before, after = results["load_before"], results["load_after"]
    print(f"load average (1, 5, 15 min): before {before[0]:.1f} {before[1]:.1f} {before[2]:.1f}"
          f", after {after[0]:.1f} {after[1]:.1f} {after[2]:.1f}")  # fmt: skip
    if "failed" in exact_row:
        print(f"exact search: FAILED ({exact_row['failed']})")
    else:
        print(f"exact search (numpy {'; '.join(exact_row['blas'])}): single query on 1 thread "
              f"{exact_qps:.1f} q/s ({EXACT_QUERIES} queries, recall "
              f"{exact_row['single_recall']:.3f}); blocked batch of all queries on "
              f"{args.threads} threads {exact_row['batch_qps']:.0f} q/s (numpy's argpartition, "
              f"one thread, takes most of it){busy_note(exact_row)}")  # fmt: skip
    for name, r in results.get("jit", {}).items():
        if "failed" in r:
            print(f"pynndescent, {name}: FAILED ({r['failed']})")
            continue
        print(f"pynndescent, {name}: import {r['import_s']:.1f} s; {PYNN_WARM_ROWS:,}-row "
              f"build+prepare {r['first_build_s']:.1f} s, then {r['second_build_s']:.1f} s in "
              f"the same process; first query {r['first_query_s']:.2f} s, then "
              f"{r['second_query_s'] * 1000:.1f} ms; batch of {args.queries:,} "
              f"{r['first_batch_s']:.2f} s, then {r['second_batch_s']:.2f} s"
              f"{busy_note(r)}")  # fmt: skip

    print("\nBuild, save and open")
    rows = [["case", "storage / parameters", "build s", "build threads", "build peak RSS MB",
             "size MB", "save s", "import s", "open", "open s",
             "open RSS MB (anon + file)",
             "notes"]]  # fmt: skip
    for case, r in results["cases"].items():
        build, search = r["build"], r.get("search", {})
        if "failed" in build:
            rows.append([case, f"build FAILED: {build['failed']}"] + [""] * 10)
            continue
        notes = [*build.get("notes", [])]
        for role, r_ in (("build", build), ("search", search)):
            if r_.get("others_cores", 0) >= BUSY:
                notes.append(f"other processes kept {r_['others_cores']:.1f} cores busy "
                             f"during the {role}")  # fmt: skip
        if "warm_up_s" in build:
            notes.append(f"10k warm-up build {build['warm_up_s']:.1f} s")
        if "failed" in search:
            notes.append(f"search FAILED: {search['failed']}")
        imported = "-" if "import_s" not in search else f"{search['import_s']:.2f}"
        opened = "-" if "open_s" not in search else f"{search['open_s']:.3f}"
        open_rss = "-"
        if "open_rss_mb" in search:
            open_rss = (f"{search['open_rss_mb']:.0f} ({search['open_anon_mb']:.0f} + "
                        f"{search['open_file_mb']:.0f}); after search "
                        f"{search['rss_after_mb']:.0f} ({search['anon_after_mb']:.0f} + "
                        f"{search['file_after_mb']:.0f})")  # fmt: skip
        rows.append([case, build["describe"], f"{build['build_s']:.1f}", build["build_threads"],
                     f"{build['build_peak_mb']:.0f}", f"{build['size_bytes'] / 2**20:.1f}",
                     f"{build['save_s']:.2f}", imported, OPEN_HOW[case.split('-')[0]], opened,
                     open_rss, "; ".join(notes)])  # fmt: skip
    print(table(rows))

    print(f"\nSearch: recall@{K} over {args.queries:,} queries; single: one query per call "
          f"from a Python loop, 1 thread; batch: all queries in one call, {args.threads} "
          f"threads; x exact: single q/s over exact search's")  # fmt: skip
    rows = [["case", "setting", "recall@10", "single q/s", "x exact", "batch q/s",
             "batch recall"]]  # fmt: skip
    rows.append(["exact (numpy)", "-", "1.000", f"{exact_qps or 0:.1f}", "1.0",
                 f"{exact_row.get('batch_qps', 0):.0f}", "1.000"])  # fmt: skip
    best = [["case", "cheapest setting with recall@10 >= 0.95", "recall@10", "single q/s",
             "x exact"]]  # fmt: skip
    for case, r in results["cases"].items():
        sweep = r.get("search", {}).get("sweep", [])
        for s in sweep:
            times = ratio(s["single_qps"], exact_qps)
            rows.append([case, s["setting"], f"{s['recall']:.3f}", f"{s['single_qps']:,.0f}",
                         times, f"{s['batch_qps']:,.0f}" if "batch_qps" in s else "-",
                         f"{s['batch_recall']:.3f}" if "batch_recall" in s else "-"])  # fmt: skip
        good = [s for s in sweep if s["recall"] >= 0.95]
        if good:
            s = good[0]
            times = ratio(s["single_qps"], exact_qps)
            best.append([case, s["setting"], f"{s['recall']:.3f}", f"{s['single_qps']:,.0f}",
                         times])  # fmt: skip
        else:
            top = max((s["recall"] for s in sweep), default=None)
            best.append([case, "none" if top is None else f"none (best {top:.3f})", "", "", ""])
    print(table(rows))
    print()
    print(table(best))
    failures = [(case, role, r[role]["failed"]) for case, r in results["cases"].items()
                for role in ("build", "search") if "failed" in r.get(role, {})]  # fmt: skip
    if failures:
        print("\nFailures:")
        for case, role, why in failures:
            print(f"  {case} {role}: {why}")
    if results.get("robustness"):
        print("\nDamaged index files (each opened and searched in a process of its own)")
        rows = [["index, opened by", "damage", "outcome"]]
        rows += [[r["case"], r["damage"], r["outcome"]] for r in results["robustness"]]
        print(table(rows))


def busy_note(result: dict) -> str:
    cores = result.get("others_cores", 0)
    return f" (other processes kept {cores:.1f} cores busy)" if cores >= BUSY else ""


def ratio(qps: float, exact_qps: float | None) -> str:
    if not exact_qps:
        return "-"
    times = qps / exact_qps
    return f"{times:.1f}" if times < 10 else f"{times:,.0f}"


OPEN_HOW = {"usearch": "mapped (view)", "hnswlib": "read into RAM", "faiss": "IO_FLAG_MMAP_IFC",
            "annoy": "mapped (load)", "pynndescent": "unpickled"}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--dim", type=int, default=100)
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--libs", default=",".join(LIBRARIES))
    parser.add_argument("--dir", type=Path, default=Path("/tmp/annbench"))
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--annoy-trees", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=3600, help="seconds per process")
    parser.add_argument("--no-robustness", action="store_true")
    for hidden in ("--child", "--case", "--out", "--file"):  # the measuring processes
        parser.add_argument(hidden, help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.dir = args.dir.resolve()
    if args.child:
        args.out, args.file = Path(args.out), args.file and Path(args.file)
        child(args)
        return
    cases = cases_of(args.libs, parser)
    (args.dir / "logs").mkdir(parents=True, exist_ok=True)
    files = paths(args.dir, args.n, args.dim, args.queries, args.seed)
    if not all(p.exists() for p in files.values()):
        print(f"making {files['data']} and the exact answers ...", file=sys.stderr, flush=True)
        made = run(args, "make", timeout=7200)
        if "failed" in made:
            sys.exit(f"could not make the vectors: {made['failed']}")
    results: dict = {"versions": {p: version(p) for p in PACKAGES}, "cases": {},
                     "load_before": os.getloadavg()}  # fmt: skip
    if "pynndescent" in cases:
        results["jit"] = {}
        with tempfile.TemporaryDirectory(dir=args.dir) as cache:
            for name in ("empty numba cache", "filled numba cache"):
                print(f"pynndescent, {name} ...", file=sys.stderr, flush=True)
                results["jit"][name] = run(args, "jit", name.split()[0], timeout=1800,
                                           env=numba_env(args, Path(cache)))  # fmt: skip
    for case in cases:
        print(f"{case}: build ...", file=sys.stderr, flush=True)
        env = numba_env(args) if case == "pynndescent" else None
        r = results["cases"][case] = {"build": run(args, "build", case, env=env)}
        if "failed" not in r["build"]:
            print(f"{case}: {r['build']['build_s']:.1f} s; search ...", file=sys.stderr,
                  flush=True)  # fmt: skip
            r["search"] = run(args, "search", case, env=env)
            index_path(args.dir, case, args.n).unlink(missing_ok=True)
    print("exact search ...", file=sys.stderr, flush=True)
    results["exact"] = run(args, "exact")
    results["load_after"] = os.getloadavg()
    if not args.no_robustness:
        print("damaged files ...", file=sys.stderr, flush=True)
        results["robustness"] = robustness(args)
    (args.dir / f"results-{args.n}.json").write_text(json.dumps(results, indent=1))
    report(args, results)
    shutil.rmtree(args.dir / "robust", ignore_errors=True)


if __name__ == "__main__":
    main()
