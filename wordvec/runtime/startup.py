"""What wordvec changes in numba's start-up and in the interpreter's exit once its kernels load.

Numba's first compiled call imports every implementation module it has; one of them,
``numba.np.arraymath``, asks whether a BLAS is there by importing ``scipy.linalg`` (0.3-0.4 s
where scipy is installed, as gensim installs it), and keeps the answer in ``_HAVE_BLAS``
(which only chooses how ``np.correlate`` and ``np.convolve`` take inner products). No wordvec
kernel calls a BLAS: :func:`start_numba` lets that module import with ``scipy.linalg``
hidden, then gives it the answer its check would have given, from whether scipy's
``cython_blas`` is installed, found without importing it. A user's own numba code still gets
the BLAS where there is one (``np.dot`` imports ``scipy.linalg`` when it compiles, as ever).

At its exit, the interpreter's teardown collects garbage over and over, walking the hundreds
of thousands of objects that numba and llvmlite keep: 0.25-0.35 s after any training. Once
the kernels load, the exit collects the garbage once and then moves every object out of the
collector's sight (:func:`gc.freeze`): what was garbage at the exit is still finalised, as
the interpreter would have; objects alive at the exit never were promised finalisation. The
command line, whose process is its own, skips even the one collection
(:func:`exit_without_collecting`).

Those objects are made at the start, not the end: importing numba and loading its
implementations (which its first compiled call would) builds ~140,000 objects the collector
tracks, and it ran 248 times as they piled up (64 ms of a 2 s PV-DBOW run on the 2-vCPU VM),
and once more over all of them at the exit. :func:`start_numba` imports and loads numba with
the collector paused, after collecting the garbage there is, and then freezes every object: a
quiet training on 1M words spent 0.14 s less outside its training (0.60 s against 0.75,
medians of ten alternating whole processes). The objects alive when the kernels first load are then
left out of later collections; a program that drops a reference cycle among them (its own
objects of that time included) and wants it freed calls :func:`gc.unfreeze`.
"""

from __future__ import annotations

import atexit
import gc
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

_collect_at_exit = True
_prepared = False


def exit_without_collecting() -> None:
    """Called by the command line before its command runs: the exit freezes every object
    without collecting first, as nothing is left to free but the process."""
    global _collect_at_exit
    _collect_at_exit = False


def _freeze_at_exit() -> None:
    """Runs after the exit handlers registered later than the kernels' import."""
    if _collect_at_exit:
        gc.collect()
    gc.freeze()


def scipy_blas_installed() -> bool:
    """Whether ``import scipy.linalg.cython_blas`` (numba's BLAS check) would find the module,
    answered from the files: scipy itself is not imported."""
    try:
        spec = importlib.util.find_spec("scipy")
    except (ImportError, ValueError):
        return False
    if spec is None or not spec.submodule_search_locations:
        return False
    return any(
        any((Path(folder) / "linalg").glob("cython_blas.*"))
        for folder in spec.submodule_search_locations
    )


def start_numba() -> ModuleType:
    """Import numba for the kernels and return it, once: its BLAS check answered without
    importing ``scipy.linalg`` (unless numba checked already or scipy.linalg is loaded), its
    implementations loaded, the collector paused meanwhile and every object then frozen, and
    the exit's collections shortened."""
    global _prepared
    if not _prepared:
        _prepared = True
        collecting = gc.isenabled()
        if collecting:
            gc.collect()  # the garbage so far is finalised as it would have been
        gc.disable()
        try:
            _answer_blas_check()
            _load_implementations()
        finally:
            if collecting:
                gc.enable()
        gc.freeze()
        atexit.register(_freeze_at_exit)
    import numba

    return numba


def _answer_blas_check() -> None:
    """Import ``numba.np.arraymath`` with ``scipy.linalg`` hidden and give it the answer its
    BLAS check would have given."""
    if "numba.np.arraymath" in sys.modules or "scipy.linalg" in sys.modules:
        return
    sys.modules["scipy.linalg"] = None  # importing it raises ImportError, at once
    try:
        import numba.np.arraymath as arraymath
    finally:
        del sys.modules["scipy.linalg"]  # scipy itself stays importable as ever
    if hasattr(arraymath, "_HAVE_BLAS"):
        arraymath._HAVE_BLAS = scipy_blas_installed()


def _load_implementations() -> None:
    """Load numba's typing and lowering of everything it implements, as the first compiled
    call (or load from the cache) would: the kernels' first call comes soon after their
    import."""
    from numba.core.compiler_lock import global_compiler_lock
    from numba.core.registry import cpu_target

    with global_compiler_lock:
        cpu_target.target_context.refresh()
