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
"""

from __future__ import annotations

import json
import math
import os
import shutil
import struct
from pathlib import Path
from typing import NamedTuple

import numpy as np

from wordvec.errors import FormatError
from wordvec.runtime.atomic import atomic_write

MAGIC = b"\x93WORDVEC"
VERSION = 1
_PREAMBLE = struct.Struct("<8sIIQ")
_ALIGN = 64
_DTYPES = {"<f4", "<f8", "|i1", "|u1", "<i4", "<i8"}


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
    path: str | os.PathLike, meta: dict, arrays: dict[str, np.ndarray | RawArray]
) -> None:
    """Write ``meta`` (JSON-serialisable) and ``arrays`` to ``path`` atomically."""
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
            else:
                out.write(memoryview(array).cast("B") if array.nbytes else b"")
            position = table[name]["offset"] + array.nbytes


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


def _checked_spec(name: str, array_name: str, spec, size: int) -> tuple[np.dtype, list[int], int]:
    """An array's dtype, shape and offset, each bounded by the file's ``size`` (no length or
    offset of a real array is larger), so that no arithmetic on them overflows: an empty
    array's other lengths included, which numpy refuses beyond 2^63."""
    try:
        dtype_str, shape, offset = spec["dtype"], spec["shape"], spec["offset"]
        ok = (
            dtype_str in _DTYPES
            and isinstance(shape, list)
            and all(isinstance(n, int) and 0 <= n <= size for n in shape)
            and isinstance(offset, int)
            and 0 <= offset <= size
        )
    except (KeyError, TypeError):
        ok = False
    if not ok:
        raise FormatError(f"{name} is corrupt (bad entry for array {array_name!r})")
    return np.dtype(dtype_str), shape, offset
