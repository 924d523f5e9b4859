"""Numba-compiled inner loops. Importing this package imports numba; only training does.

Modules by concern: ``rng`` (per-thread random numbers), ``prefetch`` (loading a row ahead
of its use), ``activations`` (the logistic function and its loss), ``losses`` (the update
primitives of the output layers, per prediction and per window of shared negatives),
``word2vec`` (the one window loop of skip-gram and CBOW that calls them), ``subwords``
(fastText's n-gram hashing), ``cooccur`` (window counting), ``glove`` (GloVe's AdaGrad step),
``sparse`` (CSR products and PPMI) and ``finite`` (the divergence check).
"""

FASTMATH = {"reassoc", "contract", "arcp"}
"""Lets LLVM vectorise dot products, but unlike ``fastmath=True`` keeps NaN semantics, which the
divergence checks rely on."""
