"""cc-hooks wired by `cc-hooks install`, driven through the real Claude Code CLI.

Each scenario asserts on what reached the model (the fake's request log), on the transcript
and on the repository. ``cc-hooks`` is made resolvable the way a user's setup does it: the
project-scope command installed into ``.claude/settings.json`` tries
``$CLAUDE_PROJECT_DIR/.venv/bin/cc-hooks`` and then ``cc-hooks`` on PATH; the test links the
console script into ``~/.local/bin`` of the temp HOME (as pipx would), which is first on PATH.
"""

from __future__ import annotations

import json
import subprocess
import textwrap
from pathlib import Path

import pytest

from .fakeapi import bash, edit, read
from .harness import ClaudeRunner, Transcript

pytestmark = pytest.mark.e2e

SUMMARY = "<analysis>fake analysis</analysis>\n<summary>E2E-SUMMARY-7f3a: fixed add() in calc.py, committed.</summary>"
TOOLS = ["Bash", "Edit", "Read", "Write"]


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout.strip()


def install_cc_hooks(claude: ClaudeRunner, cc_hooks_exe: Path) -> None:
    claude.link_on_path(cc_hooks_exe)
    proc = subprocess.run([str(cc_hooks_exe), "install", "--project", str(claude.cwd)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    settings = json.loads((claude.cwd / ".claude" / "settings.json").read_text())
    assert {"SessionStart", "PreCompact", "PostCompact"} <= set(settings["hooks"])


def assert_hooks_clean(transcript: Transcript, *hook_names: str) -> None:
    """Each named hook ran and exited 0; no hook reported an error."""
    for name in hook_names:
        runs = transcript.hook_successes(name)
        assert runs, f"no hook_success for {name}"
        assert all(run["exitCode"] == 0 for run in runs), runs
    errors = transcript.attachments("hook_non_blocking_error") + transcript.attachments("hook_blocking_error")
    assert errors == []


@pytest.fixture
def wired(claude: ClaudeRunner, cc_hooks_exe: Path) -> ClaudeRunner:
    install_cc_hooks(claude, cc_hooks_exe)
    return claude


def test_session_start_reports_repo_state_to_the_model(wired: ClaudeRunner) -> None:
    head = git(wired.cwd, "rev-parse", "HEAD")
    wired.fake.queue_text("hello")

    result = wired.run("hi")

    transcript = result.transcript()
    assert_hooks_clean(transcript, "SessionStart:startup")
    [context] = transcript.additional_context()
    assert "cc-hooks" in context and "main" in context and head[:12] in context
    [turn] = wired.fake.turns
    assert f"SessionStart hook additional context: {context}" in turn.text
    assert result.result_text == "hello"


CALC = "def add(a, b):\n    return a - b\n"
TEST_CALC = textwrap.dedent(
    """
    from calc import add
    assert add(2, 3) == 5, f"add(2, 3) returned {add(2, 3)}"
    print("1 passed")
    """
)


def test_compaction_after_real_work(wired: ClaudeRunner) -> None:
    repo, fake = wired.cwd, wired.fake
    (repo / "calc.py").write_text(CALC)
    (repo / "test_calc.py").write_text(TEST_CALC)
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "Add calc")
    fake.summary_text = SUMMARY
    fake.queue(bash("python3 test_calc.py", "run the tests"))
    fake.queue_text("The test fails: add() subtracts. Decision: fix add(), not the test.")
    fake.queue(
        read("calc.py"),
        edit("calc.py", "return a - b", "return a + b"),
        bash("python3 test_calc.py", "run the tests"),
        bash("git commit -qam 'Fix add() subtracting' -m 'Symptom: add(2, 3) returned -1'", "commit"),
    )
    fake.queue_text("Fixed and committed.")

    sid = wired.session(["run the tests", "fix it and commit"], allowed_tools=TOOLS)

    results = fake.tool_results()
    assert [r.get("is_error", False) for r in results] == [True, False, False, False, False]
    assert "add(2, 3) returned -1" in str(results[0]["content"])  # the failing run reached the model
    assert "1 passed" in str(results[3]["content"])
    assert git(repo, "log", "-1", "--format=%s") == "Fix add() subtracting"
    assert (repo / "calc.py").read_text() == "def add(a, b):\n    return a + b\n"
    head = git(repo, "rev-parse", "HEAD")

    wired.compact(sid, "keep the decisions")
    fake.queue_text("Continuing.")
    wired.run("what next?", resume=sid)

    [summary_request] = fake.summaries
    instructions = summary_request.last_user_text.split("Additional Instructions:", 1)[1]
    assert instructions.lstrip().startswith("keep the decisions\n\ncc-hooks")  # PreCompact's stdout follows
    assert head[:12] in instructions
    state = repo / ".git" / "cc-hooks"
    assert [p for p in state.rglob("*") if p.is_file() and "E2E-SUMMARY-7f3a" in p.read_text(errors="replace")], \
        f"PostCompact stored no summary under {state}"
    transcript = wired.transcript(sid)
    assert_hooks_clean(transcript, "SessionStart:compact")
    assert transcript.hook_outcomes("PreCompact") == transcript.hook_outcomes("PostCompact") == ["completed successfully"]
    assert [b["compactMetadata"]["trigger"] for b in transcript.boundaries()] == ["manual"]
    compact_context = [c for c in transcript.additional_context() if "after a context compaction" in c]
    assert compact_context and head[:12] in compact_context[0]
    next_turn = fake.turns[-1]
    assert compact_context[0] in next_turn.text and "E2E-SUMMARY-7f3a" in next_turn.text
    assert fake.unscripted == 0 and fake.pending == 0


def break_state_dir(repo: Path) -> None:
    import shutil

    state = repo / ".git" / "cc-hooks"
    shutil.rmtree(state, ignore_errors=True)  # the first hooks may have made it already (the prefetch list)
    state.write_text("not a directory\n")


def break_head(repo: Path) -> None:
    (repo / ".git" / "HEAD").write_text("garbage\n")


@pytest.mark.parametrize("breakage", [break_state_dir, break_head], ids=["state-dir-is-a-file", "garbage-HEAD"])
def test_broken_state_never_breaks_the_session(wired: ClaudeRunner, breakage) -> None:
    wired.fake.queue_text("first answer")
    sid = wired.run("hi").session_id
    wired.fake.queue_text("second answer")
    wired.run("more", resume=sid)
    breakage(wired.cwd)

    wired.fake.queue_text("still here")
    result = wired.run("and now?", resume=sid)
    wired.compact(sid, "keep going")

    assert result.result_text == "still here"
    assert "and now?" in wired.fake.turns[-1].last_user_text  # the request was made
    [summary_request] = wired.fake.summaries
    assert "keep going\n\ncc-hooks" in summary_request.last_user_text  # PreCompact answered
    transcript = wired.transcript(sid)
    assert_hooks_clean(transcript, "SessionStart:startup", "SessionStart:compact")
    assert transcript.hook_outcomes("PreCompact") == ["completed successfully"]
    assert transcript.hook_outcomes("PostCompact") == ["completed successfully"]
    assert any("rehydration report after a context compaction" in c for c in transcript.additional_context())
    assert [b["compactMetadata"]["trigger"] for b in transcript.boundaries()] == ["manual"]
