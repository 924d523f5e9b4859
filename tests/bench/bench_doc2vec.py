"""Side-by-side benchmark: wordvec's paragraph vectors against gensim 4's ``Doc2Vec``.

    python tests/bench/bench_doc2vec.py                      # the bundled cooking questions
    python tests/bench/bench_doc2vec.py --threads 1 2 --repeats 3 --epochs 20

Each document is a line of the cooking questions (train and valid, labels removed); each tool
trains at the same settings (gensim's Doc2Vec defaults but for ``--epochs`` and min count 2)
in its own process: PV-DM, PV-DBOW, PV-DBOW with word training. Reported: wall seconds of the
whole process (reading included), peak RSS, and the quality of the document vectors: the
accuracy of a logistic regression (NumPy softmax regression over the 20 most frequent tags)
trained on the training questions' vectors and scored on the valid questions' vectors, once as
trained alongside and once inferred from their text.
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
ARCHES = {"dm": dict(dm=1), "dbow": dict(dm=0), "dbow+words": dict(dm=0, dbow_words=1)}
TOP_TAGS = 20

WORDVEC = """
import json, sys, numpy as np, wordvec
docs, out, arch, epochs, threads = sys.argv[1:6]
options = dict(model="doc2vec", epochs=int(epochs), min_count=2, threads=int(threads), seed=1,
               quiet=True, arch="dm" if arch == "dm" else "dbow", dbow_words=arch == "dbow+words")
if arch == "dm":
    del options["dbow_words"]
model = wordvec.train(docs, **options)
valid = [line.split() for line in open(docs).read().split("\\n")[int(sys.argv[6]):-1]]
np.save(out + ".trained.npy", np.asarray(model.arrays["doc_vectors"]))
np.save(out + ".inferred.npy", model.infer_vectors(valid))
"""

GENSIM = """
import sys, numpy as np
from gensim.models.doc2vec import Doc2Vec, TaggedDocument
docs, out, arch, epochs, threads = sys.argv[1:6]
texts = [line.split() for line in open(docs).read().split("\\n")[:-1]]
options = {"dm": dict(dm=1), "dbow": dict(dm=0), "dbow+words": dict(dm=0, dbow_words=1)}[arch]
model = Doc2Vec([TaggedDocument(w, [i]) for i, w in enumerate(texts)], epochs=int(epochs),
                min_count=2, workers=int(threads), seed=1, **options)
valid = texts[int(sys.argv[6]):]
np.save(out + ".trained.npy", model.dv.vectors)
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
    args = parser.parse_args()
    print(f"CPU: {cpu_model()}")
    with tempfile.TemporaryDirectory() as folder:
        docs, tags, n_train = documents(Path(folder))
        counts = {tag: int(np.sum(tags == tag)) for tag in set(tags)}
        top = sorted(counts, key=counts.get, reverse=True)[:TOP_TAGS]
        keep = np.isin(tags, top)
        rows = []
        for arch in args.arches:
            for threads in args.threads:
                for tool, script in (("wordvec", WORDVEC), ("gensim", GENSIM)):
                    times, rss = [], []
                    for _ in range(args.repeats):
                        out = str(Path(folder) / tool)
                        seconds, peak, _ = timed([sys.executable, "-c", script, str(docs), out,
                                                  arch, str(args.epochs), str(threads),
                                                  str(n_train)])  # fmt: skip
                        times.append(seconds)
                        rss.append(peak)
                    trained = np.load(out + ".trained.npy")
                    inferred = np.load(out + ".inferred.npy")
                    train, test = keep[:n_train], keep[n_train:]
                    fit = (trained[:n_train][train], tags[:n_train][train])
                    truth = tags[n_train:][test]
                    row = dict(
                        arch=arch, threads=threads, tool=tool, seconds=statistics.median(times),
                        spread=[min(times), max(times)], rss_mb=max(rss),
                        trained=accuracy(*fit, trained[n_train:][test], truth),
                        inferred=accuracy(*fit, inferred[test], truth),
                    )  # fmt: skip
                    rows.append(row)
                    print(json.dumps(row), flush=True)
        print("\n| arch | threads | tool | seconds (median, spread) | peak RSS | accuracy "
              "(trained / inferred) |\n|---|---|---|---|---|---|")  # fmt: skip
        for row in rows:
            low, high = row["spread"]
            print(f"| {row['arch']} | {row['threads']} | {row['tool']} | {row['seconds']:.1f} "
                  f"({low:.1f}-{high:.1f}) | {row['rss_mb']} MB | {row['trained']:.3f} / "
                  f"{row['inferred']:.3f} |")  # fmt: skip


if __name__ == "__main__":
    main()
