"""``model.wv`` answers a gensim user's script as gensim's KeyedVectors does: the same calls,
run on both over the same vectors, give the same words and the same numbers."""

from __future__ import annotations

import numpy as np
import pytest

import wordvec

gensim_models = pytest.importorskip("gensim.models")


@pytest.fixture(scope="module")
def both(sample_model):
    ours = wordvec.load_vectors(sample_model)
    theirs = gensim_models.KeyedVectors(ours.dim)
    theirs.add_vectors(ours.words, np.asarray(ours.vectors, dtype=np.float32))
    return ours, theirs


def gensim_user_script(wv) -> list:
    """What a gensim tutorial does with ``model.wv``, answers collected in order."""
    king, woman = wv["king"], wv.get_vector("woman", norm=True)
    return [
        wv.most_similar(positive=["king", "woman"], negative=["man"], topn=3),
        wv.most_similar("france"),
        wv.most_similar(positive=["paris"], topn=5, restrict_vocab=2000),
        wv.most_similar(positive=[king, "woman"], negative=["man"], topn=4),  # a vector too
        wv.most_similar(positive=[("king", 2.0), "queen"], topn=3),  # weighted
        wv.most_similar_cosmul(positive=["king", "woman"], negative=["man"], topn=3),
        wv.similar_by_vector(king, topn=3),
        wv.similar_by_word("music", topn=3),
        wv.doesnt_match(["breakfast", "cereal", "dinner", "lunch", "france"]),
        wv.doesnt_match(["paris", "london", "berlin", "xyzzy", "music"]),  # unknown: skipped
        wv.n_similarity(["king", "queen"], ["man", "woman"]),
        wv.similarity("king", "queen"),
        wv.distance("king", "queen"),
        wv.distances("king", ["queen", "man", "music"]),
        wv.distances(woman)[:5],
        wv.most_similar("war", topn=None)[:5],  # all cosines
        wv.index_to_key[:5],
        wv.key_to_index["king"],
        wv.get_index("king"),
        wv.vector_size,
        "king" in wv,
        "xyzzy" in wv,
        wv[["king", "queen"]],
        wv[0],
        len(wv),
    ]


def test_a_gensim_script_gives_gensim_answers(both):
    ours, theirs = both
    for mine, gensims in zip(gensim_user_script(ours), gensim_user_script(theirs), strict=True):
        if isinstance(gensims, list) and gensims and isinstance(gensims[0], tuple):
            assert [w for w, _ in mine] == [w for w, _ in gensims]
            np.testing.assert_allclose([s for _, s in mine], [s for _, s in gensims], atol=1e-5)
        elif isinstance(gensims, (np.ndarray, float, np.floating)):
            np.testing.assert_allclose(mine, gensims, atol=1e-5)
        else:
            assert mine == gensims


def test_a_missing_word_is_a_key_error_with_a_plain_message(both):
    ours, theirs = both
    for wv in (ours, theirs):
        with pytest.raises(KeyError):
            wv["xyzzy"]
        with pytest.raises(KeyError):
            wv.most_similar(positive=["xyzzy"])
    with pytest.raises(KeyError) as raised:
        ours.get_vector("xyzzy")
    assert str(raised.value) == "'xyzzy' is not in the vocabulary (12,353 words)"


def test_iterating_gives_the_words(both):
    ours, _ = both
    words = list(ours)
    assert words == ours.index_to_key and len(words) == len(ours) == 12_353
    assert words[:3] == ["the", "of", "and"]


def test_our_names_still_work(both):
    ours, _ = both
    assert ours.most_similar("france", k=3) == ours.most_similar("france", topn=3)
    assert ours.most_similar("paris", k=2, restrict=500) == ours.most_similar(
        "paris", topn=2, restrict_vocab=500
    )
    assert ours.analogy("man", "king", "woman", k=2) == ours.most_similar(
        positive=["king", "woman"], negative=["man"], topn=2
    )
