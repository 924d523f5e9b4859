"""gensim 4's ``Word2Vec``: its constructor, defaults, methods and attributes, trained by
wordvec's reader and kernels.

Every ``train`` is one :func:`wordvec.train` call: the one-call constructor hands it the corpus
at once (one read, as ``wordvec train``); ``build_vocab`` counts with wordvec's reader, and each
later ``train`` continues the model as it stands (``init=``: its vectors, its output layer), so
a two-step script, ``build_vocab(update=True)`` and repeated ``train`` calls all run on the same
path. What gensim keeps per word (the vocabulary order, the counts) is this object's: words a
``train`` corpus adds that ``build_vocab`` did not are left out, as gensim leaves them out.

Differences from gensim, each refused with an error rather than ignored: no pickles: ``save``
writes wordvec's model file. ``cbow_mean=0`` sums the context as gensim's (wordvec's
``--context sum``).
``workers`` threads train, but never more than the cores this process may use: wordvec's
threads are all compute, and more of them than cores only contend (gensim's ``workers=3`` on
two cores: 15% slower, measured).
"""

from __future__ import annotations

import inspect
import logging
import os
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from wordvec.corpus.vocab import Vocabulary
from wordvec.errors import ConfigError, FormatError, VocabularyError
from wordvec.formats.wordvec_model import write_model
from wordvec.gensim.callbacks import CallbackAny2Vec, GensimHooks
from wordvec.gensim.corpora import (
    MAX_WORDS_IN_BATCH,
    LineSentence,
    PathLineSentences,
    Text8Corpus,
    sentence_length,
    training_source,
)
from wordvec.gensim.keyedvectors import KeyedVectors, load_arrays
from wordvec.gensim.locks import word_locks
from wordvec.gensim.pickles import Record, is_pickle
from wordvec.gensim.saved import gensim_arguments, keyed_parts, read_saved
from wordvec.gensim.scoring import score_sentences
from wordvec.gensim.vocabulary import VocabularySteps
from wordvec.gensim.vocabulary import check_corpus as _check_corpus
from wordvec.kernels.specialize import watch_compiling
from wordvec.model import Model
from wordvec.runtime.parallel import available_cores
from wordvec.training import train as wordvec_train

__all__ = ["CallbackAny2Vec", "LineSentence", "PathLineSentences", "Text8Corpus", "Word2Vec"]

FAST_VERSION = 0
"""gensim's flag of its compiled training routines, which scripts check (``FAST_VERSION > -1``;
-1: none, pure Python). wordvec's kernels are always compiled; 0 as gensim's usual build."""

_SAVED_STATE = ("corpus_count", "corpus_total_words", "train_count", "min_alpha_yet_reached")
"""What a saved model keeps besides its constructor's arguments."""
_LOADERS = {
    "sg": "Word2Vec.load", "cbow": "Word2Vec.load", "fasttext": "FastText.load",
    "doc2vec": "Doc2Vec.load", "supervised": "wordvec.fasttext.load_model",
}  # fmt: skip
"""The face's call that loads a model file of each ``wordvec train --model``."""
_GENSIM_LOADERS = {
    "Word2Vec": "Word2Vec.load", "FastText": "FastText.load", "Doc2Vec": "Doc2Vec.load",
    "Phrases": "Phrases.load", "Phraser": "FrozenPhrases.load",
    "FrozenPhrases": "FrozenPhrases.load",
}  # fmt: skip
"""The face's call that loads each of gensim's saved classes (vectors: KeyedVectors.load)."""


class _ClassOnly(classmethod):
    """A class method that, as gensim's ``load``, fails when called on an instance: it returns a
    new model and leaves the instance as it was, which ``model.load(path)`` would hide."""

    def __get__(self, instance: Any, owner: type | None = None) -> Callable:
        if instance is None:
            return super().__get__(instance, owner)

        def refuse(*args: Any, **kwargs: Any) -> None:
            raise AttributeError("This method should be called on a class object.")

        return refuse


logger = logging.getLogger(__name__)


class NoVocabulary(VocabularyError, RuntimeError):
    """No word to train on (an empty corpus, or none frequent enough): a RuntimeError too, as
    gensim raises for one."""


class NotAModelFile(FormatError, AttributeError):
    """Vectors alone given to a model's ``load``: an AttributeError too, as gensim's ``load``
    of a KeyedVectors file fails (on the model's attributes it lacks)."""


class Word2Vec(VocabularySteps):
    """gensim's ``Word2Vec``: CBOW by default (``sg=1``: skip-gram), negative sampling with 5
    noise words (``hs=1``: hierarchical softmax too, alone with ``negative=0``), 3 worker
    threads, and gensim's other defaults. ``model.wv`` is the trained :class:`KeyedVectors`;
    ``syn1neg`` the output layer of negative sampling, ``syn1`` of hierarchical softmax (the
    Huffman tree's inner nodes, a row per word as in gensim, the last unused)."""

    _SAVED: tuple[str, ...] = _SAVED_STATE
    """What a saved model keeps besides its constructor's arguments."""
    _CORPUS_ARGS: tuple[str, ...] = ("sentences", "corpus_file", "trim_rule")
    """Constructor arguments that are not settings, not saved."""

    def __init__(
        self,
        sentences: Iterable | None = None,
        corpus_file: str | os.PathLike | None = None,
        vector_size: int = 100,
        alpha: float = 0.025,
        window: int = 5,
        min_count: int = 5,
        max_vocab_size: int | None = None,
        sample: float = 1e-3,
        seed: int = 1,
        workers: int = 3,
        min_alpha: float = 0.0001,
        sg: int = 0,
        hs: int = 0,
        negative: int = 5,
        ns_exponent: float = 0.75,
        cbow_mean: int = 1,
        hashfxn: Callable = hash,
        epochs: int = 5,
        null_word: int = 0,
        trim_rule: Callable | None = None,
        sorted_vocab: int = 1,
        batch_words: int = MAX_WORDS_IN_BATCH,
        compute_loss: bool = False,
        callbacks: Sequence = (),
        comment: str | None = None,
        max_final_vocab: int | None = None,
        shrink_windows: bool = True,
    ):
        self.vector_size, self.alpha, self.window = int(vector_size), float(alpha), int(window)
        self.min_count, self.max_vocab_size, self.sample = min_count, max_vocab_size, sample
        self.seed, self.workers, self.min_alpha = seed, int(workers), float(min_alpha)
        self.random = np.random.default_rng(seed=seed)  # gensim's, for scripts that draw
        self.sg, self.hs, self.negative = int(sg), int(hs), int(negative)
        self.ns_exponent, self.cbow_mean, self.hashfxn = ns_exponent, int(cbow_mean), hashfxn
        self.epochs, self.null_word, self.sorted_vocab = epochs, null_word, sorted_vocab
        self.batch_words, self.compute_loss, self.callbacks = batch_words, compute_loss, callbacks
        self.comment, self.max_final_vocab = comment, max_final_vocab
        self.shrink_windows = shrink_windows
        self.train_count = 0
        self.running_training_loss = 0.0
        self.corpus_count = 0
        self.corpus_total_words = 0
        self.total_train_time = 0.0
        self.effective_min_count = min_count
        self.min_alpha_yet_reached = self.alpha
        self.raw_vocab: dict[str, int] = {}
        self._trained = False
        self._check_settings()
        self.wv = self._new_vectors()
        if sentences is not None or corpus_file is not None:
            _check_corpus(sentences, corpus_file)
            if trim_rule is not None or max_vocab_size or max_final_vocab:  # on the counts
                self.build_vocab(sentences, corpus_file, trim_rule=trim_rule)
                self.train(sentences, corpus_file, total_examples=self.corpus_count,
                           epochs=self.epochs)  # fmt: skip
            else:
                self._run(sentences, corpus_file, self.epochs, self.alpha, self.min_alpha, ())

    def __str__(self) -> str:
        return (
            f"{type(self).__name__}<vocab={len(self.wv)}, vector_size={self.vector_size}, "
            f"alpha={self.alpha}>"
        )

    # -- what the settings mean to wordvec -------------------------------------------------

    def _check_settings(self) -> None:
        """Refuse what wordvec's kernels do not do, rather than train something else."""
        if not self.hs and not self.negative:  # gensim's error and its warning, word for word
            raise ValueError(
                "You must set either 'hs' or 'negative' to be positive for proper training. "
                "When both 'hs=0' and 'negative=0', there will be no training."
            )
        if self.hs and self.negative:
            logger.warning(
                "Both hierarchical softmax and negative sampling are activated. This is probably "
                "a mistake. You should set either 'hs=0' or 'negative=0' to disable one of them. "
            )
        if self.cbow_mean not in (0, 1):
            raise ConfigError("cbow_mean is 1 (the context's mean) or 0 (its sum)")
        if self.vector_size < 1 or self.window < 1 or (self.epochs or 0) < 0:
            raise ConfigError("vector_size and window must be at least 1, epochs at least 0")

    def _options(self, epochs: int, alpha: float, min_alpha: float) -> dict[str, Any]:
        """wordvec's training options for this model's settings (gensim's meanings)."""
        options = {
            "model": "sg" if self.sg else "cbow",
            "loss": ("hs+ns" if self.negative else "hs") if self.hs else "ns",
            "dim": self.vector_size,
            "window": self.window,
            "epochs": epochs,
            "alpha": alpha,
            "min_alpha": min(min_alpha, alpha),
            "min_count": max(int(self.min_count), 1),
            "max_vocab": self.max_final_vocab,
            "sample": self.sample,
            "threads": max(min(self.workers, available_cores()), 1),  # never more than cores
            "seed": self.seed,
            "max_sentence_length": self.batch_words,
        }
        if not self.sg and not self.cbow_mean:
            options["context"] = "sum"
        if self.negative:
            options.update(negative=self.negative, ns_exponent=self.ns_exponent)
            if self.sg:
                options["shared_negatives"] = False  # gensim draws per (word, context) pair
        return options

    def _new_vectors(self) -> KeyedVectors:
        return KeyedVectors(self.vector_size)

    @property
    def layer1_size(self) -> int:
        """The output layers' width, the hidden vector's (gensim's name): ``vector_size``."""
        return self.vector_size

    def _set_output(self, w_out: np.ndarray) -> None:
        """gensim's output layers from wordvec's ``w_out``: ``syn1neg``, a row per word
        (negative sampling), and ``syn1``, the Huffman tree's inner nodes in a matrix of a row
        per word as gensim keeps them (hierarchical softmax); with both, ``w_out`` holds the
        words' rows first."""
        words = len(self.wv)
        if self.negative:
            self.syn1neg = w_out[:words]
        if self.hs:
            self._set_tree(w_out[words:] if self.negative else w_out)

    def _set_tree(self, inner: np.ndarray) -> None:
        """``syn1``: the tree's ``inner`` node rows in gensim's matrix of a row per word."""
        words = len(self.wv)
        self.syn1 = np.zeros((words, inner.shape[1]), dtype=np.float32)
        self.syn1[: min(len(inner), words)] = inner[:words]

    def _output_arrays(self) -> dict[str, np.ndarray]:
        """``w_out`` as wordvec keeps it: negative sampling's rows, then (both layers) the
        tree's inner nodes. Hierarchical softmax alone keeps none: its tree is built again,
        from zero, by the next training."""
        if not self.negative:
            return {}
        if not self.hs:
            return {"w_out": self.syn1neg}
        inner = self.syn1[: max(len(self.wv) - 1, 0)]
        return {"w_out": np.concatenate([self.syn1neg, inner])}

    # -- training ---------------------------------------------------------------------------

    def train(
        self,
        corpus_iterable: Iterable | None = None,
        corpus_file: str | os.PathLike | None = None,
        total_examples: int | None = None,
        total_words: int | None = None,
        epochs: int | None = None,
        start_alpha: float | None = None,
        end_alpha: float | None = None,
        word_count: int = 0,
        queue_factor: int = 2,
        report_delay: float = 1.0,
        compute_loss: bool = False,
        callbacks: Sequence = (),
        **kwargs: Any,
    ) -> tuple[int, int]:
        """Train on the corpus for ``epochs`` (required, as gensim requires it, with
        ``total_examples`` or ``total_words``), continuing the model as it stands. Returns
        (words trained on, raw words), as gensim does."""
        _check_corpus(corpus_iterable, corpus_file)
        if not len(self.wv):
            raise RuntimeError("you must first build vocabulary before training the model")
        if epochs is None:
            raise ValueError("You must specify an explicit epochs count. The usual value is "
                             "epochs=model.epochs.")  # fmt: skip
        if total_examples is None and total_words is None:
            raise ValueError(
                "You must specify either total_examples or total_words, for proper "
                "learning-rate and progress calculations. If you've just built the "
                "vocabulary using the same corpus, using the count cached in the model is "
                "sufficient: total_examples=model.corpus_count."
            )
        self.compute_loss = compute_loss or self.compute_loss
        alpha = self.alpha if start_alpha is None else start_alpha
        min_alpha = self.min_alpha if end_alpha is None else end_alpha
        return self._run(corpus_iterable, corpus_file, epochs, alpha, min_alpha, callbacks)

    def _run(self, corpus, corpus_file, epochs: int, alpha: float, min_alpha: float,
             callbacks: Sequence) -> tuple[int, int]:  # fmt: skip
        """One :func:`wordvec.train` call over the corpus; its result becomes this model."""
        source = corpus_file if corpus_file is not None else corpus
        if isinstance(source, (list, tuple)) and not source:
            raise NoVocabulary("you must first build vocabulary before training the model")
        if alpha > self.min_alpha_yet_reached:
            logger.warning("Effective 'alpha' higher than previous training cycles")
        options = self._options(epochs, alpha, min_alpha)
        options["max_sentence_length"] = sentence_length(source, self.batch_words)
        self.running_training_loss = 0.0
        if epochs == 0:
            return 0, 0
        hooks = GensimHooks(self, [*self.callbacks, *callbacks])
        continues = len(self.wv) > 0 and (self._trained or not self._needs_fresh_start())
        init = self.to_wordvec(options) if continues else None
        try:
            with watch_compiling(options["model"], say=logger.info):  # a first run: it compiles
                trained = wordvec_train(
                    training_source(source),
                    quiet=True,
                    callbacks=[hooks],
                    init=init,
                    **options,
                    **self._training_keywords(),
                )
        except VocabularyError as error:
            raise NoVocabulary(str(error)) from error
        self._take(trained, keep_vocab=len(self.wv) > 0)
        self.train_count += 1
        self.total_train_time += trained.report.seconds
        self.min_alpha_yet_reached = min_alpha
        self.epochs = epochs
        # gensim's (effective words: kept after subsampling, raw words)
        return trained.report.kept or trained.report.words, self.corpus_total_words * epochs

    def _training_keywords(self) -> dict[str, Any]:
        """What :func:`wordvec.train` is given besides the options: the words' lock factors
        other than 1 (``wv.vectors_lockf``, gensim's locked vectors; Doc2Vec: the documents'
        tags instead)."""
        locks = word_locks(self.wv)
        return {"word_locks": locks} if locks else {}

    def estimate_memory(self, vocab_size: int | None = None, report: dict | None = None) -> dict:
        """gensim's estimate of the bytes a model of ``vocab_size`` words (this one's by
        default) takes: its arrays, of the same sizes in the face, and gensim's allowance for
        a word's vocabulary entry (500 bytes, 700 with hierarchical softmax); logged as
        gensim's."""
        words = vocab_size or len(self.wv)
        row = self.vector_size * np.dtype(np.float32).itemsize
        report = {**(report or {}), "vocab": words * (700 if self.hs else 500)}
        report[self._VECTORS_ENTRY] = words * row
        report.update(self._layer_sizes(words, self.layer1_size * np.dtype(np.float32).itemsize))
        report["total"] = sum(report.values())
        logger.info("estimated required memory for %i words and %i dimensions: %i bytes",
                    words, self.vector_size, report["total"])  # fmt: skip
        return report

    _VECTORS_ENTRY = "vectors"
    """The name of the word rows' entry in :meth:`estimate_memory`'s report (gensim's)."""

    def _layer_sizes(self, words: int, row: int) -> dict[str, int]:
        """The output layers' bytes, ``row`` bytes a word, for :meth:`estimate_memory`."""
        return {**({"syn1": words * row} if self.hs else {}),
                **({"syn1neg": words * row} if self.negative else {})}  # fmt: skip

    def _needs_fresh_start(self) -> bool:
        """Whether a first ``train`` after ``build_vocab`` starts from wordvec's own
        initialisation rather than from this object's (fastText: the n-gram rows)."""
        return False

    def to_wordvec(self, options: dict[str, Any] | None = None) -> Model:
        """This model as wordvec's :class:`~wordvec.model.Model` (sharing its arrays), with
        ``options`` (wordvec's; this model's settings by default) as its settings: what
        ``init=`` continues, what ``save`` and the ``.bin`` writer write."""
        if options is None:
            options = self._options(self.epochs, self.alpha, self.min_alpha)
        counts = self.wv.counts if self.wv.counts is not None else np.ones(len(self.wv))
        arrays = self._output_arrays()
        settings = {**options, "negative": self.negative, "init": None}
        return Model(Vocabulary(self.wv.words, counts), self.wv.vectors, settings=settings,
                     arrays=self._init_arrays(arrays))  # fmt: skip

    def _init_arrays(self, arrays: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        return arrays

    def _take(self, trained: Model, *, keep_vocab: bool) -> None:
        """Make ``trained`` (wordvec's) this model: its weights, in this model's word order
        when it has a vocabulary (``keep_vocab``), else with its words and counts."""
        vocab = trained.vocab
        if keep_vocab:
            index = vocab.index
            rows = np.array([index.get(word, -1) for word in self.wv.words], dtype=np.int64)
        else:
            self.wv = self._new_vectors()
            self.wv.words = list(vocab.words)
            self.wv.expandos["count"] = np.asarray(vocab.counts)
            rows = np.arange(len(vocab))
            self.corpus_count = trained.report.sentences
            self.corpus_total_words = trained.report.tokens
            self._set_codes()
        self._take_arrays(trained, rows)
        w_out, trained_words = trained.arrays["w_out"], len(trained.vocab)
        if self.hs:  # the tree's inner nodes (after the words' rows, with both layers)
            self._set_tree(w_out[trained_words:] if self.negative else w_out)
        if self.negative:
            self.syn1neg = rows_of(w_out[:trained_words], rows, getattr(self, "syn1neg", None))
        self._trained = True

    def _take_arrays(self, trained: Model, rows: np.ndarray) -> None:
        """The trained input weights, rows ``rows`` of ``trained``'s (-1: not trained)."""
        self.wv.vectors = rows_of(trained.vectors, rows, self.wv.vectors)

    # -- what scripts read ------------------------------------------------------------------

    def init_sims(self, replace: bool = False) -> None:
        """gensim 3's call on the model, kept by gensim 4 with a DeprecationWarning: the word
        vectors' :meth:`KeyedVectors.init_sims` (``replace``: scaled to length 1 in place)."""
        self.wv.init_sims(replace)

    def get_latest_training_loss(self) -> float:
        """The loss summed over the last ``train`` (with ``compute_loss=True``; else 0)."""
        return self.running_training_loss

    def predict_output_word(
        self, context_words_list: Sequence[str | int], topn: int = 10
    ) -> list[tuple[str, float]] | None:
        """The ``topn`` most probable centre words of a context (words, or their indexes),
        by the output layer of negative sampling (a softmax over its scores, as gensim)."""
        if not self.negative or not hasattr(self, "syn1neg"):
            raise RuntimeError(
                "We have currently only implemented predict_output_word for the negative "
                "sampling scheme, so you need to have run word2vec with negative > 0 for this "
                "to work."
            )
        index = self.wv.key_to_index
        rows = [
            int(w) if isinstance(w, (int, np.integer)) else index[w]
            for w in context_words_list
            if w in index or (isinstance(w, (int, np.integer)) and 0 <= w < len(self.wv))
        ]
        if not rows:
            return None
        hidden = np.mean(self.wv.vectors[rows], axis=0)
        scores = self.syn1neg @ hidden
        probabilities = np.exp(scores - scores.max())
        probabilities /= probabilities.sum()
        top = np.argsort(-probabilities, kind="stable")[:topn]
        return [(self.wv.index_to_key[i], float(probabilities[i])) for i in top]

    def score(
        self,
        sentences: Iterable,
        total_sentences: int = int(1e6),
        chunksize: int = 100,
        queue_factor: int = 2,
        report_delay: float = 1,
    ) -> np.ndarray:
        """The log-probability of each sentence (of the first ``total_sentences``) under this
        model, trained with ``hs=1`` (gensim's; :mod:`wordvec.gensim.scoring`)."""
        return score_sentences(self, sentences, total_sentences)

    # -- files ------------------------------------------------------------------------------

    def save(self, fname: str | os.PathLike, *args: Any, **kwargs: Any) -> None:
        """Write wordvec's model file (never a pickle); :meth:`load` reads it back, and the
        wordvec command line and API read it as any model of theirs."""
        model = self.to_wordvec()
        model.settings["gensim"] = self._gensim_settings()
        write_model(model, fname)

    def _gensim_settings(self) -> dict[str, Any]:
        """The constructor's arguments (those JSON holds) and the corpus figures, to save."""
        names = [
            name
            for name, parameter in inspect.signature(type(self).__init__).parameters.items()
            if isinstance(parameter.default, (int, float, str, type(None)))
            and name not in self._CORPUS_ARGS
        ]
        return {name: getattr(self, name) for name in (*names, *self._SAVED)}

    @_ClassOnly
    def load(cls, fname: str | os.PathLike, *args: Any, mmap: str | None = None, **kwargs: Any):
        """Read a model :meth:`save` wrote (arrays in memory and writable; ``mmap='r'``:
        mapped read-only). gensim's pickled ``.model`` files are refused with how to convert
        them."""
        if is_pickle(fname):
            return cls._from_gensim(read_saved(fname, mmap), os.path.basename(fname))
        saved = load_arrays(fname, mmap)
        settings = saved.settings.get("gensim")
        if not isinstance(settings, dict):  # a model 'wordvec train' wrote, or vectors alone
            settings = cls._arguments_of(os.path.basename(fname), saved.settings)
        settings = dict(settings)
        state = {name: settings.pop(name) for name in cls._SAVED if name in settings}
        model = cls(**settings)
        model.__dict__.update(state)
        model._restore(Model(saved.vocab, saved.vectors, settings=saved.settings,
                             arrays=saved.arrays))  # fmt: skip
        return model

    _GENSIM_CLASS = "Word2Vec"
    """The class name of the gensim models this class loads."""

    @classmethod
    def _from_gensim(cls, found: Record, name: str) -> Word2Vec:
        """A model gensim saved (read as data): its settings, vocabulary, vectors and output
        layers, ready to query or to train further."""
        kind = found.gensim_class.rsplit(".", 1)[-1]
        if kind != cls._GENSIM_CLASS:
            loader = _GENSIM_LOADERS.get(kind, "KeyedVectors.load")
            raise NotAModelFile(
                f"{name} is gensim's {kind}, not a {cls.__name__} model: load it with {loader}"
            )
        try:
            model = cls(**cls._gensim_arguments(found))
        except (ConfigError, ValueError, TypeError) as exc:
            raise FormatError(f"{name}: its settings are damaged ({exc})") from None
        keyed = found.get("wv")
        if not isinstance(keyed, Record):
            raise FormatError(f"{name}: its word vectors (wv) are missing")
        words, vectors, counts = keyed_parts(keyed, name)
        model._restore(Model(Vocabulary(words, counts), vectors, settings={},
                             arrays=model._gensim_arrays(found, name)))  # fmt: skip
        for layer in ("syn1neg", "syn1"):
            rows = found.get(layer, f"trainables.{layer}")
            if isinstance(rows, np.ndarray) and rows.shape == vectors.shape:
                setattr(model, layer, np.asarray(rows, dtype=np.float32))
        model.corpus_count = found.get("corpus_count", default=0)
        model.corpus_total_words = found.get("corpus_total_words")  # None before gensim 3.3
        return model

    @classmethod
    def _gensim_arguments(cls, found: Record) -> dict[str, Any]:
        """The constructor's arguments for a model gensim saved."""
        return gensim_arguments(found)

    def _gensim_arrays(self, found: Record, name: str) -> dict[str, np.ndarray]:
        """What :meth:`_restore` takes from a saved gensim model besides the words' rows
        (wordvec's names), and what a subclass keeps of it before (Doc2Vec: the tags)."""
        return {}

    _TRAINED_AS = ("sg", "cbow")
    """The ``wordvec train --model`` models whose files this class loads."""

    @classmethod
    def _arguments_of(cls, name: str, settings: dict[str, Any]) -> dict[str, Any]:
        """gensim's constructor arguments for a model file that ``wordvec train`` wrote (its
        settings, wordvec's names); a :class:`NotAModelFile` naming the call that loads it
        where it is another kind (or vectors alone)."""
        model = settings.get("model")
        if model not in cls._TRAINED_AS:
            saved_by = settings.get("gensim")  # KeyedVectors.save's files say so
            if isinstance(saved_by, str):
                what = saved_by
            else:
                what = f"a --model {model} model" if model else "vectors alone"
            raise NotAModelFile(
                f"{name} holds {what}, not a {cls.__name__} model: load it with "
                f"{_LOADERS.get(model, 'KeyedVectors.load')}({name!r})"
            )
        loss = str(settings.get("loss", "ns"))
        arch = settings.get("arch") if model in ("fasttext", "doc2vec") else model
        return {
            "vector_size": settings["dim"], "alpha": settings["alpha"],
            "window": settings["window"], "min_count": settings["min_count"],
            "sample": settings["sample"], "seed": settings.get("seed") or 1,
            "workers": settings["threads"], "min_alpha": settings["min_alpha"],
            "sg": int(arch in ("sg", "dbow")), "hs": int("hs" in loss),
            "negative": settings["negative"] if "ns" in loss else 0,
            "ns_exponent": settings["ns_exponent"], "epochs": settings["epochs"],
            "cbow_mean": int(settings.get("context", "mean") != "sum"),
        }  # fmt: skip

    def _restore(self, saved: Model) -> None:
        self.wv = self._new_vectors()
        self.wv.words = list(saved.vocab.words)
        self.wv.expandos["count"] = np.asarray(saved.vocab.counts)
        self.wv.vectors = saved.vectors
        if "w_out" in saved.arrays:
            self._set_output(saved.arrays["w_out"])
        self._set_codes()
        self._trained = True


def rows_of(trained: np.ndarray, rows: np.ndarray, before: np.ndarray | None) -> np.ndarray:
    """``trained``'s rows ``rows`` as a new writable matrix; a row -1 (a word the training did
    not see) keeps ``before``'s row, or zeros. All rows in order: ``trained`` itself."""
    if len(rows) == len(trained) and (rows == np.arange(len(rows))).all():
        return trained if trained.flags.writeable else np.array(trained)
    found = rows >= 0
    result = np.zeros((len(rows), trained.shape[1]), dtype=trained.dtype)
    if before is not None and len(before) == len(rows):
        result[~found] = before[~found]
    result[found] = trained[rows[found]]
    return result
