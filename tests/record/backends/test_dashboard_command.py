"""`cc-hooks dashboard show | queue | update | close | migrate` for the file, GitHub and Jira backends."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import commit, declare, state_body


def cli(repo: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cc_hooks", "dashboard", *args, "--project", str(repo)],
                          capture_output=True, text=True, env={**os.environ, **(env or {})}, timeout=60)


def ok(repo: Path, *args: str) -> str:
    proc = cli(repo, *args)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


# --- the file backend speaks the same verb ------------------------------------------------------


def test_file_backend_every_operation(git_repo):
    assert "queued: Add the tokenizer module" in ok(git_repo, "queue", "Add the tokenizer module", "--date", "2026-11-21")
    ok(git_repo, "update", "--resume", "Start the lexer", "--claim", "Branch `main` is the trunk.", "--date", "2026-11-24")
    shown = json.loads(ok(git_repo, "show", "--json"))
    assert shown["backend"] == "file" and shown["state"]["date"] == "2026-11-24"
    assert [q["text"] for q in shown["queued"]] == ["Add the tokenizer module"]
    sha = commit(git_repo, "Add the tokenizer module", date="2026-11-25T12:00:00")
    out = ok(git_repo, "close", "tokenizer")  # the landing commit is found by the queue verifier
    assert f"landed in {sha[:7]}" in out
    text = (git_repo / "next_steps.md").read_text()
    assert f"- DONE 2026-11-21 — Add the tokenizer module, landed in `{sha[:7]}`" in text


def test_close_without_a_landing_commit_asks_for_one(git_repo):
    ok(git_repo, "queue", "Something nobody did")
    proc = cli(git_repo, "close", "Something nobody did")
    assert proc.returncode == 1 and "name it with --commit SHA" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr


# --- GitHub ---------------------------------------------------------------------------------------


def test_github_every_operation(gh_repo, github):
    ok(gh_repo, "update", "--resume", "Start the lexer", "--claim", "Nothing landed yet.")
    assert "queued: #2 Add the tokenizer" in ok(gh_repo, "queue", "Add the tokenizer")
    shown = ok(gh_repo, "show")
    assert "Dashboard: github o/r" in shown and "Resume point: Start the lexer" in shown and "#2 Add the tokenizer" in shown
    out = ok(gh_repo, "close", "#2", "--commit", "abc1234")
    assert "closed (landed in abc1234): #2 Add the tokenizer" in out
    assert github.issues[2]["state"] == "closed"
    assert json.loads(ok(gh_repo, "show", "--json"))["queued"] == []


def test_github_auth_error_is_one_line_and_non_zero(gh_repo, github):
    proc = cli(gh_repo, "queue", "x", env={"GITHUB_TOKEN": "wrong"})
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines() == [proc.stderr.strip()]
    assert "HTTP 401 unauthorized" in proc.stderr and "set GITHUB_TOKEN" in proc.stderr and "Traceback" not in proc.stderr


def test_show_when_unreachable_prints_the_last_good_read_and_fails(gh_repo, github):
    github.add_issue("cc-hooks: current state", ["cc-hooks-state"], state_body("2026-11-24", "Cached resume"))
    ok(gh_repo, "show")
    github.stop()
    proc = cli(gh_repo, "show")
    assert proc.returncode == 1
    assert "github o/r: cannot connect" in proc.stderr
    assert "dashboard as read at" in proc.stdout and "Cached resume" in proc.stdout


def test_tracker_text_is_printable_in_show(gh_repo, github):
    github.add_issue("Title with \x1b]0;pwned\x07 escape", ["cc-hooks-queue"])
    out = ok(gh_repo, "show")
    assert "\x1b" not in out and "\x07" not in out and "escape" in out


# --- Jira ---------------------------------------------------------------------------------------


def test_jira_every_operation(jira_repo, jira):
    ok(jira_repo, "update", "--resume", "Start the lexer")
    assert "queued: PROJ-2 Add the tokenizer" in ok(jira_repo, "queue", "Add the tokenizer")
    assert "PROJ-2 Add the tokenizer" in ok(jira_repo, "show")
    ok(jira_repo, "close", "PROJ-2", "--commit", "abc1234")
    assert jira.issues["PROJ-2"]["fields"]["status"]["statusCategory"]["key"] == "done"


# --- migrate ------------------------------------------------------------------------------------


FILE_DASHBOARD = """# Next steps

## CURRENT STATE — 2026-11-24
Resume point: Start the lexer
- Branch `main` is the trunk.

## QUEUED
- 2026-11-21 — Add the tokenizer
- DONE 2026-11-20 — Set up the repo
- 2026-11-22 — Write the user guide
"""


@pytest.fixture
def file_repo(git_repo, github):
    (git_repo / "next_steps.md").write_text(FILE_DASHBOARD)
    declare(git_repo, "Dashboard: file next_steps.md", f'[dashboard.github]\napi_url = "{github.url}"\n')
    return git_repo


def test_migrate_is_a_dry_run_by_default(file_repo, github):
    out = ok(file_repo, "migrate", "--to", "github", "o/r")
    assert "Would move" in out and "2 open queued item(s)" in out and "Dry run" in out
    assert github.requests == [] and (file_repo / "next_steps.md").read_text() == FILE_DASHBOARD
    assert "Dashboard: file next_steps.md" in (file_repo / "CLAUDE.md").read_text()


def test_migrate_apply_moves_state_and_queue_and_rewrites_the_declaration(file_repo, github):
    ok(file_repo, "migrate", "--to", "github", "o/r", "--apply")
    claude = (file_repo / "CLAUDE.md").read_text()
    assert "Dashboard: github o/r" in claude and "Dashboard: file" not in claude
    assert "moved to `github o/r`" in (file_repo / "next_steps.md").read_text()
    shown = json.loads(ok(file_repo, "show", "--json"))
    assert shown["backend"] == "github" and shown["state"]["date"] == "2026-11-24"
    assert [c["text"] for c in shown["state"]["claims"]] == ["Start the lexer", "Branch `main` is the trunk."]
    assert [(q["date"], q["text"]) for q in shown["queued"]] == [("2026-11-21", "#2 Add the tokenizer"), ("2026-11-22", "#3 Write the user guide")]


def test_migrate_refuses_a_tracker_that_already_holds_a_dashboard(file_repo, github):
    github.add_issue("Already here", ["cc-hooks-queue"])
    proc = cli(file_repo, "migrate", "--to", "github", "o/r", "--apply")
    assert proc.returncode == 1 and "already holds a dashboard" in proc.stderr
    assert (file_repo / "next_steps.md").read_text() == FILE_DASHBOARD


def test_migrate_from_a_tracker_is_refused(gh_repo):
    proc = cli(gh_repo, "migrate", "--to", "jira", "PROJ")
    assert proc.returncode == 1 and "migrate moves a file dashboard" in proc.stderr


def test_unknown_backend(git_repo):
    declare(git_repo, "Dashboard: linear TEAM")
    proc = cli(git_repo, "show")
    assert proc.returncode == 1 and "unknown dashboard backend 'linear'" in proc.stderr


def test_the_verb_is_registered():
    from cc_hooks.cli import verb_names

    assert "dashboard" in verb_names()


def test_migrate_into_jira_keeps_the_dates(git_repo, jira):
    (git_repo / "next_steps.md").write_text(FILE_DASHBOARD)
    declare(git_repo, "Dashboard: file next_steps.md", f'[dashboard.jira]\nurl = "{jira.url}"\n')
    ok(git_repo, "migrate", "--to", "jira", "PROJ", "--apply")
    assert "Dashboard: jira PROJ" in (git_repo / "CLAUDE.md").read_text()
    shown = json.loads(ok(git_repo, "show", "--json"))
    assert shown["state"]["date"] == "2026-11-24"
    assert [(q["date"], q["text"]) for q in shown["queued"]] == [("2026-11-21", "PROJ-2 Add the tokenizer"), ("2026-11-22", "PROJ-3 Write the user guide")]


def test_the_cli_waits_longer_than_a_hook(gh_repo, github):
    (gh_repo / ".cc-hooks.toml").write_text(f'[dashboard]\ntimeout_seconds = 0.3\n[dashboard.github]\napi_url = "{github.url}"\n')
    github.add_issue("Slow item", ["cc-hooks-queue"])
    github.delay = 0.8
    assert "Slow item" in ok(gh_repo, "show")


def test_the_cli_respects_a_remembered_rate_limit(gh_repo, github):
    github.add_issue("Item", ["cc-hooks-queue"])
    ok(gh_repo, "show")
    github.rate_limit_secondary(seconds=600)
    assert cli(gh_repo, "show").returncode == 1
    count = len(github.requests)
    proc = cli(gh_repo, "show")
    assert proc.returncode == 1 and "not retrying before" in proc.stderr and "Item" in proc.stdout
    assert len(github.requests) == count
