"""Phrases as word2phrase.c makes them: against a small readable reference implementation of
its rule (dicts of counts, the score in float32 as the C code computes it), on hand-counted
lines and on the bundled corpus, one and two passes."""

from __future__ import annotations

import gzip
from collections import Counter

import numpy as np
import pytest
from click.testing import CliRunner

from wordvec.cli import main
from wordvec.cooccur.phrases import find_phrases

from .conftest import SAMPLE

f32 = np.float32


def word2phrase_reference(lines: list[str], min_count: int, threshold: float) -> list[str]:
    """word2phrase.c's rule, readably: count words and adjacent pairs of a line; then, left to
    right, join a word to the one before if both and the pair occur min_count times or more
    and (pair - min_count) / a / b * total words (float32) is over the threshold, unless the
    word before was itself just joined."""
    words = Counter(word for line in lines for word in line.split())
    pairs = Counter(pair for line in lines for pair in zip(line.split(), line.split()[1:]))
    total = f32(sum(words.values()))
    out = []
    for line in lines:
        tokens, previous = [], None
        for word in line.split():
            count = pairs[previous, word]
            if previous is not None and min(words[previous], words[word], count) >= min_count:
                score = f32(count - min_count) / f32(words[previous]) / f32(words[word]) * total
                if score > f32(threshold):
                    tokens[-1] += "_" + word
                    previous = None
                    continue
            tokens.append(word)
            previous = word
        out.append(" ".join(tokens))
    return out


def test_hand_counted_lines(tmp_path):
    """400 words: 'new york' and 'a b' 40 times each (so are their words), score
    (40 - 5) / 40 / 40 * 400 = 8.75: joined over 8, not over 9; 'york a' scores as much but
    york is taken. 'c d' 60 times: (60 - 5) / 60 / 60 * 400 = 6.1."""
    lines = ["new york a b"] * 40 + ["c d e f"] * 60
    corpus = tmp_path / "c.txt"
    corpus.write_text("\n".join(lines) + "\n", encoding="utf-8")
    expected = {8.0: ("new_york a_b", "c d e f"), 9.0: ("new york a b", "c d e f"),
                6.0: ("new_york a_b", "c_d e_f")}  # fmt: skip
    for threshold, (first, last) in expected.items():
        find_phrases(corpus, tmp_path / "o.txt", min_count=5, threshold=threshold, quiet=True)
        text = (tmp_path / "o.txt").read_text(encoding="utf-8").splitlines()
        assert (text[0], text[-1]) == (first, last)
        assert text == word2phrase_reference(lines, 5, threshold)


@pytest.fixture(scope="module")
def sample_lines() -> list[str]:
    with gzip.open(SAMPLE, "rt", encoding="utf-8") as lines:
        return [line.rstrip("\n") for line in lines]


def test_the_bundled_corpus_gets_word2phrases_phrases(sample_lines, tmp_path):
    find_phrases(SAMPLE, tmp_path / "o.txt", quiet=True, threads=2)  # word2phrase's defaults
    ours = (tmp_path / "o.txt").read_text(encoding="utf-8").splitlines()
    expected = word2phrase_reference(sample_lines, 5, 100.0)
    assert ours == expected
    joined = Counter(token for line in ours for token in line.split() if "_" in token)
    assert joined["new_york"] > 100 and joined["united_states"] > 300  # a test that can fail


def test_two_passes_are_the_rule_applied_twice(sample_lines, tmp_path):
    """On a fifth of the corpus in lines of 1,000 words (lines are not crossed), other
    settings (min count 3, threshold 20)."""
    words = " ".join(sample_lines).split()[:170_000]
    lines = [" ".join(words[i : i + 1000]) for i in range(0, len(words), 1000)]
    (tmp_path / "c.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    find_phrases(tmp_path / "c.txt", tmp_path / "o.txt", passes=2, min_count=3, threshold=20.0,
                 quiet=True)  # fmt: skip
    ours = (tmp_path / "o.txt").read_text(encoding="utf-8").splitlines()
    once = word2phrase_reference(lines, 3, 20.0)
    assert ours == word2phrase_reference(once, 3, 20.0)
    assert any(token.count("_") >= 2 for line in ours for token in line.split())


def test_python_text_and_the_command_line(tmp_path):
    lines = ["i love new york", "new york is big"] * 30
    find_phrases(iter(lines), tmp_path / "py.txt", threshold=1.0, quiet=True)
    corpus = tmp_path / "c.txt"
    corpus.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["phrases", str(corpus), "-o", str(tmp_path / "cli.txt"),
                                       "--threshold", "1"])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == (
        f"3 phrases joined 120 times in 1 pass; saved {tmp_path / 'cli.txt'}"
    )
    assert (tmp_path / "cli.txt").read_bytes() == (tmp_path / "py.txt").read_bytes()
    assert (tmp_path / "cli.txt").read_text().splitlines()[:2] == ["i_love new_york",
                                                                   "new_york is_big"]  # fmt: skip
    result = CliRunner().invoke(main, ["phrases", str(corpus), "-o", str(corpus)])
    assert (
        result.output == f"Error: the output {corpus} is the input file {corpus}; choose another\n"
    )


def test_training_can_join_phrases_while_reading(tmp_path):
    import wordvec

    # 20 times 'new york' among 3,080 words: (20 - 5) / 20 / 20 * 3080 = 115.5 > 100
    lines = ["i saw new york"] * 20 + [f"w{i} x{i} y{i}" for i in range(1000)]
    model = wordvec.train(iter(lines), phrases=1, min_count=1, dim=8, epochs=1, threads=1,
                          quiet=True)  # fmt: skip
    assert "new_york" in model.vocab.words and "new" not in model.vocab.words
    assert model.settings["phrases"] == 1
    result = CliRunner().invoke(main, ["train", str(SAMPLE), "-o", str(tmp_path / "g.wv"),
                                       "--model", "glove", "--phrases", "1"])  # fmt: skip
    assert result.exit_code == 1
    assert "--phrases does not apply to --model glove" in result.output
