"""A trained model: vocabulary with counts, word vectors, settings, and the other weights.

The word vectors are what ``export`` writes; ``arrays`` holds what a later run or format needs
besides them (output weights, n-gram buckets), saved under their names. Saved with
:mod:`wordvec.formats.modelfile` (JSON header + raw arrays, no pickle).
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from wordvec.cooccurrences import FORMAT_NAME as COUNTS_FORMAT
from wordvec.errors import FormatError
from wordvec.formats.modelfile import read_model_file, write_model_file
from wordvec.vectors import Vectors
from wordvec.vocab import Vocabulary

FORMAT_NAME = "wordvec-model"


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
        if "ngrams" in self.arrays:
            from wordvec.subwords import SubwordVectors

            return SubwordVectors(
                self.vocab.words,
                self.vectors,
                self.vocab.counts,
                ngrams=self.arrays["ngrams"],
                minn=int(self.settings["minn"]),
                maxn=int(self.settings["maxn"]),
            )
        return Vectors(self.vocab.words, self.vectors, self.vocab.counts)

    def save(self, path: str | os.PathLike) -> None:
        """Write the model to ``path`` atomically."""
        arrays = {**self.vocab.to_arrays(), "vectors": self.vectors, **self.arrays}
        meta = {"format": FORMAT_NAME, "settings": self.settings}
        write_model_file(path, meta, arrays)

    @classmethod
    def load(cls, path: str | os.PathLike, *, mmap: bool = True) -> Model:
        """Read a model written by :meth:`save`."""
        meta, arrays = read_model_file(path, mmap=mmap)
        name = os.path.basename(path)
        if meta.get("format") == COUNTS_FORMAT:
            raise FormatError(
                f"{name} holds co-occurrence counts, not vectors: train on it with "
                "'wordvec train --model glove --cooccur'"
            )
        if meta.get("format") != FORMAT_NAME or "vectors" not in arrays:
            raise FormatError(f"{name} is corrupt (missing words, counts or vectors)")
        vocab = Vocabulary.from_arrays(arrays, name)
        vectors = arrays.pop("vectors")
        if len(vocab) != len(vectors) or vectors.ndim != 2:
            raise FormatError(
                f"{name} is corrupt ({len(vocab)} words, vectors of shape {tuple(vectors.shape)})"
            )
        settings = meta.get("settings", {})
        if "ngrams" in arrays:
            _check_subwords(name, settings, arrays, vectors.shape)
        return cls(vocab, vectors, settings=settings, arrays=arrays)


def _check_subwords(name: str, settings: dict, arrays: dict, shape: tuple[int, int]) -> None:
    """A subword model's settings and n-gram arrays must agree: queries for unseen words and
    ``export --format fasttext-bin`` trust them."""
    from wordvec.subwords import check_subword_settings

    try:
        minn, maxn, bucket = (int(settings[key]) for key in ("minn", "maxn", "bucket"))
    except (KeyError, TypeError, ValueError):
        raise FormatError(f"{name} is corrupt (subword settings)") from None
    ngrams = arrays["ngrams"]
    word_rows = arrays.get("word_rows")
    if (
        ngrams.ndim != 2
        or ngrams.shape[1] != shape[1]
        or maxn == 0
        or (word_rows is not None and word_rows.shape != shape)
    ):
        raise FormatError(f"{name} is corrupt (n-gram or word rows do not fit the vectors)")
    check_subword_settings(name, minn, maxn, bucket, ngrams.shape[0])
