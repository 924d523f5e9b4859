"""gensim 4's word-vector API over wordvec: change ``from gensim.models import Word2Vec`` to
``from wordvec.gensim import Word2Vec`` and a script runs on wordvec's reader and kernels.

The classes' names, arguments, defaults (CBOW, ``workers=3``, ``min_count=5``, ...), methods,
attributes and results are gensim 4.4's; wordvec's own API (:func:`wordvec.train`) keeps its
names and defaults. A face: it translates and calls wordvec, it holds no algorithm of its own.
Where it differs from gensim it says so, with an error rather than another result:

- ``save`` writes wordvec's model files, never pickles; ``load`` also reads gensim's own
  saved models (1.x to 4.x, pickles and ``.npy`` files) as data, never running them
  (:mod:`~wordvec.gensim.pickles`: a pickle naming anything else is refused);
- ``FastText`` averages its CBOW context (``cbow_mean=1``).

Modules, gensim's names: :mod:`~wordvec.gensim.keyedvectors`, :mod:`~wordvec.gensim.word2vec`,
:mod:`~wordvec.gensim.fasttext`, :mod:`~wordvec.gensim.phrases`, :mod:`~wordvec.gensim.corpora`
(gensim's corpus iterables), :mod:`~wordvec.gensim.callbacks`, :mod:`~wordvec.gensim.doc2vec`
(``Doc2Vec``, paragraph vectors over wordvec's doc2vec training: one tag per document, a model
trained once on its whole corpus). gensim's layout over them, so that only the import changes:
:mod:`~wordvec.gensim.models` (``gensim.models`` and its ``word2vec``, ``doc2vec``,
``fasttext``, ``keyedvectors``, ``phrases``, ``callbacks``), :mod:`~wordvec.gensim.utils`,
:mod:`~wordvec.gensim.test.utils`, :mod:`~wordvec.gensim.downloader`,
:mod:`~wordvec.gensim.parsing.preprocessing` (``STOPWORDS``),
:mod:`~wordvec.gensim.similarities.annoy` (``AnnoyIndexer``, served by wordvec's index).
"""

from __future__ import annotations

import importlib as _importlib
import logging as _logging
from typing import Any as _Any

_logging.getLogger(__name__).addHandler(_logging.NullHandler())
"""The face logs as gensim does: its records show where a script configures logging (gensim's
tutorials' ``logging.basicConfig``), not on stderr by default."""

_LAZY = {
    "KeyedVectors": "wordvec.gensim.keyedvectors",
    "Word2VecKeyedVectors": "wordvec.gensim.keyedvectors",
    "Word2Vec": "wordvec.gensim.word2vec",
    "FastText": "wordvec.gensim.fasttext",
    "FastTextKeyedVectors": "wordvec.gensim.fasttext",
    "load_facebook_model": "wordvec.gensim.fasttext",
    "load_facebook_vectors": "wordvec.gensim.fasttext",
    "save_facebook_model": "wordvec.gensim.fasttext",
    "Doc2Vec": "wordvec.gensim.doc2vec",
    "Phrases": "wordvec.gensim.phrases",
    "FrozenPhrases": "wordvec.gensim.phrases",
    "Phraser": "wordvec.gensim.phrases",
    "LineSentence": "wordvec.gensim.corpora",
    "PathLineSentences": "wordvec.gensim.corpora",
    "Text8Corpus": "wordvec.gensim.corpora",
    "TaggedDocument": "wordvec.gensim.corpora",
    "TaggedLineDocument": "wordvec.gensim.corpora",
    "CallbackAny2Vec": "wordvec.gensim.callbacks",
}

_MODULES = ("models", "utils", "test", "downloader", "parsing", "similarities")
"""gensim's modules that ``import gensim`` makes reachable (``gensim.utils.simple_preprocess``)."""

__all__ = [*_LAZY, *_MODULES]


def __getattr__(name: str) -> _Any:
    if name in _LAZY:
        return getattr(_importlib.import_module(_LAZY[name]), name)
    if name in _MODULES:
        return _importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'wordvec.gensim' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public names, those loaded when first used included (``load_vectors``)."""
    return sorted(__all__)
