"""Streaming corpus reading and the encoded id stream."""

import bz2
import gzip
import itertools
import os
import subprocess
import sys

import numpy as np
import pytest

from wordvec.corpus.encoded import IdsInMemory
from wordvec.corpus.python_reader import read_pieces
from wordvec.corpus.reading import SENTENCE_END, encode_corpus
from wordvec.errors import CorpusError
from wordvec.training.runner import SPAN_WORDS, TAIL_SPANS, WINDOW_SPAN_WORDS, window_spans


def lines_of(path, **kwargs):
    """Reassemble the pieces into lines of tokens."""
    lines, current = [], []
    for tokens, line_ends in read_pieces(path, **kwargs):
        current += tokens
        if line_ends:
            lines.append(current)
            current = []
    if current:
        lines.append(current)
    return lines


@pytest.mark.parametrize("opener", [open, gzip.open, bz2.open], ids=["plain", "gz", "bz2"])
def test_plain_gz_and_bz2_read_the_same(tmp_path, opener):
    path = tmp_path / "c.txt"  # the name says nothing: compression is sniffed
    with opener(path, "wt", encoding="utf-8") as f:
        f.write("the cat  sat\r\non the\tmat\n\nzürich 北京\n")
    assert lines_of(path) == [["the", "cat", "sat"], ["on", "the", "mat"], [], ["zürich", "北京"]]


@pytest.mark.parametrize("block_chars", [1, 2, 3, 7, 1000])
def test_tokens_split_across_blocks_are_rejoined(tmp_path, block_chars):
    path = tmp_path / "c.txt"
    path.write_text("alpha beta gamma\ndelta  epsilon\nzeta", encoding="utf-8")
    assert lines_of(path, block_chars=block_chars) == [
        ["alpha", "beta", "gamma"],
        ["delta", "epsilon"],
        ["zeta"],
    ]


def test_one_long_line_is_streamed_in_bounded_pieces(tmp_path):
    path = tmp_path / "long.txt"
    words = [f"w{i % 97}" for i in range(20_000)]
    path.write_text(" ".join(words), encoding="utf-8")  # one line, no newline
    pieces = list(read_pieces(path, block_chars=1000))
    assert len(pieces) > 50
    assert max(len(tokens) for tokens, _ in pieces) < 1000
    assert [t for tokens, _ in pieces for t in tokens] == words
    assert [ends for _, ends in pieces][-1] is True


def test_lowercase(tmp_path):
    path = tmp_path / "c.txt"
    path.write_text("The Cat", encoding="utf-8")
    assert lines_of(path, lowercase=True) == [["the", "cat"]]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "corpus file not found"),
        (b"", "corpus file is empty"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "not UTF-8 text"),
        (b"some text\x00\x00\x00 with nul bytes", "looks like a binary file"),
        (b"caf\xe9 au lait", "not UTF-8 text .* pass --encoding-errors replace"),
        (b"\x1f\x8b\x08\x00broken gzip", "cannot be decompressed"),
    ],
)
def test_bad_input_is_a_clear_error(tmp_path, content, message):
    path = tmp_path / "bad.txt"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(CorpusError, match=message):
        lines_of(path)


def test_invalid_bytes_replaced_on_request(tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes(b"caf\xe9 au lait")
    assert lines_of(path, encoding_errors="replace") == [["caf\ufffd", "au", "lait"]]


def test_encode_counts_ids_and_markers(tmp_path, toy_corpus):
    vocab, encoded = encode_corpus(toy_corpus, tmp_path, min_count=2)
    assert vocab.words == ["like", "I", "cats"]  # equal counts: the last seen first
    assert vocab.counts.tolist() == [5, 5, 3]
    ids = encoded.read(0, encoded.length)
    E = SENTENCE_END
    # dogs and pizza (1 each) are dropped; every line ends with a marker
    assert ids.tolist() == [1, 0, 2, E, 1, 0, E, 1, 0, 2, E, 1, 0, E, 1, 0, 2, E]
    assert encoded.words == vocab.total == 13
    assert not (tmp_path / "raw-ids.i32").exists()


def test_counts_sum_to_tokens_and_slices_cover_the_stream(tmp_path):
    rng = np.random.default_rng(0)
    path = tmp_path / "c.txt"
    lines = [" ".join(f"w{w}" for w in rng.zipf(1.5, rng.integers(1, 40))) for _ in range(500)]
    path.write_text("\n".join(lines), encoding="utf-8")
    n_tokens = sum(len(line.split()) for line in lines)
    vocab, encoded = encode_corpus(path, tmp_path, min_count=1)
    assert vocab.total == n_tokens == encoded.words
    slices = encoded.slices(100)
    assert slices[0].start == 0 and slices[-1].stop == encoded.length
    assert all(a.stop == b.start for a, b in itertools.pairwise(slices))
    assert sum(piece.words for piece in slices) == n_tokens


@pytest.mark.parametrize("threads", [1, 2, 4])
def test_window_spans_are_long_but_for_the_epochs_tail(threads):
    """The window models' spans: long ones (few kernel calls), then, with several threads,
    short ones that the threads share at the epoch's end; they cover the stream, line by line."""
    lines = np.random.default_rng(1).integers(5, 60, 40_000)  # 1.3M words in lines
    ids = np.concatenate([np.append(np.ones(n, np.int32), SENTENCE_END) for n in lines])
    spans = window_spans(IdsInMemory(ids), whole_lines=True, threads=threads)
    assert spans[0].start == 0 and spans[-1].stop == len(ids)
    assert all(a.stop == b.start and ids[a.stop - 1] == SENTENCE_END for a, b in
               itertools.pairwise(spans))  # fmt: skip
    assert sum(span.words for span in spans) == lines.sum()
    sizes = [span.stop - span.start for span in spans[:-1]]  # the last: what is left
    long = [size for size in sizes if size > SPAN_WORDS]  # cut at a line's end: <= 60 short
    assert all(WINDOW_SPAN_WORDS - 60 < size <= WINDOW_SPAN_WORDS for size in long)
    assert sizes[: len(long)] == long  # the long spans first
    short = sizes[len(long) :]
    assert all(SPAN_WORDS - 60 < size <= SPAN_WORDS for size in short)
    tail = TAIL_SPANS * (threads - 1) * SPAN_WORDS  # one thread: no tail
    assert tail <= len(ids) - spans[len(long)].start < tail + WINDOW_SPAN_WORDS


def test_whitespace_only_corpus(tmp_path):
    path = tmp_path / "blank.txt"
    path.write_text("  \n\n \t \n", encoding="utf-8")
    with pytest.raises(CorpusError, match="contains no words"):
        encode_corpus(path, tmp_path)


def test_a_url_reads_as_the_local_path(tmp_path):
    """file:// URLs go through fsspec as s3:// ones do: a prefix is its files in name order,
    compressed ones recognised by content; the result is the local path's."""
    pytest.importorskip("fsspec")
    folder = tmp_path / "shards"
    folder.mkdir()
    (folder / "b.txt.gz").write_bytes(gzip.compress(b"the cat sat\non the mat\n"))
    (folder / "a.txt").write_text("a cat and a dog\n", encoding="utf-8")
    (tmp_path / "local").mkdir()
    (tmp_path / "url").mkdir()
    local_vocab, local_ids = encode_corpus(folder, tmp_path / "local", threads=1, min_count=1)
    for url in (
        folder.as_uri() + "/",
        [(folder / "a.txt").as_uri(), (folder / "b.txt.gz").as_uri()],
    ):
        vocab, ids = encode_corpus(url, tmp_path / "url", threads=1, min_count=1)
        assert vocab.words == local_vocab.words
        assert np.array_equal(ids.read(0, ids.length), local_ids.read(0, local_ids.length))


def test_bad_urls_are_clear_errors(tmp_path, monkeypatch):
    pytest.importorskip("fsspec")
    with pytest.raises(CorpusError, match="corpus file not found: file://"):
        encode_corpus((tmp_path / "missing.txt").as_uri(), tmp_path, threads=1)
    with pytest.raises(CorpusError, match="cannot read nosuch://x"):
        encode_corpus("nosuch://x", tmp_path, threads=1)
    monkeypatch.setitem(sys.modules, "fsspec", None)
    with pytest.raises(CorpusError, match=r"needs fsspec: pip install 'wordvec\[dask\]'"):
        encode_corpus("s3://bucket/prefix/", tmp_path, threads=1)


@pytest.mark.parametrize(
    "command",
    [
        ["train", "-", "-o", "{out}"],
        ["train", "-", "-o", "{out}", "--model", "supervised"],
        ["predict", "{model}"],
        ["embed", "{model}"],
        ["cooccur", "-", "-o", "{out}"],
        ["neighbors", "{model}"],
    ],
    ids=["train", "train-supervised", "predict", "embed", "cooccur", "neighbors"],
)
def test_a_closed_standard_input_is_one_error_line(tmp_path, command):
    import wordvec

    labelled = tmp_path / "l.txt"
    labelled.write_text("__label__a x y\n__label__b y z\n", encoding="utf-8")
    model = tmp_path / "clf.wv"
    wordvec.train(labelled, model="supervised", dim=4, epochs=1, threads=1, quiet=True).save(model)
    out = tmp_path / "m.wv"
    args = [arg.format(out=out, model=model) for arg in command]
    done = subprocess.run(
        [sys.executable, "-c", "from wordvec.cli import main; main()", *args],
        capture_output=True, text=True, timeout=120, preexec_fn=lambda: os.close(0),
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip().splitlines()[-1] == (
        "Error: standard input is closed: give a file, or pipe text in"
    )
    assert "Traceback" not in done.stderr and not out.exists()
