"""gensim's ``gensim.models.fasttext``: :mod:`wordvec.gensim.fasttext`."""

import sys

from wordvec.gensim import fasttext

sys.modules[__name__] = fasttext
