"""Damaged files never crash wordvec: seeded truncations and byte flips of every format it
reads (and of the compressed and zipped vector files it reads), each run through the CLI in a
process of its own, so that a signal fails the test.

``make test`` runs a few mutations per format and kind; ``make fuzz`` runs
``WORDVEC_FUZZ_CASES`` (1,000 there) of each. Besides truncations and flips, a ``field``
mutation sets one header or array-spec field (a size, a shape, an offset, a setting, a
header's count) to 0, -1, 2^31 - 1, 2^31, 2^62, 2^63 - 1 or 2^64: the values whose arithmetic
overflows. Every run must end with exit status 0, 1 or 2 (a result, an ``Error:`` line, a
usage error): never a signal, a traceback or a hang; a run that exits 0 must print no
non-finite number, and an export it writes must load back in wordvec.
"""

from __future__ import annotations

import bz2
import faulthandler
import gzip
import importlib.util
import io
import json
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import zipfile
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from wordvec.cli import main

from .conftest import CORPORA, SAMPLE, TOY_LINES

CASES = int(os.environ.get("WORDVEC_FUZZ_CASES", "2"))
TIMEOUT_S = 30
KINDS = ("truncate", "flip", "header", "field")
EXTREMES = (0, -1, 2**31 - 1, 2**31, 2**62, 2**63 - 1, 2**64)
"""What a ``field`` mutation sets a field to: each overflows some arithmetic on sizes."""


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
    wordvec.train(labelled, model="supervised", dim=8, epochs=1, threads=1, hidden=4,
                  pooling="max", quiet=True).save(folder / "net.wv")  # fmt: skip
    wordvec.train(toy, model="doc2vec", min_count=1, context="concat", window=2, **options).save(
        folder / "d2v.wv"
    )  # fmt: skip  (its pad row, a wider w_out)
    export(folder / "clf.wv", folder / "clf.bin", "fasttext-bin")
    export(folder / "clf.wv", folder / "clf.ftz", "fasttext-ftz")  # quantized in this process
    files = {
        "model": (folder / "sg.wv", [toy]),  # the corpus that --init continues it on
        "fasttext-model": (folder / "ft.wv", []),
        "doc2vec-model": (folder / "d2v.wv", []),
        "counts": (folder / "counts.cooc", []),
        "classifier": (folder / "clf.wv", []),
        "classifier-network": (folder / "net.wv", []),  # the course's: hidden layer, max pooling
        "fasttext-classifier": (folder / "clf.bin", []),
        "ftz": (folder / "clf.ftz", []),
    }
    if importlib.util.find_spec("fasttext"):  # fastText's own .ftz, cut by -cutoff
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
    vocab = folder / "vocab.txt"  # --read-vocab's file, with a corpus to train on beside it
    wordvec.Model.load(folder / "sg.wv").vocab.write_word2vec(vocab)
    files["vocabulary"] = (vocab, [toy])
    files["vec"] = (files["vec"][0], [toy])  # --init-vectors' corpus
    files["tsv-metadata"] = (files["tsv"][1][0], [files["tsv"][0]])
    files["word2vec-binary-compiled"] = files["word2vec-binary"]
    files["word2vec-compiled"] = files["word2vec"]
    files["npy-words"] = (files["npy"][1][0], [files["npy"][0]])
    if importlib.util.find_spec("faiss"):  # an approximate index, beside its vectors
        # built by a process of its own: OpenMP threads (faiss's) in this one would end every
        # forked run that uses OpenMP ("fork() called from a process already using GNU OpenMP")
        subprocess.run([sys.executable, "-m", "wordvec", "index", str(folder / "sg.wv"), "-q",
                        "--threads", "1"], check=True)  # fmt: skip
        files["index"] = (folder / "sg.wv.index", [folder / "sg.wv"])
    wordvec.compress(folder / "ft.wv", folder / "ft-small.wv")  # the forked runs quantize too
    files["compressed-model"] = (folder / "ft-small.wv", [])  # its codes, centroids, rows kept
    for fmt in ("word2vec-gz", "word2vec-binary-bz2", "glove-zip", "word2vec-binary-gz-compiled"):
        source = files[_reader(fmt)][0]
        packed = folder / f"{source.name}.{_packing(fmt)}"
        packed.write_bytes(PACKINGS[_packing(fmt)][1](source.read_bytes(), source.name))
        files[fmt] = (packed, [])
    return files


def _zipped(data: bytes, name: str) -> bytes:
    """``data`` as the one member ``name`` of a zip archive."""
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as out:
        out.writestr(name, data)
    return archive.getvalue()


def _unzipped(data: bytes) -> bytes:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return archive.read(archive.namelist()[0])


PACKINGS = {
    "gz": (gzip.decompress, lambda data, _: gzip.compress(data)),
    "bz2": (bz2.decompress, lambda data, _: bz2.compress(data)),
    "zip": (_unzipped, _zipped),
}
"""How each packing of a vector file is undone and made: (unpack(data), pack(data, name))."""


def _packing(fmt: str) -> str | None:
    """The packing a fuzzed format's file has (``word2vec-gz``: gz), or None."""
    return next((p for p in PACKINGS if f"-{p}" in fmt), None)


def mutate(data: bytes, kind: str, rng: np.random.Generator, fmt: str = "") -> bytes:
    """A truncation, 1-8 flipped bytes anywhere, 1-4 flipped bytes in the first 256 (the
    headers: sizes, offsets, settings), or one of ``fmt``'s fields set to one of
    :data:`EXTREMES`."""
    if kind == "truncate":
        return data[: int(rng.integers(0, len(data)))]
    packing = _packing(fmt)
    if kind == "field" and packing:  # a field of what it holds, packed again
        unpack, pack = PACKINGS[packing]
        return pack(mutate(unpack(data), kind, rng, _reader(fmt)), "v")
    if kind == "field":
        places = fields(data, fmt)
        if places:  # (a file without a number field, a SentencePiece model's, gets a flip)
            return places[int(rng.integers(0, len(places)))](EXTREMES[int(rng.integers(0, 7))])
    damaged = bytearray(data)
    reach = min(len(data), 256) if kind == "header" else len(data)
    for _ in range(int(rng.integers(1, 5 if kind == "header" else 9))):
        damaged[int(rng.integers(0, reach))] ^= 1 << int(rng.integers(0, 8))
    return bytes(damaged)


def fields(data: bytes, fmt: str) -> list:
    """The header and array-spec fields of a file of format ``fmt``, each as a function of a
    value that returns the file with that field set to it (binary fields wrap to their width,
    as a C writer's would)."""
    if _packing(fmt):
        return fields(PACKINGS[_packing(fmt)][0](data), _reader(fmt))
    if data.startswith(b"\x93WORDVEC"):
        return list(model_fields(data).values())
    if fmt in ("fasttext-bin", "fasttext-classifier", "ftz", "fasttext-ftz"):
        return _fasttext_fields(data)
    if fmt == "npy":
        length = struct.unpack_from("<H", data, 8)[0]
        return _number_fields(data, 10, 10 + length, fix=_npy_header)
    if fmt.startswith("word2vec-binary"):
        return _number_fields(data, 0, data.index(b"\n"))
    lines = data.split(b"\n", 3)  # text: a header's counts and the first rows' numbers
    return _number_fields(data, 0, len(b"\n".join(lines[:3])))


def _binary_field(data: bytes, at: int, width: int):
    def set_to(value: int) -> bytes:
        raw = (value % (1 << 8 * width)).to_bytes(width, "little")
        return data[:at] + raw + data[at + width :]

    return set_to


def _fasttext_fields(data: bytes) -> list:
    """fastText .bin: magic, version, the 12 int args, the dictionary's head, and both
    matrices' rows and columns (found by walking the dictionary's entries); of a quantized
    one (.ftz), whose matrices are laid out otherwise, the flag that says so."""
    places = [(at, 4) for at in range(0, 56, 4)] + [(64, 4), (68, 4), (72, 4), (76, 8), (84, 8)]
    at = 92
    for _ in range(struct.unpack_from("<i", data, 64)[0]):
        at = data.index(b"\0", at) + 10
    if data[at]:
        return [_binary_field(data, at, width) for at, width in [*places, (at, 1)]]
    rows, cols = struct.unpack_from("<qq", data, at + 1)
    places += [(at + 1, 8), (at + 9, 8), (at + 17 + rows * cols * 4 + 1, 8),
               (at + 17 + rows * cols * 4 + 9, 8)]  # fmt: skip
    return [_binary_field(data, at, width) for at, width in places]


def model_fields(data: bytes) -> dict:
    """A wordvec model file's fields by their place (``("header length",)``, then the keys to
    every integer in its JSON: settings, each array's shape and offset); the header is written
    back at its new length and the arrays moved with it, so only the field differs."""
    length = struct.unpack_from("<Q", data, 16)[0]
    header = json.loads(data[24 : 24 + length])
    body = data[-(-(24 + length) // 64) * 64 :]
    paths = []

    def walk(node, path):
        for key, value in node.items() if isinstance(node, dict) else enumerate(node):
            if isinstance(value, (dict, list)):
                walk(value, (*path, key))
            elif isinstance(value, int) and not isinstance(value, bool):
                paths.append((*path, key))

    walk(header, ())

    def setter(path):
        def set_to(value: int) -> bytes:
            changed = json.loads(data[24 : 24 + length])
            node = changed
            for key in path[:-1]:
                node = node[key]
            node[path[-1]] = value
            text = json.dumps(changed, ensure_ascii=False).encode()
            pad = -(-(24 + len(text)) // 64) * 64 - 24 - len(text)
            return data[:16] + struct.pack("<Q", len(text)) + text + b"\0" * pad + body

        return set_to

    return {("header length",): _binary_field(data, 16, 8), **{p: setter(p) for p in paths}}


_NUMBER = re.compile(rb"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?")


def _number_fields(data: bytes, start: int, end: int, fix=None) -> list:
    """Each number written in ``data[start:end]`` (a text header, a .npy header's shape, the
    first rows of a text file), as text; ``fix`` repairs what the new length breaks."""

    def setter(match):
        def set_to(value: int) -> bytes:
            changed = data[: match.start()] + str(value).encode() + data[match.end() :]
            return fix(changed) if fix else changed

        return set_to

    return [setter(m) for m in _NUMBER.finditer(data, start, end)]


def _npy_header(data: bytes) -> bytes:
    """A .npy file whose header changed length: padded again to 64 bytes, its length field
    set (numpy refuses a misaligned header, which is not the fault under test)."""
    end = data.index(b"\n", 10)
    header = data[10:end].rstrip(b" ")
    header += b" " * (-(10 + len(header) + 1) % 64) + b"\n"
    return data[:8] + struct.pack("<H", len(header)) + header + data[end + 1 :]


def commands(fmt: str, path: Path, out: Path) -> list[list[str]]:
    """What a user runs on such a file."""
    if fmt == "counts":
        training = ["--cooccur", str(path), "-o", str(out), "--dim", "4", "--epochs", "1", "-q"]
        return [["train", "--model", model, *training] for model in ("glove", "ppmi-svd")]
    if fmt == "vocabulary":
        corpus = str(path.parent / "toy.txt")
        training = ["--min-count", "1", "--dim", "4", "--epochs", "1", "--threads", "1", "-q"]
        return [["train", corpus, "--read-vocab", str(path), "-o", str(out), *training]]
    if fmt in ("classifier", "classifier-network", "fasttext-classifier", "ftz", "fasttext-ftz"):
        line = "I like cats and dogs\n"
        words = [["neighbors", str(path), "cats", "-k", "2"]] if "ftz" in fmt else []
        quantized = [] if "ftz" in fmt else [["quantize", str(path), "-o", f"{out}.ftz", "-q"]]
        return [["predict", str(path), "-k", "2", "--stdin-text", line], ["embed", str(path), "-"],
                ["export", str(path), str(out), "--format", "fasttext-bin"], *words,
                *quantized]  # fmt: skip
    if fmt == "doc2vec-model":
        return [["neighbors", str(path), "--doc", "0", "-k", "2"], ["embed", str(path), "-"],
                ["export", str(path), str(out), "--doc-vectors"]]  # fmt: skip
    if fmt == "index":  # found beside its vectors, and named
        vectors = str(path.parent / "sg.wv")
        analogy = ["--analogy", "of", "the", "and"]
        return [["neighbors", vectors, "the", "of", "-k", "3"],
                ["neighbors", vectors, "--index", str(path), *analogy]]  # fmt: skip
    if fmt.startswith("units-") and fmt != "units-model":
        return [["bpe", "apply", str(path), str(path.parent / "toy.txt"), "-o", str(out)]]
    queries = [["neighbors", str(path), "the", "of", "-k", "3"]]
    training = [str(path.parent / "toy.txt"), "-o", str(out), "--min-count", "1", "--epochs",
                "1", "--threads", "1", "-q"]  # fmt: skip
    if fmt == "model":  # continued: its arrays copied row by row
        queries.append(["train", *training, "--init", str(path)])
    if fmt == "vec":  # the first rows of a model that is trained on
        queries.append(["train", *training, "--init-vectors", str(path), "--dim", "8"])
    if fmt in ("fasttext-model", "fasttext-bin", "compressed-model"):
        queries.append(["neighbors", str(path), "thenceforth", "-k", "3"])  # unseen: n-grams
    if fmt in ("fasttext-model", "compressed-model"):
        queries.append(["export", str(path), str(out), "--format", "fasttext-bin"])
        queries.append(["quantize", str(path), "-o", f"{out}.wv", "--no-report"])
    return queries


def run_all(
    runs: list[list[str]], workers: int = 2, cli=main, timeout: float = TIMEOUT_S
) -> list[tuple[int | None, str, str]]:
    """Each command line run through the CLI in a process of its own, ``workers`` at a time:
    (exit status, or -N for signal N, or None for a hang; its stderr; its stdout). The
    processes are forks of this one, which has imported wordvec already: a run costs
    milliseconds instead of the half second a new interpreter takes, so ``make fuzz`` can
    afford 1,000 mutations a format. No thread of this process holds a lock that a fork
    would use: tqdm's monitor is stopped; pytest-timeout's timer and the event loops that the
    Dask tests leave behind wait in the kernel, and a fork copies only the thread that called
    it. (Were a fork to deadlock, its deadline would fail the test, never pass it.)"""
    from tqdm import tqdm

    if tqdm.monitor is not None:  # a thread that takes tqdm's lock now and then
        tqdm.monitor.exit()
        tqdm.monitor.join()
    tqdm.monitor_interval = 0
    others = [t for t in threading.enumerate() if t is not threading.current_thread()]
    idle = ("pytest_timeout", "IO loop", "Dask-Offload")  # waiting, holding nothing we need
    assert all(t.name.startswith(idle) for t in others), f"not fork-safe: {others}"
    results: list[tuple[int | None, str, str]] = [(None, "", "")] * len(runs)
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
                    results[index] = (None, "hung", "")
            time.sleep(0.002)
            continue
        if pid not in running:
            continue
        index, _, err = running.pop(pid)
        code = os.waitstatus_to_exitcode(status)
        results[index] = (code, *(err.with_suffix(suffix).read_text(encoding="utf-8",
                                  errors="replace") for suffix in (".err", ".out")))  # fmt: skip
    shutil.rmtree(scratch, ignore_errors=True)
    return results


def _fork_cli(cli, arguments: list[str], err: Path) -> int:
    """Start ``wordvec ARGUMENTS`` in a fork: standard input from ``--stdin-text`` (not an
    option of wordvec's: what the command reads) or a line of text, stdout to ``err`` with the
    suffix ``.out``, stderr to ``err``; an exception that the CLI lets through prints its
    traceback, as Python does."""
    stdin = "I like cats\n"
    if "--stdin-text" in arguments:
        at = arguments.index("--stdin-text")
        stdin, arguments = arguments[at + 1], arguments[:at] + arguments[at + 2 :]
    source = err.with_suffix(".in")
    source.write_text(stdin, encoding="utf-8")
    err.with_suffix(".out").touch()
    pid = os.fork()
    if pid:
        return pid
    code = 70
    try:
        for fd, path, flags in ((0, source, os.O_RDONLY), (1, err.with_suffix(".out"), os.O_WRONLY),
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
           "fasttext-classifier", "classifier-network", "vocabulary", "word2vec-binary-compiled",
           "word2vec-compiled", "units-json", "units-codes", "units-sentencepiece",
           "units-model", "ftz", "fasttext-ftz", "doc2vec-model", "word2vec-gz",
           "word2vec-binary-bz2", "glove-zip", "word2vec-binary-gz-compiled", "index",
           "compressed-model"]  # fmt: skip


@pytest.mark.parametrize("fmt", FORMATS)
def test_damaged_files_give_a_result_or_one_error_line(originals, fmt, tmp_path, monkeypatch):
    if fmt.endswith("-compiled"):  # the kernels that big files get, on small ones
        from wordvec.formats import binvec, textvec

        monkeypatch.setattr(binvec, "FAST_BYTES", 0)  # in this process: its forks inherit it
        monkeypatch.setattr(textvec, "FAST_BYTES", 0)
    if fmt not in originals:
        pytest.skip(f"{fmt}: made by a package not installed (fasttext, faiss)")
    original, companions = originals[fmt]
    vectors_file = companions[0] if fmt in ("tsv-metadata", "npy-words") else original
    data = original.read_bytes()
    runs = []
    for kind in KINDS:
        for case in range(CASES if kind != "field" or fields(data, fmt) else 0):
            rng = np.random.default_rng([FORMATS.index(fmt), KINDS.index(kind), case])
            damaged = tmp_path / f"{kind}-{case}" / original.name
            damaged.parent.mkdir()
            for companion in companions:  # the files read with it, intact, beside it
                (damaged.parent / companion.name).write_bytes(companion.read_bytes())
            damaged.write_bytes(mutate(data, kind, rng, fmt))
            read = damaged.parent / vectors_file.name
            runs += [(kind, case, c) for c in commands(_reader(fmt), read, damaged.parent / "o")]
    results = run_all([command for _, _, command in runs])
    faults = [
        (f"{kind} #{case}: {command[0]} -> exit {code}: ", fault)
        for (kind, case, command), (code, stderr, stdout) in zip(runs, results)
        if (fault := fault_of(command, code, stderr, stdout))
    ]
    tally = Counter(re.match(r"[\w-]+", fault).group() for _, fault in faults)
    print(
        f"\nfuzz {fmt}: {len(runs)} runs, " + ", ".join(f"{tally[what]} {what}" for what in FAULTS)
    )  # fmt: skip  (make fuzz's counts)
    assert not faults, "\n".join(run + fault for run, fault in faults)


FAULTS = ("signal", "hang", "exit", "traceback", "non-finite", "unreadable-export")
"""The faults :func:`fault_of` names, by the first word of its answer."""


_NOT_FINITE = re.compile(r"(?<![\w.])[-+]?(?:nan|inf|infinity)(?![\w.])", re.IGNORECASE)


def fault_of(command: list[str], code: int | None, stderr: str, stdout: str) -> str | None:
    """What is wrong with a run (None: nothing), its first word one of :data:`FAULTS`: a
    signal, a hang or an exit status other than 0, 1 or 2; a traceback; on success, a
    non-finite number printed, or an export or quantized file that wordvec cannot read back."""
    said = stderr.strip()[-300:] or "(nothing on stderr)"
    if code is None:
        return f"hang: {said}"
    if code < 0:
        return f"signal {-code}: {said}"
    if "Traceback" in stderr:
        return f"traceback: {said}"
    if code not in (0, 1, 2):
        return f"exit {code}: {said}"
    if code != 0:
        return None
    if _NOT_FINITE.search(stdout):
        return f"non-finite number in its output: {stdout.strip()[-300:]}"
    if command[0] in ("export", "quantize"):
        from wordvec.errors import FormatError
        from wordvec.formats import load_classifier, load_vectors

        written = command[command.index("-o") + 1] if "-o" in command else command[2]
        try:
            load_vectors(written)
        except FormatError as exc:  # a classifier's export is not word vectors
            try:
                load_classifier(written)
            except FormatError:
                return f"unreadable-export: {exc}"
    return None


def _reader(fmt: str) -> str:
    """The format of the file a command opens (a sidecar is read through its vectors file)."""
    readers = {
        "tsv-metadata": "tsv",
        "npy-words": "npy",
        "word2vec-binary-compiled": "word2vec-binary",
    }
    packing = _packing(fmt)
    if packing:  # a compressed or zipped file is read as what it holds
        return fmt.split(f"-{packing}")[0]
    return readers.get(fmt, fmt)


def _misbehaving_cli(arguments: list[str], prog_name: str) -> None:
    what = arguments[0]
    if what == "raise":
        raise ValueError("a bug")
    if what == "signal":
        os.kill(os.getpid(), signal.SIGSEGV)
    if what == "hang":
        time.sleep(60)
    if what == "nan":
        print("cats 0.5\ndogs nan")
        sys.exit(0)
    if what == "export":  # an export that is not a vector file
        Path(arguments[2]).write_bytes(b"\0\1")
        sys.exit(0)
    print("Error: a clean one", file=sys.stderr)
    sys.exit(1)


def test_the_checker_sees_tracebacks_signals_hangs_nan_and_bad_exports(tmp_path):
    export = ["export", "source", str(tmp_path / "out.vec")]
    runs = [["raise"], ["signal"], ["hang"], ["clean"], ["nan"], export]
    results = run_all(runs, cli=_misbehaving_cli, timeout=2)
    (raised, traced, _), (signalled, _, _), (hung, _, _), clean, (nan, _, printed), _ = results
    assert raised == 1 and "Traceback" in traced and "ValueError: a bug" in traced
    assert signalled == -signal.SIGSEGV and hung is None
    assert clean == (1, "Error: a clean one\n", "")
    assert nan == 0 and printed == "cats 0.5\ndogs nan\n"
    faults = [fault_of(command, *result) for command, result in zip(runs, results)]
    assert all(faults[:3]) and faults[3] is None
    assert [re.match(r"[\w-]+", f).group() for f in faults[:3]] == ["traceback", "signal", "hang"]
    assert faults[4].startswith("non-finite") and faults[5].startswith("unreadable-export")
