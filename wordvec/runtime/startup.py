"""What the command line changes in numba's start-up and in its exit, for its own process only.

Numba's first compiled call imports every implementation module it has; one of them checks
whether ``np.dot`` can be compiled by importing ``scipy.linalg`` (0.3-0.4 s where scipy is
installed, as gensim installs it). No wordvec kernel calls a BLAS, so the command line, whose
process is its own, hides ``scipy.linalg`` from that one check: every command that runs a
kernel starts that much sooner. ``import wordvec`` alone never does this, since a library
user's own numba code may need ``np.dot``.

At its exit, the interpreter's teardown collects garbage over and over, walking the hundreds
of thousands of objects that numba and llvmlite keep: 0.25-0.3 s at the end of a ``wordvec
train`` of fastText, after the model was saved. The command line moves every object out of the
collector's sight first (:func:`gc.freeze`), as nothing is left to free but the process.
"""

from __future__ import annotations

import atexit
import gc
import sys

_skip_blas_probe = False
_freeze_at_exit = False


def skip_numba_blas_probe() -> None:
    """Called by the command line before its command runs; :func:`prepare_numba` acts on it."""
    global _skip_blas_probe
    _skip_blas_probe = True


def exit_without_collecting() -> None:
    """Called by the command line before its command runs: at the process's exit, after the
    exit handlers registered later (which run first), :func:`gc.freeze` every object."""
    global _freeze_at_exit
    if not _freeze_at_exit:
        atexit.register(gc.freeze)
        _freeze_at_exit = True


def prepare_numba() -> None:
    """Called when the kernels import numba: runs numba's BLAS check with ``scipy.linalg``
    hidden if the command line asked for it (and numba has not checked yet)."""
    if not _skip_blas_probe or "numba.np.arraymath" in sys.modules or "scipy.linalg" in sys.modules:
        return
    sys.modules["scipy.linalg"] = None  # importing it raises ImportError, at once
    try:
        import numba.np.arraymath  # noqa: F401  (its import is the check)
    finally:
        del sys.modules["scipy.linalg"]  # scipy itself stays importable as ever
