"""fastText's ``.bin`` model format (version 12, unquantized, unsupervised), read and written.

Layout (native little-endian; as fastText's ``FastText::saveModel`` writes it)::

    int32 magic 793712314, int32 version 12
    args    int32 dim, ws, epoch, minCount, neg, wordNgrams, loss, model, bucket, minn,
            maxn, lrUpdateRate; float64 t           (loss: hs 1, ns 2, softmax 3;
                                                    model: cbow 1, sg 2, supervised 3)
    dict    int32 size, nwords, nlabels; int64 ntokens; int64 pruneidx_size (-1: none);
            per entry: UTF-8 word, NUL, int64 count, int8 type (0 word, 1 label)
    input   uint8 quantized (0); int64 rows, int64 dim; float32 rows x dim
            (nwords word rows, then bucket n-gram rows)
    output  uint8 quantized (0); int64 rows, int64 dim; float32 rows x dim

fastText and gensim recompute each word's n-grams from the dictionary when they load, so the
files agree with them only because our hashing is fastText's (:mod:`wordvec.kernels.subwords`).
"""

from __future__ import annotations

import os
import struct
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from wordvec.errors import FormatError
from wordvec.options import OPTION, predicts_centre
from wordvec.query.vectors import Vectors
from wordvec.runtime.atomic import atomic_write

if TYPE_CHECKING:
    from wordvec.formats.wordvec_model import SavedModel

MAGIC = 793712314
VERSION = 12
MAGIC_BYTES = struct.pack("<i", MAGIC)
EOS = "</s>"  # fastText's end-of-line word; it has no n-grams
_ARGS = struct.Struct("<12id")
_DICT_HEAD = struct.Struct("<3iqq")
_ENTRY_TAIL = struct.Struct("<qb")
_MATRIX_HEAD = struct.Struct("<?qq")
_LOSS_CODES = {"hs": 1, "ns": 2, "softmax": 3}
_ARCH_CODES = {"cbow": 1, "sg": 2}
_MAX_WORD_BYTES = 1 << 16
_LR_UPDATE_RATE = 100  # fastText's default; stored for its loader, unused here


def write_fasttext_bin(model: SavedModel, path: str | os.PathLike) -> None:
    """Write a wordvec model as a fastText ``.bin`` atomically.

    A fastText model is written with its word and bucket rows; a word2vec model becomes a
    fastText model without subwords (``maxn 0``), whose input rows are its vectors.
    """
    settings = model.settings
    subwords = "ngrams" in model.arrays
    word_rows = model.arrays.get("word_rows", model.vectors)
    blocks = [word_rows, model.arrays["ngrams"]] if subwords else [word_rows]
    dim = model.vectors.shape[1]
    output = _output_rows(model)
    cbow = predicts_centre(_setting(settings, "model"), _setting(settings, "arch"))
    try:  # settings from a file: a hand-edited one may hold anything
        args = _ARGS.pack(
            dim,
            int(_setting(settings, "window")),
            int(_setting(settings, "epochs")),
            int(_setting(settings, "min_count")),
            int(_setting(settings, "negative")),
            1,  # wordNgrams
            _LOSS_CODES[_setting(settings, "loss")],
            _ARCH_CODES["cbow" if cbow else "sg"],
            int(settings["bucket"]) if subwords else 0,
            int(settings["minn"]) if subwords else 0,
            int(settings["maxn"]) if subwords else 0,
            _LR_UPDATE_RATE,
            float(settings.get("sample") or 0.0),
        )
    except (KeyError, TypeError, ValueError, struct.error) as exc:
        raise FormatError(f"the model's settings are corrupt ({exc!r})") from None
    n_words = len(model.vocab)
    with atomic_write(path, "wb") as out:
        out.write(struct.pack("<ii", MAGIC, VERSION))
        out.write(args)
        out.write(_DICT_HEAD.pack(n_words, n_words, 0, model.vocab.total, -1))
        for word, count in zip(model.vocab.words, model.vocab.counts.tolist()):
            out.write(word.encode() + b"\0" + _ENTRY_TAIL.pack(count, 0))
        _write_matrix(out, blocks, dim)
        _write_matrix(out, [output], dim)


def _setting(settings: dict, name: str) -> object:
    """A model's setting, or its default (vectors read from a plain file have none)."""
    return settings.get(name, OPTION[name].default)


def _output_rows(model: SavedModel) -> np.ndarray:
    """The output matrix fastText expects: one row per word (hs has V - 1 inner nodes)."""
    n_words, dim = model.vectors.shape
    w_out = model.arrays.get("w_out")
    if w_out is None:
        return np.zeros((n_words, dim), dtype=np.float32)
    if w_out.shape[0] < n_words:
        return np.vstack([w_out, np.zeros((n_words - w_out.shape[0], dim), dtype=w_out.dtype)])
    return w_out


def _write_matrix(out, blocks: list[np.ndarray], dim: int) -> None:
    rows = sum(block.shape[0] for block in blocks)
    out.write(_MATRIX_HEAD.pack(False, rows, dim))
    for block in blocks:
        out.write(np.ascontiguousarray(block, dtype="<f4"))


def read_fasttext_bin(path: str | os.PathLike) -> Vectors:
    """Read the vectors of a fastText ``.bin`` (ours or fastText's): :class:`SubwordVectors`
    (unseen words included) when it has subwords, else plain :class:`Vectors`.

    The matrices are memory-mapped, not read; corrupt, truncated, quantized (``.ftz``) and
    supervised models are refused with a clear error.
    """
    from wordvec.corpus.subwords import check_subword_settings, subword_rows
    from wordvec.kernels.word2vec import mean_input_vectors
    from wordvec.query.subword_vectors import SubwordVectors

    path = Path(path)
    reader = _Reader(path)
    magic, version = reader.unpack(struct.Struct("<ii"))
    if magic != MAGIC:
        raise FormatError(f"{path.name} is not a fastText .bin file")
    if version > VERSION:
        raise FormatError(f"{path.name}: fastText format version {version} is newer than 12")
    dim, *_, bucket, minn, maxn, _, _ = reader.unpack(_ARGS)
    size, n_words, n_labels, _, prune_size = reader.unpack(_DICT_HEAD)
    if n_labels > 0:
        raise FormatError(f"{path.name} is a supervised (classifier) model, not word vectors")
    if not 0 < n_words == size or prune_size > 0:
        raise FormatError(f"{path.name} is corrupt (dictionary of {size} entries)")
    words, counts = [], np.zeros(n_words, dtype=np.int64)
    for i in range(n_words):
        words.append(reader.word(i))
        counts[i], _ = reader.unpack(_ENTRY_TAIL)
    quantized, rows, cols = reader.unpack(_MATRIX_HEAD)
    if quantized:
        raise FormatError(f"{path.name} is quantized (.ftz); wordvec reads full models only")
    if dim < 1 or cols != dim or rows != n_words + (bucket if maxn else 0):
        raise FormatError(
            f"{path.name} is corrupt (input matrix {rows} x {cols} for {n_words} words, "
            f"{bucket} buckets, dim {dim})"
        )
    check_subword_settings(path.name, minn, maxn, bucket, rows - n_words)
    matrix = reader.matrix(rows, cols)
    reader.check_output_matrix(dim)
    bare = [words.index(EOS)] if EOS in words else []  # fastText's end-of-line: no n-grams
    ptr, idx = subword_rows(words, n_words, minn, maxn, bucket, bare=bare)
    vectors = mean_input_vectors(matrix, ptr, idx)
    if not maxn:
        return Vectors(words, vectors, counts)
    return SubwordVectors(words, vectors, counts, ngrams=matrix[n_words:], minn=minn, maxn=maxn)


class _Reader:
    """Sequential reads from a buffer over the file's head; a short file is a FormatError."""

    _CHUNK = 1 << 20

    def __init__(self, path: Path):
        self.path = path
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
            return raw.decode()
        except UnicodeDecodeError:
            raise FormatError(f"{self.path.name} is corrupt: word {i + 1} is not UTF-8") from None

    def matrix(self, rows: int, cols: int) -> np.ndarray:
        """Map the next ``rows x cols`` float32 and move past them."""
        start, self.position = self.position, self.position + rows * cols * 4
        if self.position > self.size:
            raise FormatError(f"{self.path.name} is truncated")
        return np.memmap(self.path, dtype="<f4", mode="r", offset=start, shape=(rows, cols))

    def check_output_matrix(self, dim: int) -> None:
        """The output matrix must be there in full, though reading vectors does not need it."""
        with open(self.path, "rb") as f:
            f.seek(self.position)
            head = f.read(_MATRIX_HEAD.size)
        if len(head) < _MATRIX_HEAD.size:
            raise FormatError(f"{self.path.name} is truncated")
        _, rows, cols = _MATRIX_HEAD.unpack(head)
        end = self.position + _MATRIX_HEAD.size + rows * cols * 4
        if cols != dim or end > self.size:
            raise FormatError(f"{self.path.name} is truncated or corrupt (output matrix)")
