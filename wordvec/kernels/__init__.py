"""Numba-compiled inner loops. Importing this package imports numba; only training does.

Modules by concern: ``rng`` (per-thread random numbers), ``prefetch`` (loading a row ahead
of its use), ``simd`` (float32 vectors of the CPU's width, a row's last chunk masked),
``activations`` (the logistic function and its loss), ``losses`` (the update primitives
of the output layers, per prediction and per window of shared negatives),
``word2vec`` (the one window loop of skip-gram and CBOW that calls them), ``supervised`` (the
classifier's lines, averaged into the same output layers), ``subwords`` (fastText's n-gram
hashing), ``scan`` (bytes to words and ids, for the numba corpus reader), ``cooccur`` (window
counting), ``glove`` (GloVe's AdaGrad step), ``sparse`` (CSR products and PPMI),
``transport`` (the word mover's distance's exact transport), ``finite`` (the divergence
check) and ``specialize`` (how a run compiles only the kernels of its model and loss, and says
so while it compiles).

Numba's cache is checked against each kernel's own source file only: after an edit of a
kernel that others call (``losses``, ``activations``, ``simd``), delete ``__pycache__/*.nbi``
here, or the callers run the old code from their cache.

The training loops (and the functions they call that are not inlined) compile with
``_nrt=False``: no reference counting of arrays. Numba counts a reference to each array a
function receives, and to each array an inlined helper binds, with atomic updates that its
pruning removes only around straight-line code; inside the window loops they were 11% of
CBOW's profile samples on one thread, and two threads contended on the counts of the matrices
they share. Those loops allocate no array (the caller holds each array they are given), so they
need no counts: skip-gram's jobs ran 9% faster on one thread and 6% on two, CBOW's 7% and
4% (medians of rounds interleaved in one process). A kernel that allocates keeps them.
"""

import atexit
import pickle
import shutil
import tempfile

from wordvec.runtime.progress import note
from wordvec.runtime.scratch import OWNER
from wordvec.runtime.startup import start_numba

numba = start_numba()  # numba imported and loaded with the collector paused (see there)

FASTMATH = {"reassoc", "contract", "arcp"}
"""Lets LLVM vectorise dot products, but unlike ``fastmath=True`` keeps NaN semantics, which the
divergence checks rely on."""


def _ensure_a_cache() -> None:
    """Where numba can cache compiled code neither beside wordvec nor in the user's cache (a
    read-only install, no home directory), every ``cache=True`` kernel would fail to load:
    give it a temporary cache instead (compiling each run, ~10 s), and say so once."""
    try:

        @numba.njit(cache=True)
        def probe():  # decorating with cache=True is what fails
            return 0

    except RuntimeError:
        numba.config.CACHE_DIR = tempfile.mkdtemp(prefix=f"{OWNER}numba-cache-")
        atexit.register(shutil.rmtree, numba.config.CACHE_DIR, ignore_errors=True)
        note(
            "warning: numba cannot cache compiled code here; using a temporary cache, so "
            "kernels compile on every run (set NUMBA_CACHE_DIR to a writable directory)"
        )


def _tolerate_stale_cache_indexes() -> None:
    """Read a numba cache index that cannot be unpickled as empty, so that numba compiles the
    kernel again and overwrites the index, instead of raising.

    Numba unpickles a kernel's whole index before it checks that the index was written for the
    kernel's present source (numba issue #6018). An index written by an earlier wordvec can
    name a type that has since gone (a NamedTuple of a kernel's arguments), and the first
    training after an upgrade would stop with ``AttributeError: Can't get attribute ...``.
    Such an index is stale by definition. Only where numba has the method this wraps."""
    import numba.core.caching as caching

    index_file = getattr(caching, "IndexDataCacheFile", None)
    load_index = getattr(index_file, "_load_index", None)
    if load_index is None or getattr(load_index, "tolerates_stale", False):
        return

    def tolerant_load_index(self):
        try:
            return load_index(self)
        except (AttributeError, ImportError, EOFError, pickle.UnpicklingError, TypeError):
            return {}

    tolerant_load_index.tolerates_stale = True
    index_file._load_index = tolerant_load_index


def _lock_cache_saves() -> None:
    """Save each entry of numba's cache holding a lock on its function's index file.

    Numba saves an entry by reading the function's index, taking the first free data file name
    for a new key, and writing both; two processes compiling the same function at once (two
    first runs, or ``wordvec warmup``'s processes) could take the same name, and the index of
    one would then name the other's data: for two of the window loop's closures, whose
    arguments are the same, a run of one model loading the code compiled for another. With the
    lock (``flock`` on ``INDEX.lock`` beside the index), the second reads the first's index
    and takes the next name. Where flock is missing (not POSIX), saves stay as numba makes
    them."""
    try:
        import fcntl
    except ImportError:
        return
    import numba.core.caching as caching

    index_file = getattr(caching, "IndexDataCacheFile", None)
    save = getattr(index_file, "save", None)
    if save is None or getattr(save, "locked", False):
        return

    def locked_save(self, key, data):
        with open(self._index_path + ".lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            save(self, key, data)

    locked_save.locked = True
    index_file.save = locked_save


_ensure_a_cache()
_tolerate_stale_cache_indexes()
_lock_cache_saves()

from wordvec.kernels.specialize import share_scope_copies  # noqa: E402 (numba, started above)

share_scope_copies()
