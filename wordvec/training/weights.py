"""What every trainer's weights share: their dtype, how they start (at random, from
``--init-vectors``), and the NaN check."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np

from wordvec.runtime.memory import lazy_zeros, line_rows
from wordvec.runtime.progress import note

if TYPE_CHECKING:
    from wordvec.corpus.vocab import Vocabulary
    from wordvec.training.config import TrainConfig

FLOAT = np.float32
_HALF_WIDTH = 1.0  # fastText initialises uniform in [-1/dim, 1/dim)
_INIT_CHUNK = 1 << 16


def init_input_weights(
    rows: int,
    dim: int,
    seed: int | tuple[int, ...],
    half_width: float = 0.5,
    out: np.ndarray | None = None,
) -> np.ndarray:
    """Uniform in [-half_width/dim, half_width/dim): word2vec's and GloVe's 0.5, fastText's 1;
    in ``out`` (``rows`` x ``dim``, C order) if given, with the same values.

    Computed in place, without temporaries the size of the matrix.
    """
    return _uniform(np.random.default_rng(seed), rows, dim, half_width, out)


def init_line_rows(
    rows: int, dim: int, seed: int | tuple[int, ...], half_width: float = 0.5
) -> np.ndarray:
    """:func:`init_input_weights`'s values, each row in cache lines of its own
    (:func:`~wordvec.runtime.memory.line_rows`: the columns past ``dim`` zero), drawn a block
    of rows at a time from the same generator."""
    weights = line_rows(rows, dim, FLOAT)
    generator = np.random.default_rng(seed)
    block = np.empty((min(_INIT_CHUNK, rows), dim), dtype=FLOAT)
    for start in range(0, rows, len(block)):
        count = min(len(block), rows - start)
        weights[start : start + count, :dim] = _uniform(generator, count, dim, half_width,
                                                        block[:count])  # fmt: skip
    return weights


def _uniform(generator: np.random.Generator, rows: int, dim: int, half_width: float,
             out: np.ndarray | None) -> np.ndarray:  # fmt: skip
    """The next ``rows`` x ``dim`` values of ``generator``, uniform in +-half_width/dim."""
    weights = generator.random((rows, dim), dtype=FLOAT, out=out)
    weights -= FLOAT(0.5)
    weights *= FLOAT(2 * half_width / dim)
    return weights


def all_finite(*arrays: np.ndarray) -> bool:
    """Whether no entry of the arrays (vectors or matrices) is NaN or infinite."""
    from wordvec.kernels.finite import all_finite as matrix_finite

    return all(matrix_finite(array.reshape(len(array), -1)) for array in arrays)


def check_init_dim(path: str, found: int | None, dim: int) -> None:
    """Raise :class:`ConfigError` unless the --init-vectors file ``path`` has ``found``
    dimensions (None: read them from its head) equal to the run's ``dim``: called before the
    corpus is read, as outputs are checked, and again when the vectors are copied."""
    from wordvec.errors import ConfigError
    from wordvec.formats import vectors_dim

    found = vectors_dim(path) if found is None else found
    if found != dim:
        raise ConfigError(f"--init-vectors {path} has {found} dimensions; train with --dim {found}")


def set_known_vectors(w_in: np.ndarray, words: list[str], path: str) -> int:
    """Overwrite the rows of ``w_in`` (one per word of ``words``, first) of the words found in
    the vector file ``path``; return how many were. Its dimensions must be ``w_in``'s."""
    from wordvec.formats import load_vectors

    given = load_vectors(path)
    check_init_dim(path, given.dim, w_in.shape[1])
    rows = [(row, given.index[word]) for row, word in enumerate(words) if word in given.index]
    if rows:
        ours, theirs = (np.array(side) for side in zip(*rows))
        w_in[ours] = np.asarray(given.vectors, dtype=FLOAT)[theirs]
    return len(rows)


def init_used_rows(n_rows: int, dim: int, used: np.ndarray, seed: int) -> np.ndarray:
    """The input matrix: the rows training uses uniform in [-1/dim, 1/dim), as fastText's;
    the rest zero and never touched, so the memory of unused buckets is never allocated.

    Unused rows matter only to unseen words whose n-grams no vocabulary word has; fastText
    0.9.2 initialises only one tenth of its matrix per thread and leaves the rest as allocated.
    """
    weights = lazy_zeros((n_rows, dim), FLOAT)
    for start, stop, values in initial_rows(len(used), dim, seed):
        weights[used[start:stop]] = values
    return weights


def initial_rows(n_used: int, dim: int, seed: int) -> Iterator[tuple[int, int, np.ndarray]]:
    """The initial values of the ``n_used`` rows a model trains, ``(start, stop, values)`` a
    chunk at a time: the same, placed in the whole matrix or packed
    (:class:`wordvec.training.fasttext.PackedRows`). ``values`` is one buffer, overwritten by
    the next chunk: a new 26 MB array for each chunk was in fresh huge pages (numpy asks for
    them), which cost 0.1-0.3 s of system time each on a VM whose host takes freed memory back.
    """
    buffer = lazy_zeros((min(_INIT_CHUNK, n_used), dim), FLOAT)
    for chunk, start in enumerate(range(0, n_used, _INIT_CHUNK)):
        stop = min(start + _INIT_CHUNK, n_used)
        values = buffer[: stop - start]
        yield start, stop, init_input_weights(stop - start, dim, (seed, chunk), _HALF_WIDTH, values)


def start_from_vectors(
    config: TrainConfig, vocab: Vocabulary, w_in: np.ndarray, *, quiet: bool
) -> None:
    """--init-vectors: the words' rows of ``w_in`` (its first rows) from the file."""
    if config.init_vectors is None:
        return
    found = set_known_vectors(w_in, vocab.words, config.init_vectors)
    if not quiet:
        note(
            f"--init-vectors: {found:,} of {len(vocab):,} words start from "
            f"{config.init_vectors}, the others at random"
        )
