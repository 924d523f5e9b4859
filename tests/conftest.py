"""Shared fixtures: paths to the bundled data and one small trained model per session."""

from __future__ import annotations

from pathlib import Path

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
