"""Self-tests of the end-to-end harness with a hand-written hook (no cc-hooks involved).

They prove the fake API, the runner and the transcript helpers against the real CLI, so a
failure in ``test_foundation.py`` can be told apart from a failure of the harness.
"""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

from .fakeapi import bash, write
from .harness import ClaudeRunner, big_prompt

pytestmark = pytest.mark.e2e

HOOK = textwrap.dedent(
    """
    import json, sys
    data = json.load(sys.stdin)
    with open(sys.argv[1], "a") as log:
        log.write(json.dumps(data) + "\\n")
    event = data["hook_event_name"]
    if event == "SessionStart":
        print(json.dumps({"hookSpecificOutput": {"hookEventName": "SessionStart",
                                                 "additionalContext": "HARNESS-CTX-" + data["source"]},
                          "systemMessage": "HARNESS-SYS-" + data["source"]}))
    elif event == "PreCompact":
        print("HARNESS-PRECOMPACT-" + data["trigger"])
    """
)


def install_hook(claude: ClaudeRunner, tmp_path: Path) -> Path:
    script, log = tmp_path / "hook.py", tmp_path / "hook-inputs.jsonl"
    script.write_text(HOOK, encoding="utf-8")
    command = f'"{sys.executable}" "{script}" "{log}"'
    claude.write_settings({"hooks": {
        event: [{"hooks": [{"type": "command", "command": command, "timeout": 10}]}]
        for event in ("SessionStart", "PreCompact", "PostCompact")
    }})
    return log


def hook_inputs(log: Path) -> list[dict]:
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def test_session_start_context_reaches_the_model(claude: ClaudeRunner, tmp_path: Path) -> None:
    log = install_hook(claude, tmp_path)
    claude.fake.queue_text("hello from the fake")

    result = claude.run("hi")

    assert result.result_text == "hello from the fake"
    assert result.transcript_path == claude.home / ".claude" / "projects" / claude.projects_dir.name / f"{result.session_id}.jsonl"
    assert result.transcript_path.exists()
    [turn] = claude.fake.turns
    assert "SessionStart hook additional context: HARNESS-CTX-startup" in turn.text
    assert "hi" in turn.last_user_text
    transcript = result.transcript()
    [success] = transcript.hook_successes("SessionStart:startup")
    assert success["exitCode"] == 0
    assert transcript.additional_context() == ["HARNESS-CTX-startup"]
    assert [m.get("content") for m in transcript.system_messages()] == ["HARNESS-SYS-startup"]
    assert [i["source"] for i in hook_inputs(log)] == ["startup"]
    assert claude.fake.unscripted == 0


def test_tool_use_then_manual_compaction(claude: ClaudeRunner, tmp_path: Path) -> None:
    log = install_hook(claude, tmp_path)
    claude.fake.summary_text = "<summary>HARNESS-SUMMARY</summary>"
    claude.fake.queue(write("notes.txt", "first\n"), bash("git add notes.txt && git commit -qm 'Add notes'"))
    claude.fake.queue_text("committed")
    sid = claude.session(["write and commit notes"], allowed_tools=["Bash", "Write"])
    assert (claude.cwd / "notes.txt").read_text() == "first\n"
    assert "Add notes" in _git_log(claude.cwd)

    claude.compact(sid, "keep the decisions")
    claude.fake.queue_text("after compaction")
    claude.run("what next?", resume=sid)

    [summary] = claude.fake.summaries
    assert "keep the decisions\n\nHARNESS-PRECOMPACT-manual" in summary.text
    after = claude.fake.turns[-1]
    assert "HARNESS-CTX-compact" in after.text and "HARNESS-SUMMARY" in after.text
    events = [(i["hook_event_name"], i.get("source") or i.get("trigger")) for i in hook_inputs(log)]
    assert events[events.index(("PreCompact", "manual")):][:3] == [
        ("PreCompact", "manual"), ("SessionStart", "compact"), ("PostCompact", "manual")]
    post = [i for i in hook_inputs(log) if i["hook_event_name"] == "PostCompact"]
    assert post[0]["compact_summary"] == "<summary>HARNESS-SUMMARY</summary>"
    transcript = claude.transcript(sid)
    assert [b["compactMetadata"]["trigger"] for b in transcript.boundaries()] == ["manual"]
    assert len(transcript.compact_summaries()) == 1
    assert claude.fake.unscripted == 0 and claude.fake.pending == 0


def test_auto_compaction_can_be_driven(claude: ClaudeRunner, tmp_path: Path) -> None:
    log = install_hook(claude, tmp_path)

    sid = claude.drive_auto_compaction()

    transcript = claude.transcript(sid)
    assert [b["compactMetadata"]["trigger"] for b in transcript.boundaries()] == ["auto"]
    assert any("HARNESS-PRECOMPACT-auto" in s.text for s in claude.fake.summaries)
    events = [(i["hook_event_name"], i.get("source") or i.get("trigger")) for i in hook_inputs(log)]
    assert ("SessionStart", "compact") in events and ("PostCompact", "auto") in events


def _git_log(repo: Path) -> str:
    import subprocess
    return subprocess.run(["git", "-C", str(repo), "log", "--format=%s"], capture_output=True, text=True).stdout


def test_failing_hooks_are_visible(claude: ClaudeRunner, tmp_path: Path) -> None:
    """The other direction: a hook exiting 1 shows up as an error, so clean runs mean something."""
    script = tmp_path / "fail.py"
    script.write_text("import sys; sys.stdin.read(); print('HARNESS-FAIL', file=sys.stderr); sys.exit(1)\n")
    command = f'"{sys.executable}" "{script}"'
    claude.write_settings({"hooks": {event: [{"hooks": [{"type": "command", "command": command, "timeout": 10}]}]
                                     for event in ("SessionStart", "PreCompact")}})
    sid = claude.session(["hi", "more"])

    claude.compact(sid)

    transcript = claude.transcript(sid)
    errors = transcript.attachments("hook_non_blocking_error")
    assert errors and all(e.get("hookName", "").startswith("SessionStart") for e in errors)
    assert transcript.hook_successes("SessionStart:startup") == []
    assert transcript.hook_outcomes("PreCompact") == ["failed"]
    assert len(transcript.boundaries()) == 1  # exit 1 does not block compaction
