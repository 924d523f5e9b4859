"""BPE units side by side: learning and applying them with wordvec, SentencePiece and HF
tokenizers, each a whole process, on the same text (the corpus cut into lines of 50 words).

    python tests/bench/bench_bpe.py --corpus ../shared/corpora/wiki2015-text8like.txt.gz \\
        --vocab-size 32000 --threads 2 --rounds 3 --out bench-results/bpe

Learning: ``wordvec bpe learn``; SentencePiece's trainer (``model_type=bpe``,
``input_sentence_size=0``: every line); HF tokenizers' ``BpeTrainer`` after ``WhitespaceSplit``.
Applying (each its own units): ``wordvec bpe apply`` to a file; HF's ``encode_batch`` of the
same lines, written out as pieces; SentencePiece's ``encode`` likewise. Rounds alternate the
tools; medians, spread and peak RSS are printed and written to OUT.json.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import sys
from pathlib import Path

from process import cpu_model, timed

HF_LEARN = """
import sys
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
tok = Tokenizer(models.BPE(unk_token="<unk>"))
tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
trainer = trainers.BpeTrainer(vocab_size=int(sys.argv[2]), special_tokens=["<unk>"],
                              show_progress=False)
tok.train([sys.argv[1]], trainer)
tok.save(sys.argv[3])
"""

HF_APPLY = """
import sys
from tokenizers import Tokenizer
tok = Tokenizer.from_file(sys.argv[1])
with open(sys.argv[2], encoding="utf-8") as lines, open(sys.argv[3], "w") as out:
    batch = []
    for line in lines:
        batch.append(line.rstrip("\\n"))
        if len(batch) == 10000:
            out.writelines(" ".join(e.tokens) + "\\n" for e in tok.encode_batch(batch))
            batch = []
    out.writelines(" ".join(e.tokens) + "\\n" for e in tok.encode_batch(batch))
"""

SP_LEARN = """
import sys
import sentencepiece as spm
spm.SentencePieceTrainer.train(input=sys.argv[1], model_prefix=sys.argv[3], model_type="bpe",
    vocab_size=int(sys.argv[2]), input_sentence_size=0, num_threads=int(sys.argv[4]),
    character_coverage=1.0, max_sentence_length=100000, minloglevel=2)
"""

SP_APPLY = """
import sys
import sentencepiece as spm
sp = spm.SentencePieceProcessor(model_file=sys.argv[1], num_threads=int(sys.argv[4]))
with open(sys.argv[2], encoding="utf-8") as lines, open(sys.argv[3], "w") as out:
    batch = []
    for line in lines:
        batch.append(line.rstrip("\\n"))
        if len(batch) == 10000:
            out.writelines(" ".join(p) + "\\n" for p in sp.encode(batch, out_type=str))
            batch = []
    out.writelines(" ".join(p) + "\\n" for p in sp.encode(batch, out_type=str))
"""


def lines_of(corpus: str, path: Path, words_a_line: int = 50) -> None:
    """The corpus as lines of ``words_a_line`` words (the shared corpus is one line)."""
    opened = gzip.open if corpus.endswith(".gz") else open
    with opened(corpus, "rt", encoding="utf-8") as text, open(path, "w") as out:
        pending: list[str] = []
        carry = ""
        for chunk in iter(lambda: text.read(1 << 20), ""):
            words = (carry + chunk).split()
            carry = words.pop() if words and not chunk[-1].isspace() else ""
            pending += words
            whole = len(pending) - len(pending) % words_a_line
            for i in range(0, whole, words_a_line):
                out.write(" ".join(pending[i : i + words_a_line]) + "\n")
            pending = pending[whole:]
        rest = " ".join([*pending, carry]).strip()
        if rest:
            out.write(rest + "\n")


def commands(tool: str, step: str, text: Path, work: Path, vocab: int, threads: int):
    python, wordvec = sys.executable, str(Path(sys.executable).parent / "wordvec")
    units = {"wordvec": work / "wordvec.json", "hf": work / "hf.json", "sp": work / "sp"}[tool]
    if step == "learn":
        return {
            "wordvec": [wordvec, "bpe", "learn", str(text), "-o", str(units), "--vocab-size",
                        str(vocab), "--threads", str(threads), "-q"],
            "hf": [python, "-c", HF_LEARN, str(text), str(vocab), str(units)],
            "sp": [python, "-c", SP_LEARN, str(text), str(vocab), str(units), str(threads)],
        }[tool]  # fmt: skip
    out = str(work / f"{tool}.out")
    return {
        "wordvec": [wordvec, "bpe", "apply", str(units), str(text), "-o", out, "--threads",
                    str(threads), "-q"],
        "hf": [python, "-c", HF_APPLY, str(units), str(text), out],
        "sp": [python, "-c", SP_APPLY, f"{units}.model", str(text), out, str(threads)],
    }[tool]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--vocab-size", type=int, default=32000)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tools", default="wordvec,hf,sp")
    parser.add_argument("--out", default="bench-results/bpe")
    args = parser.parse_args()
    tools = args.tools.split(",")
    work = Path(args.out + "-work")
    work.mkdir(parents=True, exist_ok=True)
    text = work / "lines.txt"
    if not text.exists():
        lines_of(args.corpus, text)
    os.environ["RAYON_NUM_THREADS"] = str(args.threads)  # HF tokenizers' thread pool
    print(f"CPU: {cpu_model()}; {args.threads} threads; {text} ({text.stat().st_size:,} bytes)")
    results: dict = {}
    for step in ("learn", "apply"):
        for round_ in range(args.rounds):
            for tool in tools if round_ % 2 == 0 else reversed(tools):
                seconds, rss, _ = timed(commands(tool, step, text, work, args.vocab_size,
                                                 args.threads))  # fmt: skip
                results.setdefault(f"{step} {tool}", []).append((seconds, rss))
                print(f"{step:5} {tool:8} round {round_ + 1}: {seconds:7.2f} s  {rss:6,} MB",
                      flush=True)  # fmt: skip
    print(f"\n{'':14} {'median s':>9} {'min-max s':>14} {'peak MB':>8}")
    summary = {}
    for key, runs in results.items():
        times = [s for s, _ in runs]
        summary[key] = {"median_s": statistics.median(times), "min_s": min(times),
                        "max_s": max(times), "peak_rss_mb": max(r for _, r in runs)}  # fmt: skip
        row = summary[key]
        print(f"{key:14} {row['median_s']:9.2f} {row['min_s']:6.2f}-{row['max_s']:<7.2f}"
              f"{row['peak_rss_mb']:8,}")  # fmt: skip
    for step in ("learn", "apply"):
        ours = summary.get(f"{step} wordvec", {}).get("median_s")
        for tool in tools:
            theirs = summary.get(f"{step} {tool}", {}).get("median_s")
            if ours and theirs and tool != "wordvec":
                print(f"{step}: wordvec {theirs / ours:.2f}x {tool}")
    Path(args.out + ".json").write_text(json.dumps({"cpu": cpu_model(), **summary}, indent=1))


if __name__ == "__main__":
    main()
