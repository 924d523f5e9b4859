"""Trained word vectors: words, their matrix, and similarity queries (no training state).

Example::

    >>> vectors = wordvec.load_vectors("model.wv")
    >>> vectors.most_similar("france", k=3)          # [(word, cosine), ...]
    >>> vectors.analogy("man", "king", "woman")      # king - man + woman
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cached_property

import numpy as np

from wordvec.errors import VocabularyError
from wordvec.options import NEIGHBOURS


class Vectors:
    """Word vectors. ``vectors[i]`` is the vector of ``words[i]``; ``counts`` may be None."""

    def __init__(self, words: Sequence[str], vectors: np.ndarray, counts: np.ndarray | None = None):
        if vectors.ndim != 2 or len(words) != vectors.shape[0]:
            raise ValueError(f"{len(words)} words but a vector matrix of shape {vectors.shape}")
        self.words = list(words)
        self.vectors = vectors
        self.counts = counts

    def __len__(self) -> int:
        return len(self.words)

    def __contains__(self, word: str) -> bool:
        return word in self.index

    def __getitem__(self, word: str) -> np.ndarray:
        return self.vector(word)

    def vector(self, word: str) -> np.ndarray:
        """The vector of ``word``; :class:`VocabularyError` if it has none."""
        return np.asarray(self.vectors[self.id_of(word)])

    def unit_vector(self, word: str) -> np.ndarray:
        """The vector of ``word`` scaled to length 1."""
        if word in self.index:
            return self.unit[self.index[word]]
        vector = self.vector(word)
        return vector / max(float(np.linalg.norm(vector)), 1e-12)

    @property
    def dim(self) -> int:
        return self.vectors.shape[1]

    @cached_property
    def index(self) -> dict[str, int]:
        return {word: i for i, word in enumerate(self.words)}

    def id_of(self, word: str) -> int:
        """The row of ``word``; :class:`VocabularyError` if it has none."""
        try:
            return self.index[word]
        except KeyError:
            raise VocabularyError(
                f"'{word}' is not in the vocabulary ({len(self):,} words)"
            ) from None

    @cached_property
    def unit(self) -> np.ndarray:
        """Rows scaled to length 1 (zero rows stay zero), float32."""
        matrix = np.asarray(self.vectors, dtype=np.float32)
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        return matrix / np.where(norms > 0, norms, 1.0)

    def similarity(self, first: str, second: str) -> float:
        """Cosine similarity of two words."""
        return float(self.unit_vector(first) @ self.unit_vector(second))

    def most_similar(
        self,
        positive: str | Iterable[str],
        negative: Iterable[str] = (),
        k: int = NEIGHBOURS,
        restrict: int | None = None,
    ) -> list[tuple[str, float]]:
        """The ``k`` words nearest by cosine to sum(positive) - sum(negative) of unit vectors.

        The query words themselves are left out. ``restrict`` searches only the first (most
        frequent) ``restrict`` words.
        """
        positive = [positive] if isinstance(positive, str) else list(positive)
        negative = list(negative)
        query = np.zeros(self.dim, dtype=np.float32)
        for word in positive:
            query += self.unit_vector(word)
        for word in negative:
            query -= self.unit_vector(word)
        ids = [self.index[w] for w in positive + negative if w in self.index]
        candidates = self.unit if restrict is None else self.unit[:restrict]
        scores = candidates @ (query / max(np.linalg.norm(query), 1e-12))
        scores[[i for i in ids if i < len(scores)]] = -np.inf
        k = min(k, len(scores) - sum(i < len(scores) for i in set(ids)))
        if k <= 0:
            return []
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [(self.words[i], float(scores[i])) for i in top]

    def analogy(self, a: str, b: str, c: str, k: int = NEIGHBOURS) -> list[tuple[str, float]]:
        """'a is to b as c is to ?' by 3CosAdd: nearest to b - a + c."""
        return self.most_similar(positive=[b, c], negative=[a], k=k)
