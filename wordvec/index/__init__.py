"""Approximate nearest-neighbour search for vocabularies of millions of words: an index
built once per vector file (``wordvec index``), saved beside it, mapped when opened
(:class:`~wordvec.index.approximate.NeighbourIndex`). The library behind it is an optional
extra, ``wordvec[index]`` (:mod:`~wordvec.index.engine`)."""
