"""The container of wordvec's own files (models, co-occurrence counts): a JSON header and named
NumPy arrays, memory-mappable, no pickle.

Layout (all integers little-endian)::

    bytes 0-7    magic  b"\\x93WORDVEC"
    bytes 8-11   uint32 format version (1)
    bytes 12-15  uint32 reserved (0)
    bytes 16-23  uint64 length of the header
    header       UTF-8 JSON: {"meta": {...}, "arrays": {name: {"dtype", "shape", "offset"}}}
    data         each array's raw C-order bytes at ``data_start + offset``, 64-byte aligned,
                 where data_start is the end of the header rounded up to 64

Readers check every field against the file's size, so a truncated or corrupt file gives a
clear error, never a wrong array. Only plain numeric dtypes are accepted.

An array that is mostly zero (a fastText model's n-gram buckets, most of which no word of a
small corpus reads) may be written with holes: its all-zero blocks of the file are skipped,
not written, so they take neither disk nor page cache, and read back as zeros (the file's
bytes are the same).
"""

from __future__ import annotations

import json
import math
import os
import shutil
import struct
from collections.abc import Collection
from pathlib import Path
from typing import BinaryIO, NamedTuple

import numpy as np

from wordvec.errors import FormatError
from wordvec.runtime.atomic import atomic_write

MAGIC = b"\x93WORDVEC"
VERSION = 1
_PREAMBLE = struct.Struct("<8sIIQ")
_ALIGN = 64
_DTYPES = {"<f4", "<f8", "|i1", "|u1", "<i4", "<i8"}
_BLOCK = 4096
"""Bytes of a file system block: a hole is whole blocks, at multiples of it in the file."""
_SCAN_BLOCKS = 4096
"""Blocks of an array checked for zeros at a time (16 MiB)."""


def _aligned(n: int) -> int:
    return -(-n // _ALIGN) * _ALIGN


class RawArray(NamedTuple):
    """An array whose little-endian bytes are already in files (concatenated in order):
    copied in, never loaded."""

    paths: tuple[Path, ...]
    dtype: np.dtype
    shape: tuple[int, ...]

    @property
    def nbytes(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64)) * self.dtype.itemsize


def write_container(
    path: str | os.PathLike,
    meta: dict,
    arrays: dict[str, np.ndarray | RawArray],
    *,
    holes: Collection[str] = (),
) -> None:
    """Write ``meta`` (JSON-serialisable) and ``arrays`` to ``path`` atomically; the arrays
    named in ``holes`` with holes where their blocks are all zero (:func:`_write_with_holes`:
    for arrays mostly zero, as checking every block costs a read of the array)."""
    table, offset = {}, 0
    prepared: dict[str, np.ndarray | RawArray] = {}
    for name, array in arrays.items():
        if not isinstance(array, RawArray):
            array = np.ascontiguousarray(array)
            array = array.astype(array.dtype.newbyteorder("<"), copy=False)
        if array.dtype.str not in _DTYPES:
            raise ValueError(f"array {name!r}: unsupported dtype {array.dtype}")
        prepared[name] = array
        table[name] = {"dtype": array.dtype.str, "shape": list(array.shape), "offset": offset}
        offset = _aligned(offset + array.nbytes)
    header = json.dumps({"meta": meta, "arrays": table}, ensure_ascii=False).encode()
    data_start = _aligned(_PREAMBLE.size + len(header))
    with atomic_write(path, "wb") as out:
        out.write(_PREAMBLE.pack(MAGIC, VERSION, 0, len(header)))
        out.write(header)
        out.write(b"\0" * (data_start - _PREAMBLE.size - len(header)))
        position = 0
        for name, array in prepared.items():
            out.write(b"\0" * (table[name]["offset"] - position))
            if isinstance(array, RawArray):
                for part in array.paths:
                    with open(part, "rb") as source:
                        shutil.copyfileobj(source, out, 1 << 22)
            elif name in holes:
                _write_with_holes(out, memoryview(array).cast("B") if array.nbytes else b"")
            else:
                out.write(memoryview(array).cast("B") if array.nbytes else b"")
            position = table[name]["offset"] + array.nbytes
        out.truncate(data_start + position)  # the file's end, if the last block was a hole


def _write_with_holes(out: BinaryIO, data: memoryview | bytes) -> None:
    """Write ``data`` at ``out``'s position, seeking over the file system blocks it would
    fill with zeros only: a sparse file, whose holes read as zeros.

    A fastText model of a small corpus trains few of its 2M bucket rows (119k of them on 2M
    tokens) and the rest stay zero; half the 4 KiB blocks of its 800 MB of buckets are then
    zero. Their memory was never written either (:func:`wordvec.runtime.memory.lazy_zeros`).
    """
    start = out.tell()
    head = min(-start % _BLOCK, len(data))  # up to the first block boundary of the file
    out.write(data[:head])
    blocks = (len(data) - head) // _BLOCK
    for first in range(0, blocks, _SCAN_BLOCKS):
        count = min(_SCAN_BLOCKS, blocks - first)
        chunk = data[head + first * _BLOCK : head + (first + count) * _BLOCK]
        words = np.frombuffer(chunk, dtype=np.uint64).reshape(count, _BLOCK // 8)
        written = np.concatenate([[False], words.max(axis=1) != 0, [False]])
        edges = np.flatnonzero(written[1:] != written[:-1]).tolist()  # run starts and ends
        at = 0
        for run_start, run_stop in zip(edges[::2], edges[1::2]):
            out.seek((run_start - at) * _BLOCK, os.SEEK_CUR)
            out.write(chunk[run_start * _BLOCK : run_stop * _BLOCK])
            at = run_stop
        out.seek((count - at) * _BLOCK, os.SEEK_CUR)
    out.write(data[head + blocks * _BLOCK :])


def read_container(
    path: str | os.PathLike, *, mmap: bool = True
) -> tuple[dict, dict[str, np.ndarray]]:
    """Read a model file: ``(meta, arrays)``; arrays are read-only memory maps if ``mmap``."""
    path = Path(path)
    name = path.name
    if not path.is_file():
        raise FormatError(
            f"file not found: {path}" if not path.exists() else f"{path} is not a file"
        )
    size = path.stat().st_size
    with open(path, "rb") as f:
        preamble = f.read(_PREAMBLE.size)
        if len(preamble) < _PREAMBLE.size:
            raise FormatError(f"{name} is truncated (no complete header)")
        magic, version, _, header_length = _PREAMBLE.unpack(preamble)
        if magic != MAGIC:
            raise FormatError(f"{name} is not a wordvec model file")
        if version != VERSION:
            raise FormatError(
                f"{name} has model format version {version}; this wordvec reads {VERSION}"
            )
        if _PREAMBLE.size + header_length > size:
            raise FormatError(f"{name} is truncated (header cut short)")
        try:
            header = json.loads(f.read(header_length).decode())
            meta, table = header["meta"], header["arrays"]
        except (UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError):
            raise FormatError(f"{name} is corrupt (unreadable header)") from None
    data_start = _aligned(_PREAMBLE.size + header_length)
    arrays = {}
    for array_name, spec in table.items():
        dtype, shape, offset = _checked_spec(name, array_name, spec, size)
        nbytes = math.prod(shape) * dtype.itemsize  # Python's integers: no overflow
        if data_start + offset + nbytes > size:
            raise FormatError(f"{name} is truncated (array {array_name!r} is cut short)")
        if nbytes == 0:
            arrays[array_name] = np.zeros(shape, dtype=dtype)
        elif mmap:
            arrays[array_name] = np.memmap(path, dtype, "r", data_start + offset, tuple(shape))
        else:
            arrays[array_name] = np.fromfile(
                path, dtype, math.prod(shape), offset=data_start + offset
            ).reshape(shape)
    return meta, arrays


def _is_count(value) -> bool:
    """Whether a JSON value is a whole number from 0 (JSON's ``true`` is a Python int too)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _checked_spec(name: str, array_name: str, spec, size: int) -> tuple[np.dtype, list[int], int]:
    """An array's dtype, shape and offset, each bounded by the file's ``size`` (no length or
    offset of a real array is larger), so that no arithmetic on them overflows: an empty
    array's other lengths included, which numpy refuses beyond 2^63."""
    try:
        dtype_str, shape, offset = spec["dtype"], spec["shape"], spec["offset"]
        ok = (
            dtype_str in _DTYPES
            and isinstance(shape, list)
            and all(_is_count(n) and n <= size for n in shape)
            and _is_count(offset)
            and offset <= size
        )
    except (KeyError, TypeError):
        ok = False
    if not ok:
        raise FormatError(f"{name} is corrupt (bad entry for array {array_name!r})")
    return np.dtype(dtype_str), shape, offset
