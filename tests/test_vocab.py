"""Vocabulary, subsampling, noise distribution and the alias sampler, against hand computation."""

import contextlib

import numpy as np
import pytest

from wordvec.corpus.output_layer import (
    AliasTable,
    build_alias_table,
    noise_distribution,
    pack_alias_table,
)
from wordvec.corpus.vocab import Vocabulary
from wordvec.errors import FormatError, VocabularyError
from wordvec.kernels.losses import alias_split


def test_min_count_and_frequency_order_put_the_last_seen_of_ties_first_as_gensim():
    words = ["a", "b", "c", "d", "e", "f"]
    counts = np.array([3, 7, 1, 7, 5, 7])
    vocab, remap = Vocabulary.from_counts(words[:5], counts[:5], min_count=2)
    assert vocab.words == ["d", "b", "e", "a"]
    assert vocab.counts.tolist() == [7, 7, 5, 3]
    assert remap.tolist() == [3, 1, -1, 0, 2]
    assert vocab.total == 22
    assert vocab.index["e"] == 2
    assert Vocabulary.from_counts(words, counts, min_count=2)[0].words[:3] == ["f", "d", "b"]


def test_max_vocab_keeps_most_frequent():
    vocab, remap = Vocabulary.from_counts(
        ["x", "y", "z"], np.array([5, 9, 6]), min_count=1, max_vocab=2
    )
    assert vocab.words == ["y", "z"]
    assert remap.tolist() == [-1, 0, 1]


def test_empty_after_min_count_says_why():
    with pytest.raises(
        VocabularyError, match=r"no word occurs at least 10 times .* most frequent occurs 3 times"
    ):
        Vocabulary.from_counts(["a", "b"], np.array([3, 1]), min_count=10)


def test_keep_probabilities_match_word2vec_formula_by_hand():
    # N = 1000 + 100 + 10 = 1110 tokens, t = 1e-2: tN = 11.1.
    vocab = Vocabulary(["the", "cat", "zebra"], np.array([1000, 100, 10]))
    keep = vocab.keep_probabilities(1e-2)
    # the: (sqrt(1000/11.1) + 1) * 11.1/1000 = (9.4916 + 1) * 0.0111 = 0.116457
    # cat: (sqrt(100/11.1) + 1) * 0.111 = (3.00150 + 1) * 0.111 = 0.444166
    # zebra: (sqrt(10/11.1) + 1) * 1.11 > 1, capped at 1
    np.testing.assert_allclose(keep, [0.116457, 0.444166, 1.0], rtol=1e-5)
    assert vocab.keep_probabilities(0).tolist() == [1.0, 1.0, 1.0]


def test_noise_distribution_is_count_to_the_three_quarters():
    vocab = Vocabulary(["a", "b"], np.array([16, 1]))
    # 16**0.75 = 8, 1**0.75 = 1
    np.testing.assert_allclose(noise_distribution(vocab.counts, 0.75), [8 / 9, 1 / 9])
    np.testing.assert_allclose(noise_distribution(vocab.counts, 0.0), [0.5, 0.5])


@pytest.mark.parametrize("seed", range(5))
def test_alias_table_reproduces_the_distribution_exactly(seed):
    rng = np.random.default_rng(seed)
    p = rng.random(50) ** 3
    p[rng.integers(0, 50, 5)] = 0.0
    p /= p.sum()
    table = build_alias_table(p)
    np.testing.assert_allclose(alias_probabilities(table), p, atol=1e-7)
    assert table.accept[p == 0].max(initial=0) == 0.0  # never draws an impossible word itself


def test_alias_table_rejects_bad_weights():
    for bad in ([], [-1.0, 2.0], [0.0, 0.0], [np.nan, 1.0]):
        with pytest.raises(ValueError):
            build_alias_table(np.array(bad))


def packed_fields(packed: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """``(threshold, alias, threshold_bits)`` of a packed table, as the kernel reads them."""
    alias_bits, coin_shift = alias_split(len(packed), 8 * packed.dtype.itemsize)
    alias = (packed & packed.dtype.type((1 << alias_bits) - 1)).astype(np.int64)
    return (packed >> packed.dtype.type(alias_bits)).astype(np.int64), alias, 32 - coin_shift


def test_alias_split_gives_the_alias_the_bits_of_a_column_and_the_threshold_the_rest():
    assert alias_split(1, 32) == (1, 1) and alias_split(2, 32) == (1, 1)
    assert alias_split(200, 32) == (8, 8)  # 24 threshold bits
    assert alias_split(2**20, 32) == (20, 20)  # the last table of 4-byte entries: 12 bits
    assert alias_split(2**20 + 1, 64) == (21, 0)  # 8-byte entries: the coin's 32 bits


def test_packed_alias_table_keeps_a_column_for_the_coins_the_float_test_keeps():
    """A packed entry's threshold keeps a column for exactly the coins c of its T bits with
    c / 2**T < accept, rounded to a multiple of 2**-T below 1, the coins at its edge included;
    its low bits are the alias. 4-byte entries up to 2**20 columns, 8-byte past them."""
    rng = np.random.default_rng(3)
    p = rng.random(200) ** 4
    p[:3] = [0.0, 1.0, 0.5]
    small = build_alias_table(p)
    n = 2**20 + 1  # a table too wide for 4-byte entries, built without Vose's loop
    accept = rng.random(n).astype(np.float32)
    accept[:2] = [1.0, np.float32(1 - 2**-30)]  # always kept; kept but for 2**-30
    large = AliasTable(accept, rng.integers(0, n, size=n).astype(np.int32))
    for table, dtype, bits in [(small, np.uint32, 24), (large, np.uint64, 32)]:
        packed = pack_alias_table(table)
        threshold, alias, threshold_bits = packed_fields(packed)
        assert packed.dtype == dtype and threshold_bits == bits
        np.testing.assert_array_equal(alias, table.alias)
        assert threshold.max() == 2**bits - 1 and (table.accept == 1.0).any()
        accept = np.minimum(table.accept.astype(np.float64), 1 - 2.0**-bits)  # below 1
        edges = [threshold + d for d in (-1, 0)]
        for coins in [rng.integers(0, 2**bits, size=len(threshold)), *edges]:
            coins = np.clip(coins, 0, 2**bits - 1)
            np.testing.assert_array_equal(coins < threshold, coins / 2**bits < accept)


def test_a_packed_table_draws_within_its_precision_of_the_distribution():
    """The distribution the packed entries draw from (each column kept for threshold / 2**T
    of the coins) is within 2**-T of a column's mass of the exact one, here 2**-24."""
    rng = np.random.default_rng(4)
    p = rng.random(1000) ** 6
    table = build_alias_table(p)
    threshold, alias, bits = packed_fields(pack_alias_table(table))
    kept = threshold / 2.0**bits
    drawn = kept.copy()
    np.add.at(drawn, alias, 1.0 - kept)
    exact = alias_probabilities(table) * len(p)
    columns_feeding_each = 1 + np.bincount(alias, minlength=len(p))  # its own, and its aliases'
    assert np.all(np.abs(drawn - exact) <= 2.0**-bits * columns_feeding_each)
    assert np.abs(drawn - exact).max() > 0  # rounded, not exact


def alias_probabilities(table: AliasTable) -> np.ndarray:
    """The distribution a table draws from: column mass plus alias mass."""
    n = len(table.accept)
    accept = table.accept.astype(np.float64)
    p = accept.copy()
    np.add.at(p, table.alias, 1.0 - accept)
    return p / n


def test_save_vocab_then_read_vocab_trains_the_same_vectors(tmp_path):
    """word2vec's -save-vocab / -read-vocab: the file fixes the vocabulary of a later run."""
    from click.testing import CliRunner

    from tests.conftest import SAMPLE
    from wordvec.cli import main
    from wordvec.model import Model

    options = ["--epochs", "1", "--threads", "1", "-q"]
    saved = tmp_path / "vocab.txt"
    runs = [("--save-vocab", str(saved)), ("--read-vocab", str(saved))]
    for number, extra in enumerate(runs):
        result = CliRunner().invoke(
            main, ["train", str(SAMPLE), "-o", str(tmp_path / f"{number}.wv"), *options, *extra]
        )
        assert result.exit_code == 0, result.output
    first, second = Model.load(tmp_path / "0.wv"), Model.load(tmp_path / "1.wv")
    assert saved.read_text(encoding="utf-8").startswith("the 57325\nof 29929\n")  # word count lines
    assert second.vocab.words == first.vocab.words
    np.testing.assert_array_equal(second.vectors, first.vectors)


def test_read_vocab_restricts_the_words_and_takes_word2vec_files(tmp_path):
    import wordvec

    vocab_file = tmp_path / "vocab.txt"
    vocab_file.write_text("</s> 3\ncats 7\ndogs 9\nfish 1\n", encoding="utf-8")  # word2vec's
    corpus = tmp_path / "c.txt"
    corpus.write_text("I like cats\nI like dogs\nI like cats\n", encoding="utf-8")
    model = wordvec.train(corpus, read_vocab=vocab_file, min_count=2, epochs=1, quiet=True)
    assert model.vocab.words == ["dogs", "cats"]  # the file's counts, fish under --min-count
    assert model.vocab.counts.tolist() == [9, 7]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("cats 7\ncats 2\n", "vocab.txt lists a word twice"),
        ("cats seven\n", "vocab.txt, line 1: expected 'word count'"),
        ("", "vocab.txt holds no words"),
    ],
)
def test_bad_vocabulary_files_are_clear_errors(tmp_path, content, message):
    vocab_file = tmp_path / "vocab.txt"
    vocab_file.write_text(content, encoding="utf-8")
    with pytest.raises(FormatError, match=message):
        Vocabulary.read_word2vec(vocab_file)


def test_damaged_vocabulary_files_give_a_vocabulary_or_one_error(tmp_path):
    """Seeded byte flips and truncations of a saved vocabulary: read, or a FormatError."""
    vocab = Vocabulary(["the", "of", "北京", "²"], np.array([9, 7, 5, 3]))
    path = tmp_path / "vocab.txt"
    vocab.write_word2vec(path)
    data = path.read_bytes()
    rng = np.random.default_rng(0)
    for case in range(300):
        damaged = bytearray(data[: rng.integers(1, len(data) + 1)] if case % 3 == 0 else data)
        for _ in range(rng.integers(1, 4)):
            damaged[rng.integers(len(damaged))] = rng.integers(256)
        if case % 7 == 0:  # a count too large for int64
            damaged = damaged.rstrip(b"\n") + b"7" * 30 + b"\n"
        path.write_bytes(bytes(damaged))
        with contextlib.suppress(FormatError):
            Vocabulary.read_word2vec(path)
