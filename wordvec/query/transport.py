"""The word mover's distance between two documents (Kusner et al. 2015; gensim's
``wmdistance``): the least total distance that moving one document's words onto the
other's takes, each document's words weighted by their share of its words, a word's
distance to another the Euclidean distance of their vectors.

The transport is solved exactly (:func:`wordvec.kernels.transport.min_cost_transport`),
with no optional package: gensim's needs POT. The shares are counts over lengths, so they
are scaled to whole units (document 1's counts times document 2's length, and the other way
round: both total the product of the lengths) and the cost divided back.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from wordvec.query.vectors import Vectors


def word_movers_distance(
    vectors: Vectors, document1: Sequence[str], document2: Sequence[str], norm: bool = True
) -> float:
    """The word mover's distance between two lists of words, as gensim's ``wmdistance``: words
    without a vector are left out; ``inf`` if a document has none left (or every distance
    between their words is 0); ``0.0`` if both are the same one word; ``norm``: the words'
    vectors scaled to length 1 first."""
    counts = [Counter(word for word in document if word in vectors)
              for document in (document1, document2)]  # fmt: skip
    if not counts[0] or not counts[1]:
        return float("inf")
    if len(counts[0].keys() | counts[1].keys()) == 1:
        return 0.0
    rows = [np.array([vectors.get_vector(w, norm=norm) for w in c], dtype=np.float64)
            for c in counts]  # fmt: skip
    cost = np.array([np.sqrt(((rows[1] - row) ** 2).sum(axis=1)) for row in rows[0]])  # exact 0s
    if abs(cost.sum()) < 1e-8:  # gensim's answer, where POT's solver would not end
        return float("inf")
    lengths = [sum(c.values()) for c in counts]
    supply = np.array(list(counts[0].values()), dtype=np.int64) * lengths[1]
    demand = np.array(list(counts[1].values()), dtype=np.int64) * lengths[0]
    from wordvec.kernels.transport import min_cost_transport

    return float(min_cost_transport(supply, demand, cost) / (lengths[0] * lengths[1]))
