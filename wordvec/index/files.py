"""Index files: the graph of :mod:`wordvec.index.engine` in the library's own format (first,
so that the library can map it from the file), then wordvec's header about it::

    graph        the library's bytes (faiss's write_index), read mapped
    header       UTF-8 JSON: what it indexes, its settings, the library, a CRC-32 of the graph
    8 bytes      uint64 little-endian: the header's length
    8 bytes      magic b"WVINDEX1"

The header says which vectors the graph was built from (:func:`fingerprint`: their shape, a
sample of their words and rows). Opening checks all of it before the library sees a byte: a
damaged file is an error, as is an index of other vectors (a model retrained, a file
replaced), which would otherwise answer with another vocabulary's rows.
"""

from __future__ import annotations

import hashlib
import json
import mmap
import os
import struct
import zlib
from pathlib import Path

import numpy as np

from wordvec.errors import FormatError
from wordvec.index.engine import LIBRARY
from wordvec.index.settings import Settings, settings_problem
from wordvec.query.vectors import Vectors
from wordvec.runtime.atomic import atomic_write

MAGIC = b"WVINDEX1"
_TAIL = struct.Struct("<Q8s")
_GRAPH_HEAD = b"IHN"
"""How faiss's HNSW graphs begin (``IHNf``, ``IHNs``): a file that does, but lacks our end,
was cut short."""
SUFFIX = ".index"
_MAX_HEADER = 1 << 16
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
    """Write the index file ``path`` (atomically): the graph the library saved to
    ``graph_file``, then the header ``meta`` with the graph's size and checksum."""
    size, crc = graph_file.stat().st_size, 0
    with atomic_write(path, "wb") as out, open(graph_file, "rb") as graph:
        while block := graph.read(_CRC_BLOCK):
            crc = zlib.crc32(block, crc)
            out.write(block)
        header = json.dumps({**meta, "graph_bytes": size, "checksum": crc}).encode()
        out.write(header)
        out.write(_TAIL.pack(len(header), MAGIC))


def read_index(path: str | os.PathLike) -> tuple[dict, Settings]:
    """An index file's header and its graph's settings, each checked, and its graph checked
    against its checksum: :class:`FormatError` if it is not an index, is damaged, or was
    written by another library than this wordvec's."""
    path = Path(path)
    name = path.name
    if not path.is_file():
        missing = not path.exists()
        raise FormatError(f"file not found: {path}" if missing else f"{path} is not a file")
    size = path.stat().st_size
    with open(path, "rb") as f:
        head = f.read(len(_GRAPH_HEAD))
        length, magic = 0, b""
        if size >= _TAIL.size:
            f.seek(size - _TAIL.size)
            length, magic = _TAIL.unpack(f.read(_TAIL.size))
        if magic != MAGIC and head == _GRAPH_HEAD:
            raise FormatError(f"{name} is truncated or corrupt (its end is not an index's)")
        if magic != MAGIC:
            raise FormatError(f"{name} is not a wordvec index (wordvec index makes one)")
        if length > min(_MAX_HEADER, size - _TAIL.size):
            raise FormatError(f"{name} is corrupt (its header's length is {length:,})")
        f.seek(size - _TAIL.size - length)
        try:
            meta = json.loads(f.read(length).decode())
            settings = Settings(*(meta[field] for field in Settings._fields))
            ok = [
                meta["library"] == LIBRARY,
                isinstance(meta["library_version"], str) and isinstance(meta["vectors"], str),
                settings_problem(settings) is None,
                all(_small_count(meta[key]) for key in ("rows", "dim", "checksum", "graph_bytes")),
            ]
        except (UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError):
            ok = [False]
    if not all(ok):
        raise FormatError(f"{name} is corrupt (its header is not an index's)")
    if meta["graph_bytes"] != size - _TAIL.size - length:
        raise FormatError(f"{name} is truncated or corrupt (its graph is not the size it says)")
    if _crc(path, meta["graph_bytes"]) != meta["checksum"]:
        raise FormatError(f"{name} is corrupt (its graph's checksum does not match)")
    return meta, settings


def _crc(path: Path, length: int) -> int:
    """The CRC-32 of the first ``length`` bytes of ``path``, read through a mapping (the
    pages the graph is then searched from)."""
    crc = 0
    if length:
        with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mapped:
            for start in range(0, length, _CRC_BLOCK):
                crc = zlib.crc32(mapped[start : min(length, start + _CRC_BLOCK)], crc)
    return crc


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
