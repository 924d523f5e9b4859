"""Atomic file writes: write to a temporary file beside the target, then rename.

An interrupted or failed write leaves any earlier file at the target untouched and no partial
file behind.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike, mode: str = "wb", **open_kwargs) -> Iterator[IO]:
    """Open a temporary file next to ``path``; on success rename it to ``path``.

    Example::

        with atomic_write("vectors.txt", "w", encoding="utf-8") as f:
            f.write("...")
    """
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    os.close(fd)
    os.chmod(tmp_name, 0o666 & ~_current_umask())
    try:
        with open(tmp_name, mode, **open_kwargs) as handle:
            yield handle
        os.replace(tmp_name, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp_name)
        raise


def _current_umask() -> int:
    """The process umask (mkstemp creates files 0600; finished files get the usual mode)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask
