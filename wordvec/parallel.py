"""Run a few long tasks on threads (their numba kernels release the GIL) and wait for them.

Errors in a task, and Ctrl-C in the main thread, set the shared ``stop`` event, which the tasks
check between chunks of work; the main thread waits for every task to return before it
re-raises, so nothing writes to a temporary directory while it is being removed.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from typing import Any


def run_parallel(
    tasks: Sequence[Callable[[], Any]], stop: threading.Event | None = None
) -> list[Any]:
    """Run each task on its own thread; return their results in order."""
    stop = stop or threading.Event()
    results: list[Any] = [None] * len(tasks)
    errors: list[BaseException] = []
    done = [threading.Event() for _ in tasks]

    def guarded(index: int) -> None:
        try:
            results[index] = tasks[index]()
        except BaseException as exc:  # handed to the main thread
            errors.append(exc)
            stop.set()
        finally:
            done[index].set()

    # Waiting on events, not Thread.join: a join interrupted by Ctrl-C can mark a running
    # thread as finished (CPython 3.11), and the next join would not wait for it.
    try:
        for index in range(len(tasks)):
            threading.Thread(target=guarded, args=(index,), daemon=True).start()
        for finished in done:
            while not finished.wait(0.2):
                pass
    except BaseException:
        stop.set()
        for finished in done:
            finished.wait()
        raise
    if errors:
        raise errors[0]
    return results


def available_cores() -> int:
    """Cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1
