"""Training options: one dataclass whose field names are the CLI's option names.

Defaults are word2vec's (``-size 100 -window 5 -negative 5 -sample 1e-3 -min-count 5 -iter 5``,
``-alpha`` 0.025 for skip-gram and 0.05 for CBOW, decaying linearly to 0.0001 of its start).
``--model fasttext`` takes fastText's instead where they differ: ``-lr 0.05 -t 1e-4``, noise
drawn from count**0.5 (hard-coded in fastText), ``-minn 3 -maxn 6 -bucket 2000000``.
``--model glove`` takes Stanford GloVe's: ``-window-size 10 -iter 15 -x-max 100 -eta 0.05``
and ``-alpha 0.75``, which in GloVe is the exponent of the weighting function, not a learning
rate (``--alpha`` keeps each tool's meaning). ``--model ppmi-svd`` counts with window 10 too.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass

from wordvec.errors import ConfigError
from wordvec.tokenize import TOKENIZERS

MODELS = ("sg", "cbow", "fasttext", "glove", "ppmi-svd")
COUNT_MODELS = ("glove", "ppmi-svd")
ARCHITECTURES = ("sg", "cbow")
LOSSES = ("ns", "hs", "softmax")
GLOVE_OUTPUTS = ("both", "word")
_WORD2VEC = {"alpha": 0.025, "sample": 1e-3, "ns_exponent": 0.75, "window": 5, "epochs": 5}
MODEL_DEFAULTS = {
    "sg": _WORD2VEC,
    "cbow": {**_WORD2VEC, "alpha": 0.05},
    "fasttext": {**_WORD2VEC, "alpha": 0.05, "sample": 1e-4, "ns_exponent": 0.5},
    "glove": {**_WORD2VEC, "alpha": 0.75, "window": 10, "epochs": 15},
    "ppmi-svd": {**_WORD2VEC, "window": 10},
}
"""The defaults of the options left at ``None``, by model."""
MIN_ALPHA_FRACTION = 1e-4
MAX_NEGATIVE = 999
"""The loss of a prediction's negative + 1 targets is one log of a product of factors of at most
2 (``wordvec.kernels.activations.logistic_steps``), which must stay below float64's 2**1024."""


def available_cores() -> int:
    """Cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


@dataclass(frozen=True)
class TrainConfig:
    """Everything that decides a training run. ``None`` fields take the model's default."""

    model: str = "sg"
    arch: str = "sg"  # fastText's window model: skip-gram or CBOW
    loss: str = "ns"
    dim: int = 100
    window: int | None = None
    negative: int = 5
    shared_negatives: bool | None = None  # skip-gram + ns: one noise draw and step per window
    # (True by default there; None for the models it does not apply to)
    ns_exponent: float | None = None
    epochs: int | None = None
    alpha: float | None = None
    min_alpha: float | None = None
    min_count: int = 5
    max_vocab: int | None = None
    sample: float | None = None
    threads: int | None = None
    seed: int = 1
    max_sentence_length: int = 1000
    lowercase: bool = False
    encoding_errors: str = "strict"
    tokenizer: str = "whitespace"
    minn: int = 3
    maxn: int = 6
    bucket: int = 2_000_000
    cooccur: str | None = None  # counts file for glove / ppmi-svd (else counted from the corpus)
    symmetric: bool = True
    distance_weighting: bool = True
    memory: float = 0.5
    x_max: float = 100.0
    eta: float = 0.05
    glove_output: str = "both"
    cds: float = 0.75
    neg: float = 1.0
    eig: float = 0.5

    def resolved(self) -> TrainConfig:
        """A checked copy with every default filled in; raises :class:`ConfigError`."""
        self._check()
        defaults = MODEL_DEFAULTS[self.model]
        filled = {
            name: defaults[name] if getattr(self, name) is None else getattr(self, name)
            for name in defaults
        }
        if self.min_alpha is None:
            filled["min_alpha"] = filled["alpha"] * MIN_ALPHA_FRACTION
        if self.threads is None:
            filled["threads"] = available_cores()
        if self.shared_negatives is None and self._skip_gram_ns:
            filled["shared_negatives"] = True
        resolved = dataclasses.replace(self, **filled)
        resolved._check()
        return resolved

    @property
    def cbow(self) -> bool:
        """Whether the window loop predicts the centre word from its context."""
        return self.model == "cbow" or (self.model == "fasttext" and self.arch == "cbow")

    @property
    def _skip_gram_ns(self) -> bool:
        return self.model in ("sg", "fasttext") and not self.cbow and self.loss == "ns"

    @property
    def subwords(self) -> bool:
        """Whether words are read through their character n-grams too."""
        return self.model == "fasttext" and self.maxn > 0

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)

    def _check(self) -> None:
        _one_of("model", self.model, MODELS)
        _one_of("arch", self.arch, ARCHITECTURES)
        _one_of("loss", self.loss, LOSSES)
        _one_of("encoding_errors", self.encoding_errors, ("strict", "replace", "ignore"))
        _one_of("tokenizer", self.tokenizer, TOKENIZERS)
        for name in ("dim", "min_count", "max_sentence_length"):
            _at_least(name, getattr(self, name), 1)
        for name in ("window", "epochs"):
            if getattr(self, name) is not None:
                _at_least(name, getattr(self, name), 1)
        _at_least("negative", self.negative, 0)
        _at_least("seed", self.seed, 0)
        if self.negative > MAX_NEGATIVE:
            raise ConfigError(f"--negative must be at most {MAX_NEGATIVE}, not {self.negative}")
        if self.loss == "ns" and self.negative < 1:
            raise ConfigError("--negative must be at least 1 with --loss ns")
        if self.shared_negatives is not None and not self._skip_gram_ns:
            chosen = "--shared-negatives" if self.shared_negatives else "--per-pair-negatives"
            raise ConfigError(
                f"{chosen} is for skip-gram with negative sampling "
                "(--model sg, or --model fasttext --arch sg; --loss ns)"
            )
        if self.max_vocab is not None:
            _at_least("max_vocab", self.max_vocab, 1)
        if self.threads is not None:
            _at_least("threads", self.threads, 1)
        if self.alpha is not None and not 0 < self.alpha < 10:
            raise ConfigError(f"--alpha must be in (0, 10), not {self.alpha}")
        if self.min_alpha is not None and self.min_alpha < 0:
            raise ConfigError(f"--min-alpha must be >= 0, not {self.min_alpha}")
        if self.sample is not None and not 0 <= self.sample < 1:
            raise ConfigError(f"--sample must be in [0, 1), not {self.sample}")
        if self.ns_exponent is not None and not -10 <= self.ns_exponent <= 10:
            raise ConfigError(f"--ns-exponent must be in [-10, 10], not {self.ns_exponent}")
        self._check_subwords()
        self._check_counts()

    def _check_counts(self) -> None:
        _one_of("glove_output", self.glove_output, GLOVE_OUTPUTS)
        for name in ("memory", "x_max", "eta"):
            if not getattr(self, name) > 0:
                raise ConfigError(f"{_option(name)} must be > 0, not {getattr(self, name)!r}")
        if not 0 < self.cds <= 1:
            raise ConfigError(f"--cds must be in (0, 1], not {self.cds}")
        if not self.neg >= 1:
            raise ConfigError(f"--neg (the PMI shift, log k) must be >= 1, not {self.neg}")
        if not 0 <= self.eig <= 1:
            raise ConfigError(f"--eig must be in [0, 1], not {self.eig}")
        if self.cooccur is not None and self.model not in COUNT_MODELS:
            raise ConfigError("--cooccur is for --model glove or ppmi-svd")

    def _check_subwords(self) -> None:
        _at_least("minn", self.minn, 1)
        _at_least("maxn", self.maxn, 0)
        _at_least("bucket", self.bucket, 1)
        if self.maxn and self.maxn < self.minn:
            raise ConfigError(f"--maxn ({self.maxn}) must be 0 (no subwords) or >= --minn")
        for name in ("bucket", "minn", "maxn"):  # fastText's .bin stores them as int32
            if getattr(self, name) >= 2**31:
                raise ConfigError(f"{_option(name)} must be below 2**31, not {getattr(self, name)}")


def _option(name: str) -> str:
    return "--" + name.replace("_", "-")


def _one_of(name: str, value: str, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise ConfigError(f"{_option(name)} must be one of {', '.join(choices)}, not {value!r}")


def _at_least(name: str, value: int, low: int) -> None:
    if not isinstance(value, int) or value < low:
        raise ConfigError(f"{_option(name)} must be an integer >= {low}, not {value!r}")
