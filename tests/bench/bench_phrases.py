"""Side-by-side benchmark: ``wordvec phrases`` against word2vec's word2phrase and gensim's
``Phrases`` on the shared corpus.

    python tests/bench/bench_phrases.py --word2phrase path/to/word2phrase --runs 3

The corpus (``--corpus``, default the shared 16.9M-token text) is decompressed once; each tool
then reads the plain text and writes it with its phrases joined, in a process of its own
(whole process: start-up included; peak RSS from ``wait4``), at word2phrase's defaults
(``-min-count 5 -threshold 100``). word2phrase is built from word2vec's source (``gcc
word2phrase.c -O3 -lm -pthread``). gensim's ``Phrases`` (scoring "default") normalises by
its vocabulary's size rather than the corpus's words, and its ``LineSentence`` cuts lines
every 10,000 words, so its phrases differ: the table gives how many it shares with
word2phrase's. wordvec's output must be word2phrase's, token for token (but for two of word2phrase's
limits: see :func:`same_as_word2phrase`).
"""

from __future__ import annotations

import argparse
import gzip
import shutil
import statistics
import sys
from pathlib import Path

from process import cpu_model, timed

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpora" / "wiki2015-text8like.txt.gz"
GENSIM = (
    "import sys; from gensim.models.phrases import Phrases; "
    "from gensim.models.word2vec import LineSentence; "
    "found = Phrases(LineSentence(sys.argv[1]), min_count=5, threshold=100.0); "
    "out = open(sys.argv[2], 'w', encoding='utf-8'); "
    "[out.write(' '.join(found[s]) + '\\n') for s in LineSentence(sys.argv[1])]"
)


def plain_text(corpus: Path, workdir: Path) -> Path:
    workdir.mkdir(parents=True, exist_ok=True)
    text = workdir / (corpus.name.removesuffix(".gz") if corpus.suffix == ".gz" else corpus.name)
    if not text.exists():
        opener = gzip.open if corpus.suffix == ".gz" else open
        with opener(corpus, "rb") as source, open(text, "wb") as out:
            shutil.copyfileobj(source, out, 1 << 24)
    return text


def commands(tool: str, text: Path, out: Path, word2phrase: str | None) -> list[str]:
    if tool == "word2phrase":
        return [word2phrase, "-train", str(text), "-output", str(out), "-min-count", "5",
                "-threshold", "100", "-debug", "0"]  # fmt: skip
    if tool == "gensim":
        return [sys.executable, "-c", GENSIM, str(text), str(out)]
    wordvec = Path(sys.executable).with_name("wordvec")
    return [str(wordvec), "phrases", str(text), "-o", str(out), "--min-count", "5",
            "--threshold", "100", "-q"]  # fmt: skip


def phrases_of(path: Path) -> tuple[list[str], set[str]]:
    tokens = path.read_text(encoding="utf-8").split()
    return tokens, {token for token in tokens if "_" in token}


W2P_WORD_BYTES = 59
"""word2phrase.c cuts longer words (MAX_STRING - 1)."""


def same_as_word2phrase(ours: list[str], theirs: list[str]) -> str:
    """Whether wordvec's tokens are word2phrase's, but for what word2phrase.c does to words
    longer than 59 bytes (cut) and to the last word of a file without a final newline
    (dropped); a difference of any other kind fails the benchmark."""
    cut = [(a, b) for a, b in zip(ours, theirs) if a != b]
    unexplained = [(a, b) for a, b in cut
                   if not (len(a.encode()) > W2P_WORD_BYTES and a.startswith(b))]  # fmt: skip
    assert not unexplained and 0 <= len(ours) - len(theirs) <= 1, unexplained[:5]
    dropped = len(ours) - len(theirs)
    return (f"wordvec's output is word2phrase's, token for token, but for {len(cut)} word(s) "
            f"longer than {W2P_WORD_BYTES} bytes, which word2phrase cuts, and {dropped} last "
            "word, which it drops when the file does not end in a newline")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--word2phrase", help="the word2phrase binary")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--gensim-runs", type=int, default=1, help="gensim takes minutes")
    parser.add_argument("--workdir", type=Path, default=Path("bench-results/phrases"))
    args = parser.parse_args()
    text = plain_text(args.corpus, args.workdir)
    tools = ["wordvec", *(["word2phrase"] if args.word2phrase else []), "gensim"]
    times: dict[str, list[float]] = {tool: [] for tool in tools}
    memory: dict[str, int] = {}
    for run in range(args.runs):
        for tool in tools:
            if tool == "gensim" and run >= args.gensim_runs:
                continue
            out = args.workdir / f"{tool}.txt"
            seconds, rss, _ = timed(commands(tool, text, out, args.word2phrase))
            times[tool].append(seconds)
            memory[tool] = max(memory.get(tool, 0), rss)
    found = {tool: phrases_of(args.workdir / f"{tool}.txt") for tool in tools}
    reference = "word2phrase" if args.word2phrase else "wordvec"
    if args.word2phrase:
        print(same_as_word2phrase(found["wordvec"][0], found["word2phrase"][0]) + "\n")
    print(f"CPU: {cpu_model()}; {text.name}, {len(found['wordvec'][0]):,} tokens out\n")
    print(f"| tool | whole process (median, range) | peak RSS MB | distinct phrases | shared "
          f"with {reference} | vs wordvec |")  # fmt: skip
    print("|---|---|---|---|---|---|")
    ours = statistics.median(times["wordvec"])
    for tool in tools:
        spent, (_, distinct) = times[tool], found[tool]
        shared = len(distinct & found[reference][1])
        median = statistics.median(spent)
        print(f"| {tool} | {median:.1f} s ({min(spent):.1f}-{max(spent):.1f}) | "
              f"{memory[tool]:,} | {len(distinct):,} | {shared:,} | {median / ours:.2f}x |",
              flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
