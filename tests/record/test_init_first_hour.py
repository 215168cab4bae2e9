"""`init` in the first hour: an unignored virtualenv, the whole commit hint, a second queue, a baseline;
`install --scope project` and `doctor` on a repository that ignores `.claude/`."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from cc_hooks.cli import main


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


def run(capsys, *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def make_venv(repo: Path, name: str = ".venv") -> None:
    (repo / name / "lib").mkdir(parents=True)
    (repo / name / "pyvenv.cfg").write_text("home = /usr/bin\n", encoding="utf-8")


def test_an_unignored_venv_is_ignored_and_init_says_so(git_repo, capsys):
    make_venv(git_repo)
    make_venv(git_repo, "env")
    (git_repo / ".gitignore").write_text("/env/\n", encoding="utf-8")
    code, out = run(capsys, "init", "--project", str(git_repo), "--no-audit")
    assert code == 0 and "now ignores .venv/" in out and "env/," not in out
    assert (git_repo / ".gitignore").read_text(encoding="utf-8").splitlines()[-1] == "/.venv/"
    assert git(git_repo, "status", "--porcelain", "--", ".venv") == ""
    assert ".gitignore" in out.split("git add ", 1)[1].splitlines()[0]
    code, out = run(capsys, "init", "--project", str(git_repo), "--no-audit")
    assert "ignores" not in out and "Nothing to do" in out  # the second run leaves .gitignore alone


def test_a_venv_that_ignores_itself_is_left_alone(git_repo, capsys):
    make_venv(git_repo, ".venv313")
    (git_repo / ".venv313" / ".gitignore").write_text("# Created by venv; see https://docs.python.org/3/library/venv.html\n*\n")
    code, out = run(capsys, "init", "--project", str(git_repo), "--no-audit")
    assert code == 0 and "ignores" not in out and not (git_repo / ".gitignore").exists()


def test_the_commit_hint_lists_what_install_wrote_too(git_repo, capsys):
    assert run(capsys, "install", "--project", str(git_repo), "--agents")[0] == 0
    code, out = run(capsys, "init", "--project", str(git_repo), "--no-audit")
    hint = next(line for line in out.splitlines() if line.startswith("Commit them"))
    for rel in (".cc-hooks.toml", "SYMPTOMS.md", "next_steps.md", ".claude/settings.json",
                ".claude/skills/rehydrate/SKILL.md", ".claude/agents/cold-start-auditor.md"):
        assert f" {rel}" in hint, hint
    git(git_repo, "add", *hint.split("git add ", 1)[1].split())
    git(git_repo, "commit", "-q", "-m", "Add the cc-hooks record")
    assert git(git_repo, "status", "--porcelain", "--untracked-files=all") == ""


def test_an_ignored_dot_claude_is_named_by_install_doctor_and_the_hint(git_repo, capsys):
    (git_repo / ".gitignore").write_text(".claude/\n", encoding="utf-8")
    git(git_repo, "add", ".gitignore")
    git(git_repo, "commit", "-q", "-m", "Ignore .claude")
    code, out = run(capsys, "install", "--project", str(git_repo))
    assert code == 0 and "warning: .claude/settings.json is ignored by git (.gitignore:1: .claude/)" in out
    assert "git add -f .claude/settings.json" in out and "--scope local" in out
    code, out = run(capsys, "doctor", "--project", str(git_repo), "--json")
    [finding] = [c for c in json.loads(out)["checks"] if c["check"] == "settings (project) committable"]
    assert finding["status"] == "warn" and "git add -f" in finding["fix"]
    code, out = run(capsys, "init", "--project", str(git_repo), "--no-audit")
    assert "&& git add -f .claude/settings.json .claude/cc-hooks" in out  # the settings and the launcher they run
    git(git_repo, "add", "-f", ".claude/settings.json", ".claude/cc-hooks")
    code, out = run(capsys, "doctor", "--project", str(git_repo), "--json")
    assert not [c for c in json.loads(out)["checks"] if c["check"] == "settings (project) committable"]


def test_a_local_scope_install_on_an_ignored_dot_claude_is_not_warned_about(git_repo, capsys):
    (git_repo / ".gitignore").write_text(".claude/\n", encoding="utf-8")
    code, out = run(capsys, "install", "--project", str(git_repo), "--scope", "local")
    assert code == 0 and "warning" not in out


TODO = "# TODO\n\n- [ ] write the parser\n  with tests\n- [x] set up CI\n* fix the login loop\n\nNotes stay here.\n"


def test_an_existing_todo_is_listed_then_migrated_into_the_dashboard(git_repo, capsys):
    (git_repo / "TODO.md").write_text(TODO, encoding="utf-8")
    code, out = run(capsys, "init", "--project", str(git_repo), "--no-audit")
    assert code == 0 and "found    TODO.md  (2 open item(s)" in out and "cc-hooks init --migrate" in out
    assert "- write the parser; with tests" in out and "set up CI" not in out
    assert (git_repo / "TODO.md").read_text(encoding="utf-8") == TODO  # a dry run first
    code, out = run(capsys, "init", "--project", str(git_repo), "--migrate", "--no-audit")
    assert "migrated TODO.md" in out and "updated  next_steps.md  (2 item(s) queued from TODO.md)" in out
    from cc_hooks.record.backends.file import parse

    queued = [item.text for item in parse((git_repo / "next_steps.md").read_bytes()).queued]
    assert queued == ["write the parser; with tests (from TODO.md)", "fix the login loop (from TODO.md)"]
    left = (git_repo / "TODO.md").read_text(encoding="utf-8")
    assert "write the parser" not in left and "- [x] set up CI" in left and "Notes stay here." in left
    assert "moved to `next_steps.md`" in left
    code, out = run(capsys, "init", "--project", str(git_repo), "--migrate", "--no-audit")
    assert "TODO.md" not in out.split("Commit them")[0]  # nothing left to move


def test_init_ends_with_a_baseline_and_the_next_steps(git_repo, capsys):
    code, out = run(capsys, "init", "--project", str(git_repo))
    assert code == 0
    tail = out.split("First baseline:", 1)[1]
    assert "HEAD does not have the record yet" in tail and "1. git add" in tail and "2. cc-hooks audit" in tail
    hint = next(line for line in out.splitlines() if line.startswith("Commit them"))
    git(git_repo, "add", *hint.split("git add ", 1)[1].split())
    git(git_repo, "commit", "-q", "-m", "Add the cc-hooks record")
    code, out = run(capsys, "init", "--project", str(git_repo))
    assert "First baseline: the cold-start audit graded 3/3" in out and "1. cc-hooks check" in out
    code, out = run(capsys, "check", "--project", str(git_repo), "--json", "--only", "audit", "--only", "questions")
    assert code == 0, out
