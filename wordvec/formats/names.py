"""The names of the formats, apart from their code so that the CLI's ``--help`` does not import
NumPy, and so that each reader can tell what a file holds when it is not its own kind."""

EXPORT_FORMATS = (
    "word2vec", "word2vec-binary", "glove", "vec", "fasttext-bin", "fasttext-ftz", "tsv", "npy",
)  # fmt: skip
"""What ``wordvec export --format`` writes."""
MODEL_ONLY_FORMATS = ("fasttext-bin", "fasttext-ftz")
"""fastText's model files: written from a wordvec model file, which holds the n-gram and output
rows that plain vectors lack."""
MODEL_FORMAT = "wordvec-model"
"""The ``format`` of a model file's header (:mod:`wordvec.formats.wordvec_model`)."""
COUNTS_FORMAT = "wordvec-cooccurrence"
"""The ``format`` of a co-occurrence counts file's header (:mod:`wordvec.cooccur.counts`)."""
