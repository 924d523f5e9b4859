"""The typed configs declare the options of wordvec.options field for field, and resolve once."""

from __future__ import annotations

import dataclasses
import typing
from pathlib import Path

import pytest

from wordvec.errors import ConfigError
from wordvec.options import (
    COUNTING,
    OPTION,
    OPTIONS,
    READING,
    CooccurConfig,
    ReadingOptions,
)
from wordvec.runtime.parallel import available_cores
from wordvec.training.config import TrainConfig

KIND_NAMES = {int: "int", float: "float", bool: "bool", str: "str", Path: "str"}


def _fields(cls) -> dict[str, str]:
    hints = typing.get_type_hints(cls)
    return {field.name: str(hints[field.name]) for field in dataclasses.fields(cls)}


@pytest.mark.parametrize(
    ("config", "names"),
    [(TrainConfig, [option.name for option in OPTIONS]), (CooccurConfig, COUNTING)],
    ids=["TrainConfig", "CooccurConfig"],
)
def test_configs_have_a_field_of_each_options_kind(config, names):
    fields = _fields(config)
    assert list(fields) == list(names)  # a model file's settings keep this order
    for name, hint in fields.items():
        assert hint == f"{KIND_NAMES[OPTION[name].kind]} | None", name


def test_reading_options_default_to_the_declared_defaults():
    """Every default is the table's, and threads not given are every core, resolved once."""
    assert [field.name for field in dataclasses.fields(ReadingOptions)] == list(READING)
    defaults = {name: OPTION[name].default for name in READING}
    assert dataclasses.asdict(ReadingOptions()) == {**defaults, "threads": available_cores()}
    assert ReadingOptions.of().threads == available_cores()
    assert ReadingOptions.of(threads=3).threads == 3


def test_reading_options_are_checked_once_and_typed():
    reading = ReadingOptions.of(min_count=2, read_vocab=Path("v.txt"))
    assert (reading.min_count, reading.read_vocab, reading.tokenizer) == (2, "v.txt", "whitespace")
    with pytest.raises(ConfigError, match=r"--min-count must be in \[1, inf\), not 0"):
        ReadingOptions.of(min_count=0)
    with pytest.raises(ConfigError, match="not a reading option: window"):
        ReadingOptions.of(window=5)


def test_a_resolved_config_has_its_groups_and_every_core():
    config = TrainConfig(model="glove", min_count=3, lowercase=True).resolved()
    assert config.threads == available_cores()
    assert config.reading == ReadingOptions.of(min_count=3, lowercase=True)
    assert (
        config.counting.resolved()
        == CooccurConfig(window=10, min_count=3, lowercase=True, threads=config.threads).resolved()
    )


def test_every_model_of_the_table_has_one_trainer():
    """The model registry: each model the option table knows trains on word ids (a trainer in
    training.ON_WORD_IDS), on counts, or on labelled lines, and only one of them."""
    import importlib

    from wordvec.options import COUNT_MODELS, MODELS, SUPERVISED
    from wordvec.training import ON_WORD_IDS

    assert sorted([*ON_WORD_IDS, *COUNT_MODELS, SUPERVISED]) == sorted(MODELS)
    for where in ON_WORD_IDS.values():
        module, function = where.split(":")
        assert callable(getattr(importlib.import_module(f"wordvec.training.{module}"), function))
