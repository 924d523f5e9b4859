"""What the side-by-side benchmarks share: a command timed as a whole process, and the CPU."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path


def timed(command: list[str]) -> tuple[float, int, str]:
    """Run ``command``; its wall seconds, peak RSS (MB, from ``wait4``) and standard output."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    output = process.stdout.read().decode()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    if status != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({status})")
    return seconds, usage.ru_maxrss // 1024, output


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"
