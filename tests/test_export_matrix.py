"""Every kind of model wordvec trains, exported to every format ``export`` writes: read back
by the format's own reader (gensim for word2vec's and GloVe's formats, fastText's package for
``.bin`` and ``.ftz``, wordvec for its model file, TSV and ``.npy``) with the model's answers,
or refused with one line that says why; none silently different."""

from __future__ import annotations

import numpy as np
import pytest

import wordvec
from wordvec.errors import WordvecError
from wordvec.formats import EXPORT_FORMATS, export, load_classifier, load_vectors

from .conftest import TOY_LINES

gensim_models = pytest.importorskip("gensim.models")
fasttext = pytest.importorskip("fasttext")

KINDS = {
    "sg": dict(model="sg"),
    "cbow": dict(model="cbow"),
    "fasttext": dict(model="fasttext", bucket=2_000),
    "glove": dict(model="glove"),
    "ppmi-svd": dict(model="ppmi-svd"),
    "doc2vec": dict(model="doc2vec"),
    "classifier": dict(model="supervised", word_ngrams=2, bucket=2_000),
    "hidden-layer": dict(model="supervised", hidden=4),
    "max-pooling": dict(model="supervised", pooling="max"),
}
CLASSIFIERS = ("classifier", "hidden-layer", "max-pooling")
REFUSED = {
    **{(kind, "fasttext-ftz"): "classifier" for kind in KINDS if kind not in CLASSIFIERS},
    **{(kind, fmt): "--hidden or --pooling max" for kind in ("hidden-layer", "max-pooling")
       for fmt in ("fasttext-bin", "fasttext-ftz")},
}  # fmt: skip
"""The pairs refused, and a phrase of each one's error: fastText's ``.ftz`` holds classifiers
only, and its model files hold no hidden layer and no max pooling. (Word vectors of any kind go
into a ``.bin`` as a model without subwords, whose words fastText answers as we do.)"""
LINES = [line for line in TOY_LINES if line.split()][:5]


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    folder = tmp_path_factory.mktemp("kinds")
    plain, labelled = folder / "toy.txt", folder / "labelled.txt"
    plain.write_text("\n".join(TOY_LINES * 3) + "\n", encoding="utf-8")
    labelled.write_text(
        "".join(f"__label__l{i % 3} {line}\n" for i, line in enumerate(TOY_LINES * 3)),
        encoding="utf-8",
    )
    paths = {}
    for kind, settings in KINDS.items():
        corpus = labelled if kind in CLASSIFIERS else plain
        epochs = {} if kind == "ppmi-svd" else {"epochs": 2}
        model = wordvec.train(corpus, dim=4, min_count=1, threads=1, seed=1, quiet=True,
                              **epochs, **settings)  # fmt: skip
        paths[kind] = folder / f"{kind}.wv"
        model.save(paths[kind])
    return paths


@pytest.mark.parametrize("fmt", EXPORT_FORMATS)
@pytest.mark.parametrize("kind", KINDS)
def test_each_export_reads_back_in_its_own_reader_or_is_refused(models, tmp_path, kind, fmt):
    source = models[kind]
    out = tmp_path / {"tsv": "out.tsv", "vec": "out.vec"}.get(fmt, f"out.{fmt}")
    if (kind, fmt) in REFUSED:
        with pytest.raises(WordvecError) as refused:
            export(source, out, fmt)
        assert REFUSED[kind, fmt] in str(refused.value) and "\n" not in str(refused.value)
        assert not out.exists()
        return
    export(source, out, fmt)
    ours = load_vectors(source)
    if fmt in ("word2vec", "vec", "word2vec-binary", "glove"):
        theirs = gensim_models.KeyedVectors.load_word2vec_format(
            str(out), binary=fmt == "word2vec-binary", no_header=fmt == "glove"
        )
        assert list(theirs.index_to_key) == ours.words
        np.testing.assert_allclose(theirs.vectors, ours.vectors, atol=1e-5)
    elif fmt == "fasttext-bin" and kind in CLASSIFIERS:
        theirs, mine = fasttext.load_model(str(out)), load_classifier(source)
        for line in LINES:
            labels, _ = theirs.predict(line, k=2)
            assert list(labels) == [label for label, _ in mine.predict(line, k=2)]
    elif fmt == "fasttext-bin":
        theirs = fasttext.load_model(str(out))
        for word in ours.words[:20]:
            np.testing.assert_allclose(theirs.get_word_vector(word), ours[word], atol=1e-5)
    elif fmt == "fasttext-ftz":  # quantized: fastText answers as wordvec reads the same file
        theirs, mine = fasttext.load_model(str(out)), load_classifier(out)
        for line in LINES:
            labels, _ = theirs.predict(line, k=2)
            assert list(labels) == [label for label, _ in mine.predict(line, k=2)]
    else:  # wordvec's own readers: its model file, TSV, .npy
        back = load_vectors(out)
        assert back.words == ours.words
        np.testing.assert_allclose(back.vectors, ours.vectors, atol=1e-5)
        if fmt == "wordvec" and kind in CLASSIFIERS:
            for line in LINES:
                assert load_classifier(out).predict(line) == load_classifier(source).predict(line)
