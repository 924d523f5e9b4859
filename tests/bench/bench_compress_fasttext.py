"""compress-fasttext (the project that shrinks gensim's fastText models) on the model that
``tests/bench/bench_compress.py`` compresses, scored by the same measures
(:func:`wordvec.compression.quality.quality`), for the table beside wordvec's curve.

    .venv/bin/python tests/bench/bench_compress_fasttext.py FT.wv [--dir /tmp/cfbench]
        [--seeds 0] [--quantize-all]

Needs ``pip install compress-fasttext`` (with gensim). The model is exported once to fastText's
``.bin`` (``wordvec export --format fasttext-bin``) and read by gensim's
``load_facebook_vectors``; each recipe's model is saved (``small.save``, a gensim pickle: this
benchmark runs compress-fasttext's own code on its own files), loaded back with
``CompressedFastTextKeyedVectors.load`` and scored through :class:`Adapted`, which answers as
the compressed model does: its own vectors for its words, and for a word's n-grams the mean of
its bucket rows over all of the word's n-grams (a pruned bucket a zero row, still counted).
The full model scored through it first must give wordvec's own scores. ``--quantize-all``
adds ``quantize_ft`` alone (every bucket quantised: minutes).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from importlib.metadata import version
from pathlib import Path

import numpy as np

from wordvec.compression.quality import MEASURES, quality
from wordvec.formats import load_vectors
from wordvec.query.subword_vectors import SubwordVectors


class Adapted(SubwordVectors):
    """A gensim (or compress-fasttext) FastTextKeyedVectors as wordvec's subword vectors."""

    def __init__(self, kv):
        words = list(kv.index_to_key)
        matrix = np.stack([np.asarray(kv.get_vector(w), dtype=np.float32) for w in words])
        super().__init__(words, matrix, None, ngrams=np.zeros((kv.bucket, 0)), minn=kv.min_n,
                         maxn=kv.max_n)  # fmt: skip
        self.kv = kv

    def ngram_vector(self, word: str, hashes=None) -> np.ndarray:
        from gensim.models.fasttext import ft_ngram_hashes

        kv = self.kv
        found = ft_ngram_hashes(word, kv.min_n, kv.max_n, kv.bucket)
        rows = [np.asarray(kv.vectors_ngrams[h], dtype=np.float32) for h in found]
        return np.mean(rows, axis=0) if rows else np.zeros(kv.vector_size, np.float32)


def recipes(words: int, ngrams: int, quantize_all: bool) -> list[tuple[str, dict]]:
    every = dict(new_vocab_size=words, new_ngrams_size=ngrams)
    chosen = [
        ("prune_ft_freq", dict(pq=False)),
        ("prune_ft_freq", dict(pq=True)),
        ("prune_ft_freq", dict(pq=True, **every, qdim=50)),
        ("prune_ft_freq", dict(pq=True, new_vocab_size=words, new_ngrams_size=40_000, qdim=50)),
        ("prune_ft_freq", dict(pq=True, new_vocab_size=words, new_ngrams_size=20_000, qdim=20)),
    ]
    return chosen + ([("quantize_ft", {})] if quantize_all else [])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("model", type=Path)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/cfbench"))
    parser.add_argument("--seeds", default="0", help="k-means seeds, comma-separated")
    parser.add_argument("--quantize-all", action="store_true")
    args = parser.parse_args()
    import compress_fasttext
    from compress_fasttext.models import CompressedFastTextKeyedVectors
    from gensim.models.fasttext import load_facebook_vectors

    args.dir.mkdir(parents=True, exist_ok=True)
    exported = args.dir / "ft.bin"
    if not exported.exists():
        subprocess.run([sys.executable, "-m", "wordvec", "export", str(args.model),
                        str(exported), "--format", "fasttext-bin"], check=True)  # fmt: skip
    full = load_facebook_vectors(str(exported))
    ours = quality(load_vectors(args.model))
    theirs = quality(Adapted(full))
    print(f"compress-fasttext {version('compress-fasttext')}; the full model, wordvec / through "
          "the adapter: " +
          ", ".join(f"{m} {ours[m]:.3f} / {theirs[m]:.3f}" for m in MEASURES))  # fmt: skip
    ngrams = len(np.unique(np.concatenate([full.buckets_word[i] for i in range(len(full))])))
    size = args.model.stat().st_size
    print(f"| recipe | bytes | of {args.model.name} | {' | '.join(MEASURES)} | compress s |")
    print("|---|---:|---:|" + "---:|" * len(MEASURES) + "---:|")
    for name, options in recipes(len(full), ngrams, args.quantize_all):
        for seed in map(int, args.seeds.split(",")):
            np.random.seed(seed)  # its k-means (scipy's kmeans2) draws from numpy's global RNG
            started = time.perf_counter()
            small = getattr(compress_fasttext, name)(full, **options)
            seconds = time.perf_counter() - started
            path = args.dir / "small.model"
            small.save(str(path))
            scores = quality(Adapted(CompressedFastTextKeyedVectors.load(str(path))))
            shown = ", ".join(f"{k}={v:,}" if type(v) is int else f"{k}={v}"
                              for k, v in options.items())  # fmt: skip
            cells = [f"{scores[m]:.3f} ({scores[m] - ours[m]:+.3f})" for m in MEASURES]
            print(f"| {name}({shown}), seed {seed} | {path.stat().st_size:,} | "
                  f"{path.stat().st_size / size:.2%} | {' | '.join(cells)} | {seconds:.1f} |",
                  flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
