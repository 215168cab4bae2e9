"""`python bench/run_all.py --smoke` keeps the benchmark scripts from rotting: it builds tiny
fixtures in a fresh cache, runs every command once and writes the tables. It asserts the tables
are produced, not the targets (timings on a CI machine prove nothing)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / ".." / "shared" / "corpus" / "transcripts"


def test_run_all_smoke_writes_every_table(tmp_path):
    if not CORPUS.is_dir():
        pytest.skip(f"../shared/corpus not present: {CORPUS}")
    out = tmp_path / "benchmarks.md"
    env = {**os.environ, "CC_HOOKS_BENCH_CACHE": str(tmp_path / "cache")}
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / "run_all.py"), "--smoke", "--out", str(out)],
                          capture_output=True, text=True, env=env, timeout=300, cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    text = out.read_text(encoding="utf-8")
    for heading in ("## Targets", "## Floors and hooks", "## CLI verbs", "## Transcript work", "## Growth"):
        assert heading in text, heading
    for row in ("python -c pass", "UserPromptSubmit, nothing pending", "SessionStart report", "PreCompact",
                "PostCompact audit", "cc-hooks check", "cc-hooks rehydrate", "cc-hooks triage",
                "cc-hooks transcripts stats", "cc-hooks transcripts archive", "gzip -6", "our reader"):
        assert f"| {row}" in text, row
    # every one of our commands produced a figure (peers may be absent from a fresh cache)
    ours = [line for line in text.splitlines() if line.startswith(("| cc-hooks", "| SessionStart", "| PreCompact",
                                                                    "| PostCompact", "| UserPromptSubmit"))]
    assert ours and not [line for line in ours if "| n/a" in line], ours
    assert "Machine:" in text and "Python" in text and "git version" in text


def test_fixture_transcript_keeps_the_live_tail(tmp_path, monkeypatch):
    if not CORPUS.is_dir():
        pytest.skip(f"../shared/corpus not present: {CORPUS}")
    monkeypatch.setenv("CC_HOOKS_BENCH_CACHE", str(tmp_path))
    sys.path.insert(0, str(ROOT / "bench"))
    import fixtures
    from cc_hooks.transcript import read_live

    paths = fixtures.transcripts((1 << 20, 3 << 20))
    small, large = (read_live(p) for p in paths.values())
    assert small.live_bytes == large.live_bytes  # the same live tail
    assert large.live_offset > small.live_offset  # more dead bytes before it
    assert paths[3 << 20].read_bytes().count(b'"subtype":"compact_boundary"') >= 3  # several compactions
    assert fixtures.transcripts((1 << 20, 3 << 20)) == paths  # cached, keyed by seed and size
