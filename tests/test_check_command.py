"""`cc-hooks check`: JSON shape, table, exit codes 0 / 1 / 2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from checks.conftest import build_record_repo


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cc_hooks", "check", *args], capture_output=True, text=True, timeout=120)


@pytest.fixture
def repo(tmp_path):
    return build_record_repo(tmp_path)


def test_json_all_repo_checks_pass_exit_0(repo):
    proc = cli("--project", str(repo.root), "--json", *[a for c in ("ledgers", "questions", "committed", "audit") for a in ("--only", c)])
    data = json.loads(proc.stdout)
    assert proc.returncode == 0 and data["passed"] is True
    assert [c["id"] for c in data["checks"]] == ["ledgers", "questions", "committed", "audit"]
    assert all(set(c) >= {"id", "status", "summary", "findings"} for c in data["checks"])


def test_by_hand_with_no_session_in_this_project_the_session_check_passes_and_says_why(repo, tmp_path, monkeypatch):
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude"))
    proc = cli("--project", str(repo.root), "--json")
    data = json.loads(proc.stdout)
    session = {c["id"]: c for c in data["checks"]}["session"]
    assert proc.returncode == 0 and data["passed"] is True, data
    assert session["status"] == "PASS" and "no Claude Code session has run in this project" in session["summary"]


def test_by_hand_the_newest_session_transcript_of_the_project_is_swept(repo, tmp_path, monkeypatch):
    from cc_hooks.transcript.store import escape_project
    from transcript.conftest import Synth

    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude"))
    synth = Synth(cwd=str(repo.root))
    synth.user("edit the notes")
    repo.write("notes.txt", "x\n")
    synth.tool("Write", {"file_path": str(repo.root / "notes.txt"), "content": "x\n"}, "File created")
    synth.write(tmp_path / "claude" / "projects" / escape_project(str(repo.root)) / "s1.jsonl")
    proc = cli("--project", str(repo.root), "--json", "--only", "session")
    [session] = json.loads(proc.stdout)["checks"]
    assert session["status"] == "FAIL" and any("notes.txt" in str(f) for f in session["findings"]), session


def test_a_fail_exits_1_and_names_the_file_in_the_table(repo):
    repo.write("next_steps.md", repo.read("next_steps.md") + "- more\n")
    proc = cli("--project", str(repo.root), "--only", "committed")
    assert proc.returncode == 1 and "next_steps.md" in proc.stdout and "FAIL" in proc.stdout


def test_unknown_check_and_non_repo_are_one_line_errors(repo, tmp_path):
    proc = cli("--project", str(repo.root), "--only", "nope")
    assert proc.returncode == 1 and "unknown check nope" in proc.stderr
    plain = tmp_path / "plain"
    plain.mkdir()
    proc = cli("--project", str(plain))
    assert proc.returncode == 1 and "not inside a git repository" in proc.stderr
