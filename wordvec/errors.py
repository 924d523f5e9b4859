"""Errors that describe a problem with the user's input, files or settings.

The CLI turns every :class:`WordvecError` into one line, ``Error: <message>``, and a non-zero
exit; anything else is a bug and keeps its traceback. Messages say what is wrong and, where
possible, how to fix the call.
"""


class WordvecError(Exception):
    """Base class for errors that are the user's to fix."""


class CorpusError(WordvecError):
    """The corpus cannot be read as text (missing, empty, binary, not UTF-8)."""


class NotSentences(CorpusError, TypeError):
    """A corpus object of the wrong type (an item that is not a list of str tokens): a
    :class:`TypeError` too, as gensim raises for one."""


class VocabularyError(WordvecError):
    """The vocabulary is unusable (empty after --min-count, unknown query word)."""


class UnknownWord(VocabularyError, KeyError):
    """A word that the vectors have no row for. A :class:`KeyError` too, as a dict's (or
    gensim's KeyedVectors') missing key is, but printed as its message, not quoted."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def shown(word: str, limit: int = 100) -> str:
    """``word`` quoted for a message; a longer one than ``limit`` characters is cut, with its
    length (a 10 MB "word" must not become a 10 MB error line)."""
    if len(word) <= limit:
        return f"'{word}'"
    return f"'{word[: limit - 20]}...' ({len(word):,} characters)"


class FormatError(WordvecError):
    """A model or vector file is missing, truncated, corrupt or of an unknown format."""


class TruncatedFile(FormatError, EOFError):
    """A file that ends before what its header promises. An :class:`EOFError` too, as gensim's
    word2vec readers raise for one."""


class UndecodableText(FormatError, UnicodeDecodeError):
    """Words that are not text in the file's encoding (UTF-8 unless told otherwise). A
    :class:`UnicodeDecodeError` too, as gensim's readers raise with ``unicode_errors='strict'``,
    but printed as its message; ``cause`` is the codec's own error, whose position it keeps."""

    def __init__(self, message: str, cause: UnicodeDecodeError):
        UnicodeDecodeError.__init__(
            self, cause.encoding, cause.object, cause.start, cause.end, cause.reason
        )
        self.message = message

    def __str__(self) -> str:
        return self.message

    def __reduce__(self) -> tuple:
        """Pickled (to cross a process) as its message and the codec error's fields: plain
        values, as a pickler that rebuilds exceptions its own way (tblib's, which dask
        installs) loses a nested UnicodeDecodeError's fields."""
        fields = (self.encoding, self.object, self.start, self.end, self.reason)
        return _undecodable_text, (self.message, *fields)


def _undecodable_text(message: str, *fields) -> UndecodableText:
    """An :class:`UndecodableText` from what its ``__reduce__`` keeps."""
    return UndecodableText(message, UnicodeDecodeError(*fields))


class NotWordVectors(FormatError):
    """A classifier (a supervised or quantized fastText model) given where word vectors and
    their training state are needed."""


class NotAClassifier(FormatError):
    """A vector file or word vector model given where a text classifier is needed."""


class OutOfMemory(WordvecError, MemoryError):
    """An array the machine cannot hold; the message gives its arithmetic (rows x dims x
    bytes), so that the setting to lower is plain."""


class ConfigError(WordvecError):
    """An option value is out of range or inconsistent with another."""


class TrainingInterrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM, SIGHUP) during training's epochs: still a KeyboardInterrupt, but
    holding the model trained so far in ``model`` (as gensim's model object keeps what an
    interrupted ``train()`` did), with ``epochs_done`` of ``epochs`` complete."""

    def __init__(self, model, epochs_done: int, epochs: int):
        super().__init__(
            f"training interrupted after {epochs_done} of {epochs} epochs; the model trained so "
            "far is this exception's .model"
        )
        self.model, self.epochs_done, self.epochs = model, epochs_done, epochs
        self.saved = None  # where the CLI's --save-on-interrupt saved it


class TrainingDiverged(WordvecError):
    """Training produced NaN or infinite values (usually: the learning rate is too high)."""
