"""Training options: one dataclass whose field names are the CLI's option names.

Defaults are word2vec's (``-size 100 -window 5 -negative 5 -sample 1e-3 -min-count 5 -iter 5``,
``-alpha`` 0.025 for skip-gram and 0.05 for CBOW, decaying linearly to 0.0001 of its start).
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass

from wordvec.errors import ConfigError
from wordvec.tokenize import TOKENIZERS

MODELS = ("sg", "cbow")
LOSSES = ("ns", "hs", "softmax")
DEFAULT_ALPHA = {"sg": 0.025, "cbow": 0.05}
MIN_ALPHA_FRACTION = 1e-4


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
    loss: str = "ns"
    dim: int = 100
    window: int = 5
    negative: int = 5
    ns_exponent: float = 0.75
    epochs: int = 5
    alpha: float | None = None
    min_alpha: float | None = None
    min_count: int = 5
    max_vocab: int | None = None
    sample: float = 1e-3
    threads: int | None = None
    seed: int = 1
    max_sentence_length: int = 1000
    lowercase: bool = False
    encoding_errors: str = "strict"
    tokenizer: str = "whitespace"

    def resolved(self) -> TrainConfig:
        """A checked copy with every default filled in; raises :class:`ConfigError`."""
        self._check()
        alpha = self.alpha if self.alpha is not None else DEFAULT_ALPHA[self.model]
        min_alpha = self.min_alpha if self.min_alpha is not None else alpha * MIN_ALPHA_FRACTION
        threads = self.threads if self.threads is not None else available_cores()
        return dataclasses.replace(self, alpha=alpha, min_alpha=min_alpha, threads=threads)

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)

    def _check(self) -> None:
        _one_of("model", self.model, MODELS)
        _one_of("loss", self.loss, LOSSES)
        _one_of("encoding_errors", self.encoding_errors, ("strict", "replace", "ignore"))
        _one_of("tokenizer", self.tokenizer, TOKENIZERS)
        for name in ("dim", "window", "epochs", "min_count", "max_sentence_length"):
            _at_least(name, getattr(self, name), 1)
        _at_least("negative", self.negative, 0)
        if self.loss == "ns" and self.negative < 1:
            raise ConfigError("--negative must be at least 1 with --loss ns")
        if self.max_vocab is not None:
            _at_least("max_vocab", self.max_vocab, 1)
        if self.threads is not None:
            _at_least("threads", self.threads, 1)
        if self.alpha is not None and not 0 < self.alpha < 10:
            raise ConfigError(f"--alpha must be in (0, 10), not {self.alpha}")
        if self.min_alpha is not None and self.min_alpha < 0:
            raise ConfigError(f"--min-alpha must be >= 0, not {self.min_alpha}")
        if not 0 <= self.sample < 1:
            raise ConfigError(f"--sample must be in [0, 1), not {self.sample}")
        if not -10 <= self.ns_exponent <= 10:
            raise ConfigError(f"--ns-exponent must be in [-10, 10], not {self.ns_exponent}")


def _option(name: str) -> str:
    return "--" + name.replace("_", "-")


def _one_of(name: str, value: str, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise ConfigError(f"{_option(name)} must be one of {', '.join(choices)}, not {value!r}")


def _at_least(name: str, value: int, low: int) -> None:
    if not isinstance(value, int) or value < low:
        raise ConfigError(f"{_option(name)} must be an integer >= {low}, not {value!r}")
