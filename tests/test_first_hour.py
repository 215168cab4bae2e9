"""The scripted newcomer (issue 17's done-when): a fresh repository, the README's commands verbatim,
a virtualenv made by this machine's Python (< 3.13: it does not ignore itself).

After the setup line and the commit `init` asks for, the README's first-hour block gives a green
`check`, a healthy `doctor`, no finding from `.venv`, and plain output into a pipe. The same steps on
a clone of a project that ignores `.claude/` show the warning. One install serves the module (and
tests/test_readme_commands.py): each test works on a copy of it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from readme_setup import copy_project, git, readme_block

BOX = re.compile("[┏┃│└━─]|\x1b\\[")


def commit_what_init_lists(repo: Path, init_output: str) -> str:
    """Step 2 of the README: the `git add …` line init printed, then the commit."""
    [hint] = [line for line in init_output.splitlines() if line.startswith("Commit them so they are tracked: ")]
    add = hint.split(": ", 1)[1]
    subprocess.run(["sh", "-c", add], cwd=repo, check=True, capture_output=True, text=True)
    git(repo, "commit", "-q", "-m", "Add the cc-hooks record")
    return add


def first_hour(repo: Path, env: dict) -> list[subprocess.CompletedProcess]:
    """The README's first-hour block, verbatim, one command at a time (each one's output checked)."""
    return [subprocess.run(["sh", "-c", command], cwd=repo, env=env, capture_output=True, text=True, timeout=300)
            for command in readme_block("first-hour").split(" && ")]


@pytest.fixture(scope="module")
def newcomer(readme_install, tmp_path_factory):
    source, proc, env = readme_install
    repo = copy_project(source, tmp_path_factory.mktemp("first-hour") / "project")
    return repo, proc.stdout, env


def test_the_venv_is_ignored_and_init_lists_every_file_to_commit(newcomer):
    repo, setup_output, _ = newcomer
    assert sys.version_info < (3, 13) or (repo / ".venv" / ".gitignore").exists()
    assert "now ignores .venv/" in setup_output
    assert git(repo, "status", "--porcelain", "--", ".venv") == ""
    assert "First baseline: the cold-start audit graded" in setup_output and "Next:" in setup_output
    add = commit_what_init_lists(repo, setup_output)
    assert ".claude/settings.json" in add and ".gitignore" in add
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


def test_the_first_hour_block_is_green_healthy_plain_and_sweeps_no_venv(newcomer):
    repo, _, env = newcomer
    if git(repo, "status", "--porcelain", "--untracked-files=all"):
        commit_what_init_lists(repo, newcomer[1])
    audit, check, doctor = first_hour(repo, env)
    assert audit.returncode == 0, audit.stdout + audit.stderr
    assert check.returncode == 0, check.stdout + check.stderr
    assert "10/10 PASS" in check.stdout and ".venv" not in check.stdout
    assert doctor.returncode == 0 and doctor.stdout.rstrip().endswith("healthy"), doctor.stdout
    for proc in (audit, check, doctor):
        assert not BOX.search(proc.stdout), proc.stdout  # into a pipe: plain, unwrapped
    hook = next(line for line in doctor.stdout.splitlines() if line.startswith("hook command (project)"))
    assert hook.endswith('"$CLAUDE_PROJECT_DIR"/.claude/cc-hooks hook')  # the wired command, whole (unwrapped)
    rehydrate = subprocess.run([str(repo / ".venv" / "bin" / "cc-hooks"), "rehydrate", "--json"], cwd=repo, env=env,
                               capture_output=True, text=True, timeout=120)
    assert json.loads(rehydrate.stdout)["claims"] == []  # no placeholder resume point reported as a claim


def test_a_clone_of_a_project_that_ignores_dot_claude_shows_the_warning(readme_install, tmp_path):
    source, _, env = readme_install
    upstream = tmp_path / "upstream"
    upstream.mkdir()
    git(upstream, "init", "-q", "-b", "main")
    (upstream / ".gitignore").write_text("*.pyc\n.claude/\n", encoding="utf-8")  # as sqlite-utils does
    (upstream / "README.md").write_text("# upstream\n", encoding="utf-8")
    (upstream / "pkg").mkdir()
    (upstream / "pkg" / "__init__.py").write_text("VERSION = '1.0'\n", encoding="utf-8")
    git(upstream, "add", "-A")
    git(upstream, "-c", "user.name=U", "-c", "user.email=u@example.com", "commit", "-q", "-m", "Upstream")
    bare, clone = tmp_path / "upstream.git", tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--bare", str(upstream), str(bare)], check=True, capture_output=True)
    subprocess.run(["git", "clone", "-q", str(bare), str(clone)], check=True, capture_output=True)
    for key, value in (("user.name", "New User"), ("user.email", "new@example.com"), ("commit.gpgsign", "false")):
        git(clone, "config", key, value)
    copy_project(source / ".venv", clone / ".venv")  # the installed venv, reused
    setup = readme_block("install").split(" && ", 2)[2]  # the README line after its venv and pip steps
    proc = subprocess.run(["sh", "-c", setup], cwd=clone, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "warning: .claude/settings.json is ignored by git (.gitignore:2: .claude/)" in proc.stdout
    assert "git add -f .claude/settings.json" in proc.stdout
    doctor = subprocess.run([str(clone / ".venv" / "bin" / "cc-hooks"), "doctor"], cwd=clone, env=env,
                            capture_output=True, text=True, timeout=120)
    assert "settings (project) committable  warn" in doctor.stdout, doctor.stdout
    assert "a clone of this repository gets no hooks" in doctor.stdout
    add = commit_what_init_lists(clone, proc.stdout)  # init's hint force-adds the settings file
    assert add.endswith("&& git add -f .claude/settings.json .claude/cc-hooks")  # the settings and their launcher
    audit, check, doctor = first_hour(clone, env)
    # A clone has an upstream: the one FAIL is the commit not pushed yet, and it says so in one line.
    assert check.returncode == 1 and "9/10 PASS, 1 FAIL" in check.stdout, check.stdout
    [finding] = [line for line in check.stdout.splitlines() if line.startswith("    • ")]
    assert finding.endswith("ahead of `origin/main`; push it")
    git(clone, "push", "-q")
    audit, check, doctor = first_hour(clone, env)
    assert (audit.returncode, check.returncode, doctor.returncode) == (0, 0, 0), check.stdout + doctor.stdout
    assert "committable" not in doctor.stdout and doctor.stdout.rstrip().endswith("healthy")
