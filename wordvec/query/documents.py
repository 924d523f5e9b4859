"""A paragraph-vector model's documents: their trained vectors as keyed vectors, and vectors
inferred for new text (gensim's ``Doc2Vec.dv`` and ``infer_vector``).

Inference trains a fresh row for each new document with the words' vectors and the output layer
frozen (:func:`wordvec.kernels.documents.infer_documents`), for the model's epochs unless told
otherwise, in blocks of lines on every core. A document's row starts from the seed and its
words; its noise words are drawn from the seed and its block's place, so one seed gives the
same vectors whatever the thread count.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from wordvec.corpus.vocab import Vocabulary
from wordvec.errors import ConfigError, TrainingDiverged, UnknownWord, shown
from wordvec.options import DOC2VEC, default_min_alpha
from wordvec.query.vectors import Vectors
from wordvec.runtime.memory import own_cache_lines
from wordvec.runtime.parallel import available_cores, run_pool

if TYPE_CHECKING:
    from wordvec.kernels.losses import LossMemory, OutputLayer

BLOCK_LINES = 1024
"""Documents inferred in one task."""


class DocumentMemory(NamedTuple):
    """One thread's working memory for inference."""

    hidden: np.ndarray  # float32 (the output layer's width,)
    grad: np.ndarray  # float32 (the output layer's width,)
    sentence: np.ndarray  # int32 (max_sentence_length,)
    loss: LossMemory  # with room for the frozen step's copies of the target rows
    rows: np.ndarray  # int32: the places of a concatenated window (PV-DM over it)


def document_memory(out: OutputLayer, max_sentence_length: int, places: int) -> DocumentMemory:
    """A thread's memory for :func:`~wordvec.kernels.documents.infer_documents`, with room for
    a concatenated window of ``places`` rows."""
    from wordvec.corpus.output_layer import loss_memory

    dim = out.w_out.shape[1]
    return DocumentMemory(
        own_cache_lines(dim, np.float32), own_cache_lines(dim, np.float32),
        own_cache_lines(max_sentence_length, np.int32), loss_memory(out, dim, frozen=True),
        own_cache_lines(places, np.int32),
    )  # fmt: skip


class DocumentVectors(Vectors):
    """Vectors keyed by documents' tags: a key they lack is named as a tag, not a word."""

    def id_of(self, word: str) -> int:
        row = self.row_of(word)
        if row is None:
            raise UnknownWord(
                f"{shown(word)} is not a document's tag (the {len(self):,} documents are tagged "
                f"0 to {len(self) - 1}: by line, or as document_tags numbered them)"
            )
        return row


def document_vectors(doc_vectors: np.ndarray) -> Vectors:
    """The trained documents' vectors, keyed by their tags (line numbers, or the numbers of
    ``document_tags``, from 0)."""
    tags = [str(line) for line in range(len(doc_vectors))]
    return DocumentVectors(tags, doc_vectors, np.ones(len(tags), dtype=np.int64))


def infer_vectors(
    vocab: Vocabulary,
    word_vectors: np.ndarray,
    settings: dict,
    arrays: dict[str, np.ndarray],
    documents: Iterable[Sequence[str]],
    *,
    epochs: int | None = None,
    alpha: float | None = None,
    min_alpha: float | None = None,
    threads: int | None = None,
    seed: int | None = None,
) -> np.ndarray:
    """A vector for each document (a list of words; words the model does not know are left
    out) of a doc2vec model (its ``vocab``, ``word_vectors``, ``settings`` and ``arrays``): a
    (documents, dim) float32 matrix. ``epochs``, ``alpha`` and ``min_alpha`` default to the
    model's."""
    from wordvec.corpus.output_layer import build_output_layer  # numba: only when inferring
    from wordvec.kernels.documents import infer_documents, start_documents
    from wordvec.kernels.rng import seed_state
    from wordvec.kernels.windows import PV_DBOW, PV_DM, PV_DM_CONCAT, PV_DM_SUM, Sampling

    epochs = int(settings["epochs"]) if epochs is None else epochs
    alpha = float(settings["alpha"]) if alpha is None else alpha
    if min_alpha is None:  # the model's, as gensim's infer_vector does
        trained = settings.get("min_alpha")
        min_alpha = default_min_alpha(DOC2VEC, alpha) if trained is None else min(trained, alpha)
    if epochs < 1 or not 0 < alpha < 10 or not 0 <= min_alpha <= alpha:
        raise ConfigError(f"inference takes epochs >= 1 and 0 < min alpha <= alpha < 10, not "
                          f"{epochs}, {min_alpha:g}, {alpha:g}")  # fmt: skip
    dim = int(word_vectors.shape[1])  # the documents' rows; the output layer keeps its width
    out = build_output_layer(
        settings["loss"], vocab.counts, int(arrays["w_out"].shape[1]),
        negative=int(settings["negative"] or 0), ns_exponent=float(settings["ns_exponent"] or 0.75),
    )  # fmt: skip
    out = out._replace(w_out=np.ascontiguousarray(arrays["w_out"], dtype=np.float32))
    context = settings.get("context")
    if context == "concat":  # the pad row after the words'
        word_vectors = np.concatenate([word_vectors, arrays["pad_vector"]])
    w_in = np.ascontiguousarray(word_vectors, dtype=np.float32)
    sampling = Sampling(
        vocab.keep_probabilities(float(settings["sample"])), int(settings["window"]),
        int(settings["max_sentence_length"]),
    )  # fmt: skip
    model = PV_DBOW
    if settings["arch"] == "dm":
        model = {"sum": PV_DM_SUM, "concat": PV_DM_CONCAT}.get(context, PV_DM)
    ids, starts = _encode(vocab, documents, bool(settings.get("lowercase")))
    n_docs = len(starts) - 1
    longest = int(np.diff(starts).max(initial=1))  # a damaged file's length must not size it
    sampling = sampling._replace(max_sentence_length=min(sampling.max_sentence_length, longest))
    vectors = np.empty((n_docs, dim), dtype=np.float32)
    seed = int(settings.get("seed", 1)) if seed is None else seed

    local = threading.local()

    def infer_block(first: int) -> None:
        if not hasattr(local, "memory"):
            places = 2 * sampling.window + 1
            local.memory = document_memory(out, sampling.max_sentence_length, places)
        last = min(first + BLOCK_LINES, n_docs)
        rows = np.empty((last - first, dim), dtype=np.float32)
        start_documents(
            ids, starts[first : last + 1], np.uint64(seed % 2**64), local.memory.loss.rng, rows
        )
        local.memory.loss.rng[0] = seed_state(seed, 0, first)
        infer_documents(
            ids[starts[first] : starts[last]], epochs, alpha, min_alpha, model, w_in, rows, out,
            sampling, local.memory,
        )  # fmt: skip
        vectors[first:last] = rows

    run_pool(infer_block, list(range(0, n_docs, BLOCK_LINES)), threads or available_cores())
    if not np.isfinite(vectors).all():
        raise TrainingDiverged(
            "inference gave NaN or infinite values: the model's weights are damaged, or its "
            "--alpha is too high for them"
        )
    return vectors


def _encode(
    vocab: Vocabulary, documents: Iterable[Sequence[str]], lowercase: bool
) -> tuple[np.ndarray, np.ndarray]:
    """The documents as word ids, each ended by -1, and where each starts (one more entry: the
    end)."""
    index = vocab.index
    ids: list[int] = []
    starts = [0]
    for words in documents:
        if isinstance(words, str):
            raise ConfigError("a document is a list of words, not a string: split it first")
        if lowercase:
            words = [word.lower() for word in words]
        ids.extend(index[word] for word in words if word in index)
        ids.append(-1)
        starts.append(len(ids))
    return np.array(ids, dtype=np.int32), np.array(starts, dtype=np.int64)
