"""Damaged files never crash wordvec: seeded truncations and byte flips of every format it
reads, each run through the CLI in a process of its own, so that a signal fails the test.

``make test`` runs a few mutations per format and kind; ``make fuzz`` runs
``WORDVEC_FUZZ_CASES`` (1,000 there) of each. Every run must end with exit status 0, 1 or 2
(a result, an ``Error:`` line, a usage error): never a signal, a traceback or a hang.
"""

from __future__ import annotations

import faulthandler
import importlib.util
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path

import numpy as np
import pytest

from wordvec.cli import main

from .conftest import CORPORA, SAMPLE, TOY_LINES

CASES = int(os.environ.get("WORDVEC_FUZZ_CASES", "2"))
TIMEOUT_S = 30
KINDS = ("truncate", "flip", "header")


@pytest.fixture(scope="module")
def originals(tmp_path_factory) -> dict[str, tuple[Path, list[Path]]]:
    """One intact file of each format: name -> (the file, the files read with it)."""
    import wordvec
    from wordvec.cooccur.counting import count_cooccurrences
    from wordvec.formats import export

    folder = tmp_path_factory.mktemp("originals")
    options = dict(epochs=1, threads=1, max_vocab=300, dim=8, quiet=True)
    wordvec.train(SAMPLE, model="sg", **options).save(folder / "sg.wv")
    wordvec.train(SAMPLE, model="fasttext", bucket=2_000, **options).save(folder / "ft.wv")
    toy = folder / "toy.txt"
    toy.write_text("\n".join(TOY_LINES * 3) + "\n")
    count_cooccurrences(toy, folder / "counts.cooc", min_count=1, window=2, quiet=True)
    labelled = folder / "labelled.txt"
    labelled.write_text("".join(f"__label__l{i % 3} {line}\n" for i, line in enumerate(TOY_LINES)))
    wordvec.train(labelled, model="supervised", dim=8, epochs=1, threads=1, word_ngrams=2,
                  bucket=500, quiet=True).save(folder / "clf.wv")  # fmt: skip
    export(folder / "clf.wv", folder / "clf.bin", "fasttext-bin")
    export(folder / "clf.wv", folder / "clf.ftz", "fasttext-ftz")
    files = {
        "model": (folder / "sg.wv", []),
        "fasttext-model": (folder / "ft.wv", []),
        "counts": (folder / "counts.cooc", []),
        "classifier": (folder / "clf.wv", []),
        "fasttext-classifier": (folder / "clf.bin", []),
        "ftz": (folder / "clf.ftz", []),
    }
    if importlib.util.find_spec("fasttext"):  # fastText's own .ftz, cut by -cutoff
        import gzip

        from tests.test_supervised import _by_fasttext, fasttext

        cooking = folder / "cooking.txt"  # fastText's NaN on the five lines, with any bucket
        text = gzip.decompress((CORPORA / "cooking.train.gz").read_bytes()).decode()
        cooking.write_text("".join(text.splitlines(True)[:300]))
        theirs = _by_fasttext(fasttext.train_supervised, str(cooking), dim=8, wordNgrams=2)
        theirs.quantize(cutoff=300, qnorm=True)
        theirs.save_model(str(folder / "ft.ftz"))
        files["fasttext-ftz"] = (folder / "ft.ftz", [])
    for fmt, name in [("word2vec", "v.txt"), ("word2vec-binary", "v.bin"), ("glove", "g.txt"),
                      ("vec", "v.vec"), ("fasttext-bin", "ft.bin"), ("tsv", "p.tsv"),
                      ("npy", "m.npy")]:  # fmt: skip
        source = folder / ("ft.wv" if fmt == "fasttext-bin" else "sg.wv")
        _, written = export(source, folder / name, fmt)
        files[fmt] = (written[0], written[1:])
    from wordvec import bpe

    units = bpe.learn(toy, merges=40, min_frequency=1, quiet=True)
    bpe.save_units(units, folder / "units.json")
    bpe.save_units(bpe.learn(toy, merges=40, word_end="suffix", quiet=True), folder / "codes.txt")
    files["units-json"] = (folder / "units.json", [toy])
    files["units-codes"] = (folder / "codes.txt", [toy])
    import sentencepiece  # BPEmb's kind of units file

    sentencepiece.SentencePieceTrainer.train(input=str(toy), model_type="bpe", vocab_size=50,
                                             model_prefix=str(folder / "sp"),
                                             minloglevel=2)  # fmt: skip
    files["units-sentencepiece"] = (folder / "sp.model", [toy])
    wordvec.train(SAMPLE, model="sg", bpe=folder / "units.json", **options).save(
        folder / "units.wv"
    )
    files["units-model"] = (folder / "units.wv", [])
    vocab = folder / "v.txt"  # --read-vocab's file, with a corpus to train on beside it
    wordvec.Model.load(folder / "sg.wv").vocab.write_word2vec(vocab)
    files["vocabulary"] = (vocab, [toy])
    files["tsv-metadata"] = (files["tsv"][1][0], [files["tsv"][0]])
    files["word2vec-binary-compiled"] = files["word2vec-binary"]
    files["word2vec-compiled"] = files["word2vec"]
    files["npy-words"] = (files["npy"][1][0], [files["npy"][0]])
    return files


def mutate(data: bytes, kind: str, rng: np.random.Generator) -> bytes:
    """A truncation, 1-8 flipped bytes anywhere, or 1-4 flipped bytes in the first 256 (the
    headers: sizes, offsets, settings)."""
    if kind == "truncate":
        return data[: int(rng.integers(0, len(data)))]
    damaged = bytearray(data)
    reach = min(len(data), 256) if kind == "header" else len(data)
    for _ in range(int(rng.integers(1, 5 if kind == "header" else 9))):
        damaged[int(rng.integers(0, reach))] ^= 1 << int(rng.integers(0, 8))
    return bytes(damaged)


def commands(fmt: str, path: Path, out: Path) -> list[list[str]]:
    """What a user runs on such a file."""
    if fmt == "counts":
        training = ["--cooccur", str(path), "-o", str(out), "--dim", "4", "--epochs", "1", "-q"]
        return [["train", "--model", model, *training] for model in ("glove", "ppmi-svd")]
    if fmt == "vocabulary":
        corpus = str(path.parent / "toy.txt")
        training = ["--min-count", "1", "--dim", "4", "--epochs", "1", "--threads", "1", "-q"]
        return [["train", corpus, "--read-vocab", str(path), "-o", str(out), *training]]
    if fmt in ("classifier", "fasttext-classifier", "ftz", "fasttext-ftz"):
        line = "I like cats and dogs\n"
        words = [["neighbors", str(path), "cats", "-k", "2"]] if "ftz" in fmt else []
        return [["predict", str(path), "-k", "2", "--stdin-text", line], ["embed", str(path), "-"],
                ["export", str(path), str(out), "--format", "fasttext-bin"], *words]  # fmt: skip
    if fmt.startswith("units-") and fmt != "units-model":
        return [["bpe", "apply", str(path), str(path.parent / "toy.txt"), "-o", str(out)]]
    queries = [["neighbors", str(path), "the", "of", "-k", "3"]]
    if fmt in ("fasttext-model", "fasttext-bin"):
        queries.append(["neighbors", str(path), "thenceforth", "-k", "3"])  # unseen: n-grams
        if fmt == "fasttext-model":
            queries.append(["export", str(path), str(out), "--format", "fasttext-bin"])
    return queries


def run_all(
    runs: list[list[str]], workers: int = 2, cli=main, timeout: float = TIMEOUT_S
) -> list[tuple[int | None, str]]:
    """Each command line run through the CLI in a process of its own, ``workers`` at a time:
    (exit status, or -N for signal N, or None for a hang; its stderr). The processes are
    forks of this one, which has imported wordvec already: a run costs milliseconds instead
    of the half second a new interpreter takes, so ``make fuzz`` can afford 1,000 mutations
    a format. No thread of this process holds a lock that a fork would use: tqdm's monitor
    is stopped; pytest-timeout's timer and the event loops that the Dask tests leave behind
    wait in the kernel, and a fork copies only the thread that called it. (Were a fork to
    deadlock, its deadline would fail the test, never pass it.)"""
    from tqdm import tqdm

    if tqdm.monitor is not None:  # a thread that takes tqdm's lock now and then
        tqdm.monitor.exit()
        tqdm.monitor.join()
    tqdm.monitor_interval = 0
    others = [t for t in threading.enumerate() if t is not threading.current_thread()]
    idle = ("pytest_timeout", "IO loop", "Dask-Offload")  # waiting, holding nothing we need
    assert all(t.name.startswith(idle) for t in others), f"not fork-safe: {others}"
    results: list[tuple[int | None, str]] = [(None, "")] * len(runs)
    running: dict[int, tuple[int, float, Path]] = {}
    scratch = Path(tempfile.mkdtemp(prefix="fuzz-"))
    queue = list(enumerate(runs))
    while queue or running:
        while queue and len(running) < workers:
            index, arguments = queue.pop(0)
            err = scratch / f"{index}.err"
            running[_fork_cli(cli, arguments, err)] = (index, time.monotonic(), err)
        pid, status = os.waitpid(-1, os.WNOHANG)
        if pid == 0:
            for pid, (index, started, _) in list(running.items()):
                if time.monotonic() - started > timeout:
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                    del running[pid]
                    results[index] = (None, "hung")
            time.sleep(0.002)
            continue
        if pid not in running:
            continue
        index, _, err = running.pop(pid)
        code = os.waitstatus_to_exitcode(status)
        results[index] = (code, err.read_text(encoding="utf-8", errors="replace"))
        err.unlink()
    shutil.rmtree(scratch, ignore_errors=True)
    return results


def _fork_cli(cli, arguments: list[str], err: Path) -> int:
    """Start ``wordvec ARGUMENTS`` in a fork: standard input from ``--stdin-text`` (not an
    option of wordvec's: what the command reads) or a line of text, stdout discarded, stderr
    to ``err``; an exception that the CLI lets through prints its traceback, as Python does."""
    stdin = "I like cats\n"
    if "--stdin-text" in arguments:
        at = arguments.index("--stdin-text")
        stdin, arguments = arguments[at + 1], arguments[:at] + arguments[at + 2 :]
    source = err.with_suffix(".in")
    source.write_text(stdin, encoding="utf-8")
    pid = os.fork()
    if pid:
        return pid
    code = 70
    try:
        for fd, path, flags in ((0, source, os.O_RDONLY), (1, os.devnull, os.O_WRONLY),
                                (2, err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)):  # fmt: skip
            os.dup2(os.open(path, flags, 0o600), fd)
        sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
        sys.stderr = open(2, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
        faulthandler.disable()  # pytest's: a real CLI process has none
        for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGALRM):
            signal.signal(number, signal.SIG_DFL)  # pytest's handlers are not the CLI's
        try:
            cli(arguments, prog_name="wordvec")
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except BaseException:
            traceback.print_exc()
            code = 1
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code)


FORMATS = ["model", "fasttext-model", "counts", "word2vec", "word2vec-binary", "glove", "vec",
           "fasttext-bin", "tsv", "tsv-metadata", "npy", "npy-words", "classifier",
           "fasttext-classifier", "vocabulary", "word2vec-binary-compiled",
           "word2vec-compiled", "units-json", "units-codes", "units-sentencepiece",
           "units-model", "ftz", "fasttext-ftz"]  # fmt: skip


@pytest.mark.parametrize("fmt", FORMATS)
def test_damaged_files_give_a_result_or_one_error_line(originals, fmt, tmp_path, monkeypatch):
    if fmt.endswith("-compiled"):  # the kernels that big files get, on small ones
        from wordvec.formats import binvec, textvec

        monkeypatch.setattr(binvec, "FAST_BYTES", 0)  # in this process: its forks inherit it
        monkeypatch.setattr(textvec, "FAST_BYTES", 0)
    if fmt not in originals:
        pytest.skip("fastText's .ftz is made by the fasttext package, not installed")
    original, companions = originals[fmt]
    vectors_file = companions[0] if fmt in ("tsv-metadata", "npy-words") else original
    data = original.read_bytes()
    runs = []
    for kind in KINDS:
        for case in range(CASES):
            rng = np.random.default_rng([FORMATS.index(fmt), KINDS.index(kind), case])
            damaged = tmp_path / f"{kind}-{case}" / original.name
            damaged.parent.mkdir()
            for companion in companions:  # the files read with it, intact, beside it
                (damaged.parent / companion.name).write_bytes(companion.read_bytes())
            damaged.write_bytes(mutate(data, kind, rng))
            read = damaged.parent / vectors_file.name
            runs += [(kind, case, c) for c in commands(_reader(fmt), read, damaged.parent / "o")]
    results = run_all([command for _, _, command in runs])
    failures = [
        f"{kind} #{case}: {' '.join(command[:1])} -> exit {code}: {stderr.strip()[-300:]}"
        for (kind, case, command), (code, stderr) in zip(runs, results)
        if code not in (0, 1, 2) or "Traceback" in stderr
    ]
    assert not failures, "\n".join(failures)


def _reader(fmt: str) -> str:
    """The format of the file a command opens (a sidecar is read through its vectors file)."""
    readers = {
        "tsv-metadata": "tsv",
        "npy-words": "npy",
        "word2vec-binary-compiled": "word2vec-binary",
    }
    return readers.get(fmt, fmt)


def _misbehaving_cli(arguments: list[str], prog_name: str) -> None:
    what = arguments[0]
    if what == "raise":
        raise ValueError("a bug")
    if what == "signal":
        os.kill(os.getpid(), signal.SIGSEGV)
    if what == "hang":
        time.sleep(60)
    print("Error: a clean one", file=sys.stderr)
    sys.exit(1)


def test_the_runner_sees_tracebacks_signals_and_hangs():
    results = run_all([["raise"], ["signal"], ["hang"], ["clean"]], cli=_misbehaving_cli,
                      timeout=2)  # fmt: skip
    (raised, traced), (signalled, _), (hung, _), clean = results
    assert raised == 1 and "Traceback" in traced and "ValueError: a bug" in traced
    assert signalled == -signal.SIGSEGV and hung is None
    assert clean == (1, "Error: a clean one\n")
