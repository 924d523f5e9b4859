"""The window loop of skip-gram and CBOW, shared by word2vec and fastText.

One loop serves both models, so the window step is written once; the loss is
:func:`~wordvec.kernels.losses.loss_update`'s. A word's input vector is the
mean of its rows in ``w_in``, listed by ``InputRows`` (CSR): for word2vec each word has one row,
its own; for fastText its own row plus its character n-gram buckets. After the output layer's
update, the gradient is added to each of those rows (as word2vec does for CBOW and fastText for
both). A call processes one job, a slice of the id stream, with the learning rate decaying
linearly from ``alpha_start`` to ``alpha_end`` across it.
"""

from functools import cache
from typing import NamedTuple

import numpy as np
from numba import njit

from wordvec.kernels import FASTMATH
from wordvec.kernels.concat import concat_steps, concat_tags
from wordvec.kernels.copies import MERGE, START, RowCopies, job_copies, out_copies
from wordvec.kernels.logistic import shared_logistic_updates
from wordvec.kernels.losses import (
    NEGATIVE_SAMPLING,
    LossMemory,
    add_targets,
    first_noise,
    sampled_loss_update,
)
from wordvec.kernels.prefetch import prefetch_row
from wordvec.kernels.rng import rand_below, rand_unit
from wordvec.kernels.rows import add_locked_rows, add_to_rows, mean_of_rows

SKIP_GRAM = 0
"""Skip-gram, one SGD step per (centre, context word) pair."""
CBOW = 1
"""CBOW: the mean of the window's input rows predicts the centre."""
SKIP_GRAM_SHARED_TARGETS = 2
"""Skip-gram, one SGD step per window (pWord2Vec's HogBatch): the context words predict the
centre and share its logistic targets, one draw of noise words or the centre's Huffman path."""
PV_DBOW = 3
"""Paragraph vectors, distributed bag of words: a line's document row predicts each of its
words, one SGD step per word."""
PV_DBOW_WORDS = 4
"""PV-DBOW, and skip-gram over the words in the same pass (gensim's ``dbow_words=1``)."""
PV_DM = 5
"""Paragraph vectors, distributed memory: CBOW whose window holds the document's row too."""
CBOW_SUM = 6
"""CBOW with the sum of the window's input rows (gensim's ``cbow_mean=0``): each row then gets
the step divided by their number."""
PV_DM_SUM = 7
"""PV-DM with the sum (gensim's ``dm_mean=0``), as ``CBOW_SUM``."""
PV_DBOW_SHARED_TARGETS = 8
"""PV-DBOW, and skip-gram over the words as ``SKIP_GRAM_SHARED_TARGETS`` in the same pass."""
PV_DM_CONCAT = 9
"""PV-DM over the concatenation of the line's document rows and the window's word rows, each
in its place (gensim's ``dm_concat=1``; :mod:`wordvec.kernels.concat`)."""

CBOW_MODELS = (CBOW, PV_DM, CBOW_SUM, PV_DM_SUM)
"""The models whose window's mean (or sum) predicts the centre."""
SUMMED_MODELS = (CBOW_SUM, PV_DM_SUM)
"""The models that sum the window's rows instead of taking their mean."""
BAG_OF_WORDS_MODELS = (PV_DBOW, PV_DBOW_WORDS, PV_DBOW_SHARED_TARGETS)
"""The models whose document rows predict each word of their line."""
SHARED_TARGETS_MODELS = (SKIP_GRAM_SHARED_TARGETS, PV_DBOW_SHARED_TARGETS)
"""The models that train the words' skip-gram a step a window (shared targets)."""
DOCUMENT_IN_WINDOW_MODELS = (PV_DM, PV_DM_SUM)
"""The models whose windows hold the line's document rows too."""
PAIR_MODELS = (SKIP_GRAM, *CBOW_MODELS, PV_DBOW_WORDS)
"""The models that take a step for each word a window predicts (skip-gram by pairs, CBOW)."""


LOSS_EXACT = 256
"""The window loop computes the loss of each of a job's first this many predictions, and of every
:data:`LOSS_SAMPLE`-th after them."""
LOSS_SAMPLE = 8
"""A job's loss, past its first :data:`LOSS_EXACT` predictions, is that of a sample of one
prediction in this many, scaled to all of them (the one-prediction steps of CBOW, PV-DM,
skip-gram by pairs and PV-DBOW's document steps; the step itself is taken for every prediction
alike). The loss, which the progress bar and the report show and no update needs, cost CBOW
5-7% of its training time and PV-DBOW 6% (1 thread, 1M words, paired median of eight
alternating runs); the sample's estimate of a 10,000-word job's mean loss is within ~0.1% of
the whole (2.5742 against 2.5712 for an epoch of CBOW on 2M tokens)."""


_NO_LOCKS = np.zeros(0, dtype=np.float32)


class InputRows(NamedTuple):
    """Rows of ``w_in`` that make a word's input vector: ``idx[ptr[w]:ptr[w + 1]]``.

    ``own`` says that each word's input is its own row alone (``idx[ptr[w]] == w``, word2vec):
    the window loop then takes the row from the word and reads neither table, whose entries
    for the words of the text, scattered over 800 KB for 68k words, missed the cache often
    (9% of CBOW's time in samples of a profile).
    """

    ptr: np.ndarray  # int64 (V + 1,)
    idx: np.ndarray  # int32
    own: bool
    locks: np.ndarray = _NO_LOCKS  # float32 (rows of w_in,), or empty: see below

    @property
    def locked(self) -> bool:
        """Whether each row of ``w_in`` takes ``locks[row]`` of its steps (gensim's
        ``vectors_lockf``: 0 keeps the row as it is); else every row takes its whole step."""
        return self.locks.shape[0] > 0


_NO_DOCUMENTS = np.zeros(0, dtype=np.int64)
_NO_STARTS = np.zeros(1, dtype=np.int64)


class Sampling(NamedTuple):
    """How a job's id stream becomes training windows (and, for paragraph vectors, which
    documents' rows each line trains: ``documents[document_starts[l]:document_starts[l + 1]]``
    for line ``l``, its tags' rows, one or more, or none; :func:`window_job` refuses the rows
    without their starts, with which no document step would be trained)."""

    keep: np.ndarray  # float32 (V,), subsampling keep probabilities
    window: int  # maximum reach; each centre draws its reach uniformly from 1..window
    max_sentence_length: int  # longer lines are cut into pieces of this many words
    documents: np.ndarray = _NO_DOCUMENTS  # int64: the lines' document rows of w_in, in turn
    document_starts: np.ndarray = _NO_STARTS  # int64 (lines + 1,): each line's first in them


class WindowMemory(NamedTuple):
    """One thread's working memory."""

    hidden: np.ndarray  # float32 (dim,)
    grad: np.ndarray  # float32 (dim,)
    sentence: np.ndarray  # int32 (max_sentence_length,)
    rows: np.ndarray  # int32, room for the input rows of a whole CBOW window
    predict: np.ndarray  # int32 (2 * window,), the words one window predicts
    loss: LossMemory  # the loss step's (its rng is the thread's generator)
    line: np.ndarray  # int64 (1,): the line the job is at (paragraph vectors: its document)
    # shared negatives only (else empty):
    span: np.ndarray  # float32 (2 * window + 2, dim): input vectors of the positions in reach
    span_grads: np.ndarray  # float32 (2 * window + 2, dim): their summed steps since loaded
    slots: np.ndarray  # int32 (2 * window,): a window's inputs, as rows of span
    input_grads: np.ndarray  # float32 (2 * window, dim): their steps while a window sums them
    flat_labels: np.ndarray  # float32 (2 * window * targets): the label of each score
    copies: RowCopies  # the job's own copies of the rows nearly every step writes


@njit(cache=True, nogil=True, _nrt=False)
def next_sentence(ids, pos, keep, max_length, sentence, rng):
    """Read one sentence from ``ids[pos:]``, dropping subsampled words, into ``sentence``.

    Returns ``(new_pos, kept, read)``: a sentence ends at SENTENCE_END (negative id) or after
    ``max_length`` words read.
    """
    kept = 0
    read = 0
    while pos < ids.shape[0] and read < max_length:
        word = ids[pos]
        pos += 1
        if word < 0:
            break
        read += 1
        p = keep[word]
        if p < 1.0 and p < rand_unit(rng):
            continue
        sentence[kept] = word
        kept += 1
    return pos, kept, read


@njit(cache=True, nogil=True, inline="always")
def _prefetch_input_rows(w_in, ptr, idx, own, word):
    """Start loading the rows of ``w_in`` that make ``word``'s input vector."""
    if own:
        prefetch_row(w_in, word, True)
        return
    for r in range(ptr[word], ptr[word + 1]):
        prefetch_row(w_in, idx[r], True)


@njit(cache=True, nogil=True, inline="always")
def _list_input_rows(word, ptr, idx, own, rows, n_rows):
    """Append the rows of ``w_in`` that make ``word``'s input vector to ``rows`` from position
    ``n_rows``; return the new count."""
    if own:
        rows[n_rows] = word
        return n_rows + 1
    for r in range(ptr[word], ptr[word + 1]):
        rows[n_rows] = idx[r]
        n_rows += 1
    return n_rows


def window_job(ids, job_words, alpha_start, alpha_end, model, w_in, inputs, out, sampling, memory):
    """Train ``model`` over one job, a slice of the id stream; return ``(loss_sum,
    predictions, words read, words kept by subsampling)``: the kernel compiled for ``model``,
    ``out``'s loss and ``inputs``' kind of rows (:func:`window_kernel`, which says what it
    does)."""
    job = window_kernel(*window_steps(model), out.kind, inputs.own, inputs.locked)
    return job(ids, job_words, alpha_start, alpha_end, model, w_in, inputs, out, sampling, memory)


def window_steps(model: int) -> tuple[bool, bool, bool, bool]:
    """Which steps ``model`` takes, as :func:`window_kernel` is compiled for them:
    ``(by_documents, by_windows, by_pairs, by_places)``: its document rows predict their
    line's words, its words' skip-gram takes a step a window (shared targets), a step a
    predicted word, or a step a word from its concatenated window."""
    return (model in BAG_OF_WORDS_MODELS, model in SHARED_TARGETS_MODELS, model in PAIR_MODELS,
            model == PV_DM_CONCAT)  # fmt: skip


@cache
def window_kernel(by_documents: bool, by_windows: bool, by_pairs: bool, by_places: bool,
                  kind: int, own: bool, locked: bool):  # fmt: skip
    """The window loop compiled for the steps of a model (:func:`window_steps`), one loss
    ``kind`` (the output layer's) and one kind of input rows (``own``, the inputs'
    :class:`InputRows`): ``job(ids, job_words, alpha_start, alpha_end, model, w_in, inputs,
    out, sampling, memory)`` trains ``model`` over one job, a slice of the id stream, and
    returns ``(loss_sum, predictions, words)``.

    For each kept word of each sentence, draw a reach from 1..window. ``model`` says what is
    predicted from what:

    - ``SKIP_GRAM``: each word in the window from the centre's input, one SGD step per word.
      (word2vec predicts the centre from each context word instead; the pairs trained on are
      the same in distribution.)
    - ``CBOW``: the centre from the mean of the window's input rows, one step.
    - ``SKIP_GRAM_SHARED_TARGETS``: the centre from each context word's input, as word2vec,
      with one step for all the window's pairs, which share the centre's targets: one draw of
      noise words, or the centre's Huffman path (:func:`shared_targets_sentence`).
    - ``PV_DBOW``: each word from each of its line's document rows (``sampling``'s for
      ``memory.line``, the job's first line, counted on at each line's end); ``PV_DBOW_WORDS``
      then trains the words as ``SKIP_GRAM``, ``PV_DBOW_SHARED_TARGETS`` as
      ``SKIP_GRAM_SHARED_TARGETS``; ``PV_DM``: as ``CBOW``, the window's rows and the
      line's document rows. ``CBOW_SUM`` and ``PV_DM_SUM``: with the sum of the rows, each
      row then given the step divided by their number (gensim's ``cbow_mean=0``).
      ``PV_DM_CONCAT``: the centre from the line's document rows and its window's rows, each in
      its place of a wider hidden vector (:func:`~wordvec.kernels.concat.concat_steps`; ``w_in``
      ends with the pad row, ``memory.hidden`` and ``grad`` are the output layer's width).

    In the first two, each step is :func:`~wordvec.kernels.losses.loss_update`'s, and its
    gradient is added to each input row after it; its loss is computed for a sample of the
    steps (:data:`LOSS_SAMPLE`), PV-DBOW's document steps among them (the shared-targets
    window step computes its own). Negative sampling draws each prediction's noise words one
    prediction ahead, so that their rows load meanwhile. With ``memory.copies`` set, the
    copied rows (the most frequent words', or the Huffman tree's upper nodes) are trained as
    the job's own copies, merged into the shared rows every ``merge_words`` words, at a
    sentence's end, and at the job's end (:mod:`wordvec.kernels.copies`).

    With ``locked`` (the inputs' ``locks``, gensim's ``vectors_lockf``; word2vec's steps), each
    input row takes its lock factor's share of each step.

    The steps, ``kind``, ``own`` and ``locked`` are constants of the compiled function (the
    closure's), so that numba prunes the other steps' and losses' branches before it compiles
    them: a skip-gram run compiles the window step with its loss, not the full softmax, one-vs-all,
    the steps of pairs or of documents, nor fastText's subword rows
    (:mod:`wordvec.kernels.specialize`). Numba's cache keeps each combination apart (its key
    holds a closure's constants). The models of one set of steps differ in a few cheap
    branches (CBOW or skip-gram's pairs, a mean or a sum, documents in the window), taken at
    run time: one kernel serves them, compiled once.
    """
    words_untrained = not by_windows and not by_pairs and not by_places  # PV-DBOW alone

    @njit(cache=True, nogil=True, fastmath=FASTMATH, error_model="numpy", _nrt=False)
    def job(ids, job_words, alpha_start, alpha_end, model, w_in, inputs, out, sampling, memory):
        cbow = model in CBOW_MODELS
        summed = model in SUMMED_MODELS
        in_every_window = model in DOCUMENT_IN_WINDOW_MODELS
        # Tuple fields are read once here, never in the loops.
        ptr, idx = inputs.ptr, inputs.idx
        keep, window, max_length = sampling.keep, sampling.window, sampling.max_sentence_length
        w_out = out.w_out
        hidden, grad, sentence = memory.hidden, memory.grad, memory.sentence
        rows, predict, losses = memory.rows, memory.predict, memory.loss
        rng = losses.rng
        copies = memory.copies
        copies_at = copies.at[0]
        copied = copies.in_base.shape[0] if copies_at else 0  # words 0..copied-1 train on copies
        out_copied = out_copies(copies)
        merge_words = copies.merge_words if copies_at else 0
        documents, starts, line = sampling.documents, sampling.document_starts, memory.line
        if starts[starts.shape[0] - 1] != documents.shape[0]:  # rows given without their starts
            raise ValueError("Sampling's document_starts do not end at its documents' length")
        paragraphs = starts.shape[0] > 1

        loss = 0.0
        predictions = 0
        steps = 0  # the window steps below, whose loss is sampled
        sampled = 0
        sampled_loss = 0.0
        done = 0
        kept = 0
        unmerged = 0
        pos = np.int64(0)  # not a literal 0: numba would compile next_sentence for it too
        job_copies(w_in, w_out, copies, START)
        first_noise(kind, out, losses, out_copied, True)
        while pos < ids.shape[0]:
            alpha = alpha_start + (alpha_end - alpha_start) * (done / max(job_words, 1))
            if merge_words and unmerged >= merge_words:  # the copies' changes, to the shared rows
                job_copies(w_in, w_out, copies, MERGE)
                unmerged = 0
            pos, n, read = next_sentence(ids, pos, keep, max_length, sentence, rng)
            done += read
            kept += n
            unmerged += read
            n_documents = 0  # the line's document rows, listed first in rows
            if paragraphs:
                first = starts[line[0]]
                n_documents = starts[line[0] + 1] - first
                for t in range(n_documents):
                    rows[t] = documents[first + t]
                if ids[pos - 1] < 0:  # the line ended: the next sentence is the next line's
                    line[0] += 1
            if copied:
                for k in range(n):
                    if sentence[k] < copied:
                        sentence[k] += copies_at
            if by_documents:  # each document row predicts each word
                for t in range(n_documents):
                    doc_loss, doc_sampled = document_steps(
                        kind, out, losses, w_in, rows, t, hidden, grad, alpha, sentence, n,
                        out_copied, steps,
                    )  # fmt: skip
                    sampled_loss += doc_loss
                    sampled += doc_sampled
                    steps += n
                predictions += n * n_documents
            if words_untrained:
                continue
            if by_places:  # the lines of another number of documents train nothing (gensim's)
                tags = concat_tags(hidden, w_in.shape[1], window)
                if n_documents == tags:
                    concat_loss, concat_sampled = concat_steps(
                        kind, out, losses, w_in, rows, window, hidden, grad, alpha, sentence, n,
                        steps, LOSS_SAMPLE, LOSS_EXACT,
                    )  # fmt: skip
                    sampled_loss += concat_loss
                    sampled += concat_sampled
                    steps += n
                    predictions += n
                continue
            if by_windows:  # the words' skip-gram, a step a window
                sentence_loss, sentence_predictions = shared_targets_sentence(
                    kind, own, sentence, n, alpha, w_in, inputs, out, window, memory, locked
                )
                loss += sentence_loss
                predictions += sentence_predictions
                continue
            for i in range(n):
                if i + window + 1 < n:  # the rows of the word the next window brings in
                    word = sentence[i + window + 1]
                    _prefetch_input_rows(w_in, ptr, idx, own, word)
                    if kind == NEGATIVE_SAMPLING and not cbow:  # its output row, a skip-gram target
                        prefetch_row(w_out, word, True)
                if kind == NEGATIVE_SAMPLING and i + 1 < n:  # the next centre's, a target of CBOW
                    prefetch_row(w_out, sentence[i + 1], True)
                reach = window - rand_below(rng, window)
                n_rows = 0
                n_predict = 0
                if cbow:
                    n_rows = n_documents if in_every_window else 0  # PV-DM: in every window
                    for j in range(max(0, i - reach), min(n, i + reach + 1)):
                        if j != i:
                            n_rows = _list_input_rows(sentence[j], ptr, idx, own, rows, n_rows)
                    if n_rows > 0:
                        predict[0] = sentence[i]
                        n_predict = 1
                else:
                    n_rows = _list_input_rows(sentence[i], ptr, idx, own, rows, n_rows)
                    for j in range(max(0, i - reach), min(n, i + reach + 1)):
                        if j != i:
                            predict[n_predict] = sentence[j]
                            n_predict += 1
                for p in range(n_predict):  # one SGD step per predicted word, as word2vec
                    mean_of_rows(w_in, rows, 0, n_rows, hidden)
                    if summed:
                        scale_vector(hidden, np.float32(n_rows))
                    step_loss, in_sample = sampled_loss_update(
                        kind, out, losses, hidden, grad, alpha, predict, p, out_copied, steps,
                        LOSS_EXACT, LOSS_SAMPLE,
                    )  # fmt: skip
                    steps += 1
                    sampled_loss += step_loss
                    sampled += in_sample
                    if summed:
                        scale_vector(grad, np.float32(1.0 / n_rows))
                    if locked:
                        add_locked_rows(w_in, rows, 0, n_rows, grad, inputs.locks)
                    else:
                        add_to_rows(w_in, rows, 0, n_rows, grad)
                predictions += n_predict
        job_copies(w_in, w_out, copies, MERGE)
        if sampled:  # the sample's loss, for all the window steps
            loss += sampled_loss * (steps / sampled)
        return loss, predictions, done, kept

    return job


@njit(cache=True, nogil=True, fastmath=FASTMATH, error_model="numpy", inline="always")
def document_steps(kind, out, losses, w_in, rows, at, hidden, grad, alpha, sentence, n, copies,
                   steps):  # fmt: skip
    """PV-DBOW: a document's row, ``rows[at]`` of ``w_in``, predicts each of the sentence's
    ``n`` words, one step of the loss each; return ``(loss, sampled)``: the summed loss of the
    steps in the job's sample of :func:`window_job` (``steps``: the job's sampled kind of steps
    before these; :data:`LOSS_SAMPLE`) and their number.

    Inlined into the window kernel of the models with document steps, with the loss ``kind``
    it is compiled for (:func:`window_kernel`). When it was a call of its own, that was
    because a second inlined copy of the loss in every kernel had made CBOW 5-10% slower;
    CBOW's kernel now holds none, and only PV-DBOW with word training holds two (its pairs'
    and this one's; its speed was not measured apart). A call a word (the loss as its own
    function) made PV-DBOW 1.19x slower (four alternating rounds, 2M tokens).
    """
    loss = 0.0
    sampled = 0
    for i in range(n):
        mean_of_rows(w_in, rows, at, at + 1, hidden)
        step_loss, in_sample = sampled_loss_update(kind, out, losses, hidden, grad, alpha,
                                                   sentence, i, copies, steps + i, LOSS_EXACT,
                                                   LOSS_SAMPLE)  # fmt: skip
        loss += step_loss
        sampled += in_sample
        add_to_rows(w_in, rows, at, at + 1, grad)
    return loss, sampled


@njit(cache=True, nogil=True, fastmath=FASTMATH, inline="always")
def scale_vector(vector, factor):
    """``vector`` *= ``factor``, in place."""
    for k in range(vector.shape[0]):
        vector[k] *= factor


@njit(cache=True, nogil=True, fastmath=FASTMATH, error_model="numpy", inline="always")
def shared_targets_sentence(kind, own, sentence, n, alpha, w_in, inputs, out, window, memory,
                            locked):  # fmt: skip
    """Skip-gram with shared targets over one sentence of ``n`` kept words; return
    ``(loss_sum, predictions)``.

    For each centre, draw a reach from 1..window; the words within it predict the centre in one
    step against the same targets, one draw of noise words (negative sampling) or the centre's
    path (hierarchical softmax), :func:`~wordvec.kernels.losses.shared_logistic_updates`. Every
    word in a window so reads and writes each target row once, not once per context word.

    Each position's input vector (the mean of its word's rows) is computed once, when the
    position comes within reach of a centre, and kept in ``memory.span`` (a ring of 2 * window
    + 2 positions) while it is: each step it takes is added to the kept vector and to its sum,
    which goes to the word's rows once, when the position is out of reach. A word's rows are so
    read and written once per position instead of once per window it is in (6 times at window
    5), which for fastText's ~20 rows a word is most of the work. The same as updating the rows
    at each step, except that two positions in reach that share a row (a word seen twice,
    or two words with a common n-gram) see each other's steps only once they are out of reach.
    """
    ptr, idx = inputs.ptr, inputs.idx
    w_out = out.w_out
    points, code_lengths = out.points, out.code_lengths
    span, span_grads, slots = memory.span, memory.span_grads, memory.slots
    input_grads, flat_labels = memory.input_grads, memory.flat_labels
    losses = memory.loss
    targets, labels, dots, rng = losses.targets, losses.labels, losses.dots, losses.rng
    out_copied = out_copies(memory.copies)
    ring = span.shape[0]

    for position in range(min(window, n)):
        _load_position(sentence[position], position % ring, w_in, ptr, idx, own, span, span_grads)
    loss = 0.0
    predictions = 0
    for i in range(n):
        if i + window < n:
            entering = i + window
            _load_position(
                sentence[entering], entering % ring, w_in, ptr, idx, own, span, span_grads
            )
        if i - window - 1 >= 0:
            leaving = i - window - 1
            _store_position(sentence[leaving], leaving % ring, w_in, inputs, own, span_grads,
                            locked)  # fmt: skip
        if i + 1 < n:  # the next window's target rows, and the rows of the word it brings in
            if kind == NEGATIVE_SAMPLING:
                prefetch_row(w_out, sentence[i + 1], True)
            else:
                following = sentence[i + 1]
                for node in range(code_lengths[following]):
                    prefetch_row(w_out, points[following, node], True)
        if i + window + 1 < n:
            _prefetch_input_rows(w_in, ptr, idx, own, sentence[i + window + 1])

        reach = window - rand_below(rng, window)
        n_in = np.int64(0)  # not a literal 0: numba would compile the shared step for it too
        for j in range(max(0, i - reach), min(n, i + reach + 1)):
            if j != i:
                slots[n_in] = j % ring
                n_in += 1
        if n_in == 0:
            continue
        n_targets = add_targets(kind, out, losses, sentence[i], out_copied, True)
        loss += shared_logistic_updates(
            span, span_grads, slots, n_in, w_out, targets, labels, n_targets, input_grads, alpha,
            dots, flat_labels,
        )  # fmt: skip
        predictions += n_in
    for position in range(max(0, n - window - 1), n):
        _store_position(sentence[position], position % ring, w_in, inputs, own, span_grads,
                        locked)  # fmt: skip
    return loss, predictions


@njit(cache=True, nogil=True, fastmath=FASTMATH, inline="always")
def _load_position(word, slot, w_in, ptr, idx, own, span, span_grads):
    """Put ``word``'s input vector in ``span[slot]``, with no steps summed yet."""
    if own:
        for k in range(w_in.shape[1]):
            span[slot, k] = w_in[word, k]
    else:
        mean_of_rows(w_in, idx, ptr[word], ptr[word + 1], span[slot])
    for k in range(w_in.shape[1]):
        span_grads[slot, k] = 0.0


@njit(cache=True, nogil=True, fastmath=FASTMATH, inline="always")
def _store_position(word, slot, w_in, inputs, own, span_grads, locked):
    """Add the steps summed in ``span_grads[slot]`` to each of ``word``'s rows (their lock
    factors' share, ``locked``)."""
    ptr, idx = inputs.ptr, inputs.idx
    if locked:
        add_locked_rows(w_in, idx, ptr[word], ptr[word + 1], span_grads[slot], inputs.locks)
    elif own:
        for k in range(w_in.shape[1]):
            w_in[word, k] += span_grads[slot, k]
    else:
        add_to_rows(w_in, idx, ptr[word], ptr[word + 1], span_grads[slot])
