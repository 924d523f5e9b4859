"""Shared fixtures: paths to the bundled data and one small trained model per session."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT / "corpora"
SAMPLE = CORPORA / "wiki-sample.txt.gz"
WS353 = CORPORA / "EN-WS-353-ALL.txt"
ANALOGIES = CORPORA / "questions-words.txt"

# The five-line corpus of our course material (background/text-to-vectors...).
TOY_LINES = ["I like cats", "I like dogs", "I like cats", "I like pizza", "I like cats"]


@pytest.fixture
def toy_corpus(tmp_path: Path) -> Path:
    path = tmp_path / "toy.txt"
    path.write_text("\n".join(TOY_LINES) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def sample_model(tmp_path_factory):
    """Skip-gram on the bundled corpus (2 epochs, 2 threads): for queries and exports."""
    import wordvec

    model = wordvec.train(SAMPLE, model="sg", epochs=2, threads=2, seed=3, quiet=True)
    path = tmp_path_factory.mktemp("model") / "sample.wv"
    model.save(path)
    return path


@pytest.fixture(scope="session")
def cooking_docs(tmp_path_factory):
    """The bundled cooking questions without their labels, a document a line, and the first
    label of each."""
    texts, labels = [], []
    with gzip.open(CORPORA / "cooking.train.gz", "rt", encoding="utf-8") as lines:
        for line in lines:
            words = line.split()
            labels.append(next(w for w in words if w.startswith("__label__")))
            texts.append(" ".join(w for w in words if not w.startswith("__label__")))
    path = tmp_path_factory.mktemp("doc2vec") / "docs.txt"
    path.write_text("\n".join(texts) + "\n", encoding="utf-8")
    return path, texts, np.array(labels)
