"""`cc-hooks summaries` on sessions made by the real CLI: a manual compaction in an adopted repository,
then `list`, `show` and `export` show it with the audit PostCompact made and the report SessionStart
injected (both pinned CLI versions)."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from .harness import ClaudeRunner
from .test_compaction import TIMEOUT, adopt, git

pytestmark = pytest.mark.e2e

FALSE_SHA = "deadbee3"


def summaries(claude: ClaudeRunner, exe: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "HOME": str(claude.home)}
    env.pop("CLAUDE_CONFIG_DIR", None)
    return subprocess.run([str(exe), "summaries", *args, "--project", str(claude.cwd)], capture_output=True,
                          text=True, env=env, timeout=120)


def test_summaries_list_show_and_export_a_compaction_of_the_real_cli(claude: ClaudeRunner, cc_hooks_exe: Path,
                                                                      tmp_path: Path) -> None:
    adopt(claude, cc_hooks_exe)
    head = git(claude.cwd, "rev-parse", "--short", "HEAD")
    claude.fake.queue_text("Looked at calc.py.")
    claude.fake.queue_text("Noted: integer-only arithmetic.")
    sid = claude.session(["look at calc.py", "remember: integer-only arithmetic"], timeout=TIMEOUT)
    claude.fake.summary_text = (f"<summary>Work done:\n- Adopted cc-hooks in commit {head}.\n"
                                f"- Fixed add() in commit {FALSE_SHA}.\n- Work is on branch `main`.</summary>")
    compacted = claude.compact(sid, "keep the decisions", timeout=TIMEOUT)
    assert claude.transcript(sid).boundaries(), compacted.describe()

    listed = summaries(claude, cc_hooks_exe, "list", "--json")
    assert listed.returncode == 0, listed.stderr
    (item,) = json.loads(listed.stdout)
    assert item["session_id"] == sid and item["trigger"] == "manual" and item["pre_tokens"]
    assert item["sources"] == ["transcript", "capture", "report"], item
    assert item["audit_counts"]["CONTRADICTED"] == 1 and item["audit_counts"]["VERIFIED"] >= 1

    shown = summaries(claude, cc_hooks_exe, "show", sid[:8], "1")
    assert shown.returncode == 0, shown.stderr
    out = shown.stdout
    assert "claims (the audit made at the compaction)" in out
    assert re.search(rf"Fixed add\(\) in commit {FALSE_SHA}\.\n +↳ CONTRADICTED: no commit {FALSE_SHA}", out), out
    assert re.search(rf"Adopted cc-hooks in commit {head}\.\n +↳ VERIFIED", out), out
    injected = claude.transcript(sid).additional_context("SessionStart")
    report = out.split("Rehydration report the model received after it", 1)[1]
    assert injected and all(line.strip() in report for line in injected[-1].splitlines()[:12] if line.strip())

    target = tmp_path / "session.html"
    exported = summaries(claude, cc_hooks_exe, "export", sid, "--format", "html", "-o", str(target))
    assert exported.returncode == 0, exported.stderr
    page = target.read_text()
    assert "Compaction 1" in page and "CONTRADICTED" in page and "look at calc.py" in page
    assert "default-src 'none'" in page and not re.search(r"(?i)<script|<img|<link", page)
    print(f"cli {claude.version}: summary {item['summary_chars']} chars, page {len(page)} bytes")
