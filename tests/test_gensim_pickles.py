"""gensim's saved models (pickles, and .npy files beside them) read as data: each kind saved by
gensim 4 answers as gensim's own load does, gensim's 1.x-3.x files too, and a pickle that
would run code is refused before anything runs."""

from __future__ import annotations

import contextlib
import os
import pickle
import random

import numpy as np
import pytest

import wordvec.gensim as face
from wordvec.errors import FormatError
from wordvec.gensim.pickles import RefusedPickle, read_pickle

gensim_models = pytest.importorskip("gensim.models")  # a test dependency (make test installs it)
from gensim.models.doc2vec import TaggedDocument  # noqa: E402
from gensim.test.utils import common_texts, datapath  # noqa: E402


def _same_neighbours(theirs, ours, word: str) -> None:
    expected, found = theirs.most_similar(word, topn=5), ours.most_similar(word, topn=5)
    assert [w for w, _ in found] == [w for w, _ in expected]
    np.testing.assert_allclose([s for _, s in found], [s for _, s in expected], atol=1e-5)


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """One model of each kind, trained and saved by gensim 4."""
    folder = tmp_path_factory.mktemp("gensim4")
    w2v = gensim_models.Word2Vec(common_texts, vector_size=8, min_count=1, hs=1, seed=1,
                                 workers=1)  # fmt: skip
    w2v.save(str(folder / "w2v.model"), separately=["syn1neg"])  # an array apart
    w2v.wv.save(str(folder / "w2v.kv"))
    gensim_models.FastText(common_texts, vector_size=8, min_count=1, bucket=500, seed=1,
                           workers=1).save(str(folder / "ft.model"))  # fmt: skip
    documents = [TaggedDocument(words, [f"d{i}"]) for i, words in enumerate(common_texts)]
    gensim_models.Doc2Vec(documents, vector_size=8, min_count=1, seed=1, workers=1).save(
        str(folder / "d2v.model")
    )
    phrases = gensim_models.Phrases(common_texts * 10, min_count=1, threshold=0.1)
    phrases.save(str(folder / "phrases.model"))
    phrases.freeze().save(str(folder / "frozen.model"))
    return folder


@pytest.mark.parametrize(
    ("kind", "file"),
    [
        ("Word2Vec", "w2v.model"),
        ("KeyedVectors", "w2v.kv"),
        ("FastText", "ft.model"),
        ("Doc2Vec", "d2v.model"),
    ],
)
def test_a_gensim_4_model_answers_as_gensims_load(saved, kind, file):
    theirs = getattr(gensim_models, kind).load(str(saved / file))
    ours = getattr(face, kind).load(str(saved / file))
    their_wv, our_wv = (theirs, ours) if kind == "KeyedVectors" else (theirs.wv, ours.wv)
    assert our_wv.index_to_key == their_wv.index_to_key
    _same_neighbours(their_wv, our_wv, "system")
    if kind == "Word2Vec":
        np.testing.assert_array_equal(ours.syn1neg, theirs.syn1neg)
        np.testing.assert_array_equal(ours.syn1, theirs.syn1)
        assert (ours.window, ours.sg, ours.hs, ours.negative) == (5, 0, 1, 5)
    if kind == "FastText":  # an unseen word, from the n-gram rows
        np.testing.assert_allclose(our_wv["systemic"], their_wv["systemic"], atol=1e-6)
    if kind == "Doc2Vec":
        assert ours.dv.index_to_key == theirs.dv.index_to_key
        _same_neighbours(theirs.dv, ours.dv, "d0")


def test_arrays_saved_apart_load_mapped(saved):
    ours = face.Word2Vec.load(str(saved / "w2v.model"), mmap="r")
    assert os.path.exists(saved / "w2v.model.syn1neg.npy")
    theirs = gensim_models.Word2Vec.load(str(saved / "w2v.model"))
    np.testing.assert_array_equal(ours.syn1neg, theirs.syn1neg)
    assert not ours.syn1neg.flags.writeable  # mapped read-only, as gensim's mmap='r'
    (saved / "w2v.model.syn1neg.npy").rename(saved / "aside.npy")
    try:
        with pytest.raises(FormatError, match="its array syn1neg is missing"):
            face.Word2Vec.load(str(saved / "w2v.model"))
    finally:
        (saved / "aside.npy").rename(saved / "w2v.model.syn1neg.npy")


def test_training_continues_from_a_gensim_model(saved):
    model = face.Word2Vec.load(str(saved / "w2v.model"))
    before = np.array(model.wv.vectors)
    model.train(common_texts, total_examples=len(common_texts), epochs=2)
    assert not np.array_equal(before, model.wv.vectors)


@pytest.mark.parametrize("kind", ["Phrases", "FrozenPhrases"])
def test_gensim_phrases_join_as_gensims(saved, kind):
    file = str(saved / ("phrases.model" if kind == "Phrases" else "frozen.model"))
    sentence = [["human", "interface", "computer", "graph", "minors", "response", "time"]]
    expected = list(getattr(gensim_models.phrases, kind).load(file)[sentence])
    assert list(getattr(face, kind).load(file)[sentence]) == expected


OLD_FILES = [
    ("Word2Vec", "model-from-gensim-3.8.0.w2v"), ("Word2Vec", "word2vec_old_sep"),
    ("Word2Vec", "old_w2v_models/w2v_1.0.0.mdl"), ("Word2Vec", "old_w2v_models/w2v_3.4.0.mdl"),
    ("KeyedVectors", "old_keyedvectors_320.dat"), ("FastText", "compatible-hash-true.model"),
    ("Phrases", "phrases-3.6.0.model"), ("FrozenPhrases", "phraser-3.6.0.model"),
]  # fmt: skip


@pytest.mark.parametrize(("kind", "name"), OLD_FILES)
def test_files_of_gensim_1_to_3_load(kind, name):
    """gensim's own test files of its old versions (they come with gensim)."""
    path = datapath(name)
    ours = getattr(face, kind).load(path)
    if kind in ("Phrases", "FrozenPhrases"):
        theirs = getattr(gensim_models.phrases, kind).load(path)
        sentence = [["human", "interface", "computer", "graph", "minors"]]
        assert list(ours[sentence]) == list(theirs[sentence])
        return
    theirs = getattr(gensim_models, kind).load(path)
    if kind == "Word2Vec":  # None before gensim 3.3, as gensim loads it
        assert ours.corpus_total_words == theirs.corpus_total_words
    their_wv, our_wv = (theirs, ours) if kind == "KeyedVectors" else (theirs.wv, ours.wv)
    assert our_wv.index_to_key == their_wv.index_to_key
    _same_neighbours(their_wv, our_wv, their_wv.index_to_key[0])


def test_a_fasttext_file_of_gensim_before_3_8_is_refused_as_gensim_refuses_it():
    """gensim 3.6's fastText file has no ``compatible_hash``: its n-grams of words outside
    ASCII may be hashed otherwise, so gensim 4 refuses it (a TypeError), and so does the face
    rather than answer those words from other rows."""
    path = datapath("ft_kv_3.6.0.model.gz")
    with pytest.raises(TypeError, match="nonstandard hashing"):
        gensim_models.fasttext.FastTextKeyedVectors.load(path)
    with pytest.raises(FormatError, match="compatible_hash"):
        face.models.fasttext.FastTextKeyedVectors.load(path)


class _RunsCode:
    """What a hostile pickle holds: unpickled by pickle.load, it runs a shell command."""

    def __init__(self, command: str):
        self.command = command

    def __reduce__(self):
        return (os.system, (self.command,))


def test_a_pickle_that_would_run_code_is_refused(tmp_path):
    marker = tmp_path / "ran"
    crafted = tmp_path / "crafted.model"
    crafted.write_bytes(pickle.dumps(_RunsCode(f"touch {marker}"), protocol=2))
    for load in (face.Word2Vec.load, face.KeyedVectors.load, face.Phrases.load):
        with pytest.raises(RefusedPickle, match=r"asks to run or build (posix|os)\.system"):
            load(str(crafted))
    assert not marker.exists()
    # a gensim class called with arguments, and _codecs.encode on something else than text
    called = (
        b"\x80\x02cgensim.models.word2vec\nWord2Vec\nq\x00X\x01\x00\x00\x00xq\x01\x85q\x02Rq\x03."
    )
    with pytest.raises(RefusedPickle, match="calls gensim.models.word2vec.Word2Vec with arg"):
        read_pickle(_written(tmp_path / "called.model", called))
    evaluated = pickle.dumps(eval, protocol=2)  # builtins.eval itself, as a value
    with pytest.raises(RefusedPickle, match=r"build (__builtin__|builtins)\.eval"):
        read_pickle(_written(tmp_path / "eval.model", evaluated))


def _written(path, data: bytes):
    path.write_bytes(data)
    return path


KINDS = [("FastText", "ft.model"), ("Word2Vec", "w2v.model"), ("Doc2Vec", "d2v.model"),
         ("Phrases", "phrases.model")]  # fmt: skip


def test_damaged_gensim_files_are_format_errors(saved, tmp_path):
    """Truncations and byte flips of a gensim 4 model: a FormatError (or a model), never
    another exception."""
    rng = random.Random(7)
    for trial in range(240):
        kind, file = KINDS[trial % len(KINDS)]
        data = (saved / file).read_bytes()
        damaged = bytearray(data[: rng.randrange(len(data))] if trial % 3 == 0 else data)
        for _ in range(rng.randrange(1, 4)):
            if damaged:
                damaged[rng.randrange(len(damaged))] = rng.randrange(256)
        path = _written(tmp_path / "d.model", bytes(damaged))
        with contextlib.suppress(FormatError):
            getattr(face, kind).load(str(path))
