"""What the side-by-side benchmarks share: a command timed as a whole process, the CPU, and a
fair BLAS for the peers that link one."""

from __future__ import annotations

import compileall
import os
import re
import resource
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

PACKAGE = Path(__file__).resolve().parents[2] / "wordvec"


def byte_compile_wordvec() -> None:
    """Write the ``.pyc`` files of wordvec's modules, as pip does when it installs a package.

    A checkout installed in editable mode compiles its modules when first imported and keeps
    the ``.pyc`` files, unless ``PYTHONDONTWRITEBYTECODE`` is set (it was, on this project's
    VM): then every timed wordvec process compiled every module again, 0.25 s of a 0.85 s
    doc2vec run on 50 lines, which no installed wordvec pays and no peer (installed by pip,
    compiled) paid. :func:`timed` calls it before its first command; it compiles only what
    changed."""
    global _compiled
    if not _compiled:
        compileall.compile_dir(PACKAGE, quiet=1)
        _compiled = True


_compiled = False


def timed(command: list[str]) -> tuple[float, int, str]:
    """Run ``command``; its wall seconds, peak RSS (MB, from ``wait4``) and standard output.

    Linux keeps a process's peak RSS across ``exec``, so a child starts from the peak of the
    process that spawned it: a benchmark that held 331 MB (a corpus slice built in memory)
    reported 331 MB for every tool it timed. A peak no higher than this process's own is
    therefore flagged on standard error: it may be ours, not the command's."""
    byte_compile_wordvec()
    own_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    output = process.stdout.read().decode()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    if status != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({status})")
    if usage.ru_maxrss <= own_peak:
        name = " ".join(command)[:80]
        own = f"the benchmark's own ({own_peak // 1024} MB)"
        print(f"peak RSS of {name} ({usage.ru_maxrss // 1024} MB) is not above {own}: it may "
              "be the benchmark's", file=sys.stderr)  # fmt: skip
    return seconds, usage.ru_maxrss // 1024, output


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


GENERIC_OPENBLAS_CORES = frozenset(
    {"Prescott", "Katmai", "Coppermine", "Northwood", "Banias", "Atom", "Core2", "Penryn",
     "Dunnington", "Nehalem", "Sandybridge"}
)  # fmt: skip
"""OpenBLAS cores that a CPU with AVX2 or AVX-512 runs only when OpenBLAS does not know it."""
AVX512_OPENBLAS_CORES = frozenset({"SkylakeX", "Cooperlake", "SapphireRapids"})
"""OpenBLAS cores with AVX-512 kernels."""
_OPENBLAS_CORE = re.compile(r"Core: (\S+)")


def openblas_family() -> str | None:
    """This CPU's ``OPENBLAS_CORETYPE``: SkylakeX with AVX-512, Zen or Haswell with AVX2."""
    try:
        info = Path("/proc/cpuinfo").read_text()
    except OSError:
        return None
    flags = set(next((line for line in info.splitlines() if line.startswith("flags")), "").split())
    if "avx512f" in flags:
        return "SkylakeX"
    if "avx2" in flags:
        return "Zen" if "AuthenticAMD" in info else "Haswell"
    return None


def fair_blas(binary: str) -> tuple[dict[str, str], str]:
    """The environment to run a BLAS-linked peer in, and the OpenBLAS core it then runs.

    Debian's OpenBLAS 0.3.21 does not know CPUs newer than itself and silently falls back to
    generic kernels (``Prescott`` on an AVX-512 Xeon, where pWord2Vec then takes 1.7x as
    long); ``OPENBLAS_VERBOSE=2`` makes it print the core it picked, and
    ``OPENBLAS_CORETYPE`` picks the CPU family's kernels instead. The same goes for an AVX-512
    CPU running AVX2 kernels because ``OPENBLAS_CORETYPE`` was set for it (this project's
    AMD Zen 5 machines come with ``Haswell`` set: pWord2Vec then took 1.8x as long as with
    ``SkylakeX``). The core is "not OpenBLAS" for a binary that prints none.
    """
    environment = dict(os.environ)
    core = _openblas_core(binary, environment)
    family = openblas_family()
    below_family = core in GENERIC_OPENBLAS_CORES or (
        family == "SkylakeX" and core not in AVX512_OPENBLAS_CORES | {"not OpenBLAS"}
    )
    if below_family and family:
        environment["OPENBLAS_CORETYPE"] = family
        core = _openblas_core(binary, environment)
    return environment, core


def _openblas_core(binary: str, environment: dict[str, str]) -> str:
    """The core OpenBLAS reports as ``binary`` (run without arguments) loads it."""
    done = subprocess.run([binary], env={**environment, "OPENBLAS_VERBOSE": "2"},
                          capture_output=True, text=True, errors="replace")  # fmt: skip
    found = _OPENBLAS_CORE.search(done.stdout + done.stderr)
    return found.group(1) if found else "not OpenBLAS"


def text_tokens(text: TextIO) -> Iterator[str]:
    """The whitespace-separated tokens of ``text``, read a megabyte at a time: a benchmark that
    holds a corpus's tokens in memory hands its peak RSS on to every process it times."""
    rest = ""
    while chunk := text.read(1 << 20):
        parts = (rest + chunk).split()
        rest = "" if chunk[-1].isspace() else parts.pop()
        yield from parts
    if rest:
        yield rest
