"""Every on-disk format of word vectors, with detection, reading and writing.

Formats (the names of ``wordvec export --format``):

==================  ==============================================================
``word2vec``        text with a ``V dim`` header (what gensim, word2vec and fastText read)
``word2vec-binary`` word2vec's binary format
``glove``           text without a header (Stanford GloVe)
``vec``             fastText's ``.vec`` (word2vec text)
``fasttext-bin``    fastText's ``.bin`` model (from a wordvec model file only)
``fasttext-ftz``    fastText's quantized ``.ftz`` classifier (``wordvec quantize``'s defaults)
``tsv``             TensorBoard projector: vectors TSV + ``.metadata.tsv`` words
``npy``             NumPy matrix + ``.words.txt`` words
==================  ==============================================================

``load_vectors`` also reads wordvec model files. Detection looks at the content, not the name,
except for TSV (``.tsv``).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import numpy as np

from wordvec.corpus.vocab import Vocabulary
from wordvec.errors import FormatError, NotAClassifier, shown
from wordvec.formats.binvec import read_binary, write_binary
from wordvec.formats.container import MAGIC as MODEL_MAGIC
from wordvec.formats.fasttext_bin import MAGIC_BYTES as FASTTEXT_MAGIC
from wordvec.formats.fasttext_bin import (
    read_fasttext_bin,
    read_fasttext_classifier,
    write_fasttext_bin,
)
from wordvec.formats.names import (
    EXPORT_FORMATS,
    MODEL_ONLY_FORMATS,
    STREAM_FORMATS,
    output_format,
)
from wordvec.formats.sidecar import read_npy, read_tsv, words_path, write_npy, write_tsv
from wordvec.formats.sources import Source, unpacked_file, vector_source
from wordvec.formats.textvec import has_word2vec_header, parse_header, read_text, write_text
from wordvec.formats.wordvec_model import (
    SavedModel,
    check_fasttext_compatible,
    model_classifier,
    model_vectors,
    read_model,
    write_model,
)
from wordvec.query.classifier import Classifier
from wordvec.query.documents import document_vectors
from wordvec.query.vectors import Vectors
from wordvec.runtime.compression import suffix_compression

__all__ = [
    "EXPORT_FORMATS",
    "detect_format",
    "export",
    "format_files",
    "load_classifier",
    "load_vectors",
    "save_vectors",
    "vectors_dim",
]

_NPY_MAGIC = b"\x93NUMPY"


def detect_format(path: str | os.PathLike | Source) -> str:
    """``model`` or one of EXPORT_FORMATS (``vec`` files are reported as ``word2vec``), of a
    file plain, compressed or in a zip (what it holds is looked at)."""
    source = vector_source(path)
    head = source.head()
    name = source.name
    if not head:
        raise FormatError(f"{name} is empty")
    if head.startswith(MODEL_MAGIC):
        return "model"
    if head.startswith(_NPY_MAGIC):
        return "npy"
    if head.startswith(FASTTEXT_MAGIC):
        return "fasttext-bin"
    if Path(source.inner_name).suffix == ".tsv":
        return "tsv"
    lines = head.split(b"\n", 2)
    try:
        first = lines[0].decode()
    except UnicodeDecodeError:
        raise FormatError(f"{name} is not a vector file wordvec knows") from None
    if not has_word2vec_header(first):
        if b"\x00" in head:
            raise FormatError(f"{name} is not a vector file wordvec knows (binary data)")
        row = next((line for line in head.split(b"\n") if line.strip()), b"")
        if not _is_text_row(row):  # named .bin or .txt, it is text all the same
            raise FormatError(
                f"{name} is text but not vectors: its first line is not a word and its "
                f"numbers (a corpus? 'wordvec train {name} -o model.wv' trains on it)"
            )
        return "glove"
    dim = int(first.split()[1])
    return "word2vec" if len(lines) < 2 or _is_text_row(lines[1], dim) else "word2vec-binary"


def _is_text_row(line: bytes, dim: int | None = None) -> bool:
    """Whether ``line`` is a word and ``dim`` numbers (None: one or more); the word need not
    be UTF-8 (the reader says whether it can decode it)."""
    try:
        fields = line.decode(errors="replace").split()
        [float(x) for x in fields[1:]]
    except ValueError:
        return False
    return len(fields) == dim + 1 if dim is not None else len(fields) > 1


_DECODING_READERS = {
    "word2vec": lambda source, encoding, errors, limit: read_text(
        source, header=True, encoding=encoding, errors=errors, limit=limit
    ),
    "glove": lambda source, encoding, errors, limit: read_text(
        source, header=False, encoding=encoding, errors=errors, limit=limit
    ),
    "word2vec-binary": read_binary,
}
"""The readers of formats read as a stream (a compressed file undone as it is read), whose
words are decoded as the caller says, and which stop after ``limit`` rows."""

_READERS = {
    "fasttext-bin": read_fasttext_bin,
    "tsv": read_tsv,
    "npy": read_npy,
}
"""The readers of formats read from a plain file (a compressed one is undone to a temporary
file first)."""


def load_vectors(
    path: str | os.PathLike,
    binary: bool | None = None,
    encoding: str = "utf-8",
    errors: str = "strict",
    limit: int | None = None,
) -> Vectors:
    """Read word vectors from a model file or any export format (detected from the content),
    plain or compressed (gzip, bzip2, xz) or in a zip archive (``ARCHIVE.zip:MEMBER`` names
    one of several files).

    ``binary`` (gensim's ``load_word2vec_format`` argument) need not be given; given, it must
    say what the file is, word2vec binary or not, else a :class:`FormatError` says which it is.
    The words of word2vec and GloVe files are decoded by ``encoding`` with ``errors``
    (``bytes.decode``'s; gensim's ``unicode_errors``). ``limit``: the first so many vectors;
    the text and binary formats are read no further.
    """
    source = vector_source(path)
    fmt = detect_format(source)
    if binary is not None and binary != (fmt == "word2vec-binary"):
        raise FormatError(
            f"{source.name} is {'not ' if binary else ''}word2vec binary but {fmt}: formats "
            "are detected, leave binary= out"
        )
    if fmt in _DECODING_READERS:
        vectors = _DECODING_READERS[fmt](source, encoding, errors, limit)
    else:
        with unpacked_file(source) as plain:
            vectors = model_vectors(read_model(plain)) if fmt == "model" else _READERS[fmt](plain)
        if limit is not None:
            vectors = Vectors(vectors.words[:limit], vectors.vectors[:limit])
    if not vectors.dim:  # every cosine would be 0 and every score NaN
        raise FormatError(f"{source.name} holds vectors of 0 dimensions")
    check_finite(source.name, vectors)
    return vectors


def vectors_dim(path: str | os.PathLike) -> int:
    """The dimensions of a vector or model file, read from its head (a text file's header or
    first row; the header of a memory-mapped format), not from all its vectors: what a run
    checks before it reads a corpus for hours."""
    source = vector_source(path)
    fmt = detect_format(source)
    if fmt in ("word2vec", "word2vec-binary", "glove", "tsv"):
        text = source.head().decode("utf-8", errors="replace")
        if fmt in ("word2vec", "word2vec-binary"):
            return parse_header(source.name, text.split("\n", 1)[0], source.size)[1]
        row = next((line for line in text.split("\n") if line.strip()), "")
        return len(row.split("\t")) if fmt == "tsv" else len(row.split()) - 1
    return load_vectors(path).dim


def load_classifier(path: str | os.PathLike) -> Classifier:
    """Read a text classifier: a wordvec supervised model, or fastText's supervised ``.bin``."""
    source = vector_source(path)
    fmt = detect_format(source)
    if fmt in ("model", "fasttext-bin"):
        with unpacked_file(source) as plain:
            if fmt == "model":
                return model_classifier(read_model(plain), source.name)
            return read_fasttext_classifier(plain)
    raise NotAClassifier(
        f"{source.name} holds word vectors, not a classifier: train one with "
        "'wordvec train --model supervised'"
    )


_FINITE_CHUNK = 1 << 16


def check_finite(name: str, vectors: Vectors) -> None:
    """Raise :class:`FormatError` naming the first word whose vector holds NaN or an infinity:
    queries would print nan. Checked in chunks of rows, so no copy the size of the matrix.
    (A subword model's n-gram rows, up to 800 MB, are checked per query instead.) The rows'
    lengths, which queries need anyway, are finite unless a row holds NaN or an infinity (or
    numbers so large that their squares overflow): only then are the rows looked at."""
    if np.isfinite(vectors.norms).all():
        return
    matrix = vectors.vectors
    for start in range(0, len(matrix), _FINITE_CHUNK):
        finite = np.isfinite(np.asarray(matrix[start : start + _FINITE_CHUNK])).all(axis=1)
        if not finite.all():
            word = vectors.words[start + int(np.argmin(finite))]
            raise FormatError(
                f"{name}: the vector of {shown(word)} is not finite (NaN or infinite)"
            )


def save_vectors(vectors: Vectors, path: str | os.PathLike, fmt: str | None = None) -> list[Path]:
    """Write ``vectors`` in format ``fmt`` (by default the one ``path``'s suffix names, as for
    :func:`~wordvec.formats.names.output_format`: ``.bin`` word2vec binary, ``.wv`` wordvec's
    model file, ``.vec`` and any other word2vec text); a text or binary format is compressed
    where ``path`` ends in ``.gz``, ``.bz2`` or ``.xz`` (``vectors.txt.gz``). Returns the files
    written."""
    if fmt is None:
        fmt = output_format(path)
    writers = {
        "word2vec": lambda v, p: write_text(v, p, header=True),
        "vec": lambda v, p: write_text(v, p, header=True),
        "glove": lambda v, p: write_text(v, p, header=False),
        "word2vec-binary": write_binary,
        "wordvec": write_vectors_model,
        "tsv": write_tsv,
        "npy": write_npy,
    }
    if fmt in MODEL_ONLY_FORMATS:
        raise FormatError(f"{fmt} is written from a wordvec model file, not from vectors")
    if fmt not in writers:
        raise FormatError(f"unknown format {fmt!r}; choose one of {', '.join(EXPORT_FORMATS)}")
    check_compressible(path, fmt)
    check_words(vectors.words, fmt)
    writers[fmt](vectors, path)
    return [Path(path), words_path(path, fmt)] if fmt in ("tsv", "npy") else [Path(path)]


_MAPPED_NAMES = {None: "a wordvec model file", "wordvec": "a wordvec model file"}


def check_compressible(path: str | os.PathLike, fmt: str | None) -> None:
    """Raise :class:`FormatError` where ``path`` ends in a compression suffix but ``fmt``
    (None: wordvec's model file) is read mapped, never compressed."""
    kind = suffix_compression(path)
    if kind is not None and fmt not in STREAM_FORMATS:
        raise FormatError(
            f"{Path(path).name}: {_MAPPED_NAMES.get(fmt, fmt)} is not written compressed (it is "
            f"read mapped from the disk); compressed are {', '.join(STREAM_FORMATS)}"
        )


def write_vectors_model(vectors: Vectors, path: str | os.PathLike) -> None:
    """Write ``vectors`` as wordvec's model file, which opens memory-mapped in a moment (what
    gensim's ``KeyedVectors.load`` of :mod:`wordvec.gensim` reads too)."""
    counts = vectors.counts if vectors.counts is not None else np.zeros(len(vectors), np.int64)
    settings = {"gensim": "KeyedVectors"}
    write_model(SavedModel(Vocabulary(vectors.words, counts), vectors.vectors, settings, {}), path)


_ENDS_A_WORD = {"tsv": re.compile(r"[\n\r\t]"), "npy": re.compile(r"[\n\r]")}
"""What ends a word in each format's words: a line end (and a tab, a TSV column) in the
sidecar formats' word lists, any whitespace in the others (word2vec's, GloVe's)."""


def check_words(words: list[str], fmt: str) -> None:
    """Raise :class:`FormatError` naming the first word that ``fmt`` cannot hold: an empty
    one, or one holding what ends a word there (a TSV metadata file's "new york" would
    otherwise become two fields of a word2vec line, and the file corrupt)."""
    ends = _ENDS_A_WORD.get(fmt, re.compile(r"\s"))
    joined = "\0".join(words)  # one search in C over all of them, not a loop in Python
    found = ends.search(joined)
    if found is None and "" not in words:
        return
    index = joined.count("\0", 0, found.start()) if found else words.index("")
    word = words[index]
    what = "holds whitespace, which ends a word there" if word else "is empty"
    hint = " (--format npy keeps spaces)" if word and fmt not in _ENDS_A_WORD else ""
    raise FormatError(f"cannot write {fmt}: word {index + 1}, {shown(word)}, {what}{hint}")


def save_model_as(model: SavedModel, path: str | os.PathLike, fmt: str | None) -> None:
    """Write a trained model as ``fmt`` (None: wordvec's own model file), atomically."""
    check_compressible(path, fmt)
    if fmt is None:
        write_model(model, path)
    elif fmt == "fasttext-bin":
        write_fasttext_bin(model, path)
    else:
        save_vectors(model_vectors(model), path, fmt)


def format_files(path: str | os.PathLike, fmt: str | None = None) -> list[Path]:
    """The files a vector file of format ``fmt`` (None: detected, as read) is made of: itself,
    and for TSV and NumPy the words file beside it."""
    if fmt is None:  # a file read: the archive, for a member of one
        source = vector_source(path)
        fmt, path = detect_format(source), source.path
    return [Path(path), *([words_path(path, fmt)] if fmt in ("tsv", "npy") else [])]


def export(
    source: str | os.PathLike, output: str | os.PathLike, fmt: str, *, documents: bool = False
) -> tuple[Vectors, list]:
    """Convert the vector or model file ``source`` to ``output`` in format ``fmt``; with
    ``documents``, a doc2vec model's document vectors (their tags, the line numbers, as keys).

    Returns the vectors and the files written. ``fasttext-bin`` and ``fasttext-ftz`` (a
    classifier, quantized with :func:`~wordvec.formats.fasttext_ftz.write_fasttext_ftz`'s
    defaults) need a wordvec model file: it holds the n-gram and output weights that plain
    vectors lack.
    """
    if documents:
        return _export_documents(source, output, fmt)
    if fmt == "wordvec" and detect_format(source) == "model":  # the whole model, as it is
        model = read_model(source)
        write_model(model, output)
        return model_vectors(model), [Path(output)]
    if fmt not in MODEL_ONLY_FORMATS:
        vectors = load_vectors(source)
        return vectors, save_vectors(vectors, output, fmt)
    found = detect_format(source)
    if found == "fasttext-bin":
        raise FormatError(
            f"{Path(source).name} is a fastText .bin already (its n-grams answer unseen words): "
            f"copy it as it is; --format {fmt} converts wordvec model files"
        )
    if found != "model":
        raise FormatError(
            f"--format {fmt} needs a wordvec model file (from 'wordvec train'): "
            f"{Path(source).name} holds only vectors"
        )
    model = read_model(source)
    check_fasttext_compatible(model)
    if fmt == "fasttext-ftz":
        from wordvec.formats.fasttext_ftz import write_fasttext_ftz

        write_fasttext_ftz(model, output)
    else:
        write_fasttext_bin(model, output, Path(source).name)
    return model_vectors(model), [Path(output)]


def _export_documents(source, output, fmt: str) -> tuple[Vectors, list]:
    if fmt in MODEL_ONLY_FORMATS:
        raise FormatError(f"--doc-vectors writes a vector format, not {fmt}")
    if detect_format(source) != "model":
        raise FormatError(f"--doc-vectors needs a doc2vec model file, not {Path(source).name}")
    model = read_model(source)
    if "doc_vectors" not in model.arrays:
        raise FormatError(
            f"{Path(source).name} is a --model {model.settings.get('model')} model: only doc2vec "
            "models have document vectors"
        )
    vectors = document_vectors(model.arrays["doc_vectors"])
    return vectors, save_vectors(vectors, output, fmt)
