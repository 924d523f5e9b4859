"""``wordvec.gensim`` runs a gensim script: the same script, run with ``gensim.models`` and with
``wordvec.gensim``, gives the same vocabulary, counts and shapes, neighbours that agree, and
files each side reads; and what gensim's own tests showed (two-step training, continued
training, callbacks, files, fastText's unseen words, phrases, paragraph vectors) holds here."""

from __future__ import annotations

import gzip
import logging
import pickle

import numpy as np
import pytest

from tests.conftest import ANALOGIES, SAMPLE, WS353
from wordvec.errors import ConfigError, FormatError, UndecodableText, WordvecError
from wordvec.gensim import (
    CallbackAny2Vec,
    Doc2Vec,
    FastText,
    FrozenPhrases,
    KeyedVectors,
    LineSentence,
    Phrases,
    TaggedDocument,
    Text8Corpus,
    Word2Vec,
)
from wordvec.gensim.corpora import training_source
from wordvec.gensim.fasttext import FastTextKeyedVectors, load_facebook_model, save_facebook_model

FIRST_WORDS, MORE_WORDS, LINE_WORDS = 790_000, 50_000, 1000
SETTINGS = {"vector_size": 50, "workers": 2, "seed": 1}


@pytest.fixture(scope="module")
def halves(tmp_path_factory):
    """Two slices of the bundled corpus (one long line) as LineSentence files of 1,000-word
    lines: 790k words, then 50k more."""
    folder = tmp_path_factory.mktemp("gensim")
    with gzip.open(SAMPLE, "rt", encoding="utf-8") as text:
        words = text.read().split()[: FIRST_WORDS + MORE_WORDS]
    lines = [" ".join(words[i : i + LINE_WORDS]) + "\n" for i in range(0, len(words), LINE_WORDS)]
    cut = FIRST_WORDS // LINE_WORDS
    paths = folder / "first.txt", folder / "second.txt"
    paths[0].write_text("".join(lines[:cut]), encoding="utf-8")
    paths[1].write_text("".join(lines[cut:]), encoding="utf-8")
    return paths


def gensim_script(api, first, second, folder) -> dict:
    """A gensim tutorial's steps; ``api`` is ``gensim.models.word2vec`` or
    ``wordvec.gensim.word2vec``."""
    model = api.Word2Vec(api.LineSentence(str(first)), **SETTINGS)
    answers = {
        "vocab": list(model.wv.index_to_key),
        "counts": [model.wv.get_vecattr(w, "count") for w in model.wv.index_to_key],
        "count of": {w: model.wv.get_vecattr(w, "count") for w in model.wv.index_to_key},
        "corpus": (model.corpus_count, model.corpus_total_words),
        "shapes": (model.wv.vectors.shape, model.syn1neg.shape),
        "neighbours": {
            w: [n for n, _ in model.wv.most_similar(w, topn=10)]
            for w in ("war", "city", "music", "king")
        },
        "pairs": model.wv.evaluate_word_pairs(WS353),
        "kinds": [
            type(model.wv.similarity("war", "city")),
            type(model.wv.evaluate_word_pairs(WS353)[0].statistic),
        ],
        "analogies": model.wv.evaluate_word_analogies(ANALOGIES, restrict_vocab=30_000),
    }
    model.save(str(folder / "w2v.model"))
    loaded = api.Word2Vec.load(str(folder / "w2v.model"))
    answers["loaded"] = np.array_equal(loaded.wv.vectors, model.wv.vectors)
    more = api.LineSentence(str(second))
    loaded.build_vocab(more, update=True)
    loaded.train(more, total_examples=loaded.corpus_count, epochs=loaded.epochs)
    answers["grown"] = list(loaded.wv.index_to_key)
    answers["model"] = model
    return answers


def test_a_gensim_script_gives_gensim_answers(halves, tmp_path):
    """Vocabulary (in gensim's order, words of equal counts the last seen first; new words
    after the old in the order seen), counts, corpus figures, shapes and the analogy questions
    answered, section by section as 4-tuples of words, are gensim's exactly; the vectors come
    from other random numbers, so neighbours and scores are compared with floors (seed 1: 21
    of the 40 neighbours shared, WS-353 Spearman 0.184 against gensim's 0.185)."""
    gensim_word2vec = pytest.importorskip("gensim.models.word2vec")
    import wordvec.gensim.word2vec

    (tmp_path / "g").mkdir()
    (tmp_path / "w").mkdir()
    theirs = gensim_script(gensim_word2vec, *halves, tmp_path / "g")
    ours = gensim_script(wordvec.gensim.word2vec, *halves, tmp_path / "w")
    for key in ("vocab", "counts", "count of", "corpus", "shapes", "grown", "kinds"):
        assert ours[key] == theirs[key], key
    (our_score, our_sections), (their_score, their_sections) = (
        ours["analogies"],
        theirs["analogies"],
    )
    assert [s["section"] for s in our_sections] == [s["section"] for s in their_sections]
    for mine, gensims in zip(our_sections, their_sections):
        assert sorted(mine["correct"] + mine["incorrect"]) == sorted(
            gensims["correct"] + gensims["incorrect"]
        ), mine["section"]
        assert all(isinstance(q, tuple) and len(q) == 4 for q in mine["correct"])
    assert our_score == len(our_sections[-1]["correct"]) / sum(
        len(our_sections[-1][k]) for k in ("correct", "incorrect")
    )
    assert our_score > their_score - 0.05
    assert ours["loaded"] and theirs["loaded"]
    shared = sum(len(set(ours["neighbours"][w]) & set(theirs["neighbours"][w]))
                 for w in ours["neighbours"])  # fmt: skip
    assert shared >= 12
    assert ours["pairs"][1][0] > theirs["pairs"][1][0] - 0.1
    assert ours["pairs"][2] == theirs["pairs"][2]  # the same words, so the same OOV share


def test_hs_with_gensims_default_negative_trains_both_layers_as_gensim(halves, tmp_path, caplog):
    """``hs=1`` with gensim's default ``negative=5`` trains both output layers at once
    (word2vec's ``-hs 1 -negative 5``) with gensim's warning logged: ``syn1`` and ``syn1neg``
    of gensim's shapes, WS-353 with gensim's floor (seeds 1-3: 0.310 against gensim's 0.279
    on average), both layers saved and loaded, ``predict_output_word`` from ``syn1neg``, and
    training continued on a grown vocabulary."""
    gensim_word2vec = pytest.importorskip("gensim.models.word2vec")
    first = str(halves[0])
    theirs = gensim_word2vec.Word2Vec(gensim_word2vec.LineSentence(first), hs=1, **SETTINGS)
    ours = Word2Vec(LineSentence(first), hs=1, **SETTINGS)
    assert "Both hierarchical softmax and negative sampling are activated" in caplog.text
    assert ours.to_wordvec().settings["loss"] == "hs+ns"
    assert (ours.syn1.shape, ours.syn1neg.shape) == (theirs.syn1.shape, theirs.syn1neg.shape)
    assert np.any(ours.syn1[:-1], axis=1).mean() > 0.99 and not ours.syn1[-1].any()
    assert np.any(ours.syn1neg, axis=1).mean() > 0.99
    score = ours.wv.evaluate_word_pairs(WS353)[1][0]
    assert score > theirs.wv.evaluate_word_pairs(WS353)[1][0] - 0.1
    assert [w for w, _ in ours.predict_output_word(["the", "king", "of"], topn=3)]
    ours.save(str(tmp_path / "both.model"))
    loaded = Word2Vec.load(str(tmp_path / "both.model"))
    np.testing.assert_array_equal(loaded.syn1, ours.syn1)
    np.testing.assert_array_equal(loaded.syn1neg, ours.syn1neg)
    loaded.build_vocab([["zyzzyva", "of"]] * 5, update=True)
    loaded.train([["zyzzyva", "of", "the"]] * 50, total_examples=50, epochs=1)
    words = len(loaded.wv)
    assert loaded.syn1.shape == loaded.syn1neg.shape == (words, SETTINGS["vector_size"])
    assert loaded.syn1neg[loaded.wv.key_to_index["zyzzyva"]].any()


def test_two_step_training_and_update_keep_gensims_order(halves):
    model = Word2Vec(vector_size=16, min_count=5, epochs=1, workers=1)
    model.build_vocab(LineSentence(str(halves[0])))
    before = list(model.wv.index_to_key)
    start = model.wv.vectors.copy()
    model.train(LineSentence(str(halves[0])), total_examples=model.corpus_count, epochs=1)
    assert model.wv.index_to_key == before
    assert not np.array_equal(model.wv.vectors, start)  # trained from where it stood
    model.build_vocab(LineSentence(str(halves[1])), update=True)
    assert model.wv.index_to_key[: len(before)] == before  # new words come after
    assert model.syn1neg.shape == model.wv.vectors.shape
    with pytest.raises(ValueError, match="explicit epochs"):
        model.train(LineSentence(str(halves[1])), total_examples=1)


def test_callbacks_are_called_with_the_model_and_see_the_loss():
    calls = []

    class Log(CallbackAny2Vec):
        def on_train_begin(self, model):
            calls.append(("train_begin", model.get_latest_training_loss()))

        def on_epoch_begin(self, model):
            calls.append(("epoch_begin", None))

        def on_epoch_end(self, model):
            calls.append(("epoch_end", model.get_latest_training_loss()))

        def on_train_end(self, model):
            calls.append(("train_end", type(model).__name__))

    sentences = [["i", "like", "cats"], ["i", "like", "dogs"]] * 200
    Word2Vec(sentences, min_count=1, vector_size=8, epochs=2, compute_loss=True,
             callbacks=[Log()], workers=1)  # fmt: skip
    assert [name for name, _ in calls] == ["train_begin", "epoch_begin", "epoch_end",
                                           "epoch_begin", "epoch_end", "train_end"]  # fmt: skip
    losses = [value for name, value in calls if name == "epoch_end"]
    assert 0 < losses[0] < losses[1]  # the running sum, as gensim's
    assert calls[-1] == ("train_end", "Word2Vec")


def test_the_vocabulary_and_training_log_at_info_as_gensims(caplog):
    sentences = [["i", "like", "cats"], ["i", "like", "dogs"], ["rare"]] * 100 + [["once"]]
    model = Word2Vec(min_count=2, vector_size=8, workers=1)
    with caplog.at_level(logging.INFO, logger="wordvec.gensim"):
        model.build_vocab(sentences)
        model.train(sentences, total_examples=model.corpus_count, epochs=2)
    messages = [record.getMessage() for record in caplog.records]
    assert messages[0] == "collected 6 word types from a corpus of 701 raw words and 301 sentences"
    assert messages[1].startswith("effective_min_count=2 retains 5 unique words (83.33% of "
                                  "original 6, drops 1)")  # fmt: skip
    assert [m.split(":")[0] for m in messages if m.startswith("EPOCH")] == ["EPOCH 0", "EPOCH 1"]
    assert messages[-1].startswith("training on ") and "effective words/s" in messages[-1]


@pytest.mark.parametrize("binary", [False, True])
def test_pretrained_vectors_merge_in_as_gensims_intersect(tmp_path, binary):
    """The usual recipe: build the vocabulary, merge pretrained vectors in with lockf=1.0,
    train on from them. gensim's default lockf=0.0 locks the rows: they stay as merged while
    the other words train."""
    sentences = [["i", "like", "cats"], ["i", "like", "dogs"]] * 50
    pretrained = KeyedVectors(4)
    pretrained.add_vectors(["cats", "zebra", "like"], np.arange(12, dtype=np.float32).reshape(3, 4))
    path = tmp_path / "pretrained.w2v"
    pretrained.save_word2vec_format(str(path), binary=binary)
    model = Word2Vec(vector_size=4, min_count=1, workers=1, seed=1, sample=0)
    model.build_vocab(sentences)
    before = model.wv["dogs"].copy()
    model.wv.intersect_word2vec_format(str(path), lockf=1.0, binary=binary)
    np.testing.assert_array_equal(model.wv["cats"], pretrained["cats"])
    np.testing.assert_array_equal(model.wv["like"], pretrained["like"])
    np.testing.assert_array_equal(model.wv["dogs"], before)  # not in the file: as it was
    assert "zebra" not in model.wv  # no word added
    model.train(sentences, total_examples=len(sentences), epochs=1)
    assert not np.array_equal(model.wv["cats"], pretrained["cats"])  # trained on from there
    model.wv.intersect_word2vec_format(str(path), binary=binary)  # gensim's lockf=0.0
    assert model.wv.vectors_lockf[model.wv.key_to_index["cats"]] == 0.0
    dogs = model.wv["dogs"].copy()
    model.train(sentences, total_examples=len(sentences), epochs=1)
    np.testing.assert_array_equal(model.wv["cats"], pretrained["cats"])
    np.testing.assert_array_equal(model.wv["like"], pretrained["like"])
    assert not np.array_equal(model.wv["dogs"], dogs)
    with pytest.raises(ValueError, match="incompatible vector size 4"):
        KeyedVectors(5).intersect_word2vec_format(str(path), binary=binary)


def test_files_are_wordvecs_and_a_damaged_gensim_pickle_is_one_error(tmp_path):
    model = Word2Vec([["a", "b", "c"]] * 50, min_count=1, vector_size=4, epochs=1)
    model.save(tmp_path / "m.model")
    loaded = Word2Vec.load(tmp_path / "m.model")
    loaded.wv.vectors[0] = 0  # writable, as gensim's load
    mapped = Word2Vec.load(tmp_path / "m.model", mmap="r")
    with pytest.raises(ValueError):
        mapped.wv.vectors[0] = 0
    model.wv.save(tmp_path / "m.kv")
    with pytest.raises(FormatError, match="m.kv holds KeyedVectors, not a Word2Vec model"):
        Word2Vec.load(tmp_path / "m.kv")
    (tmp_path / "g.model").write_bytes(b"\x80\x04\x95 pickled")
    for load in (Word2Vec.load, KeyedVectors.load):  # gensim's own: tests/test_gensim_pickles
        with pytest.raises(FormatError, match="g.model is not a gensim model wordvec can read"):
            load(tmp_path / "g.model")


def test_keyed_vectors_files_move_both_ways(tmp_path):
    gensim_kv = pytest.importorskip("gensim.models.keyedvectors")
    ours = KeyedVectors(3)
    ours.add_vectors(["x", "y", "z"], np.eye(3, dtype=np.float32))
    ours.save_word2vec_format(tmp_path / "v.bin", binary=True)
    theirs = gensim_kv.KeyedVectors.load_word2vec_format(str(tmp_path / "v.bin"), binary=True)
    assert theirs.index_to_key == ["x", "y", "z"]
    theirs.save_word2vec_format(str(tmp_path / "g.txt"))
    back = KeyedVectors.load_word2vec_format(tmp_path / "g.txt")
    np.testing.assert_array_equal(back.vectors, np.eye(3))
    assert back.rank("x", "y") == 1 and back.closer_than("x", "y") == []
    (tmp_path / "short.txt").write_text("3 3\nx 1 0 0\n", encoding="utf-8")
    with pytest.raises(EOFError, match="header says 3 words, it holds 1"):  # as gensim's
        KeyedVectors.load_word2vec_format(tmp_path / "short.txt")
    assert back.most_similar_to_given("x", ["y", "x"]) == "x"


def test_gensim3_habits_get_gensim4s_answers():
    """What a gensim 3 script does first: ``init_sims`` still works, with gensim 4's
    DeprecationWarning (``replace=True`` leaves unit vectors); the attributes gensim 4 removed
    are errors that name what replaced them; other missing names stay plain AttributeErrors."""
    model = Word2Vec(PANTRY * 10, min_count=1, vector_size=8, workers=1)
    raw = model.wv.word_vec("salt")  # gensim's alias of get_vector
    np.testing.assert_array_equal(raw, model.wv.get_vector("salt"))
    with pytest.deprecated_call():
        model.init_sims(replace=True)  # on the model, as gensim 3 scripts call it
    np.testing.assert_allclose(np.linalg.norm(model.wv.vectors, axis=1), 1, rtol=1e-6)
    np.testing.assert_allclose(model.wv.word_vec("salt"), raw / np.linalg.norm(raw), rtol=1e-6)
    with pytest.raises(AttributeError, match="use key_to_index, index_to_key and get_vecattr"):
        _ = model.wv.vocab
    with pytest.raises(AttributeError, match="index2word was removed .* use index_to_key"):
        _ = model.wv.index2word
    assert not hasattr(model.wv, "no_such_name") and hasattr(model.wv, "norms")


def test_fasttext_answers_for_unseen_words_as_gensim(tmp_path):
    sentences = [["republic", "republican", "public", "publics"]] * 200
    ft = FastText(sentences, min_count=1, vector_size=8, bucket=1000, epochs=1, workers=1)
    assert "republics" in ft.wv and "republics" not in ft.wv.key_to_index
    assert ft.wv["republics"].shape == (8,)
    ft.wv.save(tmp_path / "ft.kv")  # wordvec's model file: its n-gram rows answer too
    np.testing.assert_array_equal(FastTextKeyedVectors.load(tmp_path / "ft.kv")["republics"],
                                  ft.wv["republics"])  # fmt: skip
    save_facebook_model(ft, tmp_path / "ft.bin")
    again = load_facebook_model(tmp_path / "ft.bin")  # the same floats, as gensim's round trip
    np.testing.assert_array_equal(again.wv.vectors, ft.wv.vectors)
    np.testing.assert_array_equal(again.wv["republics"], ft.wv["republics"])
    with pytest.deprecated_call():  # gensim 3's name, still in gensim 4 with a warning
        old = FastText.load_fasttext_format(tmp_path / "ft.bin")
    np.testing.assert_array_equal(old.wv.vectors, ft.wv.vectors)
    gensim_ft = pytest.importorskip("gensim.models.fasttext")
    theirs = gensim_ft.load_facebook_model(str(tmp_path / "ft.bin"))
    np.testing.assert_allclose(theirs.wv["republics"], ft.wv["republics"], atol=1e-5)
    np.testing.assert_allclose(theirs.wv["republic"], ft.wv["republic"], atol=1e-5)


@pytest.mark.parametrize("connectors", [frozenset(), frozenset({"of", "the", "and"})])
def test_phrases_are_gensims(halves, connectors):
    gensim_phrases = pytest.importorskip("gensim.models.phrases")
    sentences = list(LineSentence(str(halves[1])))
    ours = Phrases(LineSentence(str(halves[1])), min_count=3, connector_words=connectors)
    theirs = gensim_phrases.Phrases(sentences, min_count=3, connector_words=connectors)
    assert ours.vocab == theirs.vocab
    found, expected = ours.export_phrases(), theirs.export_phrases()
    assert found.keys() == expected.keys() and len(found) > 20
    np.testing.assert_allclose([found[p] for p in expected], list(expected.values()))
    frozen = FrozenPhrases(ours)
    assert list(frozen[sentences]) == list(theirs.freeze()[sentences])


def test_phrases_of_phrases_joined_by_spaces():
    sentences = [["new", "york", "city", "hall"], ["new", "york", "city"], ["city", "hall"]] * 5
    pairs = Phrases(sentences, min_count=1, threshold=0.1, delimiter=" ")
    joined = list(pairs[sentences])
    assert joined[0] == ["new york", "city hall"]
    triples = Phrases(joined, min_count=1, threshold=0.1, delimiter=" ")
    assert triples.vocab["new york"] == 10 and triples.vocab["new york city"] == 5
    assert {"new york", "city hall"} <= set(pairs.export_phrases())
    assert "new york city" in triples.find_phrases(joined)
    with pytest.raises(TypeError):
        Phrases([["new", 7]], delimiter=" ")


def constant_score(worda_count, wordb_count, bigram_count, len_vocab, min_count,
                   corpus_word_count):  # fmt: skip
    return 1.0


def test_what_wordvec_does_not_do_is_an_error_not_another_model(tmp_path):
    with pytest.raises(ConfigError):
        Word2Vec(cbow_mean=2)
    with pytest.raises(ValueError, match="either 'hs' or 'negative' to be positive"):
        Word2Vec(hs=0, negative=0)  # gensim's error
    with pytest.raises(ConfigError, match="cbow_mean=1 only"):
        FastText(cbow_mean=0)
    model = FastText(min_count=1, vector_size=4)
    model.build_vocab([["a", "b"]] * 5)
    model.wv.vectors_lockf = np.array([0.0, 1.0], dtype=np.float32)  # gensim: 'a' stays put
    with pytest.raises(ConfigError, match="vectors_lockf other than 1"):
        model.train([["a", "b"]] * 5, total_examples=5, epochs=1)
    with pytest.raises(WordvecError, match="custom scoring function cannot be saved"):
        Phrases([["a", "b"]] * 3, min_count=1, scoring=constant_score).save(tmp_path / "p")
    assert not (tmp_path / "p").exists()


def test_wordvecs_own_api_answers_gensim_habits(tmp_path):
    """The rough edges a gensim user met in wordvec's own API (issue 40)."""
    import wordvec

    sentences = [["republic", "public", "publics"]] * 100
    ft = wordvec.train(sentences, model="fasttext", min_count=1, dim=8, bucket=1000, epochs=1,
                       threads=1, quiet=True)  # fmt: skip
    assert "republics" in ft.wv and "zzzz" not in ft.wv  # has a vector; shares no n-gram
    assert ft.wv.get_index("republics", -1) == -1  # no row of its own
    paths = wordvec.save_vectors(ft.wv, tmp_path / "v.bin")  # the suffix says the format
    assert wordvec.load_vectors(paths[0], binary=True).words == ft.wv.words
    with pytest.raises(FormatError, match="word2vec binary but word2vec: formats are detected"):
        wordvec.load_vectors(wordvec.save_vectors(ft.wv, tmp_path / "v.txt")[0], binary=True)


def test_fasttext_without_buckets_trains_on_several_threads():
    """gensim's ZeroBucketTest found it: fastText without subwords (bucket 0) on two threads
    stopped with a ValueError (no spare rows for the threads' copies of frequent words)."""
    ft = FastText([["a", "b", "c", "d"]] * 300, min_count=1, vector_size=8, bucket=0, workers=2)
    assert ft.wv.vectors.shape == (4, 8) and "zzz" not in ft.wv


def test_text_vectors_come_back_exactly_and_damaged_words_as_asked(tmp_path):
    rng = np.random.default_rng(7)
    ours = KeyedVectors(5)
    ours.add_vectors(["north", "south", "east"], rng.normal(size=(3, 5)) / 3)
    for header in (True, False):
        ours.save_word2vec_format(tmp_path / "v.txt", write_header=header)
        back = KeyedVectors.load_word2vec_format(tmp_path / "v.txt", no_header=not header)
        assert back.index_to_key == ours.index_to_key
        np.testing.assert_array_equal(back.vectors, ours.vectors)  # every float32 bit
    # Latin-1 words in a file read as UTF-8: gensim's unicode_errors say what to do with them
    (tmp_path / "l1.txt").write_bytes(b"2 2\ncaf\xe9 1 2\nna\xefve 3 4\n")
    (tmp_path / "l1.vocab").write_bytes(b"caf\xe9 7\nna\xefve 5\n")
    with pytest.raises(UnicodeDecodeError) as strict:
        KeyedVectors.load_word2vec_format(tmp_path / "l1.txt")
    assert str(pickle.loads(pickle.dumps(strict.value))) == str(strict.value)  # crosses processes
    assert str(strict.value).startswith("l1.txt is not UTF-8 text")  # the CLI's one line
    replaced = KeyedVectors.load_word2vec_format(
        tmp_path / "l1.txt", fvocab=tmp_path / "l1.vocab", unicode_errors="replace"
    )
    assert replaced.index_to_key == ["caf\ufffd", "na\ufffdve"]
    assert replaced.get_vecattr("na\ufffdve", "count") == 5
    ignored = KeyedVectors.load_word2vec_format(tmp_path / "l1.txt", unicode_errors="ignore")
    assert ignored.index_to_key == ["caf", "nave"]
    latin = KeyedVectors.load_word2vec_format(tmp_path / "l1.txt", encoding="latin-1")
    np.testing.assert_array_equal(latin["naïve"], [3, 4])
    ours.add_vectors(["caf\xe9"], np.ones((1, 5)))
    ours.save_word2vec_format(tmp_path / "v.bin", binary=True)
    data = (tmp_path / "v.bin").read_bytes()  # the UTF-8 'é', two bytes, becomes two Latin-1
    (tmp_path / "v.bin").write_bytes(data.replace("caf\xe9".encode(), b"caf\xe9\xe9"))
    with pytest.raises(UnicodeDecodeError, match="word 4 is not UTF-8"):
        KeyedVectors.load_word2vec_format(tmp_path / "v.bin", binary=True)
    damaged = KeyedVectors.load_word2vec_format(tmp_path / "v.bin", unicode_errors="ignore")
    assert damaged.index_to_key[-1] == "caf"
    np.testing.assert_array_equal(damaged["caf"], np.ones(5))


PANTRY = [
    ["salt", "pepper", "oil"],
    ["salt", "pepper", "flour"],
    ["salt", "sugar", "oil", "yeast"],
    ["salt", "pepper", "sugar"],
    ["flour", "yeast", "water"],
]


def test_vocabulary_steps_report_what_they_keep_as_gensims():
    model = Word2Vec(vector_size=4, min_count=2, max_final_vocab=3, sample=0)
    assert model.scan_vocab(PANTRY) == (16, 5)  # words, sentences
    assert model.raw_vocab["salt"] == 4 and len(model.raw_vocab) == 7
    report = model.prepare_vocab(dry_run=True)
    # salt 4, pepper 3, four words seen twice, water once: the 4th is seen twice, so 3 at least
    assert model.effective_min_count == 3 and not len(model.wv)
    assert report["num_retained_words"] == 2 and report["retain_total"] == 7
    assert report["drop_unique"] == 5
    model.prepare_vocab(keep_raw_vocab=True)
    assert model.wv.index_to_key == ["salt", "pepper"] and model.raw_vocab
    other = Word2Vec(vector_size=4, min_count=1)
    other.reset_from(model)
    assert other.wv.index_to_key == ["salt", "pepper"] and other.corpus_count == 5
    assert other.cum_table[-1] == 2**31 - 1 and other.cum_table[0] > 2**30  # salt's share
    hs = Word2Vec(vector_size=4, min_count=1, hs=1, negative=0)
    hs.build_vocab(PANTRY)
    codes = [hs.wv.get_vecattr(w, "code") for w in hs.wv.index_to_key]
    assert len(codes[0]) <= len(codes[-1]) and set(np.concatenate(codes)) == {0, 1}
    prefix_free = {"".join(map(str, c)) for c in codes}
    assert not any(a != b and b.startswith(a) for a in prefix_free for b in prefix_free)
    hs.build_vocab([["honey", "salt"]] * 9, update=True)  # the tree of the counts grown
    assert len(hs.wv.get_vecattr("honey", "code")) < len(hs.wv.get_vecattr("water", "code"))


@pytest.mark.parametrize("compress", [False, True])
def test_text8corpus_reads_through_line_ends_as_gensim(tmp_path, compress):
    """``Text8Corpus`` is a stream of words cut every ``max_sentence_length``: a line end is a
    space (gensim's). text8 itself, one line, goes to wordvec's reader as a file; a text of
    several lines is read through its line ends, so its bigrams and windows cross them."""
    path = tmp_path / ("lines.txt.gz" if compress else "lines.txt")
    opener = gzip.open if compress else open
    with opener(path, "wt", encoding="utf-8") as text:
        text.write("salt pepper oil\nflour water salt\nyeast\n")
    corpus = Text8Corpus(str(path), max_sentence_length=4)
    assert list(corpus) == [["salt", "pepper", "oil", "flour"], ["water", "salt", "yeast"]]
    assert training_source(corpus) is corpus
    phrases = Phrases(corpus, min_count=1, threshold=0.1)
    assert phrases.vocab["oil_flour"] == 1 and "salt_yeast" in phrases.vocab
    assert "flour_water" not in phrases.vocab  # cut at 4 words, not at the line end
    with opener(path, "wt", encoding="utf-8") as text:
        text.write("salt pepper oil flour water salt yeast\n")
    assert training_source(Text8Corpus(str(path))) == str(path)


def test_max_vocab_size_prunes_while_counting_as_gensim():
    rng = np.random.default_rng(5)
    words = [f"w{i}" for i in range(60)]
    weights = 1 / np.arange(1, 61)
    corpus = [list(rng.choice(words, size=rng.integers(1, 9), p=weights / weights.sum()))
              for _ in range(3000)]  # fmt: skip
    for limit in (5, 20, 45):
        counted: dict[str, int] = {}  # the rule, a sentence at a time
        floor = 1
        for sentence in corpus:
            for word in sentence:
                counted[word] = counted.get(word, 0) + 1
            if len(counted) > limit:
                counted = {w: c for w, c in counted.items() if c >= floor}
                floor += 1
        model = Word2Vec(vector_size=4, min_count=1, max_vocab_size=limit)
        model.scan_vocab(corpus)
        assert model.raw_vocab == counted


@pytest.mark.parametrize("sg", [0, 1])
def test_hierarchical_softmax_scores_sentences_by_their_huffman_paths(sg):
    model = Word2Vec(PANTRY * 40, min_count=1, vector_size=8, hs=1, negative=0, sg=sg,
                     window=2, epochs=20, workers=1, sample=0)  # fmt: skip
    odd = [["yeast", "salt", "water", "unknown"], ["oil", "flour", "salt", "sugar"], []]
    scores = model.score(PANTRY + odd)
    assert scores.shape == (8,) and scores[-1] == 0  # an empty sentence: log(1)
    assert scores[:5].mean() > scores[5:7].mean()  # what it learnt is likelier than shuffles

    def by_hand(sentence):  # the paths one word at a time
        known = [w for w in sentence if w in model.wv.key_to_index]
        total = 0.0
        for i, word in enumerate(known):
            context = [known[j] for j in range(max(i - 2, 0), i + 3) if j != i and j < len(known)]
            hidden = (
                [model.wv[c] for c in context]
                if sg
                else [np.mean([model.wv[c] for c in context], axis=0)]
            )
            code, point = model.wv.get_vecattr(word, "code"), model.wv.get_vecattr(word, "point")
            for h in hidden:
                dots = model.syn1[point] @ h
                total -= np.logaddexp(0, -(1.0 - 2.0 * code) * dots).sum()
        return total

    np.testing.assert_allclose(scores[5:7], [by_hand(s) for s in odd[:2]], rtol=1e-4)
    with pytest.raises(RuntimeError):
        Word2Vec(PANTRY, min_count=1, vector_size=4).score(PANTRY)


def test_gensims_errors_and_warnings_for_a_script_gone_wrong(tmp_path, caplog):
    with pytest.raises(TypeError):  # an item that is no list of words
        Word2Vec([None, ["a", "b"]], min_count=1)
    with pytest.raises(TypeError):
        Word2Vec([[["nested"], "list"]], min_count=1)
    with pytest.raises(RuntimeError):
        Word2Vec([])
    with pytest.raises(RuntimeError):
        Word2Vec(PANTRY, min_count=50)
    strings = Word2Vec(min_count=1, vector_size=4)
    strings.build_vocab(["sea salt", "salts"])  # gensim's: sentences of characters
    assert "Each 'sentences' item should be a list of words" in caplog.text
    assert sorted(strings.wv.index_to_key) == ["a", "e", "l", "s", "t"]
    model = Word2Vec(PANTRY, min_count=1, vector_size=4, epochs=2)
    model.train(PANTRY, total_examples=5, epochs=1, start_alpha=0.05)
    assert "Effective 'alpha' higher than previous training cycles" in caplog.text
    by_index = [model.wv.get_index("salt"), model.wv.get_index("oil")]
    assert model.predict_output_word(["salt", "oil"]) == model.predict_output_word(by_index)
    assert model.predict_output_word(["salt", 1]) == model.predict_output_word([0, "pepper"])
    model.wv.save(tmp_path / "only.kv")
    with pytest.raises(AttributeError, match="holds KeyedVectors, not a Word2Vec model"):
        Word2Vec.load(tmp_path / "only.kv")


def test_what_gensims_tutorials_read_of_a_model(tmp_path, caplog):
    """What gensim's tutorials use besides training: the compiled-routines flag they assert
    on, a Doc2Vec's name (they key models by it), an approximate index through ``indexer``
    (gensim's protocol: ``most_similar(unit query, topn)``), and the learning-rate warning of
    a loaded model trained again."""
    import wordvec.gensim.doc2vec
    import wordvec.gensim.word2vec

    assert wordvec.gensim.word2vec.FAST_VERSION > -1
    assert wordvec.gensim.doc2vec.FAST_VERSION > -1
    names = [str(Doc2Vec(dm=0, min_count=2, workers=2)),
             str(Doc2Vec(dm=0, dbow_words=1, window=10, sample=0, workers=1)),
             str(Doc2Vec(dm=1, hs=1, negative=0, vector_size=50, min_count=2)),
             str(Doc2Vec(dm=1, dm_mean=0, comment="sum"))]  # fmt: skip
    assert names == ["Doc2Vec<dbow,d100,n5,mc2,s0.001,t2>", "Doc2Vec<dbow+w,d100,n5,w10,mc5>",
                     "Doc2Vec<dm/m,d50,hs,w5,mc2,s0.001,t3>",
                     'Doc2Vec<"sum",dm/s,d100,n5,w5,mc5,s0.001,t3>']  # fmt: skip

    class Index:  # an approximate index as gensim's AnnoyIndexer answers
        def most_similar(self, vector, num_neighbors):
            self.asked = vector, num_neighbors
            return [("pepper", 0.5)]

    model = Word2Vec(PANTRY, min_count=1, vector_size=4, epochs=2, seed=3)
    index = Index()
    assert model.wv.most_similar("salt", topn=3, indexer=index) == [("pepper", 0.5)]
    np.testing.assert_allclose(index.asked[0], model.wv.get_vector("salt", norm=True), rtol=1e-6)
    assert index.asked[1] == 3
    model.save(str(tmp_path / "w.model"))
    caplog.clear()
    loaded = Word2Vec.load(str(tmp_path / "w.model"))
    loaded.train(PANTRY, total_examples=5, epochs=1)
    assert "Effective 'alpha' higher than previous training cycles" in caplog.text


def test_facebook_files_of_another_encoding_and_classifiers(tmp_path):
    import wordvec
    from wordvec.formats import export

    ft = FastText([["café", "crème", "thé"]] * 40, min_count=1, vector_size=4, bucket=50,
                  epochs=1, workers=1)  # fmt: skip
    save_facebook_model(ft, tmp_path / "utf8.bin")
    latin = (tmp_path / "utf8.bin").read_bytes()  # words end in NUL: lengths may change
    for word in ("café", "crème", "thé"):
        latin = latin.replace(word.encode() + b"\0", word.encode("latin-1") + b"\0")
    (tmp_path / "latin.bin").write_bytes(latin)
    with pytest.raises(UnicodeDecodeError, match="is not UTF-8"):
        load_facebook_model(tmp_path / "latin.bin")
    again = load_facebook_model(tmp_path / "latin.bin", encoding="latin-1")
    assert again.wv.index_to_key == ft.wv.index_to_key
    np.testing.assert_array_equal(again.wv.vectors_vocab, ft.wv.vectors_vocab)
    (tmp_path / "labelled.txt").write_text("__label__hot tea soup\n__label__cold ice salad\n" * 20)
    classifier = wordvec.train(tmp_path / "labelled.txt", model="supervised", dim=4, epochs=1,
                               min_count=1, quiet=True)  # fmt: skip
    classifier.save(tmp_path / "clf.wv")
    export(tmp_path / "clf.wv", tmp_path / "clf.bin", "fasttext-bin")
    with pytest.raises(NotImplementedError, match="clf.bin is a classifier.*load_classifier"):
        load_facebook_model(tmp_path / "clf.bin")


DOC_WORDS, DOCS = 60, 400


@pytest.fixture(scope="module")
def documents() -> list[list[str]]:
    """400 documents of 60 words, consecutive slices of the bundled corpus."""
    with gzip.open(SAMPLE, "rt", encoding="utf-8") as text:
        words = text.read().split()[: DOC_WORDS * DOCS]
    return [words[i : i + DOC_WORDS] for i in range(0, len(words), DOC_WORDS)]


def doc2vec_script(api, documents: list[list[str]], tag, folder) -> dict:
    """A gensim Doc2Vec tutorial's steps; ``api`` is ``gensim.models.doc2vec`` or
    ``wordvec.gensim.doc2vec``, ``tag(i)`` the i-th document's tag."""
    tagged = [api.TaggedDocument(words, [tag(i)]) for i, words in enumerate(documents)]
    model = api.Doc2Vec(tagged, vector_size=32, min_count=2, epochs=40, dm=0, workers=2, seed=1)
    inferred = [model.infer_vector(tagged[i].words) for i in range(0, DOCS, 40)]
    model.save(str(folder / "d2v.model"))
    loaded = api.Doc2Vec.load(str(folder / "d2v.model"))
    return {
        "shapes": (model.wv.vectors.shape, model.dv.vectors.shape, model.syn1neg.shape),
        "figures": (model.corpus_count, model.epochs, model.vector_size),
        "tags": list(model.dv.index_to_key),
        "vocab": list(model.wv.index_to_key),
        "found": sum(
            tag(i) in [t for t, _ in model.dv.most_similar([vector], topn=10)]
            for i, vector in zip(range(0, DOCS, 40), inferred)
        ),
        "loaded": np.array_equal(loaded.dv.vectors, model.dv.vectors)
        and list(loaded.dv.index_to_key) == list(model.dv.index_to_key),
        "by tag": np.array_equal(model.dv[tag(3)], model.dv.vectors[3]),
    }


@pytest.mark.parametrize("tag", [int, "doc{}".format], ids=["int tags", "str tags"])
def test_a_doc2vec_script_gives_gensim_answers(documents, tag, tmp_path):
    """Shapes, tags, vocabulary and corpus figures are gensim's; a trained document's inferred
    vector (PV-DBOW) is among its own ten nearest documents (of 400) on both sides, for each
    of the ten tried or all but one (seed 1: ten of ten on both; the vectors come from other
    random numbers, so the neighbours are not compared one by one)."""
    gensim_doc2vec = pytest.importorskip("gensim.models.doc2vec")
    import wordvec.gensim.doc2vec

    (tmp_path / "g").mkdir()
    (tmp_path / "w").mkdir()
    theirs = doc2vec_script(gensim_doc2vec, documents, tag, tmp_path / "g")
    ours = doc2vec_script(wordvec.gensim.doc2vec, documents, tag, tmp_path / "w")
    for key in ("shapes", "figures", "tags", "vocab"):
        assert ours[key] == theirs[key], key
    assert ours["loaded"] and theirs["loaded"] and ours["by tag"] and theirs["by tag"]
    assert ours["found"] >= 9 and ours["found"] >= theirs["found"] - 1


def test_a_summed_context_is_gensims_cbow_mean_0(documents):
    """cbow_mean=0 / dm_mean=0 train wordvec's --context sum; PV-DM so trained still finds a
    document's own vector from its inferred one (5-6 of 10 over seeds 1-3; gensim's 3 of 10
    with either dm_mean; chance a quarter of one)."""
    tagged = [TaggedDocument(words, [i]) for i, words in enumerate(documents)]
    model = Doc2Vec(tagged, dm_mean=0, vector_size=16, min_count=2, epochs=20, workers=1)
    assert model.to_wordvec().settings["context"] == "sum"
    found = sum(
        i in [tag for tag, _ in model.dv.most_similar([model.infer_vector(documents[i])], topn=10)]
        for i in range(0, DOCS, 40)
    )
    assert found >= 4, found
    words = Word2Vec(documents, cbow_mean=0, vector_size=16, min_count=2, workers=1)
    assert words.to_wordvec().settings["context"] == "sum"


def test_doc2vec_two_step_and_what_it_does_not_do(documents, tmp_path):
    """build_vocab gives dv a row per tag (gensim's), train fills them; what wordvec's
    paragraph vectors do not do is an error: dm_concat's several tags, a tag it was not built
    with, a tag given as one string."""
    tagged = [TaggedDocument(words, [f"d{i}"]) for i, words in enumerate(documents)]
    model = Doc2Vec(vector_size=16, min_count=2, epochs=5, dm=0, dbow_words=1, workers=2)
    model.build_vocab(tagged)
    assert model.dv.vectors.shape == (DOCS, 16) and model.dv.index_to_key[:2] == ["d0", "d1"]
    model.train(tagged, total_examples=model.corpus_count, epochs=model.epochs)
    assert model["d5"].shape == (16,) and model.dv.most_similar("d5", topn=1)[0][0] != "d5"
    before = np.array(model.dv.vectors)
    some = [tagged[3], tagged[5]]  # a second train continues these documents' rows only
    model.train(some, total_examples=2, epochs=1)
    moved = np.any(model.dv.vectors != before, axis=1)
    assert moved[[3, 5]].all() and moved.sum() == 2
    with pytest.raises(ConfigError, match="'new' is not a tag of this model's documents"):
        model.train([TaggedDocument(documents[0], ["new"])], total_examples=1, epochs=1)
    model.save(str(tmp_path / "d2v.model"))
    assert Doc2Vec.load(str(tmp_path / "d2v.model")).dv.index_to_key == model.dv.index_to_key
    with pytest.raises(AttributeError):  # gensim's: load returns a new model, not this one
        model.load(str(tmp_path / "d2v.model"))
    with pytest.raises(ConfigError, match="dm_tag_count=1"):
        Doc2Vec(dm_concat=1, dm_tag_count=2)
    with pytest.raises(ConfigError, match=r"tags are a list: give \['x'\], not 'x'"):
        Doc2Vec([TaggedDocument(["a", "b"], "x")], min_count=1)


def test_doc2vec_build_vocab_update_adds_words_and_tags(documents):
    """gensim's ``build_vocab(update=True)`` (whose own training then crashes on a new tag):
    the new words and tags get rows, the ints up to the highest first; training on the new
    documents continues the model, the other documents' rows staying; a new int tag after
    string tags is refused (it would be another tag's row)."""
    tagged = [TaggedDocument(words, [i]) for i, words in enumerate(documents[:50])]
    model = Doc2Vec(tagged, vector_size=16, min_count=1, epochs=2, workers=1)
    words, before = len(model.wv), np.array(model.dv.vectors)
    new = [TaggedDocument(["zyzzyva", "quagga", *documents[0][:9]], [51]),
           TaggedDocument(["okapi", *documents[1][:9]], ["x"])]  # fmt: skip
    model.build_vocab(new, update=True)
    assert len(model.wv) == words + 3 and model.dv.index_to_key[49:] == [49, 50, 51, "x"]
    model.train(new, total_examples=2, epochs=2)
    np.testing.assert_array_equal(model.dv.vectors[:50], before)
    assert model.wv.most_similar("okapi", topn=1) and np.any(model.dv["x"] != 0)
    with pytest.raises(ConfigError, match="new int tag 52 after the model's other tags"):
        model.build_vocab([TaggedDocument(["okapi"], [52])], update=True)


def test_doc2vec_tags_several_a_document_or_shared_are_gensims(documents):
    """A document may have several tags, or none, and a tag several documents: ``dv`` is
    keyed as gensim keys it (the ints from 0 to the highest, then the other tags as first
    seen; ``key_to_index`` in row order, without the ints), and each tag's row is trained by
    its documents; an int no document has keeps its random start (gensim's too)."""
    gensim_doc2vec = pytest.importorskip("gensim.models.doc2vec")
    import wordvec.gensim.doc2vec

    tags = [[i % 7, "odd" if i % 2 else "even"] + (["x"] if i % 5 == 0 else []) for i in
            range(len(documents))]  # fmt: skip
    tags[3] = []
    tags[4] = [9]  # 7 and 8 are on no document
    settings = dict(vector_size=16, min_count=2, epochs=5, dm=1, workers=1, seed=1)
    keys, indexed = {}, {}
    for name, api in (("gensim", gensim_doc2vec), ("ours", wordvec.gensim.doc2vec)):
        tagged = [api.TaggedDocument(words, t) for words, t in zip(documents, tags)]
        model = api.Doc2Vec(vector_size=16, min_count=2, epochs=5, workers=1, seed=1)
        model.build_vocab(tagged)
        keys[name] = list(model.dv.index_to_key)
        indexed[name] = list(model.dv.key_to_index.items())
        assert list(model.wv.key_to_index) == model.wv.index_to_key, name  # in row order
        assert 3 in model.dv and model.dv.get_index(3) == 3, name
        start = np.array(model.dv.vectors)
        model.train(tagged, total_examples=model.corpus_count, epochs=model.epochs)
        moved = np.any(model.dv.vectors != start, axis=1)
        assert [key for key, row_moved in zip(keys[name], moved) if not row_moved] == [7, 8], name
    assert keys["ours"] == keys["gensim"] == [*range(10), "even", "x", "odd"]
    assert indexed["ours"] == indexed["gensim"] == [("even", 10), ("x", 11), ("odd", 12)]
    model = Doc2Vec([TaggedDocument(words, t) for words, t in zip(documents, tags)], **settings)
    assert model.dv.index_to_key == keys["ours"]
    assert model.dv.most_similar("odd", topn=1)[0][0] == "even"


def test_a_keyed_vector_is_read_only_and_string_words_are_characters(caplog):
    """gensim's: ``wv[word]`` cannot be written through (norms are cached; write to
    ``vectors``), and a document whose words are one string is read as its characters, with
    gensim's warning."""
    keyed = KeyedVectors(3)
    keyed.add_vectors(["a", "b"], np.eye(2, 3, dtype=np.float32))
    with pytest.raises(ValueError):
        keyed["a"] *= 0
    keyed.vectors[0] *= 2  # the matrix stays writable
    assert keyed["a"][0] == 2
    documents = [TaggedDocument("abab", [0]), TaggedDocument("ba ba", [1])]
    with caplog.at_level("WARNING"):
        model = Doc2Vec(documents, min_count=1, vector_size=4, epochs=1, workers=1)
    assert "Each 'words' should be a list of words" in caplog.text
    assert sorted(model.wv.index_to_key) == ["a", "b"] and len(model.dv) == 2


def test_an_undecodable_text_error_crosses_processes_under_tblib_too():
    """dask installs tblib's exception pickling, which rebuilds a UnicodeDecodeError without
    its fields: the error pickles as plain values, and comes back whole either way."""
    pickling_support = pytest.importorskip("tblib.pickling_support")
    try:
        b"caf\xe9".decode()
    except UnicodeDecodeError as cause:
        error = UndecodableText("l1.txt is not UTF-8 text", cause)
    for _ in range(2):
        back = pickle.loads(pickle.dumps(error))
        assert (str(back), back.encoding, back.start, back.end) == (str(error), "utf-8", 3, 4)
        pickling_support.install(UndecodableText, UnicodeDecodeError)


def test_workers_are_threads_up_to_the_cores():
    """gensim's workers=3 trains on three threads where there are three cores, never more."""
    from wordvec.runtime.parallel import available_cores

    for workers in (1, 3, 64):
        options = Word2Vec(workers=workers)._options(1, 0.025, 0.0001)
        assert options["threads"] == min(workers, available_cores())
