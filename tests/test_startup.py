"""Numba's start-up and the interpreter's exit once wordvec's kernels load
(wordvec/runtime/startup.py), each in a process of its own."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np


def _python(code: str) -> list[str]:
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def test_numbas_blas_check_gets_its_own_answer_without_importing_scipy_linalg(toy_corpus):
    """Loading the kernels (by the library or a command) leaves ``scipy.linalg`` unimported
    (0.3 s of start-up) and numba's ``_HAVE_BLAS`` as numba's own check sets it; a user's
    numba code still compiles ``np.dot`` and ``np.correlate`` afterwards."""
    report = "import numba.np.arraymath as m; print(m._HAVE_BLAS, 'scipy.linalg' in sys.modules)"
    numbas_own = _python("import sys; " + report)
    library = _python("import sys, wordvec.kernels; " + report)
    command = _python(
        "import sys; from wordvec.cli import main\n"
        f"main(['train', {str(toy_corpus)!r}, '-o', {str(toy_corpus)!r} + '.wv', '--min-count',"
        " '1', '--epochs', '1', '--quiet'], standalone_mode=False)\n" + report
    )
    assert library == command == [numbas_own[0], "False"]
    users_code = _python(
        "import numpy as np, numba, wordvec.kernels\n"
        "a = np.arange(4.0); b = np.array([1.0, 2.0])\n"
        "dot = numba.njit(lambda a: np.dot(a, a))\n"
        "correlate = numba.njit(lambda a, b: np.correlate(a, b))\n"
        "print(dot(a), list(correlate(a, b)))"
    )
    assert users_code == ["14.0", *str(list(np.correlate(np.arange(4.0), [1.0, 2.0]))).split()]


def test_garbage_left_at_the_exit_is_still_finalised(tmp_path: Path):
    """The exit collects once before freezing the objects: an unreachable cycle with a
    finaliser (here it writes a file, as an unclosed writer would flush) is finalised, as it
    is without wordvec."""
    mark = tmp_path / "finalised"
    code = (
        "import wordvec.kernels\n"
        "class Cycle:\n"
        f"    def __del__(self): open({str(mark)!r}, 'w').write('yes')\n"
        "c = Cycle(); c.me = c; del c\n"
        "import gc; gc.disable()\n"  # left to the exit, not to a collection on the way there
    )
    _python(code)
    assert mark.read_text() == "yes"


def test_a_quiet_training_imports_no_progress_bars_and_no_process_pools(toy_corpus):
    """tqdm (20 ms on the VM: it reads its version through importlib.metadata) and
    multiprocessing (5 ms) are imported when a bar is shown or a pool of tokenizing
    processes started, not by a quiet training; a shown bar still counts and draws."""
    imported = _python(
        "import sys, wordvec\n"
        f"wordvec.train({str(toy_corpus)!r}, min_count=1, epochs=1, quiet=True)\n"
        "print('tqdm' in sys.modules, 'multiprocessing' in sys.modules)"
    )
    assert imported == ["False", "False"]
    from wordvec.runtime.progress import QuietBar, progress_bar

    with progress_bar("counting", 10, quiet=True) as bar:
        bar.update(3)
        bar.update(4)
    assert isinstance(bar, QuietBar) and bar.n == 7
    with progress_bar("counting", 10) as shown:
        shown.update(7)
    assert not isinstance(shown, QuietBar) and shown.n == 7


def test_garbage_made_before_the_kernels_load_is_finalised_and_what_lives_then_is_frozen(
    tmp_path: Path,
):
    """The kernels' import collects the garbage there is before it freezes every object (so
    the collector need not walk numba's objects again): a cycle dropped before it is
    finalised then, and objects alive at that time are frozen (``gc.unfreeze`` gives them
    back to the collector)."""
    mark = tmp_path / "finalised"
    report = _python(
        "import gc\n"
        "class Cycle:\n"
        f"    def __del__(self): open({str(mark)!r}, 'w').write('yes')\n"
        "c = Cycle(); c.me = c; del c\n"
        "import wordvec.kernels\n"
        f"import os; print(os.path.exists({str(mark)!r}), gc.get_freeze_count() > 100_000,"
        " gc.isenabled())\n"
    )
    assert report == ["True", "True", "True"]
