"""Numba-compiled inner loops. Importing this package imports numba; only training does.

Modules by concern: ``rng`` (per-thread random numbers), ``activations`` (the logistic
function and its loss), ``losses`` (the update primitives of the output layers), ``word2vec``
(the one window loop of skip-gram and CBOW that calls them).
"""

FASTMATH = {"reassoc", "contract", "arcp"}
"""Lets LLVM vectorise dot products, but unlike ``fastmath=True`` keeps NaN semantics, which the
divergence checks rely on."""
