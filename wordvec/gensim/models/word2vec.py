"""gensim's ``gensim.models.word2vec``: :mod:`wordvec.gensim.word2vec`."""

import sys

from wordvec.gensim import word2vec

sys.modules[__name__] = word2vec
