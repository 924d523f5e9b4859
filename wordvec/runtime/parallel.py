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
    when it is free; returns the results in the order of ``items`` (:meth:`Workers.run` on
    threads of its own, ended before it returns).

    ``on_result(result)`` runs on the calling thread as each result arrives (progress bars,
    divergence checks); whatever it raises stops the pool as a task's error does.
    """
    with Workers(threads, stop) as workers:
        return workers.run(work, items, on_result=on_result)


_END = None
"""The task that ends a worker."""


class Workers:
    """At most ``threads`` threads that run the work of several :meth:`run` calls, one after
    another (a training's epochs): started as a call first needs them, ended by :meth:`close`
    (a ``with`` block's end, or an error or Ctrl-C in a call, after which the threads have all
    returned and the object runs nothing more).

    Why kept: starting a thread took 0.5-1.5 ms on the 2-vCPU VM (the new thread waits for the
    GIL that a running one holds between its kernels), and GloVe, starting two a call, spent
    30-90 ms of a 0.6 s training (15 epochs) on 62 of them.
    """

    def __init__(self, threads: int, stop: threading.Event | None = None) -> None:
        self.threads = threads
        self.stop = stop or threading.Event()
        self._tasks: queue.SimpleQueue = queue.SimpleQueue()
        self._done: list[threading.Event] = []  # a worker's, set once it has returned
        self._closed = False

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def run(
        self,
        work: Callable[[Item], Result],
        items: Sequence[Item],
        *,
        on_result: Callable[[Result], Any] | None = None,
    ) -> list[Result]:
        """``work(item)`` for every item, each thread taking the next item when it is free;
        the results in the order of ``items``. ``on_result`` as :func:`run_pool`'s. An error in
        a task or in ``on_result``, or Ctrl-C, sets ``stop``, which the threads (and long
        tasks) check between pieces of work, and is raised here once every thread has
        returned, so that nothing writes to a temporary directory while it is being removed."""
        if self._closed:
            raise RuntimeError("these workers were closed")
        finished: queue.SimpleQueue = queue.SimpleQueue()
        for index, item in enumerate(items):
            self._tasks.put((work, item, index, finished))
        results: list[Any] = [None] * len(items)
        try:
            while len(self._done) < min(self.threads, len(items)):
                done = threading.Event()
                self._done.append(done)
                threading.Thread(target=self._work, args=(done,), daemon=True).start()
            for _ in range(len(items)):
                outcome = _next(finished, self._done)
                if isinstance(outcome, BaseException):
                    raise outcome
                index, results[index] = outcome
                if on_result is not None:
                    on_result(results[index])
        except BaseException:
            self.stop.set()
            self.close()
            raise
        return results

    def close(self) -> None:
        """End the threads, once each has finished its task, and wait until all have."""
        if self._closed:
            return
        self._closed = True
        for _ in self._done:
            self._tasks.put(_END)
        # Waiting on events, not Thread.join: a join interrupted by Ctrl-C can mark a running
        # thread as finished (CPython 3.11), and the next join would not wait for it.
        for event in self._done:
            event.wait()

    def _work(self, done: threading.Event) -> None:
        """A thread's loop: the next task until the end, or until ``stop`` is set."""
        try:
            while (task := self._tasks.get()) is not _END and not self.stop.is_set():
                work, item, index, finished = task
                try:
                    finished.put((index, work(item)))
                except BaseException as exc:  # handed to the calling thread
                    self.stop.set()
                    finished.put(exc)
                    return
        finally:
            done.set()


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
    :class:`Workers`, the only places wordvec starts threads."""

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
