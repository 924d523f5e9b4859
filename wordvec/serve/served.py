"""What ``wordvec serve`` answers for one model: its vectors' queries (neighbours, analogies,
similarities, vectors, completions, a 2-D or 3-D picture of a neighbourhood), a classifier's
predictions, a doc2vec model's inferred vectors and nearest documents, each as a plain dict
ready for JSON, through the same calls as the Python API (so their answers are the same).

A request that cannot be answered raises :class:`BadRequest`: its HTTP status, a message
naming the problem, and for an unknown word the known words closest to it in spelling.
"""

from __future__ import annotations

import bisect
import difflib
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from wordvec.errors import NotAClassifier, WordvecError
from wordvec.query.vectors import Vectors

_SPELLING_CANDIDATES = 2000
"""Words weighed for an unknown word's closest spellings: those sharing its first letters."""


class BadRequest(Exception):
    """A request the server answers with ``status`` and a JSON error."""

    def __init__(self, status: int, message: str, **extra: Any):
        super().__init__(message)
        self.status = status
        self.extra = extra


class Served:
    """One model, loaded once, read-only: ``kind`` is ``vectors``, ``classifier`` or
    ``doc2vec``."""

    def __init__(self, name: str, path: Path, vectors: Vectors, *, kind: str = "vectors",
                 classifier: Any = None, model: Any = None, index: Any = None):  # fmt: skip
        self.name = name
        self.path = path
        self.vectors = vectors
        self.kind = kind
        self.classifier = classifier
        self.model = model
        self.index = index

    @classmethod
    def load(cls, path: Path, name: str, *, use_index: bool = True) -> Served:
        """The model at ``path``: any vector file wordvec reads, a wordvec model (a classifier
        or doc2vec model answers those calls too) or fastText's ``.bin``; the index beside
        it (``PATH.index``) when there is one and ``use_index``."""
        from wordvec.formats import detect_format, load_classifier, load_vectors

        fmt = detect_format(path)
        served = None
        if fmt == "model":
            from wordvec.model import Model

            model = Model.load(path)
            kind = model.settings.get("model")
            if kind == "supervised":
                served = cls(name, path, model.wv, kind="classifier", classifier=model.classifier)
            elif kind == "doc2vec":
                served = cls(name, path, model.wv, kind="doc2vec", model=model)
        elif fmt == "fasttext-bin":
            try:
                classifier = load_classifier(path)
                served = cls(name, path, load_vectors(path), kind="classifier",
                             classifier=classifier)  # fmt: skip
            except NotAClassifier:
                pass
        served = served or cls(name, path, load_vectors(path))
        if use_index:
            from wordvec.index.files import default_path

            beside = default_path(path)
            if beside.is_file():
                from wordvec.index.approximate import NeighbourIndex

                served.index = NeighbourIndex.open(beside, served.vectors, path.name)
        return served

    def describe(self) -> dict:
        """What ``/api/models`` says of this model."""
        return {
            "name": self.name,
            "file": self.path.name,
            "kind": self.kind,
            "words": len(self.vectors),
            "dim": self.vectors.dim,
            "subwords": hasattr(self.vectors, "ngrams"),
            "search": self.index.describe() if self.index else "exact",
            "labels": len(self.classifier.labels) if self.classifier else None,
            "documents": len(self.model.dv) if self.model is not None else None,
        }

    def neighbors(self, positive: list[str], negative: list[str], k: int) -> dict:
        """The ``k`` words nearest to the sum of ``positive`` minus ``negative`` (each word's
        unit vector), the query's words left out: :meth:`Vectors.most_similar`."""
        self.check_words(positive + negative)
        found = self.vectors.most_similar(positive, negative or None, topn=k, index=self.index)
        return {
            "model": self.name,
            "positive": positive,
            "negative": negative,
            "search": "approximate" if self.index else "exact",
            "neighbors": [{"word": w, "similarity": s} for w, s in found],
        }

    def similarity(self, first: str, second: str) -> dict:
        self.check_words([first, second])
        return {"model": self.name, "a": first, "b": second,
                "similarity": self.vectors.similarity(first, second)}  # fmt: skip

    def n_similarity(self, first: list[str], second: list[str]) -> dict:
        self.check_words(first + second)
        return {"model": self.name, "a": first, "b": second,
                "similarity": self.vectors.n_similarity(first, second)}  # fmt: skip

    def vector(self, word: str) -> dict:
        """A word's vector; a subword model's for a word outside its vocabulary too, flagged."""
        self.check_words([word])
        return {
            "model": self.name,
            "word": word,
            "in_vocabulary": self.vectors.row_of(word) is not None,
            "vector": np.asarray(self.vectors.vector(word), dtype=float).tolist(),
        }

    def complete(self, prefix: str, limit: int) -> dict:
        """Up to ``limit`` words that start with ``prefix``, most frequent (first) first."""
        at = bisect.bisect_left(self._sorted_words, prefix)
        rows = []
        for word in self._sorted_words[at : at + 50 * limit]:
            if not word.startswith(prefix):
                break
            rows.append(self.vectors.index[word])
        return {"model": self.name, "prefix": prefix,
                "words": [self.vectors.words[r] for r in sorted(rows)[:limit]]}  # fmt: skip

    def projection(self, words: list[str], dims: int) -> dict:
        """The words' vectors on their first ``dims`` (2 or 3) principal components."""
        self.check_words(words)
        if len(words) < 2:
            raise BadRequest(400, "a projection needs at least two words")
        matrix = np.array([self.vectors.unit_vector(w) for w in words], dtype=np.float64)
        centred = matrix - matrix.mean(axis=0)
        _, _, components = np.linalg.svd(centred, full_matrices=False)
        points = centred @ components[:dims].T
        points = np.pad(points, ((0, 0), (0, dims - points.shape[1])))
        placed = [{"word": w, "coordinates": p.tolist()} for w, p in zip(words, points)]
        return {"model": self.name, "method": "pca", "points": placed}

    def predict(self, text: str, k: int) -> dict:
        if self.classifier is None:
            raise BadRequest(400, f"model {self.name!r} is not a classifier")
        found = self.classifier.predict(text, k=min(k, len(self.classifier.labels)))
        return {"model": self.name, "text": text,
                "labels": [{"label": label, "probability": p} for label, p in found]}  # fmt: skip

    def infer(self, text: str, k: int) -> dict:
        """A doc2vec model's vector for ``text`` (its words as the model splits them) and the
        ``k`` training documents nearest to it."""
        if self.model is None:
            raise BadRequest(400, f"model {self.name!r} is not a doc2vec model")
        vector = self.model.infer_vector(text.split())
        documents = self.model.dv
        found = documents.most_similar([vector], topn=min(k, len(documents)))
        return {"model": self.name, "text": text, "vector": vector.astype(float).tolist(),
                "documents": [{"tag": t, "similarity": s} for t, s in found]}  # fmt: skip

    def check_words(self, words: list[str]) -> None:
        """:class:`BadRequest` 404 for the first word without a vector, with the known words
        closest to it in spelling."""
        for word in words:
            if word not in self.vectors:
                raise BadRequest(404, f"'{word}' is not in {self.name}'s vocabulary",
                                 closest=self.closest(word))  # fmt: skip

    def closest(self, word: str, count: int = 5) -> list[str]:
        """Known words spelled most like ``word``: its lowercase form, then the nearest by
        difflib's ratio among the words that share its first letters."""
        found = [word.lower()] if word.lower() != word and word.lower() in self.vectors else []
        for length in (3, 2, 1):
            at = bisect.bisect_left(self._sorted_words, word[:length])
            pool = [w for w in self._sorted_words[at : at + _SPELLING_CANDIDATES]
                    if w.startswith(word[:length])]  # fmt: skip
            if pool:
                break
        found += difflib.get_close_matches(word, pool, n=count, cutoff=0.5)
        return list(dict.fromkeys(found))[:count]

    @cached_property
    def _sorted_words(self) -> list[str]:
        return sorted(self.vectors.index)


def loaded(paths: list[Path], *, use_index: bool = True) -> dict[str, Served]:
    """The models at ``paths`` by name (each file's name, made unique with ``-2``...)."""
    models: dict[str, Served] = {}
    for path in paths:
        name, n = path.name, 1
        while name in models:
            n += 1
            name = f"{path.name}-{n}"
        try:
            models[name] = Served.load(path, name, use_index=use_index)
        except WordvecError as exc:
            raise WordvecError(f"{path}: {exc}") from None
    return models
