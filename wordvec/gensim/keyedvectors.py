"""gensim 4's ``KeyedVectors`` over wordvec's :class:`~wordvec.query.vectors.Vectors`.

The queries are wordvec's (``most_similar``, ``doesnt_match``, ...); this class adds gensim's
mutable side (``add_vectors``, ``set_vecattr``, attributes by key), its names and its file
calls. Files are wordvec's: ``save`` writes a wordvec model file, never a pickle, and
``load_word2vec_format`` / ``save_word2vec_format`` are wordvec's word2vec readers and writers.
"""

from __future__ import annotations

import codecs
import logging
import os
import warnings
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from wordvec.corpus.vocab import Vocabulary
from wordvec.formats import check_words, load_vectors, save_vectors
from wordvec.formats.textvec import EXACT_DIGITS, read_text, write_text
from wordvec.formats.wordvec_model import SavedModel, read_model, write_model
from wordvec.gensim.evaluation import word_analogies, word_pairs
from wordvec.gensim.merging import intersect_word2vec_format
from wordvec.gensim.pickles import Record, is_pickle
from wordvec.gensim.saved import keyed_parts, read_saved
from wordvec.query.vectors import Vectors

REAL = np.float32
"""gensim's dtype of vectors."""


logger = logging.getLogger(__name__)


def pseudorandom_weak_vector(size: int, seed_string: str | None = None, hashfxn=hash) -> np.ndarray:
    """A small random vector (uniform in [-1/size, 1/size)), as gensim makes for new keys:
    seeded by ``seed_string`` when given."""
    seed = (hashfxn(seed_string) & 0xFFFFFFFF) if seed_string is not None else None
    return ((np.random.default_rng(seed).random(size) - 0.5) * 2 / size).astype(REAL)


def load_arrays(path: str | os.PathLike, mmap: str | None) -> SavedModel:
    """A wordvec model file, as gensim's ``load(path, mmap)`` gives it: arrays in memory and
    writable by default, memory-mapped read-only with ``mmap='r'``."""
    model = read_model(path, mmap=mmap is not None)
    if mmap is not None:
        return model
    arrays = {  # a compressed model's bucket rows stay codes (CompressedRows), decoded by row
        name: np.array(array) if isinstance(array, np.ndarray) else array
        for name, array in model.arrays.items()
    }
    return model._replace(vectors=np.array(model.vectors), arrays=arrays)


class KeyedVectors(Vectors):
    """gensim's ``KeyedVectors(vector_size, count=0, dtype=REAL)``: keys, a matrix of their
    vectors, per-key attributes (``count``), and similarity queries; no training state.

    Differs from gensim in files only: ``save`` writes wordvec's model format (no pickle), and
    ``load`` reads it; gensim's pickles get an error saying how to convert them.
    """

    def __init__(
        self, vector_size: int, count: int = 0, dtype: Any = REAL, mapfile_path: str | None = None
    ):
        super().__init__([], np.zeros((0, vector_size), dtype=dtype))
        self.vectors = np.zeros((count, vector_size), dtype=dtype)
        self.words = [None] * count
        self.expandos: dict[str, np.ndarray] = {}
        self.mapfile_path = mapfile_path
        self.vectors_lockf = np.ones(1, dtype=REAL)  # gensim's: every row trained

    @classmethod
    def of(cls, vectors: Vectors) -> KeyedVectors:
        """``vectors`` (any of wordvec's) as KeyedVectors sharing its arrays."""
        keyed = cls(vectors.dim, dtype=vectors.vectors.dtype)
        keyed.words, keyed.vectors = list(vectors.words), vectors.vectors
        if vectors.counts is not None:
            keyed.expandos["count"] = np.asarray(vectors.counts, dtype=np.int64)
        return keyed

    def __str__(self) -> str:
        """gensim's summary: ``KeyedVectors<vector_size=100, 12353 keys>``."""
        return f"{type(self).__name__}<vector_size={self.vector_size}, {len(self)} keys>"

    def wmdistance(self, document1: Sequence[str], document2: Sequence[str],
                   norm: bool = True) -> float:  # fmt: skip
        """The word mover's distance (wordvec's exact solver), logged as gensim logs: the
        words without a vector left out, a document left with none."""
        unknown = [sum(word not in self for word in doc) for doc in (document1, document2)]
        if any(unknown):
            logger.info("Removed %d and %d OOV words from document 1 and 2 (respectively).",
                        *unknown)  # fmt: skip
        if unknown[0] == len(document1) or unknown[1] == len(document2):
            logger.warning(
                "At least one of the documents had no words that were in the vocabulary."
            )
        return super().wmdistance(document1, document2, norm)

    def n_similarity(self, ws1: Iterable[str], ws2: Iterable[str]) -> np.float32:
        """Cosine between the means of two sets of words' vectors, a NumPy float32 as gensim's."""
        return np.float32(super().n_similarity(ws1, ws2))

    def vector(self, word: str) -> np.ndarray:
        """The vector of ``word``, read-only as gensim's (a write through it would leave the
        cached norms stale); write to ``vectors`` instead."""
        row = super().vector(word).view()
        row.flags.writeable = False
        return row

    # -- the arrays, whose cached derivatives go when they change --------------------------

    @property
    def vectors(self) -> np.ndarray:
        return self._vectors

    @vectors.setter
    def vectors(self, matrix: np.ndarray) -> None:
        self._vectors = matrix
        self.__dict__.pop("norms", None)

    @property
    def words(self) -> list:
        return self._words

    @words.setter
    def words(self, keys: list) -> None:
        self._words = keys
        self.__dict__.pop("index", None)
        self._scans = 0

    index_to_key = words

    @property
    def key_to_index(self) -> dict:
        return self.index

    @key_to_index.setter
    def key_to_index(self, mapping: dict) -> None:
        self.__dict__["index"] = mapping

    @property
    def counts(self) -> np.ndarray | None:
        return self.__dict__.get("expandos", {}).get("count")

    @counts.setter
    def counts(self, counts: np.ndarray | None) -> None:
        if counts is not None:
            self.__dict__.setdefault("expandos", {})["count"] = np.asarray(counts, np.int64)

    @property
    def vector_size(self) -> int:
        return self.vectors.shape[1]

    def __len__(self) -> int:
        return len(self.words)

    def __setitem__(self, keys: str | Sequence[str], weights: np.ndarray) -> None:
        """Set (or add) the vector of a key, or of each of a list of keys."""
        if isinstance(keys, str):
            keys, weights = [keys], np.asarray(weights).reshape(1, -1)
        self.add_vectors(keys, weights, replace=True)

    # -- keys and their attributes ------------------------------------------------------

    def similarity(self, w1: str, w2: str) -> np.float32:
        """Cosine similarity of two keys, a float32 computed as gensim's; a key's with
        itself is 1 exactly (its distance 0), not 1 give or take float32 rounding."""
        if w1 == w2:
            return REAL(1.0)
        first, second = (np.asarray(self.get_vector(w), dtype=REAL) for w in (w1, w2))
        first, second = (v / REAL(np.linalg.norm(v)) for v in (first, second))
        return np.dot(first, second)

    def get_vecattr(self, key: str, attr: str) -> Any:
        """The attribute ``attr`` (e.g. ``count``; ``code``, an array) of ``key``."""
        value = self.expandos[attr][self.get_index(key)]
        return value.item() if isinstance(value, np.generic) else value

    def set_vecattr(self, key: str, attr: str, value: Any) -> None:
        """Set the attribute ``attr`` of ``key`` (an array per attribute, as gensim keeps)."""
        self.allocate_vecattrs(attrs=[attr], types=[type(value)])
        self.expandos[attr][self.get_index(key)] = value

    def allocate_vecattrs(self, attrs: Sequence[str] | None = None, types=None) -> None:
        """Grow (or make) each attribute's array to one entry per key."""
        attrs = list(self.expandos) if attrs is None else list(attrs)
        types = types or [self.expandos[a].dtype for a in attrs]
        for attr, kind in zip(attrs, types):
            old = self.expandos.get(attr)
            grown = np.zeros(len(self), dtype=old.dtype if old is not None else kind)
            if old is not None:
                grown[: min(len(old), len(grown))] = old[: len(grown)]
            self.expandos[attr] = grown

    def add_vector(self, key: str, vector: np.ndarray) -> int:
        """Add one key with its vector (or set it, if known); return its index."""
        self.add_vectors([key], np.asarray(vector).reshape(1, -1), replace=True)
        return self.get_index(key)

    def add_vectors(
        self,
        keys: Sequence[str],
        weights: np.ndarray | Sequence[np.ndarray],
        extras: dict[str, Sequence] | None = None,
        replace: bool = False,
    ) -> None:
        """Append ``keys`` with their ``weights``; known keys are updated only if ``replace``.
        ``extras`` gives attributes of the new keys (``{"count": [...]}``)."""
        keys = [keys] if isinstance(keys, str) else list(keys)
        weights = np.asarray(weights, dtype=self.vectors.dtype).reshape(len(keys), self.vector_size)
        known = [key in self.index for key in keys]
        if replace and any(known):
            rows = [self.index[k] for k, seen in zip(keys, known) if seen]
            self.vectors[rows] = weights[np.flatnonzero(known)]
            self.__dict__.pop("norms", None)
        new = np.flatnonzero(~np.array(known, dtype=bool))
        if not len(new):
            return
        start = len(self.words)
        self.words = self.words + [keys[i] for i in new]
        self.vectors = np.vstack([self.vectors, weights[new]])
        self.allocate_vecattrs()
        for attr, values in (extras or {}).items():
            values = np.asarray(values)[new]
            self.allocate_vecattrs([attr], [values.dtype])
            self.expandos[attr][start:] = values

    def has_index_for(self, key: str) -> bool:
        return self.row_of(key) is not None

    def __contains__(self, key: str) -> bool:
        return self.has_index_for(key)

    def rank(self, key1: str, key2: str) -> int:
        """Rank of ``key2`` among the neighbours of ``key1`` (1 for the nearest)."""
        return len(self.closer_than(key1, key2)) + 1

    def closer_than(self, key1: str, key2: str) -> list[str]:
        """Keys nearer to ``key1`` than ``key2`` is."""
        all_distances = self.distances(key1)
        e1, e2 = self.get_index(key1), self.get_index(key2)
        closer = np.flatnonzero(all_distances < all_distances[e2])
        return [self.words[i] for i in closer if i != e1]

    words_closer_than = closer_than

    def most_similar_to_given(self, key1: str, keys_list: Sequence[str]) -> str:
        """The key of ``keys_list`` most similar to ``key1``."""
        return keys_list[int(np.argmax([self.similarity(key1, key) for key in keys_list]))]

    def relative_cosine_similarity(self, wa: str, wb: str, topn: int = 10) -> float:
        """Cosine of ``wa`` and ``wb`` over the sum of ``wa``'s ``topn`` neighbours' cosines
        (Artetxe et al., 2016), as gensim's."""
        total = sum(score for _, score in self.most_similar(wa, topn=topn))
        return self.similarity(wa, wb) / total

    # -- norms ------------------------------------------------------------------------------

    def fill_norms(self, force: bool = False) -> None:
        """Compute the rows' lengths (``norms``) now; ``force`` recomputes them."""
        if force:
            self.__dict__.pop("norms", None)
        _ = self.norms

    def get_normed_vectors(self) -> np.ndarray:
        """Every vector scaled to length 1 (a new array)."""
        return self.unit_rows()

    def unit_normalize_all(self) -> None:
        """Scale every vector to length 1 in place (gensim's; the lengths are lost)."""
        self.vectors = self.vectors / self.norms[:, None]

    def word_vec(self, *args: Any, **kwargs: Any) -> np.ndarray:
        """gensim's compatibility alias for :meth:`get_vector` (gensim 3 scripts call it)."""
        return self.get_vector(*args, **kwargs)

    def init_sims(self, replace: bool = False) -> None:
        """gensim 3's name, kept by gensim 4 with a DeprecationWarning: :meth:`fill_norms`,
        and with ``replace`` :meth:`unit_normalize_all`."""
        warnings.warn("init_sims() is deprecated since gensim 4: fill_norms() computes the "
                      "norms, get_normed_vectors() gives unit vectors", DeprecationWarning,
                      stacklevel=2)  # fmt: skip
        self.fill_norms()
        if replace:
            self.unit_normalize_all()

    def __getattr__(self, name: str) -> Any:
        """gensim 3's attributes that gensim 4 removed: an error that says what replaced
        them, as gensim 4's does (old scripts meet these first)."""
        if name in _GENSIM3_NAMES:
            raise AttributeError(f"{name} was removed in gensim 4.0.0 (and is not in this face): "
                                 f"use {_GENSIM3_NAMES[name]}")  # fmt: skip
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @staticmethod
    def cosine_similarities(vector_1: np.ndarray, vectors_all: np.ndarray) -> np.ndarray:
        """Cosine of ``vector_1`` with each row of ``vectors_all``."""
        norm = np.linalg.norm(vector_1)
        all_norms = np.linalg.norm(vectors_all, axis=1)
        return np.dot(vectors_all, vector_1) / (norm * all_norms)

    def get_mean_vector(
        self,
        keys: Iterable,
        weights: Sequence[float] | np.ndarray | None = None,
        pre_normalize: bool = True,
        post_normalize: bool = False,
        ignore_missing: bool = True,
    ) -> np.ndarray:
        """The weighted mean of ``keys``' vectors (or vectors given), over all ``keys``."""
        keys = list(keys)
        if not keys:
            raise ValueError("cannot compute mean with no input")
        dtype = self.vectors.dtype
        weights = np.ones(len(keys), dtype) if weights is None else np.asarray(weights, dtype)
        if len(weights) != len(keys):
            raise ValueError("keys and weights array must have same number of elements")
        mean = np.zeros(self.vector_size, dtype=dtype)
        total_weight = 0.0
        for key, weight in zip(keys, weights):
            if isinstance(key, np.ndarray):
                mean += weight * key
            elif key in self:
                mean += weight * self.get_vector(key, norm=pre_normalize)
            elif not ignore_missing:
                raise KeyError(f"Key '{key}' not present in vocabulary")
            else:
                continue
            total_weight += abs(weight)
        if total_weight > 0:
            mean = mean / total_weight
        return (mean / max(np.linalg.norm(mean), 1e-12)).astype(REAL) if post_normalize else mean

    def most_similar(
        self,
        positive: Any = None,
        negative: Any = None,
        topn: int | None = 10,
        clip_start: int = 0,
        clip_end: int | None = None,
        restrict_vocab: int | None = None,
        indexer: Any = None,
    ) -> list[tuple[str, float]] | np.ndarray:
        """gensim's ``most_similar``: a key, a vector, or lists of them (a matrix is a list of
        rows); an ``indexer`` (gensim's protocol) answers for the query's unit vector."""
        if isinstance(topn, (int, np.integer)) and topn < 1:
            return []
        if indexer is not None and isinstance(topn, (int, np.integer)):  # its unit query
            query, _ = self.query(_terms(positive), _terms(negative))
            return indexer.most_similar(query / np.linalg.norm(query), int(topn))
        restrict_vocab = clip_end if restrict_vocab is None else restrict_vocab
        if not clip_start or topn is None:
            return super().most_similar(_terms(positive), _terms(negative), topn, restrict_vocab)
        # the best topn + clip_start hold the best topn at rows from clip_start on
        found = super().most_similar(
            _terms(positive), _terms(negative), topn + clip_start, restrict_vocab
        )
        return [(key, score) for key, score in found if self.get_index(key) >= clip_start][:topn]

    def most_similar_cosmul(
        self,
        positive: Any = None,
        negative: Any = None,
        topn: int | None = 10,
        restrict_vocab: int | None = None,
    ) -> list[tuple[str, float]] | np.ndarray:
        """gensim's ``most_similar_cosmul`` (3CosMul), with its argument forms."""
        if isinstance(topn, (int, np.integer)) and topn < 1:
            return []
        return super().most_similar_cosmul(_terms(positive), _terms(negative), topn, restrict_vocab)

    def similar_by_vector(
        self, vector: np.ndarray, topn: int | None = 10, restrict_vocab: int | None = None
    ) -> list[tuple[str, float]] | np.ndarray:
        return self.most_similar(positive=[vector], topn=topn, restrict_vocab=restrict_vocab)

    def similar_by_word(
        self, word: str, topn: int | None = 10, restrict_vocab: int | None = None
    ) -> list[tuple[str, float]] | np.ndarray:
        return self.most_similar(positive=[word], topn=topn, restrict_vocab=restrict_vocab)

    similar_by_key = similar_by_word

    def _terms(self, queries: Any, sign: float) -> list[tuple[np.ndarray, float, Any]]:
        """As wordvec's, with int keys (a document's tag, gensim's ``dv``) taken as keys
        rather than as vectors."""
        queries = _terms(queries)
        if queries is None or not any(_is_int_key(self, q) for q in queries):
            return super()._terms(queries, sign)
        terms = []
        for query in queries:
            key, weight = query if isinstance(query, tuple) else (query, 1.0)
            if _is_int_key(self, key):
                terms.append((self.unit_vector(key), sign * weight, key))
            else:
                terms.extend(super()._terms([query], sign))
        return terms

    def vectors_for_all(
        self, keys: Iterable[str], allow_inference: bool = True, copy_vecattrs: bool = False
    ) -> KeyedVectors:
        """New KeyedVectors of the ``keys`` that have a vector (each once)."""
        searched = self if allow_inference else self.key_to_index
        found = [key for key in dict.fromkeys(keys) if key in searched]
        result = KeyedVectors(self.vector_size, dtype=self.vectors.dtype)
        result.add_vectors(found, self[found] if found else np.zeros((0, self.vector_size)))
        rows = [self.get_index(key, -1) for key in found]
        if copy_vecattrs and -1 not in rows:
            result.expandos = {attr: values[rows] for attr, values in self.expandos.items()}
        else:  # gensim's counts for keys without any: descending from the number of keys
            result.expandos["count"] = np.arange(len(found), 0, -1, dtype=np.int64)
        return result

    # -- evaluation -------------------------------------------------------------------------

    def evaluate_word_analogies(
        self,
        analogies: str | os.PathLike,
        restrict_vocab: int = 300000,
        case_insensitive: bool = True,
        dummy4unknown: bool = False,
        similarity_function: str = "most_similar",
    ) -> tuple[float, list[dict]]:
        """Accuracy on the analogy file (Google's format) and per-section results, as gensim
        computes and returns them (:mod:`wordvec.gensim.evaluation`: a capitalised vocabulary
        counts, answers among the five nearest): a dict a section, its ``correct`` and
        ``incorrect`` questions as 4-tuples of words (upper-cased where ``case_insensitive``),
        then the ``Total accuracy``; logged as gensim logs."""
        return word_analogies(self, analogies, restrict_vocab, case_insensitive, dummy4unknown)

    def evaluate_word_pairs(
        self,
        pairs: str | os.PathLike,
        delimiter: str = "\t",
        encoding: str = "utf8",
        restrict_vocab: int = 300000,
        case_insensitive: bool = True,
        dummy4unknown: bool = False,
    ) -> tuple[Any, Any, float]:
        """((Pearson, p), (Spearman, p), OOV percentage) on a word-pair similarity file, as
        gensim computes them (scipy's results; the p-values are NaN without scipy)."""
        return word_pairs(self, pairs, restrict_vocab, case_insensitive, dummy4unknown)

    # -- files ------------------------------------------------------------------------------

    @classmethod
    def load_word2vec_format(
        cls,
        fname: str | os.PathLike,
        fvocab: str | os.PathLike | None = None,
        binary: bool = False,
        encoding: str = "utf8",
        unicode_errors: str = "strict",
        limit: int | None = None,
        datatype: Any = REAL,
        no_header: bool = False,
    ) -> KeyedVectors:
        """Read word2vec's text or binary format (``binary`` is checked against the file's
        content), plain, compressed (``.gz``, ``.bz2``, ``.xz``) or in a ``.zip``, keeping the
        first ``limit`` vectors (the file is read no further); ``fvocab`` gives counts. Words are
        decoded by ``encoding`` with ``unicode_errors`` (``'replace'``, ``'ignore'``: a word
        that is not valid text is kept as it can be read)."""
        decoding = {"encoding": codecs.lookup(encoding).name, "errors": unicode_errors}
        logger.info("loading projection weights from %s", fname)
        if no_header:
            vectors = read_text(fname, header=False, limit=limit, **decoding)
        else:
            vectors = load_vectors(fname, limit=limit, **decoding)
        keyed = cls.of(vectors)
        loaded = np.asarray(keyed.vectors, dtype=datatype)  # no second copy of a big matrix
        keyed.vectors = loaded if loaded.flags.writeable else loaded.copy()
        if loaded.dtype == np.float32 and "norms" in vectors.__dict__:  # the scan's, kept
            keyed.__dict__["norms"] = vectors.__dict__["norms"]
        if fvocab is not None:
            counts = Vocabulary.read_word2vec(fvocab, **decoding)
            found = dict(zip(counts.words, counts.counts.tolist()))
            keyed.expandos["count"] = np.array([found.get(w, 0) for w in keyed.words], np.int64)
        elif "count" not in keyed.expandos or limit is not None:
            keyed.expandos["count"] = np.arange(len(keyed), 0, -1, dtype=np.int64)
        logger.info("loaded %s matrix of type %s from %s", keyed.vectors.shape,
                    keyed.vectors.dtype, fname)  # fmt: skip
        return keyed

    intersect_word2vec_format = intersect_word2vec_format

    def save_word2vec_format(
        self,
        fname: str | os.PathLike,
        fvocab: str | os.PathLike | None = None,
        binary: bool = False,
        total_vec: int | None = None,
        write_header: bool = True,
        prefix: str = "",
        append: bool = False,
        sort_attr: str = "count",
    ) -> None:
        """Write word2vec's text (or ``binary``) format; ``fvocab`` also writes the counts.
        Text keeps every float32 exactly (9 significant digits), as gensim's does."""
        if prefix or append or total_vec not in (None, len(self)):
            raise ValueError(
                "wordvec writes whole files: prefix, append and total_vec are gensim's"
            )
        vectors = Vectors(self.words, np.asarray(self.vectors))
        if binary:
            save_vectors(vectors, fname, "word2vec-binary")
        else:
            check_words(vectors.words, "word2vec")
            write_text(vectors, fname, header=write_header, digits=EXACT_DIGITS)
        if fvocab is not None:
            counts = self.counts if self.counts is not None else np.ones(len(self), np.int64)
            Vocabulary(self.words, counts).write_word2vec(fvocab)

    def save(self, fname: str | os.PathLike, *args, **kwargs) -> None:
        """Write wordvec's model file (never a pickle), which :meth:`load` reads."""
        counts = self.counts if self.counts is not None else np.zeros(len(self), np.int64)
        vocab = Vocabulary(self.words, counts)
        settings = {"gensim": type(self).__name__, **self._saved_settings()}
        write_model(SavedModel(vocab, np.asarray(self.vectors), settings, self._saved_arrays()),
                    fname)  # fmt: skip

    def _saved_settings(self) -> dict[str, Any]:
        """What a subclass saves besides the keys, counts and vectors: settings..."""
        return {}

    def _saved_arrays(self) -> dict[str, np.ndarray]:
        """... and arrays."""
        return {}

    @classmethod
    def load(cls, fname: str | os.PathLike, mmap: str | None = None) -> KeyedVectors:
        """Read a file :meth:`save` wrote (writable arrays; ``mmap='r'``: mapped read-only),
        or gensim's own (``kv.save``, any version since 1.0; read as data, never run)."""
        if is_pickle(fname):
            return cls._from_gensim(read_saved(fname, mmap), os.path.basename(fname))
        return cls._from_saved(load_arrays(fname, mmap))

    @classmethod
    def _from_gensim(cls, found: Record, name: str) -> KeyedVectors:
        """The KeyedVectors of a gensim file: its vectors, or a whole model's ``wv``."""
        keyed = found.get("wv") if isinstance(found.get("wv"), Record) else found
        if keyed.get("vectors_ngrams") is not None:
            from wordvec.gensim.fasttext import FastTextKeyedVectors

            return FastTextKeyedVectors.from_gensim(keyed, name)
        words, vectors, counts = keyed_parts(keyed, name)
        result = cls(vectors.shape[1], dtype=vectors.dtype)
        result.words, result.vectors = words, vectors
        result.expandos["count"] = counts
        return result

    @classmethod
    def _from_saved(cls, model: SavedModel) -> KeyedVectors:
        if cls is KeyedVectors and "ngrams" in model.arrays:  # gensim: the class saved
            from wordvec.gensim.fasttext import FastTextKeyedVectors

            return FastTextKeyedVectors._from_saved(model)
        return cls.of(Vectors(model.vocab.words, model.vectors, model.vocab.counts))


_GENSIM3_NAMES = {
    "vocab": "key_to_index, index_to_key and get_vecattr(key, 'count')",
    "index2word": "index_to_key", "index2entity": "index_to_key", "syn0": "vectors",
    "vectors_norm": "get_normed_vectors()", "syn0norm": "get_normed_vectors()",
}  # fmt: skip
"""gensim 3's KeyedVectors attributes and what gensim 4 has instead."""


def _terms(queries: Any) -> Any:
    """gensim's forms of a query list as wordvec's: a matrix is a list of its rows, a single
    key or vector a list of it."""
    if isinstance(queries, np.ndarray) and queries.ndim == 2:
        return list(queries)
    if isinstance(queries, (str, np.ndarray, int, np.integer)):
        return [queries]
    return queries


def _is_int_key(keyed: KeyedVectors, query: Any) -> bool:
    """Whether ``query`` is an int key of ``keyed`` (a tuple is a (key, weight) pair)."""
    key = query[0] if isinstance(query, tuple) else query
    return isinstance(key, (int, np.integer)) and keyed.has_index_for(key)


def _load_word2vec_format(
    cls: type[KeyedVectors] = KeyedVectors, fname: str | os.PathLike = "", *args: Any,
    binary_chunk_size: int = 100 * 1024, **kwargs: Any,
) -> KeyedVectors:  # fmt: skip
    """gensim's module-level reader behind ``load_word2vec_format``, which some scripts call:
    the same call (``binary_chunk_size``, gensim's read size, has no use here)."""
    return cls.load_word2vec_format(fname, *args, **kwargs)


Word2VecKeyedVectors = Doc2VecKeyedVectors = EuclideanKeyedVectors = KeyedVectors
"""gensim 3's names of KeyedVectors, which gensim 4 keeps as aliases."""
