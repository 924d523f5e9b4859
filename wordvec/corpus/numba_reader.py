"""Reading a corpus on every core: bytes to word ids in numba, the same result as the Python
reader (:mod:`wordvec.corpus.sources`) gives.

One thread reads (and decompresses) the corpus in blocks of BLOCK_BYTES cut after a line end
or a space; the other threads each take the next block, split it into words and count them
into their own table (:mod:`wordvec.kernels.scan`), and append the block's word ids (the
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

from wordvec.corpus.sources import decompression_errors
from wordvec.corpus.text import LONG_LINE_CUTS, MAX_TOKEN_CHARS
from wordvec.runtime.memory import lazy_zeros, release

BLOCK_BYTES = 1 << 20
_CUTS = (b"\n", b" ", b"\t", b"\x0b", b"\x0c")
"""A block ends after one of these: never inside a word, a UTF-8 sequence, or a \\r\\n."""
_READER_CUTS = tuple(space.encode() for space in LONG_LINE_CUTS if space != "\r")
"""Where the Python reader cuts long lines (a \\r ends a line instead, as it reads)."""
_INITIAL_WORDS = 1 << 16
_MERGE_WORDS = 1 << 18  # words merged between releases of the merged ones' memory
_NO_SLOTS = np.zeros(0, dtype=np.int64)
RESERVED_WORDS = 1 << 27
RESERVED_BYTES = 1 << 31
"""Address space (not memory) each table takes for its words: 3 GB + 2 GB, for a corpus of
unknown size (standard input); a measured one's reserves what its text can hold, and a
limited address space what it allows (the table then grows by copying)."""
_LEAST_BYTES = 1 << 20


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
    era: int  # how many times the thread's table had been pruned when it was read


@dataclass
class _Pruning:
    """One thread's prunings: the renumbering of each (old id -> new id or -1), and what they
    dropped."""

    renumberings: list[np.ndarray]
    keep_from: int = 1  # words counted fewer times are dropped at the next pruning
    words_dropped: int = 0
    highest_dropped: int = 0


@dataclass
class ScannedCorpus:
    """The result of a scan: words in first-seen order with counts, and a way to write the
    id stream for any choice of kept words."""

    words: Callable[[np.ndarray], list[str]]  # the words (str) at these first-seen positions
    counts: np.ndarray  # int64, per word in first-seen order
    words_dropped: int  # distinct words dropped while counting, to stay within the budget
    highest_dropped: int  # the highest count a dropped word had then
    write_ids: Callable[[np.ndarray, Path], tuple[int, int]]
    """``write_ids(final_of_word, path) -> (entries, words)``: the id stream with each word
    (first-seen position) replaced by ``final_of_word`` (-1: dropped)."""


def scan_corpus(
    streams: Iterator[tuple[str, BinaryIO]],
    workdir: Path,
    threads: int,
    *,
    lowercase: bool = False,
    max_words: int | None = None,
    on_tokens: Callable[[int], None] | None = None,
    text_bytes: int | None = None,
) -> ScannedCorpus:
    """Count and encode the words of ``streams`` (name, decompressed bytes) on ``threads``
    threads. A thread whose table holds over ``max_words`` / ``threads`` words after a block
    drops its rarest (:func:`wordvec.kernels.scan.prune`). ``text_bytes``, about the bytes
    of text (None: unknown), bounds the address space the tables reserve. Raises
    :class:`NeedsPythonReader` or :class:`~wordvec.errors.CorpusError`."""
    from wordvec.kernels.scan import DONE, FULL, scan_words
    from wordvec.runtime.parallel import run_pool

    tables = [_new_table(_INITIAL_WORDS, text_bytes) for _ in range(threads)]
    prunings = [_Pruning([]) for _ in range(threads)]
    budget = max_words // threads if max_words else None
    files = [workdir / f"scan-{t}.i32" for t in range(threads)]
    written: dict[int, _Written] = {}
    blocks: queue.Queue = queue.Queue(maxsize=threads)
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
                        _grow(tables, thread)
                    elif status != DONE:
                        raise NeedsPythonReader(status)
                if block.ends_source and _final_line_end(block.data):
                    out[n] = -1
                    n += 1
                out[:n].tofile(raw)
                words = int(np.count_nonzero(out[:n] >= 0))
                era = len(prunings[thread].renumberings)
                written[block.index] = _Written(thread, entries, n, era)
                entries += n
                if on_tokens is not None:
                    on_tokens(words)
                if budget is not None and tables[thread].used[0] > budget:
                    _prune(tables[thread], prunings[thread], budget)

    tasks = [read_all, *(lambda t=t: count(t) for t in range(threads))]
    run_pool(lambda task: task(), tasks, len(tasks), stop=stop)
    return _merged(tables, prunings, files, written, lowercase)


def _prune(table, pruning: _Pruning, budget: int) -> None:
    """Drop the rarest words until the table holds at most 3/4 of ``budget``."""
    from wordvec.kernels.scan import prune

    while table.used[0] > budget * 3 // 4:
        pruning.keep_from += 1
        new_ids = np.empty(int(table.used[0]), dtype=np.int32)
        dropped, highest = prune(table, pruning.keep_from, new_ids)
        pruning.renumberings.append(new_ids)
        pruning.words_dropped += int(dropped)
        pruning.highest_dropped = max(pruning.highest_dropped, int(highest))


def _blocks(streams: Iterator[tuple[str, BinaryIO]]) -> Iterator[_Block]:
    """The corpus in blocks of about BLOCK_BYTES, each cut after one of _CUTS."""
    index = offset = 0
    for name, stream in streams:
        carry = b""
        while True:
            with decompression_errors(name):
                chunk = stream.read(BLOCK_BYTES)
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


def _final_line_end(last: bytes) -> bool:
    """Whether the Python reader ends the last line of a file that ends with ``last`` (the
    final block): only when text follows the last line end and does not end with one of the
    characters it cuts long lines at."""
    tail = last[max(last.rfind(b"\n"), last.rfind(b"\r")) + 1 :]
    return bool(tail) and not tail.endswith(_READER_CUTS)


def _new_table(slots_for: int, text_bytes: int | None):
    """An empty table whose per-word arrays are reserved for RESERVED_WORDS words (and its
    bytes for RESERVED_BYTES), or for what ``text_bytes`` of text can hold (a word and a
    space in two bytes), but take memory only as words arrive (:func:`lazy_zeros`), so that
    growing it never copies them; its hash slots start with room for ``slots_for``. Where the
    address space is limited (``ulimit -v``: 5 GB a thread failed a 183-byte corpus) and
    refuses the reservation, the table starts small and grows by copying."""
    from wordvec.kernels.scan import WordTable

    words, nbytes = RESERVED_WORDS, RESERVED_BYTES
    if text_bytes is not None:
        words = min(words, max(_INITIAL_WORDS, text_bytes // 2 + 1))
        nbytes = min(nbytes, max(_LEAST_BYTES, text_bytes + 4))
    try:
        reserved = [lazy_zeros((n,), dtype) for n, dtype in _reservation(words, nbytes)]
    except MemoryError:  # mmap's ENOMEM
        reserved = [
            lazy_zeros((n,), dtype) for n, dtype in _reservation(_INITIAL_WORDS, _LEAST_BYTES)
        ]
    starts, counts, first, arena = reserved
    return WordTable(
        slots=_empty_slots(_slots_for(slots_for)),
        starts=starts,
        counts=counts,
        first=first,
        arena=arena,
        used=np.zeros(2, dtype=np.int64),
    )


def _reservation(words: int, nbytes: int) -> list[tuple[int, type]]:
    """The lengths and dtypes of a table's starts, counts, first offsets and bytes."""
    return [(words + 1, np.int64), (words, np.int64), (words, np.int64), (nbytes, np.uint8)]


def _empty_slots(count: int) -> np.ndarray:
    """Hash slots, all empty, in memory of their own (:func:`lazy_zeros`): freed, they go back
    to the system at once. From malloc, a freed table's slots stayed in the process (glibc
    keeps a thread's freed blocks below its mmap threshold, which grows to 32 MB), about 40 MB
    of the peak on a 4M-word corpus."""
    from wordvec.kernels.scan import EMPTY_SLOT

    slots = lazy_zeros((count,), np.int64)
    slots.fill(EMPTY_SLOT)
    return slots


def _slots_for(words: int) -> int:
    """Hash slots for a table of ``words``: a power of two, at most 2/3 full."""
    return 1 << max((3 * words + 1) // 2 - 1, 1).bit_length()


def _grow(tables: list, index: int) -> None:
    """Give ``tables[index]`` twice the hash slots, or (past what was reserved) twice the room.
    The old slots are freed before the new ones are taken (the words are rehashed from their
    bytes), so growing never holds both: the list must hold the only reference to the table."""
    from wordvec.kernels.scan import rehash

    table, tables[index] = tables[index], None
    n_words, arena_used = int(table.used[0]), int(table.used[1])
    words = len(table.counts)
    if n_words + 1 >= words:
        words *= 2
        table = table._replace(
            starts=_longer(table.starts, words + 1),
            counts=_longer(table.counts, words),
            first=_longer(table.first, words),
        )
    if arena_used + MAX_TOKEN_CHARS + 4 > len(table.arena):  # room for any word scanned
        table = table._replace(arena=_longer(table.arena, 2 * len(table.arena)))
    if 3 * (n_words + 1) > 2 * len(table.slots):
        slots = 2 * len(table.slots)
        table = table._replace(slots=_NO_SLOTS)  # the old slots go here
        table = table._replace(slots=_empty_slots(slots))
        rehash(table, table.slots)
    tables[index] = table


def _longer(array: np.ndarray, length: int) -> np.ndarray:
    bigger = lazy_zeros((length,), array.dtype)
    bigger[: len(array)] = array
    return bigger


def _merged(tables, prunings, files, written, lowercase: bool) -> ScannedCorpus:
    """One vocabulary from the threads' tables, and the writer of the final id stream."""
    from wordvec.kernels.scan import merge_words, remap_ids

    merged = [tables[0]]  # the others' words are added to the first thread's
    tables[0] = None
    to_merged = [None]  # the first thread's ids are the merged ones
    for t in range(1, len(tables)):
        table = tables[t]._replace(slots=_NO_SLOTS)  # read by word id: its hash can go
        tables[t] = None
        ids = np.full(int(table.used[0]), -1, dtype=np.int32)
        done = 0
        while done < len(ids):
            stop = min(done + _MERGE_WORDS, len(ids))
            reached = merge_words(merged[0], table, ids, done, stop)
            if reached < stop:
                _grow(merged, 0)
            # the words merged so far need no memory in this table any more
            for array, end in (
                (table.counts, reached),
                (table.first, reached),
                (table.starts, reached),
                (table.arena, table.starts[reached]),
            ):
                release(array, 0, int(end))
            done = reached
        to_merged.append(ids)
        del table  # its memory can go
    [merged] = merged
    n_words = int(merged.used[0])
    starts, arena = merged.starts, merged.arena
    counts, first = merged.counts[:n_words], merged.first[:n_words]
    del merged  # from here on only the words' bytes are kept, and arrays of one int32 a word

    def texts(chosen: np.ndarray) -> list[str]:
        """The words' strings (a memoryview slices in a third of the time an array does)."""
        data = memoryview(arena)
        ends = starts[chosen + 1].tolist()
        return [str(data[at:end], "utf-8") for at, end in zip(starts[chosen].tolist(), ends)]

    group = None  # with lowercase: the word each merged word counts as
    if lowercase:
        names = [name.lower() for name in texts(np.arange(n_words))]
        lowered: dict[str, int] = {}
        group = np.arange(n_words, dtype=np.int32)
        for word in np.argsort(first, kind="stable").tolist():
            group[word] = lowered.setdefault(names[word], word)
        counts = np.bincount(group, weights=counts, minlength=n_words).astype(np.int64)
        earliest = np.full(n_words, np.iinfo(np.int64).max)
        np.minimum.at(earliest, group, first)
        first = np.where(group == np.arange(n_words), earliest, np.iinfo(np.int64).max)
    order = np.argsort(first, kind="stable").astype(np.int32)  # first-seen order
    del first
    if group is not None:
        order = order[: len(lowered)]  # the words that count as themselves come first
    counts = counts[order]

    def words(positions: np.ndarray) -> list[str]:
        chosen = order[positions]
        return [names[w] for w in chosen.tolist()] if lowercase else texts(chosen)

    def write_ids(final_of_word: np.ndarray, path: Path) -> tuple[int, int]:
        final_of_merged = np.full(n_words, -1, dtype=np.int32)
        final_of_merged[order] = final_of_word
        if group is not None:
            final_of_merged = final_of_merged[group]
        finals = [final_of_merged, *(final_of_merged[ids] for ids in to_merged[1:])]
        # each thread's ids before its k-th pruning: renumbered by the prunings after them
        era_finals = []
        for final, pruning in zip(finals, prunings):
            eras = [final]
            for renumbering in reversed(pruning.renumberings):
                eras.insert(0, np.where(renumbering >= 0, eras[0][renumbering], -1))
            era_finals.append(eras)
        entries = words_total = 0
        with open(path, "wb") as out:
            for index in range(len(written)):
                piece = written[index]
                raw = np.fromfile(
                    files[piece.thread], dtype=np.int32, count=piece.length, offset=4 * piece.start
                )
                ids = np.empty_like(raw)
                n, kept = remap_ids(raw, era_finals[piece.thread][piece.era], ids)
                ids[:n].tofile(out)
                entries += n
                words_total += kept
        for file in files:
            file.unlink()
        return entries, words_total

    dropped = sum(p.words_dropped for p in prunings)
    highest = max(p.highest_dropped for p in prunings)
    return ScannedCorpus(words, counts, dropped, highest, write_ids)
