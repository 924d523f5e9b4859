"""Paragraph vectors (Le and Mikolov's Doc2Vec, gensim's ``Doc2Vec``): a vector for each line of
the corpus, trained by the window loop beside the words.

Each line is a document, tagged by its number (gensim's ``TaggedLineDocument``). Its row
follows the words' in the input matrix, so it is one more input row of the window loop, not a
loop of its own: PV-DBOW (``--arch dbow``) has the document's row predict each of its words,
as skip-gram has a word's; PV-DM (``--arch dm``) puts it in every CBOW window of the line
(``--context concat``: beside the window's words, each in its place of a wider hidden vector,
the sentence's ends padded with one more row, ``pad_vector``, gensim's null word). The
loss is the one update's, negative sampling or hierarchical softmax. The rows start uniform in
+-1/dim, as gensim 4 starts its words' and documents' (:data:`GENSIM_HALF_WIDTH`). The model
keeps the words' vectors, the output layer (which inference reads) and the documents' vectors
(``doc_vectors``). Continuing a model (``--init``) trains its documents further, line i of the
corpus document i.

In Python, :class:`DocumentTags` may say instead which documents each line is (gensim's
``TaggedDocument`` tags, numbered): one, several or none; a document on several lines. Each
of a line's documents is then one more input row: PV-DBOW has each predict the line's words,
PV-DM puts all of them in each window (gensim's).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

import numpy as np

from wordvec.corpus.encoded import EncodedCorpus
from wordvec.corpus.vocab import Vocabulary
from wordvec.errors import ConfigError
from wordvec.kernels.windows import (
    PV_DBOW,
    PV_DBOW_SHARED_TARGETS,
    PV_DBOW_WORDS,
    PV_DM,
    PV_DM_CONCAT,
    PV_DM_SUM,
)
from wordvec.model import Model
from wordvec.runtime.memory import narrow_rows
from wordvec.training.config import TrainConfig
from wordvec.training.weights import init_input_weights, init_line_rows, start_from_vectors
from wordvec.training.windows import continued_rows, own_rows, thread_copies, train_windows

GENSIM_HALF_WIDTH = 1.0
"""Rows start uniform in +-1/dim, as gensim 4's (word2vec's +-0.5/dim): on the cooking questions
(10 epochs, one thread) inferred vectors scored 0.372 against 0.343 (PV-DM) and 0.213 against
0.183 (PV-DBOW) with it, level with gensim's 0.363 and 0.223."""


class DocumentTags(NamedTuple):
    """Which documents each line of a doc2vec corpus trains: line ``l`` those numbered
    ``numbers[starts[l]:starts[l + 1]]``, of ``count`` documents (gensim's tags, numbered)."""

    numbers: np.ndarray  # int64
    starts: np.ndarray  # int64 (lines + 1,)
    count: int

    @classmethod
    def of_lines(cls, tags: Iterable[Sequence[int]], count: int | None = None) -> DocumentTags:
        """From each line's document numbers (0 <= number < ``count``; by default one more
        than the highest)."""
        lists = [np.asarray(line, dtype=np.int64).reshape(-1) for line in tags]
        starts = np.zeros(len(lists) + 1, dtype=np.int64)
        np.cumsum([len(line) for line in lists], out=starts[1:])
        numbers = np.concatenate(lists) if lists else np.zeros(0, dtype=np.int64)
        highest = int(numbers.max(initial=-1))
        count = highest + 1 if count is None else int(count)
        if numbers.size and (int(numbers.min()) < 0 or highest >= count):
            raise ConfigError(f"document_tags are document numbers from 0 to {count - 1}")
        return cls(numbers, starts, count)

    @classmethod
    def one_per_line(cls, lines: int) -> DocumentTags:
        """Line i is document i (gensim's ``TaggedLineDocument``)."""
        return cls(np.arange(lines, dtype=np.int64), np.arange(lines + 1, dtype=np.int64), lines)


def train_doc2vec(
    config: TrainConfig,
    vocab: Vocabulary,
    corpus: EncodedCorpus,
    *,
    init: Model | None = None,
    quiet: bool = False,
    document_tags: DocumentTags | None = None,
) -> Model:
    """Train paragraph vectors, one per line of ``corpus`` (or as ``document_tags`` says), with
    the words (continuing ``init``, a doc2vec model of at least as many documents, if given);
    ``config`` must be resolved."""
    n_words = len(vocab)
    inputs = own_rows(n_words)
    spare_rows = thread_copies(config, inputs, n_words).input_spare_rows(config.threads)
    lines = corpus.length - corpus.words  # an end marker a line, empty lines included
    tags = DocumentTags.one_per_line(lines) if document_tags is None else document_tags
    if len(tags.starts) - 1 != lines:
        raise ConfigError(
            f"document_tags gives the documents of {len(tags.starts) - 1:,} lines; the corpus "
            f"has {lines:,}"
        )
    counted = "lines" if document_tags is None else "tagged documents"
    kept = _continued_documents(init, tags.count, counted) if init is not None else None
    first_doc = n_words + spare_rows
    end_doc = first_doc + (tags.count if kept is None else len(kept))
    padded = config.context == "concat"  # the pad row after the documents'
    # each row in cache lines of its own, but the concatenated window's, placed side by side
    initial = init_input_weights if padded else init_line_rows
    weights = initial(end_doc + padded, config.dim, config.seed, GENSIM_HALF_WIDTH)
    vectors = weights[:, : config.dim]
    start_from_vectors(config, vocab, vectors[:n_words], quiet=quiet)
    if init is not None:
        vectors[continued_rows(vocab, init)] = init.vectors
        vectors[first_doc:end_doc] = kept
        if padded:
            vectors[end_doc] = init.arrays["pad_vector"][0]
    documents = (tags.numbers + first_doc, tags.starts)
    out, report = train_windows(
        config,
        vocab,
        corpus,
        weights,
        inputs,
        init=init,
        documents=documents,
        mode=_window_mode(config),
        quiet=quiet,
    )
    weights = narrow_rows(weights, config.dim)
    arrays = {"w_out": out.w_out, "doc_vectors": weights[first_doc:end_doc]}
    if padded:
        arrays["pad_vector"] = weights[end_doc:]
    return Model(vocab, weights[:n_words], settings=config.as_dict(), arrays=arrays, report=report)


def _window_mode(config: TrainConfig) -> int:
    """The window loop's mode for ``--arch`` (and ``--dbow-words``, ``--context``,
    ``--shared-negatives``)."""
    if config.arch == "dm":
        return {"sum": PV_DM_SUM, "concat": PV_DM_CONCAT}.get(config.context, PV_DM)
    if not config.dbow_words:
        return PV_DBOW
    return PV_DBOW_SHARED_TARGETS if config.shared_targets else PV_DBOW_WORDS


def _continued_documents(init: Model, n_docs: int, counted: str) -> np.ndarray:
    """``init``'s document vectors, which a corpus of at most as many documents continues
    (line i document i, unless tagged; the documents it does not train stay as they were)."""
    rows = init.arrays["doc_vectors"]
    if n_docs > len(rows):
        raise ConfigError(
            f"--init's model has {len(rows):,} document vectors and the corpus {n_docs:,} "
            f"{counted}: a doc2vec model continues its own documents, line i document i"
        )
    return rows
