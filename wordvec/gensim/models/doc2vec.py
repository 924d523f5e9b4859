"""gensim's ``gensim.models.doc2vec``: :mod:`wordvec.gensim.doc2vec`."""

import sys

from wordvec.gensim import doc2vec

sys.modules[__name__] = doc2vec
