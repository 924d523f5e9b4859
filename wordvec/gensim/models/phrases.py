"""gensim's ``gensim.models.phrases``: :mod:`wordvec.gensim.phrases`."""

import sys

from wordvec.gensim import phrases

sys.modules[__name__] = phrases
