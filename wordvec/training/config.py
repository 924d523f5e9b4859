"""Training options as one frozen dataclass, a field per option of :mod:`wordvec.options`.

A field is None until given; :meth:`TrainConfig.resolved` checks what was given (range, and
that it applies to the model) and fills in the model's defaults, once: the cores behind
"threads not given" (:func:`wordvec.options.resolve`), one thread for the full softmax, and
the learning rate's floor included.
The reading and counting options are the groups :attr:`~TrainConfig.reading` and
:attr:`~TrainConfig.counting` of it.
"""

from __future__ import annotations

import dataclasses

from wordvec.errors import ConfigError
from wordvec.options import (
    COUNTING,
    DOC2VEC,
    OPTION,
    SUPERVISED,
    CooccurConfig,
    ReadingOptions,
    default_min_alpha,
    option_fields,
    predicts_centre,
    resolve,
)


@option_fields(OPTION)
class TrainConfig:
    """Everything that decides a training run: a field per option of the table, in its order
    (a model file's settings keep it), None until given."""

    def resolved(self) -> TrainConfig:
        """A checked copy with every default filled in; raises :class:`ConfigError`."""
        values = resolve(self.as_dict(), NAMES, self.model or "sg")
        if values["loss"] in ("ns", "hs+ns") and values["negative"] < 1:
            raise ConfigError(f"--negative must be at least 1 with --loss {values['loss']}")
        if values["context"] == "concat" and values["model"] != DOC2VEC:
            raise ConfigError("--context concat is doc2vec's (--arch dm): CBOW's window is "
                              "the mean or the sum of its rows")  # fmt: skip
        if values["loss"] == "ova" and values["model"] != SUPERVISED:
            raise ConfigError("--loss ova applies only to --model supervised")
        if values["maxn"] and values["maxn"] < values["minn"]:
            raise ConfigError(f"--maxn ({values['maxn']}) must be 0 (no subwords) or >= --minn")
        if values["min_alpha"] is None:
            values["min_alpha"] = default_min_alpha(values["model"], values["alpha"])
        if values["loss"] == "softmax" and values["model"] != SUPERVISED:
            # Every softmax step writes every output row: threads would only fight over them.
            # (A classifier's rows are labels, and few: it trains on threads, as fastText's.)
            values["threads"] = 1
        if values["shared_negatives"] is None and not OPTION["shared_negatives"].does_not_apply(
            values
        ):
            values["shared_negatives"] = True
        return dataclasses.replace(self, **values)

    @property
    def shared_targets(self) -> bool:
        """Whether skip-gram (doc2vec's ``--dbow-words`` too) steps once per window, its
        context words sharing the centre's targets: with shared negatives, and always with
        hierarchical softmax (where the pairs of a window share the centre's path anyway)."""
        skip_gram = self.model in ("sg", "fasttext") and not self.cbow
        skip_gram = skip_gram or (self.model == DOC2VEC and bool(self.dbow_words))
        return bool(self.shared_negatives) or (self.loss == "hs" and skip_gram)

    @property
    def output_width(self) -> int:
        """The output layer's width, the hidden vector's: ``dim``, or PV-DM's concatenated
        window's (:func:`concat_width`)."""
        if concatenates(self.model, self.context):
            return concat_width(self.window, self.dim)
        return self.dim

    @property
    def cbow(self) -> bool:
        """Whether the window loop predicts the centre word from its context."""
        return predicts_centre(self.model, self.arch)

    @property
    def subwords(self) -> bool:
        """Whether words are read through their character n-grams too."""
        return self.model in ("fasttext", SUPERVISED) and self.maxn > 0

    @property
    def buckets(self) -> int:
        """The hashed n-gram rows the input matrix has beyond the words: only while character
        n-grams (fastText, a classifier) or word n-grams (a classifier) are on, fastText's
        rule."""
        word_ngrams = self.model == SUPERVISED and self.word_ngrams > 1
        return self.bucket if self.subwords or word_ngrams else 0

    @property
    def reading(self) -> ReadingOptions:
        """How the corpus becomes word ids."""
        return ReadingOptions.of_config(self)

    @property
    def counting(self) -> CooccurConfig:
        """The counting step of glove and ppmi-svd."""
        return CooccurConfig(**{name: getattr(self, name) for name in COUNTING})

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)


NAMES = tuple(OPTION)


def concatenates(model: str | None, context: str | None) -> bool:
    """Whether a model is doc2vec over the concatenated window (``--context concat``): its
    output layer is :func:`concat_width` wide, and it has a pad row."""
    return model == DOC2VEC and context == "concat"


def concat_width(window: int, dim: int) -> int:
    """The output layer's width over a concatenated window: a document's row and the window's
    ``2 * window`` words', each ``dim`` wide."""
    return (1 + 2 * window) * dim
