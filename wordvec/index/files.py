"""Index files: the graph of :mod:`wordvec.index.engine` inside wordvec's container (a JSON
header, then the graph's bytes, 64-byte aligned, mapped when opened), with what it indexes.

The header says which vectors the graph was built from (:func:`fingerprint`: their shape, a
sample of their words and rows), its settings, the library and its version, and a CRC-32 of
the graph's bytes. Opening checks all of it before the library sees a byte: a damaged file is
an error, as is an index of other vectors (a model retrained, a file replaced), which would
otherwise answer with another vocabulary's rows.
"""

from __future__ import annotations

import hashlib
import os
import zlib
from pathlib import Path

import numpy as np

from wordvec.errors import FormatError
from wordvec.formats.container import MAGIC, RawArray, read_container, write_container
from wordvec.index.engine import LIBRARY, Settings, settings_problem
from wordvec.query.vectors import Vectors

KIND = "neighbour-index"
SUFFIX = ".index"
_SAMPLED_ROWS = 4096
_SAMPLED_WORDS = 65536
_CRC_BLOCK = 1 << 26


class StaleIndex(FormatError):
    """An index built from other vectors than those it is asked to search."""


def default_path(vectors_path: str | os.PathLike) -> Path:
    """Where ``wordvec index VECTORS`` writes, and where ``neighbors`` looks: beside the
    vectors, their name plus ``.index`` (``big.bin.gz.index``)."""
    return Path(f"{os.fspath(vectors_path)}{SUFFIX}")


def fingerprint(vectors: Vectors) -> str:
    """A digest of ``vectors``: their shape, every 1/4096th row (and the last) and every
    1/65536th word. A retrained model, another file or another vocabulary changes it; it
    reads a few MB of a mapped matrix, not all of it."""
    n, dim = len(vectors), vectors.dim
    digest = hashlib.blake2b(f"{n} {dim}".encode(), digest_size=16)
    if n:
        rows = [*range(0, n, max(1, n // _SAMPLED_ROWS)), n - 1]
        digest.update(np.asarray(vectors.vectors[rows], dtype="<f4").tobytes())
        words = vectors.words[:: max(1, n // _SAMPLED_WORDS)]
        digest.update("\n".join(words).encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def write_index(path: str | os.PathLike, graph_file: Path, meta: dict) -> None:
    """Write the index file ``path`` (atomically) from the graph the library saved to
    ``graph_file`` and the header ``meta`` (its checksum added here)."""
    size = graph_file.stat().st_size
    crc = 0
    with open(graph_file, "rb") as f:
        while block := f.read(_CRC_BLOCK):
            crc = zlib.crc32(block, crc)
    graph = RawArray((graph_file,), np.dtype(np.uint8), (size,))
    write_container(path, {**meta, "kind": KIND, "checksum": crc}, {"graph": graph})


def read_index(path: str | os.PathLike) -> tuple[dict, Settings, np.ndarray]:
    """An index file's header, its graph's settings and its graph's bytes (mapped), each
    checked: :class:`FormatError` if it is not an index, is damaged, or was written by
    another library than this wordvec's."""
    path = Path(path)
    name = path.name
    if path.is_file():
        with open(path, "rb") as f:
            if f.read(len(MAGIC)) != MAGIC:
                raise FormatError(
                    f"{name} is not a wordvec index (wordvec index VECTORS makes one)"
                )
    meta, arrays = read_container(path)
    if meta.get("kind") != KIND:
        raise FormatError(f"{name} is a wordvec file but not an index (wordvec index makes one)")
    graph = arrays.get("graph")
    try:
        settings = Settings(*(meta[field] for field in Settings._fields))
        rows, dim = meta["rows"], meta["dim"]
        checks = [
            graph is not None and graph.dtype == np.uint8 and graph.ndim == 1,
            meta["library"] == LIBRARY,
            settings_problem(settings) is None,
            all(_small_count(v) for v in (rows, dim, meta["checksum"])),
            isinstance(meta["vectors"], str) and isinstance(meta["library_version"], str),
        ]
    except (KeyError, TypeError):
        checks = [False]
    if not all(checks):
        raise FormatError(f"{name} is corrupt (its header is not an index's)")
    crc = 0
    for start in range(0, len(graph), _CRC_BLOCK):
        crc = zlib.crc32(graph[start : start + _CRC_BLOCK], crc)
    if crc != meta["checksum"]:
        raise FormatError(f"{name} is corrupt (its graph's checksum does not match)")
    return meta, settings, graph


def check_fresh(meta: dict, vectors: Vectors, name: str, vectors_name: str) -> None:
    """:class:`StaleIndex` unless the index whose header is ``meta`` was built from
    ``vectors``."""
    if meta["rows"] != len(vectors) or meta["dim"] != vectors.dim:
        made = f"{meta['rows']:,} x {meta['dim']} vectors"
    elif meta["vectors"] != fingerprint(vectors):
        made = "other vectors of the same shape"
    else:
        return
    raise StaleIndex(
        f"{name} indexes {made}, not {vectors_name} ({len(vectors):,} x {vectors.dim}): "
        f"rebuild it (wordvec index {vectors_name}) or search exactly (--exact)"
    )


def _small_count(value) -> bool:
    """A whole number from 0 below 2^40: no real size or setting is larger, so arithmetic on
    it cannot overflow (JSON's ``true`` is not one)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 1 << 40
