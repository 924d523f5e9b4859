"""wordvec's model file: the vocabulary with counts, the word vectors, the settings of the run,
and the other weights (output weights, n-gram buckets) under their names.

Written with :mod:`wordvec.formats.container` (JSON header + raw arrays, no pickle) and checked
whole when read, before any query or compiled code sees it. :class:`wordvec.model.Model` is
the object users hold; this module is its file.
"""

from __future__ import annotations

import os
from typing import Any, NamedTuple

import numpy as np

from wordvec.bpe.files import units_from_bytes
from wordvec.corpus.labelled import EOS, LabelledVocabulary
from wordvec.corpus.subwords import check_subword_settings
from wordvec.corpus.vocab import Vocabulary
from wordvec.errors import ConfigError, FormatError, NotAClassifier
from wordvec.formats.compressed import read_compressed
from wordvec.formats.container import read_container, write_container
from wordvec.formats.kept_rows import SparseRows, read_sparse, sparse_arrays
from wordvec.formats.names import COUNTS_FORMAT, MODEL_FORMAT
from wordvec.options import DOC2VEC, MAX_SETTING, OPTION, SUPERVISED, ReadingOptions
from wordvec.query.classifier import LOSSES, Classifier
from wordvec.query.subword_vectors import SubwordVectors
from wordvec.query.unit_vectors import UnitVectors
from wordvec.query.vectors import Vectors


class SavedModel(NamedTuple):
    """What a model file holds (and what :class:`wordvec.model.Model` has)."""

    vocab: Vocabulary
    vectors: np.ndarray
    settings: dict[str, Any]
    arrays: dict[str, np.ndarray]


def write_model(model: SavedModel, path: str | os.PathLike) -> None:
    """Write ``model`` (a :class:`SavedModel` or a :class:`wordvec.model.Model`) atomically:
    sparse n-gram buckets (:class:`~wordvec.formats.kept_rows.SparseRows`, as training makes
    them) as the rows stored; a whole bucket matrix with holes, as those no word reads are
    zero."""
    arrays = {**model.vocab.to_arrays(), "vectors": model.vectors}
    meta = {"format": MODEL_FORMAT, "settings": model.settings}
    for name, array in model.arrays.items():
        if isinstance(array, SparseRows):
            entry, stored = sparse_arrays(name, array)
            meta.setdefault("sparse", {})[name] = entry
            arrays.update(stored)
        else:
            arrays[name] = array
    write_container(path, meta, arrays, holes=("ngrams",))


LAZY_ROWS = ("ngrams", "word_rows")
"""A compressed model's matrices that stay codes, decoded as rows are read (an unseen word's
n-grams; fastText's input rows, which only an export and the fastText face read); queries
and inference read the others whole, decoded as the file is opened."""


def read_model(path: str | os.PathLike, *, mmap: bool = True) -> SavedModel:
    """Read and check a model file written by :func:`write_model`."""
    meta, arrays = read_container(path, mmap=mmap)
    name = os.path.basename(path)
    if isinstance(meta, dict) and "compressed" in meta:
        for key, rows in read_compressed(name, meta["compressed"], arrays).items():
            arrays[key] = rows if key in LAZY_ROWS else np.asarray(rows)
    if isinstance(meta, dict) and "sparse" in meta:
        arrays.update(read_sparse(name, meta["sparse"], arrays))
    if meta.get("format") == COUNTS_FORMAT:
        raise FormatError(
            f"{name} holds co-occurrence counts, not vectors: train on it with "
            "'wordvec train --model glove --cooccur'"
        )
    if meta.get("format") != MODEL_FORMAT or "vectors" not in arrays:
        raise FormatError(f"{name} is corrupt (missing words, counts or vectors)")
    vocab = Vocabulary.from_arrays(arrays, name)
    vectors = arrays.pop("vectors")
    if len(vocab) != len(vectors) or vectors.ndim != 2 or not vectors.shape[1]:
        raise FormatError(
            f"{name} is corrupt ({len(vocab)} words, vectors of shape {tuple(vectors.shape)})"
        )
    settings = meta.get("settings", {})
    if not isinstance(settings, dict):
        raise FormatError(f"{name} is corrupt (settings)")
    if settings.get("model") == SUPERVISED:
        _check_classifier(name, settings, arrays, vocab, vectors.shape)
        return SavedModel(vocab, vectors, settings, arrays)
    if "labels" in arrays or "label_counts" in arrays:
        raise FormatError(
            f"{name} is corrupt (a classifier's labels in a --model {settings.get('model')} model)"
        )
    w_out = arrays.get("w_out")
    most_rows = 2 * len(vocab) - 1 if settings.get("loss") == "hs+ns" else len(vocab)
    width = _output_width(name, settings, arrays, vectors.shape[1])
    if w_out is not None and (
        w_out.ndim != 2 or w_out.shape[1] != width or w_out.shape[0] > most_rows
    ):
        raise FormatError(f"{name} is corrupt (output weights of shape {tuple(w_out.shape)})")
    if "ngrams" in arrays:
        _check_subwords(name, settings, arrays, vectors.shape)
    if "units" in arrays:
        units_from_bytes(bytes(arrays["units"]), f"{name}'s BPE units")  # checked whole
    _check_documents(name, settings, arrays, vocab, vectors.shape)
    return SavedModel(vocab, vectors, settings, arrays)


def _output_width(name: str, settings: dict, arrays: dict, dim: int) -> int:
    """The output layer's width: ``dim``, or a doc2vec model's over the concatenated window,
    ``(1 + 2 * window) * dim``, which has the pad row too (``pad_vector``) and no other
    model has."""
    concat = settings.get("model") == DOC2VEC and settings.get("context") == "concat"
    pad = arrays.get("pad_vector")
    if (pad is not None) != concat:
        raise FormatError(f"{name} is corrupt (a pad vector and --context "
                          f"{settings.get('context')} do not go together)")  # fmt: skip
    if not concat:
        return dim
    window = settings.get("window")
    if type(window) is not int or window < 1:  # the width checked against w_out's bounds it
        raise FormatError(f"{name} is corrupt (window {window!r})")
    if pad.ndim != 2 or pad.shape != (1, dim) or not np.isfinite(pad).all():
        raise FormatError(f"{name} is corrupt (pad vector of shape {tuple(pad.shape)})")
    return (1 + 2 * window) * dim


INFERENCE_SETTINGS = ("arch", "loss", "epochs", "alpha", "window", "negative", "ns_exponent",
                      "sample", "max_sentence_length", "seed", "lowercase")  # fmt: skip
"""The settings a doc2vec model's inference reads, checked as the option table checks them."""


def _check_documents(
    name: str, settings: dict, arrays: dict, vocab: Vocabulary, shape: tuple[int, int]
) -> None:
    """A doc2vec model has document vectors (at least one: a corpus has a line) of its
    dimensions and output weights, which inference reads; no other model has document
    vectors."""
    docs = arrays.get("doc_vectors")
    if (docs is not None) != (settings.get("model") == DOC2VEC):
        raise FormatError(f"{name} is corrupt (document vectors and --model "
                          f"{settings.get('model')} do not go together)")  # fmt: skip
    if docs is None:
        return
    if docs.ndim != 2 or not len(docs) or docs.shape[1] != shape[1] or "w_out" not in arrays:
        raise FormatError(f"{name} is corrupt (document vectors of shape {tuple(docs.shape)})")
    try:
        for option in INFERENCE_SETTINGS:
            OPTION[option].check(settings.get(option))
        if settings.get("context") is not None:  # files from before --context have none: mean
            OPTION["context"].check(settings["context"])
        if settings.get("min_alpha") is not None:  # inference's last learning rate
            OPTION["min_alpha"].check(settings["min_alpha"])
    except ConfigError as why:
        raise FormatError(f"{name} is corrupt (doc2vec settings: {why})") from None
    loss = settings["loss"]
    if settings["arch"] not in ("dbow", "dm") or loss not in ("ns", "hs", "hs+ns"):
        raise FormatError(f"{name} is corrupt (doc2vec settings)")
    words = len(vocab)  # inference's kernel reads the rows the loss's tables name: all there
    rows = {"ns": words, "hs": words - 1, "hs+ns": 2 * words - 1}[loss]
    if arrays["w_out"].shape[0] < rows or (loss != "ns" and words < 2):
        raise FormatError(f"{name} is corrupt (output weights of shape "
                          f"{tuple(arrays['w_out'].shape)})")  # fmt: skip


def model_vectors(model: SavedModel) -> Vectors:
    """The model's word vectors with their queries; a subword model's also answer for words
    outside the vocabulary."""
    vocab = model.vocab
    if "units" in model.arrays:
        units = units_from_bytes(bytes(model.arrays["units"]), "the model's BPE units")
        return UnitVectors(vocab.words, model.vectors, vocab.counts, units=units)
    if "ngrams" in model.arrays and int(model.settings.get("maxn", 0)) > 0:
        return SubwordVectors(
            vocab.words,
            model.vectors,
            vocab.counts,
            ngrams=model.arrays["ngrams"],
            minn=int(model.settings["minn"]),
            maxn=int(model.settings["maxn"]),
        )
    return Vectors(vocab.words, model.vectors, vocab.counts)


def model_classifier(model: SavedModel, name: str = "the model") -> Classifier:
    """A supervised model's classifier (:class:`FormatError` for another kind of model);
    ``name``, the file's, names it in errors."""
    settings, arrays = model.settings, model.arrays
    if settings.get("model") != SUPERVISED:
        raise NotAClassifier(
            f"a --model {settings.get('model')} model holds word vectors, not a classifier: "
            "train one with --model supervised"
        )
    labels = label_vocabulary(arrays, "the model")
    dictionary = LabelledVocabulary(
        model.vocab,
        labels,
        prefix=settings["label"],
        minn=int(settings["minn"]),
        maxn=int(settings["maxn"]),
        bucket=int(settings["bucket"]) if "ngrams" in arrays else 0,
        word_ngrams=int(settings["word_ngrams"]),
    )
    layer = (arrays["hidden_weights"], arrays["hidden_bias"]) if settings.get("hidden") else None
    return Classifier(
        dictionary,
        arrays.get("word_rows", model.vectors),
        arrays.get("ngrams"),
        arrays["w_out"],
        settings["loss"],
        layer=layer,
        max_pool=settings.get("pooling") == "max",
        name=name,
        reading=ReadingOptions.of(
            **{name: settings.get(name) for name in ("lowercase", "convert", "tokenizer")}
        ),
    )


def check_fasttext_compatible(model: SavedModel) -> None:
    """Raise :class:`FormatError` for a classifier fastText's ``.bin`` cannot hold: one with a
    hidden layer or max pooling (fastText's model is the mean of the rows, then the output)."""
    settings = model.settings
    if settings.get("hidden") or settings.get("pooling", "mean") != "mean":
        raise FormatError(FASTTEXT_CANNOT_HOLD)


FASTTEXT_CANNOT_HOLD = (
    "fastText's .bin and .ftz hold fastText's classifier (the mean of the rows, then the output "
    "layer): this one has --hidden or --pooling max, which fastText would drop or misread; keep "
    "it in wordvec's format (-o NAME.wv)"
)
"""Why a classifier with a hidden layer or max pooling is not written in fastText's formats."""


def label_vocabulary(arrays: dict, name: str) -> Vocabulary:
    """A classifier's labels and their counts, as its model file stores them."""
    return Vocabulary.from_arrays(
        {"words": arrays["labels"], "counts": arrays["label_counts"]}, name
    )


def _check_classifier(
    name: str, settings: dict, arrays: dict, vocab: Vocabulary, shape: tuple[int, int]
) -> None:
    """A supervised model's settings, labels and weights must fit one another: prediction
    indexes the rows by them."""
    try:
        minn, maxn, bucket, word_ngrams = (
            int(settings[key]) for key in ("minn", "maxn", "bucket", "word_ngrams")
        )
        loss, prefix = settings["loss"], settings["label"]
    except (KeyError, TypeError, ValueError):
        raise FormatError(f"{name} is corrupt (classifier settings)") from None
    if "labels" not in arrays or "label_counts" not in arrays or "w_out" not in arrays:
        raise FormatError(f"{name} is corrupt (no labels or output weights)")
    labels = label_vocabulary(arrays, name)
    if (
        loss not in LOSSES
        or not isinstance(prefix, str)
        or not prefix
        or not 1 <= word_ngrams <= MAX_SETTING
    ):
        raise FormatError(f"{name} is corrupt (classifier settings)")
    if EOS not in vocab.index or not len(labels):
        raise FormatError(f"{name} is corrupt (no end-of-line word or no labels)")
    units = _check_hidden_layer(name, settings, arrays, shape[1])
    w_out = arrays["w_out"]
    if w_out.ndim != 2 or w_out.shape != (len(labels) - (loss == "hs"), units or shape[1]):
        raise FormatError(f"{name} is corrupt (output weights of shape {tuple(w_out.shape)})")
    if loss == "hs" and (len(labels) < 2 or np.any(np.diff(labels.counts) > 0)):
        raise FormatError(f"{name} is corrupt (label counts)")
    ngrams, word_rows = arrays.get("ngrams"), arrays.get("word_rows")
    if (ngrams is None) != (maxn == 0 and word_ngrams == 1) or (
        ngrams is not None and (ngrams.ndim != 2 or ngrams.shape != (bucket, shape[1]))
    ):
        raise FormatError(f"{name} is corrupt (n-gram rows do not fit the settings)")
    if (word_rows is None) != (maxn == 0) or (word_rows is not None and word_rows.shape != shape):
        raise FormatError(f"{name} is corrupt (word rows do not fit the vectors)")
    check_subword_settings(name, minn, maxn, bucket, bucket)


def _check_hidden_layer(name: str, settings: dict, arrays: dict, dim: int) -> int:
    """A classifier's pooling and hidden layer (``--hidden``, ``--pooling``) must fit its
    settings and be finite; returns its units (0: none)."""
    units, pooling = settings.get("hidden") or 0, settings.get("pooling") or "mean"
    weights, bias = arrays.get("hidden_weights"), arrays.get("hidden_bias")
    if not isinstance(units, int) or units < 0 or pooling not in ("mean", "max"):
        raise FormatError(f"{name} is corrupt (hidden layer settings)")
    if (weights is None) != (units == 0) or (bias is None) != (units == 0):
        raise FormatError(f"{name} is corrupt (hidden layer weights do not fit the settings)")
    if units and (weights.shape != (units, dim) or bias.shape != (units,)):
        raise FormatError(f"{name} is corrupt (hidden layer of shape {tuple(weights.shape)})")
    if units and not (np.isfinite(weights).all() and np.isfinite(bias).all()):
        raise FormatError(f"{name}: the hidden layer's weights are not finite")
    return units


def _check_subwords(name: str, settings: dict, arrays: dict, shape: tuple[int, int]) -> None:
    """A subword model's settings and n-gram arrays must agree: queries for unseen words and
    ``export --format fasttext-bin`` trust them."""
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
