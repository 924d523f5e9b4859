"""Autotune: fastText's search of a classifier's settings, scored on a validation file."""

from __future__ import annotations

import gzip
import time

import pytest

import wordvec
from wordvec.errors import ConfigError
from wordvec.training.autotune import MINN_CHOICES, Search, _fitted, size_in_bytes, size_plan

from .conftest import CORPORA

START = {"epochs": 5, "alpha": 0.1, "dim": 100, "word_ngrams": 1, "minn": 0, "maxn": 0,
         "bucket": 2_000_000, "loss": "softmax"}  # fmt: skip


def test_the_first_trial_is_the_settings_given_and_the_others_stay_in_fastTexts_ranges():
    search = Search(START, given={"dim"}, duration=60.0, seed=1)
    assert search.ask(0.0) == START
    drawn = [search.ask(elapsed) for elapsed in range(1, 60)]
    assert all(1 <= s["epochs"] <= 100 and 0.01 <= s["alpha"] <= 5.0 for s in drawn)
    assert all(1 <= s["word_ngrams"] <= 5 and 10_000 <= s["bucket"] <= 10_000_000 for s in drawn)
    assert all(s["minn"] in MINN_CHOICES and s["maxn"] == (s["minn"] + 3 if s["minn"] else 0)
               for s in drawn)  # fmt: skip
    assert {s["dim"] for s in drawn} == {100}  # given: never drawn
    assert len({s["epochs"] for s in drawn}) > 10  # the others are searched
    again = Search(START, given={"dim"}, duration=60.0, seed=1)
    assert [again.ask(e) for e in range(0, 60)][1:] == drawn  # seeded


def test_a_trial_fits_in_memory_and_drops_unused_buckets():
    big = _fitted({**START, "dim": 1000, "bucket": 10_000_000, "word_ngrams": 2})
    assert big["bucket"] * big["dim"] * 4 <= 2 << 30
    assert "bucket" not in _fitted({**START, "word_ngrams": 1, "maxn": 0})


@pytest.fixture(scope="module")
def cooking(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cooking")
    lines = gzip.decompress((CORPORA / "cooking.train.gz").read_bytes()).splitlines(True)
    (folder / "train").write_bytes(b"".join(lines[:3000]))
    (folder / "valid").write_bytes(b"".join(lines[3000:4000]))
    wordvec.train(folder / "train", model="supervised", epochs=1, quiet=True)  # compiled once
    return folder / "train", folder / "valid"


def test_autotune_keeps_the_best_trials_model(cooking):
    train, valid = cooking
    model = wordvec.train(train, model="supervised", autotune_validation=valid,
                          autotune_duration=4, dim=10, quiet=True)  # fmt: skip
    assert model.settings["autotune_trials"] >= 1
    assert model.vectors.shape[1] == 10  # given, so kept
    assert model.test(valid).precision > 0


def test_autotune_through_the_fasttext_face(cooking):
    from wordvec import fasttext

    train, valid = cooking
    model = fasttext.train_supervised(input=str(train), autotuneValidationFile=str(valid),
                                      autotuneDuration=3, dim=8, verbose=0)  # fmt: skip
    assert model.get_dimension() == 8
    with pytest.raises(ValueError, match="autotuneValidationFile"):
        fasttext.train_supervised(input=str(train), autotuneDuration=3)
    sized = fasttext.train_supervised(input=str(train), autotuneValidationFile=str(valid),
                                      autotuneDuration=3, autotuneModelSize="300k", dim=8,
                                      verbose=0)  # fmt: skip
    assert sized.is_quantized() and sized.get_dimension() == 8
    with pytest.raises(ValueError, match="number of bytes"):
        fasttext.train_supervised(input=str(train), autotuneValidationFile=str(valid),
                                  autotuneModelSize="2MB", verbose=0)  # fmt: skip


def test_the_budget_leaves_out_the_time_numba_compiles(cooking):
    """A fresh install compiles the classifier's kernels in the first trial (6 s on the 2-vCPU
    VM): a budget that counted it ended a 3 s search with no trial. A compile event of
    2.5 s in the first of a 2 s search's trials (numba's own event, as it compiles) leaves it
    its trials (one trains here in ~0.1 s: the rest is margin for a loaded machine)."""
    from numba.core import event

    from wordvec.training.autotune import autotune

    train, valid = cooking
    trials = []

    def first_compiles(corpus, **options):
        if not trials:
            with event.trigger_event("numba:compile", data=dict(dispatcher=None, args=(),
                                                                return_type=None)):  # fmt: skip
                time.sleep(2.5)
        trials.append(options)
        return wordvec.train(corpus, **options)

    model = autotune(first_compiles, train, dict(model="supervised", dim=8, epochs=2),
                     validation=valid, duration=2.0, metric="f1", predictions=1,
                     quiet=True)  # fmt: skip
    assert model.settings["autotune_trials"] >= 1 and len(trials) >= 2


def test_autotune_is_refused_where_it_does_not_apply(cooking):
    train, valid = cooking
    with pytest.raises(ConfigError, match="does not apply to --model sg"):
        wordvec.train(train, model="sg", autotune_validation=valid, quiet=True)
    with pytest.raises(ConfigError, match="f1 or f1:LABEL"):
        wordvec.train(train, model="supervised", autotune_validation=valid, autotune_duration=1,
                      autotune_metric="precision", quiet=True)  # fmt: skip


def test_model_sizes_read_as_fasttexts():
    assert [size_in_bytes(t) for t in ("2M", "500k", "1G", "123")] == [
        2_000_000, 500_000, 1_000_000_000, 123]  # fmt: skip
    for bad in ("2MB", "", "M", "-1", "0", "1.5M"):
        with pytest.raises(ConfigError, match="number of bytes"):
            size_in_bytes(bad)
    assert Search(START, set(), 60.0, seed=1, sizing=True).ask(0.0)["dsub"] == 2
    searches = [Search(START, set(), 60.0, seed=seed, sizing=True) for seed in range(30)]
    drawn = {search.ask(0.0) and search.ask(1.0)["dsub"] for search in searches}
    assert drawn <= {2, 4, 8, 16} and len(drawn) > 1


@pytest.mark.parametrize("size", [100_000, 1_000_000])
def test_a_size_plan_quantizes_into_the_size(cooking, tmp_path, size):
    """fastText's estimate of a .ftz's bytes with the words' and labels' text counted, and
    the file wordvec writes by it: at most the size asked for, and most of it used where
    rows are cut (and retrained); nothing cut where all fit (24,221 rows, 636 labels)."""
    from wordvec.training.quantize import quantize

    train, _ = cooking
    model = wordvec.train(train, model="supervised", epochs=2, dim=16, word_ngrams=2,
                          bucket=20_000, quiet=True)  # fmt: skip
    plan = size_plan(model, 4, size)
    assert plan["qnorm"] and plan["qout"] == (len(model.arrays["w_out"]) >= 256)
    path = tmp_path / "sized.ftz"
    quantize(model, path, cutoff=plan["cutoff"], retrain=train if plan["retrain"] else None,
             qnorm=True, qout=plan["qout"], dsub=4)  # fmt: skip
    written = path.stat().st_size
    assert written <= size
    assert plan["retrain"] == (plan["cutoff"] > 0) == (size == 100_000)
    assert written > 0.7 * size or not plan["retrain"]
    assert size_plan(model, 4, 60_000) is None  # under 256 rows fit: the trial is skipped


def test_the_command_line_writes_the_sized_ftz(cooking, tmp_path):
    from click.testing import CliRunner

    from wordvec.cli import main

    train, valid = cooking
    out = tmp_path / "tuned.ftz"
    args = [
        "train",
        str(train),
        "--model",
        "supervised",
        "--autotune-validation",
        str(valid),
        "--autotune-duration",
        "3",
        "--autotune-model-size",
        "200k",
        "--dim",
        "8",
        "-q",
    ]
    result = CliRunner().invoke(main, [*args, "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert 0 < out.stat().st_size <= 200_000
    assert wordvec.load_classifier(out).quantized
    refused = CliRunner().invoke(main, [*args, "-o", str(tmp_path / "tuned.wv")])
    assert refused.exit_code != 0 and "-o NAME.ftz" in refused.output
    with pytest.raises(ConfigError, match="give --autotune-validation too"):
        wordvec.train(train, model="supervised", autotune_model_size="2M", quiet=True)


def test_autotunes_trials_keep_their_scratch_in_the_runs_tmp_dir(cooking, tmp_path, monkeypatch):
    """Every trial's scratch (its id stream, a sized trial's .ftz) goes in the run's
    ``tmp_dir``, not the system's temporary folder."""
    import wordvec.runtime.scratch as scratch
    import wordvec.training

    parents = []
    real = scratch.scratch_folder

    def recorded(tmp_dir=None):
        parents.append(tmp_dir)
        return real(tmp_dir)

    monkeypatch.setattr(scratch, "scratch_folder", recorded)
    monkeypatch.setattr(wordvec.training, "scratch_folder", recorded)
    train, valid = cooking
    place = tmp_path / "scratch"
    place.mkdir()
    wordvec.train(train, model="supervised", autotune_validation=valid, autotune_duration=3,
                  autotune_model_size="300k", dim=8, epochs=2, quiet=True,
                  tmp_dir=place)  # fmt: skip
    assert len(parents) >= 2 and all(parent == place for parent in parents)
