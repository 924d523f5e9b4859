"""gensim's ``intersect_word2vec_format``: pretrained vectors from a word2vec file for the
words a model already has, to start its training from them."""

from __future__ import annotations

import logging
import os
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from wordvec.gensim.keyedvectors import KeyedVectors

logger = logging.getLogger(__name__)


def intersect_word2vec_format(
    keyed: KeyedVectors,
    fname: str | os.PathLike,
    lockf: float = 0.0,
    binary: bool = False,
    encoding: str = "utf8",
    unicode_errors: str = "strict",
) -> None:
    """Copy the vectors of ``fname`` (word2vec's text or binary format) into the rows of the
    words ``keyed`` has, as gensim's: no word is added, and the rows copied get the lock factor
    ``lockf`` in ``vectors_lockf``: gensim's default 0.0 keeps them as they are while the other
    words train (Word2Vec; FastText and Doc2Vec refuse locks), 1.0 trains them on. A file of
    another dimension is gensim's ValueError."""
    from wordvec.gensim.keyedvectors import KeyedVectors

    found = KeyedVectors.load_word2vec_format(fname, binary=binary, encoding=encoding,
                                              unicode_errors=unicode_errors)  # fmt: skip
    if found.vector_size != keyed.vector_size:
        raise ValueError(f"incompatible vector size {found.vector_size} in file {fname}")
    index = keyed.key_to_index
    pairs = np.array([(index[w], i) for i, w in enumerate(found.words) if w in index], np.int64)
    if len(pairs):
        rows, sources = pairs.T
        keyed.vectors[rows] = found.vectors[sources]
        factors = np.asarray(keyed.vectors_lockf)
        if len(factors) != len(keyed):  # gensim's one factor for all: one a row from here on
            factors = np.full(len(keyed), factors[0] if len(factors) else 1.0, dtype=factors.dtype)
        factors[rows] = lockf
        keyed.vectors_lockf = factors
    logger.info("merged %d vectors into %s matrix from %s", len(pairs), keyed.vectors.shape, fname)
