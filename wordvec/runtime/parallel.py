"""The one way wordvec runs work on threads: a pool that is safe under Ctrl-C.

The numba kernels release the GIL, so Python threads run them in parallel. Errors in a task,
in the caller's handling of a result, and Ctrl-C in the main thread set the shared ``stop``
event, which the threads (and long tasks) check between pieces of work; the calling thread
waits for every thread to return before it re-raises, so nothing writes to a temporary
directory while it is being removed.
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")
_POLL_SECONDS = 0.2


def run_pool(
    work: Callable[[Item], Result],
    items: Sequence[Item],
    threads: int,
    *,
    on_result: Callable[[Result], Any] | None = None,
    stop: threading.Event | None = None,
) -> list[Result]:
    """``work(item)`` for every item on at most ``threads`` threads, each taking the next item
    when it is free; returns the results in the order of ``items``.

    ``on_result(result)`` runs on the calling thread as each result arrives (progress bars,
    divergence checks); whatever it raises stops the pool as a task's error does.
    """
    stop = stop or threading.Event()
    pending: queue.SimpleQueue = queue.SimpleQueue()
    for index in range(len(items)):
        pending.put(index)
    finished: queue.SimpleQueue = queue.SimpleQueue()
    done = [threading.Event() for _ in range(min(threads, len(items)))]

    def worker(number: int) -> None:
        try:
            while not stop.is_set():
                try:
                    index = pending.get_nowait()
                except queue.Empty:
                    return
                finished.put((index, work(items[index])))
        except BaseException as exc:  # handed to the calling thread
            stop.set()
            finished.put(exc)
        finally:
            done[number].set()

    results: list[Any] = [None] * len(items)
    try:
        for number in range(len(done)):
            threading.Thread(target=worker, args=(number,), daemon=True).start()
        for _ in range(len(items)):
            outcome = _next(finished, done)
            if isinstance(outcome, BaseException):
                raise outcome
            index, results[index] = outcome
            if on_result is not None:
                on_result(results[index])
    except BaseException:
        stop.set()
        # Waiting on events, not Thread.join: a join interrupted by Ctrl-C can mark a running
        # thread as finished (CPython 3.11), and the next join would not wait for it.
        for event in done:
            event.wait()
        raise
    return results


def _next(finished: queue.SimpleQueue, done: list[threading.Event]):
    """The next finished task (or error), waiting in short steps so that Ctrl-C gets through."""
    while True:
        try:
            return finished.get(timeout=_POLL_SECONDS)
        except queue.Empty:
            if all(event.is_set() for event in done) and finished.empty():
                raise RuntimeError("worker threads ended before their work") from None


class Background:
    """``function(*args, **kwargs)`` on a daemon thread of its own, started at once, while the
    caller goes on; :meth:`result` waits for its value (or raises its exception). With
    :func:`run_pool`, the only places wordvec starts threads."""

    def __init__(self, function: Callable[..., Any], *args, name: str = "wordvec", **kwargs):
        self._outcome: dict[str, Any] = {}

        def run() -> None:
            try:
                self._outcome["value"] = function(*args, **kwargs)
            except BaseException as exc:  # handed to the caller of result()
                self._outcome["error"] = exc

        self._thread = threading.Thread(target=run, name=name, daemon=True)
        self._thread.start()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait at most ``timeout`` seconds (None: until it ends); whether it has ended."""
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def result(self) -> Any:
        """The function's value once it has ended; its exception is raised here."""
        self._thread.join()
        if "error" in self._outcome:
            raise self._outcome["error"]
        return self._outcome["value"]


def available_cores() -> int:
    """Cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1
