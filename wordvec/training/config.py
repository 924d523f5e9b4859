"""Training options as one frozen dataclass whose fields are :mod:`wordvec.options`' table.

A field is None until given; :meth:`TrainConfig.resolved` checks what was given (range, and
that it applies to the model) and fills in the model's defaults.
"""

from __future__ import annotations

import dataclasses

from wordvec.errors import ConfigError
from wordvec.options import (
    MIN_ALPHA_FRACTION,
    OPTION,
    OPTIONS,
    config_class,
    predicts_centre,
    resolve,
)
from wordvec.runtime.parallel import thread_count

NAMES = tuple(option.name for option in OPTIONS)


class _TrainConfigMethods:
    """The methods of :data:`TrainConfig`."""

    def resolved(self) -> TrainConfig:
        """A checked copy with every default filled in; raises :class:`ConfigError`."""
        values = resolve(self.as_dict(), NAMES, self.model or "sg")
        if values["loss"] == "ns" and values["negative"] < 1:
            raise ConfigError("--negative must be at least 1 with --loss ns")
        if values["maxn"] and values["maxn"] < values["minn"]:
            raise ConfigError(f"--maxn ({values['maxn']}) must be 0 (no subwords) or >= --minn")
        if values["min_alpha"] is None:
            values["min_alpha"] = values["alpha"] * MIN_ALPHA_FRACTION
        values["threads"] = thread_count(values["threads"])
        if values["shared_negatives"] is None and not OPTION["shared_negatives"].does_not_apply(
            values
        ):
            values["shared_negatives"] = True
        return dataclasses.replace(self, **values)

    @property
    def cbow(self) -> bool:
        """Whether the window loop predicts the centre word from its context."""
        return predicts_centre(self.model, self.arch)

    @property
    def subwords(self) -> bool:
        """Whether words are read through their character n-grams too."""
        return self.model == "fasttext" and self.maxn > 0

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)


TrainConfig = config_class(
    "TrainConfig",
    NAMES,
    _TrainConfigMethods,
    "Everything that decides a training run: a field per option of wordvec.options, None "
    "until given or resolved.",
)
