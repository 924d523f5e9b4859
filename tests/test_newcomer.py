"""The corners a newcomer hit on a first day: a first run's compilation shown as training,
Chinese columns that did not line up, a platform without SIGHUP, a misleading export message."""

from __future__ import annotations

import io
import signal
import sys
import time

import numpy as np
import pytest
from click.testing import CliRunner

from wordvec.cli import main
from wordvec.cli.neighbors import display_width
from wordvec.training.runner import Divergence, Span, run_training


@pytest.fixture
def slow_after_a_fifth(monkeypatch):
    """A step counts as slow after 0.2 s instead of 2 (the tests sleep less)."""
    from wordvec.runtime import progress

    monkeypatch.setattr(progress, "SLOW_STEP_SECONDS", 0.2)


def test_a_first_run_says_it_compiles_with_the_wait_to_expect(capsys):
    """numba starting to compile (not loading from its cache) is said at once, with the wait
    a model's first run takes; a run that compiles nothing, or a quiet one, says nothing."""
    import numba

    from wordvec.kernels.specialize import COMPILE_SECONDS, watch_compiling

    def twice(x):
        return 2 * x

    kernel = numba.njit(twice)
    with watch_compiling("sg"):
        assert kernel(2) == 4
    said = capsys.readouterr().err.splitlines()
    assert said[0] == f"compiling the skip-gram kernels, first run only: ~{COMPILE_SECONDS['sg']} s"
    assert said[1].startswith("compiled the skip-gram kernels in ")
    assert said[1].endswith(" s; later runs load them from numba's cache") and len(said) == 2
    with watch_compiling("sg"):  # compiled already
        assert kernel(3) == 6
    with watch_compiling("sg", quiet=True):
        assert numba.njit(twice)(2) == 4
    assert capsys.readouterr().err == ""


def test_a_command_says_it_compiles_once_however_deep_its_runs(capsys):
    """A command's API call (``quantize``, ``phrases``, ``cooccur``) says that it compiles as
    a training does, unless quiet; a run within it (a classifier's retraining within
    ``quantize``) leaves the saying to it: one line at the start, one at the end."""
    import numba

    from wordvec.kernels.specialize import watch_compiling
    from wordvec.runtime.progress import announces_compiling

    @announces_compiling("quantize")
    def command(x, *, quiet=False):
        with watch_compiling("supervised", quiet=quiet):  # a run within it, quiet as it is
            return numba.njit(lambda y: y + 1)(x)

    assert command(1) == 2
    said = capsys.readouterr().err.splitlines()
    assert said[0].startswith("compiling the quantizer kernels, first run only: ~")
    assert said[1].startswith("compiled the quantizer kernels in ") and len(said) == 2
    assert command(1, quiet=True) == 2
    assert capsys.readouterr().err == ""


def test_the_gensim_face_logs_its_first_runs_compiling(monkeypatch, caplog):
    """gensim's users read its log (``logging.basicConfig(level=logging.INFO)`` in its
    tutorials), not a screen: the face's first run says there that it compiles, and how long
    it took, where a fresh install was silent for 6 s before its first line."""
    import logging

    import numba

    import wordvec.gensim.word2vec as face

    real = face.wordvec_train

    def compiling_first(*args, **options):
        assert numba.njit(lambda x: 2 * x)(2) == 4  # a fresh function: numba compiles it
        return real(*args, **options)

    monkeypatch.setattr(face, "wordvec_train", compiling_first)
    with caplog.at_level(logging.INFO, logger="wordvec.gensim"):
        face.Word2Vec([["a", "b", "c"]] * 20, min_count=1, vector_size=4, workers=1)
    said = [r.getMessage() for r in caplog.records if "compil" in r.getMessage()]
    assert said[0].startswith("compiling the CBOW kernels, first run only: ~")
    assert said[1].startswith("compiled the CBOW kernels in ") and len(said) == 2


def test_compilation_is_left_out_of_the_training_time():
    """A kernel whose first call takes 0.7 s (compiling) and the rest none: the report's time,
    hence its words/s, is the training's alone."""
    calls = []

    def kernel(span, alpha_start, alpha_end, seed, scratch):
        if not calls:
            time.sleep(0.7)
        calls.append(span)
        return 0.5 * span.words, span.words, span.words

    report = run_training(
        [Span(0, 100, 100), Span(100, 200, 100)], kernel, lambda: None, epochs=2, alpha=0.1,
        min_alpha=0.001, threads=1, seed=1, check_weights=lambda: True, divergence=Divergence(),
        quiet=True,
    )  # fmt: skip
    assert calls[0] == Span(0, 0, 0) and len(calls) == 5  # the empty span first
    assert report.words == 400 and report.seconds < 0.3


def test_chinese_neighbours_line_up(tmp_path):
    words = ["北京", "上海市", "ab", "abcdef", "东京x"]
    rows = np.random.default_rng(1).normal(size=(len(words), 4))
    vectors = tmp_path / "zh.txt"
    vectors.write_text(
        f"{len(words)} 4\n"
        + "".join(f"{w} {' '.join(f'{x:.4f}' for x in row)}\n" for w, row in zip(words, rows)),
        encoding="utf-8",
    )
    result = CliRunner().invoke(main, ["neighbors", str(vectors), "北京", "-k", "4"])
    assert result.exit_code == 0, result.output
    answers = result.output.splitlines()[1:]
    score_columns = {display_width(line.rsplit("  ", 1)[0]) for line in answers}
    assert len(answers) == 4 and len(score_columns) == 1
    assert display_width("上海市") == 6 and display_width("東京x") == 5 and display_width("é") == 1


def test_a_platform_without_sighup_runs_commands(monkeypatch, tmp_path):
    monkeypatch.delattr(signal, "SIGHUP")
    vectors = tmp_path / "v.txt"
    vectors.write_text("2 2\na 1 0\nb 0 1\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["neighbors", str(vectors), "a", "-k", "1"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[1].split() == ["1", "b", "0.0000"]


def test_exporting_a_fasttext_bin_says_what_it_is(tmp_path):
    import wordvec

    corpus = tmp_path / "c.txt"
    corpus.write_text("i like cats\ni like dogs\n" * 50, encoding="utf-8")
    model = wordvec.train(corpus, model="fasttext", dim=4, epochs=1, threads=1, min_count=1,
                          bucket=1000, quiet=True)  # fmt: skip
    model.save(tmp_path / "ft.wv")
    runner = CliRunner()
    ft_bin = tmp_path / "ft.bin"
    runner.invoke(main, ["export", str(tmp_path / "ft.wv"), str(ft_bin), "-f", "fasttext-bin"])
    result = runner.invoke(main, ["export", str(ft_bin), str(tmp_path / "x.bin"), "-f",
                                  "fasttext-bin"])  # fmt: skip
    assert (result.exit_code, result.output) == (1, (
        "Error: ft.bin is a fastText .bin already (its n-grams answer unseen words): copy it as "
        "it is; --format fasttext-bin converts wordvec model files\n"
    ))  # fmt: skip
    vectors = tmp_path / "v.txt"
    runner.invoke(main, ["export", str(tmp_path / "ft.wv"), str(vectors)])
    result = runner.invoke(main, ["export", str(vectors), str(tmp_path / "y.bin"), "-f",
                                  "fasttext-bin"])  # fmt: skip
    assert "v.txt holds only vectors" in result.output


def test_reading_in_python_reports_progress_as_it_goes(tmp_path):
    """The Python reader (jieba, char) said nothing until a million tokens were read; now
    every 16,384 or so, and the reports add up to the tokens."""
    from wordvec.corpus.reading import encode_corpus

    from .conftest import CORPORA

    reports = []
    vocab, _ = encode_corpus(CORPORA / "zhwiki-sample.txt.gz", tmp_path, threads=1,
                             tokenizer="char", min_count=1, on_tokens=reports.append)  # fmt: skip
    assert len(reports) > 20 and max(reports) < 2 * 16_384
    assert sum(reports) == int(vocab.counts.sum())


def test_a_slow_step_is_noted_with_its_own_words(capsys, slow_after_a_fifth):
    from wordvec.runtime.progress import noted_if_slow

    with noted_if_slow("loading jieba's dictionary...", "loaded it in {seconds:.1f} s"):
        time.sleep(0.3)
    assert capsys.readouterr().err.splitlines() == [
        "loading jieba's dictionary...",
        "loaded it in 0.3 s",
    ]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_big_files_load_shows_a_bar_after_a_second(monkeypatch):
    from wordvec.formats.mapped import loading_bar

    for seconds, shown in ((1.2, True), (0.3, False)):
        terminal = _Terminal()
        monkeypatch.setattr(sys, "stderr", terminal)
        with loading_bar("big.bin", 10) as bar:
            time.sleep(seconds)
            bar.update(10)
        assert ("reading big.bin: 100%" in terminal.getvalue()) == shown


# --- issue 43: what a newcomer still tripped on --------------------------------------------

QUICK = ["--min-count", "1", "--dim", "4", "--epochs", "1", "--threads", "1", "-q"]


@pytest.fixture
def toy(tmp_path):
    from .conftest import TOY_LINES

    path = tmp_path / "toy.txt"
    path.write_text("\n".join(TOY_LINES * 3) + "\n")
    return path


@pytest.mark.parametrize(
    "name, model, fmt",
    [("v.txt", "sg", "word2vec"), ("v.vec", "cbow", "word2vec"), ("v.bin", "sg", "word2vec-binary"),
     ("ft.bin", "fasttext", "fasttext-bin"), ("m.wv", "sg", "model")],
)  # fmt: skip
def test_train_writes_the_format_its_outputs_suffix_names(toy, tmp_path, name, model, fmt):
    """``-o vectors.txt`` and ``-o v.bin`` wrote wordvec's own model, which gensim's
    load_word2vec_format then failed on with a UnicodeDecodeError."""
    from wordvec.formats import detect_format

    extra = ["--bucket", "100"] if model == "fasttext" else []
    result = CliRunner().invoke(
        main, ["train", str(toy), "-o", str(tmp_path / name), "--model", model, *QUICK, *extra]
    )
    assert result.exit_code == 0, result.output
    assert detect_format(tmp_path / name) == fmt
    if fmt == "word2vec-binary":
        from gensim.models import KeyedVectors

        loaded = KeyedVectors.load_word2vec_format(tmp_path / name, binary=True)
        assert "cats" in loaded.key_to_index


def test_eval_reads_analogy_questions_from_standard_input(tmp_path, toy):
    """word2vec's compute-accuracy reads its questions from stdin; ``eval --analogy -`` said
    "evaluation file not found: -"."""
    model = tmp_path / "m.wv"
    assert CliRunner().invoke(main, ["train", str(toy), "-o", str(model), *QUICK]).exit_code == 0
    questions = ": toy\ni like i like\n"
    piped = CliRunner().invoke(main, ["eval", str(model), "--analogy", "-", "--json"],
                               input=questions)  # fmt: skip
    (tmp_path / "q.txt").write_text(questions)
    named = CliRunner().invoke(main, ["eval", str(model), "--analogy", str(tmp_path / "q.txt"),
                                      "--json"])  # fmt: skip
    assert piped.exit_code == 0, piped.output
    assert piped.output.replace('"-"', '"q.txt"') == named.output
    assert '"questions": 1' in piped.output
    twice = CliRunner().invoke(main, ["eval", str(model), "--analogy", "-", "--similarity", "-"])
    assert twice.exit_code == 2 and "standard input ('-') can be read once" in twice.output


@pytest.mark.parametrize("command", ["neighbors", "test"])
def test_a_corpus_named_like_vectors_is_called_what_it_is(tmp_path, toy, command):
    """``neighbors corpus.bin`` said "line 1: not a number" and ``test corpus.bin`` "holds
    word vectors, not a classifier": it holds neither."""
    named = tmp_path / "corpus.bin"
    named.write_bytes(toy.read_bytes())
    result = CliRunner().invoke(main, [command, str(named), str(toy)])
    assert result.exit_code == 1
    assert result.output == (
        "Error: corpus.bin is text but not vectors: its first line is not a word and its numbers "
        "(a corpus? 'wordvec train corpus.bin -o model.wv' trains on it)\n"
    )


@pytest.mark.parametrize(
    "text, given, message",
    [(b"I like\0 cats\n", [], "standard input looks like a binary file (it contains NUL bytes)"),
     (b"I like\0 cats\n", ["--encoding-errors", "replace"],
      "standard input looks like a binary file (it contains NUL bytes)"),
     (b"I like \xff cats\n", [], "standard input holds bytes that are not plain UTF-8 text; save "
      "it to a file and read that (to see where, or with --encoding-errors replace)"),
     (b"I like \xff cats\n", ["--encoding-errors", "replace"], "standard input holds bytes that "
      "are not plain UTF-8 text; --encoding-errors replace reads them from a file, not from a "
      "stream")],
)  # fmt: skip
def test_bytes_on_standard_input_are_named_for_what_they_are(tmp_path, text, given, message):
    """NUL bytes on standard input were 'not plain UTF-8' with the advice to pass
    --encoding-errors replace, the option just given."""
    out = tmp_path / "m.wv"
    result = CliRunner().invoke(main, ["train", "-", "-o", str(out), *QUICK, *given],
                                input=text * 3)  # fmt: skip
    assert result.exit_code == 1 and result.output == f"Error: {message}\n"
    assert not out.exists()


def test_a_classifier_reads_text_with_the_encoding_errors_it_was_trained_with(tmp_path):
    """test, predict and embed had no --encoding-errors for a model trained with it."""
    labelled = tmp_path / "l.txt"
    labelled.write_bytes(b"__label__a I like \xff cats\n__label__b I like dogs\n" * 3)
    model = tmp_path / "clf.wv"
    training = ["--model", "supervised", *QUICK, "--encoding-errors", "replace"]
    result = CliRunner().invoke(main, ["train", str(labelled), "-o", str(model), *training])
    assert result.exit_code == 0, result.output
    for command in ("test", "predict", "embed"):
        strict = CliRunner().invoke(main, [command, str(model), str(labelled)])
        assert strict.exit_code == 1 and strict.output.endswith(
            "if it is text, pass --encoding-errors replace\n"
        )
        replaced = CliRunner().invoke(
            main, [command, str(model), str(labelled), "--encoding-errors", "replace"]
        )
        assert replaced.exit_code == 0, replaced.output


@pytest.fixture(scope="module")
def tiny_classifier(tmp_path_factory):
    import wordvec

    from .conftest import TOY_LINES

    folder = tmp_path_factory.mktemp("clf")
    labelled = folder / "l.txt"
    labelled.write_text("".join(f"__label__l{i % 2} {line}\n" for i, line in enumerate(TOY_LINES)))
    wordvec.train(labelled, model="supervised", dim=4, epochs=1, threads=1, min_count=1,
                  quiet=True).save(folder / "clf.wv")  # fmt: skip
    return folder / "clf.wv"


CLI = [sys.executable, "-c", "from wordvec.cli import main; main()"]


def test_a_named_pipe_is_answered_line_by_line(tiny_classifier, tmp_path):
    """A FIFO given as a path was read 1,024 lines at a time; --help promises pipes' lines
    are answered as they come."""
    import os
    import subprocess

    fifo = tmp_path / "lines"
    os.mkfifo(fifo)
    process = subprocess.Popen([*CLI, "predict", str(tiny_classifier), str(fifo)],
                               stdout=subprocess.PIPE, text=True)  # fmt: skip
    with open(fifo, "w") as writer:
        writer.write("I like cats\n")
        writer.flush()
        first = process.stdout.readline()  # blocks until answered: the pipe stays open
        assert first.startswith("__label__l")
        writer.write("I like dogs\n")
    assert process.stdout.readline().startswith("__label__l")
    assert process.wait(timeout=60) == 0


def test_an_interrupted_predict_does_not_deny_what_it_printed(tiny_classifier):
    """After answers were printed, Ctrl-C said "no output was written"."""
    import subprocess

    process = subprocess.Popen([*CLI, "predict", str(tiny_classifier), "-"], text=True,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)  # fmt: skip
    process.stdin.write("I like cats\n")
    process.stdin.flush()
    assert process.stdout.readline().startswith("__label__l")
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130
    assert stderr.strip() == "Error: interrupted; no output file was written"


def test_init_vectors_of_another_dimension_are_refused_before_the_corpus_is_read(
    toy, tmp_path, monkeypatch
):
    """The mismatch was reported after the whole corpus was read."""
    import wordvec.training

    def read_corpus(*args, **kwargs):
        raise AssertionError("the corpus was read first")

    monkeypatch.setattr(wordvec.training, "read_corpus", read_corpus)
    for name, text in [("i.vec", "1 3\ni 1 2 3\n"), ("i.txt", "i 1 2 3\n")]:
        (tmp_path / name).write_text(text)
        given = ["--init-vectors", str(tmp_path / name), *QUICK]
        result = CliRunner().invoke(main, ["train", str(toy), "-o", str(tmp_path / "m.wv"), *given])
        assert result.output == (
            f"Error: --init-vectors {tmp_path / name} has 3 dimensions; train with --dim 3\n"
        )


def test_a_full_disk_is_found_before_training_and_named(toy, tmp_path, monkeypatch):
    """A full disk said "No space left on device" with no path, and for train only after
    training."""
    import errno
    import shutil
    from collections import namedtuple
    from pathlib import Path

    from wordvec.runtime import atomic

    usage, real = namedtuple("usage", "total used free"), shutil.disk_usage

    def full_there(path):  # the output's folder is full; the scratch space is not
        return usage(10**6, 10**6 - 10, 10) if Path(path) == tmp_path else real(path)

    monkeypatch.setattr(atomic.shutil, "disk_usage", full_there)
    out = tmp_path / "m.wv"
    result = CliRunner().invoke(main, ["train", str(toy), "-o", str(out), *QUICK])
    assert result.exit_code == 1 and result.output.startswith("Error: the model will take about ")
    assert f"MB at {out}, but {tmp_path} has 0 MB free; free some space or choose another -o\n" in (
        result.output
    )
    assert not out.exists()
    with pytest.raises(OSError) as raised, atomic.atomic_write(tmp_path / "v.txt", "w") as file:
        file.write("x")
        raise OSError(errno.ENOSPC, "No space left on device")  # as a write that fails
    assert raised.value.filename == str(tmp_path / "v.txt")
    assert [path.name for path in tmp_path.iterdir()] == ["toy.txt"]
