"""gensim's ``gensim.similarities.annoy.AnnoyIndexer``, served by wordvec's approximate index
(:class:`~wordvec.index.approximate.NeighbourIndex`: faiss's HNSW graph, not Annoy's trees;
``pip install 'wordvec[index]'``), so that gensim's tutorial runs with its import changed::

    >>> from wordvec.gensim.similarities.annoy import AnnoyIndexer
    >>> indexer = AnnoyIndexer(model, 100)
    >>> model.wv.most_similar("science", topn=10, indexer=indexer)
    >>> indexer.save("model.index")
    >>> again = AnnoyIndexer()
    >>> again.load("model.index")
    >>> again.model = model

As gensim's, ``most_similar(vector, num_neighbors)`` answers the words nearest to a vector
(a query word itself among them) with their cosines, which here are exact. ``num_trees`` is
taken for gensim's signature and recorded; the graph's own settings are wordvec's defaults.
``save`` writes one file (gensim's writes a second, ``.dict``, a pickle); ``load`` reads it
and checks it against the model it is given.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from wordvec.index.approximate import NeighbourIndex
from wordvec.index.files import read_index
from wordvec.query.vectors import Vectors


class AnnoyIndexer:
    """gensim's ``AnnoyIndexer(model=None, num_trees=None)``: an index of a ``Word2Vec``,
    ``FastText``, ``Doc2Vec`` (its document vectors) or ``KeyedVectors``' vectors, built when
    both are given."""

    def __init__(self, model: Any = None, num_trees: int | None = None):
        self.index: NeighbourIndex | None = None
        self.model = model
        self.num_trees = num_trees
        self._saved: Path | None = None
        if model is not None and num_trees:
            self.index = NeighbourIndex.build(_keyed_vectors(model), quiet=True)

    @property
    def labels(self) -> list[str]:
        """The indexed keys, row by row (gensim's attribute)."""
        return _keyed_vectors(self.model).index_to_key

    def save(self, fname: str | os.PathLike) -> None:
        """Write the index to ``fname`` (one file, for :meth:`load`)."""
        if self.index is None:
            raise ValueError("this AnnoyIndexer holds no index: give it a model and num_trees")
        self.index.save(fname)

    def load(self, fname: str | os.PathLike) -> None:
        """Read the index that :meth:`save` wrote to ``fname``; it answers once ``model`` is
        set (gensim's tutorial sets it next), and only for the vectors it was built from."""
        path = Path(fname)
        if not path.is_file():
            raise FileNotFoundError(
                f"Can't find index file '{fname}' - unable to restore AnnoyIndexer state."
            )
        read_index(path)  # damaged: an error now, not at the first query
        self.index, self._saved = None, path

    def most_similar(self, vector: np.ndarray, num_neighbors: int) -> list[tuple[str, float]]:
        """The ``num_neighbors`` keys nearest to ``vector`` and their cosines, nearest first."""
        if self.index is None and self._saved is not None:
            if self.model is None:
                raise ValueError(
                    "set the loaded indexer's model (indexer.model = model) before asking it"
                )
            self.index = NeighbourIndex.open(self._saved, _keyed_vectors(self.model), "the model")
        if self.index is None:
            raise ValueError("this AnnoyIndexer holds no index: give it a model and num_trees")
        return self.index.most_similar(vector, num_neighbors)


def _keyed_vectors(model: Any) -> Vectors:
    """The vectors of ``model``, as gensim's AnnoyIndexer takes them."""
    if isinstance(model, Vectors):
        return model
    for attribute in ("dv", "wv"):  # Doc2Vec: its document vectors, as gensim's
        vectors = getattr(model, attribute, None)
        if isinstance(vectors, Vectors):
            return vectors
    raise ValueError("Only a Word2Vec, Doc2Vec, FastText or KeyedVectors instance can be used")
