"""``train --init MODEL``: continued training on a new corpus (gensim's build_vocab(update=True)
then train; fastText's -pretrainedVectors is --init-vectors)."""

from __future__ import annotations

import gzip

import numpy as np
import pytest

import wordvec
from tests.conftest import SAMPLE, WS353
from wordvec.errors import ConfigError
from wordvec.query.evaluate import evaluate_similarity, read_similarity


@pytest.fixture(scope="module")
def halves(tmp_path_factory):
    """The bundled corpus cut in two halves of about 420k words."""
    folder = tmp_path_factory.mktemp("halves")
    with gzip.open(SAMPLE, "rt", encoding="utf-8") as text:
        words = text.read().split()
    middle = len(words) // 2
    paths = []
    for name, part in (("first", words[:middle]), ("second", words[middle:])):
        path = folder / f"{name}.txt"
        path.write_text(" ".join(part) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


@pytest.mark.slow
def test_continued_model_keeps_its_words_adds_new_ones_and_improves(halves, tmp_path):
    first, second = halves
    options = {"threads": 2, "seed": 1, "quiet": True}
    before = wordvec.train(first, **options)
    before.save(tmp_path / "first.wv")
    after = wordvec.train(second, init=tmp_path / "first.wv", **options)
    assert set(before.vocab.words) < set(after.vocab.words)  # kept, and grown
    counted = wordvec.train(second, min_count=1, epochs=1, **options).vocab
    for word in ("the", "king", "france"):
        added = counted.counts[counted.index[word]] if word in counted.index else 0
        assert after.vocab.counts[after.vocab.index[word]] == (
            before.vocab.counts[before.vocab.index[word]] + added
        )
    pairs = read_similarity(WS353)
    scores = [evaluate_similarity(model.wv, pairs) for model in (before, after)]
    assert scores[1].covered > scores[0].covered
    assert scores[1].rho > scores[0].rho  # seed 1: 0.228 -> 0.328 on 242 pairs


def test_continued_fasttext_model_keeps_its_ngram_rows(halves, tmp_path):
    first, second = halves
    options = {"model": "fasttext", "bucket": 5_000, "epochs": 1, "threads": 1, "quiet": True}
    before = wordvec.train(first, **options)
    before.save(tmp_path / "ft.wv")
    after = wordvec.train(second, init=tmp_path / "ft.wv", alpha=1e-9, **options)
    np.testing.assert_allclose(after.arrays["ngrams"], before.arrays["ngrams"], atol=1e-5)
    row = before.vocab.index["king"]
    np.testing.assert_allclose(
        after.arrays["word_rows"][after.vocab.index["king"]],
        before.arrays["word_rows"][row],
        atol=1e-5,
    )


def test_init_keeps_the_models_kind_and_refuses_others(halves, tmp_path):
    first, second = halves
    wordvec.train(first, epochs=1, quiet=True).save(tmp_path / "sg.wv")
    with pytest.raises(ConfigError, match="--dim 50 differs from .*sg.wv's 100"):
        wordvec.train(second, init=tmp_path / "sg.wv", dim=50, quiet=True)
    wordvec.train(first, model="ppmi-svd", dim=10, quiet=True).save(tmp_path / "svd.wv")
    with pytest.raises(ConfigError, match="--init continues sg, cbow, fasttext, doc2vec models"):
        wordvec.train(second, init=tmp_path / "svd.wv", quiet=True)


def test_a_damaged_model_is_refused_before_training(halves, tmp_path):
    """Settings that disagree with the arrays, or an array missing: one error, no traceback."""
    from wordvec.errors import FormatError
    from wordvec.model import Model

    first, second = halves
    model = wordvec.train(first, epochs=1, quiet=True)
    edits = {
        "dim.wv": (dict(model.settings, dim=50), model.arrays),
        "no-w-out.wv": (model.settings, {}),
    }
    for name, (settings, arrays) in edits.items():
        Model(model.vocab, model.vectors, settings=settings, arrays=arrays).save(tmp_path / name)
        with pytest.raises(FormatError, match=f"{name} cannot be continued: it is corrupt"):
            wordvec.train(second, init=tmp_path / name, quiet=True)
