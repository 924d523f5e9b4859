"""gensim's vocabulary steps of ``Word2Vec`` (and of ``FastText`` and ``Doc2Vec``, which build
on it): ``scan_vocab`` counts a corpus with wordvec's reader, ``prepare_vocab`` chooses its
words by ``min_count``, ``max_final_vocab`` and ``trim_rule`` and reports what it kept and
dropped, ``build_vocab`` does both; with what gensim derives from a vocabulary (``cum_table``,
the Huffman codes of ``hs=1``) and ``reset_from``.
"""

from __future__ import annotations

import logging
import os
import types
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from wordvec.corpus.encoded import ID_DTYPE
from wordvec.corpus.huffman import build_huffman
from wordvec.corpus.python_text import as_corpus
from wordvec.corpus.reading import read_first_seen
from wordvec.corpus.vocab import Vocabulary, frequency_order
from wordvec.gensim.corpora import training_source
from wordvec.runtime.scratch import scratch_folder
from wordvec.training.weights import init_input_weights

logger = logging.getLogger(__name__)

RULE_DEFAULT, RULE_DISCARD, RULE_KEEP = 0, 1, 2
"""What a ``trim_rule(word, count, min_count)`` returns, as gensim.utils names them."""

CUM_TABLE_DOMAIN = 2**31 - 1
"""The last entry of gensim's ``cum_table``."""


class VocabularySteps:
    """The vocabulary half of :class:`~wordvec.gensim.word2vec.Word2Vec`: a base class that
    reads the model's settings and sets its ``wv``, ``raw_vocab`` and corpus figures."""

    raw_vocab: dict[str, int]

    def build_vocab(
        self,
        corpus_iterable: Iterable | None = None,
        corpus_file: str | os.PathLike | None = None,
        update: bool = False,
        progress_per: int = 10000,
        keep_raw_vocab: bool = False,
        trim_rule: Callable | None = None,
        **kwargs: Any,
    ) -> None:
        """Count the corpus's words (:meth:`scan_vocab`) and choose the vocabulary
        (:meth:`prepare_vocab`); ``update=True`` adds the new words of another corpus to a
        trained model's, and their counts to its words'."""
        self.scan_vocab(corpus_iterable, corpus_file, progress_per, trim_rule=trim_rule)
        self.prepare_vocab(update=update, keep_raw_vocab=keep_raw_vocab, trim_rule=trim_rule)

    def scan_vocab(
        self,
        corpus_iterable: Iterable | None = None,
        corpus_file: str | os.PathLike | None = None,
        progress_per: int = 10000,
        workers: int | None = None,
        trim_rule: Callable | None = None,
    ) -> tuple[int, int]:
        """Count the corpus's words with wordvec's reader into ``raw_vocab`` (``{word:
        count}`` in first-seen order); with ``max_vocab_size``, pruned as gensim prunes while
        counting (:func:`counts_pruned_as_read`). Returns (words in the corpus, sentences),
        also kept as ``corpus_total_words`` and ``corpus_count``."""
        check_corpus(corpus_iterable, corpus_file)
        source = training_source(corpus_file if corpus_file is not None else corpus_iterable)
        if isinstance(source, (list, tuple)) and not source:  # gensim's: an empty vocabulary
            words, counts, sentences = [], np.zeros(0, dtype=np.int64), 0
            pruned = counts
        else:
            with scratch_folder() as workdir:
                words, counts, ids = read_first_seen(
                    as_corpus(source), workdir, threads=max(workers or self.workers, 1),
                    min_count=1,
                )  # fmt: skip
                sentences, pruned = ids.length - ids.words, counts
                if self.max_vocab_size:
                    stream = np.fromfile(ids.path, ID_DTYPE)
                    pruned = counts_pruned_as_read(stream, len(words), self.max_vocab_size)
        kept = np.flatnonzero(pruned)
        self.raw_vocab = dict(zip([words[i] for i in kept], pruned[kept].tolist()))
        self.corpus_count, self.corpus_total_words = int(sentences), int(counts.sum())
        logger.info("collected %i word types from a corpus of %i raw words and %i sentences",
                    len(self.raw_vocab), self.corpus_total_words, self.corpus_count)  # fmt: skip
        return self.corpus_total_words, self.corpus_count

    def build_vocab_from_freq(
        self,
        word_freq: dict[str, int],
        keep_raw_vocab: bool = False,
        corpus_count: int | None = None,
        trim_rule: Callable | None = None,
        update: bool = False,
    ) -> None:
        """Choose the vocabulary from ``{word: count}`` (gensim's meaning)."""
        self.raw_vocab = dict(word_freq)
        self.corpus_count = int(corpus_count or 0)
        self.corpus_total_words = int(sum(word_freq.values()))
        self.prepare_vocab(update=update, keep_raw_vocab=keep_raw_vocab, trim_rule=trim_rule)

    def prepare_vocab(
        self,
        update: bool = False,
        keep_raw_vocab: bool = False,
        trim_rule: Callable | None = None,
        min_count: int | None = None,
        sample: float | None = None,
        dry_run: bool = False,
    ) -> dict[str, int]:
        """Choose the words of ``raw_vocab`` by ``min_count`` (raised, as gensim's
        ``effective_min_count``, until ``max_final_vocab`` words at most are left) and
        ``trim_rule``; most frequent first. Returns gensim's report: ``drop_unique`` (words
        dropped), ``retain_total`` (occurrences of the words kept), ``num_retained_words``,
        ``downsample_unique`` and ``downsample_total`` (words ``sample`` thins, and the
        occurrences expected to be left of the words kept). ``dry_run``: only the report."""
        if update and not len(self.wv):
            raise RuntimeError(
                "You cannot do an online vocabulary-update of a model which has no prior "
                "vocabulary. First build the vocabulary of your model with a corpus before "
                "doing an online update."
            )
        min_count = self.min_count if min_count is None else min_count
        sample = self.sample if sample is None else sample
        words = list(self.raw_vocab)
        counts = np.fromiter(self.raw_vocab.values(), dtype=np.int64, count=len(words))
        self.effective_min_count = _effective_min_count(counts, min_count, self.max_final_vocab)
        kept = _kept(words, counts, self.effective_min_count, trim_rule)
        if self.sorted_vocab and not update:  # new words of an update: in the order seen
            kept = frequency_order(kept, counts[kept])
        report = {
            "drop_unique": len(words) - len(kept),
            "retain_total": int(counts[kept].sum()),
            "num_retained_words": len(kept),
            **_downsampling(counts[kept], sample),
        }
        if dry_run:
            return report
        logger.info("effective_min_count=%i retains %i unique words (%.2f%% of original %i, "
                    "drops %i), %i of %i word occurrences", self.effective_min_count, len(kept),
                    100 * len(kept) / max(len(words), 1), len(words), report["drop_unique"],
                    report["retain_total"], int(counts.sum()))  # fmt: skip
        self.min_count, self.sample = min_count, sample
        if update:
            self._grow_vocab([words[i] for i in kept], counts[kept])
        else:
            self._set_vocab(Vocabulary([words[i] for i in kept], counts[kept]))
        if not keep_raw_vocab:
            self.raw_vocab = {}
        return report

    def reset_from(self, other_model: Any) -> None:
        """Take ``other_model``'s vocabulary (its words, counts and corpus figures) and start
        this model's weights afresh over it, as gensim's ``reset_from``."""
        other = other_model.wv
        counts = other.counts if other.counts is not None else np.ones(len(other), np.int64)
        self.corpus_count = other_model.corpus_count
        self.corpus_total_words = other_model.corpus_total_words
        self._set_vocab(Vocabulary(list(other.index_to_key), np.asarray(counts)))

    def _set_vocab(self, vocab: Vocabulary) -> None:
        """A fresh vocabulary, its vectors at random and its output layer at zero."""
        self.wv = self._new_vectors()
        vectors = init_input_weights(len(vocab), self.vector_size, self.seed)
        self.wv.add_vectors(vocab.words, vectors, extras={"count": vocab.counts})
        self._set_output(np.zeros((len(vocab), self.layer1_size), dtype=np.float32))
        self._set_codes()
        self._trained = False

    def _grow_vocab(self, words: list[str], counts: np.ndarray) -> None:
        """gensim's update: known words' counts grow, new words are added after them."""
        known = np.array([self.wv.get_index(w, -1) for w in words], dtype=np.int64)
        old = known >= 0
        self.wv.expandos["count"][known[old]] += counts[old]
        new = [w for w, seen in zip(words, old) if not seen]
        start = len(self.wv)
        vectors = init_input_weights(len(new), self.vector_size, (self.seed, start))
        self.wv.add_vectors(new, vectors, extras={"count": counts[~old]})
        if self.hs:  # the Huffman tree is built again, from zero, by the next train
            self.syn1 = np.zeros((len(self.wv), self.layer1_size), dtype=np.float32)
        if self.negative:
            grown = np.zeros((len(self.wv), self.layer1_size), dtype=np.float32)
            grown[:start] = self.syn1neg
            self.syn1neg = grown
        self._set_codes()

    def _set_codes(self) -> None:
        """With ``hs=1``, each word's Huffman ``code`` (its branches, root first) and
        ``point`` (the inner nodes it passes) as per-word attributes, as gensim keeps them:
        made from the counts as they are now when first asked for (:class:`HuffmanAttributes`)."""
        if self.hs:
            self.wv.expandos = HuffmanAttributes(self.wv.expandos)

    @property
    def cum_table(self) -> np.ndarray:
        """gensim's table of the noise distribution: the running sum of each word's count to
        the power ``ns_exponent``, scaled to end at 2**31 - 1 (uint32)."""
        counts = self.wv.counts if self.wv.counts is not None else np.ones(len(self.wv))
        weights = np.asarray(counts, dtype=np.float64) ** self.ns_exponent
        if not len(weights):
            return np.zeros(0, dtype=np.uint32)
        running = np.cumsum(weights) / weights.sum() * CUM_TABLE_DOMAIN
        return np.round(running).astype(np.uint32)


class HuffmanAttributes(dict):
    """A KeyedVectors' per-word attributes (``expandos``) whose ``code`` and ``point``, of
    the Huffman tree of hierarchical softmax, are made from its ``count`` when first asked
    for: a large vocabulary's tree takes seconds, and training builds its own."""

    def __init__(self, attributes: dict[str, np.ndarray]):
        super().__init__({k: v for k, v in attributes.items() if k not in ("code", "point")})

    def __missing__(self, attr: str) -> np.ndarray:
        counts = self.get("count")
        if attr not in ("code", "point") or counts is None or len(counts) < 2:
            raise KeyError(attr)
        order = np.argsort(-counts, kind="stable")  # the tree wants the most frequent first
        tree = build_huffman(counts[order])
        codes, points = np.empty(len(order), dtype=object), np.empty(len(order), dtype=object)
        for rank, row in enumerate(order.tolist()):  # the vocabulary's, as the tree's own
            codes[row] = tree.codes[rank, : tree.lengths[rank]].astype(np.uint8)
            points[row] = tree.points[rank, : tree.lengths[rank]].astype(np.uint32)
        self["code"], self["point"] = codes, points
        return self[attr]


_FIRST_BLOCK = 1 << 12
"""Tokens searched at first for the next prune (doubling while none is found)."""


def counts_pruned_as_read(ids: np.ndarray, n_words: int, max_vocab_size: int) -> np.ndarray:
    """gensim's counts of a corpus read under ``max_vocab_size``: after each sentence that
    leaves more distinct words counted than that, the words counted fewer than ``min_reduce``
    times (1 at first) are forgotten (counted again from 0 if seen again) and ``min_reduce``
    grows by one. ``ids``: the corpus's first-seen ids, a negative id after each sentence.
    Each prune is found with NumPy (the first sentence end where the words counted and the new
    ones exceed the limit) in blocks that double while none is found: no loop over words."""
    counts = np.zeros(n_words, dtype=np.int64)
    live = np.zeros(0, dtype=np.int64)  # the ids counted now
    ends = np.flatnonzero(ids < 0)
    min_reduce, pos, block = 1, 0, _FIRST_BLOCK
    while pos < len(ids):
        last_end = ends[max(np.searchsorted(ends, pos + block) - 1, 0)]
        stop = max(last_end, ends[np.searchsorted(ends, pos)]) + 1  # whole sentences
        part = ids[pos:stop]
        at = np.flatnonzero(part >= 0)
        found, first = np.unique(part[at], return_index=True)
        is_new = counts[found] == 0
        new_at = np.sort(at[first[is_new]])
        part_ends = np.flatnonzero(part < 0)
        over = np.flatnonzero(len(live) + np.searchsorted(new_at, part_ends) > max_vocab_size)
        cut = part_ends[over[0]] + 1 if len(over) else len(part)
        seen, times = np.unique(part[:cut][part[:cut] >= 0], return_counts=True)
        live = np.concatenate([live, seen[counts[seen] == 0]])
        counts[seen] += times
        pos += cut
        if not len(over):
            block *= 2
            continue
        kept = counts[live] >= min_reduce
        counts[live[~kept]] = 0
        live, min_reduce, block = live[kept], min_reduce + 1, _FIRST_BLOCK
    return counts


def _effective_min_count(counts: np.ndarray, min_count: int, max_final_vocab: int | None) -> int:
    """``min_count``, raised (as gensim raises it) to one more than the count of the word
    ranked ``max_final_vocab`` (from 0, most frequent first) when there are more words."""
    if max_final_vocab is None or len(counts) <= max_final_vocab:
        return int(min_count)
    ranked = np.sort(counts)[::-1]
    return max(int(ranked[max_final_vocab]) + 1, int(min_count))


def _kept(words: list[str], counts: np.ndarray, min_count: int, trim_rule) -> np.ndarray:
    """The positions of the words kept, in first-seen order: by ``min_count`` (a word that
    does not occur is never kept), or by ``trim_rule(word, count, min_count)`` where it
    decides."""
    keep = counts >= max(min_count, 1)
    if trim_rule is not None:
        for i, (word, count) in enumerate(zip(words, counts.tolist())):  # the vocabulary's
            rule = trim_rule(word, count, min_count)
            if rule != RULE_DEFAULT:
                keep[i] = rule == RULE_KEEP
    return np.flatnonzero(keep)


def _downsampling(counts: np.ndarray, sample: float) -> dict[str, int]:
    """How many of the kept words ``sample`` thins (``downsample_unique``) and how many of
    their occurrences are expected to be left of all (``downsample_total``), by word2vec's
    keep probability (sqrt(c / t) + 1) * t / c, t = ``sample`` of all occurrences."""
    total = counts.sum()
    if not len(counts) or not total:
        return {"downsample_unique": 0, "downsample_total": 0}
    if not sample:
        threshold = total
    elif sample < 1:
        threshold = sample * total
    else:  # gensim's: a number of occurrences rather than a share
        threshold = int(sample * (3 + np.sqrt(5)) / 2)
    keep = np.minimum((np.sqrt(counts / threshold) + 1) * (threshold / counts), 1.0)
    return {
        "downsample_unique": int(np.count_nonzero(keep < 1)),
        "downsample_total": int((keep * counts).sum()),
    }


def check_corpus(corpus_iterable: Any, corpus_file: Any) -> None:
    """gensim's checks of the corpus arguments, with its errors."""
    if corpus_file is None and corpus_iterable is None:
        raise TypeError("Either one of corpus_file or corpus_iterable value must be provided")
    if corpus_file is not None and corpus_iterable is not None:
        raise TypeError(
            "Both corpus_file and corpus_iterable must not be provided at the same time"
        )
    if corpus_iterable is None and not isinstance(corpus_file, (str, os.PathLike)):
        raise TypeError(
            f"Parameter corpus_file must be a valid path to a file, got {corpus_file!r} instead"
        )
    if corpus_iterable is not None and not isinstance(corpus_iterable, Iterable):
        raise TypeError(
            "The corpus_iterable must be an iterable of lists of strings, got "
            f"{corpus_iterable!r} instead"
        )
    if isinstance(corpus_iterable, types.GeneratorType):
        raise TypeError(
            "Using a generator as corpus_iterable can't support passes>1. Please use a "
            "restartable iterable such as a list or an object with __iter__ method instead."
        )
