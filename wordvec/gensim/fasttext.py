"""gensim 4's ``FastText`` and ``FastTextKeyedVectors`` over wordvec's fastText training, and
``load_facebook_model`` / ``load_facebook_vectors`` / ``save_facebook_model`` over wordvec's
``.bin`` reader and writer.

A word's vector is the mean of its own row and its character n-grams' bucket rows; a word
outside the vocabulary gets the mean of its n-grams' rows, so (as in gensim) ``word in wv`` is
True for any word while there are buckets. The n-gram hash is fastText's (wordvec's
:mod:`wordvec.corpus.subwords`), so vectors agree with Facebook's files.
"""

from __future__ import annotations

import codecs
import os
import warnings
from typing import Any

import numpy as np

from wordvec.corpus.subwords import ngram_hashes
from wordvec.corpus.vocab import Vocabulary
from wordvec.errors import ConfigError, FormatError, NotWordVectors, UndecodableText
from wordvec.formats.fasttext_bin import read_fasttext_file, write_fasttext_bin
from wordvec.formats.kept_rows import SparseRows
from wordvec.formats.sources import unpacked_file, vector_source
from wordvec.gensim.corpora import MAX_WORDS_IN_BATCH
from wordvec.gensim.keyedvectors import REAL, KeyedVectors
from wordvec.gensim.locks import check_unlocked
from wordvec.gensim.pickles import Record
from wordvec.gensim.saved import keyed_parts
from wordvec.gensim.word2vec import Word2Vec, rows_of
from wordvec.model import Model
from wordvec.training.weights import init_input_weights

__all__ = [
    "FastText",
    "FastTextKeyedVectors",
    "load_facebook_model",
    "load_facebook_vectors",
    "save_facebook_model",
]


class FastTextKeyedVectors(KeyedVectors):
    """gensim's fastText vectors: ``vectors_vocab`` (the words' own rows), ``vectors_ngrams``
    (``bucket`` rows of n-grams of ``min_n``..``max_n`` characters) and ``vectors``, each word's
    mean of its own row and its n-grams' rows."""

    def __init__(
        self, vector_size: int, min_n: int, max_n: int, bucket: int, count: int = 0,
        dtype: Any = REAL,
    ):  # fmt: skip
        super().__init__(vector_size, count, dtype)
        self.min_n, self.max_n, self.bucket = int(min_n), int(max_n), int(bucket)
        self.vectors_vocab = np.zeros((count, vector_size), dtype=dtype)
        self.vectors_ngrams = np.zeros((self.bucket, vector_size), dtype=dtype)
        self.vectors_vocab_lockf = np.ones(1, dtype=REAL)  # gensim's: every row trained
        self.vectors_ngrams_lockf = np.ones(1, dtype=REAL)
        self.compatible_hash = True  # n-grams hashed as Facebook's fastText does

    @classmethod
    def from_gensim(cls, keyed: Record, name: str) -> FastTextKeyedVectors:
        """gensim's saved fastText vectors (read as data: :mod:`wordvec.gensim.pickles`)."""
        words, vocab_rows, counts = keyed_parts(keyed, name)
        result = cls(vocab_rows.shape[1], keyed.get("min_n", default=3),
                     keyed.get("max_n", default=6), keyed.get("bucket", default=0))  # fmt: skip
        result.words, result.vectors_vocab = words, vocab_rows
        result.expandos["count"] = counts
        result.vectors_ngrams = _bucket_rows(keyed, vocab_rows.shape[1], name)
        result.adjust_vectors()
        return result

    def __contains__(self, word: str) -> bool:
        """True for any word while there are n-gram buckets (it has a vector), as gensim."""
        return self.bucket > 0 or self.has_index_for(word)

    def vector(self, word: str) -> np.ndarray:
        """A known word's vector; for another, the mean of its n-grams' rows (zeros when it
        has none), as gensim's ``get_vector``."""
        if self.has_index_for(word) or not self.bucket:
            return super().vector(word)
        hashes = ngram_hashes([word], self.min_n, self.max_n)[1]
        if not len(hashes):
            return np.zeros(self.vector_size, dtype=REAL)
        return self.vectors_ngrams[hashes % self.bucket].mean(axis=0)

    def _query_rows(self, word: str) -> list[int]:
        row = self.row_of(word)
        return [] if row is None else [row]

    def adjust_vectors(self) -> None:
        """Recompute ``vectors`` from ``vectors_vocab`` and ``vectors_ngrams``."""
        if not self.bucket or not len(self):
            self.vectors = np.array(self.vectors_vocab)
            return
        ptr, hashes = ngram_hashes(self.words, self.min_n, self.max_n)
        rows = self.vectors_ngrams[hashes % self.bucket]
        sums = np.add.reduceat(np.vstack([rows, np.zeros((1, self.vector_size))]),
                               np.minimum(ptr[:-1], len(rows)), axis=0)  # fmt: skip
        counts = np.diff(ptr)
        sums[counts == 0] = 0
        self.vectors = ((self.vectors_vocab + sums) / (1 + counts)[:, None]).astype(REAL)

    def _saved_settings(self) -> dict[str, Any]:
        """wordvec's names, so that wordvec's tools read the file as a fastText model's."""
        return {"model": "fasttext", "minn": self.min_n, "maxn": self.max_n,
                "bucket": self.bucket}  # fmt: skip

    def _saved_arrays(self) -> dict[str, np.ndarray]:
        arrays = {"word_rows": np.asarray(self.vectors_vocab)}
        if self.bucket:
            arrays["ngrams"] = np.asarray(self.vectors_ngrams)
        return arrays

    @classmethod
    def _from_saved(cls, model: Any) -> FastTextKeyedVectors:
        settings = model.settings
        keyed = cls(model.vectors.shape[1], settings.get("minn", 3), settings.get("maxn", 0),
                    settings.get("bucket", 0))  # fmt: skip
        keyed.words = list(model.vocab.words)
        keyed.expandos["count"] = np.asarray(model.vocab.counts, dtype=np.int64)
        keyed.vectors = model.vectors
        keyed.vectors_vocab = model.arrays.get("word_rows", model.vectors)
        if "ngrams" in model.arrays:
            keyed.vectors_ngrams = _writable(model.arrays["ngrams"])
        return keyed

    def add_vectors(self, keys, weights, extras=None, replace: bool = False) -> None:
        """As KeyedVectors', keeping ``vectors_vocab`` one row per key."""
        super().add_vectors(keys, weights, extras, replace)
        grown = np.zeros((len(self), self.vector_size), dtype=self.vectors.dtype)
        grown[: len(self.vectors_vocab)] = self.vectors_vocab[: len(self)]
        grown[len(self.vectors_vocab) :] = self.vectors[len(self.vectors_vocab) :]
        self.vectors_vocab = grown


class FastText(Word2Vec):
    """gensim's ``FastText``: CBOW by default over words and their character n-grams
    (``min_n=3``, ``max_n=6``, ``bucket=2000000``), with gensim's other defaults."""

    def __init__(
        self,
        sentences: Any = None,
        corpus_file: str | os.PathLike | None = None,
        sg: int = 0,
        hs: int = 0,
        vector_size: int = 100,
        alpha: float = 0.025,
        window: int = 5,
        min_count: int = 5,
        max_vocab_size: int | None = None,
        word_ngrams: int = 1,
        sample: float = 1e-3,
        seed: int = 1,
        workers: int = 3,
        min_alpha: float = 0.0001,
        negative: int = 5,
        ns_exponent: float = 0.75,
        cbow_mean: int = 1,
        hashfxn: Any = hash,
        epochs: int = 5,
        null_word: int = 0,
        min_n: int = 3,
        max_n: int = 6,
        sorted_vocab: int = 1,
        bucket: int = 2000000,
        trim_rule: Any = None,
        batch_words: int = MAX_WORDS_IN_BATCH,
        callbacks: Any = (),
        max_final_vocab: int | None = None,
        shrink_windows: bool = True,
    ):
        self.min_n, self.max_n, self.word_ngrams = int(min_n), int(max_n), int(word_ngrams)
        self.bucket = int(bucket) if max_n >= min_n and max_n > 0 else 0
        super().__init__(
            sentences, corpus_file, vector_size, alpha, window, min_count, max_vocab_size,
            sample, seed, workers, min_alpha, sg, hs, negative, ns_exponent, cbow_mean, hashfxn,
            epochs, null_word, trim_rule, sorted_vocab, batch_words, False, callbacks, None,
            max_final_vocab, shrink_windows,
        )  # fmt: skip

    @classmethod
    def load_fasttext_format(cls, model_file: str | os.PathLike, encoding: str = "utf8"):
        """gensim 3's name, deprecated in gensim 4 (and warned about, as there), for
        :func:`load_facebook_model`: scripts of that time still call it."""
        warnings.warn(
            "Call to deprecated `load_fasttext_format` (use load_facebook_vectors (to use "
            "pretrained embeddings) or load_facebook_model (to continue training with the loaded "
            "full model, more RAM) instead).", DeprecationWarning, stacklevel=2,
        )  # fmt: skip
        return load_facebook_model(model_file, encoding)

    def _check_settings(self) -> None:
        if not self.sg and self.cbow_mean != 1:
            raise ConfigError("wordvec's fastText averages its CBOW context: cbow_mean=1 only")
        super()._check_settings()

    def _options(self, epochs: int, alpha: float, min_alpha: float) -> dict[str, Any]:
        options = super()._options(epochs, alpha, min_alpha)
        arch = options.pop("model")
        options.update(model="fasttext", arch=arch, maxn=self.max_n if self.bucket else 0)
        if self.bucket:
            options.update(minn=self.min_n, bucket=self.bucket)
        return options

    _TRAINED_AS = ("fasttext",)

    @classmethod
    def _arguments_of(cls, name: str, settings: dict[str, Any]) -> dict[str, Any]:
        arguments = super()._arguments_of(name, settings)
        maxn = int(settings.get("maxn", 0))
        subwords = {"min_n": settings["minn"], "max_n": maxn, "bucket": settings["bucket"]}
        return {**arguments, **(subwords if maxn else {"bucket": 0})}

    _VECTORS_ENTRY = "syn0_vocab"

    def _layer_sizes(self, words: int, row: int) -> dict[str, int]:
        """The output layers' bytes, the n-gram rows' and gensim's allowance for each word's
        list of n-gram buckets (64 bytes, 100 a word, 4 an n-gram), as gensim reports them."""
        sizes = super()._layer_sizes(words, row)
        if self.wv.bucket:
            ngrams = len(ngram_hashes(self.wv.words, self.wv.min_n, self.wv.max_n)[1])
            sizes["syn0_ngrams"] = self.wv.bucket * row
            sizes["buckets_word"] = 64 + 100 * len(self.wv) + 4 * ngrams
        return sizes

    def _new_vectors(self) -> FastTextKeyedVectors:
        return FastTextKeyedVectors(self.vector_size, self.min_n, self.max_n, self.bucket)

    def _set_vocab(self, vocab: Vocabulary) -> None:
        super()._set_vocab(vocab)
        self.wv.vectors_vocab = np.array(self.wv.vectors)
        self.wv.vectors_ngrams = init_input_weights(self.bucket, self.vector_size, self.seed)

    def _training_keywords(self) -> dict[str, Any]:
        check_unlocked(self.wv)  # fastText's rows are words' and n-grams': every one trained
        return {}

    def _needs_fresh_start(self) -> bool:
        return True  # the first train starts from wordvec's own n-gram rows

    def _init_arrays(self, arrays: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        arrays = {**arrays, "word_rows": self.wv.vectors_vocab}
        if self.bucket:
            arrays["ngrams"] = self.wv.vectors_ngrams
        return arrays

    def _take_arrays(self, trained: Model, rows: np.ndarray) -> None:
        wv = self.wv
        before = wv.vectors_vocab if len(wv.vectors_vocab) == len(rows) else None
        wv.vectors_vocab = rows_of(trained.arrays["word_rows"], rows, before)
        if "ngrams" in trained.arrays:
            wv.vectors_ngrams = _writable(trained.arrays["ngrams"])
        wv.adjust_vectors()  # as gensim's train ends: the same sums as a loaded model's

    _GENSIM_CLASS = "FastText"

    @classmethod
    def _from_gensim(cls, found: Record, name: str) -> FastText:
        model = super()._from_gensim(found, name)
        model.wv.adjust_vectors()
        return model

    @classmethod
    def _gensim_arguments(cls, found: Record) -> dict[str, Any]:
        keyed = found.get("wv")
        return {
            **super()._gensim_arguments(found),
            "min_n": keyed.get("min_n", default=3), "max_n": keyed.get("max_n", default=6),
            "bucket": keyed.get("bucket", "trainables.bucket", default=0),
            "word_ngrams": found.get("word_ngrams", default=1),
        }  # fmt: skip

    def _gensim_arrays(self, found: Record, name: str) -> dict[str, np.ndarray]:
        return {"ngrams": _bucket_rows(found.get("wv"), self.vector_size, name)}

    def _restore(self, saved: Model) -> None:
        super()._restore(saved)
        self.wv.vectors_vocab = saved.arrays.get("word_rows", saved.vectors)
        if "ngrams" in saved.arrays:
            self.wv.vectors_ngrams = _writable(saved.arrays["ngrams"])


def _writable(ngrams):
    """A model file's bucket rows as gensim holds them, an array code may write to: a sparse
    matrix as the whole (its rows not stored: zero pages, taken only where written); a
    compressed model's codes as they are (decoded by the rows read)."""
    return np.asarray(ngrams) if isinstance(ngrams, SparseRows) else ngrams


def _bucket_rows(keyed: Record, dim: int, name: str) -> np.ndarray:
    """A saved gensim fastText model's n-gram rows, a row per bucket: gensim before 4 kept only
    the buckets its words use (``hash2index`` says which row is which bucket's). Its n-grams
    must be hashed as fastText hashes them: a file without ``compatible_hash`` (gensim before
    3.8) may hash words outside ASCII otherwise, so it is refused, as gensim 4 refuses it,
    rather than give those words other rows' vectors."""
    if keyed.get("compatible_hash") is not True:
        raise FormatError(
            f"{name} may hash its n-grams as gensim did before 3.8, not as fastText does: "
            "load and save it once with gensim 3.8 (compatible_hash=True)"
        )
    bucket = int(keyed.get("bucket", default=0))
    rows = keyed.get("vectors_ngrams")
    if not isinstance(rows, np.ndarray) or rows.ndim != 2 or rows.shape[1] != dim:
        raise FormatError(f"{name}: its n-gram rows are missing or damaged")
    if len(rows) == bucket:
        return np.asarray(rows, dtype=REAL)
    which = keyed.get("hash2index")
    if not isinstance(which, dict) or len(which) != len(rows):
        raise FormatError(f"{name}: {len(rows)} n-gram rows for {bucket} buckets")
    full = np.zeros((bucket, dim), dtype=REAL)
    buckets = np.array(list(which.keys()), dtype=np.int64)
    indices = np.array(list(which.values()), dtype=np.int64)
    if len(buckets) and not (0 <= buckets.min() <= buckets.max() < bucket
                             and 0 <= indices.min() <= indices.max() < len(rows)):  # fmt: skip
        raise FormatError(f"{name}: its n-gram rows name buckets it does not have")
    full[buckets] = rows[indices]
    return full


def load_facebook_vectors(path: str | os.PathLike, encoding: str = "utf-8") -> FastTextKeyedVectors:
    """The vectors of a fastText ``.bin`` (Facebook's, of any version, or wordvec's)."""
    return load_facebook_model(path, encoding).wv


def load_facebook_model(path: str | os.PathLike, encoding: str = "utf-8") -> FastText:
    """A fastText ``.bin`` (Facebook's, of any version, or wordvec's) as a :class:`FastText`
    model with its settings, word and n-gram rows and output layer, to query or train on;
    ``encoding``: its words' (that of the corpus it learnt from). A classifier's (supervised)
    ``.bin`` is gensim's NotImplementedError (wordvec's ``load_classifier`` reads it)."""
    try:
        # a .bin.gz is undone to a temporary file, whose rows stay mapped once it is removed
        with unpacked_file(vector_source(path)) as plain:
            found = read_fasttext_file(plain, legacy=True, encoding=codecs.lookup(encoding).name)
    except NotWordVectors as error:
        raise NotImplementedError(
            f"Supervised fastText models are not supported: {error} (wordvec.load_classifier "
            "reads it)"
        ) from None
    except UndecodableText as error:
        raise UndecodableText(
            f"{error.message}: if its words are in another encoding (that of the corpus it "
            f"learnt from), say which: load_facebook_model(path, encoding='latin-1')",
            error,
        ) from None
    settings = found.settings
    loss_hs = settings["loss"] == "hs"
    model = FastText(
        vector_size=settings["dim"], window=settings["window"], epochs=settings["epochs"],
        min_count=settings["min_count"], sample=settings["sample"], sg=settings["arch"] == "sg",
        hs=int(loss_hs), negative=settings["negative"],  # gensim's: the file's neg, any loss
        bucket=settings["bucket"], min_n=settings["minn"] or 3, max_n=settings["maxn"],
    )  # fmt: skip
    n_words = len(found.words)
    wv = model.wv
    wv.words = list(found.words)
    wv.expandos["count"] = np.asarray(found.counts, dtype=np.int64)
    wv.vectors_vocab = np.array(found.input[:n_words], dtype=REAL)
    wv.vectors_ngrams = np.array(found.input[n_words:], dtype=REAL)
    wv.adjust_vectors()
    output = np.array(found.output, dtype=REAL)
    if loss_hs and model.negative:  # the file keeps the tree's rows alone: syn1neg from zero
        output = np.concatenate([np.zeros_like(output), output[: n_words - 1]])
    model._set_output(output)
    model.corpus_total_words = int(np.sum(found.counts))
    model._trained = True
    return model


def save_facebook_model(
    model: FastText, path: str | os.PathLike, encoding: str = "utf-8",
    lr_update_rate: int = 100, word_ngrams: int = 1,
) -> None:  # fmt: skip
    """Write ``model`` as a fastText ``.bin`` that Facebook's fastText and gensim load."""
    write_fasttext_bin(model.to_wordvec(), path)
