"""Counting co-occurrences on a Dask cluster (``wordvec cooccur --scheduler ADDRESS``).

What is distributed is the pass over the corpus; the counts file is written by the client, and
training on it (GloVe, PPMI-SVD) stays on one machine. The corpus is a list of shards (files,
the files of directories, or URLs), which every worker must be able to open at the same path
(a shared file system or an object store). The shards are cut into runs of consecutive ones,
a task each, a task per thread of the cluster. Two passes, each a map over the tasks and a
merge on the workers, and the corpus is read once:

1. Vocabulary: each task reads its shards into their words in first-seen order, their counts,
   and the text as first-seen ids (:func:`wordvec.corpus.reading.count_words`), which stay on the
   worker; a tree of merges adds up the counts, keeping the first shard's order first. The
   client then applies --min-count and --max-vocab once.
2. Pairs: the vocabulary goes to every worker; each task's ids are renumbered in it
   (:func:`wordvec.corpus.reading.encode_counted`, kept in the worker's memory), and a task per
   (run of shards, row range) counts their pairs with the same numba kernels as a local run,
   as exact integers (:func:`wordvec.cooccur.counting.count_exact`). One merge task per row range
   adds up its parts (:func:`wordvec.cooccur.counting.sum_parts`) as soon as they are counted; the
   client writes the ranges' rows to the one counts file, in order, while later ranges are counted.

Lines never span files, so the counts of the shards add up to those of the whole; the sums
are integers, so the file is identical to ``wordvec cooccur`` on the same files, whatever the
workers, their number or the tasks Dask reran after losing a worker (it reruns what a lost
worker held from its inputs). A worker needs ``--memory`` per thread for the tables, plus 4
bytes a token of its tasks' text between the passes and the partial counts it holds until
they are merged (Dask spills what does not fit to disk).
"""

from __future__ import annotations

import dataclasses
import itertools
import os
from pathlib import Path

import numpy as np

from wordvec.cooccur.counting import (
    RowsPiece,
    count_exact,
    distance_weights,
    float_counts,
    row_ranges,
    sum_parts,
    write_counts,
)
from wordvec.cooccur.counts import Cooccurrences
from wordvec.corpus.encoded import IdsInMemory
from wordvec.corpus.reading import CountedWords, count_words, encode_counted
from wordvec.corpus.sources import corpus_files
from wordvec.corpus.vocab import Vocabulary
from wordvec.corpus.vocab_choice import vocabulary_of
from wordvec.errors import ConfigError, WordvecError
from wordvec.options import CooccurConfig, ReadingOptions
from wordvec.runtime.parallel import Background
from wordvec.runtime.progress import progress_bar
from wordvec.runtime.scratch import scratch_folder

CONNECT_TIMEOUT = 10.0
"""Seconds to wait for the scheduler before saying it cannot be reached, unless Dask's own
setting for it is given in the environment (``DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT``)."""
_RANGES_PER_THREAD = 2  # merge tasks: enough to keep every thread busy
_MIN_RANGES = 16
"""Row ranges, at least: each range's table is smaller and stays in cache better (a task of 4
shards: 7.7 s with 4 ranges, 6.2-6.7 s with 16), and merging starts sooner."""
_TASKS_PER_THREAD = 1  # counting tasks: fewer, bigger partial counts (their pairs overlap)


class SchedulerError(WordvecError):
    """The Dask scheduler cannot be reached (or Dask is not installed)."""


def count_on_cluster(
    corpus,
    output: str | os.PathLike,
    scheduler: str,
    *,
    quiet: bool = False,
    tmp_dir: str | os.PathLike | None = None,
    **options,
) -> Cooccurrences:
    """:func:`wordvec.cooccur.counting.count_cooccurrences` with the corpus pass on the Dask cluster
    whose scheduler is at ``scheduler`` (``tcp://host:8786``); ``corpus`` is files,
    directories or URLs that every worker can read at the same path."""
    try:
        config = CooccurConfig(**options).resolved()
    except TypeError as exc:
        raise ConfigError(str(exc)) from None
    local_only = {
        "threads": "the cluster's workers and their threads count",
        "vocab_memory": "each task would prune its own words, not the corpus's",
    }
    for name, why in local_only.items():
        if options.get(name) is not None:
            raise ConfigError(f"--{name.replace('_', '-')} does not apply with --scheduler ({why})")
    shards = [str(path) for path in corpus_files(corpus)]
    if "-" in shards:
        raise ConfigError("with --scheduler the corpus must be files the workers can read")
    reading = config.reading
    client = _connect(scheduler)
    try:
        threads = sum(client.nthreads().values())
        tasks = _tasks(shards, threads)
        vocab, read = _cluster_vocabulary(client, tasks, reading, quiet)
        pieces_of = _count_pairs(client, read, vocab, config, threads, quiet)
        with scratch_folder(tmp_dir) as workdir:
            pieces = [_saved(piece, Path(workdir), index) for index, piece in pieces_of]
            settings = {**dataclasses.asdict(config), "threads": threads}  # the cluster's
            write_counts(vocab, pieces, Path(output), settings)
    finally:
        client.close()
    return Cooccurrences.load(output)


def _connect(scheduler: str):
    """A client of the scheduler at ``scheduler``. Dask's own timeout covers opening the
    connection, not the handshake after it: another kind of server on that port (a web
    server) would keep the client waiting for ever. So the whole connection, handshake
    included, runs in a thread of its own that is given up after :data:`CONNECT_TIMEOUT`."""
    try:
        from distributed import Client
    except ImportError:
        raise SchedulerError("--scheduler needs Dask: pip install 'wordvec[dask]'") from None
    deadline = _connect_timeout()
    connecting = Background(Client, scheduler, timeout=deadline, name="wordvec-dask-connect")
    if not connecting.wait(deadline + 2):  # Dask's own timeout first, when it applies
        raise SchedulerError(
            f"no Dask scheduler answered at {scheduler} within {deadline:g} s "
            "(is something else listening on that port?)"
        )
    try:
        return connecting.result()
    except (OSError, TimeoutError, ValueError) as exc:
        raise SchedulerError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None


def _connect_timeout() -> float:
    given = os.environ.get("DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT")
    if not given:
        return CONNECT_TIMEOUT
    from dask.utils import parse_timedelta

    try:
        return float(parse_timedelta(given, default="seconds"))
    except (ValueError, KeyError):
        raise ConfigError(
            f"DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT is not a duration: {given!r}"
        ) from None


def _tasks(shards: list[str], threads: int) -> list[list[str]]:
    """The shards in runs of consecutive ones, a run per task, a task per thread of the
    cluster. Tasks' partial counts overlap (a frequent pair is in every one), so fewer, bigger
    tasks ship and merge less (8 shards on 2 workers: 10.9-12.3 s as 2 tasks, 12.0-12.2 s as
    4). A lost worker's task is redone whole."""
    count = min(len(shards), _TASKS_PER_THREAD * threads)
    cuts = np.linspace(0, len(shards), count + 1).round().astype(int)
    return [shards[a:b] for a, b in itertools.pairwise(cuts)]


def _cluster_vocabulary(client, tasks: list[list[str]], reading: ReadingOptions, quiet: bool):
    """Words counted task by task, merged pairwise in shard order on the workers; returns the
    vocabulary and the tasks' futures (their ids stay on the workers for the pairs)."""
    shard_reading = dataclasses.replace(reading, read_vocab=None, save_vocab=None)
    read = [client.submit(_shard_words, task, shard_reading, pure=False) for task in tasks]
    level = [client.submit(_words_and_counts, counted) for counted in read]
    while len(level) > 1:
        pairs = [level[i : i + 2] for i in range(0, len(level), 2)]
        level = [client.submit(_merge_words, *p) if len(p) == 2 else p[0] for p in pairs]
    _wait(client, read, "vocabulary", quiet)
    words, counts = level[0].result()
    return vocabulary_of(words, counts, reading), read


def _count_pairs(client, read, vocab: Vocabulary, config, threads: int, quiet: bool):
    """The CSR rows of each row range, in order, as (index, (row_ptr, cols, values));
    empties ``read``.

    The whole graph is submitted at once: a task per (run of shards, row range), ranges in
    order, and a merge per range that runs as soon as its parts are counted (ahead of the
    counting left), so merging and sending the rows to the client overlap the counting."""
    # no dense block in this estimate: a row's pairs are about its count
    no_dense = np.zeros(len(vocab), dtype=np.int64)
    ranges = row_ranges(vocab.counts, no_dense, max(_MIN_RANGES, _RANGES_PER_THREAD * threads))
    [shipped] = client.scatter([vocab], broadcast=True)
    encoded = [client.submit(_encoded, counted, shipped) for counted in read]
    parts = [
        [client.submit(_range_pairs, ids, shipped, config, lo, hi) for ids in encoded]
        for lo, hi in ranges
    ]
    _, scale = distance_weights(config.window, config.distance_weighting)
    merged = [client.submit(_merge_pairs, row_parts, scale, priority=1) for row_parts in parts]
    read.clear()  # no futures kept here: the workers drop each result once its dependents ran
    del encoded, parts
    _wait(client, merged, "counting", quiet)
    for index, future in enumerate(merged):
        yield index, future.result()
        merged[index] = None  # the rows are written: the worker can drop them


def _wait(client, futures, label: str, quiet: bool) -> None:
    """Show the tasks finishing; raise the first task's error. Their results stay on the
    workers."""
    from distributed import as_completed

    with progress_bar(label, len(futures), quiet=quiet, unit="task", si=False) as bar:
        for future in as_completed(futures):
            if future.status == "error":
                future.result()
            bar.update(1)


def _saved(piece, workdir: Path, index: int) -> RowsPiece:
    row_ptr, cols, values = piece
    saved = RowsPiece(row_ptr, workdir / f"rows-{index}.cols", workdir / f"rows-{index}.values")
    cols.tofile(saved.cols)
    values.tofile(saved.values)
    return saved


# --- what the workers run ------------------------------------------------------------------


def _shard_words(shards: list[str], reading: ReadingOptions) -> CountedWords:
    with scratch_folder() as workdir:
        return count_words(shards, workdir, reading=dataclasses.replace(reading, threads=1))


def _words_and_counts(counted: CountedWords) -> tuple[list[str], np.ndarray]:
    return counted.words, counted.counts


def _merge_words(first, second) -> tuple[list[str], np.ndarray]:
    """Counts of two runs of text, ``first`` read before ``second``: words in first-seen
    order."""
    words, counts = list(first[0]), first[1].astype(np.int64)
    index = {word: i for i, word in enumerate(words)}
    added = []
    for word, count in zip(second[0], second[1].tolist()):
        at = index.get(word)
        if at is None:
            index[word] = len(words)
            words.append(word)
            added.append(count)
        else:
            counts[at] += count
    return words, np.concatenate([counts, np.array(added, dtype=np.int64)])


def _encoded(counted: CountedWords, vocab: Vocabulary) -> IdsInMemory:
    return encode_counted(counted, vocab)


def _range_pairs(encoded: IdsInMemory, vocab: Vocabulary, config, lo: int, hi: int):
    """One task's pairs of rows ``lo .. hi - 1``, as CSR rows with exact counts."""
    with scratch_folder() as workdir:
        return count_exact(vocab, encoded, config, Path(workdir), lo, hi)


def _merge_pairs(parts, scale: int):
    """The rows of a range from every task's part: CSR (row pointers from 0, columns, values
    as ``count / scale`` in float32, exactly as a local run writes them)."""
    row_ptr, cols, counts = sum_parts(parts)
    return row_ptr, cols, float_counts(counts, scale)
