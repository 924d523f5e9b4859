"""Compressed word models (``wordvec quantize MODEL -o SMALL.wv``): a word model, a fastText
subword model or any vector file wordvec reads, kept at a fraction of its size.

Rows are kept (``--cutoff`` words, ``--ngram-cutoff`` n-gram buckets; buckets no word reads
always dropped; :mod:`.rows`) and product-quantised (``--dsub`` dimensions a byte, ``--qnorm``
lengths apart; :mod:`wordvec.formats.compressed`), or a target ``--size`` picks those settings
(:mod:`.sizing`). The small model is a wordvec model file like any other: every command and
both faces read it, and a subword model still answers for unseen words. What it keeps of the
full model's quality is measured (:mod:`.quality`). A classifier is quantized to fastText's
``.ftz`` instead (:mod:`wordvec.training.quantize`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np

from wordvec.compression.rows import ORDERS, kept_buckets, kept_words, trained_buckets
from wordvec.compression.sizing import Plan, plan_for_size
from wordvec.corpus.vocab import Vocabulary
from wordvec.errors import ConfigError
from wordvec.formats.compressed import compress_rows
from wordvec.formats.container import write_container
from wordvec.formats.names import MODEL_FORMAT
from wordvec.formats.wordvec_model import SavedModel, model_vectors
from wordvec.options import DOC2VEC, SUPERVISED
from wordvec.runtime.progress import announces_compiling, progress_bar

__all__ = ["CompressionReport", "compress", "word_model"]


@dataclass
class CompressionReport:
    """What :func:`compress` wrote: the files' sizes, what was kept, and the quality of the
    full and the small model (:func:`~wordvec.compression.quality.quality`; empty unless
    asked for)."""

    source_bytes: int
    small_bytes: int
    plan: Plan
    fasttext_bytes: int | None = None  # a subword model's: its fastText .bin's, about
    full: dict[str, float] = field(default_factory=dict)
    small: dict[str, float] = field(default_factory=dict)

    @property
    def ratio(self) -> float:
        return self.small_bytes / self.source_bytes


@announces_compiling("quantize")
def compress(
    source: str | os.PathLike,
    path: str | os.PathLike,
    *,
    cutoff: int = 0,
    ngram_cutoff: int = 0,
    by: str = "frequency",
    dsub: int = 2,
    qnorm: bool = True,
    size: int | None = None,
    seed: int | None = None,
    report: bool = False,
    quiet: bool = True,
) -> CompressionReport:
    """Write the word model (or vector file) ``source`` compressed to ``path`` (a wordvec
    model file): ``cutoff`` words and ``ngram_cutoff`` bucket rows kept (0: all), the most
    frequent or of the largest norm (``by``), each row stored as a byte per ``dsub``
    dimensions, its length apart with ``qnorm``; or ``size`` (bytes) picks the cutoffs and
    ``dsub``. ``seed`` (the model's, else 0) seeds the k-means. With ``report``, both
    models are scored; unless ``quiet``, a progress bar counts the rows quantized.

    Example::

        wordvec.compress("ft.wv", "ft-small.wv", size=10_000_000, report=True)
    """
    if by not in ORDERS:
        raise ConfigError(f"by must be one of {ORDERS}, not {by!r}")
    model = word_model(source)
    settings, arrays = model.settings, model.arrays
    subwords = "ngrams" in arrays and int(settings.get("maxn", 0)) > 0
    if (cutoff or size) and (settings.get("model") == DOC2VEC or "units" in arrays):
        raise ConfigError(
            "a doc2vec or BPE model keeps every word (inference and unit vectors read them): "
            "leave out --cutoff and --size, or give --dsub"
        )
    if ngram_cutoff and not subwords:
        raise ConfigError("--ngram-cutoff applies to fastText subword models; this has no n-grams")
    if subwords:
        minn, maxn = int(settings["minn"]), int(settings["maxn"])
        trained = trained_buckets(arrays["ngrams"], model.vocab.words, model.vocab.counts,
                                  minn, maxn)  # fmt: skip
    plan = _plan(model, len(trained.rows) if subwords else None, cutoff, ngram_cutoff, dsub,
                 qnorm, size)  # fmt: skip
    words = kept_words(model.vectors, model.vocab.counts, plan.words, by)
    rng = np.random.default_rng(seed if seed is not None else settings.get("seed") or 0)
    jobs = {name: (matrix, None) for name, matrix in _word_matrices(model, words).items()}
    if subwords:
        buckets = kept_buckets(trained, plan.ngrams, by)
        jobs["ngrams"] = (arrays["ngrams"], buckets)
    table, parts = {}, {}
    rows = sum(len(matrix) if kept is None else len(kept) for matrix, kept in jobs.values())
    with progress_bar("quantizing", rows, unit="rows", quiet=quiet) as bar:
        for name, (matrix, kept) in jobs.items():
            table[name], found = compress_rows(name, matrix, kept, dsub=plan.dsub, qnorm=qnorm,
                                               rng=rng)  # fmt: skip
            parts.update(found)
            bar.update(len(matrix) if kept is None else len(kept))
    vocab = Vocabulary([model.vocab.words[i] for i in words], model.vocab.counts[words])
    quantized = {"dsub": plan.dsub, "qnorm": qnorm, "words": len(words), "by": by}
    if subwords:
        quantized["ngrams"] = len(buckets)
    kept = {name: arrays[name] for name in KEPT_WHOLE if name in arrays}
    meta = {"format": MODEL_FORMAT, "settings": {**settings, "quantized": quantized},
            "compressed": table}  # fmt: skip
    write_container(path, meta, {**vocab.to_arrays(), **parts, **kept})
    result = CompressionReport(_file_bytes(source), os.path.getsize(path), plan)
    if subwords:
        result.fasttext_bytes = fasttext_bin_bytes(model)
    if report:
        from wordvec.compression.quality import quality
        from wordvec.formats import load_vectors

        result.full = quality(model_vectors(model))
        result.small = quality(load_vectors(path))
    return result


def _plan(model: SavedModel, ngrams: int | None, cutoff: int, ngram_cutoff: int, dsub: int,
          qnorm: bool, size: int | None) -> Plan:  # fmt: skip
    """What is kept: as given, or what fits ``size`` bytes."""
    words, dim = len(model.vocab), model.vectors.shape[1]
    if size is None:
        kept_ngrams = None if ngrams is None else min(ngram_cutoff or ngrams, ngrams)
        return Plan(min(cutoff or words, words), kept_ngrams, dsub)
    matrices = len(_word_matrices(model, np.arange(0)))  # as many, whatever words are kept
    vocab_bytes = -(-(len(model.vocab.to_arrays()["words"]) + 1) // max(words, 1)) + 8
    return plan_for_size(size, words, ngrams, dim, matrices, vocab_bytes, qnorm)


KEPT_WHOLE = ("units", "pad_vector")
"""What a small model keeps as it is: the BPE units and the concatenated PV-DM's pad row."""


def _word_matrices(model: SavedModel, words: np.ndarray) -> dict[str, np.ndarray]:
    """The matrices compressed whole (:func:`_plan` counts them): the vectors and a fastText
    model's word rows (of the ``words`` kept), a doc2vec model's document vectors and output
    layer (which inference reads). Other models' output layers are left out: the small model
    answers queries."""
    arrays = model.arrays
    every = len(words) == len(model.vocab)  # then the matrices as they are, not a copy
    matrices = {"vectors": model.vectors if every else np.asarray(model.vectors)[words]}
    if "word_rows" in arrays:
        rows = arrays["word_rows"]
        matrices["word_rows"] = rows if every else np.asarray(rows)[words]
    if "doc_vectors" in arrays:
        matrices["doc_vectors"] = arrays["doc_vectors"]
        matrices["w_out"] = arrays["w_out"]
    return matrices


def fasttext_bin_bytes(model: SavedModel) -> int:
    """About the size of fastText's ``.bin`` of the subword ``model``: its dictionary, its
    input matrix (a row per word and per bucket, every bucket stored) and its output rows,
    what fastText users compare a small model with."""
    rows, dim = len(model.vocab) + len(model.arrays["ngrams"]), model.vectors.shape[1]
    words = sum(len(word.encode()) + 10 for word in model.vocab.words)  # text, \0, count, type
    return 128 + words + (rows + len(model.vocab)) * dim * 4


def _file_bytes(source: str | os.PathLike) -> int:
    """The size of ``source``'s file (an archive's member: the archive)."""
    from wordvec.formats.sources import vector_source

    return os.path.getsize(vector_source(source).path)


def word_model(source: str | os.PathLike) -> SavedModel:
    """The word model ``source`` (a wordvec model file, or any vector file wordvec reads: a
    fastText ``.bin`` keeps its n-grams); a classifier or a compressed model is refused."""
    from wordvec.formats import detect_format, load_vectors
    from wordvec.formats.wordvec_model import read_model
    from wordvec.query.subword_vectors import SubwordVectors

    fmt = detect_format(source)
    if fmt == "model":
        model = read_model(source)
        if model.settings.get("model") == SUPERVISED:
            raise ConfigError(
                "a classifier is quantized to fastText's .ftz: wordvec quantize MODEL -o NAME.ftz"
            )
        if "quantized" in model.settings:
            raise ConfigError(f"{os.path.basename(source)} is compressed already: compress the "
                              "model it came from")  # fmt: skip
        return model
    if fmt == "fasttext-ftz":
        raise ConfigError(f"{os.path.basename(source)} is quantized already (a .ftz)")
    vectors = load_vectors(source)
    counts = vectors.counts if vectors.counts is not None else np.zeros(len(vectors), np.int64)
    vocab = Vocabulary(vectors.words, counts)
    if isinstance(vectors, SubwordVectors):
        settings = {"model": "fasttext", "minn": vectors.minn, "maxn": vectors.maxn,
                    "bucket": vectors.bucket}  # fmt: skip
        return SavedModel(vocab, vectors.vectors, settings, {"ngrams": vectors.ngrams})
    return SavedModel(vocab, vectors.vectors, {}, {})
