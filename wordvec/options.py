"""Every option of ``wordvec train`` and ``wordvec cooccur``, declared once.

Each :class:`Option` says its name (the Python field; the CLI spells it ``--min-count`` for
``min_count``), type, range or choices, default (and the models whose default differs), help,
group, and which models it applies to. From this table come the click options
(``wordvec.cli.parsing.declared_options``), the command reference, the fields of the typed,
frozen configs (:func:`option_fields`: :class:`ReadingOptions`, :class:`CooccurConfig`,
:class:`~wordvec.training.config.TrainConfig`), and their checks and defaults: a value out of
range, or an option given for a model it does nothing for (``--arch`` with ``--model sg``,
``--negative`` with ``--loss hs``, ``--window`` with ``--cooccur``), is a
:class:`~wordvec.errors.ConfigError`.

Defaults are word2vec's (``-size 100 -window 5 -negative 5 -sample 1e-3 -min-count 5 -iter 5``,
``-alpha`` 0.025 for skip-gram and 0.05 for CBOW, decaying linearly to 0.0001 of its start).
``--model fasttext`` takes fastText's instead where they differ: ``-lr 0.05 -t 1e-4``, noise
drawn from count**0.5 (hard-coded in fastText), ``-minn 3 -maxn 6 -bucket 2000000``.
``--model glove`` takes Stanford GloVe's: ``-window-size 10 -iter 15 -x-max 100 -eta 0.05``
and ``-alpha 0.75``, which in GloVe is the exponent of the weighting function, not a learning
rate (``--alpha`` keeps each tool's meaning). ``--model ppmi-svd`` counts with window 10 too,
and so does ``wordvec cooccur``.

This module imports neither numpy nor click, so that ``wordvec --help`` stays fast.
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from wordvec.errors import ConfigError
from wordvec.runtime.parallel import available_cores

TOKENIZERS = ("whitespace", "char", "jieba")
"""The tokenizers of :mod:`wordvec.corpus.text`."""
WINDOW_MODELS = ("sg", "cbow", "fasttext")
DOC2VEC = "doc2vec"
"""Paragraph vectors: a vector per line (document) trained beside the words' windows."""
COUNT_MODELS = ("glove", "ppmi-svd")
SUPERVISED = "supervised"
"""fastText's text classifier: the mean of a line's rows predicts its labels."""
MODELS = WINDOW_MODELS + (DOC2VEC,) + COUNT_MODELS + (SUPERVISED,)
SGD_MODELS = WINDOW_MODELS + (DOC2VEC, SUPERVISED)
"""The models trained by SGD on an output layer (learning rate, epochs, a loss)."""
UNSUPERVISED = WINDOW_MODELS + (DOC2VEC,) + COUNT_MODELS
COUNTING_MODEL = "glove"
"""``wordvec cooccur`` counts with the defaults of the count models (window 10)."""
MIN_ALPHA_FRACTION = 1e-4
"""The final learning rate, not given: this fraction of the first (word2vec's)."""
DOC2VEC_MIN_ALPHA = 1e-4
"""doc2vec's final learning rate, not given (or the first, if lower): gensim's ``Doc2Vec``
default. On the cooking questions (PV-DM, 10 epochs, seeds 1-4) the trained vectors scored
0.3128 with it against 0.3109 with word2vec's alpha * 1e-4."""


def default_min_alpha(model: str, alpha: float) -> float:
    """The final learning rate of a run that gives none."""
    if model == DOC2VEC:
        return min(DOC2VEC_MIN_ALPHA, alpha)
    return alpha * MIN_ALPHA_FRACTION


MIN_COUNT = 5
"""Words seen fewer times are left out (word2vec's, gensim's and fastText's default), and
word2phrase joins no pair whose words or pair are seen fewer times."""
PHRASE_THRESHOLD = 100.0
"""word2phrase's threshold: a pair joins when its score is over it."""
PHRASE_PASSES = 1
MAX_NEGATIVE = 999
"""The loss of a prediction's negative + 1 targets is one log of a product of factors of at most
2 (``wordvec.kernels.activations.logistic_steps``), which must stay below float64's 2**1024."""
MAX_EPOCHS = 10_000
"""More passes than anyone trains: a damaged model file's epochs must not make inference hang."""
MAX_SETTING = 2**31 - 1
"""fastText's .bin stores minn, maxn and bucket as int32."""
_SKIP_GRAM_NS = (("loss", ("ns", "hs+ns")), ("arch", ("sg", "dbow")), ("dbow_words", (True,)))
_DOC2VEC_LOSSES, _CLASSIFIER_LOSSES = ("ns", "hs", "hs+ns"), ("ns", "hs", "softmax", "ova")
_NOT_FROM_COUNTS = (("cooccur", (None,)),)


def _either(choices: Sequence[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``: the choices an error names."""
    return " or ".join([", ".join(choices[:-1]), choices[-1]] if len(choices) > 2 else choices)


@dataclass(frozen=True)
class Option:
    """One option: what it holds, its default, and where it applies.

    ``kind`` is int, float, bool, str or Path. ``default`` is the value when the option is not
    given, ``by_model`` the models whose default differs, and ``default_help`` describes a
    default worked out from other options (``default`` is then None). The option applies to
    ``models``, and only while each option named in ``requires`` (that applies to the model)
    has one of the listed values; ``choices_by_model`` narrows ``choices`` for some models.
    ``flag`` is the CLI's spelling of a boolean (``--a/--b``, or one switch that sets the
    opposite of the default). ``off`` is a value that turns the option off and so may be given
    where it does not apply (word2vec's ``-hs 1 -negative 0``).
    """

    name: str
    kind: type
    default: object
    help: str
    group: str
    models: tuple[str, ...] = MODELS
    requires: tuple[tuple[str, tuple], ...] = ()
    by_model: tuple[tuple[str, object], ...] = ()
    default_help: str | None = None
    choices: tuple[str, ...] = ()
    choices_by_model: tuple[tuple[str, tuple[str, ...]], ...] = ()
    low: float | None = None
    high: float | None = None
    low_open: bool = False
    high_open: bool = False
    optional: bool = False  # None is a value: no limit, nothing given
    flag: str | None = None
    off: object = None  # a value meaning "none", accepted where the option does not apply

    @property
    def cli_name(self) -> str:
        return "--" + self.name.replace("_", "-")

    def spelling(self, value: object) -> str:
        """How the CLI names the option when it is given ``value`` (``--per-pair-negatives``
        for shared_negatives=False)."""
        if self.spells_off():
            on, off = self.flag.split("/")
            return on if value else off
        return self.flag or self.cli_name

    def default_for(self, model: str) -> object:
        return dict(self.by_model).get(model, self.default)

    def check(self, value: object) -> None:
        """Raise :class:`ConfigError` unless ``value`` is of the option's kind and range."""
        if value is None and self.optional:
            return
        if self.kind is bool:
            ok = isinstance(value, bool)
        elif self.kind is int:
            ok = isinstance(value, int) and not isinstance(value, bool)
        elif self.kind is float:
            ok = isinstance(value, (int, float)) and not isinstance(value, bool)
            ok = ok and math.isfinite(value)
        elif self.kind is Path:
            ok = isinstance(value, (str, os.PathLike))
        else:
            ok = isinstance(value, str)
        if not ok:
            raise ConfigError(f"{self.cli_name} must be {self.describe_kind()}, not {value!r}")
        if self.choices and value not in self.choices:
            raise ConfigError(
                f"{self.cli_name} must be one of {', '.join(self.choices)}, not {value!r}"
            )
        if not self.in_range(value):
            raise ConfigError(f"{self.cli_name} must be in {self.describe_range()}, not {value!r}")

    def in_range(self, value) -> bool:
        low_ok = self.low is None or (value > self.low if self.low_open else value >= self.low)
        high_ok = self.high is None or (value < self.high if self.high_open else value <= self.high)
        return low_ok and high_ok

    def describe_kind(self) -> str:
        names = {int: "an integer", float: "a number", bool: "True or False", Path: "a path"}
        return names.get(self.kind, "a string")

    def describe_range(self) -> str:
        low = "-inf" if self.low is None else f"{self.low:g}"
        high = "inf" if self.high is None else f"{self.high:g}"
        left = "(" if self.low_open or self.low is None else "["
        right = ")" if self.high_open or self.high is None else "]"
        return f"{left}{low}, {high}{right}"

    def does_not_apply(self, values: dict) -> str | None:
        """Why the option does nothing with these (resolved) ``values``; None if it applies."""
        model, spelled = values["model"], self.spelling(values[self.name])
        if model not in self.models:
            return f"{spelled} does not apply to --model {model} (only to {', '.join(self.models)})"
        narrowed = dict(self.choices_by_model).get(model)
        if narrowed and values[self.name] not in narrowed:
            return (f"{spelled} {values[self.name]} does not apply to --model {model} "
                    f"(only {_either(narrowed)})")  # fmt: skip
        for name, allowed in self.requires:
            required = OPTION[name]
            if model in required.models and values[name] not in allowed:
                if name == "cooccur":
                    return f"{spelled} does not apply with --cooccur (the counts are made)"
                if required.kind is bool and not required.spells_off():
                    return f"{spelled} does not apply without {required.cli_name}"
                narrowed = dict(required.choices_by_model).get(model, allowed)
                wanted = _either([required.given(v) for v in allowed if v in narrowed])
                return (f"{spelled} does not apply with {required.given(values[name])} "
                        f"(only {wanted})")  # fmt: skip
        return None

    def spells_off(self) -> bool:
        """Whether the option has a flag of its own for False (``--per-pair-negatives``)."""
        return bool(self.flag) and "/" in self.flag

    def given(self, value: object) -> str:
        """The option with ``value`` as a command line says it: ``--arch dm``,
        ``--per-pair-negatives``."""
        return self.spelling(value) if self.kind is bool else f"{self.cli_name} {value}"


OPTIONS: tuple[Option, ...] = (
    Option(
        "model", str, "sg", group="model", choices=MODELS,
        help="Skip-gram (predict the window from the word), CBOW (the word from the window), "
        "fastText (skip-gram or CBOW, see --arch, over words and their character n-grams), "
        "doc2vec (paragraph vectors: a vector for each line, see --arch), "
        "GloVe (least squares on co-occurrence counts), PPMI-SVD (the count-based baseline), "
        "or supervised: fastText's text classifier, on lines of __label__ tags and text.",
    ),
    Option(
        "arch", str, "sg", group="model", choices=("sg", "cbow", "dbow", "dm"),
        choices_by_model=(("fasttext", ("sg", "cbow")), (DOC2VEC, ("dbow", "dm"))),
        models=("fasttext", DOC2VEC), by_model=((DOC2VEC, "dm"),),
        help="fasttext: the window model, skip-gram or CBOW; doc2vec: dbow (the line's vector "
        "predicts its words, gensim's dm=0) or dm (the line's vector and the window's words "
        "predict the centre, gensim's dm=1).",
    ),
    Option(
        "dbow_words", bool, False, group="model", models=(DOC2VEC,),
        requires=(("arch", ("dbow",)),), flag="--dbow-words",
        help="doc2vec --arch dbow: also train the words, skip-gram, in the same pass (gensim's "
        "dbow_words=1).",
    ),
    Option(
        "loss", str, "ns", group="model", choices=("ns", "hs", "hs+ns", "softmax", "ova"),
        choices_by_model=((DOC2VEC, _DOC2VEC_LOSSES), (SUPERVISED, _CLASSIFIER_LOSSES)),
        models=SGD_MODELS, by_model=((SUPERVISED, "softmax"),),
        help="Output layer: negative sampling, hierarchical softmax, both (word2vec's -hs 1 "
        "-negative N), or the full softmax (exact, but O(vocabulary) a prediction, one thread: "
        "small vocabularies only); supervised: over labels, or ova (one-vs-all, multi-label).",
    ),
    Option(
        "dim", int, 100, group="model", low=1,
        help="Vector dimensions (word2vec's -size).",
    ),
    Option(
        "window", int, 5, group="window", low=1, by_model=(("glove", 10), ("ppmi-svd", 10)),
        models=UNSUPERVISED, requires=_NOT_FROM_COUNTS,
        help="Maximum distance to a context word; word2vec and fastText draw each word's from "
        "1..window, counting takes every pair this close.",
    ),
    Option(
        "context", str, "mean", group="window", choices=("mean", "sum", "concat"),
        models=("cbow", DOC2VEC), requires=(("arch", ("dm",)),),
        help="CBOW and doc2vec --arch dm: the window's input is the mean of its rows (word2vec's "
        "and gensim's default) or their sum, the step then shared among them (gensim's "
        "cbow_mean=0, dm_mean=0); doc2vec also concat: the document's row and the window's "
        "2 x window word rows side by side, each in its place (gensim's dm_concat=1; the "
        "output layer (1 + 2 x window) x dim wide).",
    ),
    Option(
        "negative", int, 5, group="negative sampling", low=0, high=MAX_NEGATIVE, off=0,
        models=SGD_MODELS, requires=(("loss", ("ns", "hs+ns")),),
        help="Noise words per prediction with --loss ns or hs+ns (0 with other losses, as "
        "word2vec's -hs 1 -negative 0).",
    ),
    Option(
        "shared_negatives", bool, None, group="negative sampling",
        models=("sg", "fasttext", DOC2VEC), requires=_SKIP_GRAM_NS,
        flag="--shared-negatives/--per-pair-negatives",
        default_help="shared, for skip-gram and doc2vec's --dbow-words with --loss ns or hs+ns",
        help="Skip-gram (and doc2vec's --dbow-words) with noise words: each window's context "
        "words predict its centre with one draw of noise words and one update for the window "
        "(pWord2Vec's HogBatch; about 1.7x faster), or one draw and update per (word, context) "
        "pair, as word2vec and gensim.",
    ),
    Option(
        "ns_exponent", float, 0.75, group="negative sampling", low=-10, high=10,
        by_model=(("fasttext", 0.5), (SUPERVISED, 0.5)), models=SGD_MODELS,
        requires=(("loss", ("ns", "hs+ns")),),
        help="Noise distribution: count ** exponent.",
    ),
    Option(
        "epochs", int, 5, group="training", low=1, high=MAX_EPOCHS,
        by_model=(("glove", 15), (DOC2VEC, 10)),
        models=SGD_MODELS + ("glove",),
        help="Passes over the corpus (word2vec's -iter).",
    ),
    Option(
        "alpha", float, 0.025, group="training", low=0, high=10, low_open=True, high_open=True,
        by_model=(("cbow", 0.05), ("fasttext", 0.05), ("glove", 0.75), (SUPERVISED, 0.1)),
        models=SGD_MODELS + ("glove",),
        help="Start learning rate, decaying linearly; for glove, GloVe's -alpha, the exponent "
        "of its weighting function.",
    ),
    Option(
        "init", Path, None, group="training", optional=True, models=WINDOW_MODELS + (DOC2VEC,),
        help="Continue training this wordvec model (word2vec, fastText or doc2vec) on CORPUS: "
        "its words keep their vectors, new words above --min-count are added, counts add up, "
        "and the learning rate starts again from --alpha; a doc2vec model continues on its "
        "own documents (as many lines, in order).",
    ),
    Option(
        "init_vectors", Path, None, group="training", optional=True, models=SGD_MODELS,
        help="Start the input vectors of the words found in this vector file (any format "
        "wordvec reads, of --dim dimensions) from it, the others at random (fastText's "
        "-pretrainedVectors).",
    ),
    Option(
        "min_alpha", float, None, group="training", low=0, models=SGD_MODELS,
        default_help=f"alpha * {MIN_ALPHA_FRACTION:g}; doc2vec {DOC2VEC_MIN_ALPHA:g}, gensim's",
        help="Final learning rate.",
    ),
    Option(
        "min_count", int, MIN_COUNT, group="vocabulary", low=1, requires=_NOT_FROM_COUNTS,
        by_model=((SUPERVISED, 1),),
        help="Ignore words seen fewer times.",
    ),
    Option(
        "max_vocab", int, None, group="vocabulary", low=1, optional=True,
        models=UNSUPERVISED, requires=_NOT_FROM_COUNTS,
        help="Keep at most this many of the most frequent words.",
    ),
    Option(
        "read_vocab", Path, None, group="vocabulary", optional=True, models=UNSUPERVISED,
        requires=_NOT_FROM_COUNTS,
        help="Use the words and counts of this file (word2vec's -read-vocab: 'word count' "
        "lines) instead of counting them; other words of the corpus are left out.",
    ),
    Option(
        "save_vocab", Path, None, group="vocabulary", optional=True, models=UNSUPERVISED,
        requires=_NOT_FROM_COUNTS,
        help="Also write the vocabulary to this file as word2vec's -save-vocab does ('word "
        "count' lines, most frequent first).",
    ),
    Option(
        "vocab_memory", float, 2.0, group="vocabulary", low=0, low_open=True,
        models=UNSUPERVISED, requires=_NOT_FROM_COUNTS,
        help="GB for counting distinct words while reading (about 50 bytes a word); a corpus "
        "with more drops its rarest words as word2vec does, and says so.",
    ),
    Option(
        "sample", float, 1e-3, group="training", low=0, high=1, high_open=True,
        by_model=(("fasttext", 1e-4),), models=WINDOW_MODELS + (DOC2VEC,),
        help="Subsampling threshold for frequent words (0: off).",
    ),
    Option(
        "threads", int, None, group="run", low=1, default_help="all cores",
        help="Threads.",
    ),
    Option("seed", int, 1, group="run", low=0, help="Random seed."),
    Option(
        "max_sentence_length", int, 1000, group="reading", low=1,
        models=WINDOW_MODELS + (DOC2VEC,),
        help="Cut longer lines into pieces of this many words.",
    ),
    Option(
        "lowercase", bool, False, group="reading", flag="--lowercase",
        requires=_NOT_FROM_COUNTS, help="Lowercase the text before counting.",
    ),
    Option(
        "encoding_errors", str, "strict", group="reading",
        choices=("strict", "replace", "ignore"), requires=_NOT_FROM_COUNTS,
        help="What to do with bytes that are not UTF-8: stop, or replace/drop them.",
    ),
    Option(
        "convert", str, None, group="reading", choices=("t2s",), optional=True,
        requires=_NOT_FROM_COUNTS,
        help="t2s: convert traditional Chinese characters to simplified while reading, as the "
        "evaluation sets are (OpenCC; pip install 'wordvec[zh]').",
    ),
    Option(
        "tokenizer", str, "whitespace", group="reading", choices=TOKENIZERS,
        requires=_NOT_FROM_COUNTS,
        help="How lines become words: whitespace-separated (also for segmented Chinese); "
        "char: each CJK character a word, Latin words whole; jieba: Chinese word segmentation "
        "(pip install 'wordvec[zh]').",
    ),
    Option(
        "phrases", int, 0, group="reading", low=0, high=8, models=WINDOW_MODELS,
        help="Join phrases (new_york) in this many passes before training, at word2phrase's "
        f"defaults (min count {MIN_COUNT}, threshold {PHRASE_THRESHOLD:g}; 'wordvec phrases' "
        "sets them).",
    ),
    Option(
        "bpe", Path, None, group="reading", optional=True,
        models=("sg", "cbow", "glove", "ppmi-svd"),
        help="Train on the corpus segmented into these BPE units (a file 'wordvec bpe learn' "
        "writes, subword-nmt codes, a tokenizer.json or a SentencePiece BPE model): the "
        "model keeps them, and every word gets a vector, the mean of its units'.",
    ),
    Option(
        "minn", int, 3, group="subwords", low=1, high=MAX_SETTING,
        models=("fasttext", SUPERVISED), by_model=((SUPERVISED, 1),),
        help="fasttext, supervised: shortest character n-gram.",
    ),
    Option(
        "maxn", int, 6, group="subwords", low=0, high=MAX_SETTING,
        models=("fasttext", SUPERVISED), by_model=((SUPERVISED, 0),),
        help="fasttext, supervised: longest character n-gram (0: no subwords; for fasttext, "
        "word2vec with fastText's defaults).",
    ),
    Option(
        "bucket", int, 2_000_000, group="subwords", low=1, high=MAX_SETTING,
        models=("fasttext", SUPERVISED),
        help="fasttext, supervised: rows shared by all n-grams (hashed; supervised: character "
        "and word n-grams, none unless --maxn or --word-ngrams asks). Costs bucket x dim x 4 "
        "bytes (800 MB at the defaults) while training and in the model file; a smaller "
        "--bucket saves memory at some cost to rare and unseen words.",
    ),
    Option(
        "label", str, "__label__", group="labels", models=(SUPERVISED,),
        help="supervised: the prefix that marks a word as a label (fastText's -label).",
    ),
    Option(
        "word_ngrams", int, 1, group="labels", low=1, high=MAX_SETTING, models=(SUPERVISED,),
        help="supervised: also average hashed rows of the line's word n-grams up to this "
        "length (fastText's -wordNgrams; 2: bigrams), in --bucket rows.",
    ),
    Option(
        "hidden", int, 0, group="labels", low=0, high=MAX_SETTING, models=(SUPERVISED,),
        help="supervised: a hidden layer of this many units, tanh(W x + b), between the pooled "
        "rows and the output layer (the course's feed-forward classifier; 0: fastText's).",
    ),
    Option(
        "pooling", str, "mean", group="labels", choices=("mean", "max"), models=(SUPERVISED,),
        help="supervised: pool a line's rows by their mean (fastText's) or their maximum in "
        "each dimension.",
    ),
    Option(
        "autotune_validation", Path, None, group="labels", optional=True, models=(SUPERVISED,),
        help="supervised: search the settings not given (epochs, --alpha, --dim, "
        "--word-ngrams, n-grams, --bucket) for the best score on this labelled file, as "
        "fastText's -autotune-validation does, and keep the best model.",
    ),
    Option(
        "autotune_duration", int, 300, group="labels", low=1, high=MAX_SETTING,
        models=(SUPERVISED,), help="supervised: seconds autotune searches (compiling aside).",
    ),
    Option(
        "autotune_metric", str, "f1", group="labels", models=(SUPERVISED,),
        help="supervised: what autotune maximises: f1 (over all labels) or f1:LABEL.",
    ),
    Option(
        "autotune_predictions", int, 1, group="labels", low=1, high=MAX_SETTING,
        models=(SUPERVISED,), help="supervised: labels predicted a line while autotune scores.",
    ),
    Option(
        "autotune_model_size", str, None, group="labels", optional=True, models=(SUPERVISED,),
        help="supervised: autotune quantizes each trial to fit this many bytes (2M; -o x.ftz).",
    ),
    Option(
        "cooccur", Path, None, group="counting", optional=True, models=COUNT_MODELS,
        help="glove, ppmi-svd: train on these counts (from 'wordvec cooccur'), not on CORPUS.",
    ),
    Option(
        "symmetric", bool, True, group="counting", flag="--asymmetric",
        models=COUNT_MODELS, requires=_NOT_FROM_COUNTS,
        help="Count left contexts only (GloVe's -symmetric 0).",
    ),
    Option(
        "distance_weighting", bool, True, group="counting", flag="--no-distance-weighting",
        models=COUNT_MODELS, requires=_NOT_FROM_COUNTS,
        help="Count 1 per pair instead of 1/distance.",
    ),
    Option(
        "memory", float, 0.5, group="counting", low=0, low_open=True,
        models=COUNT_MODELS, requires=_NOT_FROM_COUNTS,
        help="GB for the counting tables (the process takes ~0.4 GB more); beyond it, "
        "sorted shards spill to --tmp-dir.",
    ),
    Option(
        "x_max", float, 100.0, group="glove", low=0, low_open=True, models=("glove",),
        help="glove: counts above this get full weight, f(x) = min(1, (x/x_max)^alpha).",
    ),
    Option(
        "eta", float, 0.05, group="glove", low=0, low_open=True, models=("glove",),
        help="glove: AdaGrad's initial learning rate of the vectors (biases step at rate 1, "
        "as in glove.c).",
    ),
    Option(
        "glove_output", str, "both", group="glove", choices=("both", "word"),
        models=("glove",), help="glove: vectors W + W~ (GloVe's -model 2) or W alone.",
    ),
    Option(
        "cds", float, 0.75, group="ppmi", low=0, high=1, low_open=True, models=("ppmi-svd",),
        help="ppmi-svd: context distribution smoothing exponent.",
    ),
    Option(
        "neg", float, 1.0, group="ppmi", low=1, models=("ppmi-svd",),
        help="ppmi-svd: shift PMI by log(neg) (1: no shift).",
    ),
    Option(
        "eig", float, 0.5, group="ppmi", low=0, high=1, models=("ppmi-svd",),
        help="ppmi-svd: vectors are U * S^eig.",
    ),
)  # fmt: skip
"""The order of :class:`TrainConfig`'s fields, and of a model file's settings."""

OPTION = {option.name: option for option in OPTIONS}
KEPT_BY_INIT = ("model", "arch", "loss", "dim", "minn", "maxn", "bucket", "context")
"""What a continued model keeps from the one it continues (``--init``); a doc2vec model over
the concatenated window its ``window`` too, its output layer's width."""


def option_fields(names: Iterable[str], *, defaults: bool = False):
    """A class decorator: the class becomes a frozen dataclass with a field for each option of
    ``names``, in that order, typed by the table (``kind | None``; paths as strings, as
    settings are JSON), each None until given, or at the table's default with ``defaults``.
    The table is so the only place an option is declared."""
    names = tuple(names)

    def make(cls: type) -> type:
        annotations = {}
        for name in names:
            option = OPTION[name]
            annotations[name] = (str if option.kind is Path else option.kind) | None
            setattr(cls, name, option.default if defaults else None)
        cls.__annotations__ = annotations
        return dataclass(frozen=True)(cls)

    return make


READING = ("min_count", "max_vocab", "read_vocab", "save_vocab", "vocab_memory", "lowercase",
           "encoding_errors", "convert", "tokenizer", "threads")  # fmt: skip
"""The options (of training and of counting) that decide how a corpus becomes word ids."""
COUNTING = ("window", "symmetric", "distance_weighting", *READING, "memory")
"""The options of ``wordvec cooccur`` (and of the counting step of glove and ppmi-svd)."""


@option_fields(READING, defaults=True)
class ReadingOptions:
    """How a corpus becomes word ids, for training and counting alike: the same defaults for
    every model, so resolved without one; threads not given are every core this process may
    use, resolved at construction."""

    def __post_init__(self) -> None:
        if self.threads is None:
            object.__setattr__(self, "threads", available_cores())

    @classmethod
    def of(cls, **given) -> ReadingOptions:
        """The options ``given`` (None: not given) checked, the others at their defaults; an
        unknown name is a :class:`ConfigError`."""
        unknown = set(given) - set(READING)
        if unknown:
            raise ConfigError(f"not a reading option: {', '.join(sorted(unknown))}")
        return cls(**resolve(given, READING, None, check_applies=False))

    @classmethod
    def of_config(cls, config: object) -> ReadingOptions:
        """The reading options of a resolved training or counting config."""
        return cls(**{name: getattr(config, name) for name in READING})


@option_fields(COUNTING)
class CooccurConfig:
    """The options of ``wordvec cooccur`` (:data:`COUNTING`), and of the counting step of
    ``train --model glove/ppmi-svd``: None until given or resolved (threads: every core,
    decided when counting starts)."""

    def resolved(self) -> CooccurConfig:
        """A checked copy with the count models' defaults filled in (window 10); raises
        :class:`ConfigError`."""
        values = resolve(dataclasses.asdict(self), COUNTING, COUNTING_MODEL, check_applies=False)
        return dataclasses.replace(self, **values)

    @property
    def reading(self) -> ReadingOptions:
        return ReadingOptions.of_config(self)


def predicts_centre(model: str, arch: str) -> bool:
    """Whether a model's window loop is CBOW (predicts the centre word from its context):
    ``--arch`` chooses only for fastText."""
    return model == "cbow" or (model == "fasttext" and arch == "cbow")


def resolve(
    given: dict, names: Iterable[str], model: str | None, *, check_applies: bool = True
) -> dict:
    """The values of ``names``: ``given`` (checked: kind, range and, with ``check_applies``,
    that each does something for ``model`` with the other values) and ``model``'s defaults for
    the rest (None: the defaults that are not any model's own). An option with a
    ``default_help`` stays None when not given: its default depends on other values."""
    values = {name: OPTION[name].default_for(model) for name in names}
    given = {name: value for name, value in given.items() if value is not None}
    for name, value in given.items():
        OPTION[name].check(value)
    values.update(given)
    if values.get("threads", 0) is None:  # not given: every core this process may use
        values["threads"] = available_cores()
    for name, value in given.items():
        if OPTION[name].kind is Path:
            values[name] = str(value)  # settings are saved as JSON
    if check_applies:
        for name, value in given.items():
            reason = value != OPTION[name].off and OPTION[name].does_not_apply(values)
            if reason:
                raise ConfigError(reason)
    return values
