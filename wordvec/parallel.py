"""Run a few long tasks on threads (their numba kernels release the GIL) and wait for them.

Errors in a task, and Ctrl-C in the main thread, set the shared ``stop`` event, which the tasks
check between chunks of work; the main thread waits for every task to return before it
re-raises, so nothing writes to a temporary directory while it is being removed.
"""

from __future__ import annotations

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

    def guarded(index: int) -> None:
        try:
            results[index] = tasks[index]()
        except BaseException as exc:  # handed to the main thread
            errors.append(exc)
            stop.set()

    workers = [threading.Thread(target=guarded, args=(i,), daemon=True) for i in range(len(tasks))]
    try:
        for worker in workers:
            worker.start()
        for worker in workers:
            while worker.is_alive():
                worker.join(0.2)
    except BaseException:
        stop.set()
        for worker in workers:
            worker.join()
        raise
    if errors:
        raise errors[0]
    return results
