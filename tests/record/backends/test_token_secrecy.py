"""The tracker's credentials never reach stdout, stderr, the hook log or the state directory,
even when a hostile tracker echoes them back in its error messages."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from pathlib import Path

from .conftest import GITHUB_TOKEN, JIRA_EMAIL, JIRA_TOKEN, commit, state_body


def run(repo: Path, argv: list[str], stdin: bytes = b"") -> tuple[str, str]:
    proc = subprocess.run([sys.executable, "-m", "cc_hooks", *argv], input=stdin, capture_output=True, cwd=repo, env=dict(os.environ), timeout=60)
    return proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace")


def hook(repo: Path, name: str, **fields) -> tuple[str, str]:
    payload = {"hook_event_name": name, "session_id": "sess-1", "cwd": str(repo), "transcript_path": str(repo / "t.jsonl"), **fields}
    return run(repo, ["hook"], json.dumps(payload).encode())


def everything_written(repo: Path, outputs: list[str]) -> str:
    state = repo / ".git" / "cc-hooks"
    files = [p for p in state.rglob("*") if p.is_file()]
    assert (state / "hook.log").exists() or files, "the hooks wrote nothing: the test would prove nothing"
    return "\n".join(outputs + [p.read_bytes().decode("utf-8", "replace") for p in files])


def exercise(repo: Path, cli: list[list[str]]) -> list[str]:
    outputs: list[str] = []
    for name, fields in (("SessionStart", {"source": "compact"}), ("PreCompact", {"trigger": "manual", "custom_instructions": ""}),
                         ("SessionStart", {"source": "resume"})):
        outputs.extend(hook(repo, name, **fields))
    for argv in cli:
        outputs.extend(run(repo, ["dashboard", *argv]))
    outputs.extend(run(repo, ["rehydrate", "--json"]))
    return outputs


def test_the_github_token_never_leaks(gh_repo, github):
    github.add_issue("cc-hooks: current state", ["cc-hooks-state"], state_body("2026-11-24", "Finish the parser"))
    number = github.add_issue("Add the tokenizer", ["cc-hooks-queue"], created="2026-11-21T09:00:00Z")
    commit(gh_repo, f"Tokenizer (#{number})")
    outputs = exercise(gh_repo, [["show"], ["show", "--json"], ["queue", "Another item"], ["update", "--resume", "go on"]])
    # the hostile half: the tracker echoes the credentials back in errors
    github.fail_with(500, {"message": f"internal error for Authorization: Bearer {GITHUB_TOKEN}"})
    outputs += exercise(gh_repo, [["show"], ["close", f"#{number}", "--commit", "abc1234"]])
    github.failures.clear()
    github.fail_with(401, {"message": f"Bad credentials {GITHUB_TOKEN}"})
    outputs += exercise(gh_repo, [["show"], ["queue", "x"]])
    text = everything_written(gh_repo, outputs)
    assert "github o/r unreachable" in text and "HTTP 500" in text and "HTTP 401" in text  # the failures were reported
    assert "***" in text  # ... with the echoed secret scrubbed
    assert GITHUB_TOKEN not in text
    assert GITHUB_TOKEN[4:20] not in text


def test_the_jira_credentials_never_leak(jira_repo, jira):
    from cc_hooks.record.backends._adf import to_adf

    basic = base64.b64encode(f"{JIRA_EMAIL}:{JIRA_TOKEN}".encode()).decode()
    jira.add_issue("cc-hooks: current state", ["cc-hooks-state"], to_adf(state_body("2026-11-24", "Finish the parser")))
    outputs = exercise(jira_repo, [["show"], ["queue", "Another item"]])
    jira.fail_with(500, {"errorMessages": [f"boom {JIRA_TOKEN} {basic}"]})
    outputs += exercise(jira_repo, [["show"]])
    text = everything_written(jira_repo, outputs)
    assert "jira PROJ unreachable" in text and "HTTP 500" in text
    assert JIRA_TOKEN not in text and basic not in text
