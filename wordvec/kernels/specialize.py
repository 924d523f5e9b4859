"""How a run compiles only the kernels it uses, and compiles them sooner.

**One compiled kernel per model and loss.** The window loop
(:func:`wordvec.kernels.windows.window_kernel`), the classifier's
(:func:`wordvec.kernels.supervised.supervised_kernel`) and inference of paragraph vectors
(:func:`wordvec.kernels.documents.inference_kernel`) are written once, for every model and
loss, but compiled for one of each: a factory makes the kernel as a closure whose model and
loss ``kind`` are its constants. Numba prunes a branch whose condition is a constant before it
compiles anything (its dead-branch pruning, which also runs after inlining, so the helpers that
take ``kind``, :func:`~wordvec.kernels.losses.loss_update` and
:func:`~wordvec.kernels.losses.add_targets`, lose the other losses' branches too): a skip-gram
run with negative sampling no longer compiles the full softmax, one-vs-all or the paragraph
vectors' steps, which an integer argument had carried into every run (41.7 s of compiling on
the 2-vCPU VM for a first skip-gram run, 10.8 s now; ``docs/design.md`` lists what each model
compiles). Numba's cache keeps the closures apart: its key holds a closure's constants (plain
integers and booleans here; a compiled function among them would change the key in every
process). Where a value is constant only by accident (``pos = 0`` before a loop), the kernels
write ``np.int64(0)``: numba types a literal ``0`` as its own type while it infers the loop,
and compiled the callee it is passed to twice, once for the literal.

**Inlining without copying a function's variables once per block.** Numba inlines a function
(``inline="always"``, as the kernels' helpers are) by deep-copying each of its blocks, and each
block's copy copies the function's whole scope, every variable it has, again: the kernels'
inlining was quadratic, ~3 s of a first skip-gram run's compiling on the 2-vCPU VM.
:func:`share_scope_copies` gives the blocks of one copy one copy of the scope, as the original
blocks share one scope; the inlined code is the same.

**Saying so while it compiles.** Numba's cache keeps what it compiled, so only a model's first
run (or the first after an upgrade of wordvec or numba) compiles; :func:`watch_compiling` says
so when numba starts compiling, with the wait to expect, rather than a silent pause; its
clock of the compiles (:class:`CompileClock`) lets autotune leave them out of its budget.
"""

from __future__ import annotations

import contextlib
import copy
import inspect
import time
from collections.abc import Callable, Iterator

from numba.core import event

from wordvec.runtime.progress import Spinner, note

_NUMBA_COPIES_BLOCKS = "copy.deepcopy(the_ir.blocks[block_label])"
"""The line of numba's ``InlineWorker.inline_ir`` whose copies :func:`share_scope_copies`
shares; where numba's source no longer has it, nothing is changed."""


class _BlockCopies:
    """Stands for the ``copy`` module in numba's ``inline_closurecall``, whose one use of it is
    to deep-copy each block of a function's IR after ``FunctionIR.copy`` starts the copy: the
    blocks copied after the same start, from the same scope, share one memo."""

    def __init__(self) -> None:
        self.memo: dict = {}
        self.scope: object = None

    def start(self) -> None:
        """A new copy of a function's IR begins."""
        self.memo, self.scope = {}, None

    def deepcopy(self, block, memo=None):
        if memo is not None:
            return copy.deepcopy(block, memo)
        scope = getattr(block, "scope", None)
        if scope is not self.scope:  # another function's blocks: their own copy
            self.memo, self.scope = {}, scope
        return copy.deepcopy(block, self.memo)

    def __getattr__(self, name: str):
        return getattr(copy, name)


def share_scope_copies() -> bool:
    """Make numba's inliner copy a function's scope once per copy of the function rather than
    once per block (see the module's docstring); return whether it applies (numba's source as
    expected). Idempotent."""
    import numba.core.inline_closurecall as inlining
    from numba.core import ir

    if isinstance(inlining.copy, _BlockCopies):
        return True
    try:
        source = inspect.getsource(inlining.InlineWorker.inline_ir)
    except (OSError, TypeError):
        return False
    if _NUMBA_COPIES_BLOCKS not in source or inlining.copy is not copy:
        return False
    copies = _BlockCopies()
    copy_function = ir.FunctionIR.copy

    def copy_starting_blocks(self):
        copies.start()
        return copy_function(self)

    ir.FunctionIR.copy = copy_starting_blocks
    inlining.copy = copies
    return True


COMPILE_SECONDS = {
    "sg": 8,
    "cbow": 5,
    "fasttext": 10,
    "doc2vec": 5,
    "glove": 6,
    "ppmi-svd": 6,
    "supervised": 7,
    "quantize": 3,
    "phrases": 4,
    "cooccur": 4,
}
"""About how long numba takes to compile what a first run of a model (``--model``) or a command
uses, on 2 cores (the 2-vCPU VM; the models: ``tests/bench/bench_first_run.py``, the cold run
less the warm one; the commands: the seconds their first run reported): the wait a first run
announces."""

RUN_NAMES = {"sg": "skip-gram", "cbow": "CBOW", "fasttext": "fastText", "glove": "GloVe",
             "ppmi-svd": "PPMI-SVD", "supervised": "classifier", "quantize": "quantizer",
             "phrases": "phrase", "cooccur": "co-occurrence"}  # fmt: skip
"""How the first-run line names the kernels of each model or command (``the quantizer
kernels``)."""

_speaking = False
"""Whether a watcher is saying what compiles: a run within another (a classifier's retraining
within ``quantize``, phrases within ``train``) then says nothing itself."""


class CompileClock(event.Listener):
    """Hears numba start and end each compile (not a load from its cache) and sums the seconds
    spent in them (``compiling``), a compile within a compile counted once."""

    def __init__(self) -> None:
        self.depth = 0
        self.compiling = 0.0  # seconds in compiles so far
        self.started = 0.0

    def on_start(self, event: event.Event) -> None:
        self.depth += 1
        if self.depth == 1:
            self.started = time.perf_counter()
            self.began()

    def on_end(self, event: event.Event) -> None:
        self.depth -= 1
        if self.depth == 0:
            self.compiling += time.perf_counter() - self.started
            self.ended()

    def began(self) -> None:
        """An outermost compile began."""

    def ended(self) -> None:
        """An outermost compile ended (``compiling`` counts it)."""

    def finish(self) -> None:
        """The run it heard ended."""


class _CompileWatcher(CompileClock):
    """A :class:`CompileClock` that says, at the first compile, what it compiles and the wait
    to expect, with a :class:`~wordvec.runtime.progress.Spinner` while each compile lasts; or,
    with ``say`` (a logger's ``info``), hands it the lines and draws no spinner."""

    def __init__(self, model: str, say: Callable[[str], object] | None = None):
        super().__init__()
        self.model = RUN_NAMES.get(model, model)
        self.seconds = COMPILE_SECONDS.get(model)
        self.said = False
        self.say = say or note
        self.spinning = say is None
        self.spinner = Spinner("compiling")

    def began(self) -> None:
        if not self.said:
            about = f": ~{self.seconds} s" if self.seconds else ""
            self.say(f"compiling the {self.model} kernels, first run only{about}")
            self.said = True
        if self.spinning:
            self.spinner = Spinner("compiling", self.compiling)
            self.spinner.start()

    def ended(self) -> None:
        if self.spinning:
            self.spinner.stop()  # cleared before a bar of the run's is drawn

    def finish(self) -> None:
        if self.said:
            self.say(f"compiled the {self.model} kernels in {self.compiling:.1f} s; later runs "
                     "load them from numba's cache")  # fmt: skip


@contextlib.contextmanager
def watch_compiling(
    model: str, *, quiet: bool = False, say: Callable[[str], object] | None = None
) -> Iterator[CompileClock]:
    """Around a run of ``model`` (a ``--model`` name, or a command of :data:`RUN_NAMES`): if
    numba compiles anything meanwhile, say so at once (``compiling the skip-gram kernels, first
    run only: ~8 s``), show a spinner while the run is in it, and at the end how long it took;
    nothing said if ``quiet``, or within a run that says it already. ``say``: where the two
    lines go instead (the gensim face's log, as gensim logs its steps), with no spinner.
    Yields the :class:`CompileClock` of the run's compiles (what a time budget leaves out, so
    that a first run's compiling does not spend it)."""
    global _speaking
    speaks = not quiet and not _speaking
    clock = _CompileWatcher(model, say) if speaks else CompileClock()
    _speaking = _speaking or speaks
    try:
        with event.install_listener("numba:compile", clock):
            try:
                yield clock
            finally:
                clock.finish()
    finally:
        if speaks:
            _speaking = False
