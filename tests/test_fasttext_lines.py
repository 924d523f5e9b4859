"""fastText's command lines typed as its docs write them, with ``fasttext`` replaced by
``wordvec`` (its supervised tutorial: train, test, predict, predict-prob, a better model,
multi-label, quantize, autotune; its word-vector tutorial's skipgram and cbow): each command
runs, writes fastText's files, and fastText's own package reads them with our answers."""

from __future__ import annotations

import gzip

import numpy as np
import pytest
from click.testing import CliRunner

from wordvec.cli import main

from .conftest import CORPORA, SAMPLE
from .test_supervised import _by_fasttext

fasttext = pytest.importorskip("fasttext")
QUESTION = "Which baking dish is best to bake a banana bread ?"


@pytest.fixture(scope="module")
def tutorial(tmp_path_factory):
    """A folder holding the tutorial's cooking.train and cooking.valid, as its docs split
    them (12,404 and 3,000 questions), and a slice of the English sample as data.txt."""
    folder = tmp_path_factory.mktemp("tutorial")
    for part in ("train", "valid"):
        (folder / f"cooking.{part}").write_bytes(
            gzip.decompress((CORPORA / f"cooking.{part}.gz").read_bytes())
        )
    (folder / "data.txt").write_bytes(gzip.decompress(SAMPLE.read_bytes())[:1_000_000])
    return folder


def typed(folder, line: str, stdin: str | None = None):
    """``line`` (a fastText command line, ``fasttext`` replaced by ``wordvec``) run in
    ``folder``: the result, stdout apart."""
    import os

    assert line.startswith("wordvec ")
    before = os.getcwd()
    os.chdir(folder)
    try:
        return CliRunner().invoke(main, line.split()[1:], input=stdin)
    finally:
        os.chdir(before)


def figures(output: str) -> dict[str, str]:
    return dict(line.split("\t") for line in output.splitlines() if "\t" in line)


def test_the_supervised_tutorial_as_typed(tutorial):
    run = typed(tutorial, "wordvec supervised -input cooking.train -output model_cooking")
    assert run.exit_code == 0, run.output
    theirs = fasttext.load_model(str(tutorial / "model_cooking.bin"))
    vec = (tutorial / "model_cooking.vec").read_text(encoding="utf-8").splitlines()
    assert vec[0] == f"{len(theirs.words)} 100"
    word, *values = vec[1].split()
    np.testing.assert_allclose(np.array(values, dtype=float), theirs[word], atol=1e-5)

    run = typed(tutorial, "wordvec test model_cooking.bin cooking.valid")
    n, precision, recall = theirs.test(str(tutorial / "cooking.valid"))
    assert figures(run.stdout) == {"N": str(n), "P@1": f"{precision:.3g}", "R@1": f"{recall:.3g}"}
    run = typed(tutorial, "wordvec test model_cooking.bin cooking.valid 5")
    assert set(figures(run.stdout)) == {"N", "P@5", "R@5"}

    run = typed(tutorial, "wordvec predict model_cooking.bin - 3", stdin=QUESTION + "\n")
    labels, probabilities = theirs.predict(QUESTION, k=3)
    assert run.stdout.split() == list(labels)  # labels only, as fastText's predict
    run = typed(tutorial, "wordvec predict-prob model_cooking.bin - 2", stdin=QUESTION + "\n")
    fields = run.stdout.split()
    assert fields[::2] == list(labels[:2])
    np.testing.assert_allclose(np.array(fields[1::2], dtype=float), probabilities[:2], atol=1e-4)


def test_a_better_model_then_quantized_as_typed(tutorial):
    line = ("wordvec supervised -input cooking.train -output model_cooking -lr 1.0 -epoch 25 "
            "-wordNgrams 2 -bucket 200000 -dim 50 -loss hs")  # fmt: skip
    assert typed(tutorial, line).exit_code == 0
    full = figures(typed(tutorial, "wordvec test model_cooking.bin cooking.valid").stdout)
    assert float(full["P@1"]) > 0.5  # fastText's tutorial: 0.585 (ours and its vary by run)
    line = (
        "wordvec quantize -input cooking.train -output model_cooking -qnorm -retrain -cutoff 100000"
    )
    run = typed(tutorial, line)
    assert run.exit_code == 0, run.output
    small, big = tutorial / "model_cooking.ftz", tutorial / "model_cooking.bin"
    assert small.stat().st_size < big.stat().st_size / 10
    n, precision, _ = fasttext.load_model(str(small)).test(str(tutorial / "cooking.valid"))
    assert n == 3000 and abs(precision - float(full["P@1"])) < 0.02


def test_multi_label_as_typed(tutorial):
    line = ("wordvec supervised -input cooking.train -output model_cooking -lr 0.5 -epoch 25 "
            "-wordNgrams 2 -bucket 200000 -dim 50 -loss one-vs-all")  # fmt: skip
    assert typed(tutorial, line).exit_code == 0
    theirs = fasttext.load_model(str(tutorial / "model_cooking.bin"))
    run = typed(tutorial, "wordvec predict-prob model_cooking.bin - -1 0.5", stdin=QUESTION + "\n")
    labels, _ = theirs.predict(QUESTION, k=-1, threshold=0.5)
    assert run.exit_code == 0 and run.stdout.split()[::2] == list(labels)
    run = typed(tutorial, "wordvec test model_cooking.bin cooking.valid -1 0.5")
    assert run.exit_code == 0 and set(figures(run.stdout)) == {"N", "P@-1", "R@-1"}


def test_autotune_as_typed(tutorial):
    line = ("wordvec supervised -input cooking.train -output model_cooking -autotune-validation "
            "cooking.valid -autotune-duration 3")  # fmt: skip
    assert typed(tutorial, line).exit_code == 0
    assert (
        fasttext.load_model(str(tutorial / "model_cooking.bin")).test(
            str(tutorial / "cooking.valid")
        )[1]
        > 0.1
    )  # a few trials in 3 s: chance is 0.003 (645 labels)
    sized = line.replace("-duration 3", "-duration 10")  # each trial quantized: longer
    run = typed(tutorial, sized + " -autotune-modelsize 2M")
    assert run.exit_code == 0, run.output
    small = tutorial / "model_cooking.ftz"
    assert small.stat().st_size <= 2_000_000 and fasttext.load_model(str(small)).is_quantized()


@pytest.mark.parametrize("command", ["skipgram", "cbow"])
def test_word_vectors_as_typed(tutorial, command):
    line = f"wordvec {command} -input data.txt -output model -epoch 1 -dim 20 -bucket 20000"
    run = typed(tutorial, line)
    assert run.exit_code == 0, run.output
    theirs = fasttext.load_model(str(tutorial / "model.bin"))
    assert theirs.get_dimension() == 20 and theirs.get_subwords("the")[0][0] == "the"
    vec = (tutorial / "model.vec").read_text(encoding="utf-8").splitlines()
    assert vec[0] == f"{len(theirs.words)} 20"
    word, *values = vec[2].split()
    np.testing.assert_allclose(np.array(values, dtype=float), theirs[word], atol=1e-5)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("wordvec supervised -input cooking.train", "-output NAME is required"),
        ("wordvec supervised", "supervised -input FILE -output NAME [ARGUMENTS]"),
        ("wordvec supervised -output m", "-input FILE is required"),
        ("wordvec supervised -input cooking.train -output m -epoch x",
         "-epoch takes a whole number, not 'x'"),
        ("wordvec supervised -input cooking.train -output m -epoch", "-epoch needs a value"),
        ("wordvec supervised -input cooking.train -output m -size 5",
         "-size is not an argument of fastText's supervised"),
        ("wordvec supervised -input cooking.train -output m -dim 5 -dim 6", "-dim is given twice"),
        ("wordvec supervised -input cooking.train -output m -saveOutput", "'wordvec export MODEL"),
        ("wordvec skipgram -input data.txt -output m -autotune-duration 5",
         "-autotune-duration is not an argument of fastText's skipgram"),
        ("wordvec supervised -input cooking.train -output m -lr -1", "lr must be in (0, 10)"),
        ("wordvec supervised -input cooking.train -output missing/m", "does not exist"),
        ("wordvec quantize -output absent", "absent.bin"),
        ("wordvec quantize -output m -retrain", "-retrain trains on -input FILE"),
        ("wordvec quantize -output m -dim 5", "-dim is not an argument of fastText's quantize"),
    ],
)  # fmt: skip
def test_fasttexts_command_lines_get_one_line_errors(tutorial, line, message):
    run = typed(tutorial, line)
    assert run.exit_code in (1, 2) and message in run.output, run.output
    said = "Error: " if line != "wordvec supervised" else "fastText's arguments: "
    assert said in run.output and "Traceback" not in run.output


def test_fasttexts_own_bin_quantized_as_fasttext_quantizes_it(tutorial, tmp_path):
    """fastText's .bin classifier quantized by wordvec (CLI and package face): fastText scores
    it no more than 0.01 below either its own quantization of the same file or the file
    itself, and it is no larger. One-sided: retraining makes both quantizations vary (20
    rounds here: fastText's 0.560-0.567, ours 0.562-0.569, ours the higher by 0.004 in the
    median), and a CI run failed a two-sided bound on ours scoring 0.011 above fastText's."""
    from wordvec import fasttext as face

    train, valid = str(tutorial / "cooking.train"), str(tutorial / "cooking.valid")
    model = _by_fasttext(fasttext.train_supervised, train, lr=1.0, epoch=10, wordNgrams=2,
                         bucket=200000, dim=50, seed=1)  # fmt: skip
    original = tmp_path / "ft.bin"
    model.save_model(str(original))
    unquantized = model.test(valid)[1]
    # 20,000 rows kept: fastText spent ~29 of its 33 s at 100,000 in its product quantizer's
    # k-means (measured), which this test does not need to be long to compare
    settings = dict(input=train, qnorm=True, retrain=True, cutoff=20000)
    model = fasttext.load_model(str(original))  # from the file, as ours: the file's settings
    model.quantize(**settings)
    model.save_model(str(tmp_path / "theirs.ftz"))
    ours = face.load_model(str(original))
    ours.quantize(**settings)
    ours.save_model(str(tmp_path / "face.ftz"))
    run = CliRunner().invoke(main, ["quantize", str(original), "-o", str(tmp_path / "cli.ftz"),
                                    "--cutoff", "20000", "--retrain", "--input", train,
                                    "--qnorm", "-q"])  # fmt: skip
    assert run.exit_code == 0, run.output
    theirs = fasttext.load_model(str(tmp_path / "theirs.ftz")).test(valid)[1]
    for name in ("face.ftz", "cli.ftz"):
        path = tmp_path / name
        score = fasttext.load_model(str(path)).test(valid)[1]
        assert score >= max(theirs, unquantized) - 0.01, (name, score, theirs, unquantized)
        assert path.stat().st_size <= (tmp_path / "theirs.ftz").stat().st_size, name
