"""The ANN library behind wordvec's index: usearch's HNSW graph (chosen by measurement,
``docs/benchmarks.md``: on 1M x 100 vectors it reached recall@10 0.95 at the highest
single-query rate of the libraries tried, built fastest, and maps its saved graph from a
buffer without reading it in). The only module that imports it: the rest of wordvec asks this
one for a graph, to add rows to it, to search it, to save it, or to map a saved one.

usearch is the optional extra ``wordvec[index]``; without it these functions raise a
:class:`~wordvec.errors.WordvecError` that says how to install it.
"""

from __future__ import annotations

import os
from typing import Any, NamedTuple

import numpy as np

from wordvec.errors import FormatError, WordvecError

LIBRARY = "usearch"
PRECISIONS = ("f32", "f16", "i8")
"""How the graph stores its copy of the unit vectors: f16 halves f32's memory and loses no
recall once candidates are re-scored from the vectors themselves (:mod:`wordvec.index.search`);
i8 quarters it."""


class Settings(NamedTuple):
    """An HNSW graph's settings: ``connectivity`` links per node (M), ``expansion_add`` the
    candidates weighed when a node is linked (efConstruction), ``expansion_search`` those
    weighed per query (ef: more is slower and nearer exact), ``precision`` one of
    :data:`PRECISIONS`."""

    connectivity: int = 16
    expansion_add: int = 128
    expansion_search: int = 64
    precision: str = "f16"


LIMITS = {"connectivity": (2, 256), "expansion_add": (1, 1 << 16), "expansion_search": (1, 1 << 16)}
"""The range of each count setting: usearch's own, or past any use (a graph of 256 links a
node is many times its vectors' size)."""


def settings_problem(settings: Settings) -> str | None:
    """What is wrong with ``settings``, or None."""
    for name, (low, high) in LIMITS.items():
        value = getattr(settings, name)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            return f"{name} must be a whole number from {low} to {high}, not {value!r}"
    if settings.precision not in PRECISIONS:
        return f"precision must be one of {', '.join(PRECISIONS)}, not {settings.precision!r}"
    return None


def check_library() -> None:
    """A :class:`WordvecError` that says how to install the library, if it is not there."""
    _usearch()


def _usearch() -> Any:
    try:
        from usearch import index
    except ImportError:
        raise WordvecError(
            "an approximate index needs usearch: pip install 'wordvec[index]'"
        ) from None
    return index


def library_version() -> str:
    """The installed usearch's version (recorded in each index file)."""
    import usearch

    return usearch.__version__


def new_graph(dim: int, settings: Settings) -> Any:
    """An empty graph for unit vectors of ``dim`` dimensions, ranked by inner product."""
    return _usearch().Index(
        ndim=dim,
        metric="ip",
        dtype=settings.precision,
        connectivity=settings.connectivity,
        expansion_add=settings.expansion_add,
        expansion_search=settings.expansion_search,
    )


def add_rows(graph: Any, first: int, rows: np.ndarray, threads: int) -> None:
    """Link ``rows`` (unit vectors, float32) into ``graph`` as keys ``first, first + 1, ...``
    on ``threads`` threads (0: all)."""
    keys = np.arange(first, first + len(rows), dtype=np.uint64)
    graph.add(keys, rows, threads=threads)


def search(graph: Any, query: np.ndarray, count: int, *, threads: int = 1) -> np.ndarray:
    """The keys (rows) of the ``count`` graph nodes found nearest to ``query`` (one unit
    vector), nearest first, as int64. A query is one thread's work unless told otherwise:
    single queries from many clients are spread over cores by their callers."""
    found = graph.search(query, count, threads=threads)
    return np.asarray(found.keys, dtype=np.int64)


def search_many(graph: Any, queries: np.ndarray, count: int, *, threads: int = 0) -> np.ndarray:
    """The keys of each query's ``count`` nearest nodes: a (queries, count) int64 array, -1
    where a graph holds fewer."""
    found = graph.search(queries, count, threads=threads)
    keys = np.asarray(found.keys, dtype=np.int64).reshape(len(queries), -1)
    counts = np.asarray(found.counts).reshape(-1)
    keys[np.arange(keys.shape[1])[None, :] >= counts[:, None]] = -1
    return keys


def set_expansion(graph: Any, expansion_search: int) -> None:
    """Weigh ``expansion_search`` candidates per query from now on."""
    graph.expansion_search = expansion_search


def save_graph(graph: Any, path: str | os.PathLike) -> None:
    """Write ``graph`` in the library's own format to ``path``."""
    graph.save(os.fspath(path))


def mapped_graph(buffer: np.ndarray, dim: int, rows: int, settings: Settings) -> Any:
    """The graph saved in ``buffer`` (a read-only memory map, already checked against its
    checksum), searched where it lies: nothing of it is read in. Its own header must agree
    with what the index file says it holds."""
    index = _usearch()
    meta = index.Index.metadata(memoryview(buffer))
    held = (meta or {}).get("dimensions"), (meta or {}).get("count_present")
    if held != (dim, rows):
        raise FormatError(f"its graph holds {held[1]} rows of {held[0]} dims, not {rows} x {dim}")
    graph = new_graph(dim, settings)
    graph.view(memoryview(buffer))
    graph.wordvec_buffer = buffer  # the graph reads the mapping: it must outlive the graph
    return graph
