"""Compressed matrices of a word model (``wordvec quantize MODEL -o SMALL.wv``): rows kept,
product-quantised, in wordvec's model file.

A model file holds a compressed matrix ``NAME`` (``vectors``, ``word_rows``, ``ngrams``,
``doc_vectors``, ``w_out``) as these arrays in place of ``NAME`` itself, described in the
header's ``compressed`` table (``{NAME: {"rows": R, "dim": D}}``)::

    NAME.codes           uint8 (K, nsubq)   each kept row: its nearest centroid per slice
    NAME.centroids       float32 (nsubq, 256, dsub), the last slice's columns past D zero
    NAME.norm_codes      uint8 (K,)         with --qnorm: the codes are of the unit rows,
    NAME.norm_centroids  float32 (256,)     and each row's length is quantised apart
    NAME.kept            int32 (K,)         the rows kept, increasing (absent: all R kept)

A row not kept reads as zeros: what an n-gram bucket that no word reads already is, and for a
row cut by ``--ngram-cutoff`` the nearest small stand-in. The codes are fastText's product
quantisation (:class:`~wordvec.formats.quantized.ProductQuantizer`). Reading checks every shape,
code table and centroid before a row is decoded; :class:`CompressedRows` then decodes only the
rows asked for (an unseen word's few n-grams), so a model of two million buckets opens mapped.
"""

from __future__ import annotations

import numpy as np

from wordvec.errors import ConfigError, FormatError
from wordvec.formats.kept_rows import KeptRows, check_kept, described
from wordvec.formats.quantized import KSUB, ProductQuantizer, quantize_rows
from wordvec.options import MAX_SETTING

COMPRESSIBLE = ("vectors", "word_rows", "ngrams", "doc_vectors", "w_out")
"""The matrices a compressed model may hold, under these names as an uncompressed one does."""
PARTS = ("codes", "centroids", "norm_codes", "norm_centroids", "kept")
"""The arrays of one compressed matrix: ``NAME.PART``."""


class CompressedRows(KeptRows):
    """A ``rows x dim`` float32 matrix held as codes, decoded a few rows at a time (the
    queries' view of a matrix: :class:`~wordvec.formats.kept_rows.KeptRows`)."""

    def __init__(
        self,
        rows: int,
        pq: ProductQuantizer,
        codes: np.ndarray,
        *,
        kept: np.ndarray | None = None,
        norm_pq: ProductQuantizer | None = None,
        norm_codes: np.ndarray | None = None,
    ):
        super().__init__(rows, pq.dim, kept)
        self.pq = pq
        self.codes = codes
        self.norm_pq = norm_pq
        self.norm_codes = norm_codes

    def __repr__(self) -> str:
        kept = self.shape[0] if self.kept is None else len(self.kept)
        rows, dim = self.shape
        return f"CompressedRows({rows} x {dim}, {kept} kept, dsub {self.pq.dsub})"

    def _stored(self, at: np.ndarray) -> np.ndarray:
        """The rows of the codes ``at``: all of them, in order, without a copy of the codes."""
        whole = len(at) == len(self.codes) and np.array_equal(at, np.arange(len(at)))
        codes = self.codes if whole else self.codes[at]
        decoded = self.pq.decode(codes)
        if self.norm_pq is not None:
            norm_codes = np.asarray(self.norm_codes if whole else self.norm_codes[at])
            decoded *= self.norm_pq.centroids[0, norm_codes, :1]
        return decoded


def compress_rows(
    name: str,
    matrix: np.ndarray,
    kept: np.ndarray | None,
    *,
    dsub: int,
    qnorm: bool,
    rng: np.random.Generator,
) -> tuple[dict, dict[str, np.ndarray]]:
    """``matrix``'s rows ``kept`` (all: None) product-quantised
    (:func:`~wordvec.formats.quantized.quantize_rows`; fewer than 256 rows each a centroid of
    its own): its entry of the header's ``compressed`` table and its arrays (``NAME.PART``)."""
    rows = matrix if kept is None else matrix[kept]
    entry = {"rows": int(matrix.shape[0]), "dim": int(matrix.shape[1])}
    if not len(rows):
        raise ConfigError(f"no rows of {name} to keep")
    found = quantize_rows(rows, dsub, qnorm, rng, name=name, repeat=True)
    arrays = {f"{name}.codes": found.codes, f"{name}.centroids": found.pq.centroids}
    if qnorm:
        arrays[f"{name}.norm_codes"] = found.norm_codes
        arrays[f"{name}.norm_centroids"] = found.norm_pq.centroids[0, :, 0]
    if kept is not None:
        arrays[f"{name}.kept"] = np.asarray(kept, dtype=np.int32)
    return entry, arrays


def read_compressed(file: str, table, arrays: dict[str, np.ndarray]) -> dict[str, CompressedRows]:
    """The compressed matrices the header's ``table`` describes (their arrays taken out of
    ``arrays``), each checked whole before a row is decoded."""
    found = {}
    for name, entry in described(file, "compressed", table, COMPRESSIBLE).items():
        parts = {part: arrays.pop(f"{name}.{part}", None) for part in PARTS}
        found[name] = _checked(file, name, entry, parts)
    if any(key.split(".")[0] in COMPRESSIBLE and "." in key for key in arrays):
        raise FormatError(f"{file} is corrupt (compressed arrays the header does not describe)")
    return found


def _checked(file: str, name: str, entry, parts: dict) -> CompressedRows:
    """One compressed matrix, every size, code and centroid checked against the others."""
    bad = f"{file} is corrupt (compressed {name}"
    if not isinstance(entry, dict):
        raise FormatError(f"{bad}: its entry)")
    rows, dim = entry.get("rows"), entry.get("dim")
    if type(rows) is not int or type(dim) is not int or rows < 0 or not 1 <= dim <= 100_000:
        raise FormatError(f"{bad}: {rows!r} rows of {dim!r})")
    codes, centroids, kept = parts["codes"], parts["centroids"], parts["kept"]
    if codes is None or centroids is None or codes.dtype != np.uint8 or codes.ndim != 2:
        raise FormatError(f"{bad}: no codes or centroids)")
    nsubq = codes.shape[1]
    if (
        centroids.dtype != np.float32
        or centroids.ndim != 3
        or centroids.shape[:2] != (nsubq, KSUB)
        or not 1 <= nsubq <= dim
        or -(-dim // centroids.shape[2]) != nsubq
    ):
        raise FormatError(f"{bad}: centroids of shape {centroids.shape} for {nsubq} codes a row)")
    if not np.isfinite(centroids).all():
        raise FormatError(f"{bad}: a centroid is not finite)")
    kept_rows = rows if kept is None else len(kept)
    if codes.shape[0] != kept_rows:
        raise FormatError(f"{bad}: {codes.shape[0]} rows of codes for {kept_rows} rows kept)")
    if kept is not None:  # only bucket rows are cut; so only they are unbounded by the file
        if name != "ngrams" or rows > MAX_SETTING or kept.dtype != np.int32 or kept.ndim != 1:
            raise FormatError(f"{bad}: rows kept)")
        kept = np.asarray(kept)
        check_kept(bad, kept, rows)
    pq = ProductQuantizer(dim, centroids.shape[2], np.asarray(centroids))
    norm_codes, norm_centroids = parts["norm_codes"], parts["norm_centroids"]
    if (norm_codes is None) != (norm_centroids is None):
        raise FormatError(f"{bad}: norm codes without their centroids)")
    norm_pq = None
    if norm_centroids is not None:
        if (
            norm_codes.dtype != np.uint8
            or norm_codes.shape != (kept_rows,)
            or norm_centroids.dtype != np.float32
            or norm_centroids.shape != (KSUB,)
            or not np.isfinite(norm_centroids).all()
        ):
            raise FormatError(f"{bad}: norm codes or centroids)")
        norm_pq = ProductQuantizer(1, 1, np.asarray(norm_centroids).reshape(1, KSUB, 1))
    return CompressedRows(rows, pq, codes, kept=kept, norm_pq=norm_pq, norm_codes=norm_codes)
