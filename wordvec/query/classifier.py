"""A trained text classifier: the labels of a line, a test on labelled lines, sentence vectors.

What ``wordvec predict``, ``test`` and ``embed`` use, for a wordvec supervised model and for
fastText's own supervised ``.bin`` alike. A line's hidden vector is the mean of its input rows
(:func:`wordvec.kernels.supervised.line_rows`, as in training); the labels' probabilities are
the softmax of their scores, each label's sigmoid (negative sampling, one-vs-all), or the
product of the branch probabilities on its Huffman path (hierarchical softmax).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import islice

import numpy as np

from wordvec.corpus.huffman import build_huffman
from wordvec.corpus.labelled import EOS, LabelledVocabulary
from wordvec.corpus.text import get_converter, get_tokenizer
from wordvec.errors import ConfigError, FormatError
from wordvec.options import ReadingOptions

LOSSES = ("softmax", "ns", "hs", "ova")
BLOCK_LINES = 1024
"""Lines a test (or a prediction from a file) reads into one kernel call."""


@dataclass
class LabelScores:
    """One label's counts in a test: predicted, gold, and both (fastText's ``Meter``)."""

    predicted: int = 0
    gold: int = 0
    correct: int = 0

    @property
    def precision(self) -> float:
        return self.correct / self.predicted if self.predicted else float("nan")

    @property
    def recall(self) -> float:
        return self.correct / self.gold if self.gold else float("nan")

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if self.correct else float("nan")


@dataclass
class TestReport:
    """P@k and R@k over the lines that have labels, as fastText's ``test`` counts them."""

    examples: int = 0
    k: int = 1
    total: LabelScores = field(default_factory=LabelScores)
    labels: dict[str, LabelScores] = field(default_factory=dict)

    @property
    def precision(self) -> float:
        return self.total.precision

    @property
    def recall(self) -> float:
        return self.total.recall


class Classifier:
    """Labels for lines of text from a supervised model's weights.

    ``word_rows`` are the vocabulary's input rows, ``ngrams`` the bucket rows (None without
    n-grams), ``w_out`` the output rows of ``loss``. ``reading`` is how the model's training
    text became words (lowercased, converted, tokenized): its input is read the same way.
    ``name`` (the file's) names it in errors: weights that are not finite are a
    :class:`FormatError`, the output rows' when it is made, the input rows' (up to 800 MB of
    n-grams) in the lines that use them, so that no answer is NaN.
    """

    def __init__(
        self,
        dictionary: LabelledVocabulary,
        word_rows: np.ndarray,
        ngrams: np.ndarray | None,
        w_out: np.ndarray,
        loss: str,
        *,
        layer: tuple[np.ndarray, np.ndarray] | None = None,
        max_pool: bool = False,
        name: str = "the classifier",
        reading: ReadingOptions | None = None,
        quantized: bool = False,
    ):
        """``layer``: the hidden layer's (W, b) of a feed-forward classifier (``--hidden``),
        whose output layer sees tanh(W x + b) of the pooled rows x; ``max_pool``: the rows are
        pooled by their maximum in each dimension (``--pooling max``), not their mean; ``name``
        (its file's) names it in errors; ``quantized``: read from a quantized file (``.ftz``),
        its input rows decoded from their codes."""
        self.name = name
        self.quantized = quantized
        if not np.isfinite(w_out).all():
            raise self._not_finite()
        self.dictionary = dictionary
        self.layer = layer
        self.max_pool = max_pool
        self.word_rows = word_rows
        self.ngrams = ngrams
        self.w_out = w_out
        self.loss = loss
        reading = reading or ReadingOptions()
        self._lowercase = reading.lowercase
        self._convert = get_converter(reading.convert)
        self._tokenize = get_tokenizer(reading.tokenizer)
        self._tree = build_huffman(dictionary.labels.counts) if loss == "hs" else None

    @property
    def labels(self) -> list[str]:
        return self.dictionary.labels.words

    @property
    def dim(self) -> int:
        return self.word_rows.shape[1]

    def tokens(self, text: str) -> list[str]:
        """The words and labels of a line, read as the training text was."""
        if self._convert is not None:
            text = self._convert(text)
        return self._tokenize(text.lower() if self._lowercase else text)

    def sentence_vector(self, text: str) -> np.ndarray:
        """The hidden vector the output layer sees for ``text`` (the mean of its rows); what
        fastText's ``print-sentence-vectors`` prints for a supervised model."""
        return next(self.sentence_vectors([text]))

    def sentence_vectors(self, lines: Iterable[str], *, block: int = 1) -> Iterator[np.ndarray]:
        """:meth:`sentence_vector` for each line, read ``block`` lines at a time (as
        :meth:`predict_lines` reads them)."""
        for chunk in _blocks(lines, block):
            yield from self._read([self.tokens(line) for line in chunk])[0]

    def predict(self, text: str, k: int = 1, threshold: float = 0.0) -> list[tuple[str, float]]:
        """The ``k`` most probable labels of ``text`` with their probabilities, most probable
        first; those below ``threshold`` are left out."""
        return next(self.predict_lines([text], k, threshold))

    def predict_lines(
        self, lines: Iterable[str], k: int = 1, threshold: float = 0.0, *, block: int = 1
    ) -> Iterator[list[tuple[str, float]]]:
        """:meth:`predict` for each line, read ``block`` lines at a time (1, the default, answers
        each line of a pipe before the next is read; a file is faster in blocks)."""
        _check_threshold(threshold)
        for chunk in _blocks(lines, block):
            hidden, _ = self._read([self.tokens(line) for line in chunk])
            for probabilities in self.probabilities(hidden):
                yield self._top(probabilities, k, threshold)

    def test(self, lines: Iterable[str], k: int = 1, threshold: float = 0.0) -> TestReport:
        """Precision and recall at ``k`` over the labelled ``lines``, overall and per label."""
        _check_threshold(threshold)
        report = TestReport(k=k)
        per_label = {label: LabelScores() for label in self.labels}
        for chunk in _blocks(lines, BLOCK_LINES):
            hidden, golds = self._read([self.tokens(line) for line in chunk])
            for probabilities, gold in zip(self.probabilities(hidden), golds):
                if not gold:
                    continue
                predicted = [label for label, _ in self._top(probabilities, k, threshold)]
                report.examples += 1
                report.total.gold += len(gold)
                report.total.predicted += len(predicted)
                for label in predicted:
                    per_label[label].predicted += 1
                    if label in gold:
                        per_label[label].correct += 1
                        report.total.correct += 1
                for label in gold:
                    per_label[label].gold += 1
        report.labels = per_label
        return report

    def probabilities(self, hidden: np.ndarray) -> np.ndarray:
        """Every label's probability given a hidden vector (or one row of them per vector of a
        (lines, dim) matrix)."""
        scores = hidden.astype(np.float64) @ self.w_out.astype(np.float64).T
        if self.loss == "softmax":
            exp = np.exp(scores - scores.max(axis=-1, keepdims=True))
            return exp / exp.sum(axis=-1, keepdims=True)
        if self.loss in ("ns", "ova"):
            return 0.5 + 0.5 * np.tanh(0.5 * scores)  # the sigmoid; no overflow in exp
        codes, points, lengths = self._tree
        signs = np.where(codes == 0, 1.0, -1.0)  # word2vec's label 1 - code: sigmoid(+s) for 0
        log_branch = -np.logaddexp(0.0, -signs * scores[..., points])
        on_path = np.arange(codes.shape[1]) < lengths[:, None]
        return np.exp(np.where(on_path, log_branch, 0.0).sum(axis=-1))

    def _top(self, probabilities: np.ndarray, k: int, threshold: float) -> list[tuple[str, float]]:
        """The ``k`` most probable labels (every label for a negative ``k``, fastText's -1)
        at or above ``threshold``."""
        order = np.argsort(-probabilities, kind="stable")
        order = order[:k] if k >= 0 else order
        return [
            (self.labels[i], float(probabilities[i]))
            for i in order
            if probabilities[i] >= threshold
        ]

    def _read(self, lines: list[list[str]]) -> tuple[np.ndarray, list[list[str]]]:
        """The hidden vectors (lines, dim) and the known labels of lines of tokens, in one
        kernel call over the lines' distinct tokens."""
        from wordvec.kernels.supervised import line_means, rows_room

        distinct = list(dict.fromkeys(t for tokens in lines for t in tokens if t != EOS))
        position = {token: i for i, token in enumerate(distinct)}
        tables = self.dictionary.tables([*distinct, EOS])
        ids = np.array(
            [i for tokens in lines for i in (*(position[t] for t in tokens if t != EOS), -1)],
            dtype=np.int32,
        )
        most = max(len(tokens) for tokens in lines) + 1  # its words and the end-of-line word
        rows = np.zeros(rows_room(tables, most), np.int32)
        hidden = np.zeros((len(lines), self.dim), dtype=np.float32)
        label_ptr = np.zeros(len(lines) + 1, dtype=np.int64)
        labels = np.zeros(len(ids) + 1, dtype=np.int32)
        ngrams = self.ngrams if self.ngrams is not None else np.zeros((0, self.dim), np.float32)
        line_means(
            ids, tables, np.asarray(self.word_rows), np.asarray(ngrams), hidden, label_ptr,
            labels, rows, np.zeros(most, np.uint64), self.max_pool,
        )  # fmt: skip
        if not np.isfinite(hidden).all():
            raise self._not_finite()
        if self.layer is not None:
            weights, bias = self.layer
            hidden = np.tanh(hidden @ np.asarray(weights).T + bias).astype(np.float32)
        golds = [
            [self.labels[i] for i in labels[label_ptr[n] : label_ptr[n + 1]]]
            for n in range(len(lines))
        ]
        return hidden, golds

    def _not_finite(self) -> FormatError:
        return FormatError(f"{self.name} is corrupt: its weights hold NaN or infinite values")


def _check_threshold(threshold: float) -> None:
    """A probability threshold is a number from 0 to 1: NaN would leave out every label (and a
    test would report P@1 nan)."""
    if not 0 <= threshold <= 1:
        raise ConfigError(f"threshold must be a number from 0 to 1, not {threshold!r}")


def _blocks(lines: Iterable[str], size: int) -> Iterator[list[str]]:
    """``lines`` in lists of ``size`` (the last shorter)."""
    lines = iter(lines)
    while chunk := list(islice(lines, size)):
        yield chunk
