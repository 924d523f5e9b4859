"""The corpus encoded once as word ids on disk, so that epochs and threads never re-read text.

One pass over the text counts every word and writes provisional ids to temporary files (numba
on every core, :mod:`wordvec.scanning`, or Python for the other tokenizers and for bytes that
need its judgement); once the vocabulary is fixed, a pass over those binary files maps them
to final ids, drops out-of-vocabulary words, and keeps a SENTENCE_END marker after each line.
Training then reads slices of the final file (``os.pread``), so memory stays bounded by the
vocabulary and the model however large the corpus is; disk use is 4 bytes per token.
"""

from __future__ import annotations

import itertools
import os
import shutil
import sys
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from wordvec.corpus import (
    Corpus,
    corpus_files,
    corpus_name,
    corpus_streams,
    file_size,
    is_compressed,
    read_pieces,
    rereadable,
)
from wordvec.errors import ConfigError, CorpusError, VocabularyError
from wordvec.options import READING, resolve
from wordvec.parallel import available_cores
from wordvec.scanning import NeedsPythonReader, scan_corpus
from wordvec.vocab import Vocabulary

SENTENCE_END = -1
"""Marks the end of a line (a sentence) in the id stream."""

ID_DTYPE = np.dtype("<i4")
_FLUSH_IDS = 1 << 20
_REMAP_CHUNK = 1 << 24


@dataclass(frozen=True)
class Job:
    """A contiguous slice ``[start, stop)`` of the id stream holding ``words`` vocabulary words."""

    start: int
    stop: int
    words: int


class EncodedCorpus:
    """A file of int32 word ids with SENTENCE_END after every line; read in slices."""

    def __init__(self, path: Path, length: int, words: int, dropped: tuple[int, int] = (0, 0)):
        self.path = Path(path)
        self.length = length  # entries, markers included
        self.words = words  # vocabulary tokens (the number that drives the learning rate)
        self.dropped = dropped  # words dropped while counting (--vocab-memory), highest count

    def read(self, start: int, stop: int) -> np.ndarray:
        """The ids in ``[start, stop)`` as a fresh int32 array (thread-safe)."""
        nbytes = (stop - start) * ID_DTYPE.itemsize
        fd = os.open(self.path, os.O_RDONLY)
        try:
            data = os.pread(fd, nbytes, start * ID_DTYPE.itemsize)
        finally:
            os.close(fd)
        return np.frombuffer(data, dtype=ID_DTYPE).copy()

    def jobs(self, job_words: int) -> list[Job]:
        """Cut the stream into slices of about ``job_words`` entries, cut after a marker if one
        is near, so that few sentences are split between jobs."""
        jobs = []
        start = 0
        while start < self.length:
            stop = min(start + job_words, self.length)
            ids = self.read(start, stop)
            if stop < self.length:
                ends = np.flatnonzero(ids[job_words // 2 :] == SENTENCE_END)
                if len(ends):
                    stop = start + job_words // 2 + int(ends[-1]) + 1
                    ids = ids[: stop - start]
            jobs.append(Job(start, stop, int(np.count_nonzero(ids >= 0))))
            start = stop
        return jobs


def encode_corpus(
    corpus: Corpus,
    workdir: str | os.PathLike,
    *,
    threads: int | None = None,
    base: Vocabulary | None = None,
    on_tokens: Callable[[int], None] | None = None,
    **reading,
) -> tuple[Vocabulary, EncodedCorpus]:
    """Read ``corpus`` once; return its vocabulary and its id stream (a file in ``workdir``).

    ``reading`` holds the options named in :data:`wordvec.options.READING` (the rest take
    their defaults). With a ``base`` vocabulary (a model continued, ``--init``), its words are
    all kept, with the corpus's new ones. Whitespace-separated text is read by numba on
    ``threads`` threads (all cores by default; :mod:`wordvec.scanning`), other tokenizers and
    bytes that need the Python reader's judgement by Python; the result is the same.
    ``on_tokens(n)`` is called as tokens are read, for progress display.
    """
    reading = resolve(reading, READING, "sg", check_applies=False)
    workdir = Path(workdir)
    known = _known_vocabulary(reading, base)  # before reading: a bad file fails at once
    if _numba_reads(reading):
        try:
            return _encode_scanned(corpus, workdir, threads, reading, known, on_tokens)
        except NeedsPythonReader:
            _check_rereadable(corpus)
    return _encode_in_python(corpus, workdir, threads, reading, known, on_tokens)


@dataclass(frozen=True)
class CountedWords:
    """A corpus read before its vocabulary is known (one task of a distributed count): its
    distinct words in first-seen order, their counts, and the corpus as first-seen ids."""

    words: list[str]
    counts: np.ndarray  # int64 per word
    ids: np.ndarray  # int32: word i is id i; SENTENCE_END after every line


def count_words(
    corpus: Corpus, workdir: str | os.PathLike, *, threads: int | None = None, **reading
) -> CountedWords:
    """Read ``corpus`` once, as :func:`encode_corpus` does, but stop before the vocabulary:
    the vocabulary of many such parts is chosen from their merged counts, then each is
    renumbered (:func:`encode_counted`). ``reading`` as for :func:`encode_corpus`; the ids
    pass through ``workdir`` and are returned in memory (4 bytes a token)."""
    reading = resolve(reading, READING, "sg", check_applies=False)
    raw_path = Path(workdir) / "first-seen.i32"
    if _numba_reads(reading):
        try:
            scanned = _scan_with_numba(corpus, Path(workdir), threads, reading, None)
            first_seen = np.arange(len(scanned.counts), dtype=np.int32)
            scanned.write_ids(first_seen, raw_path)
            words = scanned.words(first_seen)
            return CountedWords(words, scanned.counts, np.fromfile(raw_path, ID_DTYPE))
        except NeedsPythonReader:
            _check_rereadable(corpus)
    words, counts, _ = _scan(_python_pieces(corpus, threads, reading), raw_path, None)
    return CountedWords(words, counts, np.fromfile(raw_path, ID_DTYPE))


class IdsInMemory(EncodedCorpus):
    """An id stream held in memory (a task's share of a distributed count), read as the file
    of :class:`EncodedCorpus` is."""

    def __init__(self, ids: np.ndarray):
        self.path = None
        self.ids = ids
        self.length = len(ids)
        self.words = int(np.count_nonzero(ids >= 0))
        self.dropped = (0, 0)

    def read(self, start: int, stop: int) -> np.ndarray:
        return self.ids[start:stop].copy()


def encode_counted(counted: CountedWords, vocab: Vocabulary) -> IdsInMemory:
    """The counted corpus as ids of ``vocab``, its other words left out: what
    :func:`encode_corpus` writes for it with that vocabulary."""
    index = vocab.index
    remap = np.array([index.get(word, -1) for word in counted.words], dtype=np.int32)
    return IdsInMemory(_renumbered(_renumbering(remap), counted.ids))


def vocabulary_of(words: list[str], counts: np.ndarray, **reading) -> Vocabulary:
    """The vocabulary of words counted ``counts`` times (``words`` in first-seen order), as
    :func:`encode_corpus` chooses it: the --read-vocab file's if one is given, else by
    --min-count and --max-vocab; written to --save-vocab if asked."""
    reading = resolve(reading, READING, "sg", check_applies=False)
    if not words:
        raise VocabularyError("the corpus contains no words (only whitespace)")
    known = _known_vocabulary(reading, None)
    return _vocabulary(lambda positions: [words[i] for i in positions], counts, reading, known)[0]


def _numba_reads(reading: dict) -> bool:
    """Whether the numba reader can read with these options (it knows only whitespace)."""
    return reading["tokenizer"] == "whitespace" and reading["convert"] is None


def _check_rereadable(corpus: Corpus) -> None:
    """The Python reader takes over from the numba one when bytes need its judgement; a
    stream already half read cannot be read again."""
    if not rereadable(corpus):
        raise CorpusError(
            f"{corpus_name(corpus)} holds bytes that are not plain UTF-8 text; read "
            "it from a file to see where (or pass --encoding-errors replace)"
        )


BYTES_PER_TABLE_WORD = 50
"""What a distinct word costs while counting (wordvec.scanning's tables): for --vocab-memory."""
BYTES_PER_TOKEN = 6
"""About what a token takes in English text (a word and its space): for the disk estimate."""
COMPRESSION = 3
"""About how much gzip or bzip2 shrinks text: for the disk estimate."""


def check_free_space(corpus: Corpus, workdir: Path) -> None:
    """Refuse, before reading, a corpus whose word ids would not fit in ``workdir``'s file
    system: 4 bytes a token, twice while they are renumbered (estimated from the files' sizes;
    standard input and FIFOs cannot be measured)."""
    text_bytes = 0
    for path in corpus_files(corpus):
        size = file_size(path)
        if size is not None:
            text_bytes += size * (COMPRESSION if is_compressed(path) else 1)
    needed = 2 * ID_DTYPE.itemsize * text_bytes // BYTES_PER_TOKEN
    free = shutil.disk_usage(workdir).free
    if needed > free:
        raise CorpusError(
            f"the word ids of {corpus_name(corpus)} need about {_size(needed)} of temporary "
            f"space (4 bytes a token, twice while renumbered), but {workdir.parent} has "
            f"{_size(free)} free; choose another --tmp-dir"
        )


def _size(nbytes: int) -> str:
    return f"{nbytes / 1e9:.1f} GB" if nbytes >= 1e8 else f"{nbytes / 1e6:.0f} MB"


def _scan_with_numba(corpus, workdir: Path, threads, reading: dict, on_tokens):
    return scan_corpus(
        corpus_streams(corpus),
        workdir,
        threads or available_cores(),
        lowercase=reading["lowercase"],
        max_words=int(reading["vocab_memory"] * 1e9 / BYTES_PER_TABLE_WORD),
        on_tokens=on_tokens,
    )


def _encode_scanned(corpus, workdir: Path, threads, reading: dict, known, on_tokens):
    scanned = _scan_with_numba(corpus, workdir, threads, reading, on_tokens)
    if not len(scanned.counts):
        raise CorpusError(f"{corpus_name(corpus)} contains no words (only whitespace)")
    vocab, final = _vocabulary(scanned.words, scanned.counts, reading, known)
    path = workdir / "ids.i32"
    length, words = scanned.write_ids(final, path)
    dropped = (scanned.words_dropped, scanned.highest_dropped)
    return vocab, EncodedCorpus(path, length, words, dropped)


@dataclass(frozen=True)
class _KnownVocabulary:
    vocab: Vocabulary
    grows: bool  # --init: the corpus's new words join it; --read-vocab: it is the vocabulary


def _known_vocabulary(reading: dict, base: Vocabulary | None) -> _KnownVocabulary | None:
    """The vocabulary given before the corpus is read: --init's model's, or --read-vocab's
    (--min-count and --max-vocab applied to its counts)."""
    if base is not None and reading["read_vocab"] is not None:
        raise ConfigError("--init and --read-vocab both fix the vocabulary; give one")
    if base is not None:
        return _KnownVocabulary(base, grows=True)
    if reading["read_vocab"] is None:
        return None
    given = Vocabulary.read_word2vec(reading["read_vocab"])
    kept = Vocabulary.kept(
        given.counts, min_count=reading["min_count"], max_vocab=reading["max_vocab"]
    )
    return _KnownVocabulary(Vocabulary([given.words[i] for i in kept], given.counts[kept]), False)


def _vocabulary(
    words: Callable[[np.ndarray], list[str]],
    counts: np.ndarray,
    reading: dict,
    known: _KnownVocabulary | None,
) -> tuple[Vocabulary, np.ndarray]:
    """The vocabulary of a corpus whose words (``words(positions)``, in first-seen order) were
    counted ``counts`` times, or the ``known`` one (grown by the corpus, for --init); and each
    word's id in it (-1: left out). Writes it to --save-vocab."""
    limits = {"min_count": reading["min_count"], "max_vocab": reading["max_vocab"]}
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
    if reading["save_vocab"] is not None:
        vocab.write_word2vec(reading["save_vocab"])
    return vocab, final


def _encode_in_python(corpus, workdir: Path, threads, reading: dict, known, on_tokens):
    raw_path = workdir / "raw-ids.i32"
    words, counts, raw_length = _scan(_python_pieces(corpus, threads, reading), raw_path, on_tokens)
    if not words:
        raise CorpusError(f"{corpus_name(corpus)} contains no words (only whitespace)")
    vocab, remap = _vocabulary(
        lambda positions: [words[i] for i in positions], counts, reading, known
    )
    encoded = _remap(raw_path, raw_length, remap, workdir / "ids.i32")
    raw_path.unlink()
    return vocab, encoded


def _python_pieces(corpus, threads, reading: dict):
    return read_pieces(
        corpus,
        lowercase=reading["lowercase"],
        encoding_errors=reading["encoding_errors"],
        tokenizer=reading["tokenizer"],
        convert=reading["convert"],
        workers=threads or available_cores(),
    )


def _scan(pieces, raw_path, on_tokens):
    """Count words and write first-seen ids (SENTENCE_END after each line) to ``raw_path``."""
    first_seen: defaultdict[str, int] = defaultdict(itertools.count().__next__)
    lookup = first_seen.__getitem__
    counts = np.zeros(0, dtype=np.int64)
    pending: list[int] = []
    length = 0
    with open(raw_path, "wb") as out:

        def flush() -> None:
            nonlocal counts, length
            ids = np.array(pending, dtype=ID_DTYPE)
            pending.clear()
            ids.tofile(out)
            length += len(ids)
            block_counts = np.bincount(ids[ids >= 0], minlength=len(first_seen))
            if len(counts) < len(block_counts):
                counts = np.concatenate([counts, np.zeros(len(block_counts) - len(counts), "i8")])
            counts[: len(block_counts)] += block_counts
            if on_tokens is not None:
                on_tokens(int(np.count_nonzero(ids >= 0)))

        for tokens, line_ends in pieces:
            pending.extend(map(lookup, tokens))
            if line_ends:
                pending.append(SENTENCE_END)
            if len(pending) >= _FLUSH_IDS:
                flush()
        flush()
    return list(first_seen), counts, length


_DROPPED = -2


def _renumbering(remap: np.ndarray) -> np.ndarray:
    """The new id of each first-seen id + 1: index 0 is SENTENCE_END (kept), and words left
    out (-1 in ``remap``) become _DROPPED, to be removed."""
    return np.concatenate([[SENTENCE_END], np.where(remap >= 0, remap, _DROPPED)]).astype(ID_DTYPE)


def _renumbered(table: np.ndarray, first_seen_ids: np.ndarray) -> np.ndarray:
    """First-seen ids (SENTENCE_END included) renumbered by a :func:`_renumbering` table, the
    words it leaves out removed."""
    ids = table[first_seen_ids + 1]
    return ids[ids != _DROPPED]


def _remap(raw_path: Path, raw_length: int, remap: np.ndarray, out_path: Path) -> EncodedCorpus:
    """Rewrite first-seen ids as vocabulary ids, dropping words outside the vocabulary."""
    table = _renumbering(remap)
    length = words = 0
    with open(raw_path, "rb") as raw, open(out_path, "wb") as out:
        for _ in range(0, raw_length, _REMAP_CHUNK):
            ids = _renumbered(table, np.fromfile(raw, dtype=ID_DTYPE, count=_REMAP_CHUNK))
            ids.tofile(out)
            length += len(ids)
            words += int(np.count_nonzero(ids >= 0))
    return EncodedCorpus(out_path, length, words)


def read_corpus(
    corpus: Corpus,
    workdir: str | os.PathLike,
    options,
    *,
    base: Vocabulary | None = None,
    quiet: bool = False,
) -> tuple[Vocabulary, EncodedCorpus]:
    """:func:`encode_corpus` with a progress bar and a summary line on stderr; ``options``
    is any object with the attributes named in :data:`wordvec.options.READING`."""
    from wordvec.progress import progress_bar

    check_free_space(corpus, Path(workdir))
    with progress_bar("reading corpus", quiet=quiet) as bar:
        vocab, encoded = encode_corpus(
            corpus,
            workdir,
            threads=getattr(options, "threads", None),
            base=base,
            on_tokens=bar.update,
            **{name: getattr(options, name) for name in READING},
        )
    if not quiet:
        print(
            f"vocabulary: {len(vocab):,} words (min count {options.min_count}) covering "
            f"{encoded.words:,} tokens",
            file=sys.stderr,
        )
    if encoded.dropped[0]:
        print(
            f"note: the distinct words outgrew --vocab-memory {options.vocab_memory:g} GB, so "
            f"rare words were dropped from the counts {encoded.dropped[0]:,} times (each seen "
            f"at most {encoded.dropped[1]:,} times by then), as word2vec does; a larger "
            "--vocab-memory keeps every count exact",
            file=sys.stderr,
        )
    return vocab, encoded
