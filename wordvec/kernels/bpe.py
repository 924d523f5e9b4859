"""Byte-pair encoding in numba: learning merges from counted words, and segmenting words.

Symbols are int32 ids; the symbols a word starts from are its characters (the caller maps
each character, with the word-end flag where the convention has one, to an id). Learning
(:func:`learn_merges`) keeps, for every adjacent pair of symbols, its count over the words
(weighted by their corpus counts) and the positions where it starts, so that a merge touches
only the places it changes, and takes the most frequent pair from a heap whose stale entries
are mended when they come to the top (as fast BPE trainers do). Ties go to the pair met first:
pairs are numbered as a reader of the words in order, left to right, first meets them, before
any merge and after each one (the brute-force reference in the tests does exactly that).

Segmenting (:func:`segment_words`) applies the merges to each word as subword-nmt and HF
tokenizers do: the adjacent pair of lowest rank first, the leftmost of equals, until no pair
of the word has a rank; a heap of the word's pairs makes a long word (an unsegmented Chinese
line) cost L log L rather than L squared.
"""

from __future__ import annotations

import numpy as np
from numba import njit

EMPTY = -1
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_BASE = np.uint64(0x100000001B3)
_INITIAL_PAIRS = 1 << 16


@njit(cache=True, nogil=True, inline="always")
def _home(key, mask):
    """A key's first slot in a table of ``mask + 1`` slots."""
    return np.int64((np.uint64(key) * _GOLDEN) >> np.uint64(33)) & mask


@njit(cache=True, nogil=True)
def _rehashed(keys, values, slots):
    """The table (``keys``, ``values``; EMPTY keys are free) in ``slots`` slots."""
    new_keys = np.full(slots, EMPTY, dtype=np.int64)
    new_values = np.empty(slots, dtype=np.int32)
    mask = slots - 1
    for i in range(len(keys)):
        key = keys[i]
        if key != EMPTY:
            j = _home(key, mask)
            while new_keys[j] != EMPTY:
                j = (j + 1) & mask
            new_keys[j] = key
            new_values[j] = values[i]
    return new_keys, new_values


@njit(cache=True, nogil=True, inline="always")
def _slot(keys, key):
    """The slot that holds ``key``, or the free slot where it would go."""
    mask = len(keys) - 1
    j = _home(key, mask)
    while keys[j] != key and keys[j] != EMPTY:
        j = (j + 1) & mask
    return j


@njit(cache=True, nogil=True, inline="always")
def _pair_key(left, right):
    return (np.int64(left) << 32) | np.int64(right)


@njit(cache=True, nogil=True)
def pair_table(left, right, rank, result):
    """A hash table of merges: the key of (``left[i]``, ``right[i]``) -> i, the first of
    equal keys kept (a merge file's later duplicate never applies); ``rank`` and ``result``
    are read through the index."""
    slots = 1 << 4
    while slots < 2 * len(left) + 2:
        slots <<= 1
    keys = np.full(slots, EMPTY, dtype=np.int64)
    values = np.empty(slots, dtype=np.int32)
    for i in range(len(left)):
        if left[i] < 0 or right[i] < 0:
            continue
        key = _pair_key(left[i], right[i])
        j = _slot(keys, key)
        if keys[j] == EMPTY:
            keys[j] = key
            values[j] = i
    return keys, values


# --- a binary heap of (count, order, pair): the highest count first, then the lowest order


@njit(cache=True, nogil=True, inline="always")
def _before(hc, ho, i, j):
    return hc[i] > hc[j] or (hc[i] == hc[j] and ho[i] < ho[j])


@njit(cache=True, nogil=True, inline="always")
def _swap(hc, ho, hp, i, j):
    hc[i], hc[j] = hc[j], hc[i]
    ho[i], ho[j] = ho[j], ho[i]
    hp[i], hp[j] = hp[j], hp[i]


@njit(cache=True, nogil=True, inline="always")
def _sift_up(hc, ho, hp, i):
    while i > 0:
        parent = (i - 1) >> 1
        if not _before(hc, ho, i, parent):
            break
        _swap(hc, ho, hp, i, parent)
        i = parent


@njit(cache=True, nogil=True, inline="always")
def _sift_down(hc, ho, hp, size):
    i = 0
    while True:
        first = i
        child = 2 * i + 1
        if child < size and _before(hc, ho, child, first):
            first = child
        if child + 1 < size and _before(hc, ho, child + 1, first):
            first = child + 1
        if first == i:
            return
        _swap(hc, ho, hp, i, first)
        i = first


@njit(cache=True, nogil=True)
def _longer(array, length):
    """``array`` copied into one of at least ``length`` entries (twice as many, or more)."""
    grown = np.empty(max(length, 2 * len(array)), dtype=array.dtype)
    grown[: len(array)] = array
    return grown


@njit(cache=True, nogil=True)
def _pair_of(left, right, order, p_keys, p_values, pairs, n_pairs):
    """The id of the pair (``left``, ``right``), added if new (first met as ``order``; -1:
    numbered later): returns it with the key table and the pair arrays (``pairs``: left,
    right, count, order, positions' list head, stamp), either grown if they had to be."""
    key = _pair_key(left, right)
    j = _slot(p_keys, key)
    if p_keys[j] != EMPTY:
        return p_values[j], p_keys, p_values, pairs, n_pairs
    p_left, p_right, p_count, p_order, p_head, p_stamp = pairs
    if n_pairs == len(p_left):
        p_left = _longer(p_left, n_pairs + 1)
        p_right = _longer(p_right, n_pairs + 1)
        p_count = _longer(p_count, n_pairs + 1)
        p_order = _longer(p_order, n_pairs + 1)
        p_head = _longer(p_head, n_pairs + 1)
        p_stamp = _longer(p_stamp, n_pairs + 1)
    p_keys[j] = key
    p_values[j] = n_pairs
    p_left[n_pairs] = left
    p_right[n_pairs] = right
    p_count[n_pairs] = 0
    p_order[n_pairs] = order
    p_head[n_pairs] = -1
    p_stamp[n_pairs] = -1
    if 2 * (n_pairs + 1) > len(p_keys):
        p_keys, p_values = _rehashed(p_keys, p_values, 2 * len(p_keys))
    pairs = (p_left, p_right, p_count, p_order, p_head, p_stamp)
    return n_pairs, p_keys, p_values, pairs, n_pairs + 1


@njit(cache=True, nogil=True)
def learn_merges(symbols, word_start, counts, codes, n_merges, min_frequency, progress):
    """Learn up to ``n_merges`` merges from words given as symbol ids.

    ``symbols[word_start[w]:word_start[w + 1]]`` are word ``w``'s symbols, ``counts[w]`` its
    count; ``codes[s]`` is the character code of symbol ``s`` (the first symbols are single
    characters). Stops early when the best pair occurs fewer than ``min_frequency`` times.
    ``progress[0]`` counts the merges made, for a progress bar on another thread.

    Returns (left, right, result, count) per merge and the merged symbols' characters as
    (start, length, arena) over all symbols: a merge whose characters spell a symbol that
    already exists (``ab + c`` after ``a + bc``) reuses it, as BPE over strings does.
    """
    n_pos = len(symbols)
    sym = symbols.copy()
    nxt = np.empty(n_pos, dtype=np.int32)
    prv = np.empty(n_pos, dtype=np.int32)
    wid = np.empty(n_pos, dtype=np.int32)
    for w in range(len(counts)):
        for p in range(word_start[w], word_start[w + 1]):
            wid[p] = w
            prv[p] = p - 1 if p > word_start[w] else -1
            nxt[p] = p + 1 if p + 1 < word_start[w + 1] else -1

    # symbols' characters, and a table of their hashes for finding a merge's string
    n_sym = len(codes)
    arena = np.empty(max(2 * n_sym, 16), dtype=np.int64)
    s_start = np.empty(n_sym + n_merges, dtype=np.int64)
    s_len = np.empty(n_sym + n_merges, dtype=np.int64)
    s_hash = np.empty(n_sym + n_merges, dtype=np.uint64)
    s_power = np.empty(n_sym + n_merges, dtype=np.uint64)
    slots = 1 << 4
    while slots < 4 * (n_sym + n_merges):
        slots <<= 1
    s_keys = np.full(slots, EMPTY, dtype=np.int64)
    s_values = np.empty(slots, dtype=np.int32)
    for s in range(n_sym):
        arena[s] = codes[s]
        s_start[s] = s
        s_len[s] = 1
        s_hash[s] = np.uint64(codes[s]) + np.uint64(1)
        s_power[s] = _BASE
        key = np.int64(s_hash[s] >> np.uint64(1))
        j = _home(key, slots - 1)
        while s_keys[j] != EMPTY:
            j = (j + 1) & (slots - 1)
        s_keys[j] = key
        s_values[j] = s
    arena_used = n_sym

    # pairs: key table, counts, first-met order, and a list of positions each
    p_keys = np.full(_INITIAL_PAIRS, EMPTY, dtype=np.int64)
    p_values = np.empty(_INITIAL_PAIRS, dtype=np.int32)
    n_pairs = 0
    p_left = np.empty(_INITIAL_PAIRS, dtype=np.int32)
    p_right = np.empty(_INITIAL_PAIRS, dtype=np.int32)
    p_count = np.zeros(_INITIAL_PAIRS, dtype=np.int64)
    p_order = np.full(_INITIAL_PAIRS, -1, dtype=np.int64)
    p_head = np.full(_INITIAL_PAIRS, -1, dtype=np.int32)
    p_stamp = np.full(_INITIAL_PAIRS, -1, dtype=np.int64)
    occ_pos = np.empty(max(n_pos, 16), dtype=np.int32)
    occ_next = np.empty(max(n_pos, 16), dtype=np.int32)
    n_occ = 0
    next_order = 0

    for p in range(n_pos):
        if nxt[p] < 0:
            continue
        pairs = (p_left, p_right, p_count, p_order, p_head, p_stamp)
        pair, p_keys, p_values, pairs, added = _pair_of(
            sym[p], sym[nxt[p]], next_order, p_keys, p_values, pairs, n_pairs
        )
        p_left, p_right, p_count, p_order, p_head, p_stamp = pairs
        next_order += added - n_pairs
        n_pairs = added
        p_count[pair] += counts[wid[p]]
        occ_pos[n_occ] = p
        occ_next[n_occ] = p_head[pair]
        p_head[pair] = n_occ
        n_occ += 1

    heap_size = 0
    hc = np.empty(max(n_pairs, 16), dtype=np.int64)
    ho = np.empty(max(n_pairs, 16), dtype=np.int64)
    hp = np.empty(max(n_pairs, 16), dtype=np.int32)
    for pair in range(n_pairs):
        hc[heap_size] = p_count[pair]
        ho[heap_size] = p_order[pair]
        hp[heap_size] = pair
        heap_size += 1
        _sift_up(hc, ho, hp, heap_size - 1)

    m_left = np.empty(n_merges, dtype=np.int32)
    m_right = np.empty(n_merges, dtype=np.int32)
    m_result = np.empty(n_merges, dtype=np.int32)
    m_count = np.empty(n_merges, dtype=np.int64)
    found = np.empty(16, dtype=np.int64)
    touched = np.empty(16, dtype=np.int32)
    fresh = np.empty(16, dtype=np.int32)
    fresh_first = np.empty(16, dtype=np.int64)
    merges = 0
    while merges < n_merges and heap_size > 0:
        best = hp[0]
        best_count = hc[0]
        heap_size -= 1
        if heap_size > 0:
            _swap(hc, ho, hp, 0, heap_size)
            _sift_down(hc, ho, hp, heap_size)
        current = p_count[best]
        if current != best_count:
            if 0 < current < best_count:  # mended; a higher count has an entry of its own
                hc[heap_size] = current
                ho[heap_size] = p_order[best]
                hp[heap_size] = best
                heap_size += 1
                _sift_up(hc, ho, hp, heap_size - 1)
            continue
        if best_count < min_frequency or best_count <= 0:
            break
        a = p_left[best]
        b = p_right[best]

        # the merged symbol: an existing one with the same characters, or a new one
        h = s_hash[a] * s_power[b] + s_hash[b]
        length = s_len[a] + s_len[b]
        key = np.int64(h >> np.uint64(1))
        j = _home(key, len(s_keys) - 1)
        c = -1
        while s_keys[j] != EMPTY:
            if s_keys[j] == key and s_len[s_values[j]] == length:
                other = s_values[j]
                same = True
                for k in range(s_len[a]):
                    if arena[s_start[other] + k] != arena[s_start[a] + k]:
                        same = False
                        break
                if same:
                    for k in range(s_len[b]):
                        if arena[s_start[other] + s_len[a] + k] != arena[s_start[b] + k]:
                            same = False
                            break
                if same:
                    c = other
                    break
            j = (j + 1) & (len(s_keys) - 1)
        if c < 0:
            c = n_sym
            n_sym += 1
            if arena_used + length > len(arena):
                arena = _longer(arena, arena_used + length)
            arena[arena_used : arena_used + s_len[a]] = arena[s_start[a] : s_start[a] + s_len[a]]
            arena[arena_used + s_len[a] : arena_used + length] = arena[
                s_start[b] : s_start[b] + s_len[b]
            ]
            s_start[c] = arena_used
            s_len[c] = length
            s_hash[c] = h
            s_power[c] = s_power[a] * s_power[b]
            arena_used += length
            s_keys[j] = key
            s_values[j] = c

        # where the pair still stands, in reading order
        n_found = 0
        entry = p_head[best]
        while entry >= 0:
            p = occ_pos[entry]
            if sym[p] == a and nxt[p] >= 0 and sym[nxt[p]] == b:
                if n_found == len(found):
                    found = _longer(found, n_found + 1)
                found[n_found] = p
                n_found += 1
            entry = occ_next[entry]
        p_head[best] = -1
        places = np.unique(found[:n_found])

        n_touched = 0
        for p in places:
            q = nxt[p]
            if sym[p] != a or q < 0 or sym[q] != b:
                continue  # an earlier merge of this step took it ("a a a")
            count = counts[wid[p]]
            x = prv[p]
            y = nxt[q]
            p_count[best] -= count
            if x >= 0:
                p_count[p_values[_slot(p_keys, _pair_key(sym[x], a))]] -= count
            if y >= 0:
                p_count[p_values[_slot(p_keys, _pair_key(b, sym[y]))]] -= count
            sym[p] = c
            sym[q] = -1
            nxt[p] = y
            if y >= 0:
                prv[y] = p
            for side in range(2):
                if side == 0:
                    if x < 0:
                        continue
                    left, right, at = sym[x], c, x
                else:
                    if y < 0:
                        continue
                    left, right, at = c, sym[y], p
                pairs = (p_left, p_right, p_count, p_order, p_head, p_stamp)
                pair, p_keys, p_values, pairs, n_pairs = _pair_of(
                    left, right, -1, p_keys, p_values, pairs, n_pairs
                )
                p_left, p_right, p_count, p_order, p_head, p_stamp = pairs
                p_count[pair] += count
                if n_occ == len(occ_pos):
                    occ_pos = _longer(occ_pos, n_occ + 1)
                    occ_next = _longer(occ_next, n_occ + 1)
                occ_pos[n_occ] = at
                occ_next[n_occ] = p_head[pair]
                p_head[pair] = n_occ
                n_occ += 1
                if p_stamp[pair] != merges:
                    p_stamp[pair] = merges
                    if n_touched == len(touched):
                        touched = _longer(touched, n_touched + 1)
                    touched[n_touched] = pair
                    n_touched += 1

        # pairs met for the first time are numbered in reading order, then all go on the heap
        n_fresh = 0
        for t in range(n_touched):
            pair = touched[t]
            if p_order[pair] >= 0 or p_count[pair] <= 0:
                continue
            first = n_pos
            entry = p_head[pair]
            while entry >= 0:
                p = occ_pos[entry]
                q = nxt[p]
                if p < first and sym[p] == p_left[pair] and q >= 0 and sym[q] == p_right[pair]:
                    first = p
                entry = occ_next[entry]
            if n_fresh == len(fresh):
                fresh = _longer(fresh, n_fresh + 1)
                fresh_first = _longer(fresh_first, n_fresh + 1)
            fresh[n_fresh] = pair
            fresh_first[n_fresh] = first
            n_fresh += 1
        for f in np.argsort(fresh_first[:n_fresh], kind="mergesort"):
            p_order[fresh[f]] = next_order
            next_order += 1
        for t in range(n_touched):
            pair = touched[t]
            if p_count[pair] <= 0:
                continue
            if heap_size == len(hc):
                hc = _longer(hc, heap_size + 1)
                ho = _longer(ho, heap_size + 1)
                hp = _longer(hp, heap_size + 1)
            hc[heap_size] = p_count[pair]
            ho[heap_size] = p_order[pair]
            hp[heap_size] = pair
            heap_size += 1
            _sift_up(hc, ho, hp, heap_size - 1)

        m_left[merges] = a
        m_right[merges] = b
        m_result[merges] = c
        m_count[merges] = best_count
        merges += 1
        progress[0] = merges

    return (
        m_left[:merges],
        m_right[:merges],
        m_result[:merges],
        m_count[:merges],
        s_start[:n_sym].copy(),
        s_len[:n_sym].copy(),
        arena[:arena_used].copy(),
    )


@njit(cache=True, nogil=True)
def segment_words(
    symbols, word_start, keys, values, rank, left, right, result, out_start, out_symbols
):
    """Apply the merges to each word of ``symbols`` (as for :func:`learn_merges`; a negative
    symbol is a character the merges do not know, left alone).

    The merge table is :func:`pair_table`'s (``keys``, ``values``) over the merges' ``left``,
    ``right``, ``rank`` (lower applies first) and ``result``. Word ``w``'s pieces go to
    ``out_symbols[out_start[w]:out_start[w] + n]``; returns the counts ``n`` per word (its
    slots in ``out_start`` are as long as its symbols, which merging only shortens).
    """
    n_words = len(word_start) - 1
    pieces = np.zeros(n_words, dtype=np.int32)
    longest = 1
    for w in range(n_words):
        longest = max(longest, word_start[w + 1] - word_start[w])
    sym = np.empty(longest, dtype=np.int32)
    nxt = np.empty(longest, dtype=np.int32)
    prv = np.empty(longest, dtype=np.int32)
    # a heap of (rank, position, merge): n - 1 pairs at first, then each merge pops one
    # entry and pushes at most two, and a word of n symbols merges at most n - 1 times
    hr = np.empty(2 * longest, dtype=np.int64)
    hpos = np.empty(2 * longest, dtype=np.int64)
    hm = np.empty(2 * longest, dtype=np.int32)
    for w in range(n_words):
        start = word_start[w]
        n = word_start[w + 1] - start
        size = 0
        for i in range(n):
            sym[i] = symbols[start + i]
            nxt[i] = i + 1 if i + 1 < n else -1
            prv[i] = i - 1
        for i in range(n - 1):
            m = _merge_of(keys, values, sym[i], sym[i + 1])
            if m >= 0:
                size = _push(hr, hpos, hm, size, rank[m], i, m)
        while size > 0:
            i = hpos[0]
            m = hm[0]
            size = _pop(hr, hpos, hm, size)
            j = nxt[i]
            if sym[i] != left[m] or j < 0 or sym[j] != right[m]:
                continue  # stale: a neighbour merged first
            sym[i] = result[m]
            sym[j] = -2  # gone
            nxt[i] = nxt[j]
            if nxt[i] >= 0:
                prv[nxt[i]] = i
            if prv[i] >= 0:
                m2 = _merge_of(keys, values, sym[prv[i]], sym[i])
                if m2 >= 0:
                    size = _push(hr, hpos, hm, size, rank[m2], prv[i], m2)
            if nxt[i] >= 0:
                m2 = _merge_of(keys, values, sym[i], sym[nxt[i]])
                if m2 >= 0:
                    size = _push(hr, hpos, hm, size, rank[m2], i, m2)
        count = 0
        i = 0 if n > 0 else -1
        while i >= 0:
            out_symbols[out_start[w] + count] = sym[i]
            count += 1
            i = nxt[i]
        pieces[w] = count
    return pieces


@njit(cache=True, nogil=True, inline="always")
def _merge_of(keys, values, first, second):
    """The merge of the pair (``first``, ``second``), or -1."""
    if first < 0 or second < 0:
        return -1
    j = _slot(keys, _pair_key(first, second))
    return values[j] if keys[j] != EMPTY else -1


@njit(cache=True, nogil=True, inline="always")
def _push(hr, hpos, hm, size, r, pos, m):
    """Push (rank, position, merge) on a word's heap (lowest rank, then position, first);
    returns the new size (:func:`segment_words` sizes the heap for every push)."""
    hr[size] = r
    hpos[size] = pos
    hm[size] = m
    i = size
    while i > 0:
        parent = (i - 1) >> 1
        if hr[parent] < hr[i] or (hr[parent] == hr[i] and hpos[parent] <= hpos[i]):
            break
        hr[i], hr[parent] = hr[parent], hr[i]
        hpos[i], hpos[parent] = hpos[parent], hpos[i]
        hm[i], hm[parent] = hm[parent], hm[i]
        i = parent
    return size + 1


@njit(cache=True, nogil=True, inline="always")
def _pop(hr, hpos, hm, size):
    """Remove the top of a word's heap; returns the new size."""
    size -= 1
    hr[0] = hr[size]
    hpos[0] = hpos[size]
    hm[0] = hm[size]
    i = 0
    while True:
        first = i
        for child in (2 * i + 1, 2 * i + 2):
            if child < size and (
                hr[child] < hr[first] or (hr[child] == hr[first] and hpos[child] < hpos[first])
            ):
                first = child
        if first == i:
            return size
        hr[i], hr[first] = hr[first], hr[i]
        hpos[i], hpos[first] = hpos[first], hpos[i]
        hm[i], hm[first] = hm[first], hm[i]
        i = first


@njit(cache=True, nogil=True)
def write_lines(ids, texts, starts, out):
    """Write the words ``ids`` (SENTENCE_END: a line end) to ``out`` as text: word ``w`` is
    ``texts[starts[w]:starts[w + 1]]``, one space between the words of a line. Returns the
    bytes written (``out`` holds every word's bytes and one byte a token)."""
    used = 0
    line_start = True
    for w in ids:
        if w < 0:
            out[used] = 10
            used += 1
            line_start = True
            continue
        if not line_start:
            out[used] = 32
            used += 1
        line_start = False
        for k in range(starts[w], starts[w + 1]):
            out[used] = texts[k]
            used += 1
    return used
