"""The rehydration report through the real Claude Code CLI (issue 5, "Done when").

One planted repository per CLI version: ``cc-hooks install`` + ``cc-hooks init``, then a dashboard
with a sha that does not exist, a deleted path, a queued item whose work landed, a verified claim
and an unverifiable resume point. The session is driven once (two prompts, ``/compact`` with a
fake summary that claims a commit that does not exist, one more prompt on ``--resume``) and the
tests read what reached the model. A second scenario removes PreCompact from the settings.
"""

from __future__ import annotations

import datetime
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import _unavailable
from .fakeapi import FakeAnthropic
from .harness import ClaudeRunner

pytestmark = pytest.mark.e2e

TODAY = datetime.date.today().isoformat()
FAKE_SHA = "deadbee1"  # planted in the dashboard
SUMMARY_FAKE_SHA = "deadbee2"  # claimed by the harness summary
SUMMARY = (
    "<analysis>fake analysis</analysis>\n<summary>\n1. Work done:\n"
    f"- Fixed the parser in commit {SUMMARY_FAKE_SHA}.\n- Work is on branch `main`.\n</summary>"
)
COMPACT_HEADER = "## cc-hooks rehydration report after a context compaction"
RESUME_HEADER = "## cc-hooks rehydration report on resuming a session"


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout.strip()


def new_repo(path: Path) -> Path:
    path.mkdir(parents=True)
    git(path, "init", "-q", "-b", "main")
    for key, value in (("user.name", "Test User"), ("user.email", "test@example.com"), ("commit.gpgsign", "false")):
        git(path, "config", key, value)
    (path / "README.md").write_text("# test repo\n")
    git(path, "add", "README.md")
    git(path, "commit", "-q", "-m", "Initial commit")
    return path


def commit_all(repo: Path, message: str) -> str:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD")


def install_and_init(claude: ClaudeRunner, cc_hooks_exe: Path) -> None:
    claude.link_on_path(cc_hooks_exe)
    for verb in ("install", "init"):
        proc = subprocess.run([str(cc_hooks_exe), verb, "--project", str(claude.cwd)], capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stdout + proc.stderr


def plant_dashboard(repo: Path) -> str:
    """The planted record; returns the sha of the commit the verified claim names."""
    (repo / "gone.py").write_text("HELPER = 1\n")
    started = commit_all(repo, "Start the record")
    git(repo, "rm", "-q", "gone.py")
    git(repo, "commit", "-q", "-m", "Drop gone.py")
    (repo / "test_negative.py").write_text("assert -2 + -3 == -5\n")
    commit_all(repo, "Add a regression test for negative numbers")
    (repo / "next_steps.md").write_text(
        f"# Next steps\n\n## CURRENT STATE — {TODAY}\n"
        "Resume point: continue with the login loop.\n"
        f"- Fix for the login loop landed in `{FAKE_SHA}`.\n"
        "- Helper code lives in `gone.py`.\n"
        f"- The record was started in `{started[:7]}`.\n\n"
        f"## QUEUED\n- {TODAY} — Add a regression test for negative numbers.\n"
    )
    commit_all(repo, "Update the dashboard")
    return started


def drive(claude: ClaudeRunner) -> str:
    """Two prompts, ``/compact``, one more prompt on ``--resume``: the session id."""
    claude.fake.summary_text = SUMMARY
    claude.fake.queue_text("hello")
    claude.fake.queue_text("noted")
    sid = claude.session(["hi", "more"])
    claude.compact(sid, "keep the decisions")
    claude.fake.queue_text("Continuing.")
    claude.run("what next?", resume=sid)
    return sid


def report(text: str, header: str) -> str:
    """The report that starts with ``header`` in a request's text, up to the next context or report."""
    start = text.find(header)
    assert start >= 0, f"{header!r} did not reach the model"
    ends = [i for i in (text.find("SessionStart hook additional context", start), text.find("## cc-hooks rehydration report", start + 1)) if i >= 0]
    return text[start : min(ends) if ends else len(text)]


def section(text: str, title: str) -> str:
    match = re.search(rf"^### {re.escape(title)}.*?(?=^### |\Z)", text, re.M | re.S)
    return match.group(0) if match else ""


@pytest.fixture(scope="module")
def planted(claude_cli: Path, tmp_path_factory: pytest.TempPathFactory):
    """The planted scenario, run once per CLI version: (runner, session id, verified sha)."""
    exe = Path(sys.executable).parent / "cc-hooks"
    if not exe.exists():
        _unavailable(f"{exe} missing: install the package first (pip install -e '.[test]')")
    base = tmp_path_factory.mktemp("rehydration")
    with FakeAnthropic(max_lifetime=600) as fake:
        claude = ClaudeRunner(cli=claude_cli, fake=fake, home=base / "home", cwd=new_repo(base / "repo"))
        install_and_init(claude, exe)
        started = plant_dashboard(claude.cwd)
        sid = drive(claude)
        yield claude, sid, started


def test_after_compact_the_next_request_carries_the_report_contradictions_first(planted):
    claude, sid, started = planted
    request = claude.fake.turns[-1]
    assert "what next?" in request.last_user_text
    compact = report(request.text, COMPACT_HEADER)

    contradicted = section(compact, "CONTRADICTED (3)")
    assert f"no commit {FAKE_SHA}" in contradicted
    assert "gone.py does not exist at HEAD" in contradicted
    assert re.search(r'landed: matched by [0-9a-f]{7} "Add a regression test for negative numbers"', contradicted)
    unverified = compact.index("### UNVERIFIED")
    assert compact.index("### CONTRADICTED") < unverified < compact.index("other claim(s) verified.")
    assert "continue with the login loop" in section(compact, "UNVERIFIED")
    assert re.search(r"### [1-9]\d* other claim\(s\) verified\.", compact) and started[:7] not in contradicted
    assert "The harness summary above was written from the conversation and was not checked" in compact
    assert "Capture missed" not in compact  # PreCompact ran: its checkpoint is this compaction's
    if os.environ.get("CC_HOOKS_E2E_REPORT_OUT"):  # the README's example is this very report
        Path(os.environ["CC_HOOKS_E2E_REPORT_OUT"]).write_text(compact, encoding="utf-8")
    transcript = claude.transcript(sid)
    assert transcript.hook_outcomes("PreCompact") == ["completed successfully"]
    assert [m.get("content") for m in transcript.system_messages() if "contradicted" in str(m.get("content"))]


def test_on_resume_the_report_names_the_summarys_false_commit_contradicted(planted):
    claude, sid, _ = planted
    request = claude.fake.turns[-1]
    assert SUMMARY_FAKE_SHA in request.text  # the summary itself is in the context
    resumed = report(request.text, RESUME_HEADER)

    contradicted = section(resumed, "CONTRADICTED")
    assert re.search(rf"- `summary:\d+` \(git\): `Fixed the parser in commit {SUMMARY_FAKE_SHA}\.`", contradicted)
    assert f"no commit {SUMMARY_FAKE_SHA} in this repository" in contradicted
    assert re.search(r"Claims from the compaction summary of \d{4}-\d{2}-\d{2} were checked too", resumed)
    assert f"no commit {FAKE_SHA}" in contradicted  # and the dashboard is re-verified too
    assert SUMMARY_FAKE_SHA not in report(request.text, COMPACT_HEADER)  # only resume audits the summary


def test_without_precompact_the_report_says_the_capture_was_missed(claude: ClaudeRunner, cc_hooks_exe: Path) -> None:
    install_and_init(claude, cc_hooks_exe)
    commit_all(claude.cwd, "Start the record")
    settings_path = claude.settings_path()
    settings = json.loads(settings_path.read_text())
    del settings["hooks"]["PreCompact"]
    settings_path.write_text(json.dumps(settings, indent=2))

    sid = drive(claude)

    transcript = claude.transcript(sid)
    assert transcript.hook_outcomes("PreCompact") == [] and len(transcript.boundaries()) == 1
    compact = report(claude.fake.turns[-1].text, COMPACT_HEADER)
    [missed] = [line for line in compact.splitlines() if "Capture missed" in line]
    assert "no PreCompact checkpoint exists for this compaction" in missed
    assert re.search(r"Result: \d+/\d+ PASS", missed)
    assert "found by the compaction checklist run now" in compact
