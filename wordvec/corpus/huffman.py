"""The Huffman tree of hierarchical softmax, built from vocabulary counts as word2vec builds it.

Frequent words get short codes. The tree has V leaves (the words) and V - 1 inner nodes; inner
node ``i`` owns row ``i`` of the output weights. For each word we store the path from the root:
``points[w, k]`` is the k-th inner node on it and ``codes[w, k]`` the branch taken there (0 or
1, the bit word2vec assigns: 1 for the second-smallest of the two nodes merged).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class HuffmanCodes(NamedTuple):
    codes: np.ndarray  # int8 (V, max_length), root first
    points: np.ndarray  # int32 (V, max_length), inner-node ids along the path
    lengths: np.ndarray  # int32 (V,)


def build_huffman(counts: np.ndarray) -> HuffmanCodes:
    """Huffman codes for words whose ``counts`` are sorted in non-increasing order (V >= 2)."""
    counts = np.asarray(counts, dtype=np.int64)
    n = len(counts)
    if n < 2:
        raise ValueError("a Huffman tree needs at least two words")
    if np.any(np.diff(counts) > 0):
        raise ValueError("counts must be sorted, most frequent first")
    weight = np.concatenate([counts, np.full(n - 1, np.iinfo(np.int64).max)]).tolist()
    parent = [0] * (2 * n - 1)
    bit = [0] * (2 * n - 1)
    leaf, inner = n - 1, n  # next unmerged leaf (from the rarest) and inner node
    for merged in range(n, 2 * n - 1):
        smallest = []
        for _ in range(2):
            if leaf >= 0 and weight[leaf] < weight[inner]:
                smallest.append(leaf)
                leaf -= 1
            else:
                smallest.append(inner)
                inner += 1
        weight[merged] = weight[smallest[0]] + weight[smallest[1]]
        parent[smallest[0]] = parent[smallest[1]] = merged
        bit[smallest[1]] = 1
    root = 2 * n - 2
    paths = []
    for word in range(n):
        node, path = word, []
        while node != root:
            path.append(node)
            node = parent[node]
        paths.append(path[::-1])  # root's child first ... the leaf last
    max_length = max(len(path) for path in paths)
    codes = np.zeros((n, max_length), dtype=np.int8)
    points = np.zeros((n, max_length), dtype=np.int32)
    lengths = np.array([len(path) for path in paths], dtype=np.int32)
    for word, path in enumerate(paths):
        codes[word, : len(path)] = [bit[node] for node in path]
        points[word, : len(path)] = [parent[node] - n for node in path]
    return HuffmanCodes(codes, points, lengths)
