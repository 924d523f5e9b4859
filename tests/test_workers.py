"""The training threads (:class:`wordvec.runtime.parallel.Workers`): kept across calls, results
in order, and every thread returned before an error or Ctrl-C leaves a call."""

from __future__ import annotations

import threading
import time

import pytest

from wordvec.runtime.parallel import Workers, run_pool


def test_the_same_threads_run_every_call_and_results_keep_their_order():
    seen = set()

    def square(x: int) -> int:
        seen.add(threading.get_ident())
        time.sleep(0.001)  # so that both threads take items
        return x * x

    with Workers(2) as workers:
        for epoch in range(5):  # as a training's epochs
            assert workers.run(square, range(20)) == [x * x for x in range(20)]
            if epoch == 0:
                running = threading.active_count()
        assert threading.active_count() == running  # no thread started after the first call
    assert len(seen) <= 2 and threading.get_ident() not in seen
    assert run_pool(square, [3, 4], 8) == [9, 16]
    assert Workers(2).run(square, []) == []


def test_an_error_in_a_task_is_raised_once_every_thread_has_returned():
    running = threading.Event()
    ended = []

    def work(x: int) -> int:
        if x == 0:
            running.wait(5)
            raise ValueError("task 0 failed")
        running.set()
        while not workers.stop.is_set():  # a long task checks stop between pieces
            time.sleep(0.001)
        ended.append(x)
        return x

    workers = Workers(2)
    with pytest.raises(ValueError, match="task 0 failed"):
        workers.run(work, [0, 1])
    assert ended == [1]  # returned before the error reached the caller
    with pytest.raises(RuntimeError, match="closed"):
        workers.run(work, [1])


def test_ctrl_c_while_results_arrive_stops_the_threads_before_it_propagates():
    started = threading.Barrier(3)
    finished = []

    def work(x: int) -> int:
        if x < 2:
            started.wait(5)
            while not workers.stop.is_set():
                time.sleep(0.001)
            finished.append(x)
        return x

    def interrupt(result: int) -> None:  # once both long tasks run
        started.wait(5)
        raise KeyboardInterrupt

    workers = Workers(3)
    with pytest.raises(KeyboardInterrupt):
        workers.run(work, [2, 0, 1], on_result=interrupt)
    assert sorted(finished) == [0, 1]  # both long tasks saw stop and returned first
