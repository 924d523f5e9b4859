"""gensim 4's ``Doc2Vec`` (paragraph vectors) over wordvec's doc2vec training
(:mod:`wordvec.training.doc2vec`) and inference (:mod:`wordvec.query.documents`).

The face hands wordvec each document's words as a line and its tags as the line's document
numbers (:class:`~wordvec.training.doc2vec.DocumentTags`): ``dv[tag]`` is the vector of the
documents tagged ``tag``, trained by each of them; a document may have several tags, or none.
The tags key ``dv`` as gensim's do: int tags their own row (0 to the highest), then the other
tags in the order first seen; a corpus file or ``TaggedLineDocument`` is tagged by line numbers.

``dm_concat=1`` trains PV-DM over the concatenated window (wordvec's ``--context concat``): the
null word that pads it is the model's ``pad_vector``, not a key of ``wv`` as in gensim.

``build_vocab(update=True)`` adds the new words and tags (gensim 4.4's own then crashes its
training on a new tag); a ``train`` continues the model on its tags.

Differences from gensim, each refused with an error rather than ignored: ``dm_concat`` with
``dm_tag_count`` other than 1, a tag the model was not built with (gensim skips it), a new int
tag after other tags (an int tag is its own row), a tag given as one string (gensim would read
its characters as tags). Files are wordvec's model files, never pickles.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain
from typing import Any

import numpy as np

from wordvec.errors import ConfigError, FormatError
from wordvec.gensim.corpora import (
    MAX_WORDS_IN_BATCH,
    TaggedDocument,
    TaggedLineDocument,
    characters,
)
from wordvec.gensim.keyedvectors import KeyedVectors
from wordvec.gensim.locks import check_unlocked
from wordvec.gensim.pickles import Record
from wordvec.gensim.word2vec import _SAVED_STATE, FAST_VERSION, Word2Vec, _check_corpus
from wordvec.model import Model
from wordvec.query.documents import infer_vectors
from wordvec.training.weights import init_input_weights

__all__ = ["FAST_VERSION", "Doc2Vec", "TaggedDocument", "TaggedLineDocument"]

logger = logging.getLogger(__name__)


class DocumentVectors(KeyedVectors):
    """``dv``: the documents' vectors, keyed by their tags as gensim keys them. An int tag is
    its own row, so ``key_to_index`` lists only the other tags (as gensim's); every tag is a
    key of ``dv[...]``, ``in`` and the similarity calls."""

    @property
    def key_to_index(self) -> dict:
        index = self.index  # rebuilt when the keys change; the tags' view with it
        cached = self.__dict__.get("_tags_of_index")
        if cached is None or cached[0] is not index:
            tags = {key: row for key, row in index.items() if not isinstance(key, int)}
            cached = self.__dict__["_tags_of_index"] = (index, tags)
        return cached[1]

    @key_to_index.setter
    def key_to_index(self, mapping: dict) -> None:
        KeyedVectors.key_to_index.fset(self, mapping)


class Doc2Vec(Word2Vec):
    """gensim's ``Doc2Vec``: PV-DM by default (``dm=0``: PV-DBOW, ``dbow_words=1`` training
    skip-gram word vectors beside), 10 epochs, negative sampling with 5 noise words, gensim's
    other defaults. ``dv`` holds the documents' vectors keyed by their tags, ``wv`` the words'."""

    _SAVED = (*_SAVED_STATE, "doc_tags")
    _CORPUS_ARGS = ("documents", "corpus_file", "trim_rule", "dv", "dv_mapfile")

    def __init__(
        self,
        documents: Iterable[TaggedDocument] | None = None,
        corpus_file: str | os.PathLike | None = None,
        vector_size: int = 100,
        dm_mean: int | None = None,
        dm: int = 1,
        dbow_words: int = 0,
        dm_concat: int = 0,
        dm_tag_count: int = 1,
        dv: KeyedVectors | None = None,
        dv_mapfile: str | None = None,
        comment: str | None = None,
        trim_rule: Callable | None = None,
        callbacks: Sequence = (),
        window: int = 5,
        epochs: int = 10,
        shrink_windows: bool = True,
        alpha: float = 0.025,
        min_count: int = 5,
        max_vocab_size: int | None = None,
        sample: float = 1e-3,
        seed: int = 1,
        workers: int = 3,
        min_alpha: float = 0.0001,
        hs: int = 0,
        negative: int = 5,
        ns_exponent: float = 0.75,
        hashfxn: Callable = hash,
        sorted_vocab: int = 1,
        batch_words: int = MAX_WORDS_IN_BATCH,
        max_final_vocab: int | None = None,
    ):
        if dv is not None or dv_mapfile is not None:
            raise ConfigError("wordvec's Doc2Vec makes its own dv: give dv=None, dv_mapfile=None")
        self.dm_mean, self.dbow_words = dm_mean, int(dbow_words)
        self.dm_concat, self.dm_tag_count = int(dm_concat), int(dm_tag_count)
        self.dv = DocumentVectors(int(vector_size))
        self.doc_tags: list | None = None
        self._document_tags: list[list[int]] | None = None  # while training: each line's rows
        self._pad_vector: np.ndarray | None = None  # dm_concat's pad row, once trained
        super().__init__(
            documents, corpus_file, vector_size, alpha, window, min_count, max_vocab_size,
            sample, seed, workers, min_alpha, 0 if dm else 1, hs, negative, ns_exponent,
            1 if dm_mean is None else int(dm_mean), hashfxn, epochs, 0, trim_rule,
            sorted_vocab, batch_words, False, callbacks, comment, max_final_vocab,
            shrink_windows,
        )  # fmt: skip

    @property
    def dm(self) -> int:
        """1 for PV-DM, 0 for PV-DBOW (gensim keeps it as ``sg``'s opposite)."""
        return int(not self.sg)

    @property
    def dbow(self) -> bool:
        return bool(self.sg)

    @property
    def layer1_size(self) -> int:
        """The output layers' width: ``vector_size``, or with ``dm_concat=1`` the concatenated
        window's, ``(dm_tag_count + 2 * window) * vector_size`` (gensim's)."""
        if self.dm and self.dm_concat:
            return (self.dm_tag_count + 2 * self.window) * self.vector_size
        return self.vector_size

    @property
    def docvecs(self) -> KeyedVectors:
        """gensim 3's name for :attr:`dv`."""
        return self.dv

    def _check_settings(self) -> None:
        if not self.sg and self.dm_concat and self.dm_tag_count != 1:
            raise ConfigError("wordvec's PV-DM over the concatenated window takes a document's "
                              "one tag: dm_tag_count=1")  # fmt: skip
        super()._check_settings()

    def _options(self, epochs: int, alpha: float, min_alpha: float) -> dict[str, Any]:
        options = super()._options(epochs, alpha, min_alpha)
        options.pop("shared_negatives", None)
        options.update(model="doc2vec", arch="dbow" if self.sg else "dm", lowercase=False)
        if not self.sg and self.dm_concat:
            options["context"] = "concat"
        if self.sg:
            options["dbow_words"] = bool(self.dbow_words)
            if self.dbow_words and self.negative:
                options["shared_negatives"] = False  # gensim draws per (word, context) pair
        return options

    # -- vocabulary and training ------------------------------------------------------------

    def build_vocab(
        self,
        corpus_iterable: Iterable[TaggedDocument] | None = None,
        corpus_file: str | os.PathLike | None = None,
        update: bool = False,
        progress_per: int = 10000,
        keep_raw_vocab: bool = False,
        trim_rule: Callable | None = None,
        **kwargs: Any,
    ) -> None:
        """Count the documents' words (wordvec's reader) and their tags; ``dv`` gets a row per
        tag, at random until training. ``update``: the new words and tags are added, each a
        new row at random, and the rows there stay."""
        _check_corpus(corpus_iterable, corpus_file)
        words, tags = _words_and_tags(corpus_iterable)
        super().build_vocab(words, corpus_file, update, progress_per, keep_raw_vocab, trim_rule)
        keys = _tag_keys(tags) if tags is not None else range(self.corpus_count)
        if update:
            self._add_documents(keys)
        else:
            self._new_documents(keys)

    def _add_documents(self, keys: Iterable) -> None:
        """``dv`` grown by the ``keys`` it lacks, each a new row at random: the ints up to the
        highest (an int tag is its own row: refused after other tags), then the others."""
        old = list(self.dv.words)
        index = self.dv.index
        new = [key for key in keys if key not in index]
        ints = [key for key in new if isinstance(key, int)]
        if ints and any(not isinstance(key, int) for key in old):
            raise ConfigError(
                f"new int tag {ints[0]} after the model's other tags: an int tag is its own row "
                "of dv, which they hold; tag the new documents with strings"
            )
        added = [*range(len(old), max(ints, default=-1) + 1)]
        added += [key for key in new if not isinstance(key, int)]
        rows = init_input_weights(len(added), self.vector_size, (self.seed, len(self.wv), len(old)))
        self._set_documents(old + added, np.vstack([np.asarray(self.dv.vectors), rows]))

    def _new_documents(self, keys: Iterable) -> None:
        """``dv``: a row for each of ``keys``, at random until training."""
        keys = list(keys)
        self._set_documents(keys, init_input_weights(len(keys), self.vector_size,
                                                     (self.seed, len(self.wv))))  # fmt: skip

    def _needs_fresh_start(self) -> bool:
        return True  # the words' rows and the documents' start together, in wordvec

    def _run(self, corpus, corpus_file, epochs: int, alpha: float, min_alpha: float,
             callbacks: Sequence) -> tuple[int, int]:  # fmt: skip
        """Train on the whole corpus, each document the rows of its tags in ``dv`` (a corpus
        of line numbers: line i row i); a trained model continues them, and the rows of tags
        not in this corpus stay."""
        words, tags = _words_and_tags(corpus)
        if tags is not None and not tags:
            raise RuntimeError("you must first build vocabulary before training the model")
        fresh_lines = tags is None and not self._trained  # wordvec numbers the lines
        if tags is not None and not len(self.dv):  # the one-liner: no build_vocab before
            self._new_documents(_tag_keys(tags))
        self._document_tags = None if tags is None else self._rows_of(tags)
        try:
            result = super()._run(words, corpus_file, epochs, alpha, min_alpha, callbacks)
            if epochs:
                self._take_documents(fresh_lines)
        finally:
            self._document_tags = None
        return result

    def _take_documents(self, fresh_lines: bool) -> None:
        """The trained rows into ``dv``: those of the corpus's tags (the lines'), the other
        rows as they were; ``fresh_lines``: a row per line, keyed by its number."""
        trained = self._trained_documents
        if fresh_lines:
            self._set_documents(list(range(len(trained))), trained)
            self.corpus_count = len(trained)
            return
        if self._document_tags is None:
            rows = np.arange(len(trained))
        else:
            rows = np.unique(np.fromiter(chain.from_iterable(self._document_tags), np.int64))
        vectors = np.array(self.dv.vectors)
        vectors[rows] = trained[rows]
        self.dv.vectors = vectors

    def _rows_of(self, tags: list[list]) -> list[list[int]]:
        """Each document's rows of ``dv``: its tags'."""
        index = self.dv.index
        unknown = next((tag for tagged in tags for tag in tagged if tag not in index), None)
        if unknown is not None:
            raise ConfigError(
                f"{unknown!r} is not a tag of this model's documents: wordvec's Doc2Vec "
                "trains the documents it was built with"
            )
        return [[index[tag] for tag in tagged] for tagged in tags]

    def _training_keywords(self) -> dict[str, Any]:
        check_unlocked(self.wv)
        return {} if self._document_tags is None else {"document_tags": self._document_tags}

    def _take_arrays(self, trained: Model, rows: np.ndarray) -> None:
        super()._take_arrays(trained, rows)
        self._trained_documents = np.array(trained.arrays["doc_vectors"])
        self._pad_vector = trained.arrays.get("pad_vector")

    def _set_documents(self, keys: list, rows: np.ndarray) -> None:
        """``dv``: the documents' ``rows`` keyed by ``keys`` (their tags)."""
        self.dv = DocumentVectors(self.vector_size)
        self.dv.words, self.dv.vectors = keys, rows
        self.doc_tags = None if keys == list(range(len(keys))) else keys

    def to_wordvec(self, options: dict[str, Any] | None = None) -> Model:
        model = super().to_wordvec(options)
        model.settings.setdefault("ns_exponent", self.ns_exponent)  # inference reads it
        return model

    def _output_arrays(self) -> dict[str, np.ndarray]:
        """As Word2Vec's, and hierarchical softmax alone keeps its tree too: inference reads
        the output layer, of any loss."""
        if self.hs and not self.negative and hasattr(self, "syn1"):
            return {"w_out": self.syn1}
        return super()._output_arrays()

    def _init_arrays(self, arrays: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        arrays = {**arrays, "doc_vectors": np.asarray(self.dv.vectors)}
        if self._pad_vector is None:
            return arrays
        return {**arrays, "pad_vector": self._pad_vector}

    def train(self, *args: Any, **kwargs: Any) -> None:
        """As :meth:`Word2Vec.train`, returning nothing, as gensim's ``Doc2Vec.train``."""
        super().train(*args, **kwargs)

    _GENSIM_CLASS = "Doc2Vec"

    @classmethod
    def _gensim_arguments(cls, found: Record) -> dict[str, Any]:
        return _paragraph_arguments(super()._gensim_arguments(found),
                                    dbow_words=int(found.get("dbow_words", default=0)),
                                    dm_concat=int(found.get("dm_concat", default=0)))  # fmt: skip

    def _gensim_arrays(self, found: Record, name: str) -> dict[str, np.ndarray]:
        tags, rows = _gensim_documents(found, name)
        self.doc_tags = None if tags == list(range(len(tags))) else tags
        return {"doc_vectors": rows}

    _TRAINED_AS = ("doc2vec",)

    @classmethod
    def _arguments_of(cls, name: str, settings: dict[str, Any]) -> dict[str, Any]:
        return _paragraph_arguments(super()._arguments_of(name, settings),
                                    dbow_words=int(bool(settings.get("dbow_words"))),
                                    dm_concat=int(settings.get("context") == "concat"))  # fmt: skip

    def _restore(self, saved: Model) -> None:
        super()._restore(saved)
        self._pad_vector = saved.arrays.get("pad_vector")
        rows = saved.arrays["doc_vectors"]
        self._set_documents(self.doc_tags or list(range(len(rows))), rows)

    # -- what scripts read ------------------------------------------------------------------

    def infer_vector(
        self, doc_words: Sequence[str], alpha: float | None = None,
        min_alpha: float | None = None, epochs: int | None = None,
    ) -> np.ndarray:  # fmt: skip
        """A vector for a new document (its words): a fresh row trained against the model's
        frozen words and output layer, by wordvec's inference kernel."""
        if isinstance(doc_words, str):
            raise TypeError(
                "Parameter doc_words of infer_vector() must be a list of strings (not a single "
                "string)."
            )
        model = self.to_wordvec()
        return infer_vectors(
            model.vocab, model.vectors, model.settings, model.arrays, [doc_words],
            epochs=epochs or self.epochs, alpha=alpha or self.alpha,
            min_alpha=min_alpha or self.min_alpha, threads=1,
        )[0]  # fmt: skip

    def similarity_unseen_docs(
        self, doc_words1: Sequence[str], doc_words2: Sequence[str], alpha: float | None = None,
        min_alpha: float | None = None, epochs: int | None = None,
    ) -> float:  # fmt: skip
        """Cosine of two new documents' inferred vectors."""
        first, second = (self.infer_vector(words, alpha, min_alpha, epochs)
                         for words in (doc_words1, doc_words2))  # fmt: skip
        return float(KeyedVectors.cosine_similarities(first, second[None, :])[0])

    def __getitem__(self, tag: Any) -> np.ndarray:
        """A word's vector, else a tag's (gensim's order); a list: their rows."""
        if isinstance(tag, (str, int, np.integer)):
            return self.wv[tag] if tag in self.wv else self.dv[tag]
        return np.vstack([self[one] for one in tag])

    def save_word2vec_format(
        self, fname: str | os.PathLike, doctag_vec: bool = False, word_vec: bool = True,
        prefix: str = "*dt_", fvocab: str | os.PathLike | None = None, binary: bool = False,
    ) -> None:  # fmt: skip
        """word2vec's format of the words' vectors, the documents' (their tags after
        ``prefix``), or both in one file (words first)."""
        parts = [(self.wv.words, self.wv.vectors)] if word_vec else []
        if doctag_vec:
            parts.append(([f"{prefix}{tag}" for tag in self.dv.words], self.dv.vectors))
        both = KeyedVectors(self.vector_size)
        both.words = [key for keys, _ in parts for key in keys]
        both.vectors = np.vstack([np.asarray(rows) for _, rows in parts])
        both.save_word2vec_format(fname, fvocab=fvocab, binary=binary)

    def __str__(self) -> str:
        """gensim's name of the model's main settings: ``Doc2Vec<dm/m,d100,n5,w5,mc2,t3>``
        (scripts key their models by it). gensim 4.4 loses ``comment`` and ``dm_mean=0`` on
        the way (its PV-DM then averages); here both hold, as gensim documents them."""
        if self.sg:
            segments = ["dbow+w" if self.dbow_words else "dbow"]
        else:
            segments = ["dm/c" if self.dm_concat else "dm/m" if self.cbow_mean else "dm/s"]
        if self.comment:
            segments.insert(0, f'"{self.comment}"')
        segments.append(f"d{self.vector_size}")
        segments += [f"n{self.negative}"] if self.negative else []
        segments += ["hs"] if self.hs else []
        segments += [f"w{self.window}"] if not self.sg or self.dbow_words else []
        segments += [f"mc{self.min_count}"] if self.min_count > 1 else []
        segments += [f"s{self.sample:g}"] if self.sample > 0 else []
        segments += [f"t{self.workers}"] if self.workers > 1 else []
        return f"{type(self).__name__}<{','.join(segments)}>"


class _DocumentWords:
    """The documents' word lists, restartable: what wordvec reads, a line per document (words
    given as one string are its characters, gensim's reading, with its warning)."""

    def __init__(self, documents: Iterable[TaggedDocument]):
        self.documents = documents

    def __iter__(self) -> Iterator[list[str]]:
        return (_as_words(document.words) for document in self.documents)


def _as_words(words: Any) -> Any:
    return characters(words) if isinstance(words, str) else words


def _words_and_tags(documents: Any) -> tuple[Any, list[list] | None]:
    """What wordvec reads for ``documents`` and each document's tags (None where they are
    the line numbers: no documents, a corpus file or a ``TaggedLineDocument`` of a path, read
    as the file). One pass over the documents, per document, not per word."""
    if documents is None:
        return None, None
    if isinstance(documents, TaggedLineDocument) and isinstance(
        documents.source, (str, os.PathLike)
    ):
        return str(documents.source), None
    tags = [_tags_of(document) for document in documents]
    first = next(iter(documents), None)
    if first is not None and isinstance(first.words, str):
        logger.warning(
            "Each 'words' should be a list of words (usually unicode strings). First 'words' "
            "here is instead plain %s.", type(first.words)
        )  # fmt: skip
    return _DocumentWords(documents), tags


def _tags_of(document: TaggedDocument) -> list:
    """A document's tags, numpy ints as ints (one string is refused: gensim would take each
    of its characters for a tag)."""
    tags = document.tags
    if isinstance(tags, (str, bytes)):
        raise ConfigError(f"a document's tags are a list: give [{tags!r}], not {tags!r}")
    return [int(tag) if isinstance(tag, np.integer) else tag for tag in tags]


def _tag_keys(tags: list[list]) -> list:
    """The keys of ``dv`` for these documents' tags, as gensim orders them: the ints from 0
    to the highest (each its own row), then the other tags in the order first seen."""
    ints = [tag for tagged in tags for tag in tagged if isinstance(tag, int)]
    others = dict.fromkeys(tag for tagged in tags for tag in tagged if not isinstance(tag, int))
    return [*range(max(ints, default=-1) + 1), *others]


def _paragraph_arguments(arguments: dict[str, Any], **more: Any) -> dict[str, Any]:
    """Word2Vec's constructor arguments as Doc2Vec's: ``sg`` is ``dm``'s opposite (PV-DBOW),
    ``cbow_mean`` is ``dm_mean``."""
    dbow, mean = arguments.pop("sg"), arguments.pop("cbow_mean")
    return {**arguments, "dm": int(not dbow), "dm_mean": mean, **more}


def _gensim_documents(found: Record, name: str) -> tuple[list, np.ndarray]:
    """The tags and rows of a saved gensim Doc2Vec's documents: 4.x's ``dv``, 3.x's
    ``docvecs`` (int tags first, ``max_rawint + 1`` of them, then ``offset2doctag``'s)."""
    documents = found.get("dv", "docvecs")
    rows = documents.get("vectors", "vectors_docs", "doctag_syn0") if isinstance(
        documents, Record) else None  # fmt: skip
    if not isinstance(rows, np.ndarray) or rows.ndim != 2:
        raise FormatError(f"{name}: its document vectors are missing or damaged")
    tags = documents.get("index_to_key")
    if tags is None:
        named = list(documents.get("offset2doctag", default=[]))
        tags = list(range(int(documents.get("max_rawint", default=-1)) + 1)) + named
        tags = tags if tags else list(range(len(rows)))
    if len(tags) != len(rows):
        raise FormatError(f"{name}: {len(tags)} document tags for {len(rows)} vectors")
    return list(tags), np.asarray(rows, dtype=np.float32)
