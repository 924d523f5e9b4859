"""fastText's quantized ``.ftz`` both ways on the cooking data (bigram settings), issue 41.

``python tests/bench/bench_ftz.py [--threads 2]``: trains our classifier (25 epochs, lr 1.0,
word bigrams, 200k buckets) and exports its ``.bin``; quantizes it with the defaults and with
fastText's tutorial settings (``--cutoff 100000 --retrain --qnorm``); for each, the size
against the ``.bin``, P@1 by us and by the ``fasttext`` package, and the share of validation
lines whose top label fastText gives as we do. Then fastText's own model of the same settings,
quantized by the ``fasttext`` package with the tutorial settings, tested by fastText and by us.
Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import gzip
import tempfile
import time
from pathlib import Path

import numpy as np

import wordvec
from wordvec.formats import export, load_classifier

CORPORA = Path(__file__).resolve().parents[2] / "corpora"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=2)
    threads = parser.parse_args().threads
    import fasttext

    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        for part in ("train", "valid"):
            data = gzip.decompress((CORPORA / f"cooking.{part}.gz").read_bytes())
            (folder / f"cooking.{part}").write_bytes(data)
        train, valid = str(folder / "cooking.train"), str(folder / "cooking.valid")
        lines = Path(valid).read_text().splitlines()
        texts = [
            " ".join(w for w in line.split() if not w.startswith("__label__")) for line in lines
        ]
        model = wordvec.train(train, model="supervised", epochs=25, alpha=1.0, word_ngrams=2,
                              bucket=200_000, threads=threads, quiet=True)  # fmt: skip
        model.save(folder / "clf.wv")
        export(folder / "clf.wv", folder / "clf.bin", "fasttext-bin")
        bin_size = (folder / "clf.bin").stat().st_size
        full = load_classifier(folder / "clf.wv").test(lines).precision
        print("| file | size MB | x .bin | s | P@1 ours | P@1 fastText | top label agrees |")
        print("|---|---|---|---|---|---|---|")
        print(f"| ours .bin | {bin_size / 1e6:.1f} | 1.00 | | {full:.4f} | | |")
        for name, options in (
            ("ours .ftz, defaults", {}),
            ("ours .ftz, cutoff 100000, retrain, qnorm",
             dict(cutoff=100_000, retrain=train, qnorm=True, threads=threads)),
        ):  # fmt: skip
            path = folder / "ours.ftz"
            start = time.perf_counter()
            wordvec.quantize(folder / "clf.wv", path, **options)
            seconds = time.perf_counter() - start
            ours = load_classifier(path)
            theirs = fasttext.load_model(str(path))
            top = [p[0][0] for p in ours.predict_lines(texts, block=1024)]
            agree = np.mean([a == b[0] for a, b in zip(top, theirs.predict(texts)[0])])
            size = path.stat().st_size
            print(f"| {name} | {size / 1e6:.2f} | {size / bin_size:.3f} | {seconds:.1f} | "
                  f"{ours.test(lines).precision:.4f} | {theirs.test(valid)[1]:.4f} | "
                  f"{agree:.2%} |")  # fmt: skip
        theirs = fasttext.train_supervised(input=train, epoch=25, lr=1.0, wordNgrams=2,
                                           bucket=200_000, thread=threads, verbose=0)  # fmt: skip
        theirs_full = theirs.test(valid)[1]
        start = time.perf_counter()
        theirs.quantize(input=train, qnorm=True, retrain=True, cutoff=100_000)
        seconds = time.perf_counter() - start
        theirs.save_model(str(folder / "ft.ftz"))
        ours = load_classifier(folder / "ft.ftz")
        size = (folder / "ft.ftz").stat().st_size
        print(f"| fastText's .bin | | | | | {theirs_full:.4f} | |")
        print(f"| fastText's .ftz, cutoff 100000, retrain, qnorm | {size / 1e6:.2f} | "
              f"{size / bin_size:.3f} | {seconds:.1f} | {ours.test(lines).precision:.4f} | "
              f"{theirs.test(valid)[1]:.4f} | |")  # fmt: skip


if __name__ == "__main__":
    main()
