"""The ``fasttext`` Python package's API over wordvec: change ``import fasttext`` to
``from wordvec import fasttext`` and a fastText script runs on wordvec's kernels.

Names, arguments, defaults and return shapes are the ``fasttext`` package's (``lr``,
``epoch``, ``wordNgrams``; ``predict`` returns a tuple of labels and an array of
probabilities); the work is one call into wordvec's own API (:func:`wordvec.train`, the
model's classifier and vectors). Where the two differ:

- Errors are ``ValueError`` with wordvec's one-line message, as the package raises C++'s.
- An unsupervised model's dictionary lists ``</s>`` (fastText's end-of-line word) with the
  number of lines, as fastText's does; wordvec does not train a row for it (its row is zero).
- ``lrUpdateRate`` is accepted and has no effect: wordvec steps the learning rate per block.
- ``k=-1`` asks for every label, as in fastText's CLI.

Example::

    >>> from wordvec import fasttext
    >>> model = fasttext.train_supervised(input="cooking.train", epoch=25, lr=1.0, wordNgrams=2)
    >>> model.predict("which baking dish is best to bake a banana bread ?", k=3)
    >>> model.test("cooking.valid")  # (N, P@1, R@1)
"""

from __future__ import annotations

import os
import shutil
import tempfile
from functools import cached_property
from typing import Any

import numpy as np

from wordvec.corpus.labelled import EOS
from wordvec.errors import WordvecError
from wordvec.fasttext import util
from wordvec.fasttext.arguments import (
    AUTOTUNE,
    SEARCHED,
    SUPERVISED_DEFAULTS,
    SUPERVISED_ORDER,
    UNSUPERVISED_DEFAULTS,
    UNSUPERVISED_ORDER,
    applying_options,
    common_options,
    named_arguments,
    python_names,
    with_defaults,
)

BOW = "<"
EOW = ">"
_SEPARATORS = " \t\v\f\r\0"
_LOG_FLOOR = 1e-5
"""fastText ranks labels by log(p + 1e-5) and the package reports exp of that: p + 1e-5."""


def tokenize(text: str) -> list[str]:
    """fastText's tokens of ``text``: split at whitespace, each line end a ``</s>``."""
    tokens: list[str] = []
    for number, line in enumerate(text.split("\n")):
        if number:
            tokens.append(EOS)
        tokens += line.translate({ord(c): " " for c in _SEPARATORS}).split(" ")
    return [token for token in tokens if token]


def train_supervised(*positional: Any, **arguments: Any) -> _FastText:
    """Train a text classifier on ``input`` (fastText's ``train_supervised``; its arguments,
    :data:`SUPERVISED_DEFAULTS`, by name or in fastText's order)."""
    arguments = named_arguments(SUPERVISED_ORDER, positional, arguments)
    tuning = {AUTOTUNE[name]: arguments.pop(name) for name in list(arguments) if name in AUTOTUNE}
    if not tuning.get("autotune_model_size"):  # fastText's "": no size asked for
        tuning.pop("autotune_model_size", None)
    if tuning and not tuning.get("autotune_validation"):
        raise ValueError("the autotune arguments need autotuneValidationFile")
    input = arguments.pop("input")
    args = with_defaults(SUPERVISED_DEFAULTS, arguments)
    options = {**common_options(args), "loss": args["loss"]}
    if tuning:  # the search draws what the caller did not give
        searched = {ours for theirs, ours in SEARCHED.items() if theirs not in arguments}
        options = {name: value for name, value in options.items() if name not in searched}
        options.update(tuning)
    model = _trained(input, args, model="supervised", **options)
    if "autotune_model_size" in tuning:  # the best trial quantized to fit, as fastText ends
        model._quantize_to_size(input)
    return model


def train_unsupervised(*positional: Any, **arguments: Any) -> _FastText:
    """Train word vectors with subwords on ``input`` (fastText's ``train_unsupervised``;
    ``model`` is ``skipgram`` or ``cbow``; its arguments, :data:`UNSUPERVISED_DEFAULTS`, by
    name or in fastText's order: ``train_unsupervised("data.txt", "cbow")``)."""
    arguments = named_arguments(UNSUPERVISED_ORDER, positional, arguments)
    input = arguments.pop("input")
    args = with_defaults(UNSUPERVISED_DEFAULTS, arguments)
    if args["model"] not in ("skipgram", "cbow"):
        raise ValueError(f"model must be 'skipgram' or 'cbow', not {args['model']!r}")
    if args["wordNgrams"] != 1:
        raise ValueError("wordNgrams applies to supervised models")
    arch = "sg" if args["model"] == "skipgram" else "cbow"
    options = common_options(args)
    return _trained(input, args, model="fasttext", arch=arch, loss=args["loss"], **options)


def _trained(corpus: str, args: dict, **options) -> _FastText:
    from wordvec.training import train

    if args.get("label", "__label__") != "__label__" and options["model"] == "supervised":
        options["label"] = args["label"]
    if options["model"] == "supervised" and args["wordNgrams"] > 1:
        options["word_ngrams"] = args["wordNgrams"]
    try:
        model = train(corpus, **applying_options(options))
    except WordvecError as exc:
        raise ValueError(python_names(str(exc))) from None
    lines = _line_count(corpus) if options["model"] != "supervised" else None
    return _FastText(model=model, args=args, lines=lines)


def _line_count(path: str) -> int:
    """The lines of ``path``: the count of fastText's ``</s>`` in an unsupervised model."""
    from wordvec.corpus.sources import text_lines

    return sum(1 for _ in text_lines(path))


def load_model(path: str) -> _FastText:
    """A wordvec model file or a fastText ``.bin`` (a classifier's, or word vectors')."""
    from wordvec.formats import detect_format, load_classifier, load_vectors
    from wordvec.model import Model

    try:
        if detect_format(path) == "model":
            return _FastText(model=Model.load(path), args={})
        try:
            return _FastText(classifier=load_classifier(path), args={}, source=path)
        except WordvecError:
            return _FastText(vectors=load_vectors(path), args={}, source=path)
    except WordvecError as exc:
        raise ValueError(str(exc)) from None


class _FastText:
    """A trained or loaded model, with the ``fasttext`` package's methods."""

    def __init__(self, *, args: dict, model=None, classifier=None, vectors=None, lines=None,
                 source: str | None = None):  # fmt: skip
        self._model = model
        self._quantized = None  # the folder of the .ftz that quantize wrote
        self._vectors = vectors
        self._source = source
        self._lines = lines
        if model is not None and model.settings.get("model") == "supervised":
            classifier = model.classifier
        self._classifier = classifier
        for name, value in args.items():
            if name != "model":
                setattr(self, name, value)

    # --- the dictionary and the input rows, as fastText lays them out

    @property
    def _supervised(self) -> bool:
        return self._classifier is not None

    @cached_property
    def _dictionary(self) -> tuple[list[str], np.ndarray]:
        """The words and their counts, most frequent first, ``</s>`` among them (counted once
        a line) where the lines reach the minimum count."""
        if self._supervised:
            vocab = self._classifier.dictionary.words
            return list(vocab.words), np.asarray(vocab.counts)
        if self._model is None:
            counts = self._vectors.counts
            words = list(self._vectors.words)
            return words, np.asarray(counts if counts is not None else np.zeros(len(words)))
        words, counts = list(self._model.vocab.words), np.asarray(self._model.vocab.counts)
        eos_count = self._lines or 0
        if eos_count < int(self._model.settings.get("min_count", 1)):  # as any word, fastText's
            return words, counts
        at = int(np.searchsorted(-counts, -eos_count, side="left"))
        return words[:at] + [EOS] + words[at:], np.insert(counts, at, eos_count)

    @cached_property
    def _index(self) -> dict[str, int]:
        return {word: i for i, word in enumerate(self._dictionary[0])}

    @cached_property
    def _subword_settings(self) -> tuple[int, int, int]:
        """(minn, maxn, bucket) of the character n-grams (maxn 0: none)."""
        if self._supervised:
            d = self._classifier.dictionary
            return d.minn, d.maxn, d.bucket
        if self._model is None:
            vectors = self._vectors
            return (
                getattr(vectors, "minn", 0),
                getattr(vectors, "maxn", 0),
                getattr(vectors, "bucket", 0),
            )
        settings = self._model.settings
        maxn = int(settings.get("maxn", 0))
        bucket = len(self._model.arrays["ngrams"]) if "ngrams" in self._model.arrays else 0
        return int(settings.get("minn", 0)), maxn, bucket

    @cached_property
    def _rows(self) -> tuple[np.ndarray, np.ndarray]:
        """The word rows (one per dictionary word) and the bucket rows."""
        dim = self.get_dimension()
        if self._supervised:
            ngrams = self._classifier.ngrams
            empty = np.zeros((0, dim), np.float32)
            return np.asarray(self._classifier.word_rows), empty if ngrams is None else ngrams
        if self._model is None:  # fastText's own .bin: its rows as stored
            from wordvec.formats.fasttext_bin import read_fasttext_input

            words, matrix = read_fasttext_input(self._source)
            return matrix[: len(words)], matrix[len(words) :]
        arrays = self._model.arrays
        own = np.asarray(arrays.get("word_rows", self._model.vectors), dtype=np.float32)
        return self._with_eos_row(own), arrays.get("ngrams", np.zeros((0, dim), np.float32))

    def _with_eos_row(self, rows: np.ndarray) -> np.ndarray:
        """A trained model's ``rows`` (one a word of its vocabulary), with a zero row for
        ``</s>`` where the dictionary lists it (wordvec trains no row for it)."""
        at = self._index.get(EOS)
        return rows if at is None else np.insert(rows, at, 0.0, axis=0)

    def set_matrices(self, input_matrix: np.ndarray, output_matrix: np.ndarray) -> None:
        """Replace a word vector model's input rows (words, then buckets) and output rows, as
        :func:`util.reduce_model` does; :meth:`save_model` writes them."""
        if self._supervised:
            raise ValueError("set_matrices applies to word vector models")
        inputs, outputs = (np.asarray(m, dtype=np.float32) for m in (input_matrix, output_matrix))
        words, buckets = len(self._dictionary[0]), len(self._rows[1])
        if inputs.ndim != 2 or inputs.shape[0] != words + buckets or outputs.ndim != 2 or (
                outputs.shape[1] != inputs.shape[1]):  # fmt: skip
            raise ValueError(f"set_matrices needs {words + buckets} input rows and output rows "
                             "of the same width")  # fmt: skip
        self.__dict__["_rows"] = (inputs[:words], inputs[words:])
        self.__dict__["_output"] = outputs
        self.__dict__.pop("_word_vectors", None)

    def get_dimension(self) -> int:
        """The dimension of the vectors."""
        if "_rows" in self.__dict__:
            return self._rows[0].shape[1]
        if self._supervised:
            return self._classifier.dim
        return (self._model.vectors if self._model is not None else self._vectors.vectors).shape[1]

    def get_words(self, include_freq: bool = False, on_unicode_error: str = "strict"):
        """The dictionary's words (``</s>`` among them), with their counts if asked."""
        words, counts = self._dictionary
        words = list(words)  # the caller's own list, as fastText's (tests extend it)
        return (words, counts.copy()) if include_freq else words

    def get_labels(self, include_freq: bool = False, on_unicode_error: str = "strict"):
        """A classifier's labels (an unsupervised model's words), with counts if asked."""
        if not self._supervised:
            return self.get_words(include_freq)
        labels = self._classifier.dictionary.labels
        words = list(labels.words)
        return (words, np.asarray(labels.counts).copy()) if include_freq else words

    @property
    def words(self) -> list[str]:
        return self.get_words()

    @property
    def labels(self) -> list[str]:
        return self.get_labels()

    def get_word_id(self, word: str) -> int:
        """The word's id in the dictionary, or -1."""
        return self._index.get(word, -1)

    def get_label_id(self, label: str) -> int:
        """The label's id, or -1."""
        if not self._supervised:
            return self.get_word_id(label)
        return self._classifier.dictionary.labels.index.get(label, -1)

    def get_subword_id(self, subword: str) -> int:
        """The input row a character n-gram hashes to."""
        from wordvec.corpus.subwords import word_hashes

        bucket = self._subword_settings[2]
        if bucket <= 0:
            raise ValueError("this model has no n-gram buckets")
        hashed = int(word_hashes([subword])[0]) & 0xFFFFFFFF
        return len(self._dictionary[0]) + hashed % bucket

    def get_subwords(self, word: str | bytes, on_unicode_error: str = "strict"):
        """The word (if in the dictionary) and its character n-grams, with their rows; a
        word given as bytes is UTF-8 (as the package reads it; ``on_unicode_error``:
        ``bytes.decode``'s ``errors``)."""
        from wordvec.corpus.subwords import char_ngrams, ngram_hashes

        if isinstance(word, bytes):
            word = word.decode("utf-8", on_unicode_error)

        minn, maxn, bucket = self._subword_settings
        names, ids = [], []
        wid = self.get_word_id(word)
        if wid >= 0:
            names.append(word)
            ids.append(wid)
        if word != EOS and maxn > 0 and bucket > 0:
            names += char_ngrams(word, minn, maxn)
            hashes = ngram_hashes([word], minn, maxn)[1].astype(np.int64)
            ids += list(len(self._dictionary[0]) + hashes % bucket)
        return names, np.array(ids, dtype=np.int64)

    def get_input_vector(self, ind: int) -> np.ndarray:
        """Row ``ind`` of the input matrix (words, then buckets)."""
        words, buckets = self._rows
        row = words[ind] if ind < len(words) else buckets[ind - len(words)]
        return np.array(row, dtype=np.float32)

    def get_input_matrix(self) -> np.ndarray:
        """The input matrix: a row per word, then the bucket rows."""
        if self.is_quantized():
            raise ValueError("Can't get quantized Matrix")
        return np.vstack(self._rows).astype(np.float32)

    def get_output_matrix(self) -> np.ndarray:
        """The output matrix (a row per label, or per word)."""
        if self.is_quantized():
            raise ValueError("Can't get quantized Matrix")
        if self._supervised:
            return np.array(self._classifier.w_out, dtype=np.float32)
        if "_output" in self.__dict__:  # set_matrices's
            return self.__dict__["_output"].copy()
        if self._model is None:  # fastText's own .bin: its rows as stored
            from wordvec.formats.fasttext_bin import read_fasttext_parts

            try:
                return np.array(read_fasttext_parts(self._source).output, dtype=np.float32)
            except WordvecError as exc:  # the file changed since it was loaded
                raise ValueError(str(exc)) from None
        if "w_out" not in self._model.arrays:
            raise ValueError("this model has no output matrix")
        return self._with_eos_row(np.asarray(self._model.arrays["w_out"], dtype=np.float32))

    def __getitem__(self, word: str) -> np.ndarray:
        return self.get_word_vector(word)

    def __contains__(self, word: str) -> bool:
        """Whether ``word`` is in the dictionary (any word has a vector, of its n-grams)."""
        return word in self._index

    def get_word_vector(self, word: str | bytes) -> np.ndarray:
        """The mean of the word's rows (its own and its n-grams'); zero if it has none."""
        _, ids = self.get_subwords(word)
        if not len(ids):
            return np.zeros(self.get_dimension(), dtype=np.float32)
        return np.mean([self.get_input_vector(i) for i in ids], axis=0).astype(np.float32)

    def get_sentence_vector(self, text: str) -> np.ndarray:
        """A line's vector: a classifier's hidden vector, or the mean of the unit-length
        vectors of the words (fastText's ``print-sentence-vectors``)."""
        _one_line(text, "predict")
        if self._supervised:
            return np.asarray(self._classifier.sentence_vector(text), dtype=np.float32)
        total = np.zeros(self.get_dimension(), dtype=np.float32)
        count = 0
        for word in tokenize(text):
            vector = self.get_word_vector(word)
            norm = float(np.linalg.norm(vector))
            if norm > 0:
                total += vector / norm
                count += 1
        return total / count if count else total

    # --- a classifier's answers

    def predict(self, text, k: int = 1, threshold: float = 0.0, on_unicode_error: str = "strict"):
        """The ``k`` most probable labels (negative: all) of a line, or of each line of a list:
        (labels, probabilities), or lists of them."""
        if not self._supervised:
            raise ValueError("predict needs a supervised model")
        if isinstance(text, list):
            answers = [self.predict(line, k, threshold) for line in text]
            return [list(a) for a, _ in answers], [p for _, p in answers]
        _one_line(text, "predict")
        found = self._classifier.predict(text, k, max(threshold - _LOG_FLOOR, 0.0))
        return tuple(label for label, _ in found), np.array([p + _LOG_FLOOR for _, p in found])

    def get_line(self, text, on_unicode_error: str = "strict"):
        """A line's words (``</s>`` last) and known labels, or lists of them for a list."""
        if isinstance(text, list):
            pairs = [self.get_line(line) for line in text]
            return [w for w, _ in pairs], [labels for _, labels in pairs]
        _one_line(text, "get_line")
        prefix = self._classifier.dictionary.prefix if self._supervised else "__label__"
        known = set(self.get_labels()) if self._supervised else set()
        words, labels = [], []
        for token in [*tokenize(text), EOS]:
            if token.startswith(prefix):
                if token in known:
                    labels.append(token)
            else:
                words.append(token)
            if token == EOS:
                break
        return words, labels

    def test(self, path: str, k: int = 1, threshold: float = 0.0) -> tuple[int, float, float]:
        """(N, P@k, R@k) on a labelled file, as fastText's ``test``."""
        report = self._test(path, k, threshold)
        return report.examples, report.precision, report.recall

    def test_label(self, path: str, k: int = 1, threshold: float = 0.0) -> dict:
        """Each label's precision, recall and F1 on a labelled file."""
        report = self._test(path, k, threshold)
        return {
            label: {"precision": s.precision, "recall": s.recall, "f1score": s.f1}
            for label, s in report.labels.items()
        }

    def _test(self, path: str, k: int, threshold: float):
        from wordvec.corpus.sources import text_lines

        if not self._supervised:
            raise ValueError("test needs a supervised model")
        try:
            return self._classifier.test(text_lines(path), k, threshold)
        except WordvecError as exc:
            raise ValueError(str(exc)) from None

    # --- word vectors' answers

    @cached_property
    def _word_vectors(self):
        """Every dictionary word's vector, for neighbours and analogies."""
        from wordvec.query.vectors import Vectors

        words = self.get_words()
        matrix = np.array([self.get_word_vector(word) for word in words], dtype=np.float32)
        return Vectors(words, matrix)

    def get_nearest_neighbors(self, word: str, k: int = 10, on_unicode_error: str = "strict"):
        """The ``k`` dictionary words nearest ``word``'s vector: [(cosine, word), ...]."""
        found = self._word_vectors.most_similar(self.get_word_vector(word), topn=k + 1)
        return [(score, other) for other, score in found if other != word][:k]

    def get_analogies(self, wordA: str, wordB: str, wordC: str, k: int = 10,
                      on_unicode_error: str = "strict"):  # fmt: skip
        """Words nearest A - B + C: [(cosine, word), ...], fastText's ``analogies``
        (``get_analogies("berlin", "germany", "france")`` for paris)."""
        unit = [_unit(self.get_word_vector(w)) for w in (wordA, wordB, wordC)]
        query = unit[0] - unit[1] + unit[2]
        found = self._word_vectors.most_similar(query, topn=k + 3)
        asked = {wordA, wordB, wordC}
        return [(score, other) for other, score in found if other not in asked][:k]

    # --- files

    def is_quantized(self) -> bool:
        """Whether the model is quantized (by :meth:`quantize`, or read so from its file,
        whatever the file's name)."""
        return self._quantized is not None or bool(getattr(self._classifier, "quantized", False))

    def quantize(self, input=None, qout=False, cutoff=0, retrain=False, epoch=None, lr=None,
                 thread=None, verbose=None, dsub=2, qnorm=False):  # fmt: skip
        """fastText's quantisation: the classifier becomes its ``.ftz`` (product-quantised
        rows; :func:`wordvec.quantize`), which ``save_model`` then writes."""
        from wordvec.formats import load_classifier
        from wordvec.formats.fasttext_ftz import input_rows
        from wordvec.training.quantize import quantize, read_classifier_model

        if not self._supervised:
            raise ValueError("For now we only support quantization of supervised models")
        if retrain and not input:
            raise ValueError("retrain needs the training file as input")
        if self.is_quantized():
            raise ValueError("the model is quantized already")
        if self._model is None:  # fastText's .bin: quantized as one trained here
            try:
                self._model = read_classifier_model(self._source)
            except WordvecError as exc:
                raise ValueError(str(exc)) from None
        folder = tempfile.TemporaryDirectory(prefix="wordvec-ftz-")
        path = os.path.join(folder.name, "model.ftz")
        if not 0 < cutoff < input_rows(self._model):  # fastText's: nothing cut, nothing retrained
            cutoff, retrain = 0, False
        try:
            quantize(self._model, path, cutoff=cutoff, retrain=input if retrain else None,
                     qnorm=qnorm, qout=qout, dsub=dsub, epochs=epoch, alpha=lr,
                     threads=thread, quiet=(2 if verbose is None else verbose) < 2)  # fmt: skip
            self._classifier = load_classifier(path)
        except WordvecError as exc:
            folder.cleanup()
            raise ValueError(str(exc)) from None
        self._model, self._source, self._quantized = None, path, folder
        for name in ("_dictionary", "_index", "_rows", "_word_vectors", "_subword_settings"):
            self.__dict__.pop(name, None)

    def _quantize_to_size(self, input: str) -> None:
        """Quantize the best model of an autotune search with a model size as its trial was
        (:func:`wordvec.training.autotune.size_plan`)."""
        from wordvec.training.autotune import best_size_plan

        plan = best_size_plan(self._model)
        self.quantize(input=input, qout=plan["qout"], cutoff=plan["cutoff"],
                      retrain=plan["retrain"], dsub=plan["dsub"], qnorm=plan["qnorm"])  # fmt: skip

    def save_model(self, path: str) -> None:
        """Save as fastText's ``.bin`` (which fastText and wordvec read)."""
        from wordvec.formats.fasttext_bin import (
            read_fasttext_parts,
            with_matrices,
            write_fasttext_parts,
        )
        from wordvec.formats.wordvec_model import check_fasttext_compatible
        from wordvec.runtime.atomic import check_output

        try:
            check_output(path, self._source)
            if self._model is not None:
                check_fasttext_compatible(self._model)
            if "_output" in self.__dict__:  # set_matrices's rows, in the file's place
                parts = self._file_parts() if self._model else read_fasttext_parts(self._source)
                parts = with_matrices(parts, np.vstack(self._rows), self.__dict__["_output"])
                write_fasttext_parts(parts, path, "the model")
            elif self._model is not None:
                write_fasttext_parts(self._file_parts(), path, "the model")
            else:
                shutil.copyfile(self._source, path)
        except WordvecError as exc:
            raise ValueError(str(exc)) from None
        except OSError as exc:  # fastText's words, with the cause
            raise ValueError(f"{path} cannot be opened for saving: {exc.strerror}") from None

    def _file_parts(self):
        """What the model's ``.bin`` holds; for word vectors, ``</s>`` among the words where
        the dictionary lists it (its rows zero), so that the word ids hold after a load (a
        classifier's vocabulary has it already). Not with hierarchical softmax: a reader
        builds the tree from the counts, and ``</s>``'s would make another tree than the one
        trained."""
        from wordvec.formats.fasttext_bin import fasttext_parts

        parts = fasttext_parts(self._model)
        at = self._index.get(EOS)
        if self._supervised or at is None or self._model.settings.get("loss") in ("hs", "hs+ns"):
            return parts
        first, *buckets = parts.input_blocks
        return parts._replace(
            entries=parts.entries[:at] + [(EOS, self._lines, 0)] + parts.entries[at:],
            n_words=parts.n_words + 1,
            input_blocks=[np.insert(first, at, 0.0, axis=0), *buckets],
            output=np.insert(parts.output, at, 0.0, axis=0),
        )


def _one_line(text: str, what: str) -> None:
    if "\n" in text:
        raise ValueError(f"{what} processes one line at a time (remove '\\n')")


def _unit(vector: np.ndarray) -> np.ndarray:
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm > 0 else vector


__all__ = ["BOW", "EOS", "EOW", "load_model", "tokenize", "train_supervised",
           "train_unsupervised", "util"]  # fmt: skip
