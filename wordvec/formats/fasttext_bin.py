"""fastText's ``.bin`` model format (version 12), read and written: word vector models
(skip-gram, CBOW) and supervised classifiers; its quantized classifiers (``.ftz``) are read
here too, written by :mod:`wordvec.formats.fasttext_ftz`.

Layout (native little-endian; as fastText's ``FastText::saveModel`` writes it)::

    int32 magic 793712314, int32 version 12
    args    int32 dim, ws, epoch, minCount, neg, wordNgrams, loss, model, bucket, minn,
            maxn, lrUpdateRate; float64 t           (loss: hs 1, ns 2, softmax 3, ova 4;
                                                    model: cbow 1, sg 2, supervised 3)
    dict    int32 size, nwords, nlabels; int64 ntokens; int64 pruneidx_size (-1: none);
            per entry: UTF-8 word, NUL, int64 count, int8 type (0 word, 1 label);
            pruneidx_size pairs int32 bucket, int32 row (a .ftz cut by -cutoff)
    input   uint8 quantized; int64 rows, int64 dim; float32 rows x dim
            (nwords word rows, then bucket n-gram rows, or the kept ones of pruneidx);
            quantized: :mod:`wordvec.formats.quantized`'s layout
    output  uint8 quantized (-qout); int64 rows, int64 dim; float32 rows x dim
            (one row per word, or per label for a classifier)

A classifier's words come first in the dictionary, then its labels. With hierarchical softmax
fastText's branch bit is the opposite of word2vec's, whose convention wordvec trains with: the
inner nodes' output rows are negated both ways (sigmoid(-x) = 1 - sigmoid(x)), so the same
tree gives the same probabilities.

fastText and gensim recompute each word's n-grams from the dictionary when they load, so the
files agree with them only because our hashing is fastText's (:mod:`wordvec.kernels.subwords`).
"""

from __future__ import annotations

import os
import struct
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from wordvec.errors import (
    ConfigError,
    FormatError,
    NotAClassifier,
    NotWordVectors,
    UndecodableText,
)
from wordvec.options import OPTION, SUPERVISED, predicts_centre, resolve
from wordvec.query.vectors import Vectors
from wordvec.runtime.atomic import atomic_write

if TYPE_CHECKING:
    from wordvec.formats.wordvec_model import SavedModel
    from wordvec.query.classifier import Classifier

MAGIC = 793712314
VERSION = 12
MAGIC_BYTES = struct.pack("<i", MAGIC)
EOS = "</s>"  # fastText's end-of-line word; it has no n-grams
_ARGS = struct.Struct("<12id")
_DICT_HEAD = struct.Struct("<3iqq")
_LEGACY_DICT_HEAD = struct.Struct("<3iq")  # before 0.1.0: no pruned buckets
_ENTRY_TAIL = struct.Struct("<qb")
_FLAG = struct.Struct("<B")
_MATRIX_HEAD = struct.Struct("<qq")
_LOSS_CODES = {"hs": 1, "ns": 2, "softmax": 3, "ova": 4}
_ARCH_CODES = {"cbow": 1, "sg": 2}
_SUPERVISED_CODE = 3
_LABEL = 1  # an entry's type
_MAX_WORD_BYTES = 1 << 16
_LR_UPDATE_RATE = 100  # fastText's default; stored for its loader, unused here


def write_fasttext_bin(model: SavedModel, path: str | os.PathLike, name: str = "the model") -> None:
    """Write a wordvec model (``name`` in errors: its file's) as a fastText ``.bin``
    atomically.

    A fastText model is written with its word and bucket rows; a word2vec model becomes a
    fastText model without subwords (``maxn 0``), whose input rows are its vectors; a
    classifier is written with its labels, word n-grams and output rows.
    """
    write_fasttext_parts(fasttext_parts(model, name), path, name)


def write_fasttext_parts(parts: FastTextParts, path: str | os.PathLike, name: str) -> None:
    """Write what a fastText ``.bin`` holds (:func:`fasttext_parts`) atomically."""
    dim = parts.output.shape[1]
    with atomic_write(path, "wb") as out:
        write_head(out, parts)
        write_matrix(out, parts.input_blocks, dim, name)
        write_matrix(out, [parts.output], dim, name)


class FastTextParts(NamedTuple):
    """A model as fastText's file holds it, matrices aside of their encoding."""

    args: bytes  # the packed args block
    entries: list[tuple[str, int, int]]  # (word, count, type): the words, then the labels
    n_words: int
    input_blocks: list[np.ndarray]  # the word rows, then the bucket rows
    output: np.ndarray  # fastText's output rows


def fasttext_parts(model: SavedModel, name: str = "the model") -> FastTextParts:
    """What fastText's file of ``model`` (``name`` in errors) holds (:class:`FastTextParts`);
    a :class:`FormatError` for a model fastText's files cannot hold (every writer of ``.bin``
    and ``.ftz`` comes through here: none writes a file fastText would misread)."""
    from wordvec.formats.wordvec_model import check_fasttext_compatible, label_vocabulary

    check_fasttext_compatible(model)
    settings = model.settings
    supervised = settings.get("model") == SUPERVISED
    buckets = "ngrams" in model.arrays
    word_rows = model.arrays.get("word_rows", model.vectors)
    blocks = [word_rows, model.arrays["ngrams"]] if buckets else [word_rows]
    dim = model.vectors.shape[1]
    subwords = buckets and int(settings.get("maxn", 0)) > 0
    try:  # settings from a file: a hand-edited one may hold anything
        if supervised:
            arch = _SUPERVISED_CODE
            labels = label_vocabulary(model.arrays, "the model")
            output = _classifier_output_rows(model.arrays["w_out"], len(labels), settings)
        else:
            cbow = predicts_centre(_setting(settings, "model"), _setting(settings, "arch"))
            arch = _ARCH_CODES["cbow" if cbow else "sg"]
            labels = None
            output = _output_rows(model)
        args = _ARGS.pack(
            dim,
            int(_setting(settings, "window")),
            int(_setting(settings, "epochs")),
            int(_setting(settings, "min_count")),
            int(_setting(settings, "negative")),
            int(settings.get("word_ngrams", 1)),
            _LOSS_CODES[_file_loss(_setting(settings, "loss"))],
            arch,
            int(settings["bucket"]) if buckets else 0,
            int(settings["minn"]) if subwords else 0,
            int(settings["maxn"]) if subwords else 0,
            _LR_UPDATE_RATE,
            float(settings.get("sample") or 0.0),
        )
    except (KeyError, TypeError, ValueError, struct.error) as exc:
        raise FormatError(f"{name} is corrupt: its settings ({exc!r})") from None
    entries = [(word, count, 0) for word, count in zip(model.vocab.words, model.vocab.counts)]
    if labels is not None:
        entries += [(label, count, _LABEL) for label, count in zip(labels.words, labels.counts)]
    return FastTextParts(args, entries, len(model.vocab), blocks, output)


def read_fasttext_parts(path: str | os.PathLike) -> FastTextParts:
    """What a word-vector ``.bin`` (not quantized) holds, to write back with other matrices
    (:func:`with_matrices`)."""
    model = _Model(Path(path), vectors_only=True)
    if model.quantized:
        raise NotWordVectors(f"{model.name} is quantized (a classifier), not word vectors")
    n_words = len(model.words)
    output = model.reader.matrix_at_head(n_words, model.dim)
    entries = [(word, count, 0) for word, count in zip(model.words, model.counts)]
    return FastTextParts(_ARGS.pack(*model.args), entries, n_words, [model.input], output)


def with_matrices(parts: FastTextParts, input_matrix: np.ndarray, output: np.ndarray,
                  name: str = "the model") -> FastTextParts:  # fmt: skip
    """``parts`` with other matrices of as many rows (a dimension reduced, say): the
    args' dimension follows them."""
    rows, out_rows = sum(len(block) for block in parts.input_blocks), len(parts.output)
    got, dim = input_matrix.shape
    if got != rows or output.shape != (out_rows, dim):
        raise FormatError(f"{name} has {rows} input and {out_rows} output rows, not {got} and "
                          f"{len(output)} of one width")  # fmt: skip
    args = struct.pack("<i", input_matrix.shape[1]) + parts.args[4:]  # dim, the args' first
    return parts._replace(args=args, input_blocks=[input_matrix], output=output)


def write_head(out, parts: FastTextParts, pruned: np.ndarray | None = None) -> None:
    """Write the magic, version, args and dictionary; ``pruned`` (a ``.ftz`` of fastText's
    ``-cutoff``): the kept buckets over their rows, (2, K), as the dictionary's ``pruneidx``."""
    entries = parts.entries
    tokens = sum(int(count) for _, count, _ in entries)
    n_pruned = -1 if pruned is None else pruned.shape[1]
    out.write(struct.pack("<ii", MAGIC, VERSION))
    out.write(parts.args)
    out.write(_DICT_HEAD.pack(len(entries), parts.n_words, len(entries) - parts.n_words,
                              tokens, n_pruned))  # fmt: skip
    for word, count, kind in entries:
        out.write(word.encode() + b"\0" + _ENTRY_TAIL.pack(int(count), kind))
    if pruned is not None:
        out.write(np.ascontiguousarray(pruned.T, dtype="<i4").tobytes())


def _classifier_output_rows(w_out: np.ndarray, n_labels: int, settings: dict) -> np.ndarray:
    """fastText's output matrix of a classifier: a row per label; hierarchical softmax's
    n_labels - 1 inner nodes negated (fastText's branch bit), and one zero row after them."""
    if settings.get("loss") != "hs":
        return w_out
    return np.vstack([-np.asarray(w_out), np.zeros((n_labels - len(w_out), w_out.shape[1]))])


def _setting(settings: dict, name: str) -> object:
    """A model's setting, or its default (vectors read from a plain file have none)."""
    return settings.get(name, OPTION[name].default)


def _file_loss(loss: object) -> object:
    """The loss a fastText file says: its format holds one output layer, so ``hs+ns`` keeps
    hierarchical softmax's, with its ``neg`` (as gensim's ``save_facebook_model`` writes
    ``hs=1, negative=5``; the words' rows of negative sampling are left out)."""
    return "hs" if loss == "hs+ns" else loss


def _output_rows(model: SavedModel) -> np.ndarray:
    """The output matrix fastText expects: one row per word (hs has V - 1 inner nodes; hs+ns
    the words' rows first, then the nodes', which are kept). A model without one, or whose
    output layer is not ``dim`` wide (doc2vec's concatenated window: fastText has no such
    model), gets zeros, as fastText starts its own."""
    n_words, dim = model.vectors.shape
    w_out = model.arrays.get("w_out")
    if w_out is None or w_out.shape[1] != dim:
        return np.zeros((n_words, dim), dtype=np.float32)
    if model.settings.get("loss") == "hs+ns":
        w_out = w_out[n_words:]
    if w_out.shape[0] < n_words:
        return np.vstack([w_out, np.zeros((n_words - w_out.shape[0], dim), dtype=w_out.dtype)])
    return w_out


_CHUNK_ROWS = 1 << 16


def write_matrix(out, blocks: list[np.ndarray], dim: int, name: str = "the model") -> None:
    """Write a full (not quantized) matrix: its flag and size, then the rows of ``blocks``,
    each chunk checked finite first, as every export checks what it writes: a NaN from a
    damaged model file (``name``) is refused, not copied (the atomic write then leaves
    nothing behind)."""
    rows = sum(block.shape[0] for block in blocks)
    out.write(_FLAG.pack(0) + _MATRIX_HEAD.pack(rows, dim))
    for block in blocks:
        for start in range(0, len(block), _CHUNK_ROWS):
            chunk = np.ascontiguousarray(block[start : start + _CHUNK_ROWS], dtype="<f4")
            if not np.isfinite(chunk).all():
                raise FormatError(f"{name} is corrupt: its weights hold NaN or infinite values")
            out.write(chunk)


def read_fasttext_bin(path: str | os.PathLike) -> Vectors:
    """Read the vectors of a fastText ``.bin`` (ours or fastText's): :class:`SubwordVectors`
    (unseen words included) when it has subwords, else plain :class:`Vectors`.

    A classifier's ``.bin`` or ``.ftz`` gives its words' vectors, the ones fastText's ``nn``
    searches. The matrices are memory-mapped, not read; corrupt and truncated models are
    refused with a clear error.
    """
    from wordvec.kernels.rows import mean_input_vectors
    from wordvec.query.subword_vectors import SubwordVectors

    model = _Model(Path(path))
    if model.quantized:
        return _quantized_word_vectors(model)
    model.reader.check_output_matrix(model.dim)  # a classifier's: its words' vectors, as nn
    ptr, idx = model.word_rows()
    vectors = mean_input_vectors(model.input, ptr, idx)
    if not model.maxn:
        return Vectors(model.words, vectors, model.counts)
    return SubwordVectors(
        model.words,
        vectors,
        model.counts,
        ngrams=model.input[len(model.words) :],
        minn=model.minn,
        maxn=model.maxn,
    )


def read_fasttext_classifier(path: str | os.PathLike) -> Classifier:
    """Read a supervised fastText ``.bin`` or ``.ftz`` (fastText's or ours) as a classifier."""
    return _classifier(_Model(Path(path)))


FASTTEXT_LOADED_LR = 0.05
"""The rate of a model fastText loads (its file does not store one: fastText's default), which
its ``quantize -retrain`` trains with unless given ``-lr``."""


def read_fasttext_model(path: str | os.PathLike) -> SavedModel:
    """A supervised ``.bin`` (fastText's or ours, not quantized) as the model wordvec trains,
    so that ``quantize`` cuts, retrains and quantizes it as one of its own: the file's settings,
    the rate :data:`FASTTEXT_LOADED_LR`; a word's vector the mean of its rows, as fastText's."""
    from wordvec.formats.wordvec_model import SavedModel
    from wordvec.kernels.rows import mean_input_vectors

    model = _Model(Path(path))
    if model.quantized:
        raise FormatError(f"{model.name} is quantized already: quantize the .bin it came from")
    classifier = _classifier(model)
    dictionary, n_words = classifier.dictionary, len(model.words)
    given = dict(
        model=SUPERVISED, dim=model.dim, window=model.window, epochs=model.epochs,
        min_count=model.min_count, negative=model.negative, word_ngrams=model.word_ngrams,
        loss=model.loss, sample=model.sample, label=dictionary.prefix, alpha=FASTTEXT_LOADED_LR,
    )  # fmt: skip
    if model.maxn:
        given.update(minn=model.minn, maxn=model.maxn)
    if dictionary.bucket:
        given["bucket"] = model.bucket
    try:
        settings = resolve(given, OPTION, SUPERVISED, check_applies=False)
    except ConfigError as exc:
        raise FormatError(f"{model.name} is corrupt (settings: {exc})") from None
    arrays = {"w_out": np.asarray(classifier.w_out), **dictionary.labels_arrays()}
    if model.maxn:
        vectors = mean_input_vectors(model.input, *dictionary.word_rows())
        arrays["word_rows"] = model.input[:n_words]
    else:
        vectors = model.input[:n_words]
    if len(model.input) > n_words:
        arrays["ngrams"] = model.input[n_words:]
    return SavedModel(dictionary.words, vectors, settings, arrays)


def _quantized_word_vectors(model: _Model) -> Vectors:
    """A quantized classifier's word vectors (fastText quantizes classifiers only): each word's
    mean of its rows; a model that keeps every bucket answers unseen words from its n-grams."""
    from wordvec.kernels.rows import mean_input_vectors
    from wordvec.query.subword_vectors import SubwordVectors

    classifier = _classifier(model)
    vectors = mean_input_vectors(model.input, *classifier.dictionary.word_rows())
    if not model.maxn or model.pruned is not None:
        return Vectors(model.words, vectors, model.counts)
    ngrams = model.input[len(model.words) :]
    return SubwordVectors(
        model.words, vectors, model.counts, ngrams=ngrams, minn=model.minn, maxn=model.maxn
    )


def _classifier(model: _Model) -> Classifier:
    from wordvec.corpus.labelled import LabelledVocabulary
    from wordvec.corpus.vocab import Vocabulary
    from wordvec.query.classifier import Classifier

    if not model.labels or model.arch != _SUPERVISED_CODE or model.loss is None:
        raise NotAClassifier(
            f"{model.name} holds word vectors, not a classifier: a fastText classifier is "
            "trained with 'fasttext supervised' (or 'wordvec train --model supervised')"
        )
    if EOS not in model.words or model.word_ngrams < 1:
        raise FormatError(f"{model.name} is corrupt (classifier settings)")
    if model.loss == "hs" and np.any(np.diff(model.label_counts) > 0):
        raise FormatError(f"{model.name} is corrupt (label counts)")
    n_words, n_labels = len(model.words), len(model.labels)
    output = model.reader.matrix_at_head(n_labels, model.dim)
    if model.loss == "hs":  # fastText's branch bit is the opposite of ours
        output = -np.asarray(output[: n_labels - 1])
    n_grams = len(model.input) > n_words  # none in a .ftz that keeps no bucket
    dictionary = LabelledVocabulary(
        Vocabulary(model.words, model.counts),
        Vocabulary(model.labels, model.label_counts),
        prefix=_label_prefix(model.labels),
        minn=model.minn if n_grams else 0,
        maxn=model.maxn if n_grams else 0,
        bucket=model.bucket if n_grams else 0,
        word_ngrams=model.word_ngrams,
        pruned=model.pruned if n_grams else None,
    )
    word_rows = model.input[:n_words]
    ngrams = model.input[n_words:] if len(model.input) > n_words else None
    return Classifier(dictionary, word_rows, ngrams, output, model.loss, name=model.name,
                      quantized=bool(model.quantized))  # fmt: skip


_LOSS_NAMES = {code: name for name, code in _LOSS_CODES.items()}


def _label_prefix(labels: list[str]) -> str:
    """The label prefix a fastText classifier was trained with (not stored in its file): the
    labels' longest common prefix up to and including its last ``__``, fastText's default."""
    first, last = min(labels), max(labels)  # every label shares what these two share
    common = first[: next((i for i, (a, b) in enumerate(zip(first, last)) if a != b), len(first))]
    cut = common.rfind("__")
    return common[: cut + 2] if cut > 0 else (common or "__label__")


class _Model:
    """The header, dictionary and input matrix of a ``.bin``, checked; the output matrix is
    read on demand (vectors do not need it)."""

    def __init__(
        self, path: Path, *, legacy: bool = False, encoding: str = "utf-8",
        vectors_only: bool = False,
    ):  # fmt: skip
        """``legacy``: also read the files of fastText before 0.1.0 (2017), which have no
        magic number, version, pruned buckets or quantization flags (gensim reads them too);
        never guessed from a file's content, which would take any binary file for one.
        ``encoding``: the words' (fastText writes the bytes of its input). ``vectors_only``: a
        classifier is refused from its header, before its words are read."""
        self.name = path.name
        self.reader = reader = _Reader(path, encoding)
        magic, version = reader.unpack(struct.Struct("<ii"))
        self.legacy = legacy and magic != MAGIC
        if self.legacy:
            reader.position, version = 0, 0  # the args come first
        elif magic != MAGIC:
            raise FormatError(f"{path.name} is not a fastText .bin file")
        if version > VERSION:
            raise FormatError(f"{path.name}: fastText format version {version} is newer than 12")
        self.args = args = reader.unpack(_ARGS)
        self.dim, self.word_ngrams, loss, self.arch = args[0], args[5], args[6], args[7]
        self.window, self.epochs, self.min_count, self.negative = args[1:5]
        self.sample = args[12]
        self.bucket, self.minn, self.maxn = args[8], args[9], args[10]
        self.loss = _LOSS_NAMES.get(loss)
        if self.legacy:
            size, n_words, n_labels, _, prune_size = *reader.unpack(_LEGACY_DICT_HEAD), -1
        else:
            size, n_words, n_labels, _, prune_size = reader.unpack(_DICT_HEAD)
        if not 0 < n_words <= size or n_labels != size - n_words or prune_size < -1:
            raise FormatError(f"{path.name} is corrupt (dictionary of {size} entries)")
        if vectors_only and (n_labels or self.arch == _SUPERVISED_CODE):
            raise NotWordVectors(f"{path.name} is a classifier, not word vectors")
        self.words, self.counts = self._entries(n_words, 0, 0)
        self.labels, self.label_counts = self._entries(n_labels, n_words, _LABEL)
        buckets = self.bucket if (self.maxn or (n_labels and self.word_ngrams > 1)) else 0
        self.pruned = self._pruneidx(prune_size, buckets) if prune_size >= 0 else None
        self.quantized = not self.legacy and reader.flag("input")
        if self.pruned is not None and not self.quantized:
            raise FormatError(f"{path.name} is corrupt (a pruned dictionary, full matrices)")
        expected = n_words + (buckets if self.pruned is None else self.pruned.shape[1])
        rows, cols = (expected, self.dim) if self.quantized else reader.unpack(_MATRIX_HEAD)
        if self.dim < 1 or cols != self.dim or rows != expected:
            raise FormatError(
                f"{path.name} is corrupt (input matrix {rows} x {cols} for {n_words} words, "
                f"{self.bucket} buckets, dim {self.dim})"
            )
        from wordvec.corpus.subwords import check_subword_settings

        n_grams = rows - n_words if self.pruned is None else buckets
        check_subword_settings(path.name, self.minn, self.maxn, self.bucket, n_grams)
        if self.quantized:
            from wordvec.formats.quantized import read_quantized_matrix

            self.input = read_quantized_matrix(reader, path.name, rows, self.dim)
        else:
            self.input = reader.matrix(rows, cols)

    def _pruneidx(self, size: int, buckets: int) -> np.ndarray:
        """A pruned dictionary's kept buckets (sorted) over their rows, (2, size) int64: each
        bucket below ``buckets`` and each row below ``size``, no bucket or row twice."""
        if size > buckets:
            raise FormatError(f"{self.name} is corrupt ({size} kept buckets of {buckets})")
        pairs = np.asarray(self.reader.array(2 * size, "<i4"), dtype=np.int64).reshape(size, 2)
        pairs = pairs[np.argsort(pairs[:, 0], kind="stable")].T
        buckets_ok = size == 0 or (pairs[0, 0] >= 0 and pairs[0, -1] < buckets)
        distinct = np.all(np.diff(pairs[0]) > 0) and np.array_equal(
            np.sort(pairs[1]), np.arange(size)
        )
        if not (buckets_ok and distinct):
            raise FormatError(f"{self.name} is corrupt (pruned bucket index)")
        return pairs

    def _entries(self, count: int, first: int, kind: int) -> tuple[list[str], np.ndarray]:
        words, counts = [], np.zeros(count, dtype=np.int64)
        for i in range(count):
            words.append(self.reader.word(first + i))
            counts[i], entry_kind = self.reader.unpack(_ENTRY_TAIL)
            if entry_kind != kind:
                raise FormatError(f"{self.name} is corrupt (entry {first + i + 1}'s type)")
        return words, counts

    def word_rows(self) -> tuple[np.ndarray, np.ndarray]:
        """Each word's input rows (its own and its n-grams'; EOS has no n-grams), CSR."""
        from wordvec.corpus.subwords import subword_rows

        bare = [self.words.index(EOS)] if EOS in self.words else []
        n_words = len(self.words)
        return subword_rows(self.words, n_words, self.minn, self.maxn, self.bucket, bare=bare)


class _Reader:
    """Sequential reads from a buffer over the file's head; a short file is a FormatError."""

    _CHUNK = 1 << 20

    def __init__(self, path: Path, encoding: str = "utf-8"):
        self.path, self.encoding = path, encoding
        self.size = path.stat().st_size
        self.data = b""
        self.position = 0  # of the next unread byte, in the file and in ``data``

    def _fill(self, end: int) -> bool:
        """Have at least ``end`` bytes of the file in ``data``; False at the end of the file."""
        if end <= len(self.data):
            return True
        if len(self.data) >= self.size:
            return False
        with open(self.path, "rb") as f:
            f.seek(len(self.data))
            self.data += f.read(max(end - len(self.data), self._CHUNK))
        return end <= len(self.data)

    def unpack(self, layout: struct.Struct) -> tuple:
        if not self._fill(self.position + layout.size):
            raise FormatError(f"{self.path.name} is truncated")
        values = layout.unpack_from(self.data, self.position)
        self.position += layout.size
        return values

    def word(self, i: int) -> str:
        end = self.data.find(b"\0", self.position)
        while end < 0 and len(self.data) - self.position < _MAX_WORD_BYTES:
            if not self._fill(len(self.data) + 1):
                raise FormatError(f"{self.path.name} is truncated at word {i + 1}")
            end = self.data.find(b"\0", self.position)
        if end < 0:
            raise FormatError(f"{self.path.name} is corrupt at word {i + 1}")
        raw, self.position = self.data[self.position : end], end + 1
        try:
            return raw.decode(self.encoding)
        except UnicodeDecodeError as error:
            what = "UTF-8" if self.encoding == "utf-8" else self.encoding
            message = f"{self.path.name} is corrupt: word {i + 1} is not {what}"
            raise UndecodableText(message, error) from None

    def flag(self, what: str) -> bool:
        """A matrix's ``quantized`` byte (or another bool): 0 or 1."""
        (value,) = self.unpack(_FLAG)
        if value > 1:
            raise FormatError(f"{self.path.name} is corrupt ({what} matrix flag {value})")
        return bool(value)

    def array(self, count: int, dtype) -> np.ndarray:
        """Map the next ``count`` values of ``dtype`` and move past them."""
        start, self.position = self.position, self.position + count * np.dtype(dtype).itemsize
        if self.position > self.size:
            raise FormatError(f"{self.path.name} is truncated")
        if count == 0:
            return np.zeros(0, dtype=dtype)
        return np.memmap(self.path, dtype=dtype, mode="r", offset=start, shape=(count,))

    def matrix(self, rows: int, cols: int) -> np.ndarray:
        """Map the next ``rows x cols`` float32 and move past them."""
        return self.array(rows * cols, "<f4").reshape(rows, cols)

    def matrix_at_head(self, rows: int, dim: int, flag: bool = True) -> np.ndarray:
        """The matrix that starts here (the output matrix), checked to be ``rows x dim``;
        decoded when quantized (``-qout``; ``flag``: the file says whether it is)."""
        if flag and self.flag("output"):
            from wordvec.formats.quantized import read_quantized_matrix

            return read_quantized_matrix(self, self.path.name, rows, dim)
        found_rows, cols = self.unpack(_MATRIX_HEAD)
        if (found_rows, cols) != (rows, dim):
            raise FormatError(f"{self.path.name} is corrupt (output matrix {found_rows} x {cols})")
        return self.matrix(rows, dim)

    def check_output_matrix(self, dim: int) -> None:
        """The output matrix must be there in full, though reading vectors does not need it."""
        with open(self.path, "rb") as f:
            f.seek(self.position)
            head = f.read(_FLAG.size + _MATRIX_HEAD.size)
        if len(head) < _FLAG.size + _MATRIX_HEAD.size:
            raise FormatError(f"{self.path.name} is truncated")
        rows, cols = _MATRIX_HEAD.unpack_from(head, _FLAG.size)
        end = self.position + len(head) + rows * cols * 4
        if head[0] != 0 or cols != dim or end > self.size:
            raise FormatError(f"{self.path.name} is truncated or corrupt (output matrix)")


def read_fasttext_input(path: str | os.PathLike) -> tuple[list[str], np.ndarray]:
    """A fastText ``.bin``'s dictionary words and its whole input matrix (a row per word,
    then the buckets; memory-mapped): what fastText's Python API reads rows from."""
    model = _Model(Path(path))
    return model.words, model.input


class FastTextFile(NamedTuple):
    """A fastText word-vector ``.bin`` whole: what a model trained further starts from."""

    settings: dict  # wordvec's names: model (sg, cbow), loss, dim, window, epochs, ...
    words: list[str]
    counts: np.ndarray
    input: np.ndarray  # a row per word, then the buckets (memory-mapped)
    output: np.ndarray  # the output layer's rows (negative sampling: one per word)


def read_fasttext_file(
    path: str | os.PathLike, *, legacy: bool = False, encoding: str = "utf-8"
) -> FastTextFile:
    """Read a fastText word-vector ``.bin`` (not a classifier's, not quantized) with its
    settings and both matrices; ``legacy``: a file of fastText before 0.1.0 is read too;
    ``encoding``: its words' (UTF-8 unless the corpus it learnt from was not)."""
    model = _Model(Path(path), legacy=legacy, encoding=encoding, vectors_only=True)
    if model.quantized:
        raise NotWordVectors(f"{model.name} is quantized (a classifier), not word vectors")
    output = model.reader.matrix_at_head(len(model.words), model.dim, flag=not model.legacy)
    arch = next(name for name, code in _ARCH_CODES.items() if code == model.arch)
    settings = {"model": "fasttext", "arch": arch, "loss": model.loss, "dim": model.dim,
                "window": model.window, "epochs": model.epochs, "min_count": model.min_count,
                "negative": model.negative, "sample": model.sample, "bucket": model.bucket,
                "minn": model.minn, "maxn": model.maxn}  # fmt: skip
    return FastTextFile(settings, model.words, model.counts, model.input, output)
