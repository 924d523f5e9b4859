"""Vectors of a fastText (subword) model, which answer for unseen words from their n-grams.

The input matrix has one row per vocabulary word followed by ``bucket`` rows shared by all
character n-grams (:mod:`wordvec.corpus.subwords`). A word outside the vocabulary has no own row
and gets the mean of its n-gram rows, so any string has a vector, as in fastText.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

import numpy as np

from wordvec.corpus.subwords import ngram_hashes
from wordvec.errors import FormatError, UnknownWord, shown
from wordvec.query.vectors import Vectors


class SubwordVectors(Vectors):
    """Word vectors that also answer for words outside the vocabulary, from their n-grams.

    ``ngrams`` is the bucket matrix (``bucket`` x dim). Queries (``vector``, ``most_similar``,
    ``similarity``) accept any word; ``word in vectors`` means "has a vector", as in gensim: a
    vocabulary word, or one sharing an n-gram with one (``vectors.index``: the vocabulary).
    """

    def __init__(
        self,
        words: Sequence[str],
        vectors: np.ndarray,
        counts: np.ndarray | None,
        *,
        ngrams: np.ndarray,
        minn: int,
        maxn: int,
    ):
        super().__init__(words, vectors, counts)
        self.ngrams = ngrams
        self.minn = minn
        self.maxn = maxn

    @cached_property
    def _known_hashes(self) -> np.ndarray:
        """The (sorted, distinct) hashes of the vocabulary's n-grams: the ones training saw."""
        return np.unique(ngram_hashes(self.words, self.minn, self.maxn)[1])

    def __contains__(self, word: str) -> bool:
        """Whether ``word`` has a vector: it is in the vocabulary, or one of its n-grams is in a
        vocabulary word (what :meth:`vector` answers for)."""
        if not isinstance(word, str) or self.row_of(word) is not None:
            return super().__contains__(word)
        hashes = ngram_hashes([word], self.minn, self.maxn)[1]
        return bool(np.isin(hashes, self._known_hashes).any())

    @property
    def bucket(self) -> int:
        return self.ngrams.shape[0]

    def vector(self, word: str) -> np.ndarray:
        """The word's vector; for an unseen word, the mean of its n-gram rows.

        Raises :class:`VocabularyError` for an unseen word none of whose n-grams occur in a
        vocabulary word: its vector would be noise (untrained rows, or rows trained only for
        n-grams that share its buckets by chance).
        """
        if self.row_of(word) is not None:
            return super().vector(word)
        hashes = ngram_hashes([word], self.minn, self.maxn)[1]
        if not np.isin(hashes, self._known_hashes).any():
            raise UnknownWord(
                f"{shown(word)} is not in the vocabulary and shares no character n-gram "
                f"({self.minn}-{self.maxn} characters) with it"
            )
        return self.ngram_vector(word, hashes)

    def ngram_vector(self, word: str, hashes: np.ndarray | None = None) -> np.ndarray:
        """The mean of ``word``'s n-gram rows, whatever they are (fastText's vector of a word
        outside the vocabulary; zero when it has no n-grams)."""
        if hashes is None:
            hashes = ngram_hashes([word], self.minn, self.maxn)[1]
        if not len(hashes):
            return np.zeros(self.dim, dtype=np.float32)
        vector = np.asarray(self.ngrams[hashes % self.bucket], dtype=np.float32).mean(axis=0)
        if not np.isfinite(vector).all():  # the rows are checked here, not all at loading
            raise FormatError(f"the n-gram rows of {shown(word)} are not finite (NaN or infinite)")
        return vector
