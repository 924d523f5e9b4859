"""Atomic file writes: write to a temporary file beside the target, then rename.

An interrupted or failed write leaves any earlier file at the target untouched and no partial
file behind. A symlink is followed (the file it names is replaced, the link stays); a target
that is not a regular file (a device, a FIFO, a directory) is refused, never replaced.
:func:`check_output` makes the same checks, and tries the directory, before a long run starts.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from wordvec.errors import WordvecError


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike, mode: str = "wb", **open_kwargs) -> Iterator[IO]:
    """Open a temporary file next to ``path``; on success rename it to ``path``.

    Example::

        with atomic_write("vectors.txt", "w", encoding="utf-8") as f:
            f.write("...")
    """
    target = _writable_target(Path(path))
    directory = target.parent
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


def check_output(path: str | os.PathLike, *inputs: str | os.PathLike | None) -> None:
    """Raise :class:`WordvecError` now, not after hours of training, if ``path`` cannot be
    written atomically: its directory is missing or not writable (a file is created there and
    removed), it is not a regular file, or it is one of ``inputs`` (``train c.txt -o c.txt``
    would replace the corpus with the model)."""
    target = _writable_target(Path(path))
    for source in inputs:
        if source is not None and target.exists() and _same_file(target, Path(source)):
            raise WordvecError(f"the output {path} is the input file {source}; choose another")
    try:
        fd, probe = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise WordvecError(f"cannot write to {target.parent}: {exc.strerror}") from None


def _writable_target(target: Path) -> Path:
    """The file a write to ``target`` replaces: the symlink's destination for a symlink;
    refuses a directory, device or FIFO and a missing directory."""
    if target.is_symlink():
        target = target.resolve()
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.is_dir():
        raise WordvecError(f"output directory does not exist: {directory}")
    if target.exists() and not target.is_file():
        raise WordvecError(f"{target} is not a regular file; wordvec writes only regular files")
    return directory / target.name


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _current_umask() -> int:
    """The process umask (mkstemp creates files 0600; finished files get the usual mode)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask
