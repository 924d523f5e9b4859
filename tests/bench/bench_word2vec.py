"""Side-by-side benchmark: wordvec vs gensim 4.x, same corpus, same settings, one run.

    python tests/bench/bench_word2vec.py --corpus ../shared/corpora/wiki2015-text8like.txt.gz
    python tests/bench/bench_word2vec.py --max-tokens 2000000 --epochs 1   # a quick look

Each training runs in its own process so that its peak RSS is its own. Reported: training
words/s per thread (vocabulary tokens x epochs / training seconds, corpus reading excluded for
both tools), total wall time, peak RSS, Google-analogy accuracy (3CosAdd, 30,000 most frequent
words, case-insensitive) and WS-353 Spearman. gensim reads the corpus with its ``Text8Corpus``
iterator.
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
ANALOGIES = ROOT / "corpora" / "questions-words.txt"
WS353 = ROOT / "corpora" / "EN-WS-353-ALL.txt"
SETTINGS = dict(dim=100, window=5, sample=1e-3, min_count=5)


def prepare_corpus(source: Path, max_tokens: int | None, workdir: Path) -> Path:
    """Plain text for both tools, optionally a prefix."""
    target = workdir / "corpus.txt"
    opener = gzip.open if source.suffix == ".gz" else open
    with opener(source, "rt", encoding="utf-8") as src, open(target, "w") as dst:
        if max_tokens is None:
            while block := src.read(1 << 24):
                dst.write(block)
        else:
            words = []
            while len(words) < max_tokens and (block := src.read(1 << 22)):
                words += block.split()
            dst.write(" ".join(words[:max_tokens]) + "\n")
    return target


def quality(words, matrix) -> dict:
    from wordvec.evaluate import (
        evaluate_analogies,
        evaluate_similarity,
        read_analogies,
        read_similarity,
        split_accuracy,
    )
    from wordvec.vectors import Vectors

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
    }


def worker(
    tool: str, model: str, loss: str, threads: int, epochs: int, corpus: str, seed: int
) -> dict:
    started = time.perf_counter()
    negative = 5 if loss == "ns" else 0
    if tool == "wordvec":
        import wordvec

        trained = wordvec.train(
            corpus,
            model=model,
            loss=loss,
            negative=max(negative, 1),
            threads=threads,
            epochs=epochs,
            seed=seed,
            quiet=True,
            **SETTINGS,
        )
        train_seconds = trained.report.seconds
        words = trained.report.words
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
        words = in_vocab * epochs
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
        total_seconds=time.perf_counter() - started,
        words_per_second_per_thread=words / train_seconds / threads,
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
    """One row per run, each with its speed ratio to gensim's run of the same settings and seed;
    with several seeds, then each tool's mean and range of the quality scores."""
    rows = [
        "| model | loss | threads | seed | tool | words/s/thread | ratio | train s | total s "
        "| peak RSS MB | analogy | WS-353 |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]

    def settings(r: dict) -> tuple:
        return r["model"], r["loss"], r["threads"]

    reference = {(*settings(r), r["seed"]): r for r in results if r["tool"] == "gensim"}
    for r in results:
        ref = reference.get((*settings(r), r["seed"]))
        ratio = (
            r["words_per_second_per_thread"] / ref["words_per_second_per_thread"] if ref else None
        )
        rows.append(
            f"| {r['model']} | {r['loss']} | {r['threads']} | {r['seed']} | {r['tool']} "
            f"| {r['words_per_second_per_thread']:,.0f} | {f'{ratio:.2f}x' if ratio else '-'} "
            f"| {r['train_seconds']:.1f} | {r['total_seconds']:.1f} | {r['peak_rss_mb']:,.0f} "
            f"| {100 * r['analogy']:.1f}% | {r['ws353']:.3f} |"
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
    settings = f"{args.epochs} epochs, dim 100, window 5, sample 1e-3, min-count 5"
    publish(args, settings, table(results), results)


if __name__ == "__main__":
    main()
