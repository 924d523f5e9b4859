"""wordvec: train classic word vectors (word2vec, GloVe, fastText) fast on one machine.

The public API is loaded lazily, so ``import wordvec`` (and ``wordvec --help``) do not import
numba; only training does.

    >>> import wordvec
    >>> model = wordvec.train("corpus.txt.gz", model="sg", dim=100)
    >>> model.save("model.wv")
    >>> vectors = wordvec.load_vectors("model.wv")
    >>> vectors.most_similar("paris")
    >>> classifier = wordvec.train("cooking.train", model="supervised", epochs=25, alpha=1.0)
    >>> classifier.predict("how long to boil an egg", k=3)
"""

from __future__ import annotations

import importlib as _importlib
from typing import Any as _Any

__version__ = "0.1.0"

_LAZY = {
    "train": "wordvec.training",
    "TrainConfig": "wordvec.training.config",
    "quantize": "wordvec.training.quantize",
    "compress": "wordvec.compression",
    "Model": "wordvec.model",
    "Vectors": "wordvec.query.vectors",
    "Vocabulary": "wordvec.corpus.vocab",
    "load_vectors": "wordvec.formats",
    "save_vectors": "wordvec.formats",
    "load_classifier": "wordvec.formats",
    "sentence_vectors": "wordvec.query.pooling",
    "text_lines": "wordvec.corpus.sources",
    "WordvecError": "wordvec.errors",
}

__all__ = ["__version__", *_LAZY]


def __getattr__(name: str) -> _Any:
    if name in _LAZY:
        return getattr(_importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'wordvec' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public names, those loaded when first used included (``load_vectors``)."""
    return sorted(__all__)
