"""Errors that describe a problem with the user's input, files or settings.

The CLI turns every :class:`WordvecError` into one line, ``Error: <message>``, and a non-zero
exit; anything else is a bug and keeps its traceback. Messages say what is wrong and, where
possible, how to fix the call.
"""


class WordvecError(Exception):
    """Base class for errors that are the user's to fix."""


class CorpusError(WordvecError):
    """The corpus cannot be read as text (missing, empty, binary, not UTF-8)."""


class VocabularyError(WordvecError):
    """The vocabulary is unusable (empty after --min-count, unknown query word)."""


class FormatError(WordvecError):
    """A model or vector file is missing, truncated, corrupt or of an unknown format."""


class NotAClassifier(FormatError):
    """A vector file or word vector model given where a text classifier is needed."""


class ConfigError(WordvecError):
    """An option value is out of range or inconsistent with another."""


class TrainingDiverged(WordvecError):
    """Training produced NaN or infinite values (usually: the learning rate is too high)."""
