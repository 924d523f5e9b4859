"""Phrases: word pairs that occur together far more often than chance joined into one token
(``new york`` -> ``new_york``), as word2vec's ``word2phrase`` does before training.

A pass reads the corpus once into word ids (every word kept: ``min_count`` here is the
phrase rule's), counts its adjacent pairs with the co-occurrence counting kernels (window 1,
in order, exact integers, within ``memory``), and scores each pair as word2phrase.c does, in
float32 and in its order of operations::

    score(a, b) = (count(a b) - min_count) / count(a) / count(b) * total_words

A pair is joined where both words and the pair occur at least ``min_count`` times and the
score is over ``threshold``; reading a line left to right, a word joined to the word before it
is not joined to the next (``a b c`` -> ``a_b c``), so a pass makes phrases of two tokens and
``passes`` of them, phrases of up to ``2**passes`` words. Lines are never crossed. The output
is the text with each line's tokens separated by spaces, phrases by ``_``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

import numpy as np

from wordvec.cooccur.counting import count_exact
from wordvec.corpus.python_text import as_corpus
from wordvec.corpus.reading import encode_corpus
from wordvec.corpus.vocab import Vocabulary
from wordvec.errors import ConfigError, VocabularyError
from wordvec.options import (
    MIN_COUNT,
    OPTION,
    PHRASE_PASSES,
    PHRASE_THRESHOLD,
    CooccurConfig,
    ReadingOptions,
)
from wordvec.runtime.atomic import atomic_write
from wordvec.runtime.progress import announces_compiling, note, progress_bar
from wordvec.runtime.scratch import scratch_folder

_WRITE_TOKENS = 1 << 20
"""Tokens turned into text at a time."""


class PhraseReport(NamedTuple):
    """What each pass found: the distinct phrases it joined (of the pairs scored over the
    threshold, those the left-to-right rule let join) and how many times it joined them."""

    phrases: list[int]
    joined: list[int]


@announces_compiling("phrases")
def find_phrases(
    corpus,
    output: str | os.PathLike,
    *,
    min_count: int = MIN_COUNT,
    threshold: float = PHRASE_THRESHOLD,
    passes: int = PHRASE_PASSES,
    threads: int | None = None,
    memory: float = OPTION["memory"].default,
    quiet: bool = False,
    tmp_dir: str | os.PathLike | None = None,
    **reading,
) -> PhraseReport:
    """Write ``corpus`` (paths, or Python text) with its phrases joined to ``output``
    (atomically), after ``passes`` passes; ``reading`` takes the reading options (lowercase,
    tokenizer, vocab_memory, ...). Returns the phrases and joins of each pass."""
    if min_count < 1 or passes < 1 or threshold < 0:
        raise ConfigError("min_count and passes are at least 1, threshold at least 0")
    options = ReadingOptions.of(**reading, min_count=1)
    source = as_corpus(corpus)
    report = PhraseReport([], [])
    with scratch_folder(tmp_dir) as workdir:
        for number in range(1, passes + 1):
            target = Path(output) if number == passes else Path(workdir, f"pass-{number}.txt")
            found, joined = _one_pass(
                source, target, Path(workdir), options, min_count, threshold, threads, memory,
                quiet=quiet,
            )  # fmt: skip
            report.phrases.append(found)
            report.joined.append(joined)
            if not quiet and passes > 1:
                note(f"pass {number}: {found:,} phrases joined {joined:,} times")
            source = target
    return report


def _one_pass(
    corpus,
    output: Path,
    workdir: Path,
    options: ReadingOptions,
    min_count: int,
    threshold: float,
    threads: int | None,
    memory: float,
    *,
    quiet: bool,
) -> tuple[int, int]:
    """One pass: read, count the adjacent pairs, score them, write the joined text."""
    with progress_bar("reading corpus", quiet=quiet) as bar:
        vocab, encoded = encode_corpus(corpus, workdir, reading=options, on_tokens=bar.update)
    if encoded.dropped[0]:
        raise VocabularyError(
            f"the distinct words outgrew --vocab-memory {options.vocab_memory:g} GB: phrases "
            "need every word's count; give more"
        )
    pairs = CooccurConfig(window=1, symmetric=False, distance_weighting=False, min_count=1,
                          threads=1, memory=memory).resolved()  # fmt: skip
    row_ptr, earlier, counts = count_exact(vocab, encoded, pairs, workdir, 0, len(vocab))
    later = np.repeat(np.arange(len(vocab), dtype=np.int64), np.diff(row_ptr))
    good = phrase_keys(vocab, earlier.astype(np.int64), later, counts, min_count, threshold)
    return _write_joined(encoded, vocab, good, output, quiet)


def phrase_keys(
    vocab: Vocabulary,
    first: np.ndarray,
    second: np.ndarray,
    pair_counts: np.ndarray,
    min_count: int,
    threshold: float,
) -> np.ndarray:
    """The sorted keys ``first * len(vocab) + second`` of the pairs to join: word2phrase's
    score, in float32 as it computes it, over ``threshold``."""
    count_a, count_b = vocab.counts[first], vocab.counts[second]
    frequent = (count_a >= min_count) & (count_b >= min_count) & (pair_counts >= min_count)
    f32 = np.float32
    score = (
        (pair_counts - min_count).astype(f32) / count_a.astype(f32) / count_b.astype(f32)
        * f32(vocab.total)
    )  # fmt: skip
    chosen = frequent & (score > f32(threshold))
    return np.sort(first[chosen] * len(vocab) + second[chosen])


def _write_joined(
    encoded, vocab: Vocabulary, good: np.ndarray, output: Path, quiet: bool
) -> tuple[int, int]:
    """Write the corpus with the pairs of ``good`` joined; return how many distinct phrases
    were joined, and how many times."""
    from wordvec.kernels.phrases import join_pairs, write_tokens

    data = "\n".join(vocab.words).encode()
    word_bytes = np.frombuffer(data, dtype=np.uint8)
    lengths = np.array([len(word.encode()) for word in vocab.words], dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(lengths + 1)[:-1]]).astype(np.int64)
    joins, previous, line_open = 0, -1, False
    used = np.zeros(len(good), dtype=np.uint8)
    with atomic_write(output, "wb") as out, progress_bar("joining", encoded.length,
                                                          quiet=quiet) as bar:  # fmt: skip
        for start in range(0, encoded.length, _WRITE_TOKENS):
            ids = encoded.read(start, min(start + _WRITE_TOKENS, encoded.length))
            joined = np.zeros(len(ids), dtype=np.uint8)
            made, previous = join_pairs(ids, good, len(vocab), previous, joined, used)
            buffer = np.empty(int(lengths[ids[ids >= 0]].sum()) + len(ids) + 1, dtype=np.uint8)
            n, line_open = write_tokens(ids, joined, word_bytes, starts, lengths, line_open,
                                        buffer)  # fmt: skip
            out.write(buffer[:n].tobytes())
            joins += made
            bar.update(len(ids))
        if line_open:
            out.write(b"\n")
    return int(used.sum()), joins
