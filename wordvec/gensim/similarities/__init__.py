"""gensim's ``gensim.similarities``, as far as word vectors go: its indexers for
``most_similar(..., indexer=)``, :mod:`~wordvec.gensim.similarities.annoy`'s
``AnnoyIndexer`` (served by wordvec's index, :mod:`wordvec.index`). gensim's document
similarity classes (``MatrixSimilarity``, ``SoftCosineSimilarity``, ...) are not here."""

from wordvec.gensim.similarities.annoy import AnnoyIndexer

__all__ = ["AnnoyIndexer"]
