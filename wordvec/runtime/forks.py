"""Whether this process is a fork of the one that imported this module: OpenMP's threads
(faiss's) do not survive a fork, so a forked child runs the work that would use them on one
thread (faiss's waits on them forever)."""

from __future__ import annotations

import os

_forked = False


def _note_fork() -> None:
    global _forked
    _forked = True


os.register_at_fork(after_in_child=_note_fork)


def in_forked_child() -> bool:
    """Whether this process was forked after this module was imported (by the parent, before
    it started any OpenMP threads: the modules that start them import it)."""
    return _forked
