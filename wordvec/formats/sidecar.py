"""Matrix-only formats whose words live in a file beside them: TensorBoard projector TSV
(``X.tsv`` tab-separated vectors + ``X.metadata.tsv`` one word per line, no header, as the
projector expects for a single column) and NumPy (``X.npy`` + ``X.words.txt``)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from wordvec.errors import FormatError
from wordvec.query.vectors import Vectors
from wordvec.runtime.atomic import atomic_write


def words_path(path: str | os.PathLike, fmt: str) -> Path:
    path = Path(path)
    suffix = ".metadata.tsv" if fmt == "tsv" else ".words.txt"
    return path.with_name(path.stem + suffix)


def _write_words(vectors: Vectors, path: Path) -> None:
    with atomic_write(path, "w", encoding="utf-8", newline="\n") as out:
        out.writelines(word + "\n" for word in vectors.words)


def _read_words(path: Path, expected: int) -> list[str]:
    if not path.exists():
        raise FormatError(f"{path.name} not found: it holds the words of the vectors beside it")
    try:
        words = path.read_text(encoding="utf-8").split("\n")
    except UnicodeDecodeError:
        raise FormatError(f"{path.name} is not UTF-8 text") from None
    if words and words[-1] == "":
        words.pop()
    if len(words) != expected:
        raise FormatError(f"{path.name} has {len(words)} words for {expected} vectors")
    return words


def write_tsv(vectors: Vectors, path: str | os.PathLike) -> None:
    row_format = "\t".join(["%.6g"] * vectors.dim)
    with atomic_write(path, "w", encoding="utf-8", newline="\n") as out:
        for row in np.asarray(vectors.vectors, dtype=np.float32):
            out.write(row_format % tuple(row.tolist()) + "\n")
    _write_words(vectors, words_path(path, "tsv"))


def read_tsv(path: str | os.PathLike) -> Vectors:
    name = Path(path).name
    try:
        matrix = np.loadtxt(path, dtype=np.float32, delimiter="\t", ndmin=2)
    except ValueError as exc:  # numpy's advice to pass `usecols` is not the user's to take
        why = str(exc).split("; use `usecols`")[0]
        raise FormatError(f"{name} is not a tab-separated matrix of numbers ({why})") from None
    return Vectors(_read_words(words_path(path, "tsv"), len(matrix)), matrix)


def write_npy(vectors: Vectors, path: str | os.PathLike) -> None:
    with atomic_write(path, "wb") as out:
        np.save(out, np.asarray(vectors.vectors, dtype=np.float32), allow_pickle=False)
    _write_words(vectors, words_path(path, "npy"))


def read_npy(path: str | os.PathLike) -> Vectors:
    name = Path(path).name
    try:
        matrix = np.load(path, mmap_mode="r", allow_pickle=False)
    except Exception as exc:  # numpy's parser of a damaged header raises ValueError,
        # SyntaxError, tokenize.TokenError, OverflowError...: all mean the same here
        raise FormatError(f"{name} is not a readable .npy file ({exc})") from None
    if matrix.ndim != 2 or matrix.dtype.kind != "f":
        raise FormatError(
            f"{name} holds a {matrix.dtype} array of shape {matrix.shape}, not a matrix of vectors"
        )
    return Vectors(_read_words(words_path(path, "npy"), len(matrix)), matrix)
