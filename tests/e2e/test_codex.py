"""cc-hooks under the real Codex CLI (pinned 0.171.0) against a loopback fake of the Responses API.

One scripted session in a repository set up by `cc-hooks install --harness codex` and `cc-hooks init`,
its hooks trusted the way Codex records it (nothing bypasses the trust check):

- the doctor finds the hooks declared but untrusted, then trusted (asking `codex app-server`);
- the first model request carries the rehydration report (SessionStart startup);
- the session fixes a failing test and commits it without a `Symptom:` trailer, and the fake reports
  the commit's tool call over the auto-compact limit: Codex compacts mid-turn, and the next request
  carries the report with the checklist's capture debt (the fix commit) stated as fact;
- the fake's summary claims a commit that does not exist: the next prompt's request carries the
  audit naming it CONTRADICTED, once;
- a manual compaction through `codex app-server` (`thread/compact/start`, what /compact does)
  under `block-manual`: blocked (no summary request), then let through when asked again within 60 s.
"""

from __future__ import annotations

import json
import os
import subprocess
import textwrap
from pathlib import Path

import pytest

from .codex_harness import CodexRunner, ensure_codex, trust_hooks
from .conftest import _unavailable
from .fakeresponses import FakeResponses, command, text_turn, update_file
from .harness import PrerequisiteMissing

pytestmark = pytest.mark.e2e

CALC = "def add(a, b):\n    return a - b\n"
TEST_CALC = "from calc import add\n\nassert add(2, 3) == 5, f\"add(2, 3) returned {add(2, 3)}\"\nprint(\"1 passed\")\n"
TEST = "python3 test_calc.py"
FIX_SUBJECT = "Fix add() subtracting instead of adding"
FALSE_SHA = "deadbee1"
SUMMARY = f"Fixed add() in calc.py; fixed in commit {FALSE_SHA}. Tests pass."
REPORT = "cc-hooks rehydration report"


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout.strip()


def cc_hooks(runner: CodexRunner, exe: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    env = {**runner.env(), "PATH": f"{runner.codex.parent}:{runner.env()['PATH']}"}  # the doctor asks codex
    proc = subprocess.run([str(exe), *args, "--project", str(runner.cwd)], capture_output=True, text=True, env=env,
                          timeout=90)
    assert not check or proc.returncode == 0, proc.stdout + proc.stderr
    return proc


def doctor_trust(runner: CodexRunner, exe: Path) -> dict:
    proc = cc_hooks(runner, exe, "doctor", "--harness", "codex", "--json", check=False)
    return next(f for f in json.loads(proc.stdout)["checks"] if f["check"] == "codex hook trust")


def developer(request) -> str:
    return "\n".join(request.messages("developer"))


@pytest.fixture(scope="module")
def codex_cli() -> Path:
    try:
        return ensure_codex()
    except PrerequisiteMissing as exc:
        _unavailable(str(exc))


@pytest.fixture(scope="module")
def session(codex_cli: Path, tmp_path_factory: pytest.TempPathFactory):
    """(runner, cc-hooks exe, fix sha, requests up to the end of the first exec); fake kept running."""
    import sys

    exe = Path(sys.executable).parent / "cc-hooks"
    base = tmp_path_factory.mktemp("codex")
    repo = base / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    for key, value in (("user.name", "Test User"), ("user.email", "test@example.com"), ("commit.gpgsign", "false")):
        git(repo, "config", key, value)
    with FakeResponses(summary_text=SUMMARY, max_lifetime=600) as fake:
        runner = CodexRunner(codex_cli, fake, base / "home", repo)
        runner.link_on_path(exe)
        cc_hooks(runner, exe, "install", "--harness", "codex")
        cc_hooks(runner, exe, "init")
        (repo / "COLDSTART_QUESTIONS.md").open("a").write("- Where is add() implemented? → calc.py\n")
        (repo / "calc.py").write_text(CALC)
        (repo / "test_calc.py").write_text(TEST_CALC)
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", "Adopt cc-hooks; add calc")
        runner.trust_project()
        before = doctor_trust(runner, exe)
        trusted_keys = trust_hooks(runner)
        after = doctor_trust(runner, exe)
        fake.queue(command(TEST), update_file("calc.py", "    return a - b", "    return a + b"), command(TEST),
                   command(f"git commit -qam '{FIX_SUBJECT}' && git log --oneline -1", total_tokens=30_000),
                   text_turn("Fixed and committed."))
        runner.exec("run the tests and fix what fails")
        yield {"runner": runner, "exe": exe, "fix": git(repo, "rev-parse", "HEAD"), "before": before,
               "after": after, "trusted": trusted_keys, "first": list(fake.requests)}


def test_doctor_sees_the_hooks_untrusted_then_trusted(session):
    assert len(session["trusted"]) == 4
    assert session["before"]["status"] == "fail" and "declared but not trusted" in session["before"]["detail"]
    assert session["after"]["status"] == "ok", session["after"]


def test_startup_report_then_auto_compaction_then_the_debt_as_facts(session):
    requests, fix = session["first"], session["fix"]
    assert git(session["runner"].cwd, "log", "-1", "--format=%s") == FIX_SUBJECT
    assert f"{REPORT} at session start" in developer(requests[0])
    [compaction] = [i for i, r in enumerate(requests) if r.kind == "compaction"]
    assert requests[compaction].metadata["compaction"]["trigger"] == "auto"
    assert requests[compaction].metadata["compaction"]["phase"] == "mid_turn"
    after = developer(requests[compaction + 1])
    assert f"{REPORT} after a context compaction" in after and "Capture debt" in after and fix[:12] in after
    assert "Codex does not pass PreCompact's findings to its summarizer" in after
    assert "FAKE" not in after and SUMMARY in requests[compaction + 1].text  # Codex's own summary is there too


def test_the_summary_audit_reaches_the_next_prompt_once(session):
    runner = session["runner"]
    fake = runner.fake
    start = len(fake.requests)
    fake.queue_text("Going on.")
    runner.exec("go on", resume=True)
    audit = "\n".join(developer(r) for r in fake.requests[start:])
    assert "cc-hooks audit of the compaction summary" in audit and "CONTRADICTED" in audit and FALSE_SHA in audit
    start = len(fake.requests)
    fake.queue_text("Still going.")
    runner.exec("and again", resume=True)
    later = developer(fake.requests[-1])
    assert later.count("cc-hooks audit of the compaction summary") == 1  # the first delivery, kept in the history


def test_manual_compaction_through_app_server_then_block_manual(session):
    runner, fake = session["runner"], session["runner"].fake
    thread = runner.rollouts()[-1].stem[-36:]
    compactions = len(fake.compactions)
    with runner.app_server() as server:
        server.request("thread/resume", {"threadId": thread})
        server.request("thread/compact/start", {"threadId": thread})  # what /compact does
        server.wait_turn()
        manual = fake.compactions[compactions:]
        assert len(manual) == 1 and manual[0].metadata["compaction"]["trigger"] == "manual"
        (runner.cwd / ".cc-hooks.toml").write_text('[hooks]\nprecompact_policy = "block-manual"\n')
        (runner.cwd / "calc.py").write_text("def add(a, b):\n    return int(a) + int(b)\n")
        git(runner.cwd, "commit", "-qam", "fix: coerce string inputs")  # a new fix without its trailer: a FAIL
        server.request("thread/compact/start", {"threadId": thread})
        turn = server.wait_turn()
    assert len(fake.compactions) == compactions + 1, "block-manual let a manual compaction through"
    [done] = [n for n in turn if n.get("method") == "turn/completed"]
    assert done["params"]["turn"]["status"] == "interrupted"  # {"continue": false} stopped it
    [checkpoint] = [json.loads(p.read_text()) for p in (runner.cwd / ".git" / "cc-hooks" / "checkpoints").rglob("*.json")
                    if json.loads(p.read_text()).get("trigger") == "manual" and not json.loads(p.read_text()).get("compacted")]
    assert any(r["id"] == "trailers" and r["status"] == "FAIL" for r in checkpoint["results"])
