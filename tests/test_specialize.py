"""A run compiles only the kernels it uses, says so while it does, and ``wordvec warmup``
compiles them ahead of time (wordvec/kernels/specialize.py, wordvec/training/warmup.py): each
in a process of its own with a fresh numba cache, as a new install meets it."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from wordvec.errors import ConfigError


def _fresh_cache_run(code: str, cache: Path, *args: str, cwd: Path | None = None):
    environment = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=environment,
        cwd=cwd,
    )  # fmt: skip


COMPILED = """
import sys
from numba.core import event
from wordvec.cli import main

compiled = []
class Heard(event.Listener):
    def on_start(self, ev):
        compiled.append(ev.data["dispatcher"].py_func.__name__)
    def on_end(self, ev):
        pass

with event.install_listener("numba:compile", Heard()):
    main(["train", sys.argv[1], "-o", sys.argv[2], "-q", "--min-count", "1", "--epochs", "1",
          *sys.argv[3:]], standalone_mode=False)
print(" ".join(compiled))
"""


@pytest.mark.slow
@pytest.mark.parametrize(
    ("options", "compiled", "left_out"),
    [
        ([], {"shared_logistic_updates", "job"}, {"full_softmax_update", "one_vs_all_update"}),
        (["--model", "cbow"], {"job"},
         {"shared_logistic_updates", "full_softmax_update", "one_vs_all_update"}),
    ],
)  # fmt: skip
def test_a_run_compiles_its_models_path_and_loss_alone(
    toy_corpus, tmp_path, options, compiled, left_out
):
    """Skip-gram with negative sampling compiles the window step it shares among a window's
    inputs, CBOW does not; neither compiles the full softmax nor one-vs-all, which every run
    compiled while the model and loss were arguments (docs/design.md lists each model's)."""
    run = _fresh_cache_run(COMPILED, tmp_path / "cache", str(toy_corpus), str(tmp_path / "m.wv"),
                           *options)  # fmt: skip
    assert run.returncode == 0, run.stderr
    names = set(run.stdout.split())
    assert compiled <= names and not left_out & names


def test_numbas_inliner_copies_a_functions_scope_once_per_copy():
    """The fix of numba's quadratic inlining applies to the numba installed (were its source
    changed, it would be skipped, and first runs would be seconds slower without a word)."""
    import numba.core.inline_closurecall as inlining

    from wordvec.kernels.specialize import _BlockCopies, share_scope_copies

    assert share_scope_copies() and isinstance(inlining.copy, _BlockCopies)


FACTORY = """
from numba import njit

def make(constant):
    @njit(cache=True)
    def kernel(x):
        return x + constant
    return kernel
"""

COMPILE_SOME = """
import sys
import wordvec.kernels  # the locked cache saves
from factory import make
for constant in map(int, sys.argv[1:]):
    assert make(constant)(1000) == 1000 + constant
"""


def test_processes_compiling_into_one_cache_keep_each_closure_its_own_code(tmp_path):
    """Closures of one function with the same argument types share an index file; processes
    saving into it at once must not give one closure's key another's code (numba alone can:
    both take the first free data file name). Two processes compile eight closures each, in
    opposite orders, at once; a third then loads every one and gets its own answer."""
    (tmp_path / "factory.py").write_text(textwrap.dedent(FACTORY))
    cache = tmp_path / "cache"
    environment = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": str(tmp_path)}
    constants = [str(c) for c in range(8)]
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", COMPILE_SOME, *order],
            env=environment,
            stderr=subprocess.PIPE,
            text=True,
        )
        for order in (constants, constants[::-1])
    ]
    assert [run.wait() for run in runs] == [0, 0], [run.stderr.read() for run in runs]
    assert list(cache.rglob("*.nbi.lock"))
    check = "from numba.core import event\n" + COMPILE_SOME.replace(
        "for constant", "compiled = []\nclass Heard(event.Listener):\n"
        "    def on_start(self, ev): compiled.append(1)\n    def on_end(self, ev): pass\n"
        "event.register('numba:compile', Heard())\nfor constant"
    ) + "assert not compiled, 'loaded from the cache'\n"  # fmt: skip
    loaded = subprocess.run([sys.executable, "-c", check, *constants], env=environment,
                            capture_output=True, text=True)  # fmt: skip
    assert loaded.returncode == 0, loaded.stderr


@pytest.mark.slow
def test_warmup_compiles_what_a_first_run_would(toy_corpus, tmp_path):
    """After ``wordvec warmup --model cbow``, a first CBOW run compiles nothing and says
    nothing of compiling."""
    cache = tmp_path / "cache"
    warm = _fresh_cache_run(
        "from wordvec.cli import main; main(['warmup', '--model', 'cbow', '--jobs', '1'])", cache
    )
    assert warm.returncode == 0, warm.stderr
    assert "compiled cbow (" in warm.stderr
    first = _fresh_cache_run(
        "import sys; from wordvec.cli import main; main(sys.argv[1:])", cache, "train",
        str(toy_corpus), "-o", str(tmp_path / "m.wv"), "--model", "cbow", "--min-count", "1",
    )  # fmt: skip
    assert first.returncode == 0, first.stderr
    assert "compiling the" not in first.stderr


def test_warmup_names_what_it_knows():
    from wordvec.cli.warmup import WARMED_CHOICES
    from wordvec.training.warmup import WARMED, warm_up

    assert list(WARMED) == WARMED_CHOICES

    with pytest.raises(ConfigError, match="not glovee"):
        warm_up(["glovee"])
