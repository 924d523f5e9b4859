"""Autotune side by side: wordvec's and fastText's search on the cooking data, the same time
budget and threads, each a whole process; the best model's P@1 and R@1 on the validation file.

    python tests/bench/bench_autotune.py --duration 60 --threads 2 --rounds 2
    python tests/bench/bench_autotune.py --duration 30 --model-size 2M   # quantized to fit

fastText is the ``fasttext`` Python package (``train_supervised(autotuneValidationFile=...)``);
``--fasttext PATH`` adds its CLI (``fasttext supervised -autotune-validation``). With
``--model-size``, both search for a ``.ftz`` of at most that many bytes (fastText's
``autotuneModelSize``), whose size is reported too.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import tempfile
from pathlib import Path

from process import cpu_model, timed

CORPORA = Path(__file__).resolve().parents[2] / "corpora"

FASTTEXT_PACKAGE = """
import os, sys, fasttext
size = {"autotuneModelSize": sys.argv[6]} if sys.argv[6] else {}
try:
    model = fasttext.train_supervised(input=sys.argv[1], autotuneValidationFile=sys.argv[2],
                                      autotuneDuration=int(sys.argv[3]),
                                      thread=int(sys.argv[4]), verbose=0, **size)
except Exception as exc:  # fastText stops the whole search on a trial's NaN
    print(repr(exc)[:200], file=sys.stderr)
    print("nan nan nan")
else:
    n, p, r = model.test(sys.argv[2])
    model.save_model(sys.argv[5])
    print(p, r, os.path.getsize(sys.argv[5]))
"""

WORDVEC_TEST = """
import os, sys, wordvec
from wordvec.corpus.sources import text_lines
report = wordvec.load_classifier(sys.argv[1]).test(text_lines(sys.argv[2]))
print(report.precision, report.recall, os.path.getsize(sys.argv[1]))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=int, default=60)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--fasttext", help="fastText's CLI, to run its autotune too")
    parser.add_argument("--model-size", default="", help="a .ftz of at most this size (2M)")
    parser.add_argument("--out", default="bench-results/autotune")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp())
    for part in ("train", "valid"):
        (work / part).write_bytes(gzip.decompress((CORPORA / f"cooking.{part}.gz").read_bytes()))
    train, valid = str(work / "train"), str(work / "valid")
    wordvec = str(Path(sys.executable).parent / "wordvec")
    print(f"CPU: {cpu_model()}; {args.threads} threads; budget {args.duration} s")
    results = []
    for round_ in range(args.rounds):
        suffix = ".ftz" if args.model_size else ".wv"
        model = str(work / f"wordvec-{round_}{suffix}")
        sized = ["--autotune-model-size", args.model_size] if args.model_size else []
        command = [wordvec, "train", train, "-o", model, "--model", "supervised",
                   "--autotune-validation", valid, "--autotune-duration", str(args.duration),
                   "--threads", str(args.threads), "-q", *sized]  # fmt: skip
        seconds, rss, _ = timed(command)
        out = timed([sys.executable, "-c", WORDVEC_TEST, model, valid])[2]
        p, r, size = map(float, out.split())
        results.append({"tool": "wordvec", "round": round_, "s": seconds, "rss": rss, "p1": p,
                        "r1": r, "bytes": size})  # fmt: skip
        theirs = str(work / f"fasttext-{round_}{'.ftz' if args.model_size else '.bin'}")
        seconds, rss, out = timed([sys.executable, "-c", FASTTEXT_PACKAGE, train, valid,
                                   str(args.duration), str(args.threads), theirs,
                                   args.model_size])  # fmt: skip
        p, r, size = map(float, out.split()[-3:])
        results.append({"tool": "fasttext", "round": round_, "s": seconds, "rss": rss, "p1": p,
                        "r1": r, "bytes": size})  # fmt: skip
        if args.fasttext:
            prefix = str(work / f"cli-{round_}")
            seconds, rss, _ = timed([args.fasttext, "supervised", "-input", train, "-output",
                                     prefix, "-autotune-validation", valid,
                                     "-autotune-duration", str(args.duration), "-thread",
                                     str(args.threads), "-verbose", "0"])  # fmt: skip
            out = timed([args.fasttext, "test", prefix + ".bin", valid])[2].split()
            results.append({"tool": "fasttext-cli", "round": round_, "s": seconds, "rss": rss,
                            "p1": float(out[3]), "r1": float(out[5]),
                            "bytes": Path(prefix + ".bin").stat().st_size})  # fmt: skip
        for row in results[-2 - bool(args.fasttext) :]:
            print(f"round {round_ + 1} {row['tool']:13} {row['s']:6.1f} s {row['rss']:6,} MB  "
                  f"P@1 {row['p1']:.3f} R@1 {row['r1']:.3f}  {row['bytes']:,.0f} bytes",
                  flush=True)  # fmt: skip
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out + ".json").write_text(json.dumps({"cpu": cpu_model(), "runs": results}, indent=1))


if __name__ == "__main__":
    main()
