"""Shared timing for bench/ scripts: medians after warm-up, ratios in the same run."""

from __future__ import annotations

import os
import platform
import statistics
import subprocess
import sys
import time
from typing import Callable, Sequence


def time_command(argv: Sequence[str], runs: int, stdin: bytes = b"", cwd: str | None = None, env: dict | None = None) -> float:
    """Median wall time (seconds) of ``argv`` over ``runs`` runs, after one warm-up."""
    samples = []
    for i in range(runs + 1):
        started = time.perf_counter()
        proc = subprocess.run(argv, input=stdin, capture_output=True, cwd=cwd, env=env)
        elapsed = time.perf_counter() - started
        if proc.returncode not in (0, 1, 2):
            raise RuntimeError(f"{argv} exited {proc.returncode}: {proc.stderr[-500:]!r}")
        if i:
            samples.append(elapsed)
    return statistics.median(samples)


def time_call(fn: Callable[[], object], runs: int) -> float:
    fn()
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in open("/proc/cpuinfo", encoding="utf-8"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    git = subprocess.run(["git", "--version"], capture_output=True, text=True).stdout.strip()
    return f"{cpu}, {os.cpu_count()} cores; Python {platform.python_version()}; {git}"


def table(rows: list[tuple[str, ...]], header: tuple[str, ...]) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    fmt = lambda r: "| " + " | ".join(str(c).ljust(w) for c, w in zip(r, widths)) + " |"  # noqa: E731
    return "\n".join([fmt(header), "|" + "|".join("-" * (w + 2) for w in widths) + "|", *map(fmt, rows)])


PY = sys.executable
