"""How reading and training scale with corpus size and threads (issue: billion-token corpora).

Makes a corpus of N tokens, then measures, each in a process of its own (so that peak memory is
the step's own): reading and encoding it (words/s once numba has loaded its kernels, that
start-up apart, the whole process's time, peak RSS, the temporary disk the ids take; first
with the Python reader the numba one replaced, as the reference),
and one epoch of skip-gram on 1..T threads (words/s per thread). Two kinds of corpus:

- ``wiki``: the shared Wikipedia corpus (``--source``) repeated with its lines shuffled, in lines
  of 1,000 words, up to N tokens: text8's vocabulary at any size.
- ``zipf``: words drawn from a Zipf law with a long tail (exponent ``--zipf``; 1.12 gives about
  4M distinct words in 20M tokens), like a web crawl's: the vocabulary table is the challenge.

Example::

    python tests/bench/bench_scale.py --kind zipf --tokens 20000000 --threads 1,2
    python tests/bench/bench_scale.py --kind wiki --tokens 1000000000 --threads 1,2,4,8,16 \\
        --workdir /scratch
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import multiprocessing
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from process import byte_compile_wordvec, text_tokens

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "corpora" / "wiki2015-text8like.txt.gz"
LINE_WORDS = 1000

READ = """
import json, resource, sys, tempfile, time
from pathlib import Path
from wordvec.corpus.reading import _encode_in_python, encode_corpus
from wordvec.options import ReadingOptions
corpus, threads, tmp = sys.argv[1], int(sys.argv[2]), sys.argv[3]
python_reader = len(sys.argv) > 4  # the reference: the Python reader that numba replaced
read = []
with tempfile.TemporaryDirectory(dir=tmp) as workdir:
    started = time.perf_counter()  # numba's start-up (~0.4 s a process) timed apart
    if not python_reader:
        (Path(workdir) / "warm-up.txt").write_text("numba loads its kernels once")
        encode_corpus(Path(workdir) / "warm-up.txt", workdir, threads=threads, min_count=1)
    startup = time.perf_counter() - started
    started = time.perf_counter()
    if python_reader:
        reading = ReadingOptions()
        vocab, encoded = _encode_in_python(corpus, Path(workdir), 1, reading, None, read.append)
    else:
        vocab, encoded = encode_corpus(corpus, workdir, threads=threads, on_tokens=read.append)
    seconds = time.perf_counter() - started
    print(json.dumps({"seconds": seconds, "startup_seconds": startup, "tokens": sum(read),
                      "vocab": len(vocab), "ids_bytes": 4 * encoded.length,
                      "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

TRAIN = """
import json, resource, sys
import wordvec
corpus, threads, tmp = sys.argv[1], int(sys.argv[2]), sys.argv[3]
model = wordvec.train(corpus, model="sg", epochs=1, threads=threads, tmp_dir=tmp, quiet=True)
print(json.dumps({"words_per_second": model.report.words_per_second,
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def make_wiki(path: Path, tokens: int, source: Path, seed: int) -> None:
    """The source corpus in lines of LINE_WORDS words, repeated with shuffled lines."""
    with gzip.open(source, "rt", encoding="utf-8") as text:
        stream = text_tokens(text)  # not all in memory: a child's peak RSS starts at ours
        lines = []
        while line := list(itertools.islice(stream, LINE_WORDS)):
            lines.append(" ".join(line))
    rng = np.random.default_rng(seed)
    written = 0
    with open(path, "w", encoding="utf-8") as out:
        while written < tokens:
            for index in rng.permutation(len(lines)):
                out.write(lines[index] + "\n")
                written += LINE_WORDS
                if written >= tokens:
                    break


def make_zipf(path: Path, tokens: int, exponent: float, seed: int) -> None:
    """Words ``w<rank in hex>`` with ranks drawn from a Zipf law, in lines of LINE_WORDS."""
    rng = np.random.default_rng(seed)
    with open(path, "w", encoding="utf-8") as out:
        for start in range(0, tokens, 1_000_000):
            ranks = rng.zipf(exponent, min(1_000_000, tokens - start))
            words = [f"w{rank:x}" for rank in ranks.tolist()]
            for i in range(0, len(words), LINE_WORDS):
                out.write(" ".join(words[i : i + LINE_WORDS]) + "\n")


def run_step(code: str, corpus: Path, threads: int, workdir: Path, *extra: str) -> dict:
    byte_compile_wordvec()
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", code, str(corpus), str(threads), str(workdir), *extra],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["process_seconds"] = time.perf_counter() - started
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kind", choices=["wiki", "zipf"], default="wiki")
    parser.add_argument("--tokens", type=int, default=20_000_000)
    parser.add_argument("--zipf", type=float, default=1.12, help="Zipf exponent (kind zipf)")
    parser.add_argument("--source", type=Path, default=SHARED, help="corpus for kind wiki")
    parser.add_argument("--threads", default="1,2", help="thread counts, e.g. 1,2,4,8,16")
    parser.add_argument("--workdir", type=Path, default=Path("bench-results/scale"))
    parser.add_argument("--no-train", action="store_true", help="measure reading only")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    corpus = args.workdir / f"{args.kind}-{args.tokens}.txt"
    if not corpus.exists():
        print(f"making {corpus} ...", file=sys.stderr)
        partial = corpus.with_suffix(".partial")
        maker, extra = (make_wiki, args.source) if args.kind == "wiki" else (make_zipf, args.zipf)
        # in a process of its own: Linux keeps a process's peak RSS across exec, so the steps
        # forked from a parent that held the text would all report its peak
        process = multiprocessing.get_context("spawn").Process(
            target=maker, args=(partial, args.tokens, extra, args.seed)
        )
        process.start()
        process.join()
        os.replace(partial, corpus)
    threads = [int(t) for t in args.threads.split(",")]
    print(f"corpus {corpus} ({corpus.stat().st_size / 1e9:.2f} GB)")
    print(
        "| step | threads | words/s | words/s/thread | start-up s | process s | peak RSS MB "
        "| tmp disk GB |"
    )
    print("|---|---|---|---|---|---|---|---|")
    readers = [("read + encode, Python reader", 1, ("python",))]
    readers += [("read + encode", t, ()) for t in threads]
    for step, t, extra in readers:
        read = run_step(READ, corpus, t, args.workdir, *extra)
        rate = read["tokens"] / read["seconds"]
        print(
            f"| {step} | {t} | {rate:,.0f} | {rate / t:,.0f} | {read['startup_seconds']:.2f} | "
            f"{read['process_seconds']:.1f} | {read['peak_rss_mb']:.0f} | "
            f"{read['ids_bytes'] / 1e9:.2f} |  (vocab {read['vocab']:,})",
            flush=True,
        )
    if args.no_train:
        return
    for t in threads:
        train = run_step(TRAIN, corpus, t, args.workdir)
        rate = train["words_per_second"]
        print(
            f"| skip-gram epoch | {t} | {rate:,.0f} | {rate / t:,.0f} | | "
            f"{train['process_seconds']:.1f} | {train['peak_rss_mb']:.0f} | |",
            flush=True,
        )


if __name__ == "__main__":
    main()
