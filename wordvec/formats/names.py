"""The names of the formats, apart from their code so that the CLI's ``--help`` does not import
NumPy, and so that each reader can tell what a file holds when it is not its own kind."""

EXPORT_FORMATS = (
    "word2vec", "word2vec-binary", "glove", "vec", "fasttext-bin", "fasttext-ftz", "tsv", "npy",
)  # fmt: skip
"""What ``wordvec export --format`` writes."""
MODEL_ONLY_FORMATS = ("fasttext-bin", "fasttext-ftz")
"""fastText's model files: written from a wordvec model file, which holds the n-gram and output
rows that plain vectors lack."""

SUFFIX_FORMATS = {".txt": "word2vec", ".vec": "vec", ".bin": "word2vec-binary"}
"""The format ``train -o`` writes for a name ending so, as word2vec's and fastText's users
expect of ``-output vectors.bin`` or ``.vec``; any other name gets wordvec's own model."""
FASTTEXT_MODELS = ("fasttext", "supervised")
"""Models whose ``.bin`` is fastText's (as fastText's ``-output`` writes it), not word2vec's."""


def suffix_format(path, model: str) -> str | None:
    """The export format that a ``train -o`` name ending in a vector format's suffix gets
    (None: wordvec's own model file): ``.txt`` and ``.vec`` word2vec text, ``.bin`` fastText's
    model for ``--model fasttext`` and ``supervised``, word2vec binary for the others."""
    fmt = SUFFIX_FORMATS.get(str(path)[-4:].lower())
    return "fasttext-bin" if fmt == "word2vec-binary" and model in FASTTEXT_MODELS else fmt


MODEL_FORMAT = "wordvec-model"
"""The ``format`` of a model file's header (:mod:`wordvec.formats.wordvec_model`)."""
COUNTS_FORMAT = "wordvec-cooccurrence"
"""The ``format`` of a co-occurrence counts file's header (:mod:`wordvec.cooccur.counts`)."""
