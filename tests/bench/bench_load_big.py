"""Side-by-side benchmark: opening a GoogleNews-sized word2vec binary (3,000,000 x 300, 3.6 GB),
plain and gzipped, with gensim and with wordvec's gensim face, each in a process of its own that
loads it and answers one query; and the ``.wv`` file ``wordvec export`` makes of it, mapped.

    .venv/bin/python tests/bench/bench_load_big.py [--words 3000000] [--dim 300] [--repeats 3]
        [--dir /tmp/bigload]

The file (made once in ``--dir``, then reused; by a process of its own, so that this one stays
small: a child's peak RSS starts at its parent's, :func:`process.timed`): a header, then
``--words`` rows, row ``i`` a unique word of 3 to 12 random lowercase letters (lengths drawn
uniformly, then repeats dropped, so long words are a little more common) and 300 float32 drawn
by ``numpy.random.default_rng(0).standard_normal`` 100,000 rows at a time; ``.bin.gz`` is it
compressed by GNU ``gzip -1`` (random floats barely compress at any level; both tools undo it
with Python's zlib). The query word is the word of row 1 (gensim's 'w1').

Cases, each a whole process (``python -c``; start-up and imports included; peak RSS: the child's
``ru_maxrss`` from ``wait4``), run ``--repeats`` times in rounds, gensim and wordvec adjacent in
a round and taking turns to go first, so that a busy spell of the machine slows both:

* ``gensim``: ``gensim.models.KeyedVectors.load_word2vec_format(path, binary=True)``, then
  ``most_similar(word, topn=10)``; ``wordvec.gensim``: the same line with
  ``from wordvec.gensim import KeyedVectors``; for the ``.bin`` and the ``.bin.gz``.
* ``wordvec export big.bin.gz big.wv`` once (timed once), then ``wordvec.gensim``'s
  ``KeyedVectors.load(big.wv, mmap='r')`` and the first ``most_similar``, and
  ``wordvec neighbors big.wv WORD`` as a whole process.

The file a case reads is read through once before each run (into the page cache: none of the
tools then waits for the disk); a 40,000-word file (past wordvec's 32 MB switch to its compiled
scan) is loaded once by every case first, so that numba's cache is warm. Load and query seconds
are measured inside the process (``perf_counter`` around the call), wall seconds around it. The
table gives each case's median (min-max) and the ratio gensim/wordvec of the medians (the
``.wv`` rows against gensim on the plain ``.bin``, its fastest); every case must answer the same
ten words. The load average before and after is printed: timings on a shared machine are
perturbed. BLAS is not compared here (one matrix-vector product per query, numpy's for both).

A run that fails (the child prints the exception and where it was raised) is run again, up to
five times, and the failures are listed under the table; a case that fails five times in a
round has no timing from it. The export, failing five times from the ``.bin.gz``, is made from
the ``.bin`` (the same ``.wv``). This was how the scan of a compressed stream was found to
fail at random (``BufferError`` in ``mapped.scan_stream``, a copying thread still holding the
window it resizes: 11 of 14 loads of the 3.6 GB ``.bin.gz`` in the first full run).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import numpy as np
from process import cpu_model, timed

CHILD = """
import json, sys, time, traceback
started = time.perf_counter()
module, path, word, how = sys.argv[1:5]
if module == "gensim":
    from gensim.models import KeyedVectors
else:
    from wordvec.gensim import KeyedVectors
imported = time.perf_counter()
try:
    if how == "mmap":
        kv = KeyedVectors.load(path, mmap="r")
    else:
        kv = KeyedVectors.load_word2vec_format(path, binary=True)
    loaded = time.perf_counter()
    answer = [w for w, _ in kv.most_similar(word, topn=10)]
except Exception as exc:  # reported (and the run retried) by the benchmark
    where = traceback.extract_tb(exc.__traceback__)[-1]
    place = f"{where.filename.rsplit('/', 1)[-1]}:{where.lineno}"
    print(json.dumps({"error": f"{type(exc).__name__}: {exc} ({place})"}))
    sys.exit(0)
done = time.perf_counter()
print(json.dumps({"import": imported - started, "load": loaded - imported,
                  "query": done - loaded, "answer": answer}))
"""
ATTEMPTS = 5
"""Runs of a case that fail (an exception in the child, reported) before the benchmark stops."""
WARM_WORDS = 40_000
CHUNK_ROWS = 100_000


# -- the files -------------------------------------------------------------------------------


def random_words(rng: np.random.Generator, count: int) -> list[bytes]:
    """``count`` unique words of 3 to 12 random lowercase letters."""
    found: dict[bytes, None] = {}
    while len(found) < count:
        need = count - len(found)
        drawn = need + need // 8 + 1000
        lengths = rng.integers(3, 13, drawn)
        letters = rng.integers(ord("a"), ord("z") + 1, (drawn, 12), dtype=np.uint8)
        for word, length in zip(letters.view("S12").ravel().tolist(), lengths.tolist()):
            found.setdefault(word[:length], None)
    return list(found)[:count]


def write_binary(path: Path, words: int, dim: int) -> None:
    """The word2vec binary file of the module's docstring, written to ``.part`` then renamed."""
    rng = np.random.default_rng(0)
    names = random_words(rng, words)
    part = path.with_name(path.name + ".part")
    with open(part, "wb") as out:
        out.write(f"{words} {dim}\n".encode())
        for start in range(0, words, CHUNK_ROWS):
            rows = rng.standard_normal((min(CHUNK_ROWS, words - start), dim), dtype=np.float32)
            rows = rows.astype("<f4", copy=False)
            out.write(b"".join(n + b" " + r.tobytes() + b"\n"
                               for n, r in zip(names[start:], rows)))  # fmt: skip
    part.rename(path)


def gzipped(path: Path) -> Path:
    """``path`` compressed by ``gzip -1`` next to it, made once."""
    target = path.with_name(path.name + ".gz")
    if not target.exists():
        part = target.with_name(target.name + ".part")
        with open(part, "wb") as out:
            subprocess.run(["gzip", "-1", "-c", str(path)], stdout=out, check=True)
        part.rename(target)
    return target


def make_files(folder: Path, words: int, dim: int) -> Path:
    """The binary file (and its ``.gz``), made once, by a process of its own."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"big-{words}x{dim}.bin"
    if not path.exists():
        print(f"making {path} (minutes for millions of words) ...", file=sys.stderr, flush=True)
        subprocess.run([sys.executable, __file__, "--make", str(path), "--words", str(words),
                        "--dim", str(dim)], check=True)  # fmt: skip
    gzipped(path)
    return path


def query_word(path: Path) -> str:
    """The word of row 1."""
    with open(path, "rb") as f:
        head = f.read(1 << 16)
    start = head.index(b"\n") + 1
    dim = int(head[:start].split()[1])
    pos = head.index(b" ", start) + 1 + 4 * dim  # past row 0's word and floats
    while head[pos : pos + 1] == b"\n":
        pos += 1
    return head[pos : head.index(b" ", pos)].decode()


def read_through(path: Path) -> None:
    """Read ``path`` once, into the page cache."""
    with open(path, "rb") as f:
        while f.read(1 << 24):
            pass


# -- the cases -------------------------------------------------------------------------------


def cases(plain: Path, packed: Path, wv: Path, word: str) -> list[tuple[str, str, Path, list]]:
    """(file label, tool, file read, command) of every case; pairs of adjacent cases compete."""
    child = [sys.executable, "-c", CHILD]
    wordvec = str(Path(sys.executable).with_name("wordvec"))
    found = []
    for label, path in ((".bin", plain), (".bin.gz", packed)):
        for module in ("gensim", "wordvec.gensim"):
            found.append((label, module, path, [*child, module, str(path), word, "w2v"]))
    found.append((".wv", "wordvec.gensim load(mmap='r')", wv,
                  [*child, "wordvec.gensim", str(wv), word, "mmap"]))  # fmt: skip
    found.append((".wv", "wordvec neighbors", wv, [wordvec, "neighbors", str(wv), word]))
    return found


def run_case(tool: str, path: Path, command: list[str], failures: list[str]) -> dict | None:
    """One timed run of a case; a run that fails is noted in ``failures`` and run again."""
    for _ in range(ATTEMPTS):
        read_through(path)
        seconds, rss, output = timed(command)
        if tool == "wordvec neighbors":  # "WORD" then "   1  word  0.1234" lines
            answer = [line.split()[1] for line in output.splitlines()[1:] if line.strip()]
            result = {"load": None, "query": None, "answer": answer}
        else:
            result = json.loads(output.splitlines()[-1])
        if "error" not in result:
            return {**result, "wall": seconds, "rss": rss}
        failures.append(result["error"])
        print(f"  failed after {seconds:.1f} s: {result['error']}", file=sys.stderr, flush=True)
    return None  # the case is reported as failing, the others go on


def export(wordvec: str, sources: list[Path], target: Path) -> tuple[float, int, Path, int]:
    """``wordvec export SOURCE target`` timed once: (seconds, peak RSS MB, the source, failed
    runs). A run that fails (its message is not kept: :func:`process.timed` drops standard
    error) is run again, from the next of ``sources`` once one has failed ATTEMPTS times."""
    failed = 0
    for source in sources:
        for _ in range(ATTEMPTS):
            read_through(source)
            try:
                seconds, rss, _ = timed([wordvec, "export", str(source), str(target)])
            except RuntimeError as exc:
                failed += 1
                print(f"  {exc}", file=sys.stderr, flush=True)
                continue
            return seconds, rss, source, failed
    sys.exit(f"wordvec export failed {failed} times")


def spread(values: list[float | None], digits: int = 2) -> str:
    if not values or values[0] is None:
        return "-"
    return (f"{statistics.median(values):.{digits}f} "
            f"({min(values):.{digits}f}-{max(values):.{digits}f})")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--words", type=int, default=3_000_000)
    parser.add_argument("--dim", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/bigload"))
    parser.add_argument("--make", type=Path, help=argparse.SUPPRESS)  # the file-making child
    args = parser.parse_args()
    if args.make:
        write_binary(args.make, args.words, args.dim)
        return
    if shutil.which("gzip") is None:
        parser.error("needs GNU gzip for the .bin.gz")
    warm_plain = make_files(args.dir, min(WARM_WORDS, args.words), args.dim)
    plain = make_files(args.dir, args.words, args.dim)
    packed = plain.with_name(plain.name + ".gz")
    wordvec = str(Path(sys.executable).with_name("wordvec"))
    word = query_word(plain)
    # warm numba's cache (and the export path) on the small file: its answers are not timed
    warm_packed = warm_plain.with_name(warm_plain.name + ".gz")
    warm_wv = warm_plain.with_suffix(".wv")
    export(wordvec, [warm_packed, warm_plain], warm_wv)
    for _, tool, path, command in cases(warm_plain, warm_packed, warm_wv, query_word(warm_plain)):
        run_case(tool, path, command, [])

    load_before = os.getloadavg()
    wv = plain.with_suffix(".wv")
    export_seconds, export_rss, exported, export_failed = export(wordvec, [packed, plain], wv)
    print(
        f"wordvec export {exported.name} {wv.name}: {export_seconds:.1f} s, "
        f"peak RSS {export_rss:,} MB ({export_failed} failed runs before)",
        flush=True,
    )

    every = cases(plain, packed, wv, word)
    results: dict[tuple[str, str], list[dict]] = {(c[0], c[1]): [] for c in every}
    failures: dict[tuple[str, str], list[str]] = {(c[0], c[1]): [] for c in every}
    for round_ in range(args.repeats):
        pairs = [every[i : i + 2] for i in range(0, len(every), 2)]
        for pair in pairs:  # gensim first in odd rounds, wordvec first in even ones
            for label, tool, path, command in pair[::-1] if round_ % 2 else pair:
                result = run_case(tool, path, command, failures[(label, tool)])
                if result is None:
                    print(f"round {round_ + 1} {label} {tool}: failed {ATTEMPTS} times",
                          flush=True)  # fmt: skip
                    continue
                results[(label, tool)].append(result)
                load = "-" if result["load"] is None else f"{result['load']:.2f} s"
                print(f"round {round_ + 1} {label} {tool}: load {load}, wall "
                      f"{result['wall']:.2f} s, {result['rss']:,} MB", flush=True)  # fmt: skip
    load_after = os.getloadavg()

    answers = {key: runs[0]["answer"] for key, runs in results.items() if runs}
    agree = len({tuple(a) for a in answers.values()}) == 1
    print()
    cores = len(os.sched_getaffinity(0))
    print(f"CPU: {cpu_model()}, {cores} cores; {platform.python_implementation()} "
          f"{platform.python_version()}, numpy {version('numpy')}, gensim {version('gensim')}, "
          f"numba {version('numba')}")  # fmt: skip
    print(f"{args.words:,} x {args.dim} random float32 (numpy default_rng(0) normal), words of "
          f"3-12 random letters; {plain.name} {plain.stat().st_size / 1e9:.2f} GB, "
          f"{packed.name} {packed.stat().st_size / 1e9:.2f} GB (gzip -1), {wv.name} "
          f"{wv.stat().st_size / 1e9:.2f} GB; query most_similar({word!r}, topn=10); "
          f"{args.repeats} alternating repeats")  # fmt: skip
    print(f"load average (1, 5, 15 min): before {load_before[0]:.1f} {load_before[1]:.1f} "
          f"{load_before[2]:.1f}, after {load_after[0]:.1f} {load_after[1]:.1f} "
          f"{load_after[2]:.1f} (a busy machine perturbs the timings)")  # fmt: skip
    print(f"wordvec export {exported.name} {wv.name}: {export_seconds:.1f} s wall, peak RSS "
          f"{export_rss:,} MB ({export_failed} failed runs before it); the ten answers "
          f"{'agree in every case' if agree else 'DIFFER: ' + json.dumps(answers)}\n")  # fmt: skip
    print("| file | tool | load s | query s | wall s | peak RSS MB | gensim/wordvec load | "
          "wall | RSS |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|")
    for label, tool, _, _ in every:
        runs = results[(label, tool)]
        if not runs:
            print(f"| {label} | {tool} | failed | | | | | | |")
            continue
        base = results[(".bin" if label == ".wv" else label, "gensim")]
        ratios = []
        for key in ("load", "wall", "rss"):
            mine, theirs = _median(key, runs), _median(key, base)
            shown = tool != "gensim" and mine is not None and theirs is not None
            ratios.append(f"{theirs / mine:.2f}x" if shown else "-")
        print(f"| {label} | {tool} | {spread([r['load'] for r in runs])} | "
              f"{spread([r['query'] for r in runs])} | {spread([r['wall'] for r in runs])} | "
              f"{spread([r['rss'] for r in runs], 0)} | {' | '.join(ratios)} |")  # fmt: skip
    for (label, tool), errors in failures.items():
        if errors:
            print(
                f"\n{label} {tool}: {len(errors)} failed run(s) besides the "
                f"{len(results[(label, tool)])} timed: {'; '.join(sorted(set(errors)))}"
            )
    if not agree:
        sys.exit("the cases' answers differ")


def _median(key: str, runs: list[dict]) -> float | None:
    values = [run[key] for run in runs]
    return None if not values or values[0] is None else statistics.median(values)


if __name__ == "__main__":
    main()
