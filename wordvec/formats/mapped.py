"""Scanning a big vector file with a compiled kernel a window at a time. A plain file is mapped
a window at a time: the system maps a window's pages in one call (page by page, 1.2 GB cost
seconds of faults), nothing is copied but the rows, and a window is unmapped once scanned, so
the file's pages do not add up in memory. A compressed one is undone into a window's buffer
at a time (:func:`scan_stream`)."""

from __future__ import annotations

import contextlib
import mmap
from collections.abc import Callable
from typing import BinaryIO

import numpy as np

from wordvec.errors import UndecodableText
from wordvec.formats.sources import read_up_to
from wordvec.runtime.parallel import Background
from wordvec.runtime.progress import progress_bar

WINDOW_BYTES = 64 << 20
"""Bytes of the file mapped and scanned at a time."""

Step = Callable[..., tuple[int, int, int, int]]
"""``step(window, pos, first, count, words, words_fill, final) -> (status, reached, pos,
words_fill)``: a kernel of :mod:`wordvec.kernels.vectorfiles` with its other arguments bound;
``final``: the window ends where the file does."""


def loading_bar(name: str, count: int):
    """The bar of a big file's load, made when the load starts (numba's start included): it
    shows once the load has taken a second."""
    return progress_bar(f"reading {name}", count, unit="w", delay=1.0)


def scan_windows(path, pos: int, size: int, count: int, bar, step: Step, *,
                 longest: int, more: int) -> tuple[int, int, int, bytes]:  # fmt: skip
    """Run ``step`` over the file from byte ``pos`` until ``count`` records are read (counted
    on ``bar``) or it stops with a status other than ``more`` (the window ends inside a
    record): then the next
    window starts at that record. ``longest`` bytes is the most a record may take that is
    not a damaged one. Returns (the last status, records read, the file position reached,
    their words' bytes, each followed by a newline: :func:`decoded_words` decodes them)."""
    words = np.empty(size + 1, dtype=np.uint8)  # only what words fill is touched
    fill = done = 0
    reach = max(WINDOW_BYTES, 2 * longest)
    flags = mmap.MAP_SHARED | getattr(mmap, "MAP_POPULATE", 0)
    status = more
    with open(path, "rb") as file:
        while done < count:
            start = pos - pos % mmap.ALLOCATIONGRANULARITY
            length = min(reach, size - start)
            final = start + length >= size
            window = mmap.mmap(file.fileno(), length, flags=flags, prot=mmap.PROT_READ,
                               offset=start)  # fmt: skip
            view = np.frombuffer(window, dtype=np.uint8)
            status, reached, at, fill = step(
                view, pos - start, done, count - done, words, fill, final
            )
            del view  # the map closes only once no array looks into it
            # A pool thread that has just set its done event may hold the view an instant
            # longer (make fuzz met it as a BufferError, once in 1,000 runs): the map then
            # closes when the last array lets go of it.
            with contextlib.suppress(BufferError):
                window.close()
            bar.update(reached - done)
            progress, done, pos = reached > done, reached, start + at
            if status != more or final:
                break
            if not progress:  # one record longer than the window: a damaged file
                reach *= 2
    return status, done, pos, words[:fill].tobytes()


def scan_stream(stream: BinaryIO, head: bytes, count: int, bar, step: Step, *,
                longest: int, more: int) -> tuple[int, int, bytes, bytes]:  # fmt: skip
    """:func:`scan_windows` over a stream (a decompressor's): ``head``, the bytes already
    read from it, then the rest, a window's buffer at a time, the unscanned end of a window
    carried into the next. Returns (the last status, records read, the bytes read from the
    stream but not scanned, the words' bytes)."""
    buffer = bytearray(head)
    words: list[bytes] = []
    done = 0
    reach = max(WINDOW_BYTES, 2 * longest)
    status, ended = more, False
    # the next window's bytes are undone on a thread while this one is scanned (zlib, bz2 and
    # lzma let go of the GIL): a 3.6 GB .bin.gz is mostly decompression
    pending: Background | None = Background(read_up_to, stream, reach)
    while done < count:
        while len(buffer) < reach and pending is not None:
            chunk = pending.result()
            buffer += chunk
            ended = len(chunk) < reach
            pending = None if ended else Background(read_up_to, stream, reach)
        view = np.frombuffer(buffer, dtype=np.uint8)
        found = np.empty(len(buffer) + 1, dtype=np.uint8)
        status, reached, at, fill = step(view, 0, done, count - done, found, 0, ended)
        del view
        words.append(found[:fill].tobytes())
        bar.update(reached - done)
        progress, done = reached > done, reached
        # A new buffer for what is left, not the old one cut: a pool thread that has just
        # copied rows may still hold a view of the old one, which then cannot change size.
        buffer = buffer[at:]
        if status != more or ended:
            break
        if not progress:  # one record longer than the window: a damaged file
            reach *= 2
    rest = bytes(buffer) + (pending.result() if pending is not None else b"")
    return status, done, rest, b"".join(words)


def decoded_words(raw: bytes, name: str, encoding: str = "utf-8", errors: str = "strict"):
    """The words of :func:`scan_windows`' bytes (each followed by a newline), decoded by
    ``encoding`` with ``errors``; a word that is not is an :class:`UndecodableText` naming it."""
    try:
        return raw.decode(encoding, errors).split("\n")[:-1]
    except UnicodeDecodeError as error:
        index = raw.count(b"\n", 0, error.start)
        what = "UTF-8" if encoding == "utf-8" else encoding
        raise UndecodableText(f"{name} is corrupt: word {index + 1} is not {what}", error) from None
