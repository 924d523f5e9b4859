"""Locked word vectors (gensim's ``vectors_lockf``, ``wordvec.train(word_locks=...)``): each
input row takes its lock factor's share of every step, in the window kernels of word2vec's
models, the Python API and the gensim face."""

from __future__ import annotations

import numpy as np
import pytest

import wordvec
from tests.conftest import TOY_LINES
from tests.test_kernels import ALPHA, tiny_setup
from wordvec.errors import ConfigError
from wordvec.kernels.windows import CBOW, SKIP_GRAM, SKIP_GRAM_SHARED_TARGETS, window_job
from wordvec.training.windows import own_rows


@pytest.mark.parametrize("model", [CBOW, SKIP_GRAM, SKIP_GRAM_SHARED_TARGETS],
                         ids=["cbow", "pairs", "shared"])  # fmt: skip
def test_a_locked_row_takes_its_share_of_each_step(model):
    """The line ``x y``: each word's row takes one step (the other word's prediction, from
    rows that step leaves alone), so with lock factors 0 and 0.5 it moves by nothing and by
    half of what the unlocked job moved it; the output layer moves as unlocked."""
    sentence = np.array([1, 2, -1], np.int32)
    moved = {}
    for locks in (None, np.array([1, 0.0, 0.5, 1, 1], np.float32)):
        w_in, out, sampling, memory = tiny_setup(7)
        start = w_in.copy()
        inputs = own_rows(len(w_in)) if locks is None else own_rows(len(w_in))._replace(locks=locks)
        window_job(sentence, 2, ALPHA, ALPHA, model, w_in, inputs, out, sampling, memory)
        moved[locks is None] = (w_in - start, out.w_out.copy())
    (free, free_out), (locked, locked_out) = moved[True], moved[False]
    assert np.abs(free[1]).max() > 1e-3 and np.abs(free[2]).max() > 1e-3
    np.testing.assert_array_equal(locked[1], 0.0)
    np.testing.assert_allclose(locked[2], 0.5 * free[2], rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(locked_out, free_out, rtol=1e-5, atol=1e-7)


def test_word_locks_keep_a_continued_models_words(tmp_path):
    """``word_locks={word: 0}`` continues a model with those words' vectors as they were, on
    two threads too (no thread keeps copies of a locked row); other models refuse them."""
    corpus = tmp_path / "toy.txt"
    corpus.write_text("\n".join(TOY_LINES * 20) + "\n", encoding="utf-8")
    options = dict(dim=8, min_count=1, epochs=2, seed=1, quiet=True)
    for model in ("sg", "cbow"):
        first = wordvec.train(corpus, model=model, threads=1, **options)
        again = wordvec.train(corpus, model=model, threads=2, init=first,
                              word_locks={"like": 0.0, "cats": 1.0}, **options)  # fmt: skip
        row = {word: i for i, word in enumerate(again.vocab.words)}
        old = {word: i for i, word in enumerate(first.vocab.words)}
        np.testing.assert_array_equal(again.vectors[row["like"]], first.vectors[old["like"]])
        assert not np.array_equal(again.vectors[row["cats"]], first.vectors[old["cats"]])
    with pytest.raises(ConfigError, match="word_locks lock words' vectors of --model sg or cbow"):
        wordvec.train(corpus, model="fasttext", word_locks={"like": 0.0}, **options)
    with pytest.raises(ConfigError, match="finite shares"):
        wordvec.train(corpus, model="sg", word_locks={"like": float("nan")}, **options)


def test_gensims_locking_recipe():
    """gensim's own check, on our corpus: a full ``vectors_lockf`` with one word at 0 keeps
    that word's vector through training, for CBOW and skip-gram, with both output layers."""
    from wordvec.gensim.models import Word2Vec

    sentences = [line.lower().split() for line in TOY_LINES] * 40
    for sg in (0, 1):
        model = Word2Vec(vector_size=4, hs=1, negative=5, min_count=1, sg=sg, window=5)
        model.build_vocab(sentences)
        locked, unlocked = model.wv.vectors[0].copy(), model.wv.vectors[1].copy()
        model.wv.vectors_lockf = np.ones(len(model.wv), dtype=np.float32)
        model.wv.vectors_lockf[0] = 0.0
        model.train(sentences, total_examples=model.corpus_count, epochs=model.epochs)
        np.testing.assert_array_equal(model.wv.vectors[0], locked)
        assert not np.array_equal(model.wv.vectors[1], unlocked)
