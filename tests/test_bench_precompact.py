"""`python bench/bench_precompact.py --smoke` keeps the PreCompact benchmark from rotting: small sizes,
two runs. It asserts the figures are produced, not the targets (timings on a CI machine prove nothing)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / ".." / "shared" / "corpus" / "transcripts" / "spotter-2.1.39"


def test_precompact_bench_smoke_prints_every_figure(tmp_path):
    if not CORPUS.is_dir():
        pytest.skip(f"../shared/corpus not present: {CORPUS}")
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_precompact.py"), "--smoke"],
                          capture_output=True, text=True, timeout=120, cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    out = proc.stdout
    for row in ('| python -c "import pydantic, git"', "| PreCompact, ", "(92% dead)", "MB live (a context window)"):
        assert row in out, row
    assert "(target <= 1.3)" in out and "(target <= 2)" in out
    assert "hook output: cc-hooks compaction checklist:" in out  # the hook ran the checklist, not the fail-open path
