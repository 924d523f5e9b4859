"""The numba reader (wordvec.corpus.numba_reader) gives the Python reader's vocabulary and ids
exactly."""

from __future__ import annotations

import gzip

import numpy as np
import pytest

from tests.conftest import CORPORA, SAMPLE
from wordvec.corpus import numba_reader
from wordvec.corpus.reading import _encode_in_python, encode_corpus
from wordvec.errors import CorpusError
from wordvec.options import ReadingOptions

SPACES = "".join(chr(c) for c in range(0x110000) if chr(c).isspace())


def both_readers(corpus, tmp_path, threads=2, **options):
    """(vocabulary, ids) from the numba reader and from the Python reader."""
    (tmp_path / "numba").mkdir(exist_ok=True)
    (tmp_path / "python").mkdir(exist_ok=True)
    fast = encode_corpus(corpus, tmp_path / "numba", threads=threads, **options)
    reading = ReadingOptions.of(**options)
    slow = _encode_in_python(corpus, tmp_path / "python", reading, None, None)
    return [(vocab, np.fromfile(encoded.path, dtype=np.int32)) for vocab, encoded in (fast, slow)]


def assert_same(corpus, tmp_path, **options):
    (fast_vocab, fast_ids), (slow_vocab, slow_ids) = both_readers(corpus, tmp_path, **options)
    assert fast_vocab.words == slow_vocab.words
    np.testing.assert_array_equal(fast_vocab.counts, slow_vocab.counts)
    np.testing.assert_array_equal(fast_ids, slow_ids)
    return fast_vocab, fast_ids


@pytest.mark.parametrize("lowercase", [False, True])
def test_bundled_corpora_read_the_same(tmp_path, lowercase):
    for corpus in (SAMPLE, CORPORA / "zhwiki-sample.txt.gz"):
        assert_same(corpus, tmp_path, min_count=2, lowercase=lowercase)


TRICKY = [
    "one two\r\nthree\rfour\n\nfive",  # CRLF, lone CR, an empty line, no final newline
    "trailing space \n last line ends with a space ",
    "tab\tand\x0bvertical\x0cfeed\x1cfile\x1dgroup\x1erecord\x1funit",
    "ends with\u3000",
    "ends with nbsp\xa0",
    "ends with\u2003",
    "\ufeffbom first\n",
    SPACES.join(["every", "unicode", "space", "between"]) + "\n",
    "Déjà VU ΟΔΟΣ İstanbul STRASSE straße\nDÉJÀ vu οδος\n",
    "\n\n\n",
    "a",
    "  leading spaces\n\ttab first\n",
]


@pytest.mark.parametrize("text", TRICKY, ids=range(len(TRICKY)))
@pytest.mark.parametrize("lowercase", [False, True])
def test_tricky_text_reads_the_same(tmp_path, text, lowercase):
    corpus = tmp_path / "c.txt"
    corpus.write_bytes(text.encode())
    if not text.split():
        with pytest.raises(CorpusError, match="contains no words"):
            both_readers(corpus, tmp_path, min_count=1)
        return
    assert_same(corpus, tmp_path, min_count=1, lowercase=lowercase)


def test_small_blocks_cut_lines_and_words_the_same(tmp_path, monkeypatch):
    """Blocks of 64 bytes: long lines are cut at spaces, blocks go to both threads."""
    monkeypatch.setattr(numba_reader, "BLOCK_BYTES", 64)
    with gzip.open(SAMPLE, "rt", encoding="utf-8") as sample:
        text = sample.read(20_000)
    corpus = tmp_path / "c.txt"
    corpus.write_text(text.replace(" of ", " of\n").replace(" in ", "\r\n"), encoding="utf-8")
    assert_same(corpus, tmp_path, min_count=1)


def test_several_files_and_a_directory_read_as_one_corpus(tmp_path):
    folder = tmp_path / "shards"
    folder.mkdir()
    (folder / "b.txt").write_text("cat dog\nbird", encoding="utf-8")
    (folder / "a.txt").write_text("dog dog fish ", encoding="utf-8")
    with gzip.open(folder / "c.gz", "wt", encoding="utf-8") as out:
        out.write("fish cat\n")
    vocab, ids = assert_same(folder, tmp_path, min_count=1)
    # a.txt, b.txt, then c.gz: fish is first seen before cat, so comes after it (equal counts)
    assert vocab.words == ["dog", "cat", "fish", "bird"]
    assert ids.tolist() == [0, 0, 2, 1, 0, -1, 3, -1, 2, 1, -1]
    files = [folder / "a.txt", folder / "b.txt", folder / "c.gz"]
    assert_same(files, tmp_path, min_count=1)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"ok \xff\xfe bad", "c.txt is not UTF-8 text (invalid start byte, byte 0xff)"),
        (b"ok \xed\xa0\x80 surrogate", "c.txt is not UTF-8 text (invalid continuation byte"),
        (b"nul \x00 byte", "c.txt looks like a binary file (it contains NUL bytes)"),
        (b"x" * 200_000, "c.txt has a 'word' of over 100,000 characters"),
    ],
)
def test_bytes_the_python_reader_judges_give_its_errors(tmp_path, content, message):
    corpus = tmp_path / "c.txt"
    corpus.write_bytes(content)
    with pytest.raises(CorpusError) as error:
        encode_corpus(corpus, tmp_path, min_count=1)
    assert str(error.value).startswith(message)


def test_replaced_bytes_are_read_as_python_replaces_them(tmp_path):
    corpus = tmp_path / "c.txt"
    corpus.write_bytes(b"caf\xe9 ok caf\xe9\nok")
    vocab, _ = encode_corpus(corpus, tmp_path, min_count=1, encoding_errors="replace")
    assert vocab.words == ["ok", "caf\ufffd"]  # equal counts: the last seen first


def test_corpus_from_a_pipe_trains_the_same_model(tmp_path):
    """``zcat corpus.gz | wordvec train - -o m.wv`` is ``wordvec train corpus.gz -o m.wv``."""
    import subprocess
    import sys

    wordvec = [sys.executable, "-c", "from wordvec.cli import main; main()"]
    options = ["--epochs", "1", "--threads", "1", "--seed", "4", "-q"]
    subprocess.run([*wordvec, "train", str(SAMPLE), "-o", str(tmp_path / "file.wv"), *options],
                   check=True)  # fmt: skip
    with gzip.open(SAMPLE, "rb") as text:
        subprocess.run([*wordvec, "train", "-", "-o", str(tmp_path / "pipe.wv"), *options],
                       input=text.read(), check=True)  # fmt: skip
    assert (tmp_path / "pipe.wv").read_bytes() == (tmp_path / "file.wv").read_bytes()


def test_fifo_corpus_reads_as_its_file(tmp_path):
    import os
    import threading

    fifo = tmp_path / "corpus.fifo"
    os.mkfifo(fifo)
    text = "one two three\ntwo three\nthree\n"
    writer = threading.Thread(target=fifo.write_text, args=(text,))
    writer.start()
    vocab, encoded = encode_corpus(fifo, tmp_path, min_count=1)
    writer.join()
    assert vocab.words == ["three", "two", "one"]
    assert np.fromfile(encoded.path, np.int32).tolist() == [2, 1, 0, -1, 1, 0, -1, 0, -1]


def test_too_little_temporary_space_is_refused_before_reading(tmp_path, monkeypatch):
    import shutil

    from click.testing import CliRunner

    from wordvec.cli import main
    from wordvec.corpus import reading

    usage = shutil.disk_usage(tmp_path)
    monkeypatch.setattr(reading.shutil, "disk_usage", lambda path: usage._replace(free=10**6))
    result = CliRunner().invoke(
        main, ["train", str(SAMPLE), "-o", str(tmp_path / "m.wv"), "--tmp-dir", str(tmp_path)]
    )
    assert result.exit_code == 1
    assert result.output == (
        "Error: the word ids of wiki-sample.txt.gz need about 7 MB of temporary space "
        f"(4 bytes a token, twice while renumbered), but {tmp_path} has 1 MB free; "
        "choose another --tmp-dir\n"
    )


def test_merging_in_chunks_with_growth_keeps_every_count(tmp_path, monkeypatch):
    """Many words per thread, merged a few at a time into a table that must grow."""
    monkeypatch.setattr(numba_reader, "BLOCK_BYTES", 4096)
    monkeypatch.setattr(numba_reader, "_MERGE_WORDS", 7)
    monkeypatch.setattr(numba_reader, "_INITIAL_WORDS", 4)
    rng = np.random.default_rng(1)
    words = [f"w{rank:x}" for rank in rng.zipf(1.2, 30_000).tolist()]
    corpus = tmp_path / "zipf.txt"
    corpus.write_text("\n".join(" ".join(words[i : i + 50]) for i in range(0, 30_000, 50)))
    vocab, _ = assert_same(corpus, tmp_path, min_count=1, threads=3)
    assert vocab.counts.sum() == 30_000


def test_a_small_vocab_memory_drops_rare_words_and_keeps_frequent_ones_exact(tmp_path, monkeypatch):
    """Tables of ~10 words a thread: the hapaxes are dropped again and again while counting,
    the five words of every line never are, so their counts and ids are the exact ones."""
    from click.testing import CliRunner

    from wordvec.cli import main

    monkeypatch.setattr(numba_reader, "BLOCK_BYTES", 256)
    lines = [f"alpha beta gamma delta epsilon rare{i} once{i}" for i in range(500)]
    corpus = tmp_path / "c.txt"
    corpus.write_text("\n".join(lines) + "\n", encoding="utf-8")
    vocab, _ = assert_same(corpus, tmp_path, min_count=2, vocab_memory=1e-6)
    assert vocab.words == [
        "epsilon",
        "delta",
        "gamma",
        "beta",
        "alpha",
    ]  # ties: the last seen first
    assert vocab.counts.tolist() == [500] * 5
    result = CliRunner().invoke(
        main, ["train", str(corpus), "-o", str(tmp_path / "m.wv"), "--min-count", "2",
               "--vocab-memory", "1e-6", "--epochs", "1"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "note: the distinct words outgrew --vocab-memory 1e-06 GB" in result.output
