"""The text classifier: its gradients, a step by hand, reproducibility, quality, and fastText's
files and figures both ways."""

from __future__ import annotations

import gzip
import itertools
import math

import numpy as np
import pytest
from click.testing import CliRunner

import wordvec
from tests.conftest import CORPORA
from wordvec.cli import main
from wordvec.corpus.huffman import build_huffman
from wordvec.corpus.labelled import EOS, LabelledVocabulary
from wordvec.corpus.output_layer import (
    build_alias_table,
    noise_distribution,
    output_layer,
    pack_alias_table,
)
from wordvec.corpus.vocab import Vocabulary
from wordvec.errors import FormatError
from wordvec.formats import load_classifier, load_vectors
from wordvec.kernels.losses import OutputLayer
from wordvec.kernels.supervised import HiddenLayer, line_rows, supervised_job
from wordvec.training.config import TrainConfig
from wordvec.training.supervised import line_memory

TRAIN = CORPORA / "cooking.train.gz"
VALID = CORPORA / "cooking.valid.gz"
E = np.float32


def _dictionary(words, labels, **subwords) -> LabelledVocabulary:
    settings = {"minn": 1, "maxn": 0, "bucket": 0, "word_ngrams": 1, **subwords}
    return LabelledVocabulary(
        Vocabulary(words, np.arange(len(words), 0, -1)),
        Vocabulary(labels, np.arange(len(labels), 0, -1) * 10),
        "__label__",
        **settings,
    )


def _one_line(dictionary: LabelledVocabulary, line: str):
    """The line as a stream of token ids (with its end marker) and the tables."""
    tokens = list(dict.fromkeys(line.split())) + [EOS]
    tables = dictionary.tables(tokens)
    ids = np.array([tokens.index(t) for t in line.split()] + [-1], dtype=np.int32)
    return ids, tables


def _output(loss: str, labels: Vocabulary, w_out: np.ndarray, negative: int = 1) -> OutputLayer:
    if loss == "hs":
        return output_layer(loss, w_out, huffman=build_huffman(labels.counts))
    if loss == "ns":
        table = pack_alias_table(build_alias_table(noise_distribution(labels.counts, 0.5)))
        return output_layer(loss, w_out, negative=negative, noise_table=table)
    return output_layer(loss, w_out)


def _step(loss: str, dictionary, line: str, w_in, w_out, alpha: float, seed: int = 3):
    """One kernel step on ``line``; returns the loss it reports."""
    ids, tables = _one_line(dictionary, line)
    out = _output(loss, dictionary.labels, w_out)
    config = TrainConfig(model="supervised", loss=loss, dim=w_in.shape[1], threads=1).resolved()
    scratch = line_memory(config, out, 64, 16)
    scratch.loss.rng[0] = seed
    layer = HiddenLayer(np.zeros((0, w_in.shape[1]), E), np.zeros(0, E), False)
    total, predictions, _ = supervised_job(ids, 1, alpha, alpha, w_in, tables, out, layer, scratch)
    assert predictions == 1
    return total


def _loss(loss: str, h: np.ndarray, w_out: np.ndarray, gold: list[int], tree, noise) -> float:
    """The classifier's loss, written plainly, for finite differences."""
    scores = w_out.astype(np.float64) @ h.astype(np.float64)
    log_sigmoid = lambda x: -np.logaddexp(0.0, -x)  # noqa: E731
    if loss == "softmax":
        return float(np.logaddexp.reduce(scores) - scores[gold[0]])
    if loss == "ova":
        signs = np.where(np.isin(np.arange(len(scores)), gold), 1.0, -1.0)
        return float(-log_sigmoid(signs * scores).sum())
    if loss == "ns":
        return float(-log_sigmoid(scores[gold[0]]) - sum(log_sigmoid(-scores[n]) for n in noise))
    codes, points, lengths = tree
    target = gold[0]
    path = range(lengths[target])
    return float(
        -sum(log_sigmoid((1 - 2 * codes[target, i]) * scores[points[target, i]]) for i in path)
    )


@pytest.mark.parametrize("loss", ["softmax", "ns", "hs", "ova"])
def test_each_loss_steps_down_its_gradient(loss):
    """The kernel's update is -alpha times the gradient of the loss, for the output rows and
    for each input row the line averages (checked by central differences)."""
    rng = np.random.default_rng(0)
    words = [EOS, "good", "cake", "bad"]
    labels = ["__label__a", "__label__b", "__label__c"]
    dictionary = _dictionary(words, labels)
    line = "__label__b good cake good"
    rows = [1, 2, 1, 0]  # good, cake, good, </s>
    gold = [1]
    w_in = rng.normal(0, 0.5, (4, 5)).astype(E)
    w_out = rng.normal(0, 0.5, (3 - (loss == "hs"), 5)).astype(E)
    tree = build_huffman(dictionary.labels.counts) if loss == "hs" else None
    alpha = 1e-3
    new_in, new_out = w_in.copy(), w_out.copy()
    reported = _step(loss, dictionary, line, new_in, new_out, alpha)

    candidates = [[]] if loss != "ns" else [[0], [2], []]  # the noise label drawn, or itself

    def loss_at(w_in_, w_out_, noise):
        return _loss(loss, w_in_[rows].mean(axis=0), w_out_, gold, tree, noise)

    noise = min(candidates, key=lambda n: abs(loss_at(w_in, w_out, n) - reported))
    assert reported == pytest.approx(loss_at(w_in, w_out, noise), rel=1e-5)
    eps = 1e-3
    for name, before, after in (("w_out", w_out, new_out), ("w_in", w_in, new_in)):
        numeric = np.zeros_like(before, dtype=np.float64)
        for index in np.ndindex(before.shape):
            plus, minus = before.astype(np.float64), before.astype(np.float64)
            plus[index] += eps
            minus[index] -= eps
            args = (plus, w_out) if name == "w_in" else (w_in, plus)
            margs = (minus, w_out) if name == "w_in" else (w_in, minus)
            numeric[index] = (loss_at(*args, noise) - loss_at(*margs, noise)) / (2 * eps)
        step = (after.astype(np.float64) - before) / -alpha
        np.testing.assert_allclose(step, numeric, atol=2e-4, err_msg=name)


def test_one_softmax_step_by_hand():
    """'__label__a good': h = mean(good, </s>) = (0.5, 0.5); scores a = 1, b = 0;
    p(a) = e / (e + 1) = 0.7310586; loss = ln(1 + 1/e) = 0.3132617. With alpha 0.1 the steps
    are 0.1 * (1 - p) = +0.0268941 for a and -0.0268941 for b; each row gets half of
    grad_h = 0.0268941 * (1, 1) + -0.0268941 * (0, 0)."""
    dictionary = _dictionary([EOS, "good"], ["__label__a", "__label__b"])
    w_in = np.array([[0, 1], [1, 0]], dtype=E)  # </s>, good
    w_out = np.array([[1, 1], [0, 0]], dtype=E)  # a, b
    loss = _step("softmax", dictionary, "__label__a good", w_in, w_out, 0.1)
    assert loss == pytest.approx(0.3132617, abs=1e-6)
    half = 0.0268941 / 2
    np.testing.assert_allclose(w_out, [[1 + half, 1 + half], [-half, -half]], atol=1e-6)
    np.testing.assert_allclose(w_in, [[half, 1 + half], [1 + half, half]], atol=1e-6)


def test_line_rows_are_fasttexts():
    """A line's rows: each word's (a word outside the vocabulary has only n-grams), </s>'s,
    then one bucket per word bigram over every word's hash (fastText's addWordNgrams)."""
    dictionary = _dictionary([EOS, "good", "cake"], ["__label__a"], bucket=100, word_ngrams=2)
    ids, tables = _one_line(dictionary, "__label__a good unknown cake __label__zzz")
    rows = np.zeros(32, np.int32)
    labels = np.zeros(8, np.int32)
    n_rows, n_labels = line_rows(ids, 0, len(ids) - 1, tables, rows, np.zeros(8, np.uint64), labels)
    assert labels[:n_labels].tolist() == [0]  # the unknown label is neither label nor word
    h = [int(x) for x in tables.hashes[[1, 2, 3, 5]]]  # good, unknown, cake, </s>
    mask = (1 << 64) - 1
    bigrams = [3 + ((a * 116049371 + b) & mask) % 100 for a, b in itertools.pairwise(h)]
    assert rows[:n_rows].tolist() == [1, 2, 0, *bigrams]


@pytest.fixture(scope="module")
def cooking(tmp_path_factory):
    """A classifier trained on the bundled cooking sample (25 epochs at lr 1.0, bigrams)."""
    path = tmp_path_factory.mktemp("cooking") / "clf.wv"
    model = wordvec.train(
        TRAIN, model="supervised", epochs=25, alpha=1.0, word_ngrams=2, bucket=100_000,
        threads=2, quiet=True,
    )  # fmt: skip
    model.save(path)
    return path


@pytest.mark.slow
def test_cooking_sample_reaches_fasttexts_precision(cooking):
    """fastText's tutorial settings give P@1 0.60 (SOURCES.md); a model that learnt nothing
    scores about 0.12 (the commonest label)."""
    report = wordvec.load_classifier(cooking).test(wordvec.text_lines(VALID))
    assert report.examples == 3000
    assert report.precision > 0.55
    assert 0.2 < report.recall < 0.3


def test_one_thread_with_a_seed_is_byte_identical(tmp_path):
    lines = "\n".join(
        f"__label__{'sweet' if i % 2 else 'salty'} {'cake sugar' if i % 2 else 'salt chips'} {i}"
        for i in range(300)
    )
    corpus = tmp_path / "c.txt"
    corpus.write_text(lines + "\n", encoding="utf-8")

    def weights(seed: int) -> bytes:
        model = wordvec.train(corpus, model="supervised", threads=1, seed=seed, quiet=True,
                              word_ngrams=2, bucket=1000, dim=8)  # fmt: skip
        return np.asarray(model.vectors).tobytes() + np.asarray(model.arrays["w_out"]).tobytes()

    first = weights(5)
    assert weights(5) == first
    assert weights(6) != first
    model = wordvec.train(corpus, model="supervised", threads=1, quiet=True, epochs=20, dim=8)
    assert model.predict("cake sugar")[0][0] == "__label__sweet"


def test_cli_train_test_predict_embed(tmp_path):
    runner = CliRunner()
    model = tmp_path / "clf.wv"
    result = runner.invoke(
        main, ["train", str(TRAIN), "-o", str(model), "--model", "supervised", "-q"]
    )
    assert result.exit_code == 0, result.output
    result = runner.invoke(main, ["test", str(model), str(VALID), "-k", "2"])
    assert result.exit_code == 0, result.output
    n, p, r = result.stdout.splitlines()
    assert n == "N\t3000" and p.startswith("P@2\t0.") and r.startswith("R@2\t0.")
    assert runner.invoke(main, ["test", str(model), str(VALID), "2"]).stdout == result.stdout
    result = runner.invoke(
        main, ["predict", str(model), "-k", "2", "--prob"], input="boil an egg\n"
    )
    label_a, p_a, label_b, p_b = result.stdout.split()
    assert label_a.startswith("__label__") and 1 >= float(p_a) >= float(p_b) > 0
    # fastText's forms: K and THRESHOLD after the file; predict prints the labels alone
    positional = runner.invoke(main, ["predict", str(model), "-", "2"], input="boil an egg\n")
    assert positional.stdout == f"{label_a} {label_b}\n"
    fasttexts = runner.invoke(main, ["predict-prob", str(model), "-", "2"], input="boil an egg\n")
    assert fasttexts.stdout == result.stdout  # fastText's name for predict --prob
    one = runner.invoke(main, ["predict", str(model), "-", "2", "0.999"], input="boil an egg\n")
    assert one.exit_code == 0 and one.stdout == "\n"  # none as probable: an empty line
    twice = runner.invoke(main, ["test", str(model), str(VALID), "2", "-k", "2"])
    assert twice.exit_code == 2 and "give -k once" in twice.output
    out = tmp_path / "s.npy"
    result = runner.invoke(main, ["embed", str(model), "-o", str(out)], input="boil an egg\n")
    assert result.exit_code == 0, result.output
    expected = wordvec.load_classifier(model).sentence_vector("boil an egg")
    np.testing.assert_array_equal(np.load(out), expected[None])
    result = runner.invoke(main, ["embed", str(model), "--pooling", "max"], input="egg\n")
    assert result.exit_code == 1
    assert "--pooling max does not apply to a classifier" in result.output
    result = runner.invoke(main, ["test", str(model), str(TRAIN.with_name("wiki-sample.txt.gz"))])
    assert result.exit_code == 1 and "no line with a label the model knows" in result.output


@pytest.mark.parametrize("loss", ["softmax", "hs"])
def test_lines_read_in_a_block_are_read_as_one_line_each(tmp_path, loss):
    """A test or a file's predictions read lines in blocks (one kernel call); each line's
    hidden vector is the mean of its rows, by hand here, whatever else is in the block."""
    model = wordvec.train(TRAIN, model="supervised", loss=loss, word_ngrams=2, bucket=5_000,
                          dim=8, epochs=1, quiet=True)  # fmt: skip
    model.save(tmp_path / "clf.wv")
    classifier = wordvec.load_classifier(tmp_path / "clf.wv")
    lines = ["__label__baking bread flour", "zzzz qqqq", "", "__label__eggs boil an egg ?"] * 3
    alone = [classifier.predict_lines([line], k=3) for line in lines]
    in_blocks = list(classifier.predict_lines(lines, k=3, block=5))
    one_by_one = [next(answer) for answer in alone]
    assert [[label for label, _ in a] for a in in_blocks] == [
        [label for label, _ in a] for a in one_by_one
    ]
    np.testing.assert_allclose([[p for _, p in a] for a in in_blocks],
                               [[p for _, p in a] for a in one_by_one], rtol=1e-12)  # fmt: skip
    dictionary = classifier.dictionary
    tokens = [*classifier.tokens("bread flour"), EOS]
    tables = dictionary.tables(tokens)
    own = [dictionary.words.index[token] for token in tokens]  # no character n-grams
    assert [list(tables.idx[tables.ptr[i] : tables.ptr[i + 1]]) for i in range(3)] == [
        [row] for row in own
    ]
    multiplier, bucket = np.uint64(116049371), np.uint64(dictionary.bucket)
    bigrams = [int((tables.hashes[i] * multiplier + tables.hashes[i + 1]) % bucket) for i in (0, 1)]
    rows = [*classifier.word_rows[own], *classifier.ngrams[bigrams]]
    np.testing.assert_allclose(classifier.sentence_vector("bread flour"),
                               np.mean(rows, axis=0), rtol=1e-5, atol=1e-7)  # fmt: skip
    report = classifier.test(lines)
    assert report.examples == 6 and report.total.gold == 6
    np.testing.assert_array_equal(
        list(classifier.sentence_vectors(lines, block=5)),
        [classifier.sentence_vector(line) for line in lines],
    )


def test_word_vectors_are_not_a_classifier(sample_model):
    with pytest.raises(FormatError, match="holds word vectors, not a classifier"):
        load_classifier(sample_model)


def test_pooling_of_plain_vectors_is_mean_or_max_of_known_words():
    vectors = wordvec.Vectors(["a", "b"], np.array([[1, 4], [3, 0]], dtype=E))
    pooled, empty = wordvec.sentence_vectors(vectors, ["a b zzz", "zzz", ["b"]], "mean")
    np.testing.assert_array_equal(pooled, [[2, 2], [0, 0], [3, 0]])
    assert empty == 1
    pooled, _ = wordvec.sentence_vectors(vectors, ["a b"], "max")
    np.testing.assert_array_equal(pooled, [[3, 4]])


# --- fastText both ways ---------------------------------------------------------------------

fasttext = pytest.importorskip("fasttext")
QUESTIONS = [
    "how do i cover up the white spots on my cast iron stove ?",
    "what kind of fat is best for frying chicken ?",
    "can i freeze bread dough ?",
]


@pytest.mark.parametrize("loss", ["softmax", "hs"])
def test_fasttext_predicts_our_export_as_we_do(tmp_path, loss):
    model = wordvec.train(TRAIN, model="supervised", loss=loss, word_ngrams=2, bucket=50_000,
                          dim=20, epochs=3, alpha=0.5, quiet=True)  # fmt: skip
    model.save(tmp_path / "clf.wv")
    runner = CliRunner()
    export = ["export", str(tmp_path / "clf.wv"), str(tmp_path / "clf.bin")]
    result = runner.invoke(main, [*export, "--format", "fasttext-bin"])
    assert result.exit_code == 0, result.output
    theirs = fasttext.load_model(str(tmp_path / "clf.bin"))
    ours = wordvec.load_classifier(tmp_path / "clf.wv")
    for question in QUESTIONS:
        labels, probabilities = theirs.predict(question, k=3)
        predicted = ours.predict(question, k=3)
        assert [label for label, _ in predicted] == list(labels)
        # fastText reports exp(log(p + 1e-5))
        np.testing.assert_allclose([p for _, p in predicted], probabilities - 1e-5, atol=1e-4)


def _by_fasttext(train, path: str, **settings):
    """A model trained by the fasttext package on one thread. With fewer buckets than its
    default 2M, fasttext-numpy2 0.10.4 gives other weights from run to run of the same
    settings, some of them 1e14 (it seems to read memory it never set), and stops with
    "Encountered NaN" on some (1 in 4 here); with 2M buckets five runs of five were the same.
    A NaN run is retried."""
    for attempt in range(5):
        try:
            return train(path, thread=1, verbose=0, **settings)
        except RuntimeError as exc:
            if "NaN" not in str(exc) or attempt == 4:
                raise


@pytest.fixture(scope="module")
def fasttext_classifier(tmp_path_factory):
    """A classifier trained by fastText itself (bigrams, character n-grams)."""
    path = tmp_path_factory.mktemp("ft") / "ft.bin"
    train = tmp_path_factory.getbasetemp() / "cooking.train"
    import gzip

    train.write_bytes(gzip.decompress(TRAIN.read_bytes()))
    model = _by_fasttext(fasttext.train_supervised, str(train), epoch=2, wordNgrams=2, dim=20,
                         minn=2, maxn=4, lr=0.5)  # fmt: skip
    model.save_model(str(path))
    return path, model


def test_we_predict_fasttexts_own_bin_as_it_does(fasttext_classifier):
    path, theirs = fasttext_classifier
    ours = wordvec.load_classifier(path)
    for question in QUESTIONS:
        labels, probabilities = theirs.predict(question, k=2)
        predicted = ours.predict(question, k=2)
        assert [label for label, _ in predicted] == list(labels)
        np.testing.assert_allclose([p for _, p in predicted], probabilities - 1e-5, atol=1e-4)


def test_embed_is_fasttexts_sentence_vector(fasttext_classifier, tmp_path):
    path, theirs = fasttext_classifier
    ours = wordvec.load_classifier(path)
    for question in QUESTIONS:
        np.testing.assert_allclose(
            ours.sentence_vector(question), theirs.get_sentence_vector(question), atol=1e-6,
            rtol=1e-5,
        )  # fmt: skip
    # and for word vectors (fastText's print-sentence-vectors: normalised word vectors)
    corpus = tmp_path / "words.txt"
    corpus.write_text("the cat sat on the mat with the hat\n" * 200, encoding="utf-8")
    # fastText's default 2M buckets: see _by_fasttext
    unsupervised = _by_fasttext(
        fasttext.train_unsupervised, str(corpus), dim=8, minCount=1, epoch=1
    )
    unsupervised.save_model(str(tmp_path / "u.bin"))
    vectors = load_vectors(tmp_path / "u.bin")
    for text in ("the cat sat", "a hat and mats", "zzz"):
        expected = unsupervised.get_sentence_vector(text)
        got = wordvec.sentence_vectors(vectors, [text])[0][0]
        np.testing.assert_allclose(got, expected, atol=1e-6)


def test_a_classifiers_bin_gives_its_word_vectors_as_fasttext_does(fasttext_classifier):
    """neighbors and eval on fastText's classifier search its words' vectors, as its nn."""
    fasttext = pytest.importorskip("fasttext")
    vectors = load_vectors(fasttext_classifier[0])
    theirs = fasttext.load_model(str(fasttext_classifier[0]))
    assert vectors.words == theirs.get_words()
    for word in vectors.words[:50]:
        np.testing.assert_allclose(vectors[word], theirs.get_word_vector(word), atol=1e-6)


def test_log_of_probabilities_sum_to_one_for_softmax_and_hs(cooking):
    classifier = wordvec.load_classifier(cooking)
    hidden = classifier.sentence_vector(QUESTIONS[0])
    assert classifier.probabilities(hidden).sum() == pytest.approx(1.0, abs=1e-6)
    assert math.isfinite(classifier.probabilities(hidden).max())


def test_one_vs_all_on_four_threads_keeps_one_threads_quality():
    """Threads' copies of the output rows, merged at a job's end, added up to ``threads`` times
    one-vs-all's step (every step pushes every other label's row the same way): on four threads
    at rate 0.3 the rows grew to 115-527 and P@1 fell to 0.34-0.37 in eight seeds of eight,
    where one thread scores 0.553-0.557 and four merging every 100 tokens 0.551-0.558 (75 runs).
    Not at fastText's rate 0.5: there one thread of fastText's own diverged in 9 runs of 20, and
    two of ours in 3 of 150, so a run at 0.5 fails now and then without any bug."""
    model = wordvec.train(TRAIN, model="supervised", loss="ova", alpha=0.3, epochs=5,
                          threads=4, seed=1, quiet=True)  # fmt: skip
    assert np.abs(model.arrays["w_out"]).max() < 100
    assert model.test(VALID).precision > 0.5


def test_a_collapsed_classifier_is_said_to_be_one(capfd):
    """A hidden layer at rate 1.0 ends predicting a few labels (P@1 0.04 on the cooking
    questions) without a word; its loss ends above an untrained model's."""
    model = wordvec.train(TRAIN, model="supervised", hidden=64, alpha=1.0, epochs=5, threads=1,
                          seed=1, quiet=True)  # fmt: skip
    warning = capfd.readouterr().err
    assert (
        "warning: the training loss ended at" in warning
        and "(--alpha, fastText's lr; it was 1)" in warning
    )
    assert model.test(VALID).precision < 0.2  # the collapse the warning is about
    wordvec.train(TRAIN, model="supervised", epochs=5, threads=1, seed=1, quiet=True)
    assert capfd.readouterr().err == ""  # a classifier that learned: no warning


def test_fasttext_predicts_our_one_vs_all_export_as_we_do_but_where_its_table_ties(tmp_path):
    """fastText's one-vs-all prediction takes each label's sigmoid from its 512-entry table
    (every score above 8 is 1.0, every one below -8 is 0.0, the rest in steps of 1/32), and
    of labels tied at the top answers the last: on the cooking questions 45 lines of 500 had
    a tie, and our exact sigmoid answered differently on 41 of them (fastText's P@1 on our
    file 0.546, ours 0.559). Where fastText's top probability is its own, we agree."""
    model = wordvec.train(TRAIN, model="supervised", loss="ova", word_ngrams=2, bucket=50_000,
                          dim=20, epochs=3, alpha=0.5, threads=1, quiet=True)  # fmt: skip
    from wordvec.formats import export

    model.save(tmp_path / "clf.wv")
    export(tmp_path / "clf.wv", tmp_path / "clf.bin", "fasttext-bin")
    theirs = fasttext.load_model(str(tmp_path / "clf.bin"))
    ours = wordvec.load_classifier(tmp_path / "clf.wv")
    lines = gzip.decompress(VALID.read_bytes()).decode().splitlines()[:300]
    untied = 0
    for line in lines:
        text = " ".join(word for word in line.split() if not word.startswith("__label__"))
        labels, probabilities = theirs.predict(text, k=2)
        if probabilities[0] > probabilities[1]:
            untied += 1
            assert ours.predict(text, k=1)[0][0] == labels[0], text
    assert untied > 250
