"""Side-by-side benchmark: wordvec vs gensim 4.x (and pWord2Vec), same corpus and settings.

    python tests/bench/bench_word2vec.py --corpus ../shared/corpora/wiki2015-text8like.txt.gz
    python tests/bench/bench_word2vec.py --max-tokens 2000000 --epochs 1   # a quick look
    python tests/bench/bench_word2vec.py --models sg \
        --tools wordvec,wordvec-pairs,gensim,pword2vec --pword2vec ~/pWord2Vec/pWord2Vec

The corpus is written in lines of 1,000 words (what pWord2Vec reads). Each training runs in its
own process so that its peak RSS is its own. Reported: training words/s per thread (vocabulary
tokens x epochs / training seconds, corpus reading excluded; pWord2Vec's own rate), total wall
time (what a user waits for, reading included), peak RSS, Google-analogy accuracy (3CosAdd,
30,000 most frequent words, case-insensitive) and WS-353 Spearman. gensim reads the corpus
with its ``Text8Corpus`` iterator.

Tools: ``wordvec`` (its defaults: skip-gram with negative sampling shares each window's
negatives), ``wordvec-pairs`` (skip-gram with ``--per-pair-negatives``, word2vec's update and
wordvec's before window batching), ``gensim``, and ``pword2vec`` (Intel's HogBatch program,
skip-gram with negative sampling only, given ``--pword2vec PATH``; README: how to build it).
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from process import byte_compile_wordvec, cpu_model, fair_blas

ROOT = Path(__file__).resolve().parents[2]
ANALOGIES = ROOT / "corpora" / "questions-words.txt"
WS353 = ROOT / "corpora" / "EN-WS-353-ALL.txt"
WS353_SIM, WS353_REL = (WS353.with_name(f"EN-WS-353-{half}.txt") for half in ("SIM", "REL"))
SETTINGS = dict(dim=100, window=5, sample=1e-3, min_count=5)
LINE_WORDS = 1_000
SKIP_GRAM_NS_ONLY = ("wordvec-pairs", "pword2vec")
"""Tools that train skip-gram with negative sampling only (skipped for other settings)."""
_PWORD2VEC_SPEED = re.compile(r"Words/sec: ([0-9.]+)k")


def source_words(source: Path):
    """The words of a plain or .gz text, streamed."""
    opener = gzip.open if source.suffix == ".gz" else open
    with opener(source, "rt", encoding="utf-8") as src:
        tail = ""
        while block := src.read(1 << 22):
            words = (tail + block).split()
            tail = "" if block[-1].isspace() or not words else words.pop()  # cut by the block
            yield from words
        if tail:
            yield tail


def prepare_corpus(source: Path, max_tokens: int | None, workdir: Path) -> Path:
    """Plain text for every tool in lines of 1,000 words, optionally a prefix."""
    target = workdir / "corpus.txt"
    words = itertools.islice(source_words(source), max_tokens)
    with open(target, "w", encoding="utf-8") as dst:
        while line := list(itertools.islice(words, LINE_WORDS)):
            dst.write(" ".join(line) + "\n")
    return target


def quality(words, matrix) -> dict:
    from wordvec.query.evaluate import (
        evaluate_analogies,
        evaluate_similarity,
        read_analogies,
        read_similarity,
        split_accuracy,
    )
    from wordvec.query.vectors import Vectors

    vectors = Vectors(words, matrix)
    analogy = evaluate_analogies(vectors, read_analogies(ANALOGIES), restrict=30_000)
    similarity = evaluate_similarity(vectors, read_similarity(WS353))
    groups = split_accuracy(analogy)
    return {
        "analogy": analogy.accuracy,
        "semantic": groups["semantic"][0] / max(groups["semantic"][1], 1),
        "syntactic": groups["syntactic"][0] / max(groups["syntactic"][1], 1),
        "analogy_coverage": analogy.covered / analogy.total,
        "ws353": similarity.rho,
        # Agirre et al.'s halves: similar words (car, automobile) and related ones (car, road)
        "ws353_sim": evaluate_similarity(vectors, read_similarity(WS353_SIM)).rho,
        "ws353_rel": evaluate_similarity(vectors, read_similarity(WS353_REL)).rho,
    }


def run_pword2vec(binary: str, threads: int, epochs: int, corpus: str) -> tuple[dict, float, float]:
    """Train skip-gram with pWord2Vec; return its quality scores, its own words/s (all threads)
    and its wall time. Its peak RSS is read by the caller from RUSAGE_CHILDREN."""
    from wordvec.formats import load_vectors

    environment, _ = fair_blas(binary)
    with tempfile.TemporaryDirectory(prefix="pword2vec-") as workdir:
        vectors = Path(workdir) / "vectors.txt"
        started = time.perf_counter()
        command = [binary, "-train", corpus, "-output", vectors, "-size", SETTINGS["dim"],
             "-window", SETTINGS["window"], "-sample", SETTINGS["sample"], "-negative", 5,
             "-min-count", SETTINGS["min_count"], "-iter", epochs, "-threads", threads,
             "-alpha", 0.025, "-batch-size", 2 * SETTINGS["window"] + 1, "-binary", 0,
             "-debug", 2]  # fmt: skip
        done = subprocess.run(
            [str(part) for part in command],
            check=True,
            capture_output=True,
            text=True,
            env=environment,
        )
        wall = time.perf_counter() - started
        trained = load_vectors(vectors)  # word2vec text
    speed = float(_PWORD2VEC_SPEED.findall(done.stdout)[-1]) * 1000
    return quality(trained.words, trained.vectors), speed, wall


def worker(
    tool: str, model: str, loss: str, threads: int, epochs: int, corpus: str, seed: int
) -> dict:
    started = time.perf_counter()
    negative = 5 if loss == "ns" else 0
    if tool == "pword2vec":
        result, speed, total_seconds = run_pword2vec(
            os.environ["PWORD2VEC"], threads, epochs, corpus
        )
        train_seconds = None  # not reported: its words/s is
        speed /= threads
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    elif tool.startswith("wordvec"):
        import wordvec

        pairs = tool == "wordvec-pairs"
        trained = wordvec.train(
            corpus,
            model=model,
            loss=loss,
            **({"negative": negative} if negative else {}),
            threads=threads,
            epochs=epochs,
            seed=seed,
            quiet=True,
            **({"shared_negatives": False} if pairs else {}),
            **SETTINGS,
        )
        total_seconds = time.perf_counter() - started
        train_seconds = trained.report.seconds
        speed = trained.report.words / train_seconds / threads
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        result = quality(trained.vocab.words, trained.vectors)
    else:
        from gensim.models import Word2Vec
        from gensim.models.word2vec import Text8Corpus

        gensim_model = Word2Vec(
            vector_size=SETTINGS["dim"],
            window=SETTINGS["window"],
            sample=SETTINGS["sample"],
            min_count=SETTINGS["min_count"],
            sg=int(model == "sg"),
            hs=int(loss == "hs"),
            negative=negative,
            workers=threads,
            seed=seed,
            alpha=0.025 if model == "sg" else 0.05,
        )
        # Text8Corpus streams a one-line corpus in sentences of 10,000 words; gensim's
        # corpus_file mode mis-trains on a single 100 MB line (0% analogies when we tried).
        sentences = Text8Corpus(corpus)
        gensim_model.build_vocab(sentences)
        in_vocab = sum(
            gensim_model.wv.get_vecattr(w, "count") for w in gensim_model.wv.index_to_key
        )
        t0 = time.perf_counter()
        gensim_model.train(sentences, total_examples=gensim_model.corpus_count, epochs=epochs)
        train_seconds = time.perf_counter() - t0
        total_seconds = time.perf_counter() - started
        speed = in_vocab * epochs / train_seconds / threads
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        result = quality(gensim_model.wv.index_to_key, gensim_model.wv.vectors)
    result.update(
        tool=tool,
        model=model,
        loss=loss,
        threads=threads,
        epochs=epochs,
        seed=seed,
        train_seconds=train_seconds,
        total_seconds=total_seconds,  # the run as a user waits for it, evaluation excluded
        words_per_second_per_thread=speed,
        peak_rss_mb=peak,  # after training, before evaluation
    )
    return result


def softmax_scaling(source: Path, workdir: Path) -> str:
    """Full-softmax skip-gram words/s at growing vocabulary sizes: its cost is O(V) per word.

    Each corpus is a line with the V most frequent words (of the first 2M tokens), so the
    vocabulary is exactly V, then a short prefix of the text: few tokens, since large V is slow.
    """
    from collections import Counter

    import wordvec

    ranked = [
        w
        for w, _ in Counter(
            prepare_corpus(source, 2_000_000, workdir).read_text().split()
        ).most_common()
    ]
    text = prepare_corpus(source, 200_000, workdir).read_text().split()
    rows = ["| vocabulary | tokens | words/s | words/s x vocabulary |", "|---|---|---|---|"]
    for n_words, n_tokens in ((1_000, 200_000), (5_000, 40_000), (20_000, 10_000)):
        corpus = workdir / "softmax.txt"
        corpus.write_text(" ".join(ranked[:n_words]) + "\n" + " ".join(text[:n_tokens]) + "\n")
        trained = wordvec.train(
            corpus,
            model="sg",
            loss="softmax",
            max_vocab=n_words,
            min_count=1,
            epochs=1,
            threads=1,
            quiet=True,
        )
        speed = trained.report.words_per_second
        rows.append(
            f"| {len(trained.vocab):,} | {trained.report.words:,} | {speed:,.0f} "
            f"| {speed * len(trained.vocab):,.0f} |"
        )
        print(rows[-1], flush=True)
    return "\n".join(rows)


def run_worker(script: str, *arguments: object) -> tuple[dict, str]:
    """Run ``script --worker ARGUMENTS`` in a process of its own, so that its peak RSS is its
    own; return the JSON object it prints last, and its stderr. PYTHONHASHSEED is fixed so
    that gensim's runs repeat."""
    byte_compile_wordvec()
    done = subprocess.run(
        [sys.executable, script, "--worker", *map(str, arguments)],
        check=True,
        capture_output=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    stdout, stderr = (out.decode(errors="replace") for out in (done.stdout, done.stderr))
    return json.loads(stdout.strip().splitlines()[-1]), stderr


def bench_arguments(doc: str, name: str, epochs: int) -> argparse.ArgumentParser:
    """The options every benchmark script takes: corpus, epochs, a prefix, where to write."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument(
        "--corpus", type=Path, default=ROOT.parent / "shared/corpora/wiki2015-text8like.txt.gz"
    )
    parser.add_argument("--epochs", type=int, default=epochs)
    parser.add_argument("--max-tokens", type=int, default=None, help="use a prefix of the corpus")
    parser.add_argument("--out", type=Path, default=ROOT / "bench-results" / name)
    return parser


def publish(args: argparse.Namespace, settings: str, table: str, results) -> None:
    """Print the results table under a line naming the corpus, and save it (.md, .json)."""
    text = (
        f"corpus: {args.corpus.name}"
        + (f" (first {args.max_tokens:,} tokens)" if args.max_tokens else "")
        + f"; {settings}\n\n{table}"
    )
    print("\n" + text)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.with_suffix(".md").write_text(text + "\n")
    args.out.with_suffix(".json").write_text(json.dumps(results, indent=1) + "\n")


def table(results: list[dict]) -> str:
    """One row per run, each with its speed ratios to gensim's and pWord2Vec's runs of the same
    settings and seed; with several seeds, then each tool's mean and range of the quality
    scores."""
    rows = [
        "| model | loss | threads | seed | tool | words/s/thread | vs gensim | vs pWord2Vec "
        "| train s | total s | peak RSS MB | analogy | WS-353 | sim | rel |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]

    def settings(r: dict) -> tuple:
        return r["model"], r["loss"], r["threads"]

    def ratio_to(tool: str, r: dict) -> str:
        ref = next(
            (x for x in results if x["tool"] == tool and settings(x) == settings(r)
             and x["seed"] == r["seed"]),
            None,
        )  # fmt: skip
        if ref is None:
            return "-"
        return f"{r['words_per_second_per_thread'] / ref['words_per_second_per_thread']:.2f}x"

    for r in results:
        train = "-" if r["train_seconds"] is None else f"{r['train_seconds']:.1f}"
        rows.append(
            f"| {r['model']} | {r['loss']} | {r['threads']} | {r['seed']} | {r['tool']} "
            f"| {r['words_per_second_per_thread']:,.0f} | {ratio_to('gensim', r)} "
            f"| {ratio_to('pword2vec', r)} | {train} | {r['total_seconds']:.1f} "
            f"| {r['peak_rss_mb']:,.0f} | {100 * r['analogy']:.1f}% | {r['ws353']:.3f} "
            f"| {r.get('ws353_sim', float('nan')):.3f} | {r.get('ws353_rel', float('nan')):.3f} |"
        )
    if len({r["seed"] for r in results}) > 1:
        rows += ["", "| model | loss | threads | tool | seeds | analogy mean (range) "
                 "| WS-353 mean (range) |", "|---|---|---|---|---|---|---|"]  # fmt: skip
        groups: dict[tuple, list[dict]] = {}
        for r in results:
            groups.setdefault((*settings(r), r["tool"]), []).append(r)
        for (model, loss, threads, tool), runs in groups.items():
            analogy = [100 * r["analogy"] for r in runs]
            ws = [r["ws353"] for r in runs]
            rows.append(
                f"| {model} | {loss} | {threads} | {tool} | {len(runs)} "
                f"| {np.mean(analogy):.1f}% ({min(analogy):.1f}-{max(analogy):.1f}) "
                f"| {np.mean(ws):.3f} ({min(ws):.3f}-{max(ws):.3f}) |"
            )
    return "\n".join(rows)


def main() -> None:
    parser = bench_arguments(__doc__, "word2vec", epochs=5)
    parser.add_argument("--models", default="sg,cbow")
    parser.add_argument("--losses", default="ns")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--tools", default="wordvec,gensim")
    parser.add_argument("--seeds", default="1", help="several: quality spread across seeds")
    parser.add_argument(
        "--softmax-scaling",
        action="store_true",
        help="instead: full-softmax words/s at vocabularies of 1k, 5k, 20k",
    )
    parser.add_argument(
        "--pword2vec",
        type=Path,
        help="pWord2Vec's binary, for --tools pword2vec (README: how to build it)",
    )
    parser.add_argument("--worker", nargs=7, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.softmax_scaling:
        with tempfile.TemporaryDirectory(prefix="wordvec-bench-") as workdir:
            text = softmax_scaling(args.corpus, Path(workdir))
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.with_name("softmax-scaling.md").write_text(text + "\n")
        return
    if args.worker:
        tool, model, loss, threads, epochs, corpus, seed = args.worker
        print(json.dumps(worker(tool, model, loss, int(threads), int(epochs), corpus, int(seed))))
        return

    if "pword2vec" in args.tools.split(","):
        if args.pword2vec is None:
            parser.error("--tools pword2vec needs --pword2vec PATH")
        os.environ["PWORD2VEC"] = str(args.pword2vec.resolve())
        environment, core = fair_blas(os.environ["PWORD2VEC"])
        coretype = environment.get("OPENBLAS_CORETYPE")
        blas = f"CPU: {cpu_model()}; pWord2Vec's OpenBLAS core: {core}" + (
            f" (OPENBLAS_CORETYPE={coretype})" if coretype else ""
        )
        print(blas, flush=True)
    else:
        blas = f"CPU: {cpu_model()}"
    results = []
    runs = itertools.product(
        args.models.split(","),
        args.losses.split(","),
        args.threads.split(","),
        args.seeds.split(","),
        args.tools.split(","),
    )
    with tempfile.TemporaryDirectory(prefix="wordvec-bench-") as workdir:
        corpus = prepare_corpus(args.corpus, args.max_tokens, Path(workdir))
        for model, loss, threads, seed, tool in runs:
            if tool in SKIP_GRAM_NS_ONLY and (model, loss) != ("sg", "ns"):
                continue
            result, _ = run_worker(__file__, tool, model, loss, threads, args.epochs, corpus, seed)
            results.append(result)
            r = results[-1]
            print(
                f"{tool:8} {model:4} {loss:7} threads={threads} seed={seed}: "
                f"{r['words_per_second_per_thread']:,.0f} words/s/thread, "
                f"analogy {100 * r['analogy']:.1f}%, WS-353 {r['ws353']:.3f}, "
                f"peak RSS {r['peak_rss_mb']:,.0f} MB",
                flush=True,
            )
    settings = f"{args.epochs} epochs, dim 100, window 5, sample 1e-3, min-count 5; {blas}"
    publish(args, settings, table(results), results)


if __name__ == "__main__":
    main()
