"""The command line end to end with click's CliRunner: outputs, files and exact errors."""

import errno
import gzip
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
from click.testing import CliRunner

from wordvec.cli import main
from wordvec.formats import load_vectors
from wordvec.model import Model

from .conftest import ANALOGIES, SAMPLE, WS353


@pytest.fixture(scope="module")
def small_corpus(tmp_path_factory):
    """The first 60k words of the bundled corpus, in lines of 1,000 words."""
    with gzip.open(SAMPLE, "rt", encoding="utf-8") as f:
        words = f.read(400_000).split()[:60_000]
    path = tmp_path_factory.mktemp("corpus") / "small.txt"
    path.write_text("\n".join(" ".join(words[i : i + 1000]) for i in range(0, 60_000, 1000)))
    return path


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def train_args(corpus, out, *extra):
    return ("train", corpus, "-o", out, "--epochs", "1", "--threads", "1", "-q", *extra)


def test_train_neighbors_export_reload(tmp_path, small_corpus):
    out = tmp_path / "m.wv"
    result = run(*train_args(small_corpus, out, "--dim", "16", "--model", "cbow"))
    assert result.exit_code == 0, result.output
    model = Model.load(out)
    assert model.vectors.shape[1] == 16 and model.settings["model"] == "cbow"
    assert model.settings["alpha"] == 0.05

    result = run("neighbors", out, "the", "of", "-k", "3")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0] == "the" and lines[4] == "of" and len(lines) == 8
    assert lines[1].split()[0] == "1" and float(lines[1].split()[2]) <= 1.0

    result = run("neighbors", out, "--analogy", "he", "his", "she", "-k", "2")
    assert result.exit_code == 0 and result.output.startswith("he : his :: she : ?\n")

    result = run("neighbors", out, input="the\n\nhe his she\n")
    assert result.exit_code == 0
    assert result.output.splitlines()[0] == "the" and "he : his :: she : ?" in result.output

    original = model.wv
    for fmt in ("word2vec", "word2vec-binary", "glove", "vec", "tsv", "npy"):
        target = tmp_path / ("p.tsv" if fmt == "tsv" else f"v-{fmt}")
        result = run("export", out, target, "--format", fmt)
        assert result.exit_code == 0, result.output
        loaded = load_vectors(target)
        assert loaded.words == original.words
        np.testing.assert_allclose(loaded.vectors, original.vectors, rtol=1e-5, atol=1e-6)
        # and the exported file is itself queryable
        assert run("neighbors", target, "the", "-k", "1").exit_code == 0


def test_seed_with_one_thread_is_byte_identical(tmp_path, small_corpus):
    paths = [tmp_path / name for name in ("a.wv", "b.wv", "c.wv")]
    for path, seed in zip(paths, (7, 7, 8)):
        assert run(*train_args(small_corpus, path, "--seed", seed, "--dim", 20)).exit_code == 0
    a, b, c = (Model.load(p) for p in paths)
    assert np.asarray(a.vectors).tobytes() == np.asarray(b.vectors).tobytes()
    assert np.asarray(a.arrays["w_out"]).tobytes() == np.asarray(b.arrays["w_out"]).tobytes()
    assert not np.array_equal(a.vectors, c.vectors)


def test_failed_run_keeps_earlier_output(tmp_path, small_corpus):
    out = tmp_path / "m.wv"
    out.write_bytes(b"earlier model")
    result = run(*train_args(small_corpus, out, "--alpha", "9"))
    assert result.exit_code == 1
    assert result.output == (
        "Error: training diverged in epoch 1 (NaN or infinite values); try a lower --alpha than 9\n"
    )
    assert out.read_bytes() == b"earlier model"
    assert [p.name for p in tmp_path.iterdir()] == ["m.wv"]  # no temporary files left


def test_eval_file_that_is_not_utf8_is_one_line(tmp_path, sample_model):
    pairs = tmp_path / "pairs.txt"
    pairs.write_bytes(b"king queen 5\nk\xf6nig queen 6\n")
    for option in ("--similarity", "--analogy"):
        result = run("eval", sample_model, option, pairs)
        assert (result.exit_code, result.output) == (
            1, "Error: pairs.txt is not UTF-8 text\n"
        )  # fmt: skip


def test_missing_tmp_dir_is_a_usage_error(tmp_path, small_corpus):
    result = run(*train_args(small_corpus, tmp_path / "m.wv", "--tmp-dir", tmp_path / "nope"))
    assert result.exit_code == 2
    assert f"Directory '{tmp_path / 'nope'}' does not exist" in result.output


def test_output_may_not_be_an_input(tmp_path, small_corpus, sample_model):
    corpus = tmp_path / "c.txt"
    corpus.write_bytes(small_corpus.read_bytes())
    result = run(*train_args(corpus, corpus))
    assert (result.exit_code, result.output) == (
        1, f"Error: the output {corpus} is the input file {corpus}; choose another\n"
    )  # fmt: skip
    assert corpus.read_bytes() == small_corpus.read_bytes()
    link = tmp_path / "link.wv"
    link.symlink_to(sample_model)  # the same file under another name
    result = run("export", sample_model, link, "--format", "npy")
    assert result.exit_code == 1 and "is the input file" in result.output


def test_symlinked_output_is_followed(tmp_path, small_corpus):
    target, link = tmp_path / "target.wv", tmp_path / "link.wv"
    target.write_bytes(b"earlier")
    link.symlink_to(target)
    assert run(*train_args(small_corpus, link)).exit_code == 0
    assert link.is_symlink()
    assert Model.load(target).vectors.shape[0] > 0


def test_non_regular_output_is_refused_before_training(tmp_path, small_corpus):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    result = run(*train_args(small_corpus, fifo))
    assert result.exit_code == 1
    message = f"Error: {fifo} is not a regular file; wordvec writes only regular files\n"
    assert result.output == message
    assert fifo.is_fifo()


def test_unwritable_output_directory_fails_before_training(tmp_path, small_corpus, monkeypatch):
    """(Root ignores permission bits, so the refusal is simulated.)"""
    import wordvec.runtime.atomic

    def refuse(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(wordvec.runtime.scratch.tempfile, "mkstemp", refuse)
    started = time.monotonic()
    result = run(*train_args(small_corpus, tmp_path / "m.wv"))
    assert result.output == f"Error: cannot write to {tmp_path}: Permission denied\n"
    assert time.monotonic() - started < 1  # before reading the corpus, let alone training


def test_os_error_while_writing_is_one_line_and_keeps_the_earlier_file(
    tmp_path, sample_model, monkeypatch
):
    import wordvec.runtime.atomic

    out = tmp_path / "v.txt"
    out.write_text("earlier")

    def full_disk(source, target):
        raise OSError(errno.ENOSPC, "No space left on device", str(target))

    monkeypatch.setattr(wordvec.runtime.atomic.os, "replace", full_disk)
    result = run("export", sample_model, out, "--format", "word2vec")
    assert (result.exit_code, result.output) == (1, f"Error: {out}: No space left on device\n")
    assert out.read_text() == "earlier"
    assert [p.name for p in tmp_path.iterdir()] == ["v.txt"]


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_termination_cleans_up_as_ctrl_c_does(tmp_path, number):
    """The encoded corpus (4 bytes a token in --tmp-dir) is removed, no model is written."""
    work, out = tmp_path / "work", tmp_path / "m.wv"
    work.mkdir()
    command = [sys.executable, "-c", "from wordvec.cli import main; main()", "train",
               str(SAMPLE), "-o", str(out), "--tmp-dir", str(work), "--epochs", "50",
               "--threads", "1", "-q"]  # fmt: skip
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not list(work.rglob("ids.i32")) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert list(work.rglob("ids.i32")), "the corpus was never encoded"
    process.send_signal(number)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert "Error: interrupted" in stderr and "no output" in stderr  # after N epochs, or before
    assert list(work.iterdir()) == [] and not out.exists()


@pytest.mark.parametrize("save", [False, True])
def test_ctrl_c_says_how_far_training_got_and_can_save_the_model_so_far(
    tmp_path, small_corpus, monkeypatch, save
):
    """Ctrl-C at epoch 4 of 50 kept nothing and did not say how far it got. A real SIGINT,
    sent at the end of the second epoch of five."""
    from wordvec.training import runner

    def interrupt_after_two(end):
        if end.epoch == 2:
            os.kill(os.getpid(), signal.SIGINT)

    monkeypatch.setattr(runner, "_call_back", interrupt_after_two)
    out = tmp_path / "m.wv"
    extra = ["--save-on-interrupt"] if save else []
    result = run("train", small_corpus, "-o", out, "--epochs", "5", "--threads", "1", "-q", *extra)
    assert result.exit_code == 130
    said = result.output.strip().splitlines()[-1]
    if save:
        assert (
            said
            == f"Error: interrupted after 2 of 5 epochs; saved the model trained so far to {out}"
        )
        assert Model.load(out).wv.most_similar("king", k=1)
    else:
        assert said == ("Error: interrupted after 2 of 5 epochs; no output was written "
                        "(--save-on-interrupt saves the model trained so far)")  # fmt: skip
        assert not out.exists()


@pytest.mark.parametrize(
    ("content", "extra", "message"),
    [
        (None, (), "Error: corpus file not found: {corpus}"),
        (b"", (), "Error: corpus file is empty: {corpus}"),
        (
            b"\x89PNG\r\n\x1a\n\x00\x00\x00",
            (),
            "Error: c.txt is not UTF-8 text (invalid start byte, byte 0x89); "
            "if it is text, pass --encoding-errors replace",
        ),
        (
            b"one two three\n",
            (),
            "Error: no word occurs at least 5 times (--min-count); "
            "the most frequent occurs 1 times",
        ),
        (
            b"a b c\n",
            ("--dim", "0"),
            "Error: Invalid value for '--dim': 0 is not in the range x>=1.",
        ),
        (
            b"a b c\n",
            ("--model", "glove2"),
            "Error: Invalid value for '--model': 'glove2' is not one of 'sg', 'cbow', "
            "'fasttext', 'doc2vec', 'glove', 'ppmi-svd', 'supervised'.",
        ),
        (
            b"a b c\n",
            ("--sample", "2"),
            "Error: Invalid value for '--sample': 2.0 is not in the range 0<=x<1.",
        ),
        (
            b"a a a a a b\n",
            ("--loss", "ns", "--negative", "0"),
            "Error: --negative must be at least 1 with --loss ns",
        ),
        (
            b"a a a a a b\n",
            ("--negative", "1000"),
            "Error: Invalid value for '--negative': 1000 is not in the range 0<=x<=999.",
        ),
        (
            b"a b c\n",
            ("--seed", "-1"),
            "Error: Invalid value for '--seed': -1 is not in the range x>=0.",
        ),
        (
            b"a a a a a b\n",
            ("--model", "cbow", "--shared-negatives"),
            "Error: --shared-negatives does not apply to --model cbow "
            "(only to sg, fasttext, doc2vec)",
        ),
        (
            b"a a a a a b\n",
            ("--loss", "hs", "--per-pair-negatives"),
            "Error: --per-pair-negatives does not apply with --loss hs "
            "(only --loss ns or --loss hs+ns)",
        ),
        (
            b"a a a a a b\n",
            ("--model", "fasttext", "--arch", "cbow", "--shared-negatives"),
            "Error: --shared-negatives does not apply with --arch cbow (only --arch sg)",
        ),
        (
            b"a a a a a b\n",
            ("--arch", "cbow"),
            "Error: --arch does not apply to --model sg (only to fasttext, doc2vec)",
        ),
        (
            b"a a a a a b\n",
            ("--model", "fasttext", "--neg", "10"),
            "Error: --neg does not apply to --model fasttext (only to ppmi-svd)",
        ),
        (
            b"a a a a a b\n",
            ("--loss", "hs", "--negative", "5"),
            "Error: --negative does not apply with --loss hs (only --loss ns or --loss hs+ns)",
        ),
        (
            b"a a a a a b\n",
            ("--model", "glove", "--cds", "0.5"),
            "Error: --cds does not apply to --model glove (only to ppmi-svd)",
        ),
        (
            b"a a a a a b\n",
            ("--asymmetric",),
            "Error: --asymmetric does not apply to --model sg (only to glove, ppmi-svd)",
        ),
    ],
)
def test_train_errors(tmp_path, content, extra, message):
    corpus = tmp_path / "c.txt"
    if content is not None:
        corpus.write_bytes(content)
    result = run(*train_args(corpus, tmp_path / "m.wv", *extra))
    assert result.exit_code != 0
    assert result.output.strip().splitlines()[-1] == message.format(corpus=corpus)
    assert "Traceback" not in result.output
    assert not (tmp_path / "m.wv").exists()


def test_train_into_missing_directory(tmp_path, small_corpus):
    result = run(*train_args(small_corpus, tmp_path / "nope" / "m.wv"))
    assert result.exit_code == 1
    assert result.output == f"Error: output directory does not exist: {tmp_path / 'nope'}\n"


def test_neighbors_errors(tmp_path, sample_model):
    result = run("neighbors", sample_model, "king", "xyzzy")
    assert result.exit_code == 1
    assert result.output == "Error: 'xyzzy' is not in the vocabulary (12,353 words)\n"

    truncated = tmp_path / "cut.wv"
    truncated.write_bytes(sample_model.read_bytes()[:-1000])
    result = run("neighbors", truncated, "king")
    assert result.output == "Error: cut.wv is truncated (array 'w_out' is cut short)\n"

    garbage = tmp_path / "garbage.bin"
    garbage.write_bytes(bytes(range(256)) * 8)
    result = run("neighbors", garbage, "king")
    assert result.output == (
        "Error: garbage.bin is not a vector file wordvec knows (binary data)\n"
    )

    result = run("neighbors", tmp_path / "missing.wv", "king")
    assert result.output == f"Error: file not found: {tmp_path / 'missing.wv'}\n"

    result = run("neighbors", sample_model, "-k", "2", input="king queen\n")  # word2vec's distance
    summed = Model.load(sample_model).wv.most_similar(["king", "queen"], k=2)
    assert result.output.splitlines()[0] == "king + queen"
    assert [line.split() for line in result.output.splitlines()[1:]] == [
        [str(rank), word, f"{score:.4f}"] for rank, (word, score) in enumerate(summed, start=1)
    ]

    result = run("neighbors", sample_model, "king", "-k", "0")
    assert result.exit_code == 2 and "Error: Invalid value for '-k'" in result.output


def test_export_errors(tmp_path, sample_model):
    result = run("export", sample_model, tmp_path / "x.txt", "--format", "pickle")
    assert result.exit_code == 2 and "Error: Invalid value for '-f' / '--format'" in result.output
    result = run("export", sample_model, tmp_path / "no" / "x.txt")
    assert result.output == f"Error: output directory does not exist: {tmp_path / 'no'}\n"


def test_cli_import_does_not_load_numba():
    import subprocess
    import sys

    code = "import sys, wordvec.cli, wordvec.formats, wordvec.model; print('numba' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"


@pytest.mark.slow  # compiles every kernel afresh in a process of its own
def test_no_writable_numba_cache_runs_with_a_temporary_one(tmp_path):
    """Where numba can cache neither beside wordvec nor in the user's cache (a read-only
    install, no home directory), kernels compile into a temporary cache, with one warning.
    Simulated by leaving numba only the locator that NUMBA_CACHE_DIR feeds, unset (as root,
    permissions cannot be taken away). ``predict`` runs the classifier's kernels, the fewest
    of any command (training compiles for ~30 s here)."""
    import os
    import subprocess
    import sys

    labelled = tmp_path / "labelled.txt"
    labelled.write_text("__label__a x y\n__label__b z w\n" * 50, encoding="utf-8")
    model = tmp_path / "clf.wv"
    result = run("train", labelled, "-o", model, "--model", "supervised", "--dim", "4", "-q")
    assert result.exit_code == 0, result.output
    code = (
        "import sys; from numba.core import caching; "
        "caching.CacheImpl._locator_classes = [caching.UserProvidedCacheLocator]; "
        "from wordvec.cli import main; sys.argv = ['wordvec'] + sys.argv[1:]; main()"
    )
    environment = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    result = subprocess.run(
        [sys.executable, "-c", code, "predict", str(model)], input="x y\n",
        capture_output=True, text=True, env=environment,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stderr == (
        "warning: numba cannot cache compiled code here; using a temporary cache, so kernels "
        "compile on every run (set NUMBA_CACHE_DIR to a writable directory)\n"
    )
    assert result.stdout == "__label__a\n"


def test_a_cache_index_naming_a_type_since_gone_is_compiled_again(tmp_path):
    """An upgrade of wordvec can leave numba cache indexes that name a kernel argument's type
    which the new code no longer has; numba unpickles an index before it checks that it is
    stale, and would raise at the first call. With the kernels imported, the stale index is
    read as empty and the kernel compiles again."""
    import subprocess
    import sys

    module = tmp_path / "upgraded.py"
    kernel = (
        "from typing import NamedTuple\nimport numpy as np\nfrom numba import njit\n"
        "class {name}(NamedTuple):\n    x: np.ndarray\n"
        "@njit(cache=True)\ndef first(t):\n    return t.x[0]\n"
    )
    call = "import numpy as np, upgraded; print(upgraded.first(upgraded.{name}(np.ones(1))))"

    def run_with(name, preamble=""):
        module.write_text(kernel.format(name=name), encoding="utf-8")
        return subprocess.run(
            [sys.executable, "-c", preamble + call.format(name=name)],
            capture_output=True, text=True, cwd=tmp_path,
        )  # fmt: skip

    assert run_with("Gone").stdout == "1.0\n"  # its index names upgraded.Gone
    renamed = run_with("Kept", "import wordvec.kernels; ")
    assert (renamed.returncode, renamed.stdout) == (0, "1.0\n"), renamed.stderr


def test_eval_defaults_table_and_json(sample_model):
    result = run("eval", sample_model)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].split() == ["similarity", "spearman", "pairs", "covered"]
    assert lines[1].startswith("EN-WS-353-ALL.txt") and lines[1].endswith("263/353")
    assert "analogy questions-words.txt:" in result.output
    assert [line.split()[0] for line in lines[-3:]] == ["semantic", "syntactic", "overall"]
    sections = run("eval", sample_model, "--analogy", ANALOGIES, "--sections").output
    assert "  gram8-plural " in sections and "  capital-world " in sections

    result = run("eval", sample_model, "--json", "--similarity", WS353, "--restrict", "5000")
    import json

    report = json.loads(result.output)
    assert report["analogy"] == []
    assert report["similarity"][0]["covered"] == 263
    assert report["similarity"][0]["oov_pairs"] == 90
    assert 0.1 < report["similarity"][0]["spearman"] < 0.6


def test_eval_errors(tmp_path, sample_model):
    bad = tmp_path / "bad.txt"
    bad.write_text("a b 1\r\nc d\r\n")
    result = run("eval", sample_model, "--similarity", bad)
    assert result.output == "Error: bad.txt, line 2: expected 'word1 word2 score'\n"
    result = run("eval", sample_model, "--analogy", tmp_path / "none.txt")
    assert result.output == f"Error: evaluation file not found: {tmp_path / 'none.txt'}\n"


def test_plot_command(tmp_path, sample_model):
    pytest.importorskip("matplotlib")
    out = tmp_path / "groups.svg"
    result = run(
        "plot", sample_model, "king", "-o", out, "--group", "n=one,two,three", "--top", "5"
    )
    assert result.exit_code == 0, result.output
    assert out.read_bytes().startswith(b"<?xml")
    result = run("plot", sample_model, "king", "xyzzy", "-o", tmp_path / "x.png")
    assert result.output == "Error: 'xyzzy' is not in the vocabulary (12,353 words)\n"
    result = run("plot", sample_model, "-o", tmp_path / "x.png", "--group", "oops")
    assert result.output == "Error: --group takes NAME=WORD1,WORD2,..., not 'oops'\n"


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        (("--size", "100"), "Error: --size is word2vec's name; use --dim"),
        (("-iter", "3"), "Error: -iter is word2vec's name; use --epochs"),
        (("-lr", "0.1"), "Error: -lr is fastText's name; use --alpha"),
        (("-minCount", "2"), "Error: -minCount is fastText's name; use --min-count"),
        (("--vector_size", "50"), "Error: --vector_size is gensim's name; use --dim"),
        (("--workers", "4"), "Error: --workers is gensim's name; use --threads"),
        (("-output", "v"), "Error: -output is word2vec and fastText's name; use -o NAME.bin "
         "(fastText's .bin for fasttext and supervised models, word2vec's binary otherwise) or "
         "-o NAME.vec (text)"),
        (("-seed", "3"), "Error: -seed is fastText's name; use --seed"),
        (("-qnorm", "1"), "Error: -qnorm is fastText's name; use 'wordvec quantize MODEL -o "
         "NAME.ftz --qnorm'"),
        (("-save-vocab", "v.txt"), "Error: -save-vocab is word2vec's name; use --save-vocab"),
        (("-read-vocab", "v.txt"), "Error: -read-vocab is word2vec's name; use --read-vocab"),
        (("-pretrainedVectors", "p.vec"),
         "Error: -pretrainedVectors is fastText's name; use --init-vectors"),
        (("-wordNgrams", "2"), "Error: -wordNgrams is fastText's name; use --word-ngrams"),
        (("-lrUpdateRate", "100"), "Error: -lrUpdateRate is fastText's option; wordvec needs "
         "none like it (wordvec lowers the rate every span of 10,000 words)"),
    ],
)  # fmt: skip
def test_peer_option_names_get_wordvecs_name(tmp_path, small_corpus, typed, message):
    result = run("train", small_corpus, "-o", tmp_path / "m.wv", *typed)
    assert result.exit_code == 2
    assert result.output.strip().splitlines()[-1] == message
    result = run("train", small_corpus, "-o", tmp_path / "m.wv", "--bogus")
    assert "No such option '--bogus'" in result.output  # other names: click's own guess


def test_every_peer_name_gets_its_answer_before_click_guesses(tmp_path, small_corpus):
    from wordvec.peer_names import PEER_NAMES, peer_answer

    for name in PEER_NAMES:
        result = run("train", small_corpus, "-o", tmp_path / "m.wv", name, "1")
        expected = f"Error: {peer_answer(name, value='1')}"
        assert result.output.strip().splitlines()[-1] == expected, name


def test_a_word2vec_command_line_is_answered_whole_with_the_values_meaning(tmp_path):
    """Only the first foreign option was answered (ten reruns for a word2vec command line),
    and -hs 0, --sg 0, -binary 0 got an answer that ignored the value."""
    result = run("train", "-train", "X", "-output", "v.txt", "-cbow", "0", "-size", "200",
                 "-hs", "0", "-binary", "1", "--sg=0", "--verbose", "-classes", "5",
                 "-autotune-validation", "v.txt")  # fmt: skip
    assert result.exit_code == 2
    assert result.output.split("Error: ")[1].splitlines() == [
        "-train is word2vec's name; use CORPUS (an argument)",
        "       -output is word2vec and fastText's name; use -o NAME.bin (fastText's .bin for "
        "fasttext and supervised models, word2vec's binary otherwise) or -o NAME.vec (text)",
        "       -cbow 0 is word2vec's; use --model sg (the default)",
        "       -size is word2vec's name; use --dim",
        "       -hs 0 is word2vec's; use --loss ns (the default)",
        "       -binary 1 is word2vec's; use -o NAME.bin (word2vec binary)",
        "       --sg 0 is gensim's; use --model cbow",
        "       --verbose is fastText's option; wordvec needs none like it (a wordvec run "
        "prints progress unless -q)",
        "       -classes is word2vec's option; wordvec needs none like it (wordvec does not "
        "cluster; export the vectors and use scikit-learn's KMeans)",
        "       -autotune-validation is fastText's name; use --autotune-validation",
    ]


def test_neighbors_answers_a_pipe_line_by_line(sample_model):
    """The first answer comes before the second line is sent."""
    import subprocess
    import sys

    process = subprocess.Popen(
        [sys.executable, "-c", "from wordvec.cli import main; main()", "neighbors",
         str(sample_model), "-k", "2"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    process.stdin.write("King\n")
    process.stdin.flush()
    first = [process.stdout.readline() for _ in range(3)]  # blocks until answered
    assert first[0] == "king\n" and first[1].startswith("    1  ")
    process.stdin.write("xyzzy\nqueen\n")
    process.stdin.close()
    rest = process.stdout.read()
    assert rest.startswith("queen\n")
    assert process.wait(timeout=60) == 1  # a line failed, the others were answered
    stderr = process.stderr.read()
    assert "note: 'King' is not in the vocabulary; using 'king'" in stderr
    assert "Error: 'xyzzy' is not in the vocabulary" in stderr


def test_init_vectors_start_the_known_words_from_a_file(tmp_path, sample_model):
    """With a learning rate too small to move them, the words found in the file keep its
    vectors; a file of other dimensions is refused."""
    from wordvec.formats import load_vectors

    vectors = tmp_path / "start.vec"
    assert run("export", sample_model, vectors).exit_code == 0
    out = tmp_path / "m.wv"
    result = run(*train_args(SAMPLE, out, "--init-vectors", vectors, "--alpha", "1e-9"))
    assert result.exit_code == 0, result.output
    start, trained = load_vectors(vectors), load_vectors(out)
    for word in ("king", "paris", "the"):
        np.testing.assert_allclose(trained.vector(word), start.vector(word), atol=1e-5)
    result = run(*train_args(SAMPLE, out, "--init-vectors", vectors, "--dim", "50"))
    assert result.exit_code == 1
    assert result.output.strip().endswith("has 100 dimensions; train with --dim 100")


def test_neighbors_prompts_on_a_terminal_until_an_empty_line(sample_model):
    """On a terminal (a pseudo-terminal here) it prompts, answers, and ends at an empty line."""
    import os
    import pty
    import subprocess
    import sys

    controller, terminal = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-c", "from wordvec.cli import main; main()", "neighbors",
         str(sample_model), "-k", "2"],
        stdin=terminal, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    os.close(terminal)
    os.write(controller, b"paris\n\n")
    out, err = process.communicate(timeout=60)
    os.close(controller)
    assert process.returncode == 0
    assert out.splitlines()[0] == "paris" and len(out.splitlines()) == 3
    prompt = "query (a word, A B C for an analogy, or words to sum; empty line ends): "
    assert err.count(prompt) == 2


def test_every_option_of_fasttexts_help_is_answered(tmp_path, small_corpus):
    """fastText's -h lists these (its 0.9.2 CLI): each is wordvec's option under another name,
    or an answer that names wordvec's way, never click's 'No such option'."""
    fasttext_options = [
        "-input",
        "-output",
        "-verbose",
        "-minCount",
        "-minCountLabel",
        "-wordNgrams",
        "-bucket",
        "-minn",
        "-maxn",
        "-t",
        "-label",
        "-lr",
        "-lrUpdateRate",
        "-dim",
        "-ws",
        "-epoch",
        "-neg",
        "-loss",
        "-thread",
        "-pretrainedVectors",
        "-saveOutput",
        "-seed",
        "-cutoff",
        "-retrain",
        "-qnorm",
        "-qout",
        "-dsub",
        "-autotune-validation",
        "-autotune-metric",
        "-autotune-predictions",
        "-autotune-duration",
        "-autotune-modelsize",
    ]
    for name in fasttext_options:
        result = run("train", small_corpus, "-o", tmp_path / "m.wv", name, "1")
        assert result.exit_code == 2 and "No such option" not in result.output, name
        assert result.output.strip().splitlines()[-1].startswith(f"Error: {name} "), name
