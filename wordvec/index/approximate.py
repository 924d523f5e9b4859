"""Approximate nearest neighbours: an HNSW graph over a set of vectors' unit rows finds each
query's candidates, and the vectors themselves score them, so that every similarity returned
is the exact cosine that exact search would give the same word.

Example::

    >>> vectors = wordvec.load_vectors("crawl-300d-2M.vec")
    >>> index = NeighbourIndex.build(vectors)          # all cores, a progress bar
    >>> index.save("crawl-300d-2M.vec.index")
    >>> index = NeighbourIndex.open("crawl-300d-2M.vec.index", vectors)   # mapped, checked
    >>> vectors.most_similar("paris", topn=10, index=index)

:meth:`NeighbourIndex.most_similar` is gensim's indexer protocol (``most_similar(vector,
num_neighbors)``), so the index also serves ``KeyedVectors.most_similar(..., indexer=)``.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Collection
from pathlib import Path
from typing import Any

import numpy as np

from wordvec.errors import FormatError, WordvecError
from wordvec.index import engine, files
from wordvec.index.settings import Settings, settings_problem
from wordvec.query.vectors import Vectors
from wordvec.runtime.parallel import available_cores
from wordvec.runtime.progress import progress_bar

DEFAULTS = Settings()
_BLOCK_ROWS = 1 << 16
"""Rows linked into the graph per call: the progress bar moves per block, and a block's unit
copy is all the memory building takes besides the graph."""


class NeighbourIndex:
    """An HNSW graph over ``vectors`` (:mod:`wordvec.index.engine`): :meth:`build` one,
    :meth:`save` it, :meth:`open` it again (mapped) for the same vectors."""

    def __init__(self, vectors: Vectors, graph: Any, settings: Settings, meta: dict):
        self.vectors = vectors
        self.graph = graph
        self.settings = settings
        self.meta = meta
        self.path: Path | None = None

    @classmethod
    def build(
        cls,
        vectors: Vectors,
        settings: Settings = DEFAULTS,
        *,
        threads: int = 0,
        quiet: bool = False,
    ) -> NeighbourIndex:
        """Link every row of ``vectors`` into a new graph on ``threads`` threads (0: every
        core), with a progress bar unless ``quiet``."""
        problem = settings_problem(settings)
        if problem:
            raise WordvecError(f"index settings: {problem}")
        if len(vectors) < 2:
            raise WordvecError("an index needs at least two vectors")
        graph = engine.new_graph(vectors.dim, settings)
        threads = threads or available_cores()
        with progress_bar("indexing", len(vectors), unit="w", quiet=quiet) as bar:
            for start in range(0, len(vectors), _BLOCK_ROWS):
                block = np.asarray(vectors.vectors[start : start + _BLOCK_ROWS], dtype=np.float32)
                block = block / _norms(block)[:, None]
                if not np.isfinite(block).all():
                    raise WordvecError(f"the vectors hold NaN or an infinity (rows {start:,} on)")
                engine.add_rows(graph, start, block, threads)
                bar.update(len(block))
        meta = {
            **settings._asdict(),
            "library": engine.LIBRARY,
            "library_version": engine.library_version(),
            "rows": len(vectors),
            "dim": vectors.dim,
            "vectors": files.fingerprint(vectors),
        }
        return cls(vectors, graph, settings, meta)

    @classmethod
    def open(
        cls, path: str | os.PathLike, vectors: Vectors, vectors_name: str = "these vectors"
    ) -> NeighbourIndex:
        """The index saved at ``path``, mapped, for ``vectors`` (named ``vectors_name`` in
        errors): :class:`~wordvec.errors.FormatError` if it is damaged,
        :class:`~wordvec.index.files.StaleIndex` if it was built from other vectors."""
        path = Path(path)
        meta, settings = files.read_index(path)
        files.check_fresh(meta, vectors, path.name, vectors_name)
        try:
            graph = engine.mapped_graph(path, meta["dim"], meta["rows"], settings)
        except FormatError as exc:
            raise FormatError(f"{path.name} is corrupt ({exc})") from None
        index = cls(vectors, graph, settings, meta)
        index.path = path
        return index

    def save(self, path: str | os.PathLike) -> None:
        """Write the index to ``path`` (atomically), for :meth:`open`."""
        path = Path(path)
        with tempfile.TemporaryDirectory(dir=path.parent, prefix=f".{path.name}.") as scratch:
            graph_file = Path(scratch) / "graph"
            engine.save_graph(self.graph, graph_file)
            files.write_index(path, graph_file, self.meta)
        self.path = path

    @property
    def expansion_search(self) -> int:
        """Candidates weighed per query (HNSW's ef): more is nearer exact, and slower."""
        return self.settings.expansion_search

    @expansion_search.setter
    def expansion_search(self, value: int) -> None:
        settings = self.settings._replace(expansion_search=value)
        problem = settings_problem(settings)
        if problem:
            raise ValueError(problem)
        engine.set_expansion(self.graph, value)
        self.settings = settings

    def nearest(
        self, query: np.ndarray, count: int, exclude: Collection[int] = ()
    ) -> list[tuple[int, float]]:
        """The rows the graph finds nearest to ``query`` (any length; not zero) and their
        exact cosines, best first: ``count`` of them, none of the rows in ``exclude`` (a
        query's own words). Fewer if the vectors have fewer. Asked for half the rows or
        more, it scores them all."""
        query = np.asarray(query, dtype=np.float32).reshape(-1)
        if query.shape != (self.vectors.dim,):
            raise ValueError(f"a query vector has shape {query.shape}, not ({self.vectors.dim},)")
        length = float(np.linalg.norm(query))
        if not np.isfinite(length):
            raise ValueError("a query vector holds NaN or an infinity")
        if length == 0:
            raise ValueError("a query vector of zeros has no nearest neighbours")
        if count < 1:
            return []
        query = query / length
        asked = count + len(exclude)
        if 2 * asked < len(self.vectors):
            rows = engine.search(self.graph, query, asked)
        else:  # half the words or more: every row is as quick, and none is missed
            rows = np.arange(len(self.vectors))
        rows = rows[~np.isin(rows, np.fromiter(exclude, np.int64, len(exclude)))]
        if not len(rows):
            return []
        block = np.asarray(self.vectors.vectors[np.sort(rows)], dtype=np.float32)
        scores = (block @ query) / _norms(block)
        order = np.argsort(-scores, kind="stable")[:count]
        rows = np.sort(rows)[order]
        return [(int(row), float(score)) for row, score in zip(rows, scores[order])]

    def most_similar(self, vector: np.ndarray, num_neighbors: int) -> list[tuple[str, float]]:
        """gensim's indexer protocol: the ``num_neighbors`` words nearest to ``vector`` and
        their cosines, the query's own word included (as gensim's ``AnnoyIndexer`` gives)."""
        return [
            (self.vectors.words[row], score) for row, score in self.nearest(vector, num_neighbors)
        ]

    def describe(self) -> str:
        """One line: what searches, with which settings."""
        s = self.settings
        return (
            f"HNSW graph ({engine.LIBRARY} {self.meta['library_version']}; M {s.connectivity}, "
            f"ef {s.expansion_search}, {s.precision})"
        )


def _norms(block: np.ndarray) -> np.ndarray:
    """Each row's length, 1 for a zero row (which then stays zero), as
    :attr:`Vectors.norms` works them out."""
    norms = np.sqrt(np.einsum("ij,ij->i", block, block))
    norms[norms == 0] = 1.0
    return norms
