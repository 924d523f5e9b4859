"""Side-by-side benchmark: loading a big foreign vector file and answering one query, as a user
waits for it, against gensim.

    python tests/bench/bench_vectors.py --words 1000000 --dim 300 --runs 3

Writes a word2vec binary (and text) file of ``--words`` random vectors (words ``w0``,
``w1``, ...; made once in ``--workdir``), read once beforehand so that both tools read it from
the page cache. Then, alternating, each tool in a process of its own loads it and prints the 10
nearest neighbours of ``w5``: ``wordvec neighbors FILE w5 -k 10`` and gensim's
``KeyedVectors.load_word2vec_format(FILE, binary=...).most_similar("w5", topn=10)``. The table
gives each one's median whole-process time with its range, peak RSS, and the ratio; the two
answers must be the same words.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import numpy as np
from process import cpu_model, timed

GENSIM = (
    "import sys; from gensim.models import KeyedVectors; "
    "kv = KeyedVectors.load_word2vec_format(sys.argv[1], binary=sys.argv[2] == 'binary'); "
    "[print(w) for w, _ in kv.most_similar('w5', topn=10)]"
)


def make_files(workdir: Path, words: int, dim: int, text: bool) -> dict[str, Path]:
    """The binary (and text) file of random vectors, made once."""
    workdir.mkdir(parents=True, exist_ok=True)
    files = {"binary": workdir / f"random-{words}x{dim}.bin"}
    if text:
        files["text"] = workdir / f"random-{words}x{dim}.txt"
    for kind, path in files.items():
        if not path.exists():
            _write(path, kind, words, dim)
    for path in files.values():
        with open(path, "rb") as f:
            while f.read(1 << 24):  # into the page cache
                pass
    return files


def _write(path: Path, kind: str, words: int, dim: int) -> None:
    rng = np.random.default_rng(0)  # the same vectors in both files
    part = path.with_suffix(".part")
    with open(part, "wb") as out:
        out.write(f"{words} {dim}\n".encode())
        for start in range(0, words, 100_000):
            rows = rng.standard_normal((min(100_000, words - start), dim), dtype=np.float32)
            names = [f"w{start + i}".encode() for i in range(len(rows))]
            if kind == "binary":
                lines = (n + b" " + r.tobytes() for n, r in zip(names, rows))
            else:
                lines = (n + b" " + " ".join(f"{x:.6g}" for x in r).encode()
                         for n, r in zip(names, rows))  # fmt: skip
            out.write(b"\n".join(lines) + b"\n")
    part.rename(path)


def commands(path: Path, kind: str) -> dict[str, list[str]]:
    wordvec = Path(sys.executable).with_name("wordvec")
    return {
        "wordvec": [str(wordvec), "neighbors", str(path), "w5", "-k", "10"],
        "gensim": [sys.executable, "-c", GENSIM, str(path), kind],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--words", type=int, default=1_000_000)
    parser.add_argument("--dim", type=int, default=300)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--text", action="store_true", help="also a word2vec text file")
    parser.add_argument("--workdir", type=Path, default=Path("bench-results/vectors"))
    args = parser.parse_args()
    files = make_files(args.workdir, args.words, args.dim, args.text)
    print(f"CPU: {cpu_model()}; {args.words:,} x {args.dim} random vectors, {args.runs} runs\n")
    print("| file | tool | whole process (median, range) | peak RSS MB | ratio |")
    print("|---|---|---|---|---|")
    for kind, path in files.items():
        times: dict[str, list[float]] = {"wordvec": [], "gensim": []}
        memory, answers = {}, {}
        for _ in range(args.runs):
            for tool, command in commands(path, kind).items():
                seconds, rss, output = timed(command)
                times[tool].append(seconds)
                memory[tool] = max(memory.get(tool, 0), rss)
                answers[tool] = [line.split()[1] for line in output.splitlines()[1:]] if (
                    tool == "wordvec") else output.split()  # fmt: skip
        assert answers["wordvec"] == answers["gensim"], answers
        gensim = statistics.median(times["gensim"])
        for tool, spent in times.items():
            median = statistics.median(spent)
            print(f"| {kind} {path.stat().st_size / 1e9:.2f} GB | {tool} | {median:.2f} s "
                  f"({min(spent):.2f}-{max(spent):.2f}) | {memory[tool]:,} | "
                  f"{gensim / median:.2f}x |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
