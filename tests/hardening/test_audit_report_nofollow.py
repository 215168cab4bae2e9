"""Red team of issue 42, F1: `audit --write-report` wrote through a committed COLDSTART_AUDIT.md
symlink (to ~/.claude/CLAUDE.md: a prompt injection into every later project). Through the
installed entry point, the write is refused and the link's target is untouched."""

from __future__ import annotations

import os
import subprocess


def git(repo, *args):
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


def test_audit_write_report_refuses_a_committed_symlink(installed_cli, tmp_path):
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    memory = home / ".claude" / "CLAUDE.md"
    memory.write_text("user memory\n")
    repo = tmp_path / "clone"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "README.md").write_text("demo\n")
    (repo / "COLDSTART_AUDIT.md").symlink_to(memory)
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=U", "-c", "user.email=u@example.com", "commit", "-q", "-m", "Initial")
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(tmp_path / "config")}
    proc = subprocess.run([str(installed_cli), "audit", "--write-report", "--plain"], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=120)
    assert memory.read_text() == "user memory\n"
    assert proc.returncode == 2 and "symbolic link" in proc.stderr, (proc.returncode, proc.stderr[-400:])
