"""The names of the formats, apart from their code so that the CLI's ``--help`` does not import
NumPy, and so that each reader can tell what a file holds when it is not its own kind."""

EXPORT_FORMATS = (
    "word2vec", "word2vec-binary", "glove", "vec", "wordvec", "fasttext-bin", "fasttext-ftz",
    "tsv", "npy",
)  # fmt: skip
"""What ``wordvec export --format`` writes (``wordvec``: wordvec's model file, the vectors
alone, opened memory-mapped)."""
STREAM_FORMATS = ("word2vec", "word2vec-binary", "glove", "vec")
"""The formats read as a stream, and so written compressed for a ``.gz``, ``.bz2`` or ``.xz``
name (the others are read mapped)."""
MODEL_ONLY_FORMATS = ("fasttext-bin", "fasttext-ftz")
"""fastText's model files: written from a wordvec model file, which holds the n-gram and output
rows that plain vectors lack."""

SUFFIX_FORMATS = {".txt": "word2vec", ".vec": "vec", ".bin": "word2vec-binary"}
"""The format ``train -o`` writes for a name ending so (before a ``.gz``, ``.bz2`` or ``.xz``),
as word2vec's and fastText's users expect of ``-output vectors.bin`` or ``.vec``; any other
name gets wordvec's own model."""
_COMPRESSION_SUFFIXES = (".gz", ".bz2", ".xz")
FASTTEXT_MODELS = ("fasttext", "supervised")
"""Models whose ``.bin`` is fastText's (as fastText's ``-output`` writes it), not word2vec's."""


def suffix_format(path, model: str) -> str | None:
    """The export format that a ``train -o`` name ending in a vector format's suffix gets
    (None: wordvec's own model file): ``.txt`` and ``.vec`` word2vec text, ``.bin`` fastText's
    model for ``--model fasttext`` and ``supervised``, word2vec binary for the others; the
    same before a compression suffix (``vectors.txt.gz``)."""
    fmt = SUFFIX_FORMATS.get(_plain_name(path)[-4:])
    return "fasttext-bin" if fmt == "word2vec-binary" and model in FASTTEXT_MODELS else fmt


MODEL_FORMAT = "wordvec-model"
"""The ``format`` of a model file's header (:mod:`wordvec.formats.wordvec_model`)."""
COUNTS_FORMAT = "wordvec-cooccurrence"
"""The ``format`` of a co-occurrence counts file's header (:mod:`wordvec.cooccur.counts`)."""


_OUTPUT_SUFFIXES = {**SUFFIX_FORMATS, ".wv": "wordvec", ".tsv": "tsv", ".npy": "npy"}


def output_format(path) -> str:
    """The format a vector file named ``path`` is written in when none is asked for: as its
    suffix says (before a compression suffix): ``.bin`` word2vec binary, ``.wv`` wordvec's
    model file, ``.tsv``, ``.npy``; word2vec text for ``.txt``, ``.vec`` and any other."""
    return _OUTPUT_SUFFIXES.get("." + _plain_name(path).rsplit(".", 1)[-1], "word2vec")


def _plain_name(path) -> str:
    """``path`` lower-cased, less a compression suffix: ``x.bin.gz`` is named as ``x.bin``."""
    name = str(path).lower()
    return next((name.removesuffix(s) for s in _COMPRESSION_SUFFIXES if name.endswith(s)), name)
