"""gensim's ``gensim.models``: its classes (``from wordvec.gensim.models import Word2Vec``)
and its modules (``from wordvec.gensim.models.doc2vec import TaggedDocument``,
``gensim.models.keyedvectors``, ...), each the face's module of that name
(:mod:`wordvec.gensim`), imported when first used."""

from __future__ import annotations

import importlib
from typing import Any

from wordvec.gensim import _LAZY

SUBMODULES = ("word2vec", "doc2vec", "fasttext", "keyedvectors", "phrases", "callbacks")
"""gensim's ``gensim.models`` modules that the face has."""

__all__ = [*_LAZY, *SUBMODULES]


def __getattr__(name: str) -> Any:
    if name in SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
