"""Training entry point: read the corpus once, then hand it to the chosen algorithm.

Example::

    >>> import wordvec
    >>> model = wordvec.train("corpora/wiki-sample.txt.gz", model="sg", epochs=5, seed=1)
    >>> model.wv.most_similar("king", k=5)
    >>> model.save("sample.wv")
"""

from __future__ import annotations

import dataclasses
import importlib
import math
import os
from collections.abc import Iterable, Mapping, Sequence

from wordvec.corpus.python_text import as_corpus
from wordvec.corpus.reading import read_corpus
from wordvec.corpus.sources import Corpus
from wordvec.errors import ConfigError, FormatError, TrainingInterrupted
from wordvec.kernels.specialize import watch_compiling
from wordvec.model import Model
from wordvec.options import (
    COUNT_MODELS,
    DOC2VEC,
    KEPT_BY_INIT,
    OPTION,
    READING,
    SUPERVISED,
)
from wordvec.peer_names import PYTHON_PEER_NAMES, peer_answer
from wordvec.runtime.progress import note
from wordvec.runtime.scratch import scratch_folder
from wordvec.training.config import TrainConfig, concat_width, concatenates
from wordvec.training.runner import EpochCallback, epoch_callbacks
from wordvec.training.weights import check_init_dim

ON_WORD_IDS = {
    "sg": "windows:train_word2vec",
    "cbow": "windows:train_word2vec",
    "fasttext": "fasttext:train_fasttext",
    "doc2vec": "doc2vec:train_doc2vec",
}
"""The model registry of the models trained on the corpus as word ids: each one's trainer
(``module:function`` of this package, imported when used), called as
``trainer(config, vocab, encoded, init=model or None, quiet=...)``. The count models train
on co-occurrence counts (:func:`_train_on_counts`), the classifier on labelled lines."""


def train(
    corpus: Corpus | Iterable | None = None,
    *,
    quiet: bool = False,
    tmp_dir: str | os.PathLike | None = None,
    callbacks: Sequence[EpochCallback] = (),
    document_tags: Iterable[Sequence[int]] | None = None,
    word_locks: Mapping[str, float] | None = None,
    **options,
) -> Model:
    """Train word vectors (or a classifier) on ``corpus``; options are TrainConfig's fields.

    ``corpus`` is a path (plain, .gz or .bz2; a folder, a URL, ``-``) or a list of them, or
    Python text read once as it comes: a file object, an iterator of lines, or an iterable of
    token lists (gensim's ``sentences``). It is encoded once to a temporary file of word ids
    (4 bytes per token) in ``tmp_dir`` (the system's temporary directory by default), removed
    afterwards. GloVe and PPMI-SVD count co-occurrences first, or read them from ``cooccur=``
    (then ``corpus`` may be None). ``init=`` continues a model: a path, or a :class:`Model`.
    Each of ``callbacks`` is called after every epoch with an
    :class:`~wordvec.training.runner.EpochEnd` (epoch, loss, learning rate, words/s).
    Ctrl-C during the epochs raises :class:`~wordvec.errors.TrainingInterrupted`, a
    KeyboardInterrupt whose ``model`` is the model trained so far.

    ``model="doc2vec"`` trains a vector per line; ``document_tags`` (a sequence of document
    numbers for each line, gensim's tags numbered from 0) says which document(s) each line is
    instead: several a line, or one document over several lines. ``doc_vectors`` then has a
    row per number.

    ``word_locks`` (sg and cbow): ``{word: share}``, the share of each step a word's vector
    takes (gensim's ``vectors_lockf``: 0 keeps a pretrained or continued vector as it is).
    """
    _answer_peer_names(options)
    corpus = as_corpus(corpus)
    base = None
    init = options.get("init")
    if init is not None:
        base = init if isinstance(init, Model) else Model.load(init)
        name = "the model given as init" if isinstance(init, Model) else os.path.basename(init)
        options = _as_initial_model({**options, "init": name}, base.settings)
        _check_continuable(base, name)
    try:
        config = TrainConfig(**options).resolved()
    except TypeError as exc:
        raise ConfigError(str(exc)) from None
    if config.init_vectors is not None:
        check_init_dim(config.init_vectors, None, config.dim)
    if config.autotune_validation is not None:
        return _autotuned(corpus, options, config, quiet=quiet, tmp_dir=tmp_dir)
    if config.autotune_model_size is not None:
        raise ConfigError("--autotune-model-size sizes autotune's trials: give "
                          "--autotune-validation too")  # fmt: skip
    extra = {}
    if document_tags is not None:
        if config.model != DOC2VEC or config.bpe is not None:
            raise ConfigError("document_tags says which documents the lines of a --model "
                              "doc2vec corpus are (without --bpe)")  # fmt: skip
        from wordvec.training.doc2vec import DocumentTags

        extra["document_tags"] = DocumentTags.of_lines(document_tags)
    if word_locks is not None:
        extra["word_locks"] = _checked_locks(word_locks, config)
    with epoch_callbacks(callbacks), watch_compiling(config.model, quiet=quiet):
        model = _train(corpus, config, base, options.get("threads"), quiet=quiet, tmp_dir=tmp_dir,
                       **extra)  # fmt: skip
    report = model.report
    if getattr(report, "interrupted", False):
        raise TrainingInterrupted(model, len(report.epoch_loss), report.epochs)
    return model


def _checked_locks(word_locks: Mapping[str, float], config: TrainConfig) -> dict[str, float]:
    """``word_locks`` as ``{word: share}``, each share finite; only sg and cbow take them."""
    if config.model not in ("sg", "cbow") or config.bpe is not None:
        raise ConfigError("word_locks lock words' vectors of --model sg or cbow (without --bpe)")
    locks = {str(word): float(share) for word, share in dict(word_locks).items()}
    if not all(math.isfinite(share) for share in locks.values()):
        raise ConfigError("word_locks are finite shares of a step (0: locked, 1: trained)")
    return locks


def _autotuned(corpus, options: dict, config: TrainConfig, *, quiet: bool, tmp_dir) -> Model:
    """The best classifier of fastText's autotune search (:mod:`wordvec.training.autotune`)."""
    from wordvec.training.autotune import autotune

    if not isinstance(corpus, (str, os.PathLike, list)):
        raise ConfigError("autotune trains many times: give the corpus as a file")
    trial = {name: value for name, value in options.items() if not name.startswith("autotune_")}
    return autotune(train, corpus, trial, validation=config.autotune_validation,
                    duration=config.autotune_duration, metric=config.autotune_metric,
                    predictions=config.autotune_predictions, quiet=quiet,
                    model_size=config.autotune_model_size, tmp_dir=tmp_dir)  # fmt: skip


def _answer_peer_names(options: dict) -> None:
    """A keyword that gensim (or word2vec, fastText) users type is answered with wordvec's
    name for it, as the CLI answers their option names."""
    for name in options:
        if name in PYTHON_PEER_NAMES:
            raise ConfigError(peer_answer(name, PYTHON_PEER_NAMES))


def _train(corpus, config: TrainConfig, base: Model | None, threads_asked, *, quiet, tmp_dir,
           **extra):  # fmt: skip
    """Read ``corpus`` and train the model ``config`` names on it (continuing ``base``);
    ``extra``: keywords for its trainer (doc2vec's ``document_tags``)."""
    one_thread = config.loss == "softmax" and config.model != SUPERVISED
    if one_thread and threads_asked != 1 and not quiet:
        note("note: --loss softmax trains on one thread")
    if config.bpe is not None:
        return _train_on_units(corpus, config, base, quiet=quiet, tmp_dir=tmp_dir)
    if config.model in COUNT_MODELS:
        return _train_on_counts(corpus, config, quiet=quiet, tmp_dir=tmp_dir)
    if corpus is None:
        raise ConfigError(f"--model {config.model} needs a corpus")
    if config.model == SUPERVISED:
        from wordvec.training.supervised import train_supervised

        return train_supervised(corpus, config, quiet=quiet, tmp_dir=tmp_dir)
    with scratch_folder(tmp_dir) as workdir:
        reading = config.reading
        if config.phrases:
            corpus, reading = _with_phrases(corpus, config, workdir, quiet=quiet)
        vocab, encoded = read_corpus(
            corpus, workdir, reading, base=base and base.vocab, quiet=quiet
        )
        module, trainer = ON_WORD_IDS[config.model].split(":")
        train_on = getattr(importlib.import_module(f"wordvec.training.{module}"), trainer)
        model = train_on(config, vocab, encoded, init=base, quiet=quiet, **extra)
        model.report.sentences = encoded.length - encoded.words  # a marker ends each line
        model.report.tokens = encoded.tokens
        return model


def _with_phrases(corpus, config: TrainConfig, workdir: str, *, quiet: bool):
    """``corpus`` with ``config.phrases`` passes of phrases joined (a text in ``workdir``), and
    the options to read it with: already lowercased, converted and split into tokens."""
    from wordvec.cooccur.phrases import find_phrases

    phrased = os.path.join(workdir, "phrased.txt")
    reading = config.reading
    find_phrases(corpus, phrased, passes=config.phrases, threads=config.threads, quiet=quiet,
                 lowercase=reading.lowercase, convert=reading.convert,
                 tokenizer=reading.tokenizer, encoding_errors=reading.encoding_errors,
                 vocab_memory=reading.vocab_memory, tmp_dir=workdir)  # fmt: skip
    as_read = dataclasses.replace(reading, lowercase=False, convert=None, tokenizer="whitespace",
                                  encoding_errors="strict")  # fmt: skip
    return phrased, as_read


def _train_on_units(corpus, config: TrainConfig, base, *, quiet: bool, tmp_dir) -> Model:
    """Train on ``corpus`` segmented into the units of ``config.bpe`` (a text in a scratch
    folder, as subword-nmt writes it), and keep the units in the model, so that any word's
    vector is the mean of its units' (:class:`~wordvec.query.unit_vectors.UnitVectors`)."""
    from wordvec.bpe import load_units, segment_corpus
    from wordvec.bpe.files import units_bytes

    if corpus is None:
        raise ConfigError("--bpe segments a corpus: give one (not --cooccur)")
    if base is not None:
        raise ConfigError("--bpe trains a new model; --init continues one as it was trained")
    units = load_units(config.bpe)
    with scratch_folder(tmp_dir) as workdir:
        segmented = os.path.join(workdir, "units.txt")
        done = segment_corpus(units, corpus, segmented, threads=config.threads, quiet=quiet,
                              tmp_dir=workdir, reading=config.reading)  # fmt: skip
        if not quiet:
            note(f"BPE units: {done.tokens:,} words ({done.words:,} distinct) segmented into "
                 f"{done.units:,} units of {len(units.vocab):,}")  # fmt: skip
        as_read = dataclasses.replace(config, bpe=None, lowercase=False, convert=None,
                                      tokenizer="whitespace", encoding_errors="strict")  # fmt: skip
        model = _train(segmented, as_read, None, config.threads, quiet=quiet, tmp_dir=workdir)
    model.settings.update({name: getattr(config, name) for name in ("bpe", *READING)})
    model.arrays["units"] = units_bytes(units)
    return model


def _as_initial_model(options: dict, settings: dict) -> dict:
    """``options`` with what ``--init``'s model keeps (its kind, loss, dimensions, subwords)
    filled in from its ``settings``; a different value given is a :class:`ConfigError`."""
    continued = OPTION["init"].models
    if settings.get("model") not in continued:
        raise ConfigError(
            f"--init continues {', '.join(continued)} models; {options['init']} was trained "
            f"with --model {settings.get('model')}"
        )
    options = dict(options)
    concat = concatenates(settings.get("model"), settings.get("context"))
    for name in (*KEPT_BY_INIT, "window") if concat else KEPT_BY_INIT:
        if name not in settings or OPTION[name].does_not_apply({**settings, "cooccur": None}):
            continue
        given = options.get(name)
        if given is None:
            options[name] = settings[name]
        elif given != settings[name]:
            raise ConfigError(
                f"--{name.replace('_', '-')} {given} differs from {options['init']}'s "
                f"{settings[name]}: --init continues a model as it was trained"
            )
    return options


def _check_continuable(model: Model, name: str) -> None:
    """Raise :class:`FormatError` unless ``model``'s arrays are what its settings say, as
    continuing it copies them row by row (a hand-edited file would fail inside numpy)."""
    settings, arrays = model.settings, model.arrays
    if "quantized" in settings:
        raise ConfigError(
            f"{name} is compressed (wordvec quantize) for queries: continue the model it came from"
        )
    dim = model.vectors.shape[1]
    expected = {}
    width = dim
    if concatenates(settings.get("model"), settings.get("context")):
        expected["pad_vector"] = (1, dim)
        width = concat_width(int(settings.get("window") or 0), dim)
    if settings.get("loss") in ("ns", "softmax"):
        expected["w_out"] = (len(model.vocab), width)
    if settings.get("loss") == "hs+ns":  # the words' rows, then the Huffman tree's
        expected["w_out"] = (2 * len(model.vocab) - 1, width)
    if settings.get("model") == "fasttext":
        expected["word_rows"] = (len(model.vocab), dim)
        if settings.get("maxn"):
            expected["ngrams"] = (settings.get("bucket"), dim)
    wrong = [
        array
        for array, shape in expected.items()
        if array not in arrays or tuple(arrays[array].shape) != shape
    ]
    if settings.get("dim") != dim or wrong:
        what = ", ".join(wrong) or f"dim {settings.get('dim')} for vectors of {dim}"
        raise FormatError(f"{name} cannot be continued: it is corrupt ({what})")


def _train_on_counts(corpus, config: TrainConfig, *, quiet: bool, tmp_dir) -> Model:
    """GloVe or PPMI-SVD on counts read from ``config.cooccur`` or counted from ``corpus``."""
    from wordvec.cooccur.counting import count_cooccurrences
    from wordvec.cooccur.counts import Cooccurrences

    with scratch_folder(tmp_dir) as workdir:
        if config.cooccur is not None:
            counts = Cooccurrences.load(config.cooccur)
        elif corpus is None:
            raise ConfigError(f"--model {config.model} needs a corpus or --cooccur COUNTS")
        else:
            counts = count_cooccurrences(
                corpus,
                os.path.join(workdir, "counts.cooc"),
                quiet=quiet,
                tmp_dir=workdir,
                **dataclasses.asdict(config.counting),
            )
        if not quiet:
            note(f"co-occurrences: {counts.nnz:,} nonzero pairs of {len(counts.vocab):,} words")
        if config.model == "glove":
            from wordvec.training.glove import train_glove

            return train_glove(config, counts, quiet=quiet)
        from wordvec.training.ppmi_svd import train_ppmi_svd

        return train_ppmi_svd(config, counts, quiet=quiet)
