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


def test_without_a_transcript_the_session_could_not_be_checked_exit_2(repo):
    proc = cli("--project", str(repo.root), "--json")
    data = json.loads(proc.stdout)
    assert proc.returncode == 2 and data["passed"] is False
    assert {c["id"]: c["status"] for c in data["checks"]}["session"] == "COULD_NOT_CHECK"


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
