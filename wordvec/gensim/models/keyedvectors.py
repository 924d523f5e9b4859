"""gensim's ``gensim.models.keyedvectors``: :mod:`wordvec.gensim.keyedvectors`."""

import sys

from wordvec.gensim import keyedvectors

sys.modules[__name__] = keyedvectors
