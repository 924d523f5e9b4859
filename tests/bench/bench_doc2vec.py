"""Side-by-side benchmark: wordvec's paragraph vectors against gensim 4's ``Doc2Vec``.

    python tests/bench/bench_doc2vec.py                      # the bundled cooking questions
    python tests/bench/bench_doc2vec.py --threads 1 2 --repeats 3 --epochs 20
    python tests/bench/bench_doc2vec.py --threads 1 --repeats 24 --epochs 10 --arches dbow+words \
        --pairs                                              # noise words drawn per pair
    python tests/bench/bench_doc2vec.py --corpus ../shared/corpora/wiki2015-text8like.txt.gz \
        --max-words 2000000 --doc-words 200                  # speed on larger documents

Each document is a line of the cooking questions (train and valid, labels removed); each tool
trains at the same settings (gensim's Doc2Vec defaults but for ``--epochs`` and min count 2)
in its own process: PV-DM, PV-DBOW, PV-DBOW with word training; ``--arches dm-concat``: PV-DM
over the concatenated window (gensim's ``dm_concat=1``). The tools alternate, run by
run, and run ``r`` is seeded ``r + 1`` in both. Reported: wall seconds of the whole process
(reading included; median and range), peak RSS, and the quality of the document vectors (mean
and standard deviation over the runs): the accuracy of a logistic regression (NumPy softmax
regression over the 20 most frequent tags) trained on the training questions' vectors and
scored on the valid questions' vectors, once as trained alongside and once inferred from
their text. With ``--corpus``, the documents are instead the first ``--max-words`` words of a
text cut into lines of ``--doc-words``, and only speed and memory are measured (no labels, no
inference). The wordvec script reads the valid questions line by line: read whole, as gensim's
script reads its training input, a corpus's text (none of it valid) was 12-24 MB of wordvec's
peak memory at the end of training (1-2M words), spent on no part of its work.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
import tempfile
from pathlib import Path

import numpy as np
from process import cpu_model, timed

ROOT = Path(__file__).resolve().parents[2]
ARCHES = {
    "dm": dict(dm=1),
    "dbow": dict(dm=0),
    "dbow+words": dict(dm=0, dbow_words=1),
    "dm-concat": dict(dm=1, dm_concat=1),
}
TOP_TAGS = 20

WORDVEC = """
import sys, numpy as np, wordvec
docs, out, arch, epochs, threads, n_train, seed, pairs = sys.argv[1:9]
options = dict(model="doc2vec", epochs=int(epochs), min_count=2, threads=int(threads),
               seed=int(seed), quiet=True, arch="dm" if arch.startswith("dm") else "dbow",
               dbow_words=arch == "dbow+words")
if arch.startswith("dm"):
    del options["dbow_words"]
if arch == "dm-concat":
    options["context"] = "concat"
if arch == "dbow+words" and pairs == "1":
    options["shared_negatives"] = False
model = wordvec.train(docs, **options)
np.save(out + ".trained.npy", np.asarray(model.arrays["doc_vectors"]))
valid = [line.split() for i, line in enumerate(open(docs)) if i >= int(n_train)]
if valid:
    np.save(out + ".inferred.npy", model.infer_vectors(valid))
"""

GENSIM = """
import sys, numpy as np
from gensim.models.doc2vec import Doc2Vec, TaggedDocument
docs, out, arch, epochs, threads, n_train, seed = sys.argv[1:8]
texts = [line.split() for line in open(docs).read().split("\\n")[:-1]]
options = {"dm": dict(dm=1), "dbow": dict(dm=0), "dbow+words": dict(dm=0, dbow_words=1),
           "dm-concat": dict(dm=1, dm_concat=1)}[arch]
model = Doc2Vec([TaggedDocument(w, [i]) for i, w in enumerate(texts)], epochs=int(epochs),
                min_count=2, workers=int(threads), seed=int(seed), **options)
np.save(out + ".trained.npy", model.dv.vectors)
valid = texts[int(n_train):]
if valid:
    np.save(out + ".inferred.npy", np.stack([model.infer_vector(words) for words in valid]))
"""


def documents(folder: Path) -> tuple[Path, np.ndarray, int]:
    """The questions without labels, a line each (train, then valid), their first tags, and
    how many are training questions."""
    texts, tags = [], []
    for name in ("cooking.train.gz", "cooking.valid.gz"):
        with gzip.open(ROOT / "corpora" / name, "rt", encoding="utf-8") as lines:
            for line in lines:
                words = line.split()
                tags.append(next(w for w in words if w.startswith("__label__")))
                texts.append(" ".join(w for w in words if not w.startswith("__label__")))
        if name.startswith("cooking.train"):
            n_train = len(texts)
    path = folder / "questions.txt"
    path.write_text("\n".join(texts) + "\n", encoding="utf-8")
    return path, np.array(tags), n_train


def corpus_documents(folder: Path, corpus: Path, max_words: int, doc_words: int) -> Path:
    """The first ``max_words`` words of ``corpus`` (plain or .gz) in lines of ``doc_words``,
    read and written a block at a time (the corpus may be one line; this process must stay
    small, as a child's peak RSS counts its parent's at the fork: holding the words, 2M of
    them, it was 197 MB, the reported peak of wordvec's runs)."""
    opener = gzip.open if corpus.suffix == ".gz" else open
    path = folder / "documents.txt"
    pending: list[str] = []  # the words of the line being made
    written = 0
    tail = ""
    with opener(corpus, "rt", encoding="utf-8") as text, path.open("w", encoding="utf-8") as out:

        def add(words: list[str]) -> None:
            nonlocal written
            words = words[: max_words - written]
            written += len(words)
            pending.extend(words)
            while len(pending) >= doc_words:
                out.write(" ".join(pending[:doc_words]) + "\n")
                del pending[:doc_words]

        while written < max_words and (block := text.read(1 << 20)):
            pieces = (tail + block).split()
            tail = "" if block[-1].isspace() else pieces.pop()
            add(pieces)
        if tail:
            add([tail])
        if pending:
            out.write(" ".join(pending) + "\n")
    return path


def accuracy(train_x, train_y, test_x, test_y, steps: int = 300) -> float:
    """A softmax regression (L2 1e-4, full-batch gradient descent) on the vectors centred on
    the training vectors' mean and scaled to unit length (PV-DBOW's vectors share one large
    component: uncentred, every question looked alike)."""
    classes = sorted(set(train_y))
    index = {c: i for i, c in enumerate(classes)}
    centre = train_x.mean(axis=0)
    x, t = train_x - centre, test_x - centre
    x = x / np.linalg.norm(x, axis=1, keepdims=True)
    t = t / np.linalg.norm(t, axis=1, keepdims=True)
    y = np.array([index[c] for c in train_y])
    w = np.zeros((x.shape[1], len(classes)))
    onehot = np.eye(len(classes))[y]
    for _ in range(steps):
        scores = x @ w
        scores -= scores.max(axis=1, keepdims=True)
        p = np.exp(scores)
        p /= p.sum(axis=1, keepdims=True)
        w -= 5.0 * (x.T @ (p - onehot) / len(x) + 1e-4 * w)
    predicted = np.array(classes)[np.argmax(t @ w, axis=1)]
    return float(np.mean(predicted == test_y))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--arches", nargs="+", default=list(ARCHES))
    parser.add_argument("--corpus", type=Path, help="speed on this text's documents instead")
    parser.add_argument("--max-words", type=int, default=2_000_000)
    parser.add_argument("--doc-words", type=int, default=200)
    parser.add_argument(
        "--pairs",
        action="store_true",
        help="PV-DBOW with words: wordvec "
        "draws noise words per pair, as gensim (by default a window shares them)",
    )
    args = parser.parse_args()
    print(f"CPU: {cpu_model()}")
    with tempfile.TemporaryDirectory() as folder:
        if args.corpus is None:
            docs, tags, n_train = documents(Path(folder))
            counts = {tag: int(np.sum(tags == tag)) for tag in set(tags)}
            keep = np.isin(tags, sorted(counts, key=counts.get, reverse=True)[:TOP_TAGS])
        else:
            docs = corpus_documents(Path(folder), args.corpus, args.max_words, args.doc_words)
            tags = keep = None
            n_train = sum(1 for _ in docs.open(encoding="utf-8"))
        rows = []
        for arch in args.arches:
            for threads in args.threads:
                runs = {tool: [] for tool in ("wordvec", "gensim")}
                for repeat in range(args.repeats):
                    for tool, script in (("wordvec", WORDVEC), ("gensim", GENSIM)):
                        out = str(Path(folder) / f"{tool}{repeat}")
                        seconds, peak, _ = timed([sys.executable, "-c", script, str(docs), out,
                                                  arch, str(args.epochs), str(threads),
                                                  str(n_train), str(repeat + 1),
                                                  str(int(args.pairs))])  # fmt: skip
                        quality = () if tags is None else _quality(out, tags, keep, n_train)
                        runs[tool].append((seconds, peak, *quality))
                for tool, measured in runs.items():
                    times = [run[0] for run in measured]
                    row = dict(arch=arch, threads=threads, tool=tool,
                               seconds=statistics.median(times), spread=[min(times), max(times)],
                               rss_mb=max(run[1] for run in measured))  # fmt: skip
                    for at, name in ((2, "trained"), (3, "inferred")) if tags is not None else ():
                        scores = [run[at] for run in measured]
                        row[name] = statistics.mean(scores)
                        row[f"{name}_sd"] = statistics.stdev(scores) if len(scores) > 1 else 0.0
                    rows.append(row)
                    print(json.dumps(row), flush=True)
        _table(rows)


def _quality(out: str, tags: np.ndarray, keep: np.ndarray, n_train: int) -> tuple[float, float]:
    """The accuracy of the run's trained and inferred valid vectors."""
    trained = np.load(out + ".trained.npy")
    inferred = np.load(out + ".inferred.npy")
    train, test = keep[:n_train], keep[n_train:]
    fit = (trained[:n_train][train], tags[:n_train][train])
    truth = tags[n_train:][test]
    return accuracy(*fit, trained[n_train:][test], truth), accuracy(*fit, inferred[test], truth)


def _table(rows: list[dict]) -> None:
    quality = "trained" in rows[0]
    print("\n| arch | threads | tool | seconds (median, range) | peak RSS |"
          + (" accuracy, mean ± SD over runs (trained / inferred) |" if quality else "")
          + "\n|---|---|---|---|---|" + ("---|" if quality else ""))  # fmt: skip
    for row in rows:
        low, high = row["spread"]
        line = (f"| {row['arch']} | {row['threads']} | {row['tool']} | {row['seconds']:.1f} "
                f"({low:.1f}-{high:.1f}) | {row['rss_mb']} MB |")  # fmt: skip
        if quality:
            line += (f" {row['trained']:.3f} ± {row['trained_sd']:.3f} / "
                     f"{row['inferred']:.3f} ± {row['inferred_sd']:.3f} |")  # fmt: skip
        print(line)


if __name__ == "__main__":
    main()
