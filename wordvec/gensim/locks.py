"""gensim's locked vectors: per-row learning-rate factors (``vectors_lockf``; 1 trains a row, 0
keeps it as it is). A Word2Vec's words train with theirs (:func:`word_locks`, handed to
:func:`wordvec.train` as ``word_locks``); fastText's and Doc2Vec's rows all train, and a lock
there is refused (:func:`check_unlocked`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from wordvec.errors import ConfigError

if TYPE_CHECKING:
    from wordvec.gensim.keyedvectors import KeyedVectors


LOCK_ARRAYS = ("vectors_lockf", "vectors_vocab_lockf", "vectors_ngrams_lockf")
"""gensim's per-row learning-rate factors (1: trained, 0: locked): a Word2Vec's
``vectors_lockf`` is trained with; the others all 1 here."""


def word_locks(wv: KeyedVectors) -> dict[str, float]:
    """``wv.vectors_lockf`` as ``{word: share}`` for the words whose share is not 1: word ``i``
    takes factor ``i % len(factors)``, as gensim reads the array (one factor: every word's)."""
    factors = np.asarray(wv.vectors_lockf, dtype=np.float64).reshape(-1)
    if not len(factors) or np.all(factors == 1):
        return {}
    shares = factors[np.arange(len(wv)) % len(factors)]
    return {word: float(share) for word, share in zip(wv.words, shares) if share != 1}


def check_unlocked(wv: KeyedVectors) -> None:
    """Refuse locked vectors (a lock factor other than 1) where wordvec trains every row
    (fastText's and Doc2Vec's)."""
    for name in LOCK_ARRAYS:
        factors = getattr(wv, name, None)
        if factors is not None and not np.all(np.asarray(factors) == 1):
            raise ConfigError(f"wordvec trains every vector: {name} other than 1 is not supported")
