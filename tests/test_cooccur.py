"""Co-occurrence counting: the course's worked example, distance weights, spills, the file."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import numpy as np
import pytest
from click.testing import CliRunner

from tests.conftest import SAMPLE
from wordvec.cli import main
from wordvec.cooccur import counting
from wordvec.cooccur.counting import count_cooccurrences, dense_layout, distance_weights
from wordvec.cooccur.counts import Cooccurrences
from wordvec.errors import FormatError, VocabularyError


def count(corpus, tmp_path, **options):
    options = {"min_count": 1, "quiet": True, **options}
    return count_cooccurrences(corpus, tmp_path / "counts.cooc", **options)


def test_golden_counts_window_1(toy_corpus, tmp_path):
    counts = count(toy_corpus, tmp_path, window=1, distance_weighting=False)
    assert counts.vocab.words == ["like", "I", "cats", "pizza", "dogs"]  # ties: last seen first
    assert counts.get("cats", "like") == 3
    assert counts.get("dogs", "like") == 1
    assert counts.get("pizza", "like") == 1
    assert counts.get("I", "like") == 5
    assert [counts.get("cats", w) for w in ["I", "cats", "dogs", "pizza"]] == [0, 0, 0, 0]
    assert counts.get("like", "cats") == 3  # symmetric
    assert counts.nnz == 8  # I-like, like-{I, cats, dogs, pizza}, {cats, dogs, pizza}-like


@pytest.mark.parametrize("length", [0, 1, 2, 23, 24, 25, 100, 1001])
def test_a_rows_entries_sort_by_column_with_their_counts(length):
    """The row sort, both ways (insertion below 24 entries, heapsort above): the segment's
    distinct keys ascending, each value still with its key, the rest of the arrays as they
    were."""
    from wordvec.kernels.cooccur import _sort_segment

    rng = np.random.default_rng(length)
    keys = rng.permutation(10 * length + 10)[: length + 6].astype(np.int64)
    values = keys * 7 + 3
    before_keys, before_values = keys.copy(), values.copy()
    _sort_segment(keys, values, 3, 3 + length)
    assert keys[3 : 3 + length].tolist() == sorted(before_keys[3 : 3 + length].tolist())
    assert np.array_equal(values, keys * 7 + 3)
    outside = np.r_[0:3, 3 + length : length + 6]
    assert np.array_equal(keys[outside], before_keys[outside])
    assert np.array_equal(values[outside], before_values[outside])


def test_distance_weights_window_2_by_hand(toy_corpus, tmp_path):
    counts = count(toy_corpus, tmp_path, window=2)
    # "I like cats": cats is at distance 2 from I, three times: 3 x 1/2
    assert counts.get("cats", "I") == 1.5
    assert counts.get("I", "cats") == 1.5
    assert counts.get("dogs", "I") == 0.5
    assert counts.get("cats", "like") == 3.0  # distance 1
    assert counts.get("I", "like") == 5.0


def test_asymmetric_counts_left_context_only(toy_corpus, tmp_path):
    counts = count(toy_corpus, tmp_path, window=1, distance_weighting=False, symmetric=False)
    assert counts.get("like", "I") == 5  # I is left of like
    assert counts.get("I", "like") == 0
    assert counts.get("cats", "like") == 3


def test_lines_are_not_crossed(tmp_path):
    corpus = tmp_path / "c.txt"
    corpus.write_text("a b\nc d\n")
    counts = count(corpus, tmp_path, window=5)
    assert counts.get("b", "c") == 0 and counts.get("a", "b") == 1


def test_exact_integer_weights():
    weights, scale = distance_weights(10, True)
    assert scale == 2520 and all(weights[d] * d == scale for d in range(1, 11))
    weights, scale = distance_weights(3, False)
    assert scale == 1 and weights.tolist() == [1, 1, 1, 1]


def test_dense_block_is_gloves_hyperbola():
    start, width = dense_layout(100, 300)
    assert width.sum() <= 300
    product = int(width[0])  # row 0 holds columns c with c + 1 <= P
    assert all(width[r] == min(100, product // (r + 1)) for r in range(100))
    assert start.tolist() == np.concatenate([[0], np.cumsum(width)[:-1]]).tolist()


@pytest.mark.parametrize("threads", [1, 3])
def test_spilled_counts_equal_in_memory_counts(tmp_path, threads):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    memory = count(SAMPLE, tmp_path / "a", window=5, min_count=5, threads=2)
    spilled = count(SAMPLE, tmp_path / "b", window=5, min_count=5, threads=threads, memory=2e-4)
    assert spilled.nnz == memory.nnz > 500_000
    np.testing.assert_array_equal(spilled.row_ptr, memory.row_ptr)
    np.testing.assert_array_equal(spilled.cols, memory.cols)
    np.testing.assert_array_equal(spilled.values, memory.values)


def test_growing_tables_and_short_buffers_give_the_same_counts(tmp_path, monkeypatch):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    reference = count(SAMPLE, tmp_path / "a", window=5, min_count=5, threads=2)
    monkeypatch.setattr(counting, "_INITIAL_SLOTS", 1024)  # tables double many times
    monkeypatch.setattr(counting, "_PENDING_PAIRS", 64)  # counting resumes every few words
    grown = count(SAMPLE, tmp_path / "b", window=5, min_count=5, threads=2)
    np.testing.assert_array_equal(grown.row_ptr, reference.row_ptr)
    np.testing.assert_array_equal(grown.cols, reference.cols)
    np.testing.assert_array_equal(grown.values, reference.values)


def test_counts_match_a_direct_count(tmp_path):
    corpus = tmp_path / "c.txt"
    rng = np.random.default_rng(0)
    lines = [" ".join(f"w{i}" for i in rng.integers(0, 30, rng.integers(1, 40))) for _ in range(50)]
    corpus.write_text("\n".join(lines) + "\n")
    counts = count(corpus, tmp_path, window=4, memory=1e-5, threads=2)
    expected: dict[tuple[str, str], float] = {}
    for line in lines:
        words = line.split()
        for i, word in enumerate(words):
            for j in range(max(0, i - 4), i):
                for pair in ((word, words[j]), (words[j], word)):
                    expected[pair] = expected.get(pair, 0.0) + 1 / (i - j)
    assert counts.nnz == len(expected)
    for (a, b), value in expected.items():
        assert counts.get(a, b) == pytest.approx(value, rel=1e-6)


def test_temporary_files_are_removed(tmp_path):
    (tmp_path / "a").mkdir()
    count(SAMPLE, tmp_path, window=5, memory=2e-4, tmp_dir=tmp_path / "a")
    assert list((tmp_path / "a").iterdir()) == []


def test_counts_file_rejects_corruption(toy_corpus, tmp_path):
    count(toy_corpus, tmp_path, window=1)
    data = (tmp_path / "counts.cooc").read_bytes()
    (tmp_path / "cut.cooc").write_bytes(data[: len(data) - 20])
    with pytest.raises(FormatError, match="truncated"):
        Cooccurrences.load(tmp_path / "cut.cooc")


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda c: c.cols.__setitem__(0, len(c.vocab)), "a column is not a word id below 5"),
        (lambda c: c.cols.__setitem__(-1, -1), "a column is not a word id below 5"),
        (lambda c: c.row_ptr.__setitem__(2, c.row_ptr[3] + 1), "row offsets decrease"),
        (lambda c: c.values.__setitem__(1, np.nan), "a count is not a positive number"),
        (lambda c: c.values.__setitem__(1, 0.0), "a count is not a positive number"),
    ],
    ids=["column-past-vocabulary", "negative-column", "offsets-decrease", "nan", "zero"],
)
def test_edited_counts_are_refused_before_training(toy_corpus, tmp_path, edit, message):
    """Counts files that once crashed GloVe in compiled code (SIGSEGV, double free) are one
    Error line now, and no model is written."""
    count(toy_corpus, tmp_path, window=1)
    good = Cooccurrences.load(tmp_path / "counts.cooc")
    edited = Cooccurrences(
        good.vocab, np.array(good.row_ptr), np.array(good.cols), np.array(good.values)
    )
    edit(edited)
    edited.save(tmp_path / "bad.cooc")
    with pytest.raises(FormatError, match=message):
        Cooccurrences.load(tmp_path / "bad.cooc")
    for model in ("glove", "ppmi-svd"):
        result = CliRunner().invoke(
            main, ["train", "--model", model, "--cooccur", str(tmp_path / "bad.cooc"),
                   "-o", str(tmp_path / "m.wv"), "--dim", "2", "-q"],
        )  # fmt: skip
        assert result.exit_code == 1
        assert result.output == f"Error: bad.cooc is corrupt ({message})\n"
        assert not (tmp_path / "m.wv").exists()


def test_cli_cooccur(toy_corpus, tmp_path):
    out = tmp_path / "toy.cooc"
    result = CliRunner().invoke(
        main, ["cooccur", str(toy_corpus), "-o", str(out), "--window", "1", "--min-count", "1",
               "--no-distance-weighting", "-q"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert Cooccurrences.load(out).get("cats", "like") == 3
    result = CliRunner().invoke(main, ["cooccur", str(tmp_path / "missing.txt"), "-o", str(out)])
    assert result.exit_code == 1 and "Error: corpus file not found" in result.output


def test_ctrl_c_removes_temporary_files(tmp_path):
    """Interrupt a spilling run once its shards exist: exit 130, nothing left behind."""
    work = tmp_path / "work"
    work.mkdir()
    command = [sys.executable, "-c", "from wordvec.cli import main; main()", "cooccur",
               str(SAMPLE), "-o", str(tmp_path / "c.cooc"), "--memory", "0.00002",
               "--tmp-dir", str(work), "--threads", "1", "-q"]  # fmt: skip
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not list(work.rglob("shard-*")) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert list(work.rglob("shard-*")), "no shard was written"
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert "interrupted" in stderr
    assert list(work.iterdir()) == []
    assert not (tmp_path / "c.cooc").exists()


def test_error_removes_temporary_files(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    corpus = tmp_path / "one.txt"
    corpus.write_text("lonely\n")
    with pytest.raises(VocabularyError, match="nothing was counted"):
        count(corpus, tmp_path, tmp_dir=work)
    assert list(work.iterdir()) == []


def test_sum_runs_merges_sorted_runs_adding_equal_keys():
    from wordvec.kernels.cooccur import sum_runs

    keys = np.array([3, 5, 10, 5, 9, 0, 10], dtype=np.int64)  # runs [3 5 10], [5 9], [0 10]
    values = np.array([6, 3, 12, 9, 2, 1, 4], dtype=np.int64)
    out_keys, out_values = np.empty(7, np.int64), np.empty(7, np.int64)
    out_keys[0] = -7  # written before: kept
    heads, stops = np.array([0, 3, 5]), np.array([3, 5, 7])
    n = sum_runs(keys, values, heads, stops, out_keys, out_values, 1)
    assert out_keys[:n].tolist() == [-7, 0, 3, 5, 9, 10]
    assert out_values[1:n].tolist() == [1, 6, 12, 2, 16]
    assert heads.tolist() == stops.tolist()


def test_sum_rows_adds_up_csr_parts_row_by_row():
    from wordvec.kernels.cooccur import sum_rows

    # part 0: row 0 = {1: 5, 4: 1}, row 1 = {}, row 2 = {0: 2}
    # part 1: row 0 = {4: 3}, row 1 = {2: 7}, row 2 = {0: 1, 3: 1}
    row_ptrs = np.array([[0, 2, 2, 3], [3, 4, 5, 7]])
    cols = np.array([1, 4, 0, 4, 2, 0, 3], dtype=np.int32)
    values = np.array([5, 1, 2, 3, 7, 1, 1], dtype=np.int64)
    out_cols, out_values = np.empty(7, np.int32), np.empty(7, np.int64)
    out_row_ptr = np.zeros(4, np.int64)
    n = sum_rows(row_ptrs, cols, values, out_cols, out_values, out_row_ptr)
    assert out_row_ptr.tolist() == [0, 2, 3, 5] and n == 5
    assert out_cols[:n].tolist() == [1, 4, 2, 0, 3]
    assert out_values[:n].tolist() == [5, 4, 7, 3, 1]
