"""gensim's module layout over the face: what gensim's tutorials import resolves, gensim's
tokenizers give gensim's tokens, ``gensim.test.utils`` and ``gensim.downloader`` (against a
server on loopback standing in for gensim-data)."""

from __future__ import annotations

import functools
import gzip
import hashlib
import http.server
import importlib
import json
import threading

import numpy as np
import pytest

from wordvec.formats import save_vectors
from wordvec.gensim import downloader, utils
from wordvec.gensim.test.utils import common_texts, datapath, get_tmpfile, temporary_file
from wordvec.query.vectors import Vectors

GENSIM_NAMES = [
    "wordvec.gensim.models:Word2Vec", "wordvec.gensim.models:KeyedVectors",
    "wordvec.gensim.models:FastText", "wordvec.gensim.models:Doc2Vec",
    "wordvec.gensim.models.word2vec:Word2Vec", "wordvec.gensim.models.word2vec:LineSentence",
    "wordvec.gensim.models.word2vec:Text8Corpus", "wordvec.gensim.models.fasttext:FastText",
    "wordvec.gensim.models.fasttext:load_facebook_model",
    "wordvec.gensim.models.doc2vec:Doc2Vec", "wordvec.gensim.models.doc2vec:TaggedDocument",
    "wordvec.gensim.models.keyedvectors:KeyedVectors",
    "wordvec.gensim.models.keyedvectors:Word2VecKeyedVectors",
    "wordvec.gensim.models.phrases:Phrases", "wordvec.gensim.models.callbacks:CallbackAny2Vec",
    "wordvec.gensim.utils:simple_preprocess", "wordvec.gensim.utils:tokenize",
    "wordvec.gensim.test.utils:datapath", "wordvec.gensim.test.utils:get_tmpfile",
    "wordvec.gensim.test.utils:common_texts", "wordvec.gensim.downloader:load",
    "wordvec.gensim.downloader:info", "wordvec.gensim:Word2VecKeyedVectors",
    "wordvec.gensim.parsing.preprocessing:STOPWORDS",
    "wordvec.gensim.models.keyedvectors:pseudorandom_weak_vector",  # gensim's own tests import it
    "wordvec.gensim.test.test_doc2vec:ConcatenatedDoc2Vec",  # the IMDB tutorial imports it
]  # fmt: skip


@pytest.mark.parametrize("where", GENSIM_NAMES)
def test_gensim_names_resolve(where):
    module, name = where.split(":")
    assert getattr(importlib.import_module(module), name) is not None


def test_import_gensim_reaches_its_modules():
    import wordvec.gensim as gensim

    assert gensim.models.doc2vec.TaggedDocument is gensim.TaggedDocument
    assert gensim.utils.simple_preprocess("Hi there") == ["hi", "there"]


def test_tokenizers_as_gensim():
    text = "Šéf said: 3rd time, naïve café_au_lait _x ab12cd supercalifragilistic!"
    assert utils.simple_preprocess(text) == ["šéf", "said", "rd", "time", "naïve", "café_au_lait",
                                             "ab", "cd"]  # fmt: skip
    assert utils.simple_preprocess(text, deacc=True)[:1] == ["sef"]
    assert list(utils.tokenize(b"Caf\xc3\xa9 2x")) == ["Café", "x"]
    gensim_utils = pytest.importorskip("gensim.utils")
    for deacc in (False, True):
        assert utils.simple_preprocess(text, deacc) == gensim_utils.simple_preprocess(text, deacc)


def test_test_utils(tmp_path):
    assert common_texts[0] == ["human", "interface", "computer"] and len(common_texts) == 9
    assert sum(map(len, common_texts)) == 29  # the LSA paper's 12 terms, 29 occurrences
    assert datapath("questions-words.txt").endswith("questions-words.txt")
    with pytest.raises(FileNotFoundError, match="does not ship gensim's test file no-such.txt"):
        datapath("no-such.txt")
    assert get_tmpfile("m.model").endswith("m.model")
    with temporary_file("x.kv") as path:
        open(path, "w").close()
    assert not __import__("os").path.exists(path)


@pytest.fixture
def gensim_data(tmp_path, monkeypatch):
    """A loopback server holding a gensim-data list, a model and a corpus, and an empty cache."""
    served = tmp_path / "served"
    rng = np.random.default_rng(0)
    vectors = Vectors(["cat", "dog", "car", "bus"], rng.standard_normal((4, 5)).astype(np.float32))
    (served / "tiny-vectors-5").mkdir(parents=True)
    save_vectors(vectors, served / "tiny-vectors-5" / "tiny-vectors-5.gz", "word2vec")
    corpus = gzip.compress(b'{"title": "a", "text": "one"}\n{"title": "b", "text": "two"}\n')
    (served / "tiny-news").mkdir()
    (served / "tiny-news" / "tiny-news.gz_00").write_bytes(corpus[:20])
    (served / "tiny-news" / "tiny-news.gz_01").write_bytes(corpus[20:])
    (served / "text8").mkdir()
    (served / "text8" / "text8.gz").write_bytes(gzip.compress(b" anarchism originated as a term"))

    def md5(data: bytes) -> str:
        return hashlib.md5(data).hexdigest()

    model_bytes = (served / "tiny-vectors-5" / "tiny-vectors-5.gz").read_bytes()
    listing = {
        "models": {"tiny-vectors-5": {"file_name": "tiny-vectors-5.gz", "parts": 1,
                                      "checksum": md5(model_bytes)}},
        "corpora": {"tiny-news": {"file_name": "tiny-news.gz", "parts": 2,
                                  "checksum-0": md5(corpus[:20]), "checksum-1": md5(corpus[20:])},
                    "text8": {"file_name": "text8.gz", "parts": 1}},
    }  # fmt: skip
    (served / "list.json").write_text(json.dumps(listing))
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(served))
    handler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    monkeypatch.setattr(downloader, "BASE_DIR", str(tmp_path / "gensim-data"))
    monkeypatch.setattr(downloader, "DATA_LIST_URL", f"{base}/list.json")
    monkeypatch.setattr(downloader, "DOWNLOAD_BASE_URL", base)
    yield served, vectors
    server.shutdown()
    server.server_close()


def test_downloader_fetches_checks_and_keeps_gensims_layout(gensim_data, tmp_path, monkeypatch):
    _, vectors = gensim_data
    model = downloader.load("tiny-vectors-5")
    assert model.index_to_key == vectors.words
    assert (tmp_path / "gensim-data" / "tiny-vectors-5" / "tiny-vectors-5.gz").exists()
    assert [r["text"] for r in downloader.load("tiny-news")] == ["one", "two"]
    assert downloader.info(name_only=True) == {"corpora": ["tiny-news", "text8"],
                                               "models": ["tiny-vectors-5"]}  # fmt: skip
    text8 = downloader.load("text8")  # the tutorials read its .fn
    assert list(text8) == [["anarchism", "originated", "as", "a", "term"]]
    assert text8.fn.endswith("text8/text8.gz")
    # offline: the cache and its kept list serve
    monkeypatch.setattr(downloader, "DATA_LIST_URL", "http://127.0.0.1:9/list.json")
    monkeypatch.setattr(downloader, "DOWNLOAD_BASE_URL", "http://127.0.0.1:9")
    assert downloader.load("tiny-vectors-5").index_to_key == vectors.words
    assert downloader.load("tiny-news", return_path=True).endswith("tiny-news/tiny-news.gz")
    with pytest.raises(OSError, match="cannot download tiny-extra"):
        listing = json.loads((tmp_path / "gensim-data" / "information.json").read_text())
        listing["models"]["tiny-extra"] = {"file_name": "tiny-extra.gz", "parts": 1}
        (tmp_path / "gensim-data" / "information.json").write_text(json.dumps(listing))
        downloader.load("tiny-extra")
    assert not (tmp_path / "gensim-data" / "tiny-extra").exists()
    with pytest.raises(ValueError, match="Incorrect model/corpus name: nothing"):
        downloader.load("nothing")


def test_downloader_refuses_a_damaged_download(gensim_data, tmp_path):
    served, _ = gensim_data
    (served / "tiny-vectors-5" / "tiny-vectors-5.gz").write_bytes(b"\x1f\x8bdamaged")
    with pytest.raises(OSError, match="its MD5 is"):
        downloader.load("tiny-vectors-5")
    assert not (tmp_path / "gensim-data" / "tiny-vectors-5").exists()


def test_downloader_offline_with_nothing_cached(tmp_path, monkeypatch):
    monkeypatch.setattr(downloader, "BASE_DIR", str(tmp_path / "gensim-data"))
    monkeypatch.setattr(downloader, "DATA_LIST_URL", "http://127.0.0.1:9/list.json")
    with pytest.raises(OSError, match="cannot fetch gensim-data's list"):
        downloader.load("text8")


@pytest.mark.parametrize(
    ("model", "face"),
    [("sg", "Word2Vec"), ("cbow", "Word2Vec"), ("fasttext", "FastText"), ("doc2vec", "Doc2Vec")],
)
def test_a_model_the_cli_trains_loads_through_its_gensim_class(tmp_path, toy_corpus, model, face):
    import wordvec
    import wordvec.gensim as gensim

    trained = wordvec.train(toy_corpus, model=model, dim=8, epochs=1, min_count=1, threads=1,
                            seed=1, quiet=True)  # fmt: skip
    trained.save(tmp_path / "m.wv")
    loaded = getattr(gensim, face).load(tmp_path / "m.wv")
    ours = wordvec.load_vectors(tmp_path / "m.wv")
    assert loaded.wv.index_to_key == ours.words
    theirs, mine = loaded.wv.most_similar("cats", topn=3), ours.most_similar("cats", topn=3)
    assert [w for w, _ in theirs] == [w for w, _ in mine]
    assert [s for _, s in theirs] == pytest.approx([s for _, s in mine], abs=1e-6)
    assert loaded.vector_size == 8 and loaded.sg == int(model in ("sg", "fasttext"))  # sg: theirs
    if model == "doc2vec":
        assert len(loaded.dv) == 5 and loaded.infer_vector(["i", "like"]).shape == (8,)
    other = "FastText" if face != "FastText" else "Doc2Vec"
    with pytest.raises(gensim.word2vec.NotAModelFile, match=f"holds a --model {model} model, not "
                       f"a {other} model: load it with {face}.load"):  # fmt: skip
        getattr(gensim, other).load(tmp_path / "m.wv")


def test_estimate_memory_as_gensims():
    gensim_models = pytest.importorskip("gensim.models")
    import wordvec.gensim as face
    from wordvec.gensim.test.utils import common_texts

    for kind, extra in (("Word2Vec", {}), ("FastText", {"bucket": 100})):
        reports = []
        for module in (gensim_models, face):
            model = getattr(module, kind)(vector_size=12, min_count=1, hs=1, **extra)
            model.build_vocab(common_texts)
            reports.append(model.estimate_memory())
        assert reports[1] == reports[0]


def test_gensims_module_level_reader(tmp_path):
    from wordvec.gensim.models.keyedvectors import KeyedVectors, _load_word2vec_format

    rng = np.random.default_rng(3)
    save_vectors(Vectors(["a", "b", "c"], rng.random((3, 4), dtype=np.float32)), tmp_path / "v.bin")
    found = _load_word2vec_format(KeyedVectors, tmp_path / "v.bin", binary=True, limit=2,
                                  binary_chunk_size=16)  # fmt: skip
    assert found.index_to_key == ["a", "b"]


def test_concatenated_doc2vec_joins_its_models_answers():
    """The IMDB tutorial's PV-DBOW + PV-DM: each model's answer, end to end, in order."""
    from wordvec.gensim.test.test_doc2vec import ConcatenatedDoc2Vec

    class Model:
        def __init__(self, name: str, width: int, epochs: int):
            self.name, self.epochs = name, epochs
            self.dv = {0: np.full(width, width, np.float32)}

        def __getitem__(self, key):
            return self.dv[key]

        def infer_vector(self, words, alpha=None, min_alpha=None, epochs=None):
            return np.full(len(self.dv[0]), len(words) + (epochs or 0), np.float32)

        def __str__(self):
            return self.name

    both = ConcatenatedDoc2Vec([Model("dbow", 2, 7), Model("dmc", 3, 9)])
    assert str(both) == "dbow+dmc" and both.epochs == 7
    assert both.dv[0].tolist() == [2, 2, 3, 3, 3] and both[0].tolist() == both.dv[0].tolist()
    assert both.infer_vector(["a", "b"], epochs=1).tolist() == [3.0] * 5
    assert both.train() is None
