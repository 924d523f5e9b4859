"""BPE units: the course's worked example, the fast learner against a brute-force one, the
segmenter against subword-nmt's algorithm, the files both ways, and the command line."""

from __future__ import annotations

import gzip
import itertools
import random
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from wordvec import bpe
from wordvec.bpe.files import units_from_bytes
from wordvec.bpe.units import Units
from wordvec.cli import main
from wordvec.errors import FormatError

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "corpora" / "wiki-sample.txt.gz"
COURSE = "cat " * 5 + "cats " * 3 + "dog " * 4 + "dogs " * 2
"""The course's corpus (text-to-vectors, section 1): cat x5, cats x3, dog x4, dogs x2."""


def sample_words(n: int) -> list[str]:
    """The first ``n`` words of the bundled English sample."""
    with gzip.open(SAMPLE, "rt", encoding="utf-8") as text:
        return text.read(20 * n).split()[:n]


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("course") / "course.txt"
    path.write_text(COURSE.strip() + "\n")
    return path


def test_the_course_example(course):
    """Four merges, ties to the pair met first: c+a, ca+t, d+o, do+g; cats -> cat s."""
    units = bpe.learn(str(course), merges=4, quiet=True)
    assert units.merges == [("c", "a"), ("ca", "t"), ("d", "o"), ("do", "g")]
    assert units.segment(["cats", "dogs"]) == [["cat", "s"], ["dog", "s"]]
    assert units.encode("cats dogs") == ["cat@@", "s", "dog@@", "s"]
    assert units.encode("cats dogs", "sentencepiece") == ["▁cat", "s", "▁dog", "s"]
    assert units.decode(units.encode("cats and dogs")) == "cats and dogs"
    ids = units.encode("cats", "ids")
    assert [units.vocab[int(i)] for i in ids] == ["cat", "s"]


def test_the_course_example_with_word_ends(course):
    """subword-nmt's convention counts 'ca t</w>' (5) apart from 'ca t' (3): other merges."""
    units = bpe.learn(str(course), merges=4, word_end="suffix", quiet=True)
    assert units.merges == [("c", "a"), ("d", "o"), ("ca", "t</w>"), ("do", "g</w>")]
    assert units.segment(["cat", "cats"]) == [["cat</w>"], ["ca", "t", "s</w>"]]
    assert units.encode("cat cats") == ["cat", "ca@@", "t@@", "s"]


def reference_learn(words: list[tuple[str, int]], merges: int, word_end: str) -> list:
    """BPE by recounting every pair before each merge: the most frequent pair, ties to the
    one a reader of the words (in order, left to right) met first."""
    seqs = [[*w[:-1], w[-1] + "</w>"] if word_end == "suffix" else list(w) for w, _ in words]
    counts = [c for _, c in words]
    met: dict = {}

    def meet() -> None:
        for seq in seqs:
            for pair in itertools.pairwise(seq):
                met.setdefault(pair, len(met))

    meet()
    done = []
    for _ in range(merges):
        pairs: Counter = Counter()
        for seq, count in zip(seqs, counts):
            for pair in itertools.pairwise(seq):
                pairs[pair] += count
        if not pairs or max(pairs.values()) < 2:
            break
        best = max(pairs, key=lambda pair: (pairs[pair], -met[pair]))
        done.append(best)
        seqs = [merged(seq, best) for seq in seqs]
        meet()
    return done


def reference_segment(units: Units, word: str) -> list[str]:
    """subword-nmt's apply: the lowest-ranked pair, all its places left to right, again."""
    ranks = {pair: rank for rank, pair in enumerate(units.merges)}
    seq = [*word[:-1], word[-1] + "</w>"] if units.word_end == "suffix" else list(word)
    while len(seq) > 1:
        found = [ranks[p] for p in itertools.pairwise(seq) if p in ranks]
        if not found:
            break
        seq = merged(seq, units.merges[min(found)])
    return seq


def merged(seq: list[str], pair: tuple[str, str]) -> list[str]:
    """``seq`` with each place of ``pair``, left to right, merged into one symbol."""
    out, i = [], 0
    while i < len(seq):
        if i + 1 < len(seq) and (seq[i], seq[i + 1]) == pair:
            out.append(seq[i] + seq[i + 1])
            i += 2
        else:
            out.append(seq[i])
            i += 1
    return out


@pytest.mark.parametrize("word_end", ["none", "suffix"])
@pytest.mark.parametrize("seed", range(8))
def test_the_fast_learner_is_the_brute_force_one(tmp_path, seed, word_end):
    """Random small corpora with many ties (three letters): the same merges, in order, and
    each word segmented as subword-nmt's algorithm does with them."""
    rng = random.Random(seed)
    vocabulary = ["".join(rng.choice("abc") for _ in range(rng.randint(1, 7))) for _ in range(40)]
    tokens = [rng.choice(vocabulary) for _ in range(300)]
    path = tmp_path / "corpus.txt"
    path.write_text(" ".join(tokens) + "\n")
    counted = list(Counter(tokens).items())  # first-seen order, as the reader counts
    expected = reference_learn(counted, 30, word_end)
    units = bpe.learn(str(path), merges=30, word_end=word_end, quiet=True)
    assert units.merges == expected
    words = sorted(set(vocabulary)) + ["cabbage", "abcabcabc"]
    assert units.segment(words) == [reference_segment(units, w) for w in words]


def test_a_merge_spelling_an_existing_unit_reuses_it(tmp_path):
    """'ab'+'c' after 'a'+'bc': BPE over strings has one unit 'abc', counted as one."""
    path = tmp_path / "corpus.txt"
    path.write_text(" ".join(["bc"] * 9 + ["abc"] * 4 + ["ab"] * 6 + ["abcx"] * 3) + "\n")
    units = bpe.learn(str(path), merges=6, quiet=True)
    expected = reference_learn([("bc", 9), ("abc", 4), ("ab", 6), ("abcx", 3)], 6, "none")
    assert units.merges == expected
    assert len(units.vocab) == len(set(units.vocab))


@pytest.mark.parametrize("name", ["units.json", "codes.txt"])
@pytest.mark.parametrize("word_end", ["none", "suffix"])
def test_units_files_round_trip(tmp_path, name, word_end):
    units = bpe.learn(str(SAMPLE), merges=300, word_end=word_end, quiet=True)
    bpe.save_units(units, tmp_path / name)
    again = bpe.load_units(tmp_path / name)
    words = ["the", "unfathomable", "anarchists", "were", "photographed"]
    assert again.written(words) == units.written(words)
    if name.endswith(".json"):
        assert again == units


def test_hf_tokenizers_reads_our_tokenizer_json(tmp_path):
    tokenizers = pytest.importorskip("tokenizers")
    units = bpe.learn(str(SAMPLE), vocab_size=2000, quiet=True)
    bpe.save_units(units, tmp_path / "units.json")
    theirs = tokenizers.Tokenizer.from_file(str(tmp_path / "units.json"))
    text = " ".join(sample_words(3000))
    assert theirs.encode(text).tokens == [p for w in units.segment(text.split()) for p in w]
    assert theirs.encode(text).ids == [int(i) for i in units.encode(text, "ids")]


def test_subword_nmt_apply_gives_the_same_bytes(tmp_path):
    """Given the same codes file (ours, and one subword-nmt learned), our apply writes what
    subword-nmt's apply-bpe writes, byte for byte."""
    apply_bpe = pytest.importorskip("subword_nmt.apply_bpe")
    learn_bpe = pytest.importorskip("subword_nmt.learn_bpe")
    lines = sample_words(20000)
    text = tmp_path / "text.txt"
    text.write_text("\n".join(" ".join(lines[i : i + 50]) for i in range(0, len(lines), 50)) + "\n")
    ours = bpe.learn(str(text), merges=500, word_end="suffix", quiet=True)
    bpe.save_units(ours, tmp_path / "ours.codes")
    with open(text) as infile, open(tmp_path / "theirs.codes", "w") as codes:
        learn_bpe.learn_bpe(infile, codes, 500)
    for codes in ("ours.codes", "theirs.codes"):
        with open(tmp_path / codes) as handle:
            segmenter = apply_bpe.BPE(handle)
        with open(text) as handle:
            expected = "".join(segmenter.process_line(line) for line in handle)
        out = tmp_path / f"{codes}.out"
        bpe.segment_corpus(bpe.load_units(tmp_path / codes), [str(text)], out, quiet=True)
        assert out.read_text() == expected


def test_sentencepiece_bpe_models_are_read(tmp_path):
    spm = pytest.importorskip("sentencepiece")
    words = sample_words(30000)
    text = tmp_path / "text.txt"
    text.write_text("\n".join(" ".join(words[i : i + 30]) for i in range(0, len(words), 30)))
    spm.SentencePieceTrainer.train(input=str(text), model_prefix=str(tmp_path / "sp"),
                                   model_type="bpe", vocab_size=800,
                                   minloglevel=2)  # fmt: skip
    theirs = spm.SentencePieceProcessor(model_file=str(tmp_path / "sp.model"))
    units = bpe.load_units(tmp_path / "sp.model")
    assert units.word_end == "prefix"
    sample = " ".join(words[:2000])
    assert units.encode(sample, "sentencepiece") == theirs.encode(sample, out_type=str)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "holds no merges"),
        (b"a b\nc\n", "line 2: not two symbols"),
        (b"\xff\xfe\x00", "not UTF-8"),
        (b'{"model": {"type": "Unigram"}}', "not of a BPE model"),
        (b'{"model": {"type": "BPE", "vocab": {}, "merges": [["a"]]}}', "corrupt (merge"),
        (b"{not json", "not valid JSON"),
        (b"\x0a\x05\x0a\x01a\x15\xff", "corrupt (not a SentencePiece model)"),
    ],
)
def test_damaged_units_files_are_named(content, message):
    with pytest.raises(FormatError, match=re.escape(message)):
        units_from_bytes(content, "units.bin")


def test_the_command_line(tmp_path, course):
    runner = CliRunner()
    result = runner.invoke(main, ["bpe", "learn", str(course), "-o", str(tmp_path / "u.json"),
                                  "--merges", "4"])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "learned 4 merges (12 units, 7 characters)" in result.output
    result = runner.invoke(main, ["bpe", "apply", str(tmp_path / "u.json")],
                           input="cats and dogs\n\nbirds\n")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert result.stdout == "cat@@ s a@@ n@@ d dog@@ s\n\nb@@ i@@ r@@ d@@ s\n"
    result = runner.invoke(main, ["bpe", "apply", str(tmp_path / "missing.json")], input="a\n")
    assert result.exit_code == 1
    assert result.output.strip() == f"Error: units file not found: {tmp_path / 'missing.json'}"
    result = runner.invoke(main, ["bpe", "learn", str(course), "-o", str(tmp_path / "v.json"),
                                  "--vocab-size", "5"])  # fmt: skip
    assert result.exit_code == 1
    assert "leaves no merge: the corpus has 7 characters" in result.output
    assert not (tmp_path / "v.json").exists()


def test_vectors_of_units(tmp_path):
    """--bpe: the model keeps its units; any word, seen or not, gets the mean of its units'
    rows; export writes the units as keys."""
    units = bpe.learn(str(SAMPLE), merges=3000, quiet=True)
    bpe.save_units(units, tmp_path / "units.json")
    runner = CliRunner()
    result = runner.invoke(main, ["train", str(SAMPLE), "-o", str(tmp_path / "m.wv"),
                                  "--bpe", str(tmp_path / "units.json"), "--epochs", "1",
                                  "--threads", "1", "--seed", "1", "-q"])  # fmt: skip
    assert result.exit_code == 0, result.output
    from wordvec import Model

    wv = Model.load(tmp_path / "m.wv").wv
    assert "s" in wv.words and any(w.endswith("@@") for w in wv.words)
    word = "unphotographable"
    assert word in wv
    pieces = units.encode(word)
    expected = np.mean([wv.vectors[wv.row_of(p)] for p in pieces], axis=0)
    np.testing.assert_allclose(wv[word], expected, rtol=1e-6)
    result = runner.invoke(main, ["neighbors", str(tmp_path / "m.wv"), word, "-k", "3"])
    assert result.exit_code == 0, result.output
    answers = [line.split()[1] for line in result.stdout.splitlines()[1:]]
    assert len(answers) == 3 and not set(answers) & set(pieces)  # not its own units
    result = runner.invoke(main, ["embed", str(tmp_path / "m.wv"), "-"], input=f"{word} s\n")
    assert result.exit_code == 0, result.output
    row = np.array(result.stdout.split(), dtype=np.float32)  # the mean of the line's units
    every = [wv.vectors[wv.row_of(p)] for p in [*pieces, "s"]]
    np.testing.assert_allclose(row, np.mean(every, axis=0), rtol=1e-4, atol=1e-5)
    result = runner.invoke(main, ["export", str(tmp_path / "m.wv"), str(tmp_path / "v.vec"),
                                  "--format", "word2vec"])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert (tmp_path / "v.vec").read_text().split("\n")[0] == f"{len(wv)} {wv.dim}"


@pytest.mark.parametrize("model", ["cbow", "glove"])
def test_other_word_models_train_on_units(tmp_path, model):
    units = bpe.learn(str(SAMPLE), merges=500, quiet=True)
    bpe.save_units(units, tmp_path / "units.json")
    from wordvec import train

    trained = train(SAMPLE, model=model, bpe=str(tmp_path / "units.json"), dim=8, epochs=1,
                    threads=1, seed=1, quiet=True)  # fmt: skip
    assert trained.settings["bpe"] == str(tmp_path / "units.json")
    vector = trained.wv["unphotographable"]
    assert vector.shape == (8,) and np.isfinite(vector).all()


def test_units_are_refused_where_they_do_not_apply(tmp_path, course):
    result = CliRunner().invoke(main, ["train", str(course), "-o", str(tmp_path / "m.wv"),
                                       "--model", "fasttext", "--bpe", str(course)])  # fmt: skip
    assert result.exit_code == 1
    assert result.output.strip() == (
        "Error: --bpe does not apply to --model fasttext (only to sg, cbow, glove, ppmi-svd)"
    )
