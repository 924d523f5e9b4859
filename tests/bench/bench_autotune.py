"""Autotune side by side: wordvec's and fastText's search on the cooking data, the same time
budget and threads, each a whole process; the best model's P@1 and R@1 on the validation file.

    python tests/bench/bench_autotune.py --duration 60 --threads 2 --rounds 2

fastText is the ``fasttext`` Python package (``train_supervised(autotuneValidationFile=...)``);
``--fasttext PATH`` adds its CLI (``fasttext supervised -autotune-validation``).
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
import sys, fasttext
try:
    model = fasttext.train_supervised(input=sys.argv[1], autotuneValidationFile=sys.argv[2],
                                      autotuneDuration=int(sys.argv[3]),
                                      thread=int(sys.argv[4]), verbose=0)
except Exception as exc:  # fastText stops the whole search on a trial's NaN
    print(repr(exc)[:200], file=sys.stderr)
    print("nan nan")
else:
    n, p, r = model.test(sys.argv[2])
    print(p, r)
"""

WORDVEC_TEST = """
import sys, wordvec
report = wordvec.Model.load(sys.argv[1]).test(sys.argv[2])
print(report.precision, report.recall)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=int, default=60)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--fasttext", help="fastText's CLI, to run its autotune too")
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
        model = str(work / f"wordvec-{round_}.wv")
        command = [wordvec, "train", train, "-o", model, "--model", "supervised",
                   "--autotune-validation", valid, "--autotune-duration", str(args.duration),
                   "--threads", str(args.threads), "-q"]  # fmt: skip
        seconds, rss, _ = timed(command)
        p, r = map(float, timed([sys.executable, "-c", WORDVEC_TEST, model, valid])[2].split())
        results.append({"tool": "wordvec", "round": round_, "s": seconds, "rss": rss, "p1": p,
                        "r1": r})  # fmt: skip
        seconds, rss, out = timed([sys.executable, "-c", FASTTEXT_PACKAGE, train, valid,
                                   str(args.duration), str(args.threads)])  # fmt: skip
        p, r = map(float, out.split()[-2:])
        results.append({"tool": "fasttext", "round": round_, "s": seconds, "rss": rss, "p1": p,
                        "r1": r})  # fmt: skip
        if args.fasttext:
            prefix = str(work / f"cli-{round_}")
            seconds, rss, _ = timed([args.fasttext, "supervised", "-input", train, "-output",
                                     prefix, "-autotune-validation", valid,
                                     "-autotune-duration", str(args.duration), "-thread",
                                     str(args.threads), "-verbose", "0"])  # fmt: skip
            out = timed([args.fasttext, "test", prefix + ".bin", valid])[2].split()
            results.append({"tool": "fasttext-cli", "round": round_, "s": seconds, "rss": rss,
                            "p1": float(out[3]), "r1": float(out[5])})  # fmt: skip
        for row in results[-2 - bool(args.fasttext) :]:
            print(f"round {round_ + 1} {row['tool']:13} {row['s']:6.1f} s {row['rss']:6,} MB  "
                  f"P@1 {row['p1']:.3f} R@1 {row['r1']:.3f}", flush=True)  # fmt: skip
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out + ".json").write_text(json.dumps({"cpu": cpu_model(), "runs": results}, indent=1))


if __name__ == "__main__":
    main()
