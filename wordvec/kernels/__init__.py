"""Numba-compiled inner loops. Importing this package imports numba; only training does.

Modules by concern: ``rng`` (per-thread random numbers), ``activations`` (sigmoid and
log-sigmoid), ``losses`` (one update primitive per output layer), ``word2vec`` (the skip-gram
and CBOW window loops that call them).
"""

FASTMATH = {"reassoc", "contract", "arcp"}
"""Lets LLVM vectorise dot products, but unlike ``fastmath=True`` keeps NaN semantics, which the
divergence checks rely on."""
