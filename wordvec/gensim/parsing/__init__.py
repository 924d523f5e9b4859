"""gensim's ``gensim.parsing``: :mod:`wordvec.gensim.parsing.preprocessing`."""
