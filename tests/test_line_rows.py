"""Rows in cache lines of their own (:func:`wordvec.runtime.memory.line_rows`): the window
models train on rows padded to whole cache lines, and the padding changes no result."""

from __future__ import annotations

import gzip

import numpy as np
import pytest

import wordvec
from wordvec.runtime.memory import line_rows, line_width, narrow_rows
from wordvec.training import doc2vec, windows
from wordvec.training.weights import init_input_weights, init_line_rows

from .conftest import SAMPLE


def test_rows_are_padded_to_whole_cache_lines_and_start_one():
    assert [line_width(dim, np.float32) for dim in (1, 16, 17, 100, 300)] == [16, 16, 32, 112, 304]
    rows = line_rows(3, 100, np.float32)
    assert rows.shape == (3, 112) and rows.ctypes.data % 64 == 0 and not rows.any()


def test_narrowing_moves_the_rows_in_place():
    rows = line_rows(20_000, 100, np.float32)  # several blocks of the move
    rows[:, :100] = np.arange(20_000 * 100, dtype=np.float32).reshape(20_000, 100)
    rows[:, 100:] = -1  # the padding is dropped, whatever it holds
    expected = rows[:, :100].copy()
    start = rows.ctypes.data
    narrow = narrow_rows(rows, 100)
    assert narrow.flags.c_contiguous and narrow.ctypes.data == start
    np.testing.assert_array_equal(narrow, expected)
    assert narrow_rows(expected, 100) is expected  # no padding: as it is


def test_padded_start_draws_the_same_values():
    for rows in (1, 5, 70_000):  # 70,000: more than one block of draws
        padded = init_line_rows(rows, 100, (3, 1), 1.0)
        np.testing.assert_array_equal(padded[:, :100], init_input_weights(rows, 100, (3, 1), 1.0))
        assert not padded[:, 100:].any()


@pytest.fixture(scope="module")
def small_corpus(tmp_path_factory):
    """The sample's first 60,000 words in lines of 200 (documents, for doc2vec)."""
    with gzip.open(SAMPLE, "rt", encoding="utf-8") as text:
        words = text.read(600_000).split()[:60_000]
    path = tmp_path_factory.mktemp("lines") / "sample.txt"
    path.write_text("".join(" ".join(words[i : i + 200]) + "\n" for i in range(0, 60_000, 200)))
    return path


MODELS = {
    "sg": dict(model="sg"),
    "cbow": dict(model="cbow"),
    "pv-dm": dict(model="doc2vec", arch="dm"),
    "pv-dm-sum": dict(model="doc2vec", arch="dm", context="sum"),
    "pv-dbow-words": dict(model="doc2vec", arch="dbow", dbow_words=True),
    "sg-hs": dict(model="sg", loss="hs"),
}


@pytest.mark.parametrize("name", MODELS)
def test_padding_stays_zero_and_changes_no_vector(name, small_corpus, monkeypatch):
    options = dict(MODELS[name], epochs=1, dim=100, threads=1, seed=5, min_count=2, quiet=True)
    padding = []

    def narrow(matrix, dim):  # every padded matrix, as training leaves it
        padding.append(np.abs(matrix[:, dim:]).max(initial=0.0))
        return narrow_rows(matrix, dim)

    monkeypatch.setattr(windows, "narrow_rows", narrow)
    monkeypatch.setattr(doc2vec, "narrow_rows", narrow)
    padded = wordvec.train(small_corpus, **options)
    assert len(padding) == 2 and max(padding) == 0.0  # w_in and w_out, trained, still zero there
    monkeypatch.setattr(windows, "init_line_rows", init_input_weights)  # rows as wide as dim
    monkeypatch.setattr(doc2vec, "init_line_rows", init_input_weights)
    plain = wordvec.train(small_corpus, **options)
    for got, want in [(padded.vectors, plain.vectors), *(
        (padded.arrays[key], plain.arrays[key]) for key in ("w_out", "doc_vectors")
        if key in plain.arrays
    )]:  # fmt: skip
        assert got.shape == want.shape and got.flags.c_contiguous
        # the same sums, but for zeros: equal, to rounding where a CPU sums them in another order
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-6)


def test_continued_training_copies_its_rows_into_the_padded_ones(small_corpus, tmp_path):
    options = dict(model="sg", epochs=1, dim=100, threads=1, seed=5, min_count=2, quiet=True)
    first = wordvec.train(small_corpus, **options)
    again = wordvec.train(small_corpus, init=first, **dict(options, epochs=1, alpha=1e-9,
                                                           min_alpha=1e-9))  # fmt: skip
    # a step of ~0: the rows are those it started from, the trained ones
    np.testing.assert_allclose(again.vectors, first.vectors, atol=1e-6)
    np.testing.assert_allclose(again.arrays["w_out"], first.arrays["w_out"], atol=1e-6)
