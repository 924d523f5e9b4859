"""The one style of progress bar every long step shows on stderr (tqdm).

On a terminal the bar redraws in place; written to a file or a CI log it becomes a plain line
every LOG_SECONDS at most (and one at the end), instead of a flood of redraws.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Iterator
from typing import TextIO

from tqdm import tqdm

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
    passed (a step that is usually quick shows nothing)."""
    stream = sys.stderr
    terminal = hasattr(stream, "isatty") and stream.isatty()
    return tqdm(
        total=total,
        desc=desc,
        unit=unit,
        unit_scale=si,
        file=stream if terminal else _Lines(stream),
        disable=quiet,
        dynamic_ncols=terminal,
        ncols=None if terminal else 100,
        ascii=None if terminal else True,
        smoothing=0.1,
        mininterval=0.5 if terminal else LOG_SECONDS,
        delay=delay,
    )


def note(message: str) -> None:
    """Say one line on stderr (a summary, a note, a warning): the one channel library code
    reports through besides the bars. Written through tqdm, so a bar being drawn is not torn."""
    tqdm.write(message, file=sys.stderr)


COMPILE_NOTE_SECONDS = 0.5
"""A first call slower than this is compiling, not loading from numba's cache: say so."""


@contextlib.contextmanager
def compiling(what: str, *, quiet: bool = False) -> Iterator[None]:
    """Around a first call of numba kernels: if it takes longer than loading them from the
    cache does, say that they are compiling (once, on a first run; the next run loads them)
    and then how long it took, so that the wait is not shown as a stalled bar."""
    started = time.perf_counter()
    timer = threading.Timer(
        COMPILE_NOTE_SECONDS, note, [f"compiling the {what} kernels (first run only)..."]
    )
    timer.daemon = True
    if not quiet:
        timer.start()
    try:
        yield
    finally:
        timer.cancel()
        took = time.perf_counter() - started
        if not quiet and took > COMPILE_NOTE_SECONDS:
            note(f"compiled the {what} kernels in {took:.1f} s; later runs load them")
