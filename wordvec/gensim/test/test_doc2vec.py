"""What gensim's doc2vec tutorial on IMDB imports from gensim's ``gensim.test.test_doc2vec``:
``ConcatenatedDoc2Vec``, several paragraph-vector models read as one (the paragraph-vector
paper's PV-DBOW and PV-DM vectors side by side). Not a test module: gensim keeps the helper
among its tests, and scripts import it from there."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["ConcatenatedDoc2Vec", "ConcatenatedDocvecs"]


class ConcatenatedDocvecs:
    """The document vectors of several models, a key's rows joined end to end."""

    def __init__(self, models: Sequence[Any]):
        self.models = list(models)

    def __getitem__(self, key: Any) -> np.ndarray:
        return np.concatenate([model[key] for model in self.models])


class ConcatenatedDoc2Vec:
    """Models trained apart on the same documents, read as one: ``dv[tag]``, ``model[key]``
    and ``infer_vector`` give each model's answer joined end to end; ``train`` does nothing
    (each model trains on its own)."""

    def __init__(self, models: Sequence[Any]):
        self.models = list(models)
        self.dv = ConcatenatedDocvecs([model.dv for model in self.models])

    def __getitem__(self, key: Any) -> np.ndarray:
        return np.concatenate([model[key] for model in self.models])

    def __str__(self) -> str:
        return "+".join(str(model) for model in self.models)

    @property
    def epochs(self) -> int:
        return self.models[0].epochs

    def infer_vector(
        self, doc_words: Sequence[str], alpha: float | None = None,
        min_alpha: float | None = None, epochs: int | None = None,
    ) -> np.ndarray:  # fmt: skip
        return np.concatenate([model.infer_vector(doc_words, alpha, min_alpha, epochs)
                               for model in self.models])  # fmt: skip

    def train(self, *args: Any, **kwargs: Any) -> None:
        """Nothing: train each model on its own."""
