"""Counting word co-occurrences in parallel within a memory budget (``wordvec cooccur``).

Example::

    >>> counts = count_cooccurrences("corpus.txt", "counts.cooc", window=10)
    >>> counts.get("like", "cats")

Counting, as Stanford GloVe's ``cooccur``: for each word and each earlier word of the same
line at distance d <= ``window``, add 1/d (1 with ``distance_weighting=False``) to (word,
earlier) and, when ``symmetric``, to (earlier, word). Lines are never crossed. Weights are kept
as exact integers (in units of 1/lcm(1..window)), so the result is the same whatever the
threads or spills. Each thread owns a range of rows; frequent pairs go to a dense block, the
rest to the thread's hash table, which doubles as it fills up to its share of ``memory``;
a full table is sorted, written to a shard in a temporary directory and emptied. Shards are
merged row block by row block into the counts file (:mod:`wordvec.cooccur.counts`). Temporary
files are removed on success, error and Ctrl-C.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from tqdm import tqdm

from wordvec.cooccur.counts import Cooccurrences
from wordvec.corpus.python_text import as_corpus
from wordvec.corpus.reading import EncodedCorpus, read_corpus
from wordvec.corpus.sources import Corpus
from wordvec.corpus.vocab import Vocabulary
from wordvec.errors import ConfigError, VocabularyError
from wordvec.formats.container import RawArray, write_container
from wordvec.options import CooccurConfig
from wordvec.runtime.memory import lazy_zeros, release
from wordvec.runtime.parallel import run_pool
from wordvec.runtime.progress import announces_compiling, progress_bar
from wordvec.runtime.scratch import scratch_folder

if TYPE_CHECKING:
    from wordvec.kernels.cooccur import DenseBlock

EXACT_WINDOW = 20
"""Up to this distance 1/d is exact in units of lcm(1..20); farther weights are rounded to
the nearest unit (relative error below 1e-8)."""
_CHUNK_IDS = 1 << 20  # ids a thread reads at a time (and how often it looks for a stop)
_BLOCK_ENTRIES = 1 << 20
_PENDING_PAIRS = 1 << 16  # pairs outside the dense block buffered before hashing (1 MB)
_LOAD_FACTOR = 0.7
_BYTES_PER_SLOT = 16 * (1 + _LOAD_FACTOR)  # key + value; the sort's copy of the entries
_MIN_SLOTS = 1024
_INITIAL_SLOTS = 1 << 20
_RANGES_PER_THREAD = 4  # row ranges are handed out as work items: more balance, more scans
_HASH_COST = 3.0  # a hash-table update costs about this many dense-block updates


def distance_weights(window: int, weighted: bool) -> tuple[np.ndarray, int]:
    """Integer weight of each distance 0..window and the unit: weight[d] / scale = 1/d."""
    if not weighted:
        return np.ones(window + 1, dtype=np.int64), 1
    scale = math.lcm(*range(1, min(window, EXACT_WINDOW) + 1))
    weights = np.array([0] + [round(scale / d) for d in range(1, window + 1)], dtype=np.int64)
    return weights, scale


def dense_layout(n_words: int, max_cells: int) -> tuple[np.ndarray, np.ndarray]:
    """Rows' starts and widths in the dense block: (r + 1)(c + 1) <= P for the largest P
    whose block has at most ``max_cells`` cells."""
    ranks = np.arange(1, n_words + 1, dtype=np.int64)

    def widths(product: int) -> np.ndarray:
        return np.minimum(n_words, product // ranks)

    low, high = 0, n_words * n_words
    while low < high:  # the largest product whose block fits
        mid = (low + high + 1) // 2
        low, high = (mid, high) if widths(mid).sum() <= max_cells else (low, mid - 1)
    width = widths(low)
    start = np.zeros(n_words, dtype=np.int64)
    np.cumsum(width[:-1], out=start[1:])
    return start, width


def _fill_limit(slots: int) -> int:
    """Entries at which a table of ``slots`` is full."""
    return max(int(slots * _LOAD_FACTOR), 1)


def _table(slots: int) -> tuple[np.ndarray, np.ndarray]:
    """An empty hash table: keys (EMPTY) and values."""
    from wordvec.kernels.cooccur import EMPTY

    return np.full(slots, EMPTY, dtype=np.int64), np.zeros(slots, dtype=np.int64)


def _grown(keys: np.ndarray, values: np.ndarray, slots: int) -> tuple[np.ndarray, np.ndarray]:
    """The same entries in a table of ``slots``."""
    from wordvec.kernels.cooccur import rehash

    new_keys, new_values = _table(slots)
    rehash(keys, values, new_keys, new_values)
    return new_keys, new_values


class _Run(NamedTuple):
    """One sorted run of hash-table entries: in memory, or a shard of two files on disk."""

    keys: np.ndarray | None
    values: np.ndarray | None
    path: Path | None
    row_offsets: np.ndarray  # entries before each row of the owner's range (length rows + 1)

    def remove(self) -> None:
        """Delete the shard's files (a run in memory has none)."""
        if self.path is not None:
            self.path.with_suffix(".keys").unlink()
            self.path.with_suffix(".values").unlink()

    def segment(self, first: int, last: int) -> tuple[np.ndarray, np.ndarray]:
        """Entries of the owner's rows ``first .. last - 1`` (relative to its range)."""
        a, b = int(self.row_offsets[first]), int(self.row_offsets[last])
        if self.path is None:
            return self.keys[a:b], self.values[a:b]
        keys = np.fromfile(self.path.with_suffix(".keys"), np.int64, b - a, offset=8 * a)
        values = np.fromfile(self.path.with_suffix(".values"), np.int64, b - a, offset=8 * a)
        return keys, values


@dataclass
class _Counter:
    """Shared state of one counting run."""

    corpus: EncodedCorpus
    n_words: int
    weights: np.ndarray
    symmetric: bool
    dense: DenseBlock
    max_slots: int
    workdir: Path
    stop: threading.Event
    progress: tqdm
    ranges: int  # how many row ranges read the corpus

    def count_rows(self, lo: int, hi: int, name: str) -> list[_Run]:
        """Count the pairs whose row is in ``[lo, hi)``; return the runs of its table.

        The table starts small and doubles while it stays within ``max_slots``; a full table
        at that size is spilled to a shard and emptied.
        """
        from wordvec.kernels.cooccur import PendingPairs, count_pairs, insert_pending

        keys, values = _table(min(_INITIAL_SLOTS, self.max_slots))
        runs: list[_Run] = []
        used = 0
        window = len(self.weights) - 1
        pending_keys = np.empty(max(_PENDING_PAIRS, 4 * window), dtype=np.int64)
        pending = PendingPairs(pending_keys, np.empty_like(pending_keys))
        for chunk in range(0, self.corpus.length, _CHUNK_IDS):
            if self.stop.is_set():
                return runs
            first = max(chunk - window, 0)
            ids = self.corpus.read(first, min(chunk + _CHUNK_IDS, self.corpus.length))
            pos = chunk - first
            while pos < len(ids):
                pos, n_pending = count_pairs(
                    ids, pos, self.weights, self.symmetric, lo, hi, self.n_words, self.dense,
                    pending,
                )  # fmt: skip
                inserted = 0
                while True:
                    inserted, used = insert_pending(
                        pending, inserted, n_pending, keys, values, used, _fill_limit(len(keys))
                    )
                    if inserted == n_pending:
                        break
                    if len(keys) < self.max_slots:
                        keys, values = _grown(keys, values, min(2 * len(keys), self.max_slots))
                    else:
                        runs.append(self._spill(keys, values, lo, hi, f"{name}-{len(runs)}"))
                        used = 0
            # every range reads the whole corpus: the bar counts corpus words
            self.progress.update((len(ids) - (chunk - first)) / self.ranges)
        runs.append(self._finish(keys, values, lo, hi))
        return runs

    def write_rows(self, lo: int, hi: int, runs: list[_Run], scale: int, name: str) -> RowsPiece:
        """Merge the dense block's rows ``lo .. hi - 1`` with the range's runs into CSR rows
        in two files, block by block."""
        row_ptr = np.zeros(hi - lo + 1, dtype=np.int64)
        piece = RowsPiece(row_ptr, self.workdir / f"{name}.cols", self.workdir / f"{name}.values")
        with open(piece.cols, "wb") as cols_file, open(piece.values, "wb") as values_file:
            for first, last in _blocks(self.dense.width[lo:hi], runs):
                cols, counts = self.rows(lo, first, last, runs, row_ptr)
                cols.tofile(cols_file)
                float_counts(counts, scale).tofile(values_file)
        return piece

    def rows(self, lo: int, first: int, last: int, runs: list[_Run], row_ptr: np.ndarray):
        """Columns and exact counts of the range's rows ``first .. last - 1`` (relative to
        ``lo``): the dense block's and the runs' entries merged; sets their ``row_ptr``."""
        from wordvec.kernels.cooccur import RowsOut, rows_of_block

        segments = [run.segment(first, last) for run in runs]
        segments = [s for s in segments if len(s[0])]
        # spilled runs overlap: merged, equal keys added up
        keys, values = segments[0] if len(segments) == 1 else sum_sorted(segments)
        bound = len(keys) + int(self.dense.width[lo + first : lo + last].sum())
        out = RowsOut(np.empty(bound, np.int32), np.empty(bound, np.int64), row_ptr)
        n = rows_of_block(lo + first, lo + last, self.n_words, self.dense, keys, values, out, lo)
        return out.cols[:n], out.values[:n]

    def _spill(self, keys, values, lo, hi, name) -> _Run:
        from wordvec.kernels.cooccur import EMPTY, compact_sorted

        n, row_offsets = compact_sorted(keys, values, self.n_words, lo, hi)
        path = self.workdir / name
        keys[:n].tofile(path.with_suffix(".keys"))
        values[:n].tofile(path.with_suffix(".values"))
        run = _Run(None, None, path, row_offsets)
        keys[:] = EMPTY
        values[:] = 0
        return run

    def _finish(self, keys, values, lo, hi) -> _Run:
        from wordvec.kernels.cooccur import compact_sorted

        n, row_offsets = compact_sorted(keys, values, self.n_words, lo, hi)
        return _Run(keys[:n], values[:n], None, row_offsets)


@announces_compiling("cooccur")
def count_cooccurrences(
    corpus: Corpus,
    output: str | os.PathLike,
    *,
    quiet: bool = False,
    tmp_dir: str | os.PathLike | None = None,
    **options,
) -> Cooccurrences:
    """Count co-occurrences in a text file (plain, .gz, .bz2) and write them to ``output``
    atomically; options are :class:`CooccurConfig`'s fields. Returns the counts, mapped."""
    try:
        config = CooccurConfig(**options).resolved()
    except TypeError as exc:
        raise ConfigError(str(exc)) from None
    corpus = as_corpus(corpus)
    with scratch_folder(tmp_dir) as workdir:
        workdir = Path(workdir)
        vocab, encoded = read_corpus(corpus, workdir, config.reading, quiet=quiet)
        settings = dataclasses.asdict(config)
        _count_to_file(
            vocab, encoded, config, config.threads, workdir, Path(output), settings, quiet
        )
    return Cooccurrences.load(output)


def _count_to_file(
    vocab: Vocabulary,
    corpus: EncodedCorpus,
    config: CooccurConfig,
    threads: int,
    workdir: Path,
    output: Path,
    settings: dict,
    quiet: bool,
) -> None:
    progress = progress_bar("counting", corpus.length, quiet=quiet)
    counter = _counter(vocab, corpus, config, threads, workdir, progress)
    dense, scale = counter.dense, distance_weights(config.window, config.distance_weighting)[1]
    ranges = row_ranges(vocab.counts, dense.width, _RANGES_PER_THREAD * threads)
    counter.ranges = len(ranges)

    def count_range(index: int) -> RowsPiece | None:
        """Count one row range, write its rows, drop its shards."""
        lo, hi = ranges[index]
        runs = counter.count_rows(lo, hi, f"shard-{index}")
        piece = None
        if not counter.stop.is_set():
            piece = counter.write_rows(lo, hi, runs, scale, f"rows-{index}")
            # these rows of the dense block are done: their memory can go
            end = int(dense.start[hi - 1] + dense.width[hi - 1])
            release(dense.counts, int(dense.start[lo]), end)
        for run in runs:
            run.remove()
        return piece

    with progress:
        pieces = run_pool(count_range, range(len(ranges)), threads, stop=counter.stop)
    write_counts(vocab, pieces, output, settings)


def _counter(vocab, corpus, config, threads: int, workdir: Path, progress) -> _Counter:
    """The counting state of a run on ``threads`` threads within ``config.memory``: the dense
    block of frequent pairs (half the budget) and each thread's share of the rest."""
    from wordvec.kernels.cooccur import DenseBlock

    budget = int(config.memory * 1e9)
    dense_start, dense_width = dense_layout(len(vocab), budget // 2 // 8)
    dense = lazy_zeros((int(dense_width.sum()),), np.int64)
    slots = max(int((budget - dense.nbytes) / threads / _BYTES_PER_SLOT), _MIN_SLOTS)
    weights, _ = distance_weights(config.window, config.distance_weighting)
    return _Counter(
        corpus, len(vocab), weights, config.symmetric, DenseBlock(dense_start, dense_width, dense),
        slots, workdir, threading.Event(), progress, 1,
    )  # fmt: skip


def count_exact(
    vocab: Vocabulary,
    corpus: EncodedCorpus,
    config: CooccurConfig,
    workdir: Path,
    lo: int,
    hi: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The pairs of an encoded corpus whose row is in ``[lo, hi)``, on one thread, as CSR
    rows with exact integer counts (in units of :func:`distance_weights`' scale): row pointers
    from 0, columns (int32) and counts (int64). Partial counts of shards add up to the counts of
    the whole, in any order (:func:`sum_parts`)."""
    counter = _counter(vocab, corpus, config, 1, workdir, progress_bar("", 0, quiet=True))
    runs = counter.count_rows(lo, hi, "exact")
    row_ptr = np.zeros(hi - lo + 1, dtype=np.int64)
    try:
        cols, counts = counter.rows(lo, 0, hi - lo, runs, row_ptr)
    finally:
        for run in runs:
            run.remove()
    return row_ptr, cols, counts


def sum_parts(
    parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """CSR parts of the same rows (from :func:`count_exact`) added up: row pointers from 0,
    columns and exact counts."""
    from wordvec.kernels.cooccur import sum_rows

    offsets = np.cumsum([0] + [len(cols) for _, cols, _ in parts])
    row_ptrs = np.stack([row_ptr + offset for (row_ptr, _, _), offset in zip(parts, offsets)])
    cols = np.concatenate([cols for _, cols, _ in parts])
    counts = np.concatenate([counts for _, _, counts in parts])
    out_row_ptr = np.zeros(row_ptrs.shape[1], dtype=np.int64)
    out_cols, out_counts = np.empty_like(cols), np.empty_like(counts)
    n = sum_rows(row_ptrs, cols, counts, out_cols, out_counts, out_row_ptr)
    return out_row_ptr, out_cols[:n], out_counts[:n]


def float_counts(counts: np.ndarray, scale: int) -> np.ndarray:
    """Exact counts in units of ``1 / scale`` as the float32 values of the counts file (one
    rounding, the same for a local and a distributed run)."""
    from wordvec.kernels.cooccur import scale_counts

    values = np.empty(len(counts), dtype=np.float32)
    scale_counts(counts, scale, values)
    return values


def sum_sorted(runs: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """Runs of sorted distinct keys and their values merged: sorted distinct keys, the values
    of equal keys added up."""
    from wordvec.kernels.cooccur import sum_runs

    keys = np.concatenate([np.zeros(0, np.int64)] + [keys for keys, _ in runs])
    values = np.concatenate([np.zeros(0, np.int64)] + [values for _, values in runs])
    lengths = np.array([len(keys) for keys, _ in runs], dtype=np.int64)
    ends = np.cumsum(lengths)
    out_keys, out_values = np.empty_like(keys), np.empty_like(values)
    n = sum_runs(keys, values, ends - lengths, ends, out_keys, out_values, 0)
    return out_keys[:n], out_values[:n]


class RowsPiece(NamedTuple):
    """The CSR rows of one row range: pointers from 0 and the files of columns and values."""

    row_ptr: np.ndarray
    cols: Path
    values: Path


def row_ranges(counts: np.ndarray, dense_width: np.ndarray, pieces: int) -> list[tuple[int, int]]:
    """Contiguous row ranges of about equal work: a row's pairs are about its count, and
    those outside the dense block (hash-table updates) cost several dense ones."""
    cumulative = np.cumsum(counts)
    inside = np.where(dense_width > 0, cumulative[np.maximum(dense_width, 1) - 1], 0)
    outside = 1.0 - inside / cumulative[-1]
    work = np.cumsum(counts * (1.0 + _HASH_COST * outside))
    cuts = np.searchsorted(work, work[-1] * np.arange(1, pieces) / pieces)
    bounds = sorted({0, *map(int, cuts), len(counts)})
    return [(lo, hi) for lo, hi in itertools.pairwise(bounds) if hi > lo]


def write_counts(vocab: Vocabulary, pieces: list[RowsPiece], output: Path, settings: dict) -> None:
    """The counts file: vocabulary, row pointers, and the pieces' columns and values (each
    piece's rows follow the previous one's)."""
    offsets = np.cumsum([0] + [int(piece.row_ptr[-1]) for piece in pieces])
    row_ptr = np.concatenate(
        [[0]] + [piece.row_ptr[1:] + offset for piece, offset in zip(pieces, offsets)]
    ).astype(np.int64)
    nnz = int(row_ptr[-1])
    if nnz == 0:
        raise VocabularyError("no two vocabulary words occur together; nothing was counted")
    arrays = {
        **vocab.to_arrays(),
        "row_ptr": row_ptr,
        "cols": RawArray(tuple(piece.cols for piece in pieces), np.dtype("<i4"), (nnz,)),
        "values": RawArray(tuple(piece.values for piece in pieces), np.dtype("<f4"), (nnz,)),
    }
    write_container(output, Cooccurrences.meta(settings), arrays)


def _blocks(dense_width: np.ndarray, runs: list[_Run]):
    """Row blocks (relative to the range) of at most about _BLOCK_ENTRIES entries each."""
    per_row = dense_width.astype(np.int64)
    for run in runs:
        per_row = per_row + np.diff(run.row_offsets)
    cumulative = np.concatenate([[0], np.cumsum(per_row)])
    first = 0
    while first < len(per_row):
        last = int(np.searchsorted(cumulative, cumulative[first] + _BLOCK_ENTRIES, "right")) - 1
        last = max(last, first + 1)
        yield first, last
        first = last
