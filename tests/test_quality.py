"""Real training runs on the bundled corpora must give vectors of a calibrated quality.

Floors were calibrated over seeds 1-3 (1-5 where noted) with the settings below; they sit well
below the worst seed so the tests do not flake, and far above what broken training gives
(about 0).
"""

import numpy as np
import pytest

import wordvec
from wordvec.query.evaluate import evaluate_similarity, read_similarity

from .conftest import CORPORA, SAMPLE, WS353

COUNTRIES = {
    "italy",
    "spain",
    "germany",
    "russia",
    "austria",
    "belgium",
    "switzerland",
    "portugal",
    "england",
    "britain",
    "poland",
    "netherlands",
    "greece",
    "armenia",
}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("model", "loss", "options", "floor"),
    [
        # WS-353, seeds 1-3; gensim 4.4 on the same data: skip-gram 0.29-0.31, CBOW 0.28-0.29
        ("sg", "ns", {}, 0.24),  # shared negatives: 0.308-0.313
        ("sg", "ns", {"shared_negatives": False}, 0.22),  # 0.266-0.292
        ("cbow", "ns", {}, 0.19),  # 0.245-0.286
        ("sg", "hs", {}, 0.38),  # by windows 0.469-0.515 (per pair: 0.475-0.499)
        ("cbow", "hs", {}, 0.26),  # 0.338-0.410
    ],
    ids=["sg-ns", "sg-ns-pairs", "cbow-ns", "sg-hs", "cbow-hs"],
)
def test_sample_corpus_gives_sensible_vectors(model, loss, options, floor):
    trained = wordvec.train(
        SAMPLE, model=model, loss=loss, epochs=5, threads=2, seed=11, quiet=True, **options
    )
    vectors = trained.wv
    result = evaluate_similarity(vectors, read_similarity(WS353))
    assert result.covered == 263 and result.total == 353
    assert result.rho > floor
    neighbours = {word for word, _ in vectors.most_similar("france", k=10)}
    assert len(neighbours & COUNTRIES) >= 3, neighbours  # seeds 1-3: 4 to 8
    losses = trained.report.epoch_loss
    assert losses[-1] < losses[0]


GROUPS = [
    ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "zero"],
    ["his", "their", "its", "her"],
]


def group_coherence(vectors) -> float:
    """Mean share of each group word's nearest neighbours (as many as the group has other
    words) that are in its group."""
    shares = []
    for group in GROUPS:
        for word in group:
            found = {w for w, _ in vectors.most_similar(word, k=len(group) - 1)}
            shares.append(len(found & set(group)) / (len(group) - 1))
    return float(np.mean(shares))


@pytest.mark.slow
def test_full_softmax_learns_neighbours_as_well_as_negative_sampling():
    """On the 100 most frequent words (where the exact softmax is affordable), seeds 1-3:
    softmax 0.675-0.714, negative sampling 0.690-0.714."""
    scores = {
        loss: group_coherence(
            wordvec.train(
                SAMPLE, loss=loss, max_vocab=100, epochs=2, threads=1, seed=4, quiet=True
            ).wv
        )
        for loss in ("ns", "softmax")
    }
    assert scores["softmax"] > 0.55
    assert scores["softmax"] >= scores["ns"] - 0.08


@pytest.mark.slow
def test_chinese_sample_with_jieba():
    pytest.importorskip("jieba")
    trained = wordvec.train(
        CORPORA / "zhwiki-sample.txt.gz",
        tokenizer="jieba",
        min_count=3,
        epochs=5,
        threads=2,
        seed=5,
        quiet=True,
    )
    result = evaluate_similarity(trained.wv, read_similarity(CORPORA / "zh/wordsim-297.txt"))
    assert result.covered > 150
    assert result.rho > 0.22  # seeds 1-2: 0.321, 0.323
    assert "上海" in {w for w, _ in trained.wv.most_similar("北京", k=5)}
