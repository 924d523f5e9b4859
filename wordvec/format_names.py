"""The names of the export formats, apart from their code so that the CLI's ``--help`` does
not import NumPy."""

EXPORT_FORMATS = ("word2vec", "word2vec-binary", "glove", "vec", "fasttext-bin", "tsv", "npy")
