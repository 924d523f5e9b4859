"""What every trainer's weights share: their dtype, how they start, and the NaN check."""

from __future__ import annotations

import numpy as np

FLOAT = np.float32


def init_input_weights(
    rows: int, dim: int, seed: int | tuple[int, ...], half_width: float = 0.5
) -> np.ndarray:
    """Uniform in [-half_width/dim, half_width/dim): word2vec's and GloVe's 0.5, fastText's 1.

    Computed in place, without temporaries the size of the matrix.
    """
    weights = np.random.default_rng(seed).random((rows, dim), dtype=FLOAT)
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
