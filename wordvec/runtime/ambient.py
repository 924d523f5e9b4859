"""Settings a caller makes for everything below it in a block, rather than passing them down
through every trainer: the epoch callbacks, the output whose free space training checks."""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from typing import TypeVar

Value = TypeVar("Value")


@contextlib.contextmanager
def set_within(variable: contextvars.ContextVar[Value], value: Value) -> Iterator[None]:
    """``variable`` is ``value`` within the block, and what it was before after it."""
    token = variable.set(value)
    try:
        yield
    finally:
        variable.reset(token)
