"""``wordvec.train`` as gensim users call it: corpora as Python objects, read once as files
are; callbacks after each epoch; ``init=`` a loaded model; gensim's keyword names answered."""

from __future__ import annotations

import gzip
import io
import subprocess
import sys

import numpy as np
import pytest

import wordvec
from wordvec.errors import ConfigError, CorpusError

from .conftest import SAMPLE

QUICK = dict(dim=16, epochs=1, threads=1, seed=5, quiet=True)


@pytest.fixture(scope="module")
def sample_lines() -> list[str]:
    with gzip.open(SAMPLE, "rt", encoding="utf-8") as lines:
        return lines.readlines()[:3000]


@pytest.fixture(scope="module")
def from_file(sample_lines, tmp_path_factory):
    path = tmp_path_factory.mktemp("api") / "lines.txt"
    path.write_text("".join(sample_lines), encoding="utf-8")
    return path, wordvec.train(path, **QUICK)


@pytest.mark.parametrize(
    "make_corpus",
    [
        lambda lines: [line.split() for line in lines],  # gensim's sentences
        lambda lines: (line.split() for line in lines),  # ... as a generator
        lambda lines: iter(lines),  # lines
        lambda lines: (line.rstrip("\n") for line in lines),  # lines without their newline
        lambda lines: io.StringIO("".join(lines)),  # a text file object
        lambda lines: io.BytesIO("".join(lines).encode()),  # a binary one
        lambda lines: io.BytesIO(gzip.compress("".join(lines).encode())),  # gzip bytes
    ],
    ids=["token-lists", "token-generator", "lines", "bare-lines", "text-file", "bytes", "gzip"],
)
def test_python_corpora_train_what_the_file_trains(sample_lines, from_file, make_corpus):
    """One thread and a seed: the same bytes, so the same vocabulary and weights."""
    _, expected = from_file
    model = wordvec.train(make_corpus(sample_lines), **QUICK)
    assert model.vocab.words == expected.vocab.words
    np.testing.assert_array_equal(model.vectors, expected.vectors)


def test_an_open_file_is_read_as_it_is(from_file):
    path, expected = from_file
    with open(path, encoding="utf-8") as text:
        model = wordvec.train(text, **QUICK)
    np.testing.assert_array_equal(model.vectors, expected.vectors)


def test_counting_takes_python_corpora_too(sample_lines, tmp_path):
    from wordvec.cooccur.counting import count_cooccurrences

    options = dict(min_count=2, window=3, threads=1, quiet=True)
    (tmp_path / "c.txt").write_text("".join(sample_lines), encoding="utf-8")
    count_cooccurrences(tmp_path / "c.txt", tmp_path / "file.cooc", **options)
    count_cooccurrences([line.split() for line in sample_lines], tmp_path / "py.cooc", **options)
    assert (tmp_path / "file.cooc").read_bytes() == (tmp_path / "py.cooc").read_bytes()


NOT_SENTENCES = "a corpus of sentences is an iterable of lists of str tokens, each list a sentence"


@pytest.mark.parametrize(
    "corpus, message",
    [
        ([], "no corpus given"),
        (iter([]), "the Python corpus is empty"),
        ([["i", "like"], "cats"], f"{NOT_SENTENCES}, not of str"),
        ([[1, 2, 3]], f"{NOT_SENTENCES}: a token is a int"),
        (iter(["a line", 7]), "a line of the Python corpus is a int, not str"),
        (iter([1, 2, 3]), f"{NOT_SENTENCES}, not of int"),  # was a bare TypeError
        (iter([None]), f"{NOT_SENTENCES}, not of NoneType"),  # was "is empty"
        ([["new york", "is", "big"]], "the token 'new york' is more than one word: a token is "
         "one word without whitespace (join a phrase with '_', as new_york)"),  # was two words
        ([["a", ""]], "the token '' is empty: a token is one word without whitespace (join a "
         "phrase with '_', as new_york)"),
        (["i like cats", "i like dogs"],
         "corpus file not found: 'i like cats' (a list of strings is a list of paths: give "
         "lines of text as iter(lines), sentences as token lists)"),
        (42, "a corpus is a path, a file object or an iterable of sentences, not int"),
    ],
    ids=["empty-list", "empty-iterator", "mixed", "not-str", "line-not-str", "numbers", "none",
         "token-with-a-space", "empty-token", "lines-in-a-list", "number"],
)  # fmt: skip
def test_python_corpora_that_are_not_text_are_one_message(corpus, message):
    with pytest.raises(CorpusError) as raised:
        wordvec.train(corpus, min_count=1, **QUICK)
    assert str(raised.value) == message


def test_callbacks_hear_every_epoch(sample_lines):
    heard = []

    class Logger:  # gensim's style: an object with on_epoch_end
        def __init__(self):
            self.epochs = []

        def on_epoch_end(self, end):
            self.epochs.append(end.epoch)

    logger = Logger()
    options = {**QUICK, "epochs": 3}
    model = wordvec.train(iter(sample_lines), callbacks=[heard.append, logger], **options)
    assert [end.epoch for end in heard] == [1, 2, 3] == logger.epochs
    assert {end.epochs for end in heard} == {3}
    assert [end.loss for end in heard] == pytest.approx(model.report.epoch_loss)
    alphas = [end.alpha for end in heard]
    assert alphas == sorted(alphas, reverse=True) and alphas[-1] == pytest.approx(0.025 * 1e-4)
    assert alphas[0] == pytest.approx(0.025 - (0.025 - 0.025e-4) / 3, rel=1e-3)
    assert all(end.words_per_second > 0 for end in heard)


def test_a_callback_must_be_callable(sample_lines):
    with pytest.raises(ConfigError, match="a callback is a function of the epoch's figures"):
        wordvec.train(iter(sample_lines), callbacks=["print"], **QUICK)


def test_init_takes_a_loaded_model_as_it_takes_its_file(sample_lines, from_file, tmp_path):
    path, base = from_file
    base.save(tmp_path / "base.wv")
    by_path = wordvec.train(path, init=str(tmp_path / "base.wv"), **QUICK)
    by_model = wordvec.train(path, init=wordvec.Model.load(tmp_path / "base.wv"), **QUICK)
    np.testing.assert_array_equal(by_model.vectors, by_path.vectors)
    assert not np.array_equal(by_model.vectors, base.vectors)


@pytest.mark.parametrize(
    "keyword, message",
    [
        ("vector_size", "vector_size is gensim's name; use dim"),
        ("workers", "workers is gensim's name; use threads"),
        ("sg", "sg is gensim's name; use model='sg' (or 'cbow')"),
        ("sentences", "sentences is gensim's name; use corpus (the first argument: a path, a "
                      "file or the sentences)"),
        ("wordNgrams", "wordNgrams is fastText's name; use word_ngrams"),
    ],
)  # fmt: skip
def test_peer_keywords_are_answered(sample_lines, keyword, message):
    with pytest.raises(ConfigError) as raised:
        wordvec.train(iter(sample_lines), **{keyword: 1})
    assert str(raised.value) == message


def test_python_dash_m_runs_the_cli():
    done = subprocess.run([sys.executable, "-m", "wordvec", "--version"], capture_output=True,
                          text=True, check=True)  # fmt: skip
    assert done.stdout.startswith("wordvec, version ")


def test_sentence_vectors_say_what_to_pass(tmp_path):
    """A string gave one row a character, a model an AttributeError."""
    model = wordvec.train([["i", "like", "cats"]] * 5, min_count=1, **QUICK)
    with pytest.raises(TypeError, match=r"lines is one string: pass a list of lines"):
        wordvec.sentence_vectors(model.wv, "i like cats")
    with pytest.raises(TypeError, match=r"not a Model: pass model.wv"):
        wordvec.sentence_vectors(model, [])
    rows, empty = wordvec.sentence_vectors(model.wv, ["i like cats"])
    assert rows.shape == (1, 16) and empty == 0


def test_ctrl_c_leaves_the_model_trained_so_far_reachable(sample_lines):
    """gensim's model object keeps what an interrupted train() did; ours was lost."""
    from wordvec.errors import TrainingInterrupted

    def interrupt_after_two(end):
        if end.epoch == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt) as raised:
        wordvec.train(iter(sample_lines), callbacks=[interrupt_after_two], min_count=1,
                      **{**QUICK, "epochs": 5})  # fmt: skip
    stop = raised.value
    assert isinstance(stop, TrainingInterrupted)
    assert (stop.epochs_done, stop.epochs) == (2, 5) and len(stop.model.report.epoch_loss) == 2
    assert stop.model.wv.most_similar("the", k=1)
    assert "the model trained so far is this exception's .model" in str(stop)


def test_a_nan_query_vector_and_no_lines_are_clear_errors(sample_model):
    """Found by a fuzz: NaN scores for a NaN query, a raw TypeError for lines=None."""
    import numpy as np

    import wordvec

    vectors = wordvec.load_vectors(sample_model)
    with pytest.raises(ValueError, match="a query vector holds NaN or an infinity"):
        vectors.most_similar(np.full(vectors.dim, np.nan))
    with pytest.raises(TypeError, match="lines is a NoneType: pass a list of lines"):
        wordvec.sentence_vectors(vectors, None)
