"""A trained model: vocabulary with counts, word vectors, settings, and the other weights.

The word vectors are what ``export`` writes; ``arrays`` holds what a later run or format needs
besides them (output weights, n-gram buckets), saved under their names. Its file is
:mod:`wordvec.formats.wordvec_model` (JSON header + raw arrays, no pickle).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from functools import cached_property
from typing import Any

import numpy as np

from wordvec.corpus.sources import text_lines
from wordvec.corpus.vocab import Vocabulary
from wordvec.errors import ConfigError
from wordvec.formats.wordvec_model import model_classifier, model_vectors, read_model, write_model
from wordvec.query.classifier import Classifier, TestReport
from wordvec.query.documents import document_vectors, infer_vectors
from wordvec.query.vectors import Vectors


class Model:
    """What training returns and ``-o`` saves. ``report`` (not saved) holds run measurements."""

    def __init__(
        self,
        vocab: Vocabulary,
        vectors: np.ndarray,
        *,
        settings: dict[str, Any],
        arrays: dict[str, np.ndarray] | None = None,
        report: Any = None,
    ):
        self.vocab = vocab
        self.vectors = vectors
        self.settings = dict(settings)
        self.arrays = dict(arrays or {})
        self.report = report

    @property
    def wv(self) -> Vectors:
        """The word vectors with their queries (nearest neighbours, analogies); a subword
        model's also answer for words outside the vocabulary."""
        return model_vectors(self)

    @property
    def dv(self) -> Vectors:
        """A doc2vec model's document vectors, keyed by their tags (each line's number, from
        ``"0"``; the document numbers of ``document_tags``, if it was trained with them), with
        the word vectors' queries (gensim's ``Doc2Vec.dv``)."""
        return document_vectors(self._doc_vectors())

    def infer_vector(
        self, words: Sequence[str], epochs: int | None = None, alpha: float | None = None,
        min_alpha: float | None = None,
    ) -> np.ndarray:  # fmt: skip
        """A doc2vec model's vector for a new document (a list of words): a fresh row trained
        with the words and the output layer frozen, as gensim's ``infer_vector``; the epochs
        and the learning rates, first and last, default to the model's."""
        return self.infer_vectors([words], epochs=epochs, alpha=alpha, min_alpha=min_alpha)[0]

    def infer_vectors(
        self, documents: Iterable[Sequence[str]], *, epochs: int | None = None,
        alpha: float | None = None, min_alpha: float | None = None, threads: int | None = None,
    ) -> np.ndarray:  # fmt: skip
        """:meth:`infer_vector` for many documents at once, on every core (or ``threads``)."""
        self._doc_vectors()
        return infer_vectors(self.vocab, self.vectors, self.settings, self.arrays, documents,
                             epochs=epochs, alpha=alpha, min_alpha=min_alpha,
                             threads=threads)  # fmt: skip

    def _doc_vectors(self) -> np.ndarray:
        if "doc_vectors" not in self.arrays:
            raise ConfigError(
                f"a --model {self.settings.get('model')} model has no document vectors: train "
                "one with --model doc2vec"
            )
        return self.arrays["doc_vectors"]

    @cached_property
    def classifier(self) -> Classifier:
        """A supervised model's classifier (:class:`~wordvec.errors.NotAClassifier` for a
        word vector model)."""
        return model_classifier(self)

    def predict(self, text: str, k: int = 1, threshold: float = 0.0) -> list[tuple[str, float]]:
        """The ``k`` most probable labels of a line of text, with their probabilities."""
        return self.classifier.predict(text, k, threshold)

    def test(self, path: str | os.PathLike, k: int = 1, threshold: float = 0.0) -> TestReport:
        """P@k and R@k (``.precision``, ``.recall``, per label ``.labels``) on a labelled
        file, as fastText's ``test``."""
        return self.classifier.test(text_lines(path), k, threshold)

    def save(self, path: str | os.PathLike) -> None:
        """Write the model to ``path`` atomically."""
        write_model(self, path)

    @classmethod
    def load(cls, path: str | os.PathLike, *, mmap: bool = True) -> Model:
        """Read a model written by :meth:`save`."""
        vocab, vectors, settings, arrays = read_model(path, mmap=mmap)
        return cls(vocab, vectors, settings=settings, arrays=arrays)
