"""Similarity and analogy scoring against hand-computed values."""

import numpy as np
import pytest

from wordvec.errors import FormatError
from wordvec.query.evaluate import (
    evaluate_analogies,
    evaluate_similarity,
    rank,
    read_analogies,
    read_similarity,
    spearman,
)
from wordvec.query.vectors import Vectors


def test_rank_averages_ties():
    assert rank(np.array([10, 20, 20, 5])).tolist() == [2.0, 3.5, 3.5, 1.0]


def test_spearman_by_hand():
    # ranks x: 1 2 3 4, y: 1 3 2 4 -> d^2 = 0+1+1+0 = 2, rho = 1 - 6*2/(4*15) = 0.8
    assert spearman(np.array([1, 2, 3, 4]), np.array([10, 30, 20, 40])) == pytest.approx(0.8)
    assert spearman(np.array([1, 2, 3]), np.array([3, 2, 1])) == pytest.approx(-1.0)
    # with a tie: x ranks 1 2.5 2.5 4, y ranks 1 2 3 4 -> Pearson of ranks = 0.9486833
    assert spearman(np.array([1, 2, 2, 3]), np.array([1, 2, 3, 4])) == pytest.approx(0.9486833)


def test_readers_handle_crlf_tabs_comments_and_sections(tmp_path):
    sim = tmp_path / "sim.txt"
    sim.write_bytes(b"# comment\r\nCat\tdog\t7.5\r\n\r\nking  queen 8\n")
    assert read_similarity(sim) == [("Cat", "dog", 7.5), ("king", "queen", 8.0)]
    bad = tmp_path / "bad.txt"
    bad.write_text("a b 1\na b\n")
    with pytest.raises(FormatError, match="bad.txt, line 2: expected 'word1 word2 score'"):
        read_similarity(bad)
    ana = tmp_path / "ana.txt"
    ana.write_text(": capitals\nAthens Greece Rome Italy\n: plural\ncat cats dog dogs\n")
    assert read_analogies(ana) == [
        ("capitals", "Athens", "Greece", "Rome", "Italy"),
        ("plural", "cat", "cats", "dog", "dogs"),
    ]


def test_similarity_counts_coverage():
    v = Vectors(["a", "b", "c"], np.array([[1, 0], [1, 1], [0, 1]], np.float32))
    pairs = [("a", "b", 5.0), ("A", "c", 1.0), ("b", "c", 6.0), ("a", "zzz", 3.0)]
    result = evaluate_similarity(v, pairs)
    # cosines: ab .707, ac 0, bc .707 vs human 5, 1, 6 -> ranks (2.5,1,2.5) vs (2,1,3)
    assert (result.covered, result.total) == (3, 4)
    assert result.rho == pytest.approx(spearman(np.array([0.707, 0, 0.707]), np.array([5, 1, 6])))


def test_analogy_accuracy_by_hand():
    words = ["man", "king", "woman", "queen", "apple"]
    vectors = np.array([[1, 0, 0], [1, 1, 0], [0, 0, 1], [0, 1, 1], [1, 1, 1]], np.float32)
    v = Vectors(words, vectors)
    questions = [
        ("royal", "man", "king", "woman", "queen"),  # correct
        ("royal", "man", "king", "woman", "apple"),  # wrong: answer is queen
        ("fruit", "man", "pear", "woman", "apple"),
    ]  # pear unknown: not covered
    result = evaluate_analogies(v, questions, restrict=None)
    assert (result.correct, result.covered, result.total) == (1, 2, 3)
    assert result.sections == {"royal": (1, 2), "fruit": (0, 0)}
    assert result.accuracy == 0.5
    # restricting the search to the 3 most frequent words leaves queen out of reach
    assert evaluate_analogies(v, questions, restrict=3).covered == 0


def cos(u, v):
    return float(u @ v / np.linalg.norm(u) / np.linalg.norm(v))


def test_3cosmul_by_hand():
    """3CosMul picks a word close to both b and c where 3CosAdd is swayed by one of them."""
    words = ["a", "b", "c", "x", "y"]
    m = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 1, 0.05], [0.3, 0.7, 0.7]], np.float32)
    v = Vectors(words, m)
    add = {w: cos(m[i], m[1]) + cos(m[i], m[2]) - cos(m[i], m[0]) for i, w in [(3, "x"), (4, "y")]}
    mul = {
        w: ((cos(m[i], m[1]) + 1) / 2)
        * ((cos(m[i], m[2]) + 1) / 2)
        / ((cos(m[i], m[0]) + 1) / 2 + 0.001)
        for i, w in [(3, "x"), (4, "y")]
    }
    # x: add 0.999 + 0.050 - 0 = 1.049; y: 0.673 + 0.673 - 0.288 = 1.058 -> y
    # x: mul 1.000 * 0.525 / 0.501 = 1.047; y: 0.837 * 0.837 / 0.645 = 1.085 -> y
    assert max(add, key=add.get) == "y" and max(mul, key=mul.get) == "y"
    questions = [("s", "a", "b", "c", "y")]
    assert evaluate_analogies(v, questions, restrict=None, method="3CosAdd").correct == 1
    assert evaluate_analogies(v, questions, restrict=None, method="3CosMul").correct == 1


@pytest.mark.parametrize("seed", range(3))
def test_analogy_methods_equal_a_plain_loop(seed):
    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(12)]
    m = rng.normal(size=(12, 4)).astype(np.float32)
    v = Vectors(words, m)
    questions = [("s", *rng.choice(words, 4, replace=False)) for _ in range(30)]
    for method in ("3CosAdd", "3CosMul"):
        correct = 0
        for _, a, b, c, d in questions:
            ia, ib, ic = (words.index(w) for w in (a, b, c))
            best, best_score = None, -np.inf
            for i in range(12):
                if i in (ia, ib, ic):
                    continue
                ca, cb, cc = cos(m[i], m[ia]), cos(m[i], m[ib]), cos(m[i], m[ic])
                score = (
                    cb + cc - ca
                    if method == "3CosAdd"
                    else (cb + 1) / 2 * (cc + 1) / 2 / ((ca + 1) / 2 + 0.001)
                )
                if score > best_score:
                    best, best_score = words[i], score
            correct += best == d
        result = evaluate_analogies(v, questions, restrict=None, lowercase=False, method=method)
        assert result.correct == correct


def test_split_accuracy_groups_google_sections():
    from wordvec.query.evaluate import AnalogyResult, split_accuracy

    result = AnalogyResult(5, 9, 12, {"capital-world": (3, 4), "gram1-adjective": (2, 5)})
    assert split_accuracy(result) == {"semantic": (3, 4), "syntactic": (2, 5), "overall": (5, 9)}
