"""The names of the formats, apart from their code so that the CLI's ``--help`` does not import
NumPy, and so that each reader can tell what a file holds when it is not its own kind."""

EXPORT_FORMATS = ("word2vec", "word2vec-binary", "glove", "vec", "fasttext-bin", "tsv", "npy")
"""What ``wordvec export --format`` writes."""
MODEL_FORMAT = "wordvec-model"
"""The ``format`` of a model file's header (:mod:`wordvec.formats.wordvec_model`)."""
COUNTS_FORMAT = "wordvec-cooccurrence"
"""The ``format`` of a co-occurrence counts file's header (:mod:`wordvec.cooccur.counts`)."""
