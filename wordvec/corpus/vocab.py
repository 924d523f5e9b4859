"""The vocabulary: words in frequency order with their counts, and the tables derived from counts.

Word ids are positions in frequency order (most frequent first; ties keep first-seen order), as
in word2vec and gensim. The derived tables are word2vec's: subsampling keep probabilities and the
noise distribution for negative sampling.
"""

from __future__ import annotations

import io
import os
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import IO

import numpy as np

from wordvec.errors import FormatError, UndecodableText, VocabularyError
from wordvec.runtime.paths import is_url


class Vocabulary:
    """Words (``list[str]``, id = position) and their corpus counts (``int64``)."""

    def __init__(self, words: Sequence[str], counts: np.ndarray):
        counts = np.asarray(counts, dtype=np.int64)
        if len(words) != len(counts):
            raise ValueError(f"{len(words)} words but {len(counts)} counts")
        self.words = list(words)
        self.counts = counts

    @classmethod
    def from_counts(
        cls,
        words: Sequence[str],
        counts: np.ndarray,
        *,
        min_count: int,
        max_vocab: int | None = None,
    ) -> tuple[Vocabulary, np.ndarray]:
        """Keep words seen at least ``min_count`` times, most frequent first, at most ``max_vocab``.

        ``words``/``counts`` are in first-seen order. Returns the vocabulary and ``remap``: for
        each input position its new id, or -1 for a dropped word.
        """
        counts = np.asarray(counts, dtype=np.int64)
        order = cls.kept(counts, min_count=min_count, max_vocab=max_vocab)
        remap = np.full(len(counts), -1, dtype=np.int32)
        remap[order] = np.arange(len(order), dtype=np.int32)
        return cls([words[i] for i in order], counts[order]), remap

    @staticmethod
    def kept(
        counts: np.ndarray, *, min_count: int, max_vocab: int | None, ordered: bool = False
    ) -> np.ndarray:
        """The positions of the words kept, in vocabulary order (``counts`` in first-seen
        order) in :func:`frequency_order`, gensim's, so that a gensim script's
        ``index_to_key`` is the same through :mod:`wordvec.gensim`. ``ordered``: ``counts``
        are a vocabulary's already (a -save-vocab file's), whose order stays.
        :class:`VocabularyError` if none is kept."""
        candidates = np.flatnonzero(counts >= min_count)  # a long tail need not be sorted
        order = candidates if ordered else frequency_order(candidates, counts[candidates])
        if max_vocab is not None:
            order = order[:max_vocab]
        if len(order) == 0:
            most = int(counts.max()) if len(counts) else 0
            raise VocabularyError(
                f"no word occurs at least {min_count} times (--min-count); "
                f"the most frequent occurs {most} times"
            )
        return order

    def grown(
        self, words: Sequence[str], counts: np.ndarray, *, min_count: int, max_vocab: int | None
    ) -> Vocabulary:
        """This vocabulary after another corpus whose ``words`` were counted ``counts`` times
        (gensim's ``build_vocab(update=True)``): every word kept, its count the sum; the new
        words seen at least ``min_count`` times added (at most ``max_vocab`` of them, the most
        frequent); frequency order, ties in this vocabulary's order, then first seen."""
        total = dict(zip(self.words, self.counts.tolist()))
        order = list(self.words)
        new = []
        for word, count in zip(words, np.asarray(counts).tolist()):
            if word in total:
                total[word] += count
            elif count >= min_count:
                new.append((word, count))
        if max_vocab is not None:
            new = sorted(new, key=lambda pair: -pair[1])[:max_vocab]
        for word, count in new:
            total[word] = count
            order.append(word)
        summed = np.array([total[word] for word in order], dtype=np.int64)
        ranks = np.argsort(-summed, kind="stable")
        return Vocabulary([order[i] for i in ranks], summed[ranks])

    def write_word2vec(self, path: str | os.PathLike) -> None:
        """word2vec's -save-vocab file: 'word count' lines, most frequent first (atomically)."""
        from wordvec.runtime.atomic import atomic_write

        with atomic_write(path, "w", encoding="utf-8", newline="\n") as out:
            for word, count in zip(self.words, self.counts.tolist()):
                out.write(f"{word} {count}\n")

    @classmethod
    def read_word2vec(
        cls, path: str | os.PathLike, encoding: str = "utf-8", errors: str = "strict"
    ) -> Vocabulary:
        """A -save-vocab file of word2vec (whose '</s>' line is skipped) or wordvec, local or
        at a URL, its words decoded by ``encoding`` with ``errors`` (``bytes.decode``'s).
        Counts are positive and add up to less than 2**62, so that sums of them (the total, a
        count grown by a corpus's) cannot overflow int64."""
        name = str(path).rstrip("/").rsplit("/", 1)[-1] if is_url(path) else Path(path).name
        words: list[str] = []
        counts: list[int] = []
        try:
            with _opened_text(path, encoding, errors) as lines:
                for number, line in enumerate(lines, start=1):
                    fields = line.split()
                    if not fields:
                        continue
                    count = _count_field(fields)
                    if count is None:
                        raise FormatError(f"{name}, line {number}: expected 'word count'")
                    if count == 0:
                        raise FormatError(
                            f"{name}, line {number}: a count of 0 (counts are 1 or more)"
                        )
                    if fields[0] != "</s>":
                        words.append(fields[0])
                        counts.append(count)
        except UnicodeDecodeError as error:
            what = "UTF-8" if encoding == "utf-8" else encoding
            raise UndecodableText(f"{name} is not {what} text", error) from None
        except FileNotFoundError:
            raise FormatError(f"vocabulary file not found: {path}") from None
        if len(set(words)) != len(words):
            raise FormatError(f"{name} lists a word twice")
        if not words:
            raise FormatError(f"{name} holds no words")
        if sum(counts) >= MAX_TOTAL:
            raise FormatError(
                f"{name}: the counts add up to {sum(counts):,}, more than 2**62 (no corpus is "
                "that large; a count is wrong)"
            )
        order = np.argsort(-np.array(counts, dtype=np.int64), kind="stable")  # most frequent first
        return cls([words[i] for i in order], np.array(counts, dtype=np.int64)[order])

    def __len__(self) -> int:
        return len(self.words)

    def to_arrays(self) -> dict[str, np.ndarray]:
        """The arrays a file stores: ``words`` (UTF-8 bytes, one word per newline), ``counts``."""
        words = "\n".join(self.words).encode()
        return {"words": np.frombuffer(words, dtype=np.uint8), "counts": self.counts}

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray], name: str) -> Vocabulary:
        """Read what :meth:`to_arrays` wrote (taking the two arrays out of ``arrays``); a
        file that lacks them or holds other bytes is a :class:`FormatError` naming ``name``."""
        if "words" not in arrays or "counts" not in arrays:
            raise FormatError(f"{name} is corrupt (no vocabulary)")
        try:
            words = bytes(arrays.pop("words")).decode().split("\n")
        except UnicodeDecodeError:
            raise FormatError(f"{name} is corrupt (vocabulary is not UTF-8)") from None
        counts = np.asarray(arrays.pop("counts"))
        if len(words) != len(counts):
            raise FormatError(f"{name} is corrupt ({len(words)} words, {len(counts)} counts)")
        if counts.dtype != np.int64 or (
            len(counts) and (counts.min() < 0 or counts.sum(dtype=np.float64) >= MAX_TOTAL)
        ):
            raise FormatError(f"{name} is corrupt (word counts)")
        return cls(words, counts)

    @cached_property
    def index(self) -> dict[str, int]:
        """Word to id."""
        return {word: i for i, word in enumerate(self.words)}

    @property
    def total(self) -> int:
        """Number of corpus tokens that are in the vocabulary."""
        return int(self.counts.sum())

    def keep_probabilities(self, sample: float) -> np.ndarray:
        """word2vec's subsampling: keep a token of frequency f with p = (sqrt(f/tN) + 1) tN/f.

        ``t`` is ``sample`` and ``N`` the total count; p is capped at 1, and ``sample=0`` keeps
        everything. Frequent words are dropped more often, which speeds training up and improves
        the vectors of rarer words.
        """
        if sample <= 0:
            return np.ones(len(self), dtype=np.float32)
        threshold = sample * self.total
        ratio = threshold / self.counts
        keep = (np.sqrt(1.0 / ratio) + 1.0) * ratio
        return np.minimum(keep, 1.0).astype(np.float32)


MAX_TOTAL = 2**62
"""The most that a vocabulary file's counts may add up to: half of int64's range, so that
adding a corpus's counts to them (``--init``) cannot overflow."""


def frequency_order(positions: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """``positions`` (of words in first-seen order, ascending) most frequent first by their
    ``counts``; of equal counts the one first seen last first, gensim's order (its
    ``sort_by_descending_frequency``)."""
    return positions[np.lexsort((-positions, -counts))]


def _opened_text(path: str | os.PathLike, encoding: str, errors: str) -> IO[str]:
    if not is_url(path):
        return open(path, encoding=encoding, errors=errors)
    from wordvec.corpus.urls import open_url

    return io.TextIOWrapper(open_url(path), encoding=encoding, errors=errors)


def _count_field(fields: list[str]) -> int | None:
    """The count of a 'word count' line, or None if the line is not one (digits only, ASCII:
    ``'²'.isdigit()`` is true, and int64 must hold it)."""
    if len(fields) != 2 or not (fields[1].isascii() and fields[1].isdigit()):
        return None
    count = int(fields[1])
    return count if count < 2**63 else None
