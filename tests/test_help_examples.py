"""Every example in the commands' ``--help`` runs, as written, on the bundled corpora, and does
what it promises: the files it writes exist and load, the neighbours it prints are words with
cosines, the scores it prints are scores.

The examples run in order (train, cooccur, neighbors, export, eval, plot) in one directory,
so that a later command reads what an earlier one wrote; corpus names in them are slices of
the bundled corpora, small enough for the whole file to take seconds per example.
"""

from __future__ import annotations

import gzip
import json
import re
import shlex
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import click
import numpy as np
import pytest
from click.testing import CliRunner

from tests.conftest import ANALOGIES, CORPORA, SAMPLE, WS353
from wordvec.bpe import load_units
from wordvec.cli import main
from wordvec.cooccur.counts import Cooccurrences
from wordvec.formats import detect_format, load_classifier, load_vectors
from wordvec.model import Model

COMMAND_ORDER = (
    "bpe learn",
    "bpe apply",
    "train",
    "supervised",
    "skipgram",
    "cbow",
    "cooccur",
    "index",
    "neighbors",
    "export",
    "eval",
    "plot",
    "test",
    "predict",
    "predict-prob",
    "embed",
    "quantize",
    "phrases",
    "print-word-vectors",
    "print-ngrams",
    "serve",
    "warmup",
)
CORPUS_WORDS = 250_000  # paris, king, france, cat, horse, ... each seen at least 5 times
ZH_CHARACTERS = 150_000


def command_named(name: str) -> click.Command:
    """``main``'s command ``name``, or a group's (``"bpe learn"``)."""
    found = main
    for part in name.split():
        found = found.commands[part]
    return found


def help_examples(command: str) -> list[str]:
    """The example command lines of ``command``'s help, continuation lines joined."""
    epilog = command_named(command).epilog
    block = epilog.split("Examples:\n", 1)[1].split("\n\n", 1)[0]
    return [line.strip() for line in block.replace("\\\n", " ").splitlines() if line.strip()]


EXAMPLES = [(command, line) for command in COMMAND_ORDER for line in help_examples(command)]


def test_every_command_has_examples():
    groups = {name for name, command in main.commands.items() if hasattr(command, "commands")}
    inner = {f"{g} {name}" for g in groups for name in main.commands[g].commands}
    assert (set(main.commands) - groups) | inner == set(COMMAND_ORDER)
    assert all(len(help_examples(command)) >= 3 for command in COMMAND_ORDER)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """The files the examples name: corpora cut from the bundled ones, evaluation files."""
    path = tmp_path_factory.mktemp("examples")
    with gzip.open(SAMPLE, "rt", encoding="utf-8") as sample:
        words = sample.read(12 * CORPUS_WORDS).split()[:CORPUS_WORDS]
    lines = "".join(" ".join(words[i : i + 1000]) + "\n" for i in range(0, len(words), 1000))
    (path / "corpus.txt").write_text(lines, encoding="utf-8")
    with gzip.open(path / "corpus.txt.gz", "wt", encoding="utf-8") as out:
        out.write(lines)
    with gzip.open(CORPORA / "zhwiki-sample.txt.gz", "rt", encoding="utf-8") as sample:
        (path / "zhwiki.txt").write_text(sample.read(ZH_CHARACTERS), encoding="utf-8")
    for part in ("train", "valid"):
        labelled = gzip.decompress((CORPORA / f"cooking.{part}.gz").read_bytes())
        (path / f"cooking.{part}").write_bytes(labelled)
    tagged = (path / "cooking.train").read_text(encoding="utf-8").replace("__label__", "__tag__")
    questions = re.sub(r"__tag__\S+ ", "", tagged)  # a document a line, for doc2vec
    (path / "questions.txt").write_text(questions, encoding="utf-8")
    (path / "new-docs.txt").write_text(questions[:2000], encoding="utf-8")
    (path / "tagged.txt").write_text(tagged, encoding="utf-8")
    shutil.copy(WS353, path / "my-pairs.txt")
    shutil.copy(ANALOGIES, path / "my-questions.txt")
    (path / "wiki-dump").mkdir()
    half = lines.index("\n", len(lines) // 2) + 1  # at a line end
    (path / "wiki-dump" / "part-1.txt").write_text(lines[:half], encoding="utf-8")
    (path / "wiki-dump" / "part-2.txt").write_text(lines[half:], encoding="utf-8")
    (path / "more.txt").write_text(lines[half:], encoding="utf-8")
    shutil.copytree(path / "wiki-dump", path / "shards")
    import sentencepiece  # a SentencePiece BPE model, as BPEmb ships them

    sentencepiece.SentencePieceTrainer.train(input=str(path / "corpus.txt"), model_type="bpe",
                                             model_prefix=str(path / "bpemb"), vocab_size=1000,
                                             max_sentence_length=1 << 16,
                                             minloglevel=2)  # fmt: skip
    rng = np.random.default_rng(1)
    with open(path / "pretrained.vec", "w", encoding="utf-8") as vec:
        vec.write("3 100\n")
        for word in ("the", "king", "paris"):
            vec.write(word + " " + " ".join(f"{x:.4f}" for x in rng.normal(size=100)) + "\n")
    # published files as published: a gzipped word2vec binary, a zip of GloVe text files
    from wordvec.formats import save_vectors
    from wordvec.query.vectors import Vectors

    few = Vectors(["the", "king", "paris"], rng.normal(size=(3, 50)).astype(np.float32))
    save_vectors(few, path / "GoogleNews-vectors-negative300.bin.gz")
    crawl = ["paris", "london", "rome", *(f"w{i}" for i in range(300))]  # fastText's crawl-300d-2M
    save_vectors(Vectors(crawl, rng.normal(size=(len(crawl), 30)).astype(np.float32)),
                 path / "crawl-300d-2M.vec", "word2vec")  # fmt: skip
    with zipfile.ZipFile(path / "glove.6B.zip", "w") as archive:
        for dim in (50, 100):
            save_vectors(Vectors(few.words, np.resize(few.vectors, (3, dim))), path / "g.txt",
                         "glove")  # fmt: skip
            archive.write(path / "g.txt", f"glove.6B.{dim}d.txt")
    return path


def run_example(line: str):
    """Run one example line with click's runner; a ``printf ... |`` or ``zcat ... |`` prefix
    becomes stdin."""
    stdin = None
    if "|" in line:  # printf 'TEXT' | ... or zcat FILE | ...
        feed, line = (part.strip() for part in line.split("|", 1))
        command, argument = shlex.split(feed)[:2]
        if command == "zcat":
            with gzip.open(argument, "rt", encoding="utf-8") as text:
                stdin = text.read()
        else:
            stdin = argument.encode().decode("unicode_escape")
    args = shlex.split(line, comments=True)
    assert args[0] == "wordvec"
    if args[1] == "serve":  # it serves until stopped: started, asked once, stopped
        return _served_once(args[1:])
    if any(arg.startswith("s3://my-bucket/") for arg in args):  # the same files, at a file:// URL
        pytest.importorskip("fsspec")
        local = Path.cwd().as_uri() + "/"
        args = [arg.replace("s3://my-bucket/", local) for arg in args]
    if "--scheduler" in args:  # a real cluster of two workers, at the example's address
        distributed = pytest.importorskip("distributed")
        with distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, dashboard_address=None
        ) as cluster:
            args[args.index("--scheduler") + 1] = cluster.scheduler_address
            return CliRunner().invoke(main, args[1:])
    return CliRunner().invoke(main, args[1:], input=stdin)


def _served_once(args: list[str]):
    """``wordvec serve ARGS`` on a free port, asked for its models, then stopped: a result
    with click's ``exit_code`` and ``stdout`` (the models' listing)."""
    import types
    import urllib.request

    if "--port" in args:
        del args[args.index("--port") : args.index("--port") + 2]
    process = subprocess.Popen([sys.executable, "-m", "wordvec", *args, "--port", "0"],
                               stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        line = process.stderr.readline()
        address = re.search(r"serving at http://\S+:(\d+)/", line)
        assert address, line + process.stderr.read()
        direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        url = f"http://127.0.0.1:{address.group(1)}/api/models"
        with direct.open(url, timeout=30) as response:
            listing = response.read().decode()
    finally:
        process.terminate()
        process.wait(timeout=10)
    return types.SimpleNamespace(exit_code=0, stdout=listing, output=line)


@pytest.fixture(scope="module")
def examples_run(workdir) -> set[int]:
    """The indices of EXAMPLES already run in ``workdir`` (each runs once)."""
    return set()


@pytest.mark.slow  # trains the models the examples name
@pytest.mark.parametrize("index", range(len(EXAMPLES)), ids=[line for _, line in EXAMPLES])
def test_help_example_runs(workdir, examples_run, monkeypatch, index):
    """Runs the example, after the earlier ones whose files it may read."""
    monkeypatch.chdir(workdir)
    for earlier in range(index + 1):
        if earlier not in examples_run:
            examples_run.add(earlier)
            line = EXAMPLES[earlier][1]
            result = run_example(line)
            assert result.exit_code == 0, f"{line}\n{result.output}"
            check_promise(line, result.stdout)


NEIGHBOUR_ROW = re.compile(r"^ +\d+  (\S+) +(-?[01]\.\d{4})$")


def check_promise(line: str, output: str) -> None:
    """What the example promises, beyond exit status 0; ``output`` is what it printed."""
    args = shlex.split(line.split("|")[-1], comments=True)[1:]
    command = args[0]
    written = _value(args, "-o", "--output") or (args[2] if command == "export" else None)
    named = _value(args, "-output")  # fastText's form: NAME.bin (.ftz) and NAME.vec written
    if command == "quantize" and named:
        written = f"{named}.ftz"
    if command == "bpe" and args[1] == "learn":
        assert load_units(written).merges
    elif command == "bpe":
        text = Path(written).read_text(encoding="utf-8") if written else output
        assert text.strip() and text.endswith("\n"), text[:200]
    elif command == "train" and written.endswith(".ftz"):  # a search's quantized model
        assert load_classifier(written).quantized
    elif command == "train":
        assert len(Model.load(written).vocab) > 0
    elif command in ("supervised", "skipgram", "cbow"):
        loaded = load_vectors(f"{named}.vec")
        model = Path(f"{named}.bin" if "-autotune-modelsize" not in args else f"{named}.ftz")
        if command == "supervised":
            assert load_classifier(model).labels
        else:
            assert load_vectors(model).words == loaded.words
    elif command == "cooccur":
        assert Cooccurrences.load(written).nnz > 0
    elif command == "phrases":
        assert "_" in Path(written).read_text(encoding="utf-8")
    elif command == "quantize" and not written.endswith(".ftz"):  # a word model's small form
        assert Model.load(written).settings["quantized"] and load_vectors(written).words
    elif command == "quantize" or (
        command == "export"
        and detect_format(args[1]) == "model"
        and Model.load(args[1]).settings["model"] == "supervised"
    ):
        assert load_classifier(written).labels
    elif command == "export":
        assert len(load_vectors(written).words) > 0
    elif command == "plot":
        head = Path(written).read_bytes()[:8]
        assert head.startswith((b"\x89PNG", b"<?xml", b"%PDF")), head
    elif command == "serve":
        assert json.loads(output)["models"], output
    elif command == "neighbors":
        rows = [NEIGHBOUR_ROW.match(row) for row in output.splitlines() if row.startswith(" ")]
        assert rows and all(rows), output
        assert all(abs(float(row.group(2))) <= 1 for row in rows)
    elif command == "eval" and "--json" in args:
        report = json.loads(output)
        assert report["similarity"] and report["analogy"], report
    elif command == "eval":
        assert "spearman" in output and "3CosAdd" in output, output
    elif command == "test":
        lines = output.splitlines()
        assert (
            lines[-3].startswith("N\t")
            and lines[-2].startswith("P@")
            and lines[-1].startswith("R@")
        )
    elif command in ("predict", "predict-prob"):
        rows = [row.split() for row in output.splitlines()]
        prob = command == "predict-prob" or "--prob" in args
        labels = [fields[:: 1 + prob] for fields in rows]
        assert any(labels) and all(label.startswith("__label__") for row in labels for label in row)
    elif command in ("print-word-vectors", "print-ngrams"):
        rows = [row.split() for row in output.splitlines()]
        assert rows and all(len(row) > 1 for row in rows), output
        assert all(np.isfinite(np.array(row[1:], dtype=float)).all() for row in rows)
    elif command == "embed" and written:
        assert np.load(written).ndim == 2
    elif command == "embed":
        assert all(len(row.split()) > 1 for row in output.splitlines()), output
    saved_vocab = _value(args, "--save-vocab")
    if saved_vocab:
        lines = Path(saved_vocab).read_text(encoding="utf-8").splitlines()
        assert lines and all(len(row.split()) == 2 and row.split()[1].isdigit() for row in lines)


def _value(args: list[str], *names: str) -> str | None:
    """The value given to the option ``names`` (the last time), or None."""
    found = None
    for index, arg in enumerate(args[:-1]):
        if arg in names:
            found = args[index + 1]
    return found
