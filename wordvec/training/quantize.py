"""fastText's ``quantize`` of a classifier: cut its input rows (``-cutoff``), train the kept
rows again on a labelled corpus (``-retrain``), then write them product-quantized as a ``.ftz``
(:mod:`wordvec.formats.fasttext_ftz`)."""

from __future__ import annotations

import dataclasses
import os

from wordvec.corpus.sources import Corpus
from wordvec.errors import ConfigError, NotAClassifier
from wordvec.formats.fasttext_ftz import (
    QNORM,
    check_quantizable,
    input_rows,
    pruned_model,
    write_fasttext_ftz,
)
from wordvec.formats.wordvec_model import SavedModel, model_classifier, read_model
from wordvec.options import SUPERVISED
from wordvec.runtime.progress import announces_compiling


@announces_compiling("quantize")
def quantize(
    model: SavedModel | str | os.PathLike,
    path: str | os.PathLike,
    *,
    cutoff: int = 0,
    retrain: Corpus | None = None,
    qnorm: bool = QNORM,
    qout: bool = False,
    dsub: int = 2,
    epochs: int | None = None,
    alpha: float | None = None,
    threads: int | None = None,
    seed: int | None = None,
    quiet: bool = True,
) -> None:
    """Write the classifier ``model`` (a :class:`~wordvec.model.Model`, its file, or a
    supervised fastText ``.bin``, fastText's or ours) as
    fastText's ``.ftz``: fastText's ``quantize`` with ``-cutoff``, ``-retrain`` on the
    labelled corpus ``retrain`` (its ``epochs``, ``alpha`` and ``threads`` the model's unless
    given), ``-qnorm`` (on by default: :data:`~wordvec.formats.fasttext_ftz.QNORM`), ``-qout``
    and ``-dsub``; ``seed`` (the model's) seeds the k-means.

    Example::

        wordvec.quantize("clf.wv", "clf.ftz", cutoff=100_000, retrain="cooking.train",
                         qnorm=True)
    """
    if not hasattr(model, "settings"):
        model = read_classifier_model(model)
    check_quantizable(model, cutoff, dsub, seed)
    options = dict(qnorm=qnorm, qout=qout, dsub=dsub, seed=seed)
    if retrain is None:
        write_fasttext_ftz(model, path, cutoff=cutoff, **options)
        return
    rows = input_rows(model)
    if not 0 < cutoff < rows:
        raise ConfigError(f"--retrain trains the rows --cutoff keeps: give a --cutoff below {rows}")
    model, pruned = pruned_model(model, cutoff)
    model = _retrained(model, pruned, retrain, epochs, alpha, threads, quiet)
    write_fasttext_ftz(model, path, pruned=pruned, **options)


def is_classifier(path: str | os.PathLike) -> bool:
    """Whether ``path`` is a classifier (wordvec's or fastText's ``.bin``), which quantizes to
    a ``.ftz``, rather than word vectors (:mod:`wordvec.compression`): a wordvec file says so
    in its header (read alone: the reader that follows checks the file whole, once)."""
    from wordvec.formats import detect_format, load_classifier
    from wordvec.formats.container import read_container

    if detect_format(path) == "model":
        meta, _ = read_container(path)
        settings = meta.get("settings") if isinstance(meta, dict) else None
        return isinstance(settings, dict) and settings.get("model") == SUPERVISED
    try:
        load_classifier(path)
    except NotAClassifier:
        return False
    return True


def read_classifier_model(path: str | os.PathLike) -> SavedModel:
    """The classifier of a wordvec model file or of a supervised fastText ``.bin``."""
    from wordvec.formats import detect_format
    from wordvec.formats.fasttext_bin import read_fasttext_model

    if detect_format(path) == "fasttext-bin":
        return read_fasttext_model(path)
    return read_model(path)


def _retrained(model: SavedModel, pruned, corpus, epochs, alpha, threads, quiet) -> SavedModel:
    """``model`` (cut) with its rows trained again on ``corpus`` (fastText's ``-retrain``)."""
    from wordvec.training.supervised import retrain_supervised

    classifier = model_classifier(model)
    dictionary = dataclasses.replace(classifier.dictionary, pruned=pruned)
    overrides = {"epochs": epochs, "alpha": alpha, "threads": threads}
    settings = {**model.settings, **{k: v for k, v in overrides.items() if v is not None}}
    if alpha is not None:  # its floor follows it
        settings.pop("min_alpha", None)
    weights = (classifier.word_rows, classifier.ngrams, classifier.w_out)
    word_rows, ngrams, w_out = retrain_supervised(
        dictionary, settings, weights, corpus, quiet=quiet
    )
    arrays = {**model.arrays, "word_rows": word_rows, "w_out": w_out}
    if ngrams is not None:
        arrays["ngrams"] = ngrams
    return SavedModel(model.vocab, word_rows, model.settings, arrays)
