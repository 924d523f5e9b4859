"""Choosing the vocabulary of a counted corpus: by --min-count and --max-vocab, the
--read-vocab file's, or a continued model's grown by the corpus's new words (--init)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from wordvec.corpus.vocab import Vocabulary
from wordvec.errors import ConfigError, VocabularyError
from wordvec.options import ReadingOptions


def vocabulary_of(words: list[str], counts: np.ndarray, reading: ReadingOptions) -> Vocabulary:
    """The vocabulary of words counted ``counts`` times (``words`` in first-seen order), as
    :func:`encode_corpus` chooses it: the --read-vocab file's if one is given, else by
    --min-count and --max-vocab; written to --save-vocab if asked."""
    if not words:
        raise VocabularyError("the corpus contains no words (only whitespace)")
    known = known_vocabulary(reading, None)
    return choose_vocabulary(
        lambda positions: [words[i] for i in positions], counts, reading, known
    )[0]


@dataclass(frozen=True)
class KnownVocabulary:
    vocab: Vocabulary
    grows: bool  # --init: the corpus's new words join it; --read-vocab: it is the vocabulary


def known_vocabulary(reading: ReadingOptions, base: Vocabulary | None) -> KnownVocabulary | None:
    """The vocabulary given before the corpus is read: --init's model's, or --read-vocab's
    (--min-count and --max-vocab applied to its counts)."""
    if base is not None and reading.read_vocab is not None:
        raise ConfigError("--init and --read-vocab both fix the vocabulary; give one")
    if base is not None:
        return KnownVocabulary(base, grows=True)
    if reading.read_vocab is None:
        return None
    given = Vocabulary.read_word2vec(reading.read_vocab)
    kept = Vocabulary.kept(
        given.counts, min_count=reading.min_count, max_vocab=reading.max_vocab, ordered=True
    )
    return KnownVocabulary(Vocabulary([given.words[i] for i in kept], given.counts[kept]), False)


def choose_vocabulary(
    words: Callable[[np.ndarray], list[str]],
    counts: np.ndarray,
    reading: ReadingOptions,
    known: KnownVocabulary | None,
) -> tuple[Vocabulary, np.ndarray]:
    """The vocabulary of a corpus whose words (``words(positions)``, in first-seen order) were
    counted ``counts`` times, or the ``known`` one (grown by the corpus, for --init); and each
    word's id in it (-1: left out). Writes it to --save-vocab."""
    limits = {"min_count": reading.min_count, "max_vocab": reading.max_vocab}
    if known is None:
        kept = Vocabulary.kept(counts, **limits)
        vocab = Vocabulary(words(kept), counts[kept])
        final = np.full(len(counts), -1, dtype=np.int32)
        final[kept] = np.arange(len(kept), dtype=np.int32)
    else:  # look every word up in it
        every_word = words(np.arange(len(counts)))
        vocab = known.vocab.grown(every_word, counts, **limits) if known.grows else known.vocab
        index = vocab.index
        final = np.array([index.get(word, -1) for word in every_word], dtype=np.int32)
    if reading.save_vocab is not None:
        vocab.write_word2vec(reading.save_vocab)
    return vocab, final
