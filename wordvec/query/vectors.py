"""Trained word vectors: words, their matrix, and similarity queries (no training state).

Example::

    >>> vectors = wordvec.load_vectors("model.wv")
    >>> vectors.most_similar("france", topn=3)       # [(word, cosine), ...]
    >>> vectors.most_similar(positive=["king", "woman"], negative=["man"], topn=1)
    >>> vectors.doesnt_match(["paris", "rome", "cat"])

The queries are gensim's ``KeyedVectors`` calls under gensim's names and meanings, so a script
written for ``model.wv`` in gensim runs on ``model.wv`` here.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from wordvec.errors import UnknownWord, shown
from wordvec.query import NEIGHBOURS

if TYPE_CHECKING:
    from wordvec.index.approximate import NeighbourIndex

_BLOCK_ROWS = 1 << 16
_SCANS_BEFORE_INDEX = 8

Query = str | np.ndarray | tuple
"""A term of a similarity query: a word, a vector, or either with a weight: ``(word, 2.0)``."""


class Vectors:
    """Word vectors. ``vectors[i]`` is the vector of ``words[i]``; ``counts`` may be None."""

    def __init__(
        self,
        words: Sequence[str],
        vectors: np.ndarray,
        counts: np.ndarray | None = None,
        *,
        norms: np.ndarray | None = None,
    ):
        """``norms``: the rows' lengths, where a reader worked them out on its way (as
        :attr:`norms` gives them)."""
        if vectors.ndim != 2 or len(words) != vectors.shape[0]:
            raise ValueError(f"{len(words)} words but a vector matrix of shape {vectors.shape}")
        self.words = list(words)
        self.vectors = vectors
        self.counts = counts
        self._scans = 0
        if norms is not None:
            self.__dict__["norms"] = norms  # the cached property's value

    def __len__(self) -> int:
        return len(self.words)

    def __contains__(self, word: str) -> bool:
        return self.row_of(word) is not None

    def __iter__(self) -> Iterator[str]:
        """The words, most frequent first (as a dict iterates its keys)."""
        return iter(self.words)

    def __getitem__(self, key: str | int | Sequence[str]) -> np.ndarray:
        """The vector of a word (or of row ``key``), or the rows of a list of words."""
        if isinstance(key, (int, np.integer)) and key not in self:
            return np.asarray(self.vectors[key])
        if isinstance(key, (list, tuple)):
            return np.vstack([self[word] for word in key]) if key else np.empty((0, self.dim))
        return self.vector(key)

    def vector(self, word: str) -> np.ndarray:
        """The vector of ``word``; :class:`VocabularyError` if it has none."""
        return np.asarray(self.vectors[self.id_of(word)])

    def unit_vector(self, word: str) -> np.ndarray:
        """The vector of ``word`` scaled to length 1 (zero stays zero)."""
        return _unit(np.asarray(self.vector(word), dtype=np.float32))

    @property
    def dim(self) -> int:
        return self.vectors.shape[1]

    @cached_property
    def index(self) -> dict[str, int]:
        """Word to row in row order (the first row, should a foreign file list a word twice):
        ``list(index)`` is the vocabulary as stored, most frequent first."""
        index = dict(zip(self.words, range(len(self.words))))
        if len(index) < len(self.words):  # a word listed twice: its first row, not its last
            index = {}
            for row, word in enumerate(self.words):
                index.setdefault(word, row)
        return index

    def row_of(self, word: str) -> int | None:
        """The row of ``word``, or None. The first few lookups scan the list (20 ms for a
        million words) rather than build :attr:`index` (0.7 s), so a query or two on a big
        file does not wait for it."""
        if "index" not in self.__dict__ and self._scans < _SCANS_BEFORE_INDEX:
            self._scans += 1
            try:
                return self.words.index(word)
            except ValueError:
                return None
        return self.index.get(word)

    def id_of(self, word: str) -> int:
        """The row of ``word``; :class:`UnknownWord` (a KeyError) if it has none."""
        row = self.row_of(word)
        if row is None:
            raise UnknownWord(f"{shown(word)} is not in the vocabulary ({len(self):,} words)")
        return row

    @cached_property
    def norms(self) -> np.ndarray:
        """Each row's length (1 for a zero row, so that dividing by it leaves zero), float32.
        Queries divide by these rather than keep a second, unit-length copy of the matrix."""
        matrix = self.vectors
        norms = np.empty(len(matrix), dtype=np.float32)
        for start in range(0, len(matrix), _BLOCK_ROWS):  # no temporary as large as the matrix
            block = np.asarray(matrix[start : start + _BLOCK_ROWS], dtype=np.float32)
            norms[start : start + len(block)] = np.sqrt(np.einsum("ij,ij->i", block, block))
        norms[norms == 0] = 1.0
        return norms

    def unit_rows(self, stop: int | None = None) -> np.ndarray:
        """The first ``stop`` rows (all by default) scaled to length 1, float32 (a new array)."""
        rows = np.asarray(self.vectors[:stop], dtype=np.float32)
        return rows / self.norms[: len(rows), None]

    def similarity(self, first: str, second: str) -> float:
        """Cosine similarity of two words."""
        return float(self.unit_vector(first) @ self.unit_vector(second))

    def most_similar(
        self,
        positive: Query | Iterable[Query] | None = None,
        negative: Iterable[Query] | None = None,
        topn: int | None = NEIGHBOURS,
        restrict_vocab: int | None = None,
        *,
        k: int | None = None,
        restrict: int | None = None,
        index: NeighbourIndex | None = None,
    ) -> list[tuple[str, float]] | np.ndarray:
        """The ``topn`` words nearest by cosine to the mean of ``positive`` minus ``negative``,
        as gensim's ``KeyedVectors.most_similar``: each a word (its unit vector), a vector (as
        given) or a ``(word or vector, weight)`` pair. The query words themselves are left
        out. ``restrict_vocab`` searches only the first (most frequent) words; ``topn=None``
        returns the cosines of all words instead. ``k`` and ``restrict`` are wordvec's names
        for ``topn`` and ``restrict_vocab``. ``index``: an approximate index of these vectors
        (:class:`~wordvec.index.approximate.NeighbourIndex`) finds the candidates, which are
        then scored exactly.
        """
        topn = k if k is not None else topn
        restrict_vocab = restrict if restrict is not None else restrict_vocab
        query, words = self.query(positive, negative)
        if index is not None and topn is not None:
            if restrict_vocab is not None:
                raise ValueError("an index searches every word: restrict_vocab cannot narrow it")
            if index.vectors is not self and index.vectors.vectors is not self.vectors:
                raise ValueError("the index was built for other vectors")
            exclude = {i for w in words if w is not None for i in self._query_rows(w)}
            return [(self.words[i], s) for i, s in index.nearest(query, topn, exclude)]
        return self._best(self._cosines(query, restrict_vocab), topn, words)

    def query(
        self, positive: Query | Iterable[Query] | None, negative: Iterable[Query] | None
    ) -> tuple[np.ndarray, list[str | None]]:
        """:meth:`most_similar`'s query vector (the weighted mean of its terms, float32) and
        its words (None for a vector given)."""
        terms = self._terms(positive, +1.0) + self._terms(negative, -1.0)
        if not terms:
            raise ValueError("most_similar needs at least one positive or negative word")
        query = sum(weight * vector for vector, weight, _ in terms) / len(terms)
        return np.asarray(query, dtype=np.float32), [word for _, _, word in terms]

    def most_similar_cosmul(
        self,
        positive: Query | Iterable[Query] | None = None,
        negative: Iterable[Query] | None = None,
        topn: int | None = NEIGHBOURS,
        restrict_vocab: int | None = None,
    ) -> list[tuple[str, float]] | np.ndarray:
        """The ``topn`` words by 3CosMul (Levy and Goldberg, 2014), as gensim's: the product
        of the positives' cosines over the product of the negatives', each cosine shifted to
        [0, 1] as (1 + cos) / 2, the denominator + 1e-6."""
        positive = self._terms(positive, +1.0)
        negative = self._terms(negative, -1.0)
        if not positive + negative:
            raise ValueError("most_similar_cosmul needs at least one positive or negative word")

        def shifted(term) -> np.ndarray:
            return (1 + self._cosines(term[0], restrict_vocab)) / 2

        scores = np.prod([shifted(t) for t in positive], axis=0) / (
            np.prod([shifted(t) for t in negative], axis=0) + 1e-6
        )
        return self._best(scores, topn, [word for _, _, word in positive + negative])

    def similar_by_vector(
        self, vector: np.ndarray, topn: int | None = NEIGHBOURS, restrict_vocab: int | None = None
    ) -> list[tuple[str, float]] | np.ndarray:
        """The words nearest to ``vector`` by cosine."""
        return self.most_similar(positive=[vector], topn=topn, restrict_vocab=restrict_vocab)

    def similar_by_word(
        self, word: str, topn: int | None = NEIGHBOURS, restrict_vocab: int | None = None
    ) -> list[tuple[str, float]] | np.ndarray:
        """The words nearest to ``word`` by cosine (``word`` left out)."""
        return self.most_similar(positive=[word], topn=topn, restrict_vocab=restrict_vocab)

    similar_by_key = similar_by_word

    def doesnt_match(self, words: Iterable[str]) -> str:
        """The word of ``words`` furthest from their mean (of unit vectors); words without a
        vector are left out, as gensim does."""
        used = [word for word in words if word in self]
        if not used:
            raise ValueError("doesnt_match needs at least one word with a vector")
        unit = np.array([self.unit_vector(word) for word in used])
        mean = unit.mean(axis=0)
        cosines = unit @ _unit(mean)
        return used[int(np.argmin(cosines))]

    def n_similarity(self, first: Iterable[str], second: Iterable[str]) -> float:
        """Cosine between the means of two sets of words' vectors (as gensim: the vectors as
        they are, not scaled to length 1 first)."""
        first, second = list(first), list(second)
        if not first or not second:
            raise ZeroDivisionError("n_similarity needs at least one word on each side")
        means = [np.mean([self.vector(w) for w in words], axis=0) for words in (first, second)]
        return float(_unit(means[0]) @ _unit(means[1]))

    def wmdistance(self, document1: Sequence[str], document2: Sequence[str],
                   norm: bool = True) -> float:  # fmt: skip
        """The word mover's distance between two lists of words (gensim's name and meaning;
        :func:`wordvec.query.transport.word_movers_distance`)."""
        from wordvec.query.transport import word_movers_distance

        return word_movers_distance(self, document1, document2, norm)

    def distance(self, first: str, second: str) -> float:
        """1 - cosine similarity."""
        return 1.0 - self.similarity(first, second)

    def distances(self, word_or_vector: Query, other_words: Iterable[str] = ()) -> np.ndarray:
        """1 - cosine from ``word_or_vector`` to each of ``other_words`` (default: all)."""
        vector = self._terms([word_or_vector], 1.0)[0][0]
        vector = _unit(vector)
        other_words = list(other_words)
        if not other_words:
            return 1.0 - self._cosines(vector, None)
        return 1.0 - np.array([self.unit_vector(word) for word in other_words]) @ vector

    def get_vector(self, key: str, norm: bool = False) -> np.ndarray:
        """The vector of ``key`` (scaled to length 1 if ``norm``); gensim's name."""
        return self.unit_vector(key) if norm else self.vector(key)

    def get_index(self, key: str, default: int | None = None) -> int:
        """The row of ``key``; ``default``, if given, for a word without one."""
        if default is not None and self.row_of(key) is None:
            return default
        return self.id_of(key)

    def has_index_for(self, key: str) -> bool:
        return key in self

    @property
    def index_to_key(self) -> list[str]:
        """The words, row by row (gensim's name for ``words``)."""
        return self.words

    @property
    def key_to_index(self) -> dict[str, int]:
        """Word to row (gensim's name for ``index``)."""
        return self.index

    @property
    def vector_size(self) -> int:
        """The number of dimensions (gensim's name for ``dim``)."""
        return self.dim

    def _terms(self, queries, sign: float) -> list[tuple[np.ndarray, float, str | None]]:
        """(vector, weight, the word or None) of each query: a word's unit vector, a vector as
        given, or either with a weight; ``sign`` is applied to the weight."""
        if queries is None:
            return []
        if isinstance(queries, (str, np.ndarray)):
            queries = [queries]
        terms = []
        for query in queries:
            query, weight = query if isinstance(query, tuple) else (query, 1.0)
            if isinstance(query, str):
                terms.append((self.unit_vector(query), sign * weight, query))
            else:
                vector = np.asarray(query, dtype=np.float32)
                if vector.shape != (self.dim,):
                    raise ValueError(f"a query vector has shape {vector.shape}, not ({self.dim},)")
                if not np.isfinite(vector).all():  # every score would be NaN
                    raise ValueError("a query vector holds NaN or an infinity")
                terms.append((vector, sign * weight, None))
        return terms

    def _cosines(self, vector: np.ndarray, restrict_vocab: int | None) -> np.ndarray:
        """Cosine of every (of the first ``restrict_vocab``) word's vector with ``vector``."""
        rows = self.vectors[:restrict_vocab]
        query = _unit(vector).astype(rows.dtype)
        return (rows @ query).astype(np.float32) / self.norms[: len(rows)]

    def _best(self, scores: np.ndarray, topn: int | None, query_words) -> list | np.ndarray:
        """The ``topn`` best-scoring words, the query's own words left out; all the scores if
        ``topn`` is None (gensim's convention)."""
        if topn is None:
            return scores
        ids = {i for w in query_words if w is not None for i in self._query_rows(w)}
        ids = [i for i in ids if i < len(scores)]
        scores = scores.copy()
        scores[ids] = -np.inf
        topn = min(topn, len(scores) - len(ids))
        if topn <= 0:
            return []
        top = np.argpartition(-scores, topn - 1)[:topn]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [(self.words[i], float(scores[i])) for i in top]

    def _query_rows(self, word: str) -> list[int]:
        """The rows a query word's answers leave out: its own."""
        row = self.row_of(word)
        return [] if row is None else [row]

    def analogy(
        self, a: str, b: str, c: str, k: int = NEIGHBOURS, index: NeighbourIndex | None = None
    ) -> list[tuple[str, float]]:
        """'a is to b as c is to ?' by 3CosAdd: nearest to b - a + c (through ``index``, as
        :meth:`most_similar`, if given)."""
        return self.most_similar(positive=[b, c], negative=[a], topn=k, index=index)


def _unit(vector: np.ndarray) -> np.ndarray:
    """``vector`` scaled to length 1 (a zero vector stays zero)."""
    return vector / max(float(np.linalg.norm(vector)), 1e-12)
