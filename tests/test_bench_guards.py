"""`python bench/bench_guards.py --smoke` keeps the guards benchmark from rotting: a 300-commit history, one
timed run each. It asserts the proof succeeded and every figure is printed, not the targets (timings on a CI
machine prove nothing), and that it stays within a CI budget of seconds."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUDGET_SECONDS = 60  # a timeout fails the test; about 3 s on an idle 2-core machine


def test_guards_bench_smoke_proves_the_guard_and_prints_every_figure(tmp_path):
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_guards.py"), "--smoke"],
                          capture_output=True, text=True, timeout=BUDGET_SECONDS, cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    out = proc.stdout
    assert "Repository: 300 commits" in out and "--smoke" in out
    for row in ("| the guard alone (pytest one test)", "| the guard ×2 (the floor of a proof)",
                "| cc-hooks guards list (resolve only)", "| cc-hooks guards prove (one guard)"):
        assert row in out, row
    assert "proof overhead over the floor:" in out
