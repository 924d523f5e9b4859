"""gensim's ``gensim.test``: :mod:`wordvec.gensim.test.utils`, what gensim's tutorials and
scripts import from it."""
