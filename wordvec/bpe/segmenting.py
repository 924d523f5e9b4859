"""Applying BPE units to a corpus: each distinct word segmented once (a cache), the text then
written token by token from the word ids the corpus reader kept, in slices: memory bounded by
the distinct words, whatever the corpus's size."""

from __future__ import annotations

import os
import sys
from typing import BinaryIO, NamedTuple

import numpy as np

from wordvec.bpe.units import FORMS, Units
from wordvec.corpus.encoded import EncodedCorpus
from wordvec.corpus.reading import read_first_seen
from wordvec.corpus.sources import Corpus
from wordvec.errors import ConfigError
from wordvec.options import ReadingOptions
from wordvec.runtime.atomic import atomic_write
from wordvec.runtime.parallel import run_pool
from wordvec.runtime.progress import progress_bar
from wordvec.runtime.scratch import scratch_folder

_SLICE = 1 << 22  # ids written at a time
_WORDS_A_TASK = 1 << 14


class Segmented(NamedTuple):
    """What :func:`segment_corpus` wrote: tokens read, units written, distinct words."""

    tokens: int
    units: int
    words: int


def segment_corpus(
    units: Units,
    corpus: Corpus,
    output: str | os.PathLike | None,
    *,
    form: str = "subword-nmt",
    threads: int | None = None,
    quiet: bool = False,
    tmp_dir: str | os.PathLike | None = None,
    reading: ReadingOptions | None = None,
) -> Segmented:
    """Write ``corpus`` segmented into ``units`` to ``output`` (atomically; None: standard
    output), one line a line, in ``form`` (:data:`~wordvec.bpe.units.FORMS`). Words are
    split at whitespace and written with single spaces."""
    if form not in FORMS:
        raise ConfigError(f"--format is one of {', '.join(FORMS)}, not {form!r}")
    reading = reading or ReadingOptions.of(min_count=1, threads=threads)
    threads = reading.threads
    with scratch_folder(tmp_dir) as workdir:
        words, counts, ids = read_first_seen(corpus, workdir, reading=reading)
        texts, starts, units_a_word = word_texts(units, words, form, threads)
        if output is None:
            _write(ids, texts, starts, sys.stdout.buffer, quiet)
        else:
            with atomic_write(output) as handle:
                _write(ids, texts, starts, handle, quiet)
    return Segmented(int(counts.sum()), int(units_a_word @ counts), len(words))


def word_texts(
    units: Units, words: list[str], form: str, threads: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each word's units as written in ``form``: UTF-8 bytes of all words one after another,
    where each word's start (n + 1), and how many units each has; segmented on ``threads``
    threads in tasks of consecutive words."""
    tasks = [words[i : i + _WORDS_A_TASK] for i in range(0, len(words), _WORDS_A_TASK)]
    units.tables  # noqa: B018  (built once, before the threads share it)
    written = run_pool(lambda task: units.written(task, form), tasks, threads)
    encoded = [text.encode() for part in written for text in part]
    lengths = np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded))
    starts = np.concatenate(([0], np.cumsum(lengths)))
    texts = np.frombuffer(b"".join(encoded), dtype=np.uint8)
    counts = np.array([text.count(b" ") + 1 if text else 0 for text in encoded], np.int64)
    return texts, starts, counts


def _write(
    ids: EncodedCorpus, texts: np.ndarray, starts: np.ndarray, out: BinaryIO, quiet: bool
) -> None:
    """The id stream ``ids`` as text: each word's bytes, spaces between, a line end for each
    SENTENCE_END."""
    from wordvec.kernels.bpe import write_lines

    buffer = np.empty(0, dtype=np.uint8)
    with progress_bar("writing units", ids.length, quiet=quiet, delay=1.0) as bar:
        for start in range(0, ids.length, _SLICE):
            chunk = ids.read(start, min(start + _SLICE, ids.length))
            need = int((starts[1:] - starts[:-1])[chunk[chunk >= 0]].sum()) + len(chunk)
            if len(buffer) < need:
                buffer = np.empty(need, dtype=np.uint8)
            used = write_lines(chunk, texts, starts, buffer)
            out.write(buffer[:used].tobytes())
            bar.update(len(chunk))
