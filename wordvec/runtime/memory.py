"""Zero arrays placed with care: large ones whose memory is taken only where they are
written, small ones in cache lines of their own."""

from __future__ import annotations

import mmap
import os

import numpy as np


def lazy_zeros(
    shape: tuple[int, ...], dtype: np.dtype | type, *, huge_pages: bool = False
) -> np.ndarray:
    """A zero array backed by a private anonymous map: pages never written cost nothing, and
    :func:`release` can give written ones back.

    ``np.zeros`` asks for transparent huge pages, so writes scattered thinly over a big array
    (hashed n-gram buckets, a dense block of counts that a small corpus barely fills) would
    make all of it resident 2 MiB at a time. A private map (not Python's default shared one)
    also reads unwritten pages as zeros without allocating them. ``huge_pages`` asks for them
    all the same, for an array that will be written whole and read at random (a TLB entry
    then covers 2 MiB instead of 4 KiB).
    """
    dtype = np.dtype(dtype)
    count = int(np.prod(shape, dtype=np.int64))
    size = max(count * dtype.itemsize, 1)
    private = getattr(mmap, "MAP_PRIVATE", 0) | getattr(mmap, "MAP_ANONYMOUS", 0)
    try:
        memory = mmap.mmap(-1, size, flags=private) if private else mmap.mmap(-1, size)
    except OSError as exc:  # ENOMEM: more than the machine (or its overcommit) allows
        from wordvec.errors import OutOfMemory

        sizes = " x ".join(f"{n:,}" for n in shape)
        raise OutOfMemory(
            f"cannot hold {sizes} x {dtype.itemsize} bytes = {size / 2**30:,.1f} GiB "
            f"({exc.strerror or exc}): a smaller --bucket, --dim or vocabulary"
        ) from None
    if huge_pages and hasattr(mmap, "MADV_HUGEPAGE"):
        memory.madvise(mmap.MADV_HUGEPAGE)
    return np.frombuffer(memory, dtype=dtype)[:count].reshape(shape)


def populated_empty(shape: tuple[int, ...], dtype: np.dtype | type) -> np.ndarray:
    """An uninitialised array whose pages the system provides up front, in one call, where it
    can (Linux). A big array about to be written whole would otherwise fault a page at a time:
    1.2 GB took 2.0 s that way on a VM, 0.4 s populated. Small arrays are plain ``np.empty``."""
    dtype = np.dtype(dtype)
    count = int(np.prod(shape, dtype=np.int64))
    populate = getattr(mmap, "MAP_POPULATE", 0)
    if count * dtype.itemsize < _POPULATE_BYTES or not populate:
        return np.empty(shape, dtype=dtype)
    flags = mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | populate
    memory = mmap.mmap(-1, count * dtype.itemsize, flags=flags)
    return np.frombuffer(memory, dtype=dtype).reshape(shape)


_POPULATE_BYTES = 64 << 20


def release(array: np.ndarray, start: int, stop: int) -> None:
    """Give the memory of ``array[start:stop]`` (a 1-d :func:`lazy_zeros` array, or a flat
    view of one) back to the system; those entries read as zero afterwards. Only whole pages
    inside the span are freed."""
    memory = array.base
    while memory is not None and not isinstance(memory, mmap.mmap):
        memory = memory.obj if isinstance(memory, memoryview) else getattr(memory, "base", None)
    if memory is None or not hasattr(memory, "madvise"):
        return
    page = mmap.PAGESIZE
    first = -(-start * array.itemsize // page) * page
    last = stop * array.itemsize // page * page
    if last > first:
        memory.madvise(mmap.MADV_DONTNEED, first, last - first)


CACHE_LINE = 64
"""Bytes in a cache line."""


def own_cache_lines(shape: int | tuple[int, ...], dtype: np.dtype | type) -> np.ndarray:
    """Zeros in cache lines of their own. A thread's scratch is written at every step; two
    threads' small arrays sharing a line (they come from one allocator) would bounce it
    between the cores at each write."""
    dtype = np.dtype(dtype)
    nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    raw = np.zeros(nbytes + 3 * CACHE_LINE, dtype=np.uint8)
    start = CACHE_LINE - raw.ctypes.data % CACHE_LINE
    return raw[start : start + nbytes].view(dtype).reshape(shape)


def physical_memory() -> int:
    """This machine's memory in bytes (where the system says; else 2**40): the most that an
    array sized by a header it cannot check against a file's size (a compressed stream's)
    may take."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return 1 << 40


def line_width(dim: int, dtype: np.dtype | type) -> int:
    """``dim`` rounded up to whole cache lines of ``dtype``'s items (100 float32: 112)."""
    per_line = CACHE_LINE // np.dtype(dtype).itemsize
    return -(-dim // per_line) * per_line


def line_rows(rows: int, dim: int, dtype: np.dtype | type) -> np.ndarray:
    """Zeros for ``rows`` rows of ``dim`` items, each row in cache lines of its own: the
    array is ``(rows, line_width(dim))``, page-aligned, on huge pages (:func:`lazy_zeros`);
    its columns past ``dim`` are padding.

    A kernel that reads and writes whole rows at random (the window models' two matrices)
    reads and writes the padding too, which stays zero where every step is a sum of rows, a
    scale of a row or a dot product of two: the results are those of ``dim`` columns. At
    100 dimensions a row of 400 bytes, 16 bytes past a line, started at any of four places
    in a cache line: most 64-byte vector loads and stores of a row crossed two lines, and
    two rows shared a line that two threads wrote. Each row in 7 lines of its own, PV-DM
    on 2 threads took 0.95x the time, skip-gram and CBOW 0.93-0.94x (docs/benchmarks.md);
    the arrays aligned but not padded, no faster.
    """
    return lazy_zeros((rows, line_width(dim, dtype)), dtype, huge_pages=True)


def narrow_rows(matrix: np.ndarray, dim: int) -> np.ndarray:
    """``matrix``'s first ``dim`` columns as a C-ordered ``(rows, dim)`` array in the start of
    its own memory (a :func:`line_rows` array, or rows from the first of one), moved there in
    place, the padding's memory given back (:func:`release`): no second copy of the matrix
    is made. ``matrix`` itself is then overwritten."""
    rows, width = matrix.shape
    if width == dim:
        return matrix
    flat = matrix.reshape(-1)
    step = max(1, (1 << 20) // max(width, 1))  # rows a move; numpy buffers what overlaps
    for start in range(0, rows, step):
        stop = min(rows, start + step)
        # the rows' new places end before the next rows' old ones start: nothing unread is lost
        flat[start * dim : stop * dim].reshape(stop - start, dim)[...] = matrix[start:stop, :dim]
    release(flat, rows * dim, rows * width)
    return flat[: rows * dim].reshape(rows, dim)
