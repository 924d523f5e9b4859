"""Labelled text in fastText's format, and a classifier's vocabulary of words and labels (fastText's
``Dictionary``).

Each line is a text and its labels: the words that start with the label prefix (``__label__``
by default), anywhere in the line; fastText's files put them first. Every line also ends with
the word ``</s>`` (fastText's end-of-line word, which it counts and trains like any other).

A corpus is read once (:func:`~wordvec.corpus.reading.read_first_seen`, the same readers as
for word vectors) and its id stream renumbered to the ids of :meth:`LabelledVocabulary.tokens`: the
vocabulary words, then the words below --min-count (which still have character n-grams and
take part in word n-grams, as in fastText), then the labels.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from wordvec.corpus.encoded import EncodedCorpus, remap_file
from wordvec.corpus.sources import Corpus, corpus_name
from wordvec.corpus.subwords import subword_rows, token_rows, word_hashes
from wordvec.corpus.vocab import Vocabulary
from wordvec.errors import CorpusError
from wordvec.options import ReadingOptions

EOS = "</s>"
"""fastText's end-of-line word: the last word of every line (it has no character n-grams)."""


@dataclass(frozen=True)
class LabelledVocabulary:
    """A classifier's words and labels (each most frequent first) and how a line's tokens
    become input rows: word rows, then ``bucket`` hashed rows shared by character n-grams
    (``maxn`` > 0) and word n-grams (``word_ngrams`` > 1); ``bucket`` is 0 without either.
    A pruned model (fastText's ``-cutoff``, in a ``.ftz``) keeps some buckets only: ``pruned``
    lists them, sorted, over the rows they have (counted from the first bucket row); the
    others are left out of a line's rows, as fastText's ``pushHash`` leaves them."""

    words: Vocabulary  # EOS among them
    labels: Vocabulary
    prefix: str
    minn: int
    maxn: int
    bucket: int
    word_ngrams: int
    pruned: np.ndarray | None = None  # int64 (2, K): kept buckets over their rows

    def is_label(self, token: str) -> bool:
        return token.startswith(self.prefix)

    def tables(self, tokens: Sequence[str]):
        """The kernels' :class:`~wordvec.kernels.supervised.LineTables` for ``tokens`` (any
        distinct strings; the last must be EOS): a vocabulary word's rows are its own and its
        n-grams', another word's its n-grams' only, a label's none; a label outside the
        dictionary is neither word nor label, and is ignored (as fastText ignores it)."""
        from wordvec.kernels.supervised import IGNORED, WORD, LineTables

        word_index, label_index = self.words.index, self.labels.index
        n_words = len(self.words)
        labels = np.array([self.is_label(token) for token in tokens], dtype=bool)
        own = np.array([word_index.get(token, -1) for token in tokens], dtype=np.int64)
        own[labels] = -1
        bare = np.flatnonzero(labels | (np.array(tokens, dtype=object) == EOS))
        ptr, idx = token_rows(tokens, own, n_words, self.minn, self.maxn, self.bucket, bare=bare)
        ptr, idx = self._kept_rows(ptr, idx)
        label_of = np.array(
            [
                label_index.get(token, IGNORED) if label else WORD
                for token, label in zip(tokens, labels)
            ],
            dtype=np.int32,
        )
        return LineTables(
            ptr=ptr,
            idx=idx,
            hashes=word_hashes(tokens),
            label_of=label_of,
            eos=len(tokens) - 1,
            word_ngrams=self.word_ngrams,
            n_words=n_words,
            bucket=self.bucket if self.pruned is None or self.pruned.shape[1] else 0,
            pruned=self.pruned if self.pruned is not None else np.zeros((2, 0), np.int64),
        )

    def word_rows(self) -> tuple[np.ndarray, np.ndarray]:
        """Each vocabulary word's rows (its own, then its n-grams'; EOS has none), CSR."""
        n_words = len(self.words)
        eos = [self.words.index[EOS]]
        return self._kept_rows(
            *subword_rows(self.words.words, n_words, self.minn, self.maxn, self.bucket, bare=eos)
        )

    def _kept_rows(self, ptr: np.ndarray, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """CSR rows ``(ptr, idx)`` with a pruned model's bucket rows renumbered and those of
        buckets it does not keep left out (unchanged for a model that keeps every bucket)."""
        if self.pruned is None:
            return ptr, idx
        n_words = len(self.words)
        buckets, rows = self.pruned
        bucket = idx.astype(np.int64) - n_words
        renumbered, hit = idx.astype(np.int64), np.zeros(len(idx), dtype=bool)
        if len(buckets):
            at = np.minimum(np.searchsorted(buckets, bucket), len(buckets) - 1)
            hit = buckets[at] == bucket  # never for a word's own row (bucket < 0)
            renumbered = np.where(hit, n_words + rows[at], renumbered)
        keep = (bucket < 0) | hit
        owner = np.repeat(np.arange(len(ptr) - 1), np.diff(ptr))[keep]
        counts = np.bincount(owner, minlength=len(ptr) - 1)
        return np.concatenate([[0], np.cumsum(counts)]), renumbered[keep].astype(np.int32)

    def labels_arrays(self) -> dict[str, np.ndarray]:
        """The labels as a model file stores them (as a vocabulary's words and counts)."""
        arrays = self.labels.to_arrays()
        return {"labels": arrays["words"], "label_counts": arrays["counts"]}

    def tokens(self, others: Sequence[str] = ()) -> list[str]:
        """The token list of an id stream: the vocabulary, ``others`` (words outside it), the
        labels, and EOS last (:meth:`tables` finds it there)."""
        vocabulary = [word for word in self.words.words if word != EOS]
        return [*vocabulary, *others, *self.labels.words, EOS]


def read_labelled(
    corpus: Corpus,
    workdir: str | os.PathLike,
    *,
    prefix: str,
    reading: ReadingOptions,
    subwords: tuple[int, int, int],
    word_ngrams: int,
    on_tokens=None,
) -> tuple[LabelledVocabulary, list[str], EncodedCorpus]:
    """Read a labelled corpus once: its dictionary (words with ``reading.min_count`` or more
    occurrences, every label), the token list, and the corpus as token ids (a file in
    ``workdir``, SENTENCE_END after each line). ``subwords`` is ``(minn, maxn, bucket)``."""
    from wordvec.corpus.reading import is_small, read_first_seen  # the readers: only training

    words, counts, first_seen = read_first_seen(
        corpus, workdir, reading=reading, on_tokens=on_tokens,
        numba=not is_small(corpus),
    )  # fmt: skip
    is_label = np.array([word.startswith(prefix) for word in words], dtype=bool)
    if not is_label.any():
        raise CorpusError(
            f"{corpus_name(corpus)} has no labels (words starting with {prefix!r}): a "
            "classifier trains on lines of labels and text, as fastText's; --label sets the prefix"
        )
    lines = first_seen.length - first_seen.words
    text = np.flatnonzero(~is_label)
    kept = text[np.flatnonzero(counts[text] >= reading.min_count)]
    if not len(kept):  # the end-of-line word alone: one answer for every line
        raise CorpusError(
            f"{corpus_name(corpus)} has labels but no words"
            + (f" occurring --min-count {reading.min_count} times or more" if len(text) else "")
            + ": a classifier learns which words go with which labels"
        )
    # EOS is first seen before every word, so it leads the words of equal count
    candidates = [EOS, *(words[i] for i in kept)]
    candidate_counts = np.concatenate([[lines], counts[kept]]).astype(np.int64)
    order = np.argsort(-candidate_counts, kind="stable")
    vocab = Vocabulary([candidates[i] for i in order], candidate_counts[order])
    label_ids = np.flatnonzero(is_label)
    label_order = label_ids[np.argsort(-counts[label_ids], kind="stable")]
    labels = Vocabulary([words[i] for i in label_order], counts[label_order])
    minn, maxn, bucket = subwords
    dictionary = LabelledVocabulary(vocab, labels, prefix, minn, maxn, bucket, word_ngrams)
    known = vocab.index
    others = [word for word, label in zip(words, is_label) if not label and word not in known]
    tokens = dictionary.tokens(others)
    position = {token: i for i, token in enumerate(tokens)}
    remap = np.array([position[word] for word in words], dtype=np.int32)
    stream = remap_file(
        first_seen.path, first_seen.length, remap, first_seen.path.with_name("tokens.i32")
    )
    first_seen.path.unlink()
    return dictionary, tokens, stream
