"""Reading a corpus once into its vocabulary and its id stream: the corpus package's entry.

One pass over the text counts every word and writes provisional ids to temporary files (numba
on every core, :mod:`wordvec.corpus.numba_reader`, or Python for the other tokenizers and for
bytes that need its judgement, :mod:`wordvec.corpus.python_reader`); once the vocabulary is
chosen (:mod:`wordvec.corpus.vocab_choice`), a pass over those binary files maps them to final
ids, drops out-of-vocabulary words, and keeps a SENTENCE_END marker after each line
(:mod:`wordvec.corpus.encoded`). Disk use is 4 bytes per token; memory is bounded by the
vocabulary, however large the corpus is.
"""

from __future__ import annotations

import itertools
import os
import shutil
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from wordvec.corpus.encoded import (
    ID_DTYPE,
    SENTENCE_END,
    EncodedCorpus,
    IdsInMemory,
    remap_file,
    renumbered,
    renumbering,
)
from wordvec.corpus.numba_reader import NeedsPythonReader, scan_corpus
from wordvec.corpus.python_reader import read_pieces
from wordvec.corpus.sources import (
    Corpus,
    corpus_files,
    corpus_name,
    corpus_streams,
    file_size,
    is_compressed,
    rereadable,
)
from wordvec.corpus.vocab import Vocabulary
from wordvec.corpus.vocab_choice import choose_vocabulary, known_vocabulary
from wordvec.errors import CorpusError
from wordvec.options import ReadingOptions
from wordvec.runtime.progress import note, progress_bar

_FLUSH_IDS = 1 << 20
_REPORT_TOKENS = 1 << 14


def encode_corpus(
    corpus: Corpus,
    workdir: str | os.PathLike,
    *,
    base: Vocabulary | None = None,
    on_tokens: Callable[[int], None] | None = None,
    reading: ReadingOptions | None = None,
    **given,
) -> tuple[Vocabulary, EncodedCorpus]:
    """Read ``corpus`` once; return its vocabulary and its id stream (a file in ``workdir``).

    ``reading`` says how (or ``given`` names some of its options: ``min_count=1``). With a
    ``base`` vocabulary (a model continued, ``--init``), its words are all kept, with the
    corpus's new ones. Whitespace-separated text is read by numba on ``reading.threads``
    threads (all cores by default; :mod:`wordvec.corpus.numba_reader`); small files
    (:func:`_small_for_python`), other tokenizers and bytes that need the Python reader's
    judgement by Python; the result is the same.
    ``on_tokens(n)`` is called as tokens are read, for progress display.
    """
    reading = _reading(reading, given)
    workdir = Path(workdir)
    known = known_vocabulary(reading, base)  # before reading: a bad file fails at once
    if _numba_reads(reading) and not _small_for_python(corpus, reading):
        try:
            return _encode_scanned(corpus, workdir, reading, known, on_tokens)
        except NeedsPythonReader as why:
            _check_rereadable(corpus, why, reading)
    return _encode_in_python(corpus, workdir, reading, known, on_tokens)


@dataclass(frozen=True)
class CountedWords:
    """A corpus read before its vocabulary is known (one task of a distributed count): its
    distinct words in first-seen order, their counts, and the corpus as first-seen ids."""

    words: list[str]
    counts: np.ndarray  # int64 per word
    ids: np.ndarray  # int32: word i is id i; SENTENCE_END after every line


def read_first_seen(
    corpus: Corpus,
    workdir: str | os.PathLike,
    *,
    reading: ReadingOptions | None = None,
    on_tokens: Callable[[int], None] | None = None,
    numba: bool = True,
    **given,
) -> tuple[list[str], np.ndarray, EncodedCorpus]:
    """Read ``corpus`` once, as :func:`encode_corpus` does, but stop before the vocabulary: its
    distinct words in first-seen order, their counts, and the corpus as their first-seen ids
    (word i is id i; a file in ``workdir``, SENTENCE_END after every line). ``reading`` as for
    :func:`encode_corpus`; ``numba=False`` reads with the Python reader (the same result)."""
    reading = _reading(reading, given)
    path = Path(workdir) / "first-seen.i32"
    if numba and _numba_reads(reading):
        try:
            scanned = _scan_with_numba(corpus, Path(workdir), reading, on_tokens)
            first_seen = np.arange(len(scanned.counts), dtype=np.int32)
            length, words = scanned.write_ids(first_seen, path)
            return scanned.words(first_seen), scanned.counts, EncodedCorpus(path, length, words)
        except NeedsPythonReader as why:
            _check_rereadable(corpus, why, reading)
    words, counts, length = _scan(_python_pieces(corpus, reading), path, on_tokens)
    return words, counts, EncodedCorpus(path, length, int(counts.sum()))


def distinct_words(
    corpus: Corpus,
    workdir: str | os.PathLike,
    *,
    reading: ReadingOptions | None = None,
    **given,
) -> tuple[list[str], np.ndarray]:
    """:func:`read_first_seen` without the id stream: the distinct words in first-seen order
    and their counts (what BPE units are learned from), a pass over the ids the sooner."""
    reading = _reading(reading, given)
    if _numba_reads(reading):
        try:
            scanned = _scan_with_numba(corpus, Path(workdir), reading, None)
            return scanned.words(np.arange(len(scanned.counts), dtype=np.int32)), scanned.counts
        except NeedsPythonReader:
            _check_rereadable(corpus)
    words, counts, _ = read_first_seen(corpus, workdir, reading=reading, numba=False)
    return words, counts


def count_words(
    corpus: Corpus,
    workdir: str | os.PathLike,
    *,
    reading: ReadingOptions | None = None,
    **given,
) -> CountedWords:
    """:func:`read_first_seen` with the ids in memory (4 bytes a token): the vocabulary of many
    such parts is chosen from their merged counts, then each is renumbered
    (:func:`encode_counted`)."""
    words, counts, ids = read_first_seen(corpus, workdir, reading=_reading(reading, given))
    return CountedWords(words, counts, np.fromfile(ids.path, ID_DTYPE))


def encode_counted(counted: CountedWords, vocab: Vocabulary) -> IdsInMemory:
    """The counted corpus as ids of ``vocab``, its other words left out: what
    :func:`encode_corpus` writes for it with that vocabulary."""
    index = vocab.index
    remap = np.array([index.get(word, -1) for word in counted.words], dtype=np.int32)
    return IdsInMemory(renumbered(renumbering(remap), counted.ids))


def _reading(reading: ReadingOptions | None, given: dict) -> ReadingOptions:
    """The options to read with: ``reading``, or the ones ``given`` by name (checked)."""
    if reading is not None and given:
        raise TypeError("give the reading options as ReadingOptions or by name, not both")
    return reading if reading is not None else ReadingOptions.of(**given)


def _numba_reads(reading: ReadingOptions) -> bool:
    """Whether the numba reader can read with these options (it knows only whitespace)."""
    return reading.tokenizer == "whitespace" and reading.convert is None


def _check_rereadable(corpus: Corpus, why: NeedsPythonReader, reading: ReadingOptions) -> None:
    """The Python reader takes over from the numba one when bytes need its judgement; a
    stream already half read cannot be read again, so its error says what the Python reader
    would have: NUL bytes are a binary file; other bytes that are not UTF-8 are replaced only
    from a file, which the message says (not to give the --encoding-errors just given)."""
    from wordvec.kernels.scan import NUL_BYTE  # loaded already: the numba reader ran

    if rereadable(corpus):
        return
    name = corpus_name(corpus)
    if why.args and why.args[0] == NUL_BYTE:
        raise CorpusError(f"{name} looks like a binary file (it contains NUL bytes)")
    given = reading.encoding_errors != "strict"
    advice = (
        f"--encoding-errors {reading.encoding_errors} reads them from a file, not from a stream"
        if given
        else "save it to a file and read that (to see where, or with --encoding-errors replace)"
    )
    raise CorpusError(f"{name} holds bytes that are not plain UTF-8 text; {advice}")


SMALL_CORPUS = 16 << 20
"""Bytes of text below which the Python reader is done before the numba reader has loaded its
compiled code (0.6 s a process): a classifier's training file is often that small."""


def is_small(corpus: Corpus) -> bool:
    """Whether the corpus's files are known to hold less than SMALL_CORPUS bytes of text."""
    text_bytes, all_measured = _text_bytes(corpus)
    return all_measured and text_bytes < SMALL_CORPUS


BYTES_PER_TABLE_WORD = 50
"""What a distinct word costs while counting (the numba reader's tables): for --vocab-memory."""


PYTHON_READS = 2 << 20
"""Bytes of text below which the word models read a corpus in Python: it takes ~40 ns a byte
(0.48 s for 12 MB on the 2-vCPU VM) where the numba reader takes 0.1 s once its kernels are
in numba's cache, but those kernels take ~4 s to compile on a first run, which a first run on
a small file (a newcomer's 200 KB) is then spared."""


def _small_for_python(corpus: Corpus, reading: ReadingOptions) -> bool:
    """Whether the Python reader reads ``corpus`` as the numba reader would, sooner: one of
    less than :data:`PYTHON_READS` bytes (so no more words) whose every word the numba
    reader's ``--vocab-memory`` would keep (the Python reader keeps them all)."""
    text_bytes, all_measured = _text_bytes(corpus)
    fits = text_bytes * BYTES_PER_TABLE_WORD <= reading.vocab_memory * 1e9
    return all_measured and text_bytes < PYTHON_READS and fits


BYTES_PER_TOKEN = 6
"""About what a token takes in English text (a word and its space): for the disk estimate."""
COMPRESSION = 3
"""About how much gzip or bzip2 shrinks text: for the disk estimate."""


def check_free_space(corpus: Corpus, workdir: Path) -> None:
    """Refuse, before reading, a corpus whose word ids would not fit in ``workdir``'s file
    system: 4 bytes a token, twice while they are renumbered (estimated from the files' sizes;
    standard input and FIFOs cannot be measured)."""
    text_bytes, _ = _text_bytes(corpus)
    needed = 2 * ID_DTYPE.itemsize * text_bytes // BYTES_PER_TOKEN
    free = shutil.disk_usage(workdir).free
    if needed > free:
        raise CorpusError(
            f"the word ids of {corpus_name(corpus)} need about {_size(needed)} of temporary "
            f"space (4 bytes a token, twice while renumbered), but {workdir.parent} has "
            f"{_size(free)} free; choose another --tmp-dir"
        )


def _text_bytes(corpus: Corpus) -> tuple[int, bool]:
    """About how many bytes of text the corpus's files hold (compressed ones estimated), and
    whether every file could be measured (standard input and FIFOs cannot)."""
    text_bytes, all_measured = 0, True
    for path in corpus_files(corpus):
        size = file_size(path)
        if size is None:
            all_measured = False
        else:
            text_bytes += size * (COMPRESSION if is_compressed(path) else 1)
    return text_bytes, all_measured


def _size(nbytes: int) -> str:
    return f"{nbytes / 1e9:.1f} GB" if nbytes >= 1e8 else f"{nbytes / 1e6:.0f} MB"


def _scan_with_numba(corpus, workdir: Path, reading: ReadingOptions, on_tokens):
    text_bytes, measured = _text_bytes(corpus)
    return scan_corpus(
        corpus_streams(corpus),
        workdir,
        reading.threads,
        lowercase=reading.lowercase,
        max_words=int(reading.vocab_memory * 1e9 / BYTES_PER_TABLE_WORD),
        on_tokens=on_tokens,
        text_bytes=text_bytes if measured else None,
    )


def _encode_scanned(corpus, workdir: Path, reading: ReadingOptions, known, on_tokens):
    scanned = _scan_with_numba(corpus, workdir, reading, on_tokens)
    if not len(scanned.counts):
        raise CorpusError(f"{corpus_name(corpus)} contains no words (only whitespace)")
    vocab, final = choose_vocabulary(scanned.words, scanned.counts, reading, known)
    path = workdir / "ids.i32"
    length, words = scanned.write_ids(final, path)
    dropped = (scanned.words_dropped, scanned.highest_dropped)
    return vocab, EncodedCorpus(path, length, words, dropped, int(scanned.counts.sum()))


def _encode_in_python(corpus, workdir: Path, reading: ReadingOptions, known, on_tokens):
    raw_path = workdir / "raw-ids.i32"
    words, counts, raw_length = _scan(_python_pieces(corpus, reading), raw_path, on_tokens)
    if not words:
        raise CorpusError(f"{corpus_name(corpus)} contains no words (only whitespace)")
    vocab, remap = choose_vocabulary(
        lambda positions: [words[i] for i in positions], counts, reading, known
    )
    encoded = remap_file(raw_path, raw_length, remap, workdir / "ids.i32")
    encoded.tokens = int(counts.sum())
    raw_path.unlink()
    return vocab, encoded


def _python_pieces(corpus, reading: ReadingOptions):
    return read_pieces(
        corpus,
        lowercase=reading.lowercase,
        encoding_errors=reading.encoding_errors,
        tokenizer=reading.tokenizer,
        convert=reading.convert,
        workers=reading.threads,
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

        unreported = 0
        for tokens, line_ends in pieces:
            pending.extend(map(lookup, tokens))
            if line_ends:
                pending.append(SENTENCE_END)
            unreported += len(tokens)
            if on_tokens is not None and unreported >= _REPORT_TOKENS:
                on_tokens(unreported)  # progress as the text comes, not at each flush
                unreported = 0
            if len(pending) >= _FLUSH_IDS:
                flush()
        flush()
        if on_tokens is not None and unreported:
            on_tokens(unreported)
    return list(first_seen), counts, length


def read_corpus(
    corpus: Corpus,
    workdir: str | os.PathLike,
    reading: ReadingOptions,
    *,
    base: Vocabulary | None = None,
    quiet: bool = False,
) -> tuple[Vocabulary, EncodedCorpus]:
    """:func:`encode_corpus` with a progress bar and a summary line on stderr."""
    check_free_space(corpus, Path(workdir))
    with progress_bar("reading corpus", quiet=quiet) as bar:
        vocab, encoded = encode_corpus(
            corpus,
            workdir,
            base=base,
            on_tokens=bar.update,
            reading=reading,
        )
    if not quiet:
        note(
            f"vocabulary: {len(vocab):,} words (min count {reading.min_count}) covering "
            f"{encoded.words:,} tokens"
        )
    if encoded.dropped[0]:
        note(
            f"note: the distinct words outgrew --vocab-memory {reading.vocab_memory:g} GB, so "
            f"rare words were dropped from the counts {encoded.dropped[0]:,} times (each seen "
            f"at most {encoded.dropped[1]:,} times by then), as word2vec does; a larger "
            "--vocab-memory keeps every count exact"
        )
    return vocab, encoded
