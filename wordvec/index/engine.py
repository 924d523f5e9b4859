"""The ANN library behind wordvec's index: faiss's HNSW graph (``IndexHNSWFlat``, inner
product on unit rows), chosen by measurement (``docs/benchmarks.md``: on 1M x 100 vectors it
reached recall@10 0.95 at the highest single-query rate of the libraries that build within
300 s on 2 cores, ships wheels, and maps a saved graph rather than reading it in). The only
module that imports it: the rest of wordvec asks this one for a graph, to add rows to it, to
search it, to save it, or to map a saved one.

faiss is the optional extra ``wordvec[index]``; without it these functions raise a
:class:`~wordvec.errors.WordvecError` that says how to install it. Its threads are OpenMP's,
set per calling thread: a build takes the threads it is given, a single query one.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from wordvec.errors import FormatError, WordvecError
from wordvec.index.settings import Settings
from wordvec.runtime.forks import in_forked_child

LIBRARY = "faiss"


def check_library() -> None:
    """A :class:`WordvecError` that says how to install the library, if it is not there."""
    _faiss()


def _faiss() -> Any:
    try:
        import faiss
    except ImportError:
        raise WordvecError(
            "an approximate index needs faiss: pip install 'wordvec[index]'"
        ) from None
    return faiss


def _set_threads(threads: int) -> None:
    """faiss's OpenMP threads for the calling thread's next call: ``threads``, but 1 in a
    forked process. GNU OpenMP's threads do not survive a fork, and a parallel region in the
    child waits on them forever: gensim's annoy tutorial builds an indexer in a
    ``multiprocessing`` child of a process that had built one, and hung there."""
    _faiss().omp_set_num_threads(1 if in_forked_child() else threads)


def library_version() -> str:
    """The installed faiss's version (recorded in each index file)."""
    return _faiss().__version__


def new_graph(dim: int, settings: Settings) -> Any:
    """An empty graph for unit vectors of ``dim`` dimensions, ranked by inner product."""
    faiss = _faiss()
    if settings.precision == "f32":
        graph = faiss.IndexHNSWFlat(dim, settings.connectivity, faiss.METRIC_INNER_PRODUCT)
    else:
        kind = (
            faiss.ScalarQuantizer.QT_fp16
            if settings.precision == "f16"
            else faiss.ScalarQuantizer.QT_8bit_uniform
        )
        graph = faiss.IndexHNSWSQ(dim, kind, settings.connectivity, faiss.METRIC_INNER_PRODUCT)
        # unit rows lie in [-1, 1]: the 8-bit codes' range, set rather than learnt from a sample
        graph.storage.train(np.array([[-1.0] * dim, [1.0] * dim], dtype=np.float32))
        graph.is_trained = True
    graph.hnsw.efConstruction = settings.expansion_add
    graph.hnsw.efSearch = settings.expansion_search
    return graph


def add_rows(graph: Any, first: int, rows: np.ndarray, threads: int) -> None:
    """Link ``rows`` (unit vectors, float32) into ``graph`` as its rows ``first, first + 1,
    ...`` (the next ones: a graph's rows are numbered as they come) on ``threads`` threads."""
    if graph.ntotal != first:
        raise ValueError(f"rows are added in order: the graph holds {graph.ntotal}, not {first}")
    _set_threads(threads)
    graph.add(np.ascontiguousarray(rows, dtype=np.float32))


def search(graph: Any, query: np.ndarray, count: int) -> np.ndarray:
    """The rows of the ``count`` graph nodes found nearest to ``query`` (one unit vector),
    nearest first, as int64, on the calling thread alone: single queries from many clients
    are spread over cores by their callers."""
    _set_threads(1)
    _, rows = graph.search(np.ascontiguousarray(query, dtype=np.float32).reshape(1, -1), count)
    rows = rows[0]
    return rows[rows >= 0]


def search_many(graph: Any, queries: np.ndarray, count: int, *, threads: int) -> np.ndarray:
    """The rows of each query's ``count`` nearest nodes, (queries, count) int64, -1 where a
    graph holds fewer; the queries shared among ``threads`` threads."""
    _set_threads(threads)
    _, rows = graph.search(np.ascontiguousarray(queries, dtype=np.float32), count)
    return rows


def set_expansion(graph: Any, expansion_search: int) -> None:
    """Weigh ``expansion_search`` candidates per query from now on."""
    graph.hnsw.efSearch = expansion_search


def save_graph(graph: Any, path: str | os.PathLike) -> None:
    """Write ``graph`` in the library's own format to ``path``."""
    _faiss().write_index(graph, os.fspath(path))


def mapped_graph(path: str | os.PathLike, dim: int, rows: int, settings: Settings) -> Any:
    """The graph saved at the start of ``path`` (already checked against its checksum; what
    follows it is not read), its vectors mapped rather than read in. What the library read
    must agree with what the index file says it holds."""
    faiss = _faiss()
    try:
        graph = faiss.read_index(os.fspath(path), faiss.IO_FLAG_MMAP | faiss.IO_FLAG_READ_ONLY)
    except RuntimeError as exc:
        raise FormatError(f"its graph cannot be read ({str(exc).splitlines()[0][:120]})") from None
    expected = "IndexHNSWFlat" if settings.precision == "f32" else "IndexHNSWSQ"
    if (type(graph).__name__, graph.d, graph.ntotal) != (expected, dim, rows):
        raise FormatError(
            f"its graph is a {type(graph).__name__} of {graph.ntotal} rows of {graph.d} dims, "
            f"not an {expected} of {rows} x {dim}"
        )
    graph.hnsw.efSearch = settings.expansion_search
    return graph
