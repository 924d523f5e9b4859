"""gensim's ``Word2Vec.score``: each sentence's log-probability under a model trained with
hierarchical softmax (Taddy, 2015, "Document Classification by Inversion of Distributed
Language Representations"), as gensim computes it: skip-gram sums, over each pair of words
within ``window`` of each other, the log-probability of the Huffman path of one given the
other's vector; CBOW, over each word, that of its path given the mean of its context's vectors.
Words outside the vocabulary are left out first.

The corpus is read by wordvec's reader into an id stream, and the pairs, paths and sums are
NumPy over that stream, in blocks: no Python loop over words.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from wordvec.corpus.encoded import ID_DTYPE
from wordvec.corpus.huffman import build_huffman
from wordvec.corpus.python_text import as_corpus
from wordvec.corpus.reading import read_first_seen
from wordvec.gensim.corpora import training_source
from wordvec.runtime.scratch import scratch_folder

_BLOCK = 1 << 14
"""Pairs (skip-gram) or words (CBOW) scored at a time."""


def score_sentences(model: Any, sentences: Iterable, total_sentences: int) -> np.ndarray:
    """The log-probability of each of the first ``total_sentences`` sentences (float32), by
    ``model``'s (a gensim-face ``Word2Vec``'s) vectors, ``syn1`` and Huffman tree."""
    if not model.hs:
        raise RuntimeError(
            "We have currently only implemented score for the hierarchical softmax scheme, so "
            "you need to have run word2vec with hs=1 and negative=0 for this to work."
        )
    tokens, sentence, n_sentences = _vocabulary_ids(model, sentences)
    n_sentences = int(min(total_sentences, n_sentences))
    wanted = sentence < n_sentences
    tokens, sentence = tokens[wanted], sentence[wanted]
    counts = np.asarray(model.wv.counts)
    order = np.argsort(-counts, kind="stable")  # the tree is built most frequent first
    tree = build_huffman(counts[order])
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    vectors = np.asarray(model.wv.vectors, dtype=np.float32)
    if model.sg:
        centre, context = _window_pairs(sentence, model.window)
        hidden, rows, words = vectors, tokens[context], tokens[centre]
        owner = sentence[centre]
    else:
        hidden = _context_means(vectors, tokens, sentence, model.window)
        rows, words, owner = np.arange(len(tokens)), tokens, sentence
    scores = np.zeros(n_sentences, dtype=np.float64)
    for start in range(0, len(words), _BLOCK):
        block = slice(start, start + _BLOCK)
        scores += _path_scores(
            hidden[rows[block]], rank[words[block]], owner[block], tree, model.syn1, n_sentences
        )
    return scores.astype(np.float32)


def _vocabulary_ids(model: Any, sentences: Iterable) -> tuple[np.ndarray, np.ndarray, int]:
    """The corpus's words that are in ``model``'s vocabulary, as its indexes; the sentence
    each belongs to (counted from 0); and the number of sentences."""
    with scratch_folder() as workdir:
        words, _, encoded = read_first_seen(
            as_corpus(training_source(sentences)), workdir, min_count=1
        )
        ids = np.fromfile(encoded.path, ID_DTYPE)
    index = model.wv.key_to_index
    to_vocab = np.array([index.get(word, -1) for word in words] + [-1], dtype=np.int64)
    ends = ids < 0
    sentence = np.cumsum(ends) - ends  # a sentence's end belongs to it
    known = ~ends & (to_vocab[ids] >= 0)
    return to_vocab[ids[known]], sentence[known], int(ends.sum())


def _window_pairs(sentence: np.ndarray, window: int) -> tuple[np.ndarray, np.ndarray]:
    """Every (centre, context) pair of positions within ``window`` of each other in one
    sentence, both ways round."""
    centres, contexts = [np.zeros(0, np.int64)], [np.zeros(0, np.int64)]
    for offset in range(1, window + 1):  # a loop over offsets, not words
        first = np.flatnonzero(sentence[:-offset] == sentence[offset:])
        centres += [first, first + offset]
        contexts += [first + offset, first]
    return np.concatenate(centres), np.concatenate(contexts)


def _context_means(
    vectors: np.ndarray, tokens: np.ndarray, sentence: np.ndarray, window: int
) -> np.ndarray:
    """Each word's context (the words within ``window`` of it in its sentence) as the mean
    of their vectors (zeros with none, as gensim's)."""
    sums = np.zeros((len(tokens), vectors.shape[1]), dtype=np.float64)
    sizes = np.zeros(len(tokens), dtype=np.int64)
    for offset in range(1, window + 1):
        first = np.flatnonzero(sentence[:-offset] == sentence[offset:])
        for centre, context in ((first, first + offset), (first + offset, first)):
            sums[centre] += vectors[tokens[context]]
            sizes[centre] += 1
    return (sums / np.maximum(sizes, 1)[:, None]).astype(np.float32)


def _path_scores(
    hidden: np.ndarray, ranks: np.ndarray, owner: np.ndarray, tree, syn1: np.ndarray,
    n_sentences: int,
) -> np.ndarray:  # fmt: skip
    """Per sentence, the sum over its items of the log-probability of the Huffman path of
    the word of tree rank ``ranks[i]`` given ``hidden[i]``: over the path's nodes, log
    sigmoid(+-h.v), + where the path takes branch 0."""
    lengths = tree.lengths[ranks]
    item = np.repeat(np.arange(len(ranks)), lengths)
    level = np.arange(len(item)) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    nodes = tree.points[ranks[item], level]
    sign = 1.0 - 2.0 * tree.codes[ranks[item], level]
    dots = np.einsum("ij,ij->i", hidden[item], syn1[nodes])
    log_probability = -np.logaddexp(0.0, -sign * dots)
    return np.bincount(owner[item], weights=log_probability, minlength=n_sentences)
