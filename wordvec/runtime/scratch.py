"""Scratch that can be found and reaped: temporary folders and partial outputs are named after
the process that owns them, and a new run removes those whose process is gone.

A run removes its scratch however it ends, except by ``kill -9``, a power cut or an
out-of-memory kill. What such a run leaves can be large: the encoded corpus (4 bytes a
token: 40 GB for a 10-billion-token corpus) in ``wordvec-PID@HOST-*`` folders of the temporary
directory (``--tmp-dir``, else ``$TMPDIR``, else ``/tmp``), and a partial output
``.NAME.wordvec-PID@HOST-*.tmp`` beside the file being written. The next run that uses the same
temporary directory, or writes to the same directory, removes them and says so. Only a
process of this host is judged: another machine's, on a shared file system, is left alone.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import socket
import tempfile
from collections.abc import Iterator
from pathlib import Path

from wordvec.errors import WordvecError

_HOST = re.sub(r"[^A-Za-z0-9]", "_", socket.gethostname())[:40] or "host"
OWNER = f"wordvec-{os.getpid()}@{_HOST}-"
"""What the names of this process's scratch start with (after a partial output's ``.NAME.``)."""
_SCRATCH = re.compile(r"wordvec-(\d+)@([A-Za-z0-9_]+)-")
_FOLDER = re.compile(rf"^{_SCRATCH.pattern}")
_PARTIAL = re.compile(rf"^\..+\.{_SCRATCH.pattern}[^/]*\.tmp$")


@contextlib.contextmanager
def scratch_folder(tmp_dir: str | os.PathLike | None = None) -> Iterator[str]:
    """A temporary folder in ``tmp_dir`` (default: the system's), removed on exit; the
    folders there of ended runs are removed first."""
    parent = tmp_dir if tmp_dir is not None else tempfile.gettempdir()
    reap(parent, _FOLDER)
    with tempfile.TemporaryDirectory(prefix=OWNER, dir=parent) as folder:
        try:
            yield folder
        except OSError as exc:
            if not _short_write(exc):
                raise
            used, free = _size(Path(folder)), shutil.disk_usage(folder).free
            raise WordvecError(
                f"writing scratch to {parent} failed at {used / 1e6:,.1f} MB, with "
                f"{free / 1e6:,.1f} MB free there: the disk is full (or a file size limit was "
                "hit); give --tmp-dir a place with more room"
            ) from None


def _short_write(exc: OSError) -> bool:
    """Whether ``exc`` says a disk took fewer bytes than were written: ENOSPC, EFBIG, EDQUOT,
    or NumPy's ``tofile``, which says only 'N requested and M written'."""
    if exc.errno in (errno.ENOSPC, errno.EFBIG, getattr(errno, "EDQUOT", errno.ENOSPC)):
        return True
    return exc.errno is None and "requested and" in str(exc) and "written" in str(exc)


def partial_output(directory: Path, name: str) -> str:
    """A new empty file for writing ``directory/name`` before it is renamed into place; the
    partial outputs there of ended runs are removed first."""
    reap(directory, _PARTIAL)
    fd, path = tempfile.mkstemp(prefix=f".{name}.{OWNER}", suffix=".tmp", dir=directory)
    os.close(fd)
    return path


def reap(directory: str | os.PathLike, pattern: re.Pattern = _FOLDER) -> None:
    """Remove the entries of ``directory`` whose names match ``pattern`` (scratch folders, or
    partial outputs) and whose process, on this host, has ended; say what went, and its size."""
    from wordvec.runtime.progress import note  # tqdm: only when there is scratch to judge

    try:
        names = [name for name in os.listdir(directory) if pattern.match(name)]
    except OSError:  # not there (yet), or not ours to list: nothing to reap
        return
    for name in names:
        owner = _SCRATCH.search(name)
        pid, host = int(owner.group(1)), owner.group(2)
        if host != _HOST or _running(pid):
            continue
        path = Path(directory) / name
        size = _size(path)
        try:
            shutil.rmtree(path) if path.is_dir() and not path.is_symlink() else path.unlink()
        except OSError:  # another run reaped it first, or it is not ours to remove
            continue
        note(f"note: removed the scratch of an ended wordvec run (pid {pid}): {path} "
             f"({size / 1e6:,.1f} MB)")  # fmt: skip


def _running(pid: int) -> bool:
    """Whether process ``pid`` exists. Windows has no signal 0 (``os.kill`` would end the
    process there), so every process counts as running and nothing is reaped."""
    if os.name == "nt":
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: it exists
        return True
    return True


def _size(path: Path) -> int:
    if not path.is_dir():
        return path.lstat().st_size
    return sum(p.lstat().st_size for p in path.rglob("*") if not p.is_dir())
