"""fastText subword vectors: n-grams and hashes as fastText's, unseen words, .vec and .bin files."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

import wordvec
from tests.conftest import SAMPLE, WS353
from wordvec.cli import main
from wordvec.corpus.subwords import char_ngrams, ngram_hashes, subword_rows
from wordvec.errors import FormatError, VocabularyError
from wordvec.formats import export, load_vectors
from wordvec.model import Model
from wordvec.query.subword_vectors import SubwordVectors

# Bucket indices (hash % 2,000,000, before adding the vocabulary size) that fastText 0.9
# (the fasttext-numpy2 package's get_subwords) gives with minn 3, maxn 6, in its order.
FASTTEXT_BUCKETS = {
    "cat": [916747, 1988973, 1428137, 289031, 1127995, 351106],
    "где": [1050178, 1415257, 1351333, 650951, 1057531, 1554068],
    "北京大学": [
        1187847, 1321651, 1774625, 908877, 753389, 943851, 285519, 1462783, 92371, 363219,
    ],
}  # fmt: skip
# Plurals that occur fewer than 5 times in the bundled corpus, so outside its vocabulary,
# whose singulars are in it.
UNSEEN_PLURALS = ["republics", "constitutions", "apples", "animations", "alkalis"]


def test_ngrams_of_cat_and_cats():
    assert char_ngrams("cat", 3, 3) == ["<ca", "cat", "at>"]
    assert char_ngrams("cats", 3, 3) == ["<ca", "cat", "ats", "ts>"]
    assert char_ngrams("cat", 3, 6) == ["<ca", "<cat", "<cat>", "cat", "cat>", "at>"]
    assert char_ngrams("cat", 3, 0) == []


def test_ngrams_count_characters_not_bytes():
    assert char_ngrams("北京", 1, 2) == ["<北", "北", "北京", "京", "京>"]
    assert char_ngrams("где", 5, 5) == ["<где>"]


@pytest.mark.parametrize("word", sorted(FASTTEXT_BUCKETS))
def test_buckets_equal_fasttexts(word):
    _, idx = subword_rows([word], 0, 3, 6, 2_000_000)
    assert idx.tolist() == FASTTEXT_BUCKETS[word]


def test_an_absurd_maxn_costs_no_more_than_the_longest_word():
    """A damaged .bin saying maxn = 2**30 (within fastText's int32) made the n-gram arrays
    that many times the words' length: gigabytes and minutes (found by make fuzz). No n-gram
    is longer than the word, so the result is maxn = longest's, at its cost."""
    words = ["cat", "république", "北京"]
    np.testing.assert_array_equal(ngram_hashes(words, 3, 2**30)[1], ngram_hashes(words, 3, 14)[1])


def test_vocabulary_word_reads_its_own_row_first():
    ptr, idx = subword_rows(["cat", "dog"], 2, 3, 3, 100)
    assert ptr.tolist() == [0, 4, 8]
    assert idx[0] == 0 and idx[4] == 1
    assert all(2 <= i < 102 for i in np.delete(idx, [0, 4]))


@pytest.fixture(scope="module")
def subword_model(tmp_path_factory):
    """fastText skip-gram on the bundled corpus, saved."""
    import wordvec

    model = wordvec.train(
        SAMPLE, model="fasttext", bucket=200_000, epochs=5, threads=2, seed=1, quiet=True
    )
    path = tmp_path_factory.mktemp("fasttext") / "ft.wv"
    model.save(path)
    return path


def ngram_buckets(wv: SubwordVectors, word: str) -> np.ndarray:
    """The bucket (row of ``ngrams``) of each of the word's n-grams."""
    return (ngram_hashes([word], wv.minn, wv.maxn)[1] % wv.bucket).astype(np.int64)


def test_vectors_are_means_of_their_rows(subword_model):
    model = Model.load(subword_model)
    wv = model.wv
    assert isinstance(wv, SubwordVectors)
    words, rows, ngrams = model.vocab.words, model.arrays["word_rows"], model.arrays["ngrams"]
    for word in ["the", "republic", "anarchism"]:
        i = words.index(word)
        buckets = ngram_buckets(wv, word)
        expected = (rows[i] + ngrams[buckets].sum(axis=0)) / (1 + len(buckets))
        np.testing.assert_allclose(wv.vector(word), expected, rtol=1e-5, atol=1e-6)
    for word in UNSEEN_PLURALS:
        assert word not in wv.index and word in wv  # no row of its own, but a vector
        expected = ngrams[ngram_buckets(wv, word)].mean(axis=0)
        np.testing.assert_allclose(wv.vector(word), expected, rtol=1e-5, atol=1e-6)


def test_unseen_plural_has_its_singular_among_neighbours(subword_model):
    wv = Model.load(subword_model).wv
    hits = [p for p in UNSEEN_PLURALS if p[:-1] in [w for w, _ in wv.most_similar(p, k=10)]]
    assert len(hits) >= 3, hits  # seeds 1-3: 4 or 5 of 5 (4 with fastText itself)


def test_quality_floor_on_bundled_corpus(subword_model):
    from wordvec.query.evaluate import evaluate_similarity, read_similarity

    rho = evaluate_similarity(Model.load(subword_model).wv, read_similarity(WS353), oov="skip").rho
    # in-vocabulary pairs, seeds 1-3: 0.474-0.483 (per-pair negatives: 0.412-0.431); the
    # fasttext package on the same data: 0.38-0.40
    assert rho > 0.40


def test_word_without_a_known_ngram_is_refused(subword_model):
    wv = Model.load(subword_model).wv
    with pytest.raises(VocabularyError, match="shares no character n-gram"):
        wv.vector("北京")


def test_vec_export_holds_full_subword_vectors(subword_model, tmp_path):
    export(subword_model, tmp_path / "ft.vec", "vec")
    vec = load_vectors(tmp_path / "ft.vec")
    wv = Model.load(subword_model).wv
    np.testing.assert_allclose(vec.vector("republic"), wv.vector("republic"), rtol=1e-5)
    assert len(vec) == len(wv)


@pytest.fixture(scope="module")
def subword_bin(subword_model, tmp_path_factory):
    path = tmp_path_factory.mktemp("bin") / "ft.bin"
    export(subword_model, path, "fasttext-bin")
    return path


def test_our_bin_reads_back(subword_model, subword_bin):
    ours, back = Model.load(subword_model).wv, load_vectors(subword_bin)
    np.testing.assert_array_equal(back.vectors, ours.vectors)
    for word in ["republic", "republics"]:
        np.testing.assert_allclose(back.vector(word), ours.vector(word), atol=1e-6)


def test_gensim_loads_our_bin(subword_model, subword_bin):
    from gensim.models.fasttext import load_facebook_model

    gensim_model = load_facebook_model(str(subword_bin))
    ours = Model.load(subword_model).wv
    for word in ["republic", "republics", "computerisation"]:
        np.testing.assert_allclose(gensim_model.wv[word], ours.vector(word), atol=1e-5)


def test_fasttext_loads_our_bin(subword_model, subword_bin):
    fasttext = pytest.importorskip("fasttext")
    loaded = fasttext.load_model(str(subword_bin))
    ours = Model.load(subword_model).wv
    for word in ["republic", "republics", "computerisation"]:
        np.testing.assert_allclose(loaded.get_word_vector(word), ours.vector(word), atol=1e-5)


def test_we_read_a_bin_made_by_fasttext(tmp_path):
    fasttext = pytest.importorskip("fasttext")
    corpus = tmp_path / "tiny.txt"
    corpus.write_text("the cat sat on the mat\nthe dog sat on the log\n" * 30)
    # fastText 0.9 initialises a tenth of its input matrix per thread and leaves the rest as
    # the allocator returns it (in fasttext-numpy2 sometimes NaN, which wordvec then refuses,
    # rightly): 10 threads and (8 words + 1,002 buckets) x 8 floats, a multiple of 10, set
    # every float.
    trained = fasttext.train_unsupervised(
        str(corpus), dim=8, minCount=1, bucket=1002, epoch=1, thread=10, lr=0.01, verbose=0
    )
    trained.save_model(str(tmp_path / "theirs.bin"))
    vectors = load_vectors(tmp_path / "theirs.bin")
    for word in ["cat", "mat", "cats", "matter"]:
        expected = trained.get_word_vector(word)
        np.testing.assert_allclose(vectors.vector(word), expected, rtol=1e-5, atol=1e-6)


def test_truncated_bin_is_a_clear_error(subword_bin, tmp_path):
    data = subword_bin.read_bytes()
    for size in (6, 60, 2000, len(data) - 100):
        cut = tmp_path / "cut.bin"
        cut.write_bytes(data[:size])
        with pytest.raises(FormatError, match="truncated"):
            load_vectors(cut)


def test_bin_with_a_negative_bucket_count_is_refused(tmp_path):
    """A header whose bucket count is negative, with an input matrix of n_words + bucket rows
    (so the size check passes), once crashed neighbors and eval with SIGSEGV."""
    from wordvec.corpus.vocab import Vocabulary
    from wordvec.formats.fasttext_bin import write_fasttext_bin

    dim = 4
    model = Model(
        Vocabulary(["cat", "dog"], np.array([5, 5])),
        np.ones((2, dim), np.float32),
        settings={"minn": 3, "maxn": 6, "bucket": -1},
        arrays={"word_rows": np.ones((1, dim), np.float32), "ngrams": np.ones((0, dim), "f4")},
    )
    write_fasttext_bin(model, tmp_path / "bad.bin")
    with pytest.raises(FormatError, match=r"corrupt \(-1 n-gram rows for -1 buckets\)"):
        load_vectors(tmp_path / "bad.bin")
    result = CliRunner().invoke(main, ["neighbors", str(tmp_path / "bad.bin"), "cat"])
    assert result.exit_code == 1
    assert result.output == "Error: bad.bin is corrupt (-1 n-gram rows for -1 buckets)\n"


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"minn": -(2**62), "maxn": 2**62}, "n-gram lengths minn -4611686018427387904"),
        ({"minn": 5, "maxn": 3}, "n-gram lengths minn 5, maxn 3"),
        ({"bucket": 1000}, "200000 n-gram rows for 1000 buckets"),
        ({"minn": "three"}, "subword settings"),
    ],
    ids=["huge-lengths", "minn-above-maxn", "bucket-disagrees", "not-a-number"],
)
def test_model_with_bad_subword_settings_is_refused(subword_model, tmp_path, settings, message):
    """Hand-edited settings of a wordvec fastText model: one Error line, where they once made
    queries abort (malloc) or exported a .bin that crashed fastText."""
    good = Model.load(subword_model)
    bad, exported = tmp_path / "bad.wv", tmp_path / "x.bin"
    edited = {**good.settings, **settings}
    Model(good.vocab, good.vectors, settings=edited, arrays=good.arrays).save(bad)
    commands = [
        ["neighbors", str(bad), "republics"],
        ["export", str(bad), str(exported), "--format", "fasttext-bin"],
    ]
    for command in commands:
        result = CliRunner().invoke(main, command)
        assert result.exit_code == 1
        assert result.output.startswith(f"Error: bad.wv is corrupt ({message}")
    assert not exported.exists()


def test_export_of_a_model_with_a_damaged_setting_is_one_error(subword_model, tmp_path):
    """Found by the fuzz test: a flipped byte in the settings' loss name was a KeyError."""
    good = Model.load(subword_model)
    bad = tmp_path / "bad.wv"
    Model(
        good.vocab, good.vectors, settings={**good.settings, "loss": "Ns"}, arrays=good.arrays
    ).save(bad)
    result = CliRunner().invoke(
        main, ["export", str(bad), str(tmp_path / "x.bin"), "-f", "fasttext-bin"]
    )
    assert result.output == "Error: bad.wv is corrupt: its settings (KeyError('Ns'))\n"
    assert not (tmp_path / "x.bin").exists()


def test_cli_fasttext_end_to_end(tmp_path):
    corpus = tmp_path / "c.txt"
    corpus.write_text("the quick brown fox jumps over the lazy dog\n" * 50)
    runner = CliRunner()
    model = tmp_path / "ft.wv"
    result = runner.invoke(
        main,
        ["train", str(corpus), "-o", str(model), "--model", "fasttext", "--arch", "cbow",
         "--bucket", "5000", "--min-count", "1", "--dim", "10", "-q"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    result = runner.invoke(main, ["neighbors", str(model), "foxes", "-k", "3"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("foxes\n")
    result = runner.invoke(main, ["neighbors", str(model), "北京"])
    assert result.exit_code == 1
    assert result.output.startswith("Error: '北京' is not in the vocabulary and shares no")
    vec = tmp_path / "v.txt"
    assert runner.invoke(main, ["export", str(model), str(vec)]).exit_code == 0
    result = runner.invoke(
        main, ["export", str(vec), str(tmp_path / "x.bin"), "-f", "fasttext-bin"]
    )
    assert result.exit_code == 1
    assert "needs a wordvec model file" in result.output


def test_word2vec_model_exports_as_bin_without_subwords(sample_model, tmp_path):
    export(sample_model, tmp_path / "sg.bin", "fasttext-bin")
    back = load_vectors(tmp_path / "sg.bin")
    assert not isinstance(back, SubwordVectors)
    np.testing.assert_array_equal(back.vectors, Model.load(sample_model).vectors)


def test_both_output_layers_export_as_gensim_writes_them(tmp_path):
    """fastText's file holds one output layer: a ``--loss hs+ns`` model's ``.bin`` says hs
    with its ``neg`` and keeps the tree's rows (gensim's ``save_facebook_model`` of ``hs=1,
    negative=5``), and the gensim face reads it back as gensim does: both flags, ``syn1``
    from the file and ``syn1neg`` from zero."""
    from wordvec.formats.fasttext_bin import read_fasttext_file
    from wordvec.gensim.fasttext import load_facebook_model

    text = tmp_path / "t.txt"
    text.write_text("the cat sat on the mat and the dog sat on the log\n" * 30)
    model = wordvec.train(text, model="fasttext", loss="hs+ns", bucket=100, dim=8, epochs=2,
                          min_count=1, threads=1, seed=1, quiet=True)  # fmt: skip
    model.save(tmp_path / "both.wv")
    export(tmp_path / "both.wv", tmp_path / "both.bin", "fasttext-bin")
    found = read_fasttext_file(tmp_path / "both.bin")
    words, tree = len(model.vocab), model.arrays["w_out"][len(model.vocab) :]
    assert found.settings["loss"] == "hs" and found.settings["negative"] == 5
    np.testing.assert_array_equal(np.asarray(found.output)[: words - 1], tree)
    face = load_facebook_model(tmp_path / "both.bin")
    assert (face.hs, face.negative) == (1, 5) and not face.syn1neg.any()
    np.testing.assert_array_equal(face.syn1[: words - 1], tree)


def test_eval_scores_unseen_words_with_subwords(subword_model):
    """WS-353 with subword vectors covers more pairs than the vocabulary does; --oov skip
    scores only the in-vocabulary pairs, as for skip-gram."""
    import json

    full = json.loads(CliRunner().invoke(main, ["eval", str(subword_model), "--json"]).output)
    skip = json.loads(
        CliRunner().invoke(main, ["eval", str(subword_model), "--json", "--oov", "skip"]).output
    )
    ws353, ws353_skip = full["similarity"][0], skip["similarity"][0]
    assert ws353["file"] == "EN-WS-353-ALL.txt" and ws353["pairs"] == 353
    assert ws353_skip["covered"] == ws353_skip["in_vocabulary"] == ws353["in_vocabulary"]
    assert ws353["covered"] > ws353["in_vocabulary"] + 50  # 263 in vocabulary on this corpus
    # all 353 pairs: 0.36 (seed 1); unseen words' n-grams are weak on 0.8M tokens, but a
    # floor still catches vectors that are noise
    assert ws353["spearman"] > 0.3


SMALL_FASTTEXT = dict(model="fasttext", bucket=20_000, epochs=1, threads=1, seed=5, min_count=2)
"""Settings that train :func:`sample_halves` in about a second, one thread, reproducibly."""


@pytest.fixture(scope="module")
def sample_halves(tmp_path_factory):
    """Two small corpora cut from the bundled one: 40k words, then 20k more."""
    import gzip

    with gzip.open(SAMPLE, "rt", encoding="utf-8") as sample:
        words = sample.read(600_000).split()[:60_000]
    folder = tmp_path_factory.mktemp("halves")
    halves = folder / "first.txt", folder / "second.txt"
    halves[0].write_text(" ".join(words[:40_000]) + "\n", encoding="utf-8")
    halves[1].write_text(" ".join(words[40_000:]) + "\n", encoding="utf-8")
    return halves


def test_packed_rows_train_as_the_whole_matrix(sample_halves, monkeypatch, tmp_path):
    """Training on the used rows packed together (and continuing such a model) gives the model
    that the whole input matrix gives, value for value, with one thread and a seed; the
    buckets no word reads stay zero."""
    import wordvec
    from wordvec.training import fasttext
    from wordvec.training.weights import init_used_rows

    first, second = sample_halves
    options = SMALL_FASTTEXT
    packed = wordvec.train(first, quiet=True, **options)
    packed.save(tmp_path / "packed.wv")
    continued = wordvec.train(second, init=tmp_path / "packed.wv", quiet=True, **options)

    def whole_matrix(inputs, n_words, dim, seed, huge_pages):  # every row, in its place
        n_rows = n_words + options["bucket"]
        weights = init_used_rows(n_rows, dim, np.unique(inputs.idx), seed)
        every_row = np.arange(n_rows)
        return fasttext.PackedRows(weights, every_row, inputs, every_row[:n_words])

    monkeypatch.setattr(fasttext, "pack_used_rows", whole_matrix)
    whole = wordvec.train(first, quiet=True, **options)
    whole.save(tmp_path / "whole.wv")
    whole_continued = wordvec.train(second, init=tmp_path / "whole.wv", quiet=True, **options)
    for ours, theirs in ((packed, whole), (continued, whole_continued)):
        assert np.array_equal(ours.vectors, theirs.vectors)
        for name in ("word_rows", "ngrams", "w_out"):
            assert np.array_equal(ours.arrays[name], theirs.arrays[name]), name
    assert np.asarray(packed.arrays["ngrams"]).any()
    assert len(packed.arrays["ngrams"].kept) < options["bucket"]  # only the rows words read


def test_unpacking_gives_the_packed_rows_memory_back():
    import mmap

    from wordvec.kernels.windows import InputRows
    from wordvec.training.fasttext import pack_used_rows, unpack

    n_words, buckets, dim = 1_000, 200_000, 100
    idx = np.concatenate([np.arange(n_words), n_words + np.arange(0, buckets, 4)])
    rows = pack_used_rows(
        InputRows(np.array([0, len(idx)]), idx.astype(np.int32), own=False), n_words, dim, 1
    )
    assert sorted(rows.used.tolist()) == sorted(set(idx.tolist()))
    assert np.array_equal(rows.used[rows.inputs.idx], idx)
    assert np.array_equal(rows.used[rows.words], np.arange(n_words))
    packed_words = np.array(rows.weights[rows.words])
    packed_ngrams = np.array(rows.weights[rows.inputs.idx[n_words:]])
    word_rows, ngrams = unpack(rows, n_words, buckets)
    assert np.array_equal(word_rows, packed_words)
    assert ngrams.shape == (buckets, dim) and ngrams.kept.tolist() == list(range(0, buckets, 4))
    assert np.array_equal(ngrams[::4], packed_ngrams) and not ngrams[1::4].any()
    if hasattr(mmap, "MADV_DONTNEED"):  # given back: reads as zero
        assert not rows.weights[100:-100].any()


def test_init_vectors_start_the_words_own_rows(sample_halves, tmp_path):
    """``--init-vectors`` sets a known word's own row (its n-gram rows stay random), with the
    rows packed as they are."""
    import wordvec

    words = ("the", "of")
    start = np.random.default_rng(2).normal(size=(2, 100)).astype(np.float32)
    vectors = tmp_path / "start.vec"
    lines = [word + " " + " ".join(f"{x:.6f}" for x in row) for word, row in zip(words, start)]
    vectors.write_text("2 100\n" + "\n".join(lines) + "\n", encoding="utf-8")
    model = wordvec.train(
        sample_halves[0], init_vectors=vectors, alpha=1e-9, quiet=True, **SMALL_FASTTEXT
    )
    index = model.vocab.index
    for word, row in zip(words, start):
        np.testing.assert_allclose(model.arrays["word_rows"][index[word]], row, atol=1e-5)
    assert np.abs(model.arrays["word_rows"][index["and"]]).max() < 0.01  # random, 1/dim wide


def test_initial_rows_come_in_one_buffer_with_each_chunks_own_values():
    """The initial rows are drawn into one buffer a chunk at a time (fresh 26 MB arrays were
    dear huge pages), with the values each chunk's own seed gives, as before."""
    from wordvec.training.weights import init_input_weights, initial_rows

    chunks = [(start, stop, values.copy()) for start, stop, values in initial_rows(140_000, 8, 7)]
    assert [(start, stop) for start, stop, _ in chunks] == [
        (0, 65_536), (65_536, 131_072), (131_072, 140_000)
    ]  # fmt: skip
    for chunk, (start, stop, values) in enumerate(chunks):
        assert np.array_equal(values, init_input_weights(stop - start, 8, (7, chunk), 1.0))
