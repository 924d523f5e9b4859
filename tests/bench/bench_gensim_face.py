"""Side-by-side benchmark of the gensim face: gensim's ``Word2Vec(...)`` one-liner, the same
line with ``from wordvec.gensim import ...``, and ``wordvec train`` with the same settings.

    python tests/bench/bench_gensim_face.py --runs 3 [--words 2000000]
    python tests/bench/bench_gensim_face.py --runs 8 --tools wordvec.gensim,"wordvec train"

Each run is a whole process (start-up and imports included; peak RSS from ``wait4``), the three
tools paired in turn so that a busy machine slows them alike. The settings are gensim's
defaults (CBOW, negative sampling, 5 noise words, window 5, 100 dimensions, 5 epochs,
``min_count=5``, ``sample=1e-3``, alpha 0.025 down to 0.0001, ``workers=3``, 10,000-word
sentences), which the face applies (``workers=3``: three threads, or the cores if fewer) and
``wordvec train`` is given (its threads: the face's, three or the cores if fewer, so that a
machine of many cores compares the same threads); each saves its model; both
wordvec processes are ``python`` started the same way. ``--words`` cuts the
corpus to its first N words (a plain-text copy in ``--workdir``); ``--tools`` runs some of the
three. Besides the medians, the median of the pair-by-pair ratios (the runs of one round are
adjacent in time, so a slow spell of the machine slows both sides of a pair more often than
the medians of their separate lists show).
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import os
import statistics
import sys
from pathlib import Path

from process import cpu_model, text_tokens, timed

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpora" / "wiki2015-text8like.txt.gz"
ONE_LINER = (
    "import sys; from {module} import Word2Vec, LineSentence; "
    "Word2Vec(LineSentence(sys.argv[1])).save(sys.argv[2])"
)
MODULES = {"gensim": "gensim.models.word2vec", "wordvec.gensim": "wordvec.gensim"}
TOOLS = ("gensim", "wordvec.gensim", "wordvec train")
TRAIN = ["--model", "cbow", "--alpha", "0.025", "--min-alpha", "0.0001",
         "--max-sentence-length", "10000", "-q"]  # fmt: skip


def corpus_slice(corpus: Path, words: int | None, workdir: Path) -> Path:
    """The corpus, or its first ``words`` words as plain text in lines of 10,000."""
    if words is None:
        return corpus
    workdir.mkdir(parents=True, exist_ok=True)
    path = workdir / f"{corpus.name.split('.')[0]}-{words}.txt"
    if not path.exists():  # streamed: a child's peak RSS starts at ours (process.timed)
        opener = gzip.open if corpus.suffix == ".gz" else open
        partial = path.with_suffix(".part")  # an interrupted slice is never taken for whole
        with (
            opener(corpus, "rt", encoding="utf-8") as text,
            open(partial, "w", encoding="utf-8") as out,
        ):
            tokens = itertools.islice(text_tokens(text), words)
            while line := list(itertools.islice(tokens, 10_000)):
                out.write(" ".join(line) + "\n")
        partial.replace(path)
    return path


def command(tool: str, corpus: Path, out: Path) -> list[str]:
    if tool == "wordvec train":
        threads = ["--threads", str(min(3, len(os.sched_getaffinity(0))))]  # workers=3
        return [sys.executable, "-m", "wordvec", "train", str(corpus), "-o", str(out), *TRAIN,
                *threads]  # fmt: skip
    return [sys.executable, "-c", ONE_LINER.format(module=MODULES[tool]), str(corpus), str(out)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--words", type=int, default=None)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/bench-gensim-face"))
    parser.add_argument("--tools", default=",".join(TOOLS), help="a comma-separated subset")
    args = parser.parse_args()
    tools = tuple(tool for tool in TOOLS if tool in args.tools.split(","))
    if len(tools) < 2 or set(args.tools.split(",")) - set(tools):
        parser.error(f"--tools: two or three of {', '.join(TOOLS)}")
    corpus = corpus_slice(args.corpus, args.words, args.workdir)
    args.workdir.mkdir(parents=True, exist_ok=True)
    seconds: dict[str, list[float]] = {tool: [] for tool in tools}
    memory: dict[str, int] = {}
    for run in range(args.runs):
        for tool in tools:
            out = args.workdir / f"{tool.replace(' ', '-')}.model"
            took, rss, _ = timed(command(tool, corpus, out))
            seconds[tool].append(took)
            memory[tool] = max(memory.get(tool, 0), rss)
            print(f"run {run + 1} {tool}: {took:.1f} s, {rss} MB", flush=True)
    print(f"\n{corpus.name}, {args.runs} paired runs, CPU {cpu_model()}")
    print("tool             median s   runs (s)                 peak RSS MB")
    for tool in tools:
        runs = " ".join(f"{s:.1f}" for s in seconds[tool])
        print(f"{tool:16} {statistics.median(seconds[tool]):8.1f}   {runs:24} {memory[tool]}")
    median = {tool: statistics.median(seconds[tool]) for tool in tools}
    for first, second in itertools.combinations(tools, 2):  # the time of first over second's
        pairs = " ".join(f"{a / b:.2f}" for a, b in zip(seconds[first], seconds[second]))
        by_pair = statistics.median(a / b for a, b in zip(seconds[first], seconds[second]))
        print(f"{first} / {second}: {median[first] / median[second]:.3f} by the medians, "
              f"{by_pair:.3f} pair by pair ({pairs})")  # fmt: skip


if __name__ == "__main__":
    main()
