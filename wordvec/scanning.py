"""Reading a corpus on every core: bytes to word ids in numba, the same result as the Python
reader (:mod:`wordvec.corpus`) gives.

One thread reads (and decompresses) the corpus in blocks of BLOCK_BYTES cut after a line end
or a space; the other threads each take the next block, split it into words and count them
into their own table (:mod:`wordvec.kernels.tokenize`), and append the block's word ids (the
thread's own numbering) to the thread's file. Then the tables are merged: a word's count is
the sum, its first-seen place the earliest, so the vocabulary (most frequent first, ties in
first-seen order) is exactly the Python reader's; last, the blocks' ids are rewritten in
corpus order as vocabulary ids.

Only the whitespace tokenizer is read this way. Where the bytes need the Python reader's
judgement (not UTF-8, a NUL byte, an endless 'word'), :class:`NeedsPythonReader` says so and
the caller reads the corpus the Python way (which raises the error, or replaces bad bytes).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import numpy as np

from wordvec.corpus import MAX_TOKEN_CHARS
from wordvec.errors import CorpusError

BLOCK_BYTES = 8 << 20
_CUTS = (b"\n", b" ", b"\t", b"\x0b", b"\x0c")
"""A block ends after one of these: never inside a word, a UTF-8 sequence, or a \\r\\n."""
_READER_SPACES = (b" ", b"\t", b"\x0b", b"\x0c", "\u3000".encode(), "\xa0".encode())
"""The Python reader cuts long lines at these (``wordvec.corpus._SPACES``, less \\r)."""
_INITIAL_WORDS = 1 << 16
_BYTES_PER_WORD = 8


class NeedsPythonReader(Exception):
    """The corpus holds bytes whose reading the Python reader decides."""


@dataclass
class _Block:
    index: int
    offset: int  # in the whole stream (all sources one after another)
    data: bytes
    ends_source: bool  # the last block of a file: the reader's final line end applies


@dataclass
class _Written:
    thread: int
    start: int  # entries before it in the thread's file
    length: int
    words: int


@dataclass
class ScannedCorpus:
    """The result of a scan: words in first-seen order with counts, and a way to write the
    id stream for any choice of kept words."""

    words: Callable[[np.ndarray], list[str]]  # the words (str) at these first-seen positions
    counts: np.ndarray  # int64, per word in first-seen order
    tokens: int
    write_ids: Callable[[np.ndarray, Path], tuple[int, int]]
    """``write_ids(final_of_word, path) -> (entries, words)``: the id stream with each word
    (first-seen position) replaced by ``final_of_word`` (-1: dropped)."""


def scan_corpus(
    streams: Iterator[tuple[str, BinaryIO]],
    workdir: Path,
    threads: int,
    *,
    lowercase: bool = False,
    on_tokens: Callable[[int], None] | None = None,
) -> ScannedCorpus:
    """Count and encode the words of ``streams`` (name, decompressed bytes) on ``threads``
    threads. Raises :class:`NeedsPythonReader` or :class:`CorpusError`."""
    from wordvec.kernels.tokenize import DONE, FULL, scan_words
    from wordvec.parallel import run_pool

    tables = [_new_table(_INITIAL_WORDS) for _ in range(threads)]
    files = [workdir / f"scan-{t}.i32" for t in range(threads)]
    written: dict[int, _Written] = {}
    blocks: queue.Queue = queue.Queue(maxsize=2 * threads)
    stop = threading.Event()

    def hand_over(block: _Block | None) -> None:
        while not stop.is_set():
            try:
                return blocks.put(block, timeout=0.2)
            except queue.Full:
                continue

    def read_all() -> None:
        try:
            for block in _blocks(streams):
                hand_over(block)
        finally:
            for _ in range(threads):
                hand_over(None)

    def count(thread: int) -> None:
        out = np.empty(BLOCK_BYTES + 2, dtype=np.int32)
        entries = 0
        with open(files[thread], "wb") as raw:
            while not stop.is_set():
                try:
                    block = blocks.get(timeout=0.2)
                except queue.Empty:
                    continue
                if block is None:
                    return
                data = np.frombuffer(block.data, dtype=np.uint8)
                if len(out) < len(data) + 2:
                    out = np.empty(len(data) + 2, dtype=np.int32)
                pos, n, status = 0, 0, FULL
                while status != DONE:
                    pos, n, status = scan_words(
                        data, pos, tables[thread], out, n, block.offset, MAX_TOKEN_CHARS
                    )
                    if status == FULL:
                        tables[thread] = _grown(tables[thread])
                    elif status != DONE:
                        raise NeedsPythonReader(status)
                if block.ends_source and _final_line_end(block.data):
                    out[n] = -1
                    n += 1
                out[:n].tofile(raw)
                words = int(np.count_nonzero(out[:n] >= 0))
                written[block.index] = _Written(thread, entries, n, words)
                entries += n
                if on_tokens is not None:
                    on_tokens(words)

    tasks = [read_all, *(lambda t=t: count(t) for t in range(threads))]
    run_pool(lambda task: task(), tasks, len(tasks), stop=stop)
    return _merged(tables, files, written, lowercase)


def _blocks(streams: Iterator[tuple[str, BinaryIO]]) -> Iterator[_Block]:
    """The corpus in blocks of about BLOCK_BYTES, each cut after one of _CUTS."""
    index = offset = 0
    for name, stream in streams:
        carry = b""
        while True:
            chunk = _read(stream, name, BLOCK_BYTES)
            if not chunk:
                break
            data = carry + chunk
            cut = data.rfind(b"\n") + 1 or max(data.rfind(c) for c in _CUTS) + 1
            if cut == 0:
                if len(data) > MAX_TOKEN_CHARS:
                    raise NeedsPythonReader("a run without a cut character")
                carry = data
                continue
            yield _Block(index, offset, data[:cut], False)
            index, offset = index + 1, offset + cut
            carry = data[cut:]
        yield _Block(index, offset, carry, True)
        index, offset = index + 1, offset + len(carry)


def _read(stream: BinaryIO, name: str, size: int) -> bytes:
    import zlib

    try:
        return stream.read(size)
    except (OSError, EOFError, zlib.error) as exc:
        raise CorpusError(f"{name} cannot be decompressed: {exc}") from None


def _final_line_end(last: bytes) -> bool:
    """Whether the Python reader ends the last line of a file that ends with ``last`` (the
    final block): only when text follows the last line end and does not end with one of the
    characters it cuts long lines at."""
    tail = last[max(last.rfind(b"\n"), last.rfind(b"\r")) + 1 :]
    return bool(tail) and not tail.endswith(_READER_SPACES)


def _new_table(words: int):
    from wordvec.kernels.tokenize import EMPTY_SLOT, WordTable

    return WordTable(
        slots=np.full(_slots_for(words), EMPTY_SLOT, dtype=np.int64),
        hashes=np.zeros(words, dtype=np.uint64),
        starts=np.zeros(words, dtype=np.int64),
        lengths=np.zeros(words, dtype=np.int32),
        counts=np.zeros(words, dtype=np.int64),
        first=np.zeros(words, dtype=np.int64),
        arena=np.zeros(words * _BYTES_PER_WORD, dtype=np.uint8),
        used=np.zeros(2, dtype=np.int64),
    )


def _slots_for(words: int) -> int:
    """Hash slots for a table of ``words``: a power of two, at most a quarter full."""
    return 1 << max(4 * words - 1, 1).bit_length()


def _grown(table):
    """The table with room for twice the words (and, if it is what ran out, the bytes)."""
    from wordvec.kernels.tokenize import EMPTY_SLOT, rehash

    n_words, arena_used = int(table.used[0]), int(table.used[1])
    words = len(table.counts)
    if n_words + 1 >= words or 2 * (n_words + 1) > len(table.slots):
        words *= 2

    def longer(array: np.ndarray, length: int) -> np.ndarray:
        bigger = np.zeros(length, dtype=array.dtype)
        bigger[: len(array)] = array
        return bigger

    arena = table.arena
    if arena_used + MAX_TOKEN_CHARS + 4 > len(arena):  # room for any word the scan lets by
        arena = longer(arena, max(2 * len(arena), arena_used + 4 * MAX_TOKEN_CHARS))
    slots = table.slots
    if len(slots) < _slots_for(words):
        slots = np.full(_slots_for(words), EMPTY_SLOT, dtype=np.int64)
        rehash(table.hashes, table.lengths, n_words, slots)
    return table._replace(
        slots=slots,
        hashes=longer(table.hashes, words),
        starts=longer(table.starts, words),
        lengths=longer(table.lengths, words),
        counts=longer(table.counts, words),
        first=longer(table.first, words),
        arena=arena,
    )


def _merged(tables, files, written, lowercase: bool) -> ScannedCorpus:
    """One vocabulary from the threads' tables, and the writer of the final id stream."""
    from wordvec.kernels.tokenize import merge_words, remap_ids

    merged = _new_table(max(sum(int(t.used[0]) for t in tables), 1))
    merged.first[:] = np.iinfo(np.int64).max
    to_merged = []
    for table in tables:
        ids = np.full(int(table.used[0]), -1, dtype=np.int32)
        done = 0
        while done < len(ids):
            done = merge_words(merged, table, ids, done)
            if done < len(ids):
                merged = _grown(merged)
        to_merged.append(ids)
    n_words = int(merged.used[0])
    counts, first = merged.counts[:n_words], merged.first[:n_words]

    def text(word: int) -> str:
        start = int(merged.starts[word])
        return bytes(merged.arena[start : start + int(merged.lengths[word])]).decode()

    group = np.arange(n_words)  # the word each merged word counts as (lowercased)
    if lowercase:
        lowered: dict[str, int] = {}
        names = [text(word).lower() for word in range(n_words)]
        for word in np.argsort(first, kind="stable").tolist():
            group[word] = lowered.setdefault(names[word], word)
        counts = np.bincount(group, weights=counts, minlength=n_words).astype(np.int64)
        earliest = np.full(n_words, np.iinfo(np.int64).max)
        np.minimum.at(earliest, group, first)
        first = earliest
    groups = np.flatnonzero(group == np.arange(n_words))
    order = groups[np.argsort(first[groups], kind="stable")]  # first-seen order
    position = np.full(n_words, -1, dtype=np.int64)
    position[order] = np.arange(len(order))

    def words(positions: np.ndarray) -> list[str]:
        chosen = order[positions]
        return [names[w] for w in chosen] if lowercase else [text(int(w)) for w in chosen]

    def write_ids(final_of_word: np.ndarray, path: Path) -> tuple[int, int]:
        final_of_merged = final_of_word[position[group]].astype(np.int32)
        finals = [final_of_merged[ids] for ids in to_merged]
        entries = words_total = 0
        with open(path, "wb") as out:
            for index in range(len(written)):
                piece = written[index]
                raw = np.fromfile(
                    files[piece.thread], dtype=np.int32, count=piece.length, offset=4 * piece.start
                )
                ids = np.empty_like(raw)
                n, kept = remap_ids(raw, finals[piece.thread], ids)
                ids[:n].tofile(out)
                entries += n
                words_total += kept
        for file in files:
            file.unlink()
        return entries, words_total

    return ScannedCorpus(words, counts[order], int(counts.sum()), write_ids)
