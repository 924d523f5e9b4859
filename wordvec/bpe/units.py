"""A set of BPE units: the alphabet, the ordered merges, and how a word's end or start is
marked; segmenting words into units, and the units' text forms.

A word starts as its characters. How its boundary is marked is the *word end* convention:

- ``none``: not at all (the course's example, HF tokenizers' default): merges stay inside
  words and ``cats`` becomes ``cat`` + ``s``;
- ``suffix``: the last character carries ``</w>`` (subword-nmt's codes 0.2), so a piece that
  ends a word differs from the same letters inside one;
- ``separate``: ``</w>`` is a symbol of its own after the last character (subword-nmt's codes
  0.1, which never merge with it are the same as ``none``);
- ``prefix``: ``▁`` is a symbol of its own before the first character (SentencePiece).

Inside the kernels a symbol is an int; a character is its code point, with the :data:`END`
bit set for ``c</w>`` and :data:`END` alone for ``</w>``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cached_property
from typing import NamedTuple

import numpy as np

from wordvec.errors import ConfigError

END = 1 << 21
"""The word-end mark's bit on a character code (code points stop below 0x110000)."""
END_TEXT = "</w>"
PREFIX = "\u2581"  # ▁
WORD_ENDS = ("none", "suffix", "separate", "prefix")
FORMS = ("subword-nmt", "sentencepiece", "ids")
"""How segmented text is written: ``cat@@ s`` (a piece that the next continues ends in
``@@``), ``▁cat s`` (a piece that starts a word starts with ``▁``), or the units' ids."""
CONTINUED = "@@"
UNKNOWN = "<unk>"
"""Unit id 0: what ``ids`` writes for a character the units never saw."""


def codes_of(symbol: str, word_end: str) -> list[int]:
    """The character codes of a symbol as written (``t</w>``, ``</w>``, ``▁c``)."""
    if symbol.endswith(END_TEXT) and word_end in ("suffix", "separate"):
        body = [ord(c) for c in symbol[: -len(END_TEXT)]]
        if word_end == "separate" or not body:
            return [*body, END]
        return [*body[:-1], body[-1] | END]
    return [ord(c) for c in symbol]


def text_of(codes: Iterable[int]) -> str:
    """A symbol as written, from its character codes (the inverse of :func:`codes_of`)."""
    text = []
    for code in codes:
        if code & (END - 1):
            text.append(chr(code & (END - 1)))
        if code & END:
            text.append(END_TEXT)
    return "".join(text)


class Tables(NamedTuple):
    """The units as the segmenting kernel reads them: the alphabet's codes (sorted) and
    symbols, and the merges' (left, right, rank, result) symbols with their hash table."""

    alphabet_codes: np.ndarray
    alphabet_symbols: np.ndarray
    keys: np.ndarray
    values: np.ndarray
    rank: np.ndarray
    left: np.ndarray
    right: np.ndarray
    result: np.ndarray


class Units:
    """BPE units: ``alphabet`` (the single-character symbols) and ``merges`` (pairs of
    symbols, as written, applied lowest ``ranks`` first; by default in order), with a
    ``word_end`` convention (:data:`WORD_ENDS`)."""

    def __init__(
        self,
        merges: Sequence[tuple[str, str]],
        *,
        word_end: str = "none",
        alphabet: Sequence[str] = (),
        ranks: Sequence[int] | None = None,
    ):
        if word_end not in WORD_ENDS:
            raise ConfigError(f"word_end is one of {', '.join(WORD_ENDS)}, not {word_end!r}")
        self.merges = [(str(left), str(right)) for left, right in merges]
        self.word_end = word_end
        self.ranks = np.arange(len(self.merges)) if ranks is None else np.asarray(ranks)
        if len(self.ranks) != len(self.merges):
            raise ValueError(f"{len(self.ranks)} ranks for {len(self.merges)} merges")
        singles = [s for pair in self.merges for s in pair if len(codes_of(s, word_end)) == 1]
        self.alphabet = list(dict.fromkeys([*alphabet, *singles]))

    def __repr__(self) -> str:
        return f"<Units: {len(self.vocab):,} units, {len(self.merges):,} merges, {self.word_end}>"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Units)
            and self.merges == other.merges
            and self.word_end == other.word_end
            and self.alphabet == other.alphabet
            and np.array_equal(self.ranks, other.ranks)
        )

    @cached_property
    def symbols(self) -> list[str]:
        """Every symbol as written: the alphabet, then the merges' sides and results in
        order (a string made twice is one symbol)."""
        names = dict.fromkeys(self.alphabet)
        for left, right in self.merges:
            names.update(dict.fromkeys((left, right, left + right)))
        return list(names)

    @cached_property
    def vocab(self) -> list[str]:
        """The units, in id order: :data:`UNKNOWN`, the alphabet, then each merge's result."""
        return list(dict.fromkeys([UNKNOWN, *self.alphabet, *(a + b for a, b in self.merges)]))

    @cached_property
    def unit_ids(self) -> dict[str, int]:
        """Each unit's id (its place in :attr:`vocab`)."""
        return {unit: i for i, unit in enumerate(self.vocab)}

    @cached_property
    def tables(self) -> Tables:
        """The arrays :func:`wordvec.kernels.bpe.segment_words` reads."""
        from wordvec.kernels.bpe import pair_table

        ids = {symbol: i for i, symbol in enumerate(self.symbols)}
        alphabet = {codes_of(s, self.word_end)[0]: ids[s] for s in self.alphabet}
        order = np.argsort(np.fromiter(alphabet, dtype=np.int64), kind="stable")
        codes = np.fromiter(alphabet, dtype=np.int64)[order]
        symbols = np.fromiter(alphabet.values(), dtype=np.int32)[order]
        left = np.array([ids[a] for a, _ in self.merges], dtype=np.int32)
        right = np.array([ids[b] for _, b in self.merges], dtype=np.int32)
        result = np.array([ids[a + b] for a, b in self.merges], dtype=np.int32)
        rank = self.ranks.astype(np.int64)
        keys, values = pair_table(left, right, rank, result)
        return Tables(codes, symbols, keys, values, rank, left, right, result)

    def word_codes(self, words: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """The character codes each word starts from (the convention's marks added), all
        words' one after another, and where each word's start (n + 1 offsets)."""
        if not words:
            return np.zeros(0, dtype=np.int64), np.zeros(1, dtype=np.int64)
        text = "\n".join(words)
        codes = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32).astype(np.int64)
        breaks = np.flatnonzero(codes == ord("\n"))
        lengths = np.diff(np.concatenate(([-1], breaks, [len(codes)]))) - 1
        codes = np.delete(codes, breaks)
        starts = np.concatenate(([0], np.cumsum(lengths)))
        if self.word_end == "suffix":
            ends = starts[1:][lengths > 0] - 1
            codes[ends] |= END
        elif self.word_end in ("separate", "prefix"):
            mark = END if self.word_end == "separate" else ord(PREFIX)
            at = starts[1:] if self.word_end == "separate" else starts[:-1]
            codes = np.insert(codes, at, mark)
            starts = starts + np.arange(len(starts))
        return codes, starts

    def segment(self, words: Sequence[str]) -> list[list[str]]:
        """Each word's units as written (``cats`` -> ``['cat', 's']``; ``</w>`` kept)."""
        pieces, starts, counts, names = self.segment_ids(words)
        return [[names[s] for s in pieces[a : a + n]] for a, n in zip(starts, counts)]

    def segment_ids(self, words: Sequence[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray, list]:
        """Each word's units as symbol ids: (symbols, where each word's start, how many each
        word has, and every symbol's name; characters the units never saw are added after
        theirs)."""
        from wordvec.kernels.bpe import segment_words

        tables = self.tables
        codes, starts = self.word_codes(words)
        at = np.searchsorted(tables.alphabet_codes, codes)
        at = np.minimum(at, max(len(tables.alphabet_codes) - 1, 0))
        known = len(tables.alphabet_codes) > 0
        found = (tables.alphabet_codes[at] == codes) if known else np.zeros(len(codes), bool)
        names = list(self.symbols)
        symbols = np.empty(len(codes), dtype=np.int32)
        symbols[found] = tables.alphabet_symbols[at[found]]
        if not found.all():
            unseen, inverse = np.unique(codes[~found], return_inverse=True)
            symbols[~found] = len(names) + inverse
            names += [text_of([code]) for code in unseen]
        out = np.empty(len(codes), dtype=np.int32)
        counts = segment_words(
            symbols, starts, tables.keys, tables.values, tables.rank, tables.left,
            tables.right, tables.result, starts, out,
        )  # fmt: skip
        return out, starts[:-1], counts, names

    def encode(self, text: str, form: str = "subword-nmt") -> list[str]:
        """The units of ``text`` (words split at whitespace) in ``form`` (:data:`FORMS`):
        ``"cats"`` -> ``['cat@@', 's']``, or ``['▁cat', 's']``, or ids as strings."""
        return " ".join(self.written(text.split(), form)).split()

    def written(self, words: Sequence[str], form: str = "subword-nmt") -> list[str]:
        """Each word's units written in ``form``, joined by spaces (``'cat@@ s'``)."""
        if form not in FORMS:
            raise ConfigError(f"the form is one of {', '.join(FORMS)}, not {form!r}")
        pieces, starts, counts, names = self.segment_ids(words)
        texts = self.piece_texts(names, form)
        out = []
        for a, n in zip(starts, counts):
            out.append(join_pieces([texts[s] for s in pieces[a : a + n]], form))
        return out

    def piece_texts(self, names: Sequence[str], form: str) -> list[tuple[str, str] | None]:
        """How each symbol is written in ``form``, as (first in a word, elsewhere); None for
        a symbol that is not written (a lone ``</w>``)."""
        texts: list[tuple[str, str] | None] = []
        for name in names:
            if form == "ids":
                texts.append((str(self.unit_ids.get(name, 0)),) * 2)
                continue
            body = name.removesuffix(END_TEXT)
            if not body:
                texts.append(None)
            elif form == "sentencepiece":
                texts.append((body if self.word_end == "prefix" else PREFIX + body, body))
            else:
                texts.append((body.removeprefix(PREFIX) if self.word_end == "prefix" else body,
                              body))  # fmt: skip
        return texts

    def decode(self, pieces: Sequence[str], form: str = "subword-nmt") -> str:
        """The text that ``pieces`` (as :meth:`encode` writes them) spell."""
        if form == "ids":
            return " ".join(self.vocab[int(i)] for i in pieces)
        if form == "sentencepiece":
            return "".join(pieces).replace(PREFIX, " ").strip()
        return " ".join(pieces).replace(CONTINUED + " ", "").removesuffix(CONTINUED)


def join_pieces(texts: Sequence[tuple[str, str] | None], form: str) -> str:
    """One word's pieces as written in ``form`` (:meth:`Units.piece_texts`), space-separated,
    each but the last ending in ``@@`` in subword-nmt's form."""
    shown = [t for t in texts if t is not None]
    words = [first if i == 0 else rest for i, (first, rest) in enumerate(shown)]
    words = [w for w in words if w]
    if form == "subword-nmt":
        words = [w + CONTINUED for w in words[:-1]] + words[-1:]
    return " ".join(words)
