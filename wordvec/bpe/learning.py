"""Learning BPE units from a corpus: its distinct words counted once (the corpus reader, on
every core), then merges learned over them in numba (:func:`wordvec.kernels.bpe.learn_merges`),
memory bounded by the distinct words."""

from __future__ import annotations

import os
import threading

import numpy as np

from wordvec.bpe.units import END, WORD_ENDS, Units, text_of
from wordvec.corpus.reading import distinct_words
from wordvec.corpus.sources import Corpus
from wordvec.errors import ConfigError, CorpusError
from wordvec.options import ReadingOptions
from wordvec.runtime.parallel import run_pool
from wordvec.runtime.progress import note, progress_bar
from wordvec.runtime.scratch import scratch_folder

LEARNED_WORD_ENDS = ("none", "suffix")
"""The conventions units are learned with (the others are read from peers' files)."""


def learn(
    corpus: Corpus,
    *,
    vocab_size: int | None = None,
    merges: int | None = None,
    min_frequency: int = 2,
    word_end: str = "none",
    threads: int | None = None,
    quiet: bool = False,
    tmp_dir: str | os.PathLike | None = None,
    reading: ReadingOptions | None = None,
) -> Units:
    """Learn BPE units from ``corpus`` (any corpus wordvec reads): ``vocab_size`` units in all
    (``<unk>``, the characters and one per merge) or ``merges`` merges, each the most
    frequent adjacent pair inside words, ties to the pair met first; no merge of a pair seen
    fewer than ``min_frequency`` times. ``word_end``: ``none`` (the course's BPE) or
    ``suffix`` (``</w>`` on the last character, as subword-nmt learns)."""
    if (vocab_size is None) == (merges is None):
        raise ConfigError("give the number of units (--vocab-size) or of merges (--merges)")
    if word_end not in LEARNED_WORD_ENDS:
        others = ", ".join(w for w in WORD_ENDS if w not in LEARNED_WORD_ENDS)
        raise ConfigError(f"units are learned with --word-end none or suffix ({others}: read)")
    if min_frequency < 1:
        raise ConfigError(f"--min-frequency is at least 1, not {min_frequency}")
    reading = reading or ReadingOptions.of(min_count=1, threads=threads)
    with scratch_folder(tmp_dir) as workdir:
        words, counts = distinct_words(corpus, workdir, reading=reading)
    if not words:
        raise CorpusError("the corpus holds no words to learn units from")
    base = Units([], word_end=word_end)
    codes, starts = base.word_codes(words)
    alphabet, symbols = _numbered(codes)
    if merges is None:
        merges = vocab_size - 1 - len(alphabet)
        if merges < 1:
            raise ConfigError(
                f"--vocab-size {vocab_size} leaves no merge: the corpus has {len(alphabet):,} "
                f"characters (and <unk>); ask for more units"
            )
    learned = _learn_merges(symbols, starts, counts, alphabet, merges,
                            min_frequency, quiet=quiet)  # fmt: skip
    left, right, _, _, s_start, s_len, arena = learned
    names = [text_of(arena[a : a + n]) for a, n in zip(s_start, s_len)]
    if not quiet and len(left) < merges:
        note(f"stopped after {len(left):,} merges: no pair occurs {min_frequency} times more")
    return Units(
        [(names[a], names[b]) for a, b in zip(left, right)],
        word_end=word_end,
        alphabet=[text_of([code]) for code in alphabet],
    )


def _numbered(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct character codes, sorted, and each code's place among them (np.unique's
    answer, through a table of every possible code: 10x faster than its sort)."""
    present = np.zeros(2 * END, dtype=bool)
    present[codes] = True
    alphabet = np.flatnonzero(present)
    place = np.empty(2 * END, dtype=np.int32)
    place[alphabet] = np.arange(len(alphabet), dtype=np.int32)
    return alphabet, place[codes]


def _learn_merges(symbols, starts, counts, alphabet, merges, min_frequency, *, quiet):
    """:func:`learn_merges` on a thread of its own, with a progress bar of its merges."""
    from wordvec.kernels.bpe import learn_merges

    progress = np.zeros(1, dtype=np.int64)
    finished = threading.Event()
    args = (symbols, starts, counts, alphabet, merges, min_frequency, progress)

    def work(_):
        try:
            return learn_merges(*args)
        finally:
            finished.set()

    with progress_bar("learning merges", merges, unit="merge", quiet=quiet, si=False) as bar:

        def watch(_) -> None:
            while not finished.wait(0.2):
                bar.update(int(progress[0]) - bar.n)
            bar.update(int(progress[0]) - bar.n)

        results = run_pool(lambda job: job(None), [work, watch], 2)
    return results[0]
