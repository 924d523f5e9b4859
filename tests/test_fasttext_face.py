"""``wordvec.fasttext``: the ``fasttext`` package's API over wordvec, held to the package
itself: the same calls on the same model file give the same answers, and a script written
for the package runs on the face."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pytest

from wordvec import fasttext as face

from .conftest import CORPORA, SAMPLE
from .test_supervised import _by_fasttext

fasttext = pytest.importorskip("fasttext")


@pytest.fixture(scope="module")
def cooking(tmp_path_factory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("cooking")
    for part in ("train", "valid"):
        (folder / part).write_bytes(gzip.decompress((CORPORA / f"cooking.{part}.gz").read_bytes()))
    return folder / "train", folder / "valid"


@pytest.fixture(scope="module")
def classifier(cooking, tmp_path_factory):
    """A classifier trained through the face, and the package's load of its saved .bin."""
    train, _ = cooking
    ours = face.train_supervised(input=str(train), epoch=5, lr=0.5, wordNgrams=2, minn=2,
                                 maxn=4, bucket=20000, thread=1, verbose=0)  # fmt: skip
    path = tmp_path_factory.mktemp("model") / "clf.bin"
    ours.save_model(str(path))
    return ours, fasttext.load_model(str(path)), path


LINES = ["how long should i boil an egg ?", "which knife is best for bread", "zzqx", ""]


def test_a_classifier_answers_as_the_package_does(classifier, cooking):
    ours, theirs, _ = classifier
    assert ours.get_words() == theirs.get_words()
    assert ours.get_labels() == theirs.get_labels()
    np.testing.assert_array_equal(ours.get_words(include_freq=True)[1],
                                  theirs.get_words(include_freq=True)[1])  # fmt: skip
    assert ours.get_dimension() == theirs.get_dimension()
    for word in ["egg", "bread", "unseenword", "</s>"]:
        assert ours.get_word_id(word) == theirs.get_word_id(word)
        names, ids = ours.get_subwords(word)
        their_names, their_ids = theirs.get_subwords(word)
        assert names == their_names
        np.testing.assert_array_equal(ids, their_ids)
        np.testing.assert_allclose(ours.get_word_vector(word), theirs.get_word_vector(word),
                                   atol=1e-6)  # fmt: skip
    np.testing.assert_allclose(ours.get_input_matrix(), theirs.get_input_matrix(), atol=1e-7)
    np.testing.assert_allclose(ours.get_output_matrix(), theirs.get_output_matrix(), atol=1e-7)
    for line in LINES:
        np.testing.assert_allclose(ours.get_sentence_vector(line),
                                   theirs.get_sentence_vector(line), atol=1e-5)  # fmt: skip
        labels, probabilities = ours.predict(line, k=3)
        their_labels, their_probabilities = theirs.predict(line, k=3)
        assert labels == their_labels
        np.testing.assert_allclose(probabilities, their_probabilities, rtol=1e-4, atol=1e-6)
        assert ours.get_line(line) == theirs.get_line(line)
    _, valid = cooking
    n, p, r = ours.test(str(valid))
    their_n, their_p, their_r = theirs.test(str(valid))
    assert n == their_n
    assert p == pytest.approx(their_p, abs=1e-3) and r == pytest.approx(their_r, abs=1e-3)


def test_k_minus_one_is_every_label_and_lists_answer_line_by_line(classifier):
    ours, theirs, _ = classifier
    labels, probabilities = ours.predict(LINES[0], k=-1)
    assert len(labels) == len(ours.get_labels()) == len(theirs.predict(LINES[0], k=-1)[0])
    floor = 1e-5 * len(labels)  # each probability reported as fastText's exp(log(p + 1e-5))
    assert probabilities.sum() == pytest.approx(1.0 + floor, abs=1e-4)  # softmax
    all_labels, all_probabilities = ours.predict(LINES, k=2)
    for line, got, got_p in zip(LINES, all_labels, all_probabilities):
        alone, alone_p = ours.predict(line, k=2)
        assert list(got) == list(alone) and list(got_p) == list(alone_p)
    with pytest.raises(ValueError, match="one line at a time"):
        ours.predict("two\nlines")


def test_a_script_for_the_package_runs_on_the_face(cooking):
    """The package's tutorial lines, unchanged but for the import."""
    train, valid = cooking
    answers = {}
    for name, module in (("fasttext", fasttext), ("face", face)):
        model = _by_fasttext(module.train_supervised, str(train), lr=1.0, epoch=10, wordNgrams=2,
                             bucket=200000, dim=50, loss="softmax")  # fmt: skip
        answers[name] = (model.test(str(valid)), model.predict(LINES[0], k=1)[0],
                         len(model.words), len(model.labels))  # fmt: skip
    (n, p, _), top, words, labels = answers["face"]
    (their_n, their_p, _), their_top, their_words, their_labels = answers["fasttext"]
    assert (n, words, labels) == (their_n, their_words, their_labels)
    assert p >= their_p - 0.03  # a 10-epoch run of each: within Hogwild-free spread
    assert top == their_top == ("__label__eggs",)


def test_unsupervised_models_list_the_end_of_line_word(tmp_path):
    text = tmp_path / "text.txt"
    with gzip.open(SAMPLE, "rt", encoding="utf-8") as sample:
        words = sample.read(200_000).split()[:20_000]
    text.write_text("\n".join(" ".join(words[i : i + 20]) for i in range(0, len(words), 20)))
    model = face.train_unsupervised(input=str(text), model="cbow", minCount=1, epoch=1,
                                    dim=10, bucket=5000, thread=1, verbose=0)  # fmt: skip
    vocabulary, counts = model.get_words(include_freq=True)
    assert dict(zip(vocabulary, counts))["</s>"] == 1000
    assert dict(zip(vocabulary, counts))["the"] == words.count("the")
    assert model.get_labels() == vocabulary
    vector = model.get_word_vector("anarchisms")  # unseen: its n-grams
    _, ids = model.get_subwords("anarchisms")
    np.testing.assert_allclose(vector, model.get_input_matrix()[ids].mean(axis=0), atol=1e-6)
    assert model.get_nearest_neighbors("king", k=3)[0][1] != "king"
    path = tmp_path / "model.bin"  # the file keeps </s>, so the word ids hold after a load
    model.save_model(str(path))
    for loaded in (face.load_model(str(path)), fasttext.load_model(str(path))):
        assert loaded.get_words(include_freq=True)[0] == vocabulary
        np.testing.assert_array_equal(loaded.get_words(include_freq=True)[1], counts)
        assert [loaded.get_word_id(w) for w in ("the", "</s>", "king")] == [
            model.get_word_id(w) for w in ("the", "</s>", "king")]  # fmt: skip
        np.testing.assert_array_equal(loaded.get_input_matrix(), model.get_input_matrix())
        np.testing.assert_allclose(loaded.get_word_vector("anarchisms"), vector, atol=1e-6)
    with pytest.raises(ValueError, match="supervised"):
        model.quantize()
    with pytest.raises(ValueError):
        face.train_unsupervised(input=str(tmp_path / "missing.txt"), verbose=0)


def test_the_package_helpers():
    import fasttext.util

    assert face.tokenize("asdf asdb\n") == fasttext.tokenize("asdf asdb\n") == ["asdf", "asdb",
                                                                              "</s>"]  # fmt: skip
    assert face.tokenize(" ") == fasttext.tokenize(" ") == []
    predictions = [["__label__a"], ["__label__b"], ["__label__a"]]
    gold = [["__label__a"], ["__label__a", "__label__c"], ["__label__b"]]
    assert face.util.test(predictions, gold) == fasttext.util.test(predictions, gold)
    rng = np.random.default_rng(0)
    vectors = rng.normal(size=(50, 8)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    for ban in (set(), {int(np.argmax(vectors @ vectors[3]))}, {3, 7, 11}):
        ours = face.util.find_nearest_neighbor(vectors[3], vectors, ban, np.empty(50, np.float32))
        assert ours == fasttext.util.find_nearest_neighbor(vectors[3], vectors, ban)
    with pytest.raises(ValueError, match="downloads nothing: fetch cc.en.300.bin.gz from https"):
        face.util.download_model("en", if_exists="ignore")


def test_fasttexts_commands_answer_on_the_command_line(classifier):
    """print-word-vectors and print-ngrams print what the package gives; nn and analogies
    point to neighbors; -k -1 predicts every label."""
    from click.testing import CliRunner

    from wordvec.cli import main

    _, theirs, path = classifier
    runner = CliRunner()
    result = runner.invoke(main, ["print-word-vectors", str(path)], input="egg unseenword\n")
    assert result.exit_code == 0, result.output
    for line, word in zip(result.stdout.splitlines(), ["egg", "unseenword"]):
        name, *numbers = line.split()
        assert name == word
        np.testing.assert_allclose(np.array(numbers, float), theirs.get_word_vector(word),
                                   rtol=1e-4, atol=1e-5)  # fmt: skip
    result = runner.invoke(main, ["print-ngrams", str(path), "eggs"])
    assert result.exit_code == 0, result.output
    assert [line.split()[0] for line in result.stdout.splitlines()] == theirs.get_subwords("eggs")[
        0
    ]
    result = runner.invoke(main, ["nn", str(path)])
    assert result.exit_code == 2
    assert "'nn' is fastText's command; use 'wordvec neighbors MODEL -k K'" in result.output
    result = runner.invoke(main, ["predict", str(path), "-k", "-1"], input=LINES[0] + "\n")
    assert result.exit_code == 0, result.output
    assert len(result.stdout.split()) == len(theirs.get_labels())
    result = runner.invoke(main, ["predict", str(path), "-k", "0"], input=LINES[0] + "\n")
    assert result.exit_code == 2 and "or -1 for all" in result.output


def test_quantize_makes_the_model_fasttexts_ftz(cooking, tmp_path):
    train, valid = cooking
    model = face.train_supervised(input=str(train), epoch=5, lr=0.5, wordNgrams=2,
                                  bucket=20000, thread=1, verbose=0)  # fmt: skip
    assert not model.is_quantized()
    model.quantize(input=str(train), cutoff=5000, retrain=True, qnorm=True, epoch=1)
    assert model.is_quantized()
    with pytest.raises(ValueError, match="quantized"):
        model.get_input_matrix()
    model.save_model(str(tmp_path / "model.ftz"))
    theirs = fasttext.load_model(str(tmp_path / "model.ftz"))
    assert theirs.is_quantized()
    for line in LINES[:3]:
        assert model.predict(line)[0] == theirs.predict(line)[0]
    assert model.test(str(valid))[0] == theirs.test(str(valid))[0]


def test_reduce_model_saves_the_reduced_model_as_the_package_does(tmp_path):
    """fastText's documented ``reduce_model(ft, dim)`` then ``save_model``: the file holds the
    reduced matrices (it held the original ones), for a loaded ``.bin`` and a trained model;
    the projection is on the components of the largest variance."""
    import fasttext.util

    text = tmp_path / "text.txt"
    with gzip.open(SAMPLE, "rt", encoding="utf-8") as sample:
        words = sample.read(200_000).split()[:20_000]
    text.write_text("\n".join(" ".join(words[i : i + 20]) for i in range(0, len(words), 20)))
    trained = face.train_unsupervised(str(text), dim=24, epoch=1, minCount=2, bucket=5000,
                                      thread=1, verbose=0)  # fmt: skip
    trained.save_model(str(tmp_path / "full.bin"))
    loaded = face.load_model(str(tmp_path / "full.bin"))
    np.testing.assert_array_equal(loaded.get_output_matrix(), trained.get_output_matrix())
    inputs = trained.get_input_matrix()
    for n, model in enumerate((trained, loaded)):
        face.util.reduce_model(model, 8)
        reduced = model.get_input_matrix()
        assert reduced.shape == (len(inputs), 8) and model.get_dimension() == 8
        centred = inputs - inputs.mean(axis=0)  # the variance kept: the top 8 components'
        top = np.linalg.svd(centred, compute_uv=False)[:8] ** 2
        kept = reduced - reduced.mean(axis=0)
        np.testing.assert_allclose(np.sort(np.linalg.norm(kept, axis=0) ** 2)[::-1], top,
                                   rtol=1e-3)  # fmt: skip
        path = tmp_path / f"reduced{n}.bin"
        model.save_model(str(path))
        for back in (face.load_model(str(path)), fasttext.load_model(str(path))):
            assert back.get_dimension() == 8
            np.testing.assert_allclose(back.get_word_vector("king"),
                                       model.get_word_vector("king"), atol=1e-6)  # fmt: skip
            np.testing.assert_allclose(back.get_output_matrix(), model.get_output_matrix(),
                                       atol=1e-6)  # fmt: skip
    fasttext.util.reduce_model(face.load_model(str(tmp_path / "full.bin")), 8)  # its call too


def test_the_tutorials_calls_answer_as_the_packages(tmp_path):
    """What fastText's README and tutorials call, on a model the face trained and the package
    read from its file: arguments by position and by the package's other names, ``model[w]``
    and ``w in model``, words as bytes, and analogies A - B + C (berlin - germany + france)."""
    text = tmp_path / "one-line.txt"
    with gzip.open(SAMPLE, "rt", encoding="utf-8") as sample:
        text.write_text(" ".join(sample.read(400_000).split()[:60_000]) + "\n")
    ours = face.train_unsupervised(str(text), "cbow", 0.05, 20, min_count=3, epoch=1,
                                   bucket=20000, thread=1, verbose=0)  # fmt: skip
    assert "</s>" not in ours.words  # one line: counted once, below minCount, as fastText's
    path = tmp_path / "cbow.bin"
    ours.save_model(str(path))
    theirs = fasttext.load_model(str(path))
    assert ours.words == theirs.words
    np.testing.assert_array_equal(ours["king"], ours.get_word_vector("king"))
    np.testing.assert_array_equal(ours.get_word_vector(b"king"), ours.get_word_vector("king"))
    assert ("king" in ours, "zzqxk" in ours) == ("king" in theirs, "zzqxk" in theirs) == (
        True, False)  # fmt: skip
    for triple in (("berlin", "germany", "france"), ("king", "man", "woman")):
        mine = [word for _, word in ours.get_analogies(*triple, k=5)]
        assert mine == [word for _, word in theirs.get_analogies(*triple, k=5)]
    with pytest.raises(TypeError, match="multiple values"):
        face.train_unsupervised(str(text), "cbow", model="skipgram")


def test_quantize_as_the_readme_calls_it(cooking, tmp_path):
    """``quantize(input=..., retrain=True)`` with the default cutoff (nothing cut, so nothing
    retrained), a retrain of a model without word n-grams, and ``is_quantized`` of a file
    named .ftz that is not quantized: the package's answers."""
    train, valid = cooking
    model = face.train_supervised(str(train), 0.5, 20, epoch=2, minCountLabel=1, thread=1,
                                  verbose=0)  # fmt: skip
    model.save_model(str(tmp_path / "plain.ftz"))
    assert not face.load_model(str(tmp_path / "plain.ftz")).is_quantized()
    assert not fasttext.load_model(str(tmp_path / "plain.ftz")).is_quantized()
    model.quantize(input=str(train), retrain=True)
    assert model.is_quantized() and model.test(str(valid))[1] > 0.1
    cut = face.train_supervised(str(train), epoch=2, thread=1, verbose=0)
    cut.quantize(input=str(train), retrain=True, cutoff=2000, epoch=1)
    cut.save_model(str(tmp_path / "cut.ftz"))
    assert face.load_model(str(tmp_path / "cut.ftz")).is_quantized()
    assert fasttext.load_model(str(tmp_path / "cut.ftz")).is_quantized()


@pytest.mark.parametrize(
    "given, named",
    [({"lr": -0.1}, "lr must be"), ({"dim": 0}, "dim must be"), ({"epoch": 0}, "epoch must be"),
     ({"ws": 0}, "ws must be"), ({"bucket": 10**11, "wordNgrams": 2}, "bucket must be")],
)  # fmt: skip
def test_errors_name_the_packages_arguments(cooking, given, named):
    with pytest.raises(ValueError, match=named) as raised:
        face.train_supervised(input=str(cooking[1]), **given)
    assert "--" not in str(raised.value)  # not the command line's --alpha, --epochs


def test_an_array_too_big_for_the_machine_is_its_arithmetic(monkeypatch):
    import errno
    import mmap

    from wordvec.errors import OutOfMemory
    from wordvec.runtime.memory import lazy_zeros

    def refuse(*args, **kwargs):
        raise OSError(errno.ENOMEM, "Cannot allocate memory")

    monkeypatch.setattr(mmap, "mmap", refuse)
    with pytest.raises(OutOfMemory, match=r"2,000,000 x 100 x 4 bytes = 0\.7 GiB"):
        lazy_zeros((2_000_000, 100), np.float32)


def test_save_model_where_it_cannot_names_the_path_and_the_cause(classifier, tmp_path):
    """A missing folder was a raw FileNotFoundError (for a model read from its file);
    fastText's is a ValueError."""
    ours, _, path = classifier
    target = tmp_path / "missing" / "m.bin"
    for model in (ours, face.load_model(str(path))):
        with pytest.raises(ValueError, match=f"output directory does not exist: {target.parent}"):
            model.save_model(str(target))
    with pytest.raises(ValueError, match="is the input file"):
        face.load_model(str(path)).save_model(str(path))
