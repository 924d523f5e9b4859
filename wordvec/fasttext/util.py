"""``fasttext.util``: precision and recall of predictions, nearest neighbours by hand, and a
model's dimension reduced (``import wordvec.fasttext.util`` as ``import fasttext.util``).
``download_model`` says where to fetch a model: wordvec downloads nothing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn

import numpy as np

if TYPE_CHECKING:
    from wordvec.fasttext import _FastText


def test(predictions: Sequence, labels: Sequence, k: int = 1) -> tuple[float, float]:
    """(precision, recall) of ``predictions`` against ``labels``, as fastText's test."""
    precision, examples, gold = 0.0, 0, 0
    for predicted, truth in zip(predictions, labels):
        precision += sum(1 for p in predicted if p in truth)
        examples += 1
        gold += len(truth)
    return precision / (k * examples), precision / gold


def find_nearest_neighbor(query, vectors, ban_set, cossims=None):
    """The row of ``vectors`` whose dot product with ``query`` is largest (the cosine, for
    rows and query of length 1), the rows in ``ban_set`` left out; ``cossims``: an array
    of ``len(vectors)`` for the scores, as fastText's argument."""
    scores = np.matmul(vectors, query, out=cossims)
    allowed = np.ones(len(scores), dtype=bool)
    allowed[list(ban_set)] = False
    return np.flatnonzero(allowed)[np.argmax(scores[allowed])]


PCA_ROWS = 100_000
"""The input rows whose principal components :func:`reduce_model` takes (fastText's)."""


def reduce_model(ft_model: _FastText, target_dim: int) -> _FastText:
    """Reduce a word vector model to ``target_dim`` dimensions in place, as fastText's
    ``util.reduce_model``: both matrices are projected on the ``target_dim`` principal
    components of the first :data:`PCA_ROWS` input rows (the rows as they are, so that the
    scores of input against output rows keep what those components hold); returns it. The
    components are those of the largest variance (fastText takes NumPy's ``eig`` order)."""
    matrix = ft_model.get_input_matrix()
    sample = matrix[:PCA_ROWS].astype(np.float64)
    sample -= sample.mean(axis=0)
    _, vectors = np.linalg.eigh(sample.T @ sample)  # ascending eigenvalues
    components = vectors[:, ::-1][:, :target_dim].astype(np.float32)
    ft_model.set_matrices(matrix @ components, ft_model.get_output_matrix() @ components)
    return ft_model


def download_model(
    lang_id: str, if_exists: str = "strict", dimension: int | None = None
) -> NoReturn:
    """fastText's download of ``cc.{lang_id}.300.bin``: wordvec downloads nothing, so this
    says where the file is; :func:`wordvec.fasttext.load_model` then reads it."""
    name = f"cc.{lang_id}.300.bin"
    url = f"https://dl.fbaipublicfiles.com/fasttext/vectors-crawl/{name}.gz"
    raise ValueError(f"wordvec downloads nothing: fetch {name}.gz from {url}, gunzip it and "
                     f"load_model({name!r}) (util.reduce_model for fewer dimensions)")  # fmt: skip
