"""gensim's ``gensim.models.callbacks``: :mod:`wordvec.gensim.callbacks`."""

import sys

from wordvec.gensim import callbacks

sys.modules[__name__] = callbacks
