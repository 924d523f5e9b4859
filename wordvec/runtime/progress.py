"""The one style of progress bar every long step shows on stderr (tqdm).

On a terminal the bar redraws in place; written to a file or a CI log it becomes a plain line
every LOG_SECONDS at most (and one at the end), instead of a flood of redraws. tqdm is imported
when a bar is shown or a note said: its import (it reads its own version through
``importlib.metadata``) was 20 ms of a quiet training run's start on the 2-vCPU VM.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import TextIO

LOG_SECONDS = 10.0


class _Lines:
    """A stream for tqdm that turns each redraw into a line of its own."""

    def __init__(self, stream: TextIO):
        self.stream = stream

    def write(self, text: str) -> None:
        text = text.replace("\r", "").replace("\x1b[A", "").strip()
        if text:
            self.stream.write(text + "\n")

    def flush(self) -> None:
        self.stream.flush()


def progress_bar(
    desc: str,
    total: int | None = None,
    *,
    unit: str = "w",
    quiet: bool = False,
    si: bool = True,
    delay: float = 0.0,
):
    """A tqdm bar: rate with SI prefixes (words/s, updates/s; ``si=False`` for counts of a few
    things, such as tasks), ETA when ``total`` is known; shown only once ``delay`` seconds have
    passed (a step that is usually quick shows nothing). ``quiet``: a :class:`QuietBar`."""
    if quiet:
        return QuietBar(total)
    from tqdm import tqdm

    stream = sys.stderr
    terminal = hasattr(stream, "isatty") and stream.isatty()
    return tqdm(
        total=total,
        desc=desc,
        unit=unit,
        unit_scale=si,
        file=stream if terminal else _Lines(stream),
        dynamic_ncols=terminal,
        ncols=None if terminal else 100,
        ascii=None if terminal else True,
        smoothing=0.1,
        mininterval=0.5 if terminal else LOG_SECONDS,
        delay=delay,
    )


class QuietBar:
    """The bar of a quiet step: it counts (``n``, as a tqdm bar) and shows nothing."""

    def __init__(self, total: int | None = None):
        self.n = 0
        self.total = total

    def update(self, n: int = 1) -> None:
        self.n += n

    def set_postfix_str(self, text: str = "", refresh: bool = True) -> None:
        """Nothing to show."""

    def close(self) -> None:
        """Nothing to close."""

    def __enter__(self) -> QuietBar:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


def note(message: str) -> None:
    """Say one line on stderr (a summary, a note, a warning): the one channel library code
    reports through besides the bars. Written through tqdm, so a bar being drawn is not torn."""
    from tqdm import tqdm

    tqdm.write(message, file=sys.stderr)


SLOW_STEP_SECONDS = 2.0
"""A step slower than this gets a note (a first call of numba kernels that loads them from the
cache takes well under a second; one that compiles them, ten or more)."""


@contextlib.contextmanager
def noted_if_slow(started: str, finished: str, *, quiet: bool = False) -> Iterator[None]:
    """Around a step that is usually quick but sometimes is not (numba compiling on a first
    run, jieba building its dictionary): past :data:`SLOW_STEP_SECONDS`, say ``started``, and
    at the end ``finished`` (``{seconds}`` is filled in), so that the wait is not shown as a
    stalled bar."""
    begun = time.perf_counter()
    timer = threading.Timer(SLOW_STEP_SECONDS, note, [started])
    timer.daemon = True
    if not quiet:
        timer.start()
    try:
        yield
    finally:
        timer.cancel()
        took = time.perf_counter() - begun
        if not quiet and took > SLOW_STEP_SECONDS:
            note(finished.format(seconds=took))


class Spinner:
    """A line that shows a step is alive while it has no count to show (numba compiling): on a
    terminal, ``desc`` with a turning mark and the seconds so far, redrawn from a thread of its
    own and cleared at :meth:`stop`; elsewhere (a log) nothing, as the notes around the step
    say what it was and how long it took."""

    MARKS = "|/-\\"

    def __init__(self, desc: str, seconds_before: float = 0.0):
        self.desc = desc
        self.seconds_before = seconds_before  # the step's seconds before this part of it
        self._done = threading.Event()
        self._turning = None

    def start(self) -> None:
        from wordvec.runtime.parallel import Background

        stream = sys.stderr
        if self._turning is None and hasattr(stream, "isatty") and stream.isatty():
            self._turning = Background(self._turn, name="spinner")

    def _turn(self) -> None:
        from tqdm import tqdm

        begun = time.perf_counter() - self.seconds_before
        with tqdm(file=sys.stderr, bar_format="{desc}", leave=False) as line:
            turn = 0
            while not self._done.wait(0.25):
                turn += 1
                seconds = time.perf_counter() - begun
                line.set_description_str(f"{self.desc} {self.MARKS[turn % 4]} {seconds:.0f} s")

    def stop(self) -> None:
        self._done.set()
        if self._turning is not None:
            self._turning.result()


def announces_compiling(run: str) -> Callable[[Callable], Callable]:
    """A decorator: each call of the function (an API call that takes ``quiet``, as
    :func:`wordvec.quantize` does) is a run of ``run`` that
    :func:`~wordvec.kernels.specialize.watch_compiling` watches, so that its first run says it
    compiles. Here, not there, so that decorating imports no numba (the command line's
    modules import the functions' modules without running them)."""

    def decorate(function: Callable) -> Callable:
        default = inspect.signature(function).parameters["quiet"].default

        @functools.wraps(function)
        def watched(*args, **kwargs):
            from wordvec.kernels.specialize import watch_compiling

            with watch_compiling(run, quiet=kwargs.get("quiet", default)):
                return function(*args, **kwargs)

        return watched

    return decorate
