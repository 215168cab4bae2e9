"""Settings files that are symlinks, read-only, or on a full disk; init on a read-only tree."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path


from .faults import fill, mounted_tmpfs


# --- settings files: symlink, read-only, on a full disk -----------------------------------------


def cc_hooks(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cc_hooks", *args], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=60)


def test_install_writes_through_a_symlinked_user_settings_file_and_keeps_its_mode(repo, tmp_path):
    """The user's own settings only: a repository's are written through no symlink
    (tests/hardening/test_repo_writes_nofollow.py)."""
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    real = dotfiles / "claude-settings.json"
    real.write_text('{\n  "model": "opus",\n  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}\n}\n')
    real.chmod(0o640)
    config = tmp_path / "claude-config"
    config.mkdir()
    link = config / "settings.json"
    link.symlink_to(real)
    proc = cc_hooks("install", "--scope", "user", cwd=repo, env={"CLAUDE_CONFIG_DIR": str(config)})
    assert proc.returncode == 0, proc.stderr
    assert link.is_symlink() and os.readlink(link) == str(real)
    data = json.loads(real.read_text())
    assert data["model"] == "opus" and data["hooks"]["Stop"] and "PreCompact" in data["hooks"]
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert not [p for p in real.parent.iterdir() if p.name.endswith(".tmp")]


def test_install_refuses_a_read_only_settings_file_and_leaves_it_untouched(repo):
    (repo / ".claude").mkdir()
    path = repo / ".claude" / "settings.json"
    original = b'{\n  "model": "opus"\n}\n'
    path.write_bytes(original)
    path.chmod(0o444)
    before = path.stat()
    proc = cc_hooks("install", "--scope", "project", cwd=repo)
    assert proc.returncode != 0
    assert "read-only" in proc.stderr and str(path) in proc.stderr and "Traceback" not in proc.stderr
    assert path.read_bytes() == original and path.stat().st_ino == before.st_ino
    assert stat.S_IMODE(path.stat().st_mode) == 0o444


def test_uninstall_refuses_a_read_only_settings_file(repo):
    assert cc_hooks("install", "--scope", "project", cwd=repo).returncode == 0
    path = repo / ".claude" / "settings.json"
    original = path.read_bytes()
    path.chmod(0o444)
    proc = cc_hooks("uninstall", "--scope", "project", cwd=repo)
    assert proc.returncode != 0 and "read-only" in proc.stderr and "Traceback" not in proc.stderr
    assert path.read_bytes() == original


def test_install_on_a_full_disk_fails_with_one_line_and_keeps_the_original(repo):
    claude = repo / ".claude"
    original = b'{\n  "model": "opus"\n}\n'
    with mounted_tmpfs(claude, "64k"):
        (claude / "settings.json").write_bytes(original)
        fill(claude)
        proc = cc_hooks("install", "--scope", "project", cwd=repo)
        assert proc.returncode != 0 and "Traceback" not in proc.stderr, proc.stderr
        assert proc.stderr.strip().count("\n") == 0, proc.stderr
        assert (claude / "settings.json").read_bytes() == original
        assert not [p for p in claude.iterdir() if p.name.endswith(".tmp")]


def test_init_on_a_read_only_work_tree_fails_with_one_line(repo):
    with mounted_tmpfs(repo / "docs", "1m", readonly=True):
        (repo / ".cc-hooks.toml").write_text('[record]\nsymptoms = "docs/SYMPTOMS.md"\n')
        proc = cc_hooks("init", cwd=repo)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr and "docs/SYMPTOMS.md" in proc.stderr, proc.stderr


