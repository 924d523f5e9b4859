"""Damaged files never crash wordvec: seeded truncations and byte flips of every format it
reads, each run through the CLI in a process of its own, so that a signal fails the test.

``make test`` runs a few mutations per format and kind; ``make fuzz`` runs
``WORDVEC_FUZZ_CASES`` (1,000 there) of each. Every run must end with exit status 0, 1 or 2
(a result, an ``Error:`` line, a usage error): never a signal, a traceback or a hang.
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from .conftest import SAMPLE, TOY_LINES

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
    files = {
        "model": (folder / "sg.wv", []),
        "fasttext-model": (folder / "ft.wv", []),
        "counts": (folder / "counts.cooc", []),
        "classifier": (folder / "clf.wv", []),
        "fasttext-classifier": (folder / "clf.bin", []),
    }
    for fmt, name in [("word2vec", "v.txt"), ("word2vec-binary", "v.bin"), ("glove", "g.txt"),
                      ("vec", "v.vec"), ("fasttext-bin", "ft.bin"), ("tsv", "p.tsv"),
                      ("npy", "m.npy")]:  # fmt: skip
        source = folder / ("ft.wv" if fmt == "fasttext-bin" else "sg.wv")
        _, written = export(source, folder / name, fmt)
        files[fmt] = (written[0], written[1:])
    files["tsv-metadata"] = (files["tsv"][1][0], [files["tsv"][0]])
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
    if fmt in ("classifier", "fasttext-classifier"):
        line = "I like cats and dogs\n"
        return [["predict", str(path), "-k", "2", "--stdin-text", line], ["embed", str(path), "-"],
                ["export", str(path), str(out), "--format", "fasttext-bin"]]  # fmt: skip
    queries = [["neighbors", str(path), "the", "of", "-k", "3"]]
    if fmt in ("fasttext-model", "fasttext-bin"):
        queries.append(["neighbors", str(path), "thenceforth", "-k", "3"])  # unseen: n-grams
        if fmt == "fasttext-model":
            queries.append(["export", str(path), str(out), "--format", "fasttext-bin"])
    return queries


def run_cli(arguments: list[str]) -> tuple[int | None, str]:
    stdin = "I like cats\n"
    if "--stdin-text" in arguments:  # not an option of wordvec's: what the command reads
        at = arguments.index("--stdin-text")
        stdin, arguments = arguments[at + 1], arguments[:at] + arguments[at + 2 :]
    command = [sys.executable, "-c", "from wordvec.cli import main; main()", *arguments]
    try:
        done = subprocess.run(
            command, input=stdin, capture_output=True, text=True, timeout=TIMEOUT_S
        )
    except subprocess.TimeoutExpired:
        return None, "hung"
    return done.returncode, done.stderr


FORMATS = ["model", "fasttext-model", "counts", "word2vec", "word2vec-binary", "glove", "vec",
           "fasttext-bin", "tsv", "tsv-metadata", "npy", "npy-words", "classifier",
           "fasttext-classifier"]  # fmt: skip


@pytest.mark.parametrize("fmt", FORMATS)
def test_damaged_files_give_a_result_or_one_error_line(originals, fmt, tmp_path):
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
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda run: run_cli(run[2]), runs))
    failures = [
        f"{kind} #{case}: {' '.join(command[:1])} -> exit {code}: {stderr.strip()[-300:]}"
        for (kind, case, command), (code, stderr) in zip(runs, results)
        if code not in (0, 1, 2) or "Traceback" in stderr
    ]
    assert not failures, "\n".join(failures)


def _reader(fmt: str) -> str:
    """The format of the file a command opens (a sidecar is read through its vectors file)."""
    return {"tsv-metadata": "tsv", "npy-words": "npy"}.get(fmt, fmt)
