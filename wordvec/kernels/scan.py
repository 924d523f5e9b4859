"""Splitting UTF-8 bytes into whitespace-separated words and counting them, without Python.

The rules are exactly those of the Python reader (:mod:`wordvec.corpus.sources`, ``str.split`` on
universal-newline text): a line ends at ``\\n``, ``\\r\\n`` or ``\\r`` (each line end gives
SENTENCE_END, -1); words are maximal runs of characters that are not Unicode whitespace (the
29 code points of ``str.isspace``). Bytes that are not UTF-8 as Python's strict decoder reads
it, NUL bytes, and a run of over ``max_run`` bytes without one of the reader's cut characters
stop the scan with a status: the caller then lets the Python reader decide (error messages,
``--encoding-errors replace``).

Each thread counts into its own :class:`WordTable`: an open-addressing hash table of the words'
bytes (rotate-xor per byte, then a multiplicative mix) whose entries are the thread's word
ids, in the order the thread met them.
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from wordvec.kernels.prefetch import prefetch_item

DONE = 0
FULL = 1  # the table needs more room: grow it and call again from the returned position
NOT_UTF8 = 2
NUL_BYTE = 3
LONG_RUN = 4
SENTENCE_END = -1
EMPTY_SLOT = -1
_MERGE_AHEAD = 16  # words between a slot's prefetch and its use, when merging
_BATCH = 32  # words split off (their slots prefetched) before the first is looked up
_ID_BITS = np.int64(0xFFFFFFFF)
_TAG_BITS = ~_ID_BITS
_FNV_OFFSET = np.uint64(0xCBF29CE484222325)
_MIX = np.uint64(0x9E3779B97F4A7C15)
_WORD, _SPACE, _CUT_SPACE, _LINE_END, _NUL, _WIDE = 0, 1, 2, 3, 4, 5


def _byte_classes() -> np.ndarray:
    """What each byte is when it starts a character: part of a word, whitespace (one the
    Python reader cuts long lines at, or not), a line end, NUL, or a multi-byte lead."""
    classes = np.full(256, _WIDE, dtype=np.uint8)
    classes[:128] = _WORD
    classes[[28, 29, 30, 31]] = _SPACE
    classes[[9, 11, 12, 32]] = _CUT_SPACE
    classes[[10, 13]] = _LINE_END
    classes[0] = _NUL
    return classes


_CLASSES = _byte_classes()


class WordTable(NamedTuple):
    """One thread's words: hash slots, and per word its bytes, count and first place."""

    slots: np.ndarray  # int64 (a power of two, at most 2/3 full): tag | word id, or EMPTY_SLOT
    starts: np.ndarray  # int64 (words + 1): word w's bytes are arena[starts[w]:starts[w + 1]]
    counts: np.ndarray  # int64 per word
    first: np.ndarray  # int64 per word: stream offset of its first occurrence
    arena: np.ndarray  # uint8: the words' bytes one after another
    used: np.ndarray  # int64 (2,): words, arena bytes


@njit(cache=True, nogil=True, inline="always")
def _utf8_width(data, i, end):
    """The length of the valid UTF-8 sequence (lead byte >= 0x80) at ``i``, or 0."""
    b = data[i]
    if 0xC2 <= b <= 0xDF:
        width, low, high = 2, 0x80, 0xBF
    elif b == 0xE0:
        width, low, high = 3, 0xA0, 0xBF
    elif b == 0xED:
        width, low, high = 3, 0x80, 0x9F  # no surrogates
    elif 0xE1 <= b <= 0xEF:
        width, low, high = 3, 0x80, 0xBF
    elif b == 0xF0:
        width, low, high = 4, 0x90, 0xBF
    elif b == 0xF4:
        width, low, high = 4, 0x80, 0x8F  # nothing above U+10FFFF
    elif 0xF1 <= b <= 0xF3:
        width, low, high = 4, 0x80, 0xBF
    else:
        return 0
    if i + width > end or not low <= data[i + 1] <= high:
        return 0
    for k in range(2, width):
        if not 0x80 <= data[i + k] <= 0xBF:
            return 0
    return width


@njit(cache=True, nogil=True, inline="always")
def _wide_space(data, i, width):
    """Whether the sequence at ``i`` is one of the non-ASCII whitespace characters; 2 if it
    is one of the reader's cut characters (U+00A0, U+3000), else 1 or 0."""
    b0 = data[i]
    if width == 2:
        if b0 == 0xC2:
            b1 = data[i + 1]
            if b1 == 0xA0:
                return 2
            if b1 == 0x85:
                return 1
        return 0
    if width != 3:
        return 0
    b1, b2 = data[i + 1], data[i + 2]
    if b0 == 0xE3:
        return 2 if b1 == 0x80 and b2 == 0x80 else 0
    if b0 == 0xE1:
        return 1 if b1 == 0x9A and b2 == 0x80 else 0
    if b0 == 0xE2:
        if b1 == 0x80:
            return 1 if b2 <= 0x8A or b2 == 0xA8 or b2 == 0xA9 or b2 == 0xAF else 0
        return 1 if b1 == 0x81 and b2 == 0x9F else 0
    return 0


@njit(cache=True, nogil=True, inline="always")
def _step(h, b):
    """One byte into a word's hash (rotate and xor: no multiply on the critical path)."""
    return ((h << np.uint64(7)) | (h >> np.uint64(57))) ^ np.uint64(b)


@njit(cache=True, nogil=True, inline="always")
def _mixed(h):
    """The finished hash: every input bit reaches the low bits the slots use."""
    h = (h ^ (h >> np.uint64(29))) * _MIX
    return h ^ (h >> np.uint64(32))


@njit(cache=True, nogil=True, inline="always")
def _hash_of(data, start, stop):
    """The hash :func:`scan_words` computes for the word ``data[start:stop]``."""
    h = _FNV_OFFSET
    for k in range(start, stop):
        h = _step(h, data[k])
    return _mixed(h)


@njit(cache=True, nogil=True, inline="always")
def _tag(h):
    """A slot's high 32 bits: the hash's, so that a probe tells most words apart unread."""
    return np.int64(h >> np.uint64(32)) << 32


@njit(cache=True, nogil=True, inline="always")
def _word_id(table, data, start, length, h, offset):
    """The id of the word ``data[start:start + length]`` (hash ``h``), added if new with
    ``offset`` as its first place; -1 when the table is full."""
    slots, starts, arena = table.slots, table.starts, table.arena
    mask = slots.shape[0] - 1
    slot = np.int64(h & np.uint64(mask))
    tag = _tag(h)
    while True:
        entry = slots[slot]
        if entry == EMPTY_SLOT:
            break
        if entry & _TAG_BITS == tag:  # most other words in the way differ here already
            word = entry & _ID_BITS
            at = starts[word]
            if starts[word + 1] - at == length:
                same = True
                for k in range(length):
                    if arena[at + k] != data[start + k]:
                        same = False
                        break
                if same:
                    return word
        slot = (slot + 1) & mask
    n_words, arena_used = table.used[0], table.used[1]
    if (
        n_words >= table.counts.shape[0]
        or arena_used + length > arena.shape[0]
        or 3 * (n_words + 1) > 2 * slots.shape[0]  # at most 2/3 full
    ):
        return -1
    slots[slot] = tag | n_words
    starts[n_words + 1] = arena_used + length
    table.counts[n_words] = 0
    table.first[n_words] = offset
    for k in range(length):
        arena[arena_used + k] = data[start + k]
    table.used[0] = n_words + 1
    table.used[1] = arena_used + length
    return n_words


@njit(cache=True, nogil=True)
def scan_words(data, pos, table, out, n_out, base, max_run):
    """Count the words of ``data[pos:]`` into ``table`` and append their ids (and
    SENTENCE_END at line ends) to ``out`` from ``n_out``; ``base`` is the stream offset of
    ``data[0]``. Returns ``(position, n_out, status)``: DONE at the end, or where it stopped
    and why (FULL: at the start of the word that did not fit).

    Words are split off _BATCH at a time and their slots prefetched before any is looked up:
    on a large vocabulary most lookups miss the cache, and this way the misses overlap."""
    end = data.shape[0]
    classes = _CLASSES
    mask = np.uint64(table.slots.shape[0] - 1)
    starts = np.empty(_BATCH, dtype=np.int64)  # a word's first byte, or -1: a line end
    lengths = np.empty(_BATCH, dtype=np.int64)
    hashes = np.empty(_BATCH, dtype=np.uint64)
    i = pos
    run_start = pos  # since the last of the reader's cut characters (see LONG_RUN)
    status, stopped_at = DONE, end
    while True:
        m = 0
        while i < end and m < _BATCH and status == DONE:
            b = data[i]
            kind = classes[b]
            if kind == _LINE_END:
                starts[m] = SENTENCE_END
                m += 1
                i += 1
                if b == 13 and i < end and data[i] == 10:
                    i += 1
                run_start = i
                continue
            if _SPACE <= kind <= _CUT_SPACE:
                i += 1
                if kind == _CUT_SPACE:
                    run_start = i
                continue
            if kind == _NUL:
                status, stopped_at = NUL_BYTE, i
                break
            if kind == _WIDE:
                width = _utf8_width(data, i, end)
                if width == 0:
                    status, stopped_at = NOT_UTF8, i
                    break
                space = _wide_space(data, i, width)
                if space:
                    i += width
                    if space == 2:
                        run_start = i
                    continue
            start = i
            h = _FNV_OFFSET
            while i < end:
                b = data[i]
                kind = classes[b]
                if kind == _WORD:
                    h = _step(h, b)
                    i += 1
                elif kind == _WIDE:
                    width = _utf8_width(data, i, end)
                    if width == 0 or _wide_space(data, i, width):
                        break  # the next round reports it, or skips the space
                    for k in range(width):
                        h = _step(h, data[i + k])
                    i += width
                else:
                    break
            if i - run_start > max_run:
                status, stopped_at = LONG_RUN, start
                break
            h = _mixed(h)
            prefetch_item(table.slots, np.int64(h & mask))
            starts[m], lengths[m], hashes[m] = start, i - start, h
            m += 1
        for j in range(m):
            start = starts[j]
            if start == SENTENCE_END:
                out[n_out] = SENTENCE_END
                n_out += 1
                continue
            word = _word_id(table, data, start, lengths[j], hashes[j], base + start)
            if word < 0:
                return start, n_out, FULL
            table.counts[word] += 1
            out[n_out] = word
            n_out += 1
        if status != DONE:
            return stopped_at, n_out, status
        if i >= end:
            return i, n_out, DONE


@njit(cache=True, nogil=True)
def rehash(table, slots):
    """Fill the empty ``slots`` (a larger power of two) with the table's words."""
    mask = slots.shape[0] - 1
    starts = table.starts
    n_words = table.used[0]
    for word in range(n_words):
        ahead = word + _MERGE_AHEAD  # its slot is loading while this word is placed
        if ahead < n_words:
            later = _hash_of(table.arena, starts[ahead], starts[ahead + 1])
            prefetch_item(slots, np.int64(later & np.uint64(mask)))
        h = _hash_of(table.arena, starts[word], starts[word + 1])
        slot = np.int64(h & np.uint64(mask))
        while slots[slot] != EMPTY_SLOT:
            slot = (slot + 1) & mask
        slots[slot] = _tag(h) | word


@njit(cache=True, nogil=True)
def merge_words(merged, table, ids, start, stop):
    """Add the words ``start .. stop - 1`` of ``table`` to ``merged`` (summing counts, keeping
    the earliest first place), setting ``ids`` (each word's id in ``merged``). Returns where
    it stopped: ``stop``, or the first word that did not fit (grow ``merged``, go on)."""
    word_starts, word_bytes = table.starts, table.arena
    mask = np.uint64(merged.slots.shape[0] - 1)
    for word in range(start, stop):
        ahead = word + _MERGE_AHEAD  # its slot is loading while this word is merged
        if ahead < stop:
            later = _hash_of(word_bytes, word_starts[ahead], word_starts[ahead + 1])
            prefetch_item(merged.slots, np.int64(later & mask))
        at, end = word_starts[word], word_starts[word + 1]
        h = _hash_of(word_bytes, at, end)
        into = _word_id(merged, word_bytes, at, end - at, h, table.first[word])
        if into < 0:
            return word
        merged.counts[into] += table.counts[word]
        merged.first[into] = min(merged.first[into], table.first[word])
        ids[word] = into
    return stop


@njit(cache=True, nogil=True)
def remap_ids(raw, table, out):
    """``out`` gets ``table[id]`` of every raw id that maps to a word (>= 0) and every
    SENTENCE_END; returns ``(entries written, words written)``."""
    n = 0
    words = 0
    for k in range(raw.shape[0]):
        word = raw[k]
        if word == SENTENCE_END:
            out[n] = SENTENCE_END
            n += 1
        else:
            final = table[word]
            if final >= 0:
                out[n] = final
                n += 1
                words += 1
    return n, words


@njit(cache=True, nogil=True)
def prune(table, keep_from, new_ids):
    """Drop the words counted fewer than ``keep_from`` times, as word2vec's ReduceVocab does
    when its table fills: the others keep their order and are renumbered from 0 (``new_ids``:
    each old word's new id, or -1); bytes and slots are compacted. Returns ``(words dropped,
    the highest count dropped)``."""
    starts, arena, counts, first = table.starts, table.arena, table.counts, table.first
    n_words = table.used[0]
    kept = 0
    written = 0  # arena bytes kept so far
    dropped_max = 0
    for word in range(n_words):
        at, end = starts[word], starts[word + 1]
        if counts[word] < keep_from:
            new_ids[word] = -1
            dropped_max = max(dropped_max, counts[word])
            continue
        new_ids[word] = kept
        for k in range(end - at):  # moving forward: never over bytes still to be read
            arena[written + k] = arena[at + k]
        starts[kept] = written
        written += end - at
        counts[kept] = counts[word]
        first[kept] = first[word]
        kept += 1
    starts[kept] = written
    table.used[0] = kept
    table.used[1] = written
    table.slots[:] = EMPTY_SLOT
    rehash(table, table.slots)
    return n_words - kept, dropped_max
