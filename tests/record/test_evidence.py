"""Triage ranks past fixes by evidence: identifiers in diffs, named files, issue numbers, rare words; not the word "fix"."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from cc_hooks.commands.triage import INTACT, render_markdown, triage


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, text=True).stdout


def commit(root: Path, message: str, files: dict[str, str]) -> str:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
        git(root, "add", name)
    git(root, "commit", "-q", "-m", message)
    return git(root, "rev-parse", "HEAD").strip()


@pytest.fixture
def history(tmp_path: Path):
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "config", "user.email", "t@example.com")
    git(tmp_path, "config", "user.name", "T")
    commit(tmp_path, "init", {"db.py": "def delete_where(conn, sql):\n    conn.execute(sql)\n", "CHANGES.md": "# Changes\n"})
    for n in range(8):
        commit(tmp_path, f"Add table helper {n}", {f"helpers/h{n}.py": f"def helper_{n}():\n    return {n}\n"})
    shas = {"fix": commit(tmp_path, "Wrap deletes in a transaction\n\nCloses #41.",
                          {"db.py": "def delete_where(conn, sql):\n    with conn:\n        conn.execute(sql)\n"})}
    shas["release"] = commit(tmp_path, "Release 1.2: delete_where leaves the connection in an open transaction",
                             {"CHANGES.md": "# Changes\n\n- delete_where left the connection in an open transaction (#41)\n"})
    shas["docs"] = commit(tmp_path, "docs: transactions and connections", {"docs/tx.md": "open transaction\n"})
    return tmp_path, shas


def test_the_code_change_outranks_the_release_that_mentions_it(history):
    root, shas = history
    result = triage(root, ["delete_where left the connection in an open transaction"])
    assert result.prior[0].fixes[0].full_sha == shas["fix"] and result.prior[0].rank == 1
    assert "`delete_where`" in result.prior[0].matched_by
    assert result.verdict == INTACT
    ranked = [c.fixes[0].full_sha for c in result.prior] + [m["sha"] for m in result.mentions]
    assert ranked.index(shas["fix"]) < ranked.index(shas["release"])


def test_an_issue_number_finds_the_fix(history):
    root, shas = history
    result = triage(root, ["the bug in #41 is back"])
    assert result.prior[0].fixes[0].full_sha == shas["fix"] and "#41" in result.prior[0].matched_by


def test_a_named_file_counts(history):
    root, shas = history
    result = triage(root, ["deletes are not wrapped in a transaction in db.py"])
    assert result.prior[0].fixes[0].full_sha == shas["fix"] and "touches db.py" in result.prior[0].matched_by


def test_output_says_each_thing_once(history):
    root, shas = history
    commit(root, "fix: fix README typo", {"README.md": "hello\n"})
    out = render_markdown(triage(root, ["README typo"]))
    assert "fix: fix:" not in out and "cause:" not in out
    assert out.split("**Already ruled out")[0].count("fix README typo") == 1


def test_the_terminal_table_says_each_thing_once(history, capsys, monkeypatch):
    from cc_hooks.commands.triage import render_rich

    monkeypatch.setenv("COLUMNS", "400")  # one table row a line
    root, shas = history
    render_rich(triage(root, ["delete_where left the connection in an open transaction"]))
    out = capsys.readouterr().out
    assert "#1 in history" in out and out.count("Wrap deletes in a") == 1 and "why:" in out
