"""The fresh-clone view: HEAD only (no ignored, no uncommitted files), removed afterwards,
also when the block raises and when the process is interrupted by SIGINT or SIGTERM."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cc_hooks.audit.freshclone import FreshCloneError, fresh_clone

from .conftest import git


def worktrees(project) -> list[str]:
    return [line for line in project.git("worktree", "list", "--porcelain").splitlines() if line.startswith("worktree ")]


def dirty(project) -> None:
    project.write("CLAUDE.md", "# notes\nThe frobnicator is pinned to version 3.\n")  # ignored
    project.write(".claude/agents/x.md", "local agent\n")  # ignored directory
    project.write("notes/draft.md", "uncommitted draft\n")  # untracked
    project.write("src/calc.py", "def add(a, b):\n    return a + b  # edited, not committed\n")  # modified


def test_view_is_head_without_ignored_or_uncommitted_files(project):
    dirty(project)
    head = project.git("rev-parse", "HEAD").strip()
    with fresh_clone(project.root) as view:
        assert view.head == head and view.path.is_dir() and view.path != project.root
        assert (view.path / "SYMPTOMS.md").read_text() == project.read("SYMPTOMS.md")
        assert not (view.path / "CLAUDE.md").exists()
        assert not (view.path / ".claude").exists()
        assert not (view.path / "notes" / "draft.md").exists()
        assert (view.path / "src" / "calc.py").read_text() == "def add(a, b):\n    return a + b\n"  # HEAD's
        assert git(view.path, "rev-parse", "HEAD").strip() == head  # history is there for the ladder's last rung
        assert "CLAUDE.md" in view.ignored and ".claude/" in view.ignored
        assert {"notes/draft.md", "src/calc.py"} <= set(view.uncommitted)
    assert not view.path.exists() and not view.path.parent.exists()
    assert len(worktrees(project)) == 1
    assert (project.root / "CLAUDE.md").exists() and "edited" in project.read("src/calc.py")  # the work tree is untouched


def test_clean_repo_view_matches_the_work_tree(project):
    with fresh_clone(project.root) as view:
        tracked = set(project.git("ls-files").split())
        in_view = {str(p.relative_to(view.path)) for p in view.path.rglob("*") if p.is_file() and ".git" not in p.parts}
        assert in_view == tracked
        assert view.ignored == [] and view.uncommitted == []


def test_view_is_removed_when_the_block_raises(project):
    with pytest.raises(RuntimeError, match="boom"):
        with fresh_clone(project.root) as view:
            path = view.path
            raise RuntimeError("boom")
    assert not path.exists() and len(worktrees(project)) == 1


def test_user_git_hooks_do_not_run(project):
    hook = project.root / ".git" / "hooks" / "post-checkout"
    marker = project.root.parent / "hook-ran"
    hook.write_text(f"#!/bin/sh\ntouch {marker}\n")
    hook.chmod(0o755)
    with fresh_clone(project.root):
        pass
    assert not marker.exists()


def test_no_commits_cannot_make_a_view(tmp_path):
    git(tmp_path, "init", "-q", "-b", "main")
    with pytest.raises(FreshCloneError, match="no commits"):
        with fresh_clone(tmp_path):
            pass


HOLD = """
import sys, time
from cc_hooks.audit.freshclone import fresh_clone
with fresh_clone(sys.argv[1]) as view:
    open(sys.argv[2], "w").write(str(view.path))
    time.sleep(60)
"""


def wait_for(path: Path, seconds: float = 30.0) -> str:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if path.exists() and path.read_text():
            return path.read_text()
        time.sleep(0.05)
    raise AssertionError(f"{path} never appeared")


def _default_sigint():
    """A shell's background job starts with SIGINT ignored, and Python then installs no KeyboardInterrupt
    handler: the child gets the default disposition a person's terminal gives."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_view_is_removed_when_the_process_is_interrupted(project, tmp_path, signum):
    ready = tmp_path / "ready"
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(project.root), str(ready)], stderr=subprocess.PIPE, text=True,
                            preexec_fn=_default_sigint)
    try:
        view = Path(wait_for(ready))
        assert view.is_dir() and len(worktrees(project)) == 2
        proc.send_signal(signum)
        _, stderr = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode != 0
    assert ("KeyboardInterrupt" if signum == signal.SIGINT else "Interrupted") in stderr
    assert not view.exists() and not view.parent.exists()
    assert len(worktrees(project)) == 1


SLOW_CLAUDE = """#!{python}
import os, sys, time
with open({record!r}, "w") as handle:
    handle.write(os.getcwd() + "\\n" + str(os.getpid()))
time.sleep(60)
"""


@pytest.mark.parametrize("signum, code, said", [(signal.SIGINT, 130, "interrupted"),
                                                (signal.SIGTERM, 143, "interrupted by SIGTERM")], ids=["SIGINT", "SIGTERM"])
def test_interrupted_agent_audit_removes_the_view_and_stops_the_agent(project, tmp_path, signum, code, said):
    record = tmp_path / "agent"
    claude = tmp_path / "claude"
    claude.write_text(SLOW_CLAUDE.format(python=sys.executable, record=str(record)))
    claude.chmod(0o755)
    exe = Path(sys.executable).parent / "cc-hooks"
    proc = subprocess.Popen([str(exe), "audit", "--agent", "--claude", str(claude), "--project", str(project.root)], preexec_fn=_default_sigint,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        cwd, pid = wait_for(record).split("\n")
        assert Path(cwd).is_dir() and Path(cwd) != project.root  # the agent runs in the view
        proc.send_signal(signum)
        _, stderr = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == code and said in stderr
    assert not Path(cwd).exists() and len(worktrees(project)) == 1
    with pytest.raises(ProcessLookupError):
        os.kill(int(pid), 0)
    audits = project.state / "audits"
    assert not audits.exists() or not list(audits.glob("*.json"))  # an interrupted audit stores nothing


def test_a_killed_audits_view_is_removed_by_the_next_audit(project, tmp_path):
    ready = tmp_path / "ready"
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(project.root), str(ready)], stderr=subprocess.PIPE)
    try:
        view = Path(wait_for(ready))
    finally:
        proc.kill()  # SIGKILL: no finally runs
        proc.communicate(timeout=30)
    assert view.is_dir() and len(worktrees(project)) == 2  # left behind
    with fresh_clone(project.root) as current:
        assert not view.parent.exists() and len(worktrees(project)) == 2  # the orphan went, the new view is there
    assert not current.path.exists() and len(worktrees(project)) == 1


def test_a_live_audits_view_is_left_alone(project, tmp_path):
    ready = tmp_path / "ready"
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(project.root), str(ready)], stderr=subprocess.PIPE)
    try:
        view = Path(wait_for(ready))
        with fresh_clone(project.root):
            assert view.is_dir()  # another audit is still using it
    finally:
        proc.terminate()
        proc.communicate(timeout=30)
    assert not view.exists() and len(worktrees(project)) == 1


def test_renamed_and_spaced_paths_are_listed_as_uncommitted(project):
    project.git("mv", "README.md", "ab cd.md")
    project.write("x y z.md", "new\n")
    with fresh_clone(project.root) as view:
        assert set(view.uncommitted) == {"ab cd.md", "x y z.md"}
        assert (view.path / "README.md").exists() and not (view.path / "ab cd.md").exists()
    # A rename's source follows its entry; one whose third character is a space
    # ("ab cd.md") looks like a status line to a naive parser and came out as "cd.md".
    project.git("commit", "-q", "-m", "Rename the readme")
    project.git("mv", "ab cd.md", "renamed.md")
    with fresh_clone(project.root) as view:
        assert set(view.uncommitted) == {"renamed.md", "x y z.md"}
