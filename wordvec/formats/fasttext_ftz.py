"""Writing fastText's quantized ``.ftz``: a classifier's ``.bin`` with its input matrix (and with
``qout`` its output matrix) product-quantized (:mod:`wordvec.formats.quantized`), as fastText's
``quantize`` makes it.

``cutoff`` keeps the input rows of the largest L2 norm (words and n-grams alike, the end-of-line
word always), as fastText's ``selectEmbeddings``: the kept words in their dictionary order, the
dropped ones leave the dictionary (a line reads them as unknown words, whose word n-grams still
count), and the kept buckets get rows in norm order, listed in the dictionary's ``pruneidx``.
:func:`wordvec.training.quantize.quantize` may train the kept rows again before they are
quantized (fastText's ``-retrain``). Reading is :mod:`wordvec.formats.fasttext_bin`'s.
"""

from __future__ import annotations

import os

import numpy as np

from wordvec.corpus.labelled import EOS
from wordvec.corpus.vocab import Vocabulary
from wordvec.errors import ConfigError, FormatError, NotAClassifier
from wordvec.formats.fasttext_bin import fasttext_parts, write_head, write_matrix
from wordvec.formats.quantized import quantized_matrix_bytes
from wordvec.formats.wordvec_model import SavedModel, model_classifier
from wordvec.options import SUPERVISED
from wordvec.runtime.atomic import atomic_write

OUTPUT_DSUB = 2
"""fastText quantizes the output rows (``-qout``) in slices of 2, whatever ``-dsub``."""
_NORM_CHUNK = 1 << 16


QNORM = True
"""wordvec's default for ``-qnorm`` (fastText's is off): on fastText's tutorial bigram model of
the cooking questions (lr 1.0, 25 epochs, wordNgrams 2; P@1 0.572 full), the default ``.ftz``
scored 0.517 both by wordvec and by fastText's own quantize; with the norms apart 0.546, in a
file 2% larger (101 MB against 99 MB). fastText's package face keeps fastText's default."""


def write_fasttext_ftz(
    model: SavedModel,
    path: str | os.PathLike,
    *,
    cutoff: int = 0,
    pruned: np.ndarray | None = None,
    qnorm: bool = QNORM,
    qout: bool = False,
    dsub: int = 2,
    seed: int | None = None,
) -> None:
    """Write the classifier ``model`` as a fastText ``.ftz`` atomically (fastText's
    ``quantize`` with ``-cutoff``, ``-qnorm``, ``-qout``, ``-dsub``). ``pruned``: ``model`` is
    cut already (:func:`pruned_model`, then retrained: :func:`wordvec.training.quantize.quantize`)
    and these are its kept buckets. ``seed`` (default: the model's) seeds the k-means."""
    check_quantizable(model, cutoff, dsub, seed)
    if pruned is None and 0 < cutoff < input_rows(model):
        model, pruned = pruned_model(model, cutoff)
    parts = fasttext_parts(model)
    model_seed = model.settings.get("seed")  # a hand-edited file's may be anything
    rng = np.random.default_rng(
        seed if seed is not None else model_seed if _is_seed(model_seed) else None
    )
    dim = model.vectors.shape[1]
    rows = np.concatenate([np.asarray(block) for block in parts.input_blocks])
    if not (np.isfinite(rows).all() and np.isfinite(parts.output).all()):
        raise FormatError("the model is corrupt: its weights hold NaN or infinite values")
    encoded = quantized_matrix_bytes(rows, min(dsub, dim), qnorm, rng)
    output = None
    if qout:  # slices no wider than a row (dim 1): our reader refuses wider ones
        output = quantized_matrix_bytes(parts.output, min(OUTPUT_DSUB, dim), qnorm, rng)
    with atomic_write(path, "wb") as out:
        write_head(out, parts, pruned)
        out.write(b"\x01")
        out.writelines(encoded)
        if output is None:
            write_matrix(out, [parts.output], dim)
        else:
            out.write(b"\x01")
            out.writelines(output)


def check_quantizable(model: SavedModel, cutoff: int, dsub: int, seed: int | None = None) -> None:
    """Raise unless ``model`` is a sound classifier and the options are in range."""
    if model.settings.get("model") != SUPERVISED:
        raise NotAClassifier(
            "a .ftz quantizes a classifier (fastText quantizes supervised models only); "
            f"this is a --model {model.settings.get('model')} model"
        )
    if dsub < 1 or cutoff < 0:
        raise ConfigError(f"--dsub must be at least 1 and --cutoff at least 0 ({dsub}, {cutoff})")
    if seed is not None and not _is_seed(seed):
        raise ConfigError(f"--seed must be a whole number from 0, not {seed!r}")
    model_classifier(model)  # its labels and weights checked against one another


def _is_seed(value) -> bool:
    """Whether ``value`` can seed NumPy's generator: a whole number from 0 (not JSON's true)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def input_rows(model: SavedModel) -> int:
    """The rows of the model's input matrix: its words', then its buckets'."""
    return model.vectors.shape[0] + len(model.arrays.get("ngrams", ()))


def pruned_model(model: SavedModel, cutoff: int) -> tuple[SavedModel, np.ndarray]:
    """``model`` keeping its ``cutoff`` input rows of largest norm (EOS first), and the kept
    buckets over their rows (2, K) (fastText's ``selectEmbeddings`` and ``Dictionary::prune``)."""
    word_rows = model.arrays.get("word_rows", model.vectors)
    ngrams = model.arrays.get("ngrams")
    n_words = len(word_rows)
    norms = np.concatenate([_row_norms(word_rows), _row_norms(ngrams)])
    norms[model.vocab.index[EOS]] = np.inf
    order = np.argsort(-norms, kind="stable")[:cutoff]
    words = np.sort(order[order < n_words])
    grams = order[order >= n_words] - n_words  # in norm order: their rows' order
    vocab = Vocabulary([model.vocab.words[i] for i in words], model.vocab.counts[words])
    kept_rows = np.asarray(word_rows)[words]
    arrays = {**model.arrays, "word_rows": kept_rows}
    if ngrams is not None:
        arrays["ngrams"] = np.asarray(ngrams[grams])
    by_bucket = np.argsort(grams, kind="stable")
    pruned = np.stack([grams[by_bucket], by_bucket]).astype(np.int64)
    return SavedModel(vocab, kept_rows, model.settings, arrays), pruned


def _row_norms(matrix: np.ndarray | None) -> np.ndarray:
    """The L2 norm of each row, read in chunks (a bucket matrix may be 800 MB)."""
    if matrix is None:
        return np.zeros(0)
    return np.concatenate(
        [
            np.linalg.norm(np.asarray(matrix[start : start + _NORM_CHUNK], np.float64), axis=1)
            for start in range(0, len(matrix), _NORM_CHUNK)
        ]
        or [np.zeros(0)]
    )
