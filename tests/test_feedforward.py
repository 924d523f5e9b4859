"""The course's feed-forward classifier: max pooling and a hidden layer (``--pooling max``,
``--hidden N``) between a line's rows and the output layer, checked against finite
differences, on the cooking data, and refused where fastText's format cannot hold it."""

from __future__ import annotations

import numpy as np
import pytest

import wordvec
from wordvec.corpus.labelled import EOS
from wordvec.errors import FormatError
from wordvec.kernels.supervised import HiddenLayer, supervised_job
from wordvec.training.config import TrainConfig
from wordvec.training.supervised import line_memory

from .test_supervised import TRAIN, VALID, E, _dictionary, _one_line, _output


def _forward(w_in, rows, weights, bias, w_out, max_pool):
    """The classifier's loss for label 1 (softmax), written plainly."""
    taken = w_in[rows].astype(np.float64)
    pooled = taken.max(axis=0) if max_pool else taken.mean(axis=0)
    feed = np.tanh(weights.astype(np.float64) @ pooled + bias) if len(weights) else pooled
    scores = w_out.astype(np.float64) @ feed
    return float(np.logaddexp.reduce(scores) - scores[1])


@pytest.mark.parametrize(("units", "max_pool"), [(4, False), (0, True), (4, True)])
def test_a_step_is_minus_alpha_times_the_gradient(units, max_pool):
    """Every weight (input rows, hidden layer, output rows) moves by -alpha times the loss's
    gradient, by central differences; with max pooling only the rows that gave a maximum."""
    rng = np.random.default_rng(1)
    dictionary = _dictionary(
        [EOS, "good", "cake", "bad"], ["__label__a", "__label__b", "__label__c"]
    )
    line, rows = "__label__b good cake good", [1, 2, 1, 0]
    dim = 5
    params = {
        "w_in": rng.normal(0, 0.5, (4, dim)).astype(E),
        "weights": rng.normal(0, 0.5, (units, dim)).astype(E),
        "bias": rng.normal(0, 0.5, units).astype(E),
        "w_out": rng.normal(0, 0.5, (3, units or dim)).astype(E),
    }
    after = {name: value.copy() for name, value in params.items()}
    ids, tables = _one_line(dictionary, line)
    out = _output("softmax", dictionary.labels, after["w_out"])
    config = TrainConfig(model="supervised", loss="softmax", dim=dim, threads=1, hidden=units,
                         pooling="max" if max_pool else "mean").resolved()  # fmt: skip
    scratch = line_memory(config, out, 64, 16)
    layer = HiddenLayer(after["weights"], after["bias"], max_pool)
    alpha = 1e-3
    supervised_job(ids, 1, alpha, alpha, after["w_in"], tables, out, layer, scratch)

    def loss(**changed):
        values = {**params, **changed}
        return _forward(values["w_in"], rows, values["weights"], values["bias"],
                        values["w_out"], max_pool)  # fmt: skip

    eps = 1e-3
    for name, before in params.items():
        numeric = np.zeros(before.shape)
        for index in np.ndindex(before.shape):
            plus, minus = before.astype(np.float64), before.astype(np.float64)
            plus[index] += eps
            minus[index] -= eps
            numeric[index] = (loss(**{name: plus}) - loss(**{name: minus})) / (2 * eps)
        step = (after[name].astype(np.float64) - before) / -alpha
        np.testing.assert_allclose(step, numeric, atol=3e-4, err_msg=name)


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    folder = tmp_path_factory.mktemp("feedforward")
    models = {}
    # the layer and max pooling want a smaller learning rate than fastText's linear model
    settings = {"linear": {"alpha": 1.0}, "hidden": {"hidden": 64, "alpha": 0.2},
                "max": {"pooling": "max", "alpha": 0.2}}  # fmt: skip
    for name, options in settings.items():
        model = wordvec.train(TRAIN, model="supervised", epochs=10, word_ngrams=2,
                              bucket=100_000, threads=1, seed=1, quiet=True, **options)  # fmt: skip
        model.save(folder / f"{name}.wv")
        models[name] = wordvec.Model.load(folder / f"{name}.wv")
    return folder, models


def test_the_feed_forward_classifiers_learn_the_cooking_labels(trained):
    """A broken layer or pooling predicts one label for every line (P@1 about 0.06)."""
    _, models = trained
    precision = {name: model.test(VALID).precision for name, model in models.items()}
    assert precision["hidden"] > 0.4 and precision["max"] > 0.5, precision
    assert precision["linear"] > 0.5, precision


def test_fasttext_files_are_refused_for_a_hidden_layer_or_max_pooling(trained, tmp_path):
    """fastText cannot hold them: its .bin of a hidden layer was a std::bad_alloc, of max
    pooling a model answered with mean pooling, the .ftz a P@1 of .001. Every door refuses."""
    from click.testing import CliRunner

    from wordvec.cli import main

    folder, _ = trained
    for name in ("hidden", "max"):
        for fmt, out in (("fasttext-bin", "x.bin"), ("fasttext-ftz", "x.ftz")):
            with pytest.raises(FormatError, match="--hidden or --pooling max"):
                wordvec.formats.export(folder / f"{name}.wv", tmp_path / out, fmt)
            assert not (tmp_path / out).exists()
        quantized = CliRunner().invoke(main, ["quantize", str(folder / f"{name}.wv"), "-o",
                                              str(tmp_path / "q.ftz")])  # fmt: skip
        assert quantized.exit_code == 1 and "--hidden or --pooling max" in quantized.output
    for option in (["--hidden", "4"], ["--pooling", "max"]):  # refused before training
        trained_to = CliRunner().invoke(main, ["train", str(TRAIN), "--model", "supervised",
                                               *option, "-o", str(tmp_path / "c.bin")])  # fmt: skip
        assert trained_to.exit_code == 2 and "keep it in wordvec's format" in trained_to.output
        assert not (tmp_path / "c.bin").exists()
