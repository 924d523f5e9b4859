"""gensim's saved models (read as data by :mod:`wordvec.gensim.pickles`) turned into the face's
classes: the attributes each gensim version kept, where it kept them.

gensim moved its attributes between versions: 1.x and 2.x keep the vocabulary on ``wv``
(``index2word``, ``syn0``, ``vocab`` of ``Vocab(count, index)``) and the output layer on the
model; 3.x moves the output to ``trainables`` and the vocabulary settings to ``vocabulary``;
4.x has ``index_to_key``, ``vectors``, ``expandos['count']`` and everything on the model again.
Each reader below looks in those places in turn.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from wordvec.errors import FormatError
from wordvec.gensim.pickles import Placeholder, Record, read_saved

__all__ = ["gensim_arguments", "keyed_parts", "read_saved", "scorer_name"]


def keyed_parts(keyed: Record, name: str) -> tuple[list[str], np.ndarray, np.ndarray]:
    """(keys, vectors, counts) of one of gensim's KeyedVectors (of any version; a fastText
    one's whole-word rows are ``vectors_vocab``); ``name`` names the file in errors."""
    words = keyed.get("index_to_key", "index2word", "index2entity", "offset2doctag")
    vectors = keyed.get("vectors_vocab", "vectors", "syn0", "vectors_docs")
    if not isinstance(words, list) or not isinstance(vectors, np.ndarray) or vectors.ndim != 2:
        raise FormatError(f"{name}: its vectors or their keys are missing or damaged")
    if len(words) != len(vectors):
        raise FormatError(f"{name}: {len(words)} keys for {len(vectors)} vectors")
    words = [w.decode("utf-8", "replace") if isinstance(w, bytes) else w for w in words]
    counts = (keyed.get("expandos") or {}).get("count")
    if counts is None:
        vocab = keyed.get("vocab") or {}
        counts = [getattr(vocab.get(word), "count", 0) for word in words]
    counts = np.asarray(counts, dtype=np.int64)
    if len(counts) != len(words):
        counts = np.zeros(len(words), np.int64)
    return words, np.asarray(vectors, dtype=np.float32), counts


def gensim_arguments(model: Record) -> dict[str, Any]:
    """The face's constructor arguments for a saved gensim model (of any version)."""

    def found(*names: str, default: Any = None) -> Any:
        value = model.get(*names, default=default)
        return value.item() if isinstance(value, np.generic) else value

    arguments = {
        "vector_size": found("vector_size", "layer1_size", "trainables.layer1_size"),
        "window": found("window", default=5),
        "sg": int(found("sg", default=0)),
        "hs": int(found("hs", default=0)),
        "negative": int(found("negative", default=5)),
        "ns_exponent": found("ns_exponent", "vocabulary.ns_exponent", default=0.75),
        "cbow_mean": int(found("cbow_mean", default=1)),
        "alpha": found("alpha", default=0.025),
        "min_alpha": found("min_alpha", default=0.0001),
        "epochs": int(found("epochs", "iter", default=5)),
        "sample": found("sample", "vocabulary.sample", default=1e-3),
        "min_count": int(found("min_count", "vocabulary.min_count", default=5)),
        "seed": int(found("seed", "trainables.seed", default=1)),
        "workers": int(found("workers", default=3)),
        "batch_words": int(found("batch_words", default=10000)),
    }
    if not isinstance(arguments["vector_size"], int) or arguments["vector_size"] < 1:
        raise FormatError("the model's vector_size is missing or damaged")
    return arguments


def scorer_name(scoring: Any) -> str:
    """A Phrases model's ``scoring`` as the face names it: gensim's two scorers by name; a
    function of the script's own cannot come along (wordvec runs no code from the file)."""
    if isinstance(scoring, str):
        return scoring
    if isinstance(scoring, Placeholder):
        return {"original_scorer": "default", "npmi_scorer": "npmi"}.get(
            scoring.name.rsplit(".", 1)[-1], scoring.name
        )
    raise FormatError("the model's scoring is a function of its own: give it again to Phrases")
