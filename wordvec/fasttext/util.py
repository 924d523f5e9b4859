"""``fasttext.util``: precision and recall of predictions, nearest neighbours by hand, and a
model's dimension reduced (``import wordvec.fasttext.util`` as ``import fasttext.util``).
``download_model`` is not here: nothing is downloaded."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

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
    """The row of ``vectors`` nearest ``query`` by cosine, rows in ``ban_set`` left out."""
    if cossims is None:
        cossims = np.matmul(vectors, query, out=cossims)
    else:
        np.matmul(vectors, query, out=cossims)
    rank = len(cossims) - 1
    result_i = np.argpartition(cossims, rank)[rank]
    while result_i in ban_set:
        rank -= 1
        result_i = np.argpartition(cossims, rank)[rank]
    return result_i


def reduce_model(ft_model: _FastText, target_dim: int) -> _FastText:
    """Reduce a word vector model's input rows to ``target_dim`` by PCA (fastText's
    ``util.reduce_model``), in place; returns it."""
    matrix = ft_model.get_input_matrix()
    centred = matrix - matrix.mean(axis=0)
    _, _, components = np.linalg.svd(centred, full_matrices=False)
    ft_model.set_matrices((centred @ components[:target_dim].T).astype(np.float32))
    return ft_model
