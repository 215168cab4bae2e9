"""The commit-msg hook, driven by real `git commit`: warns, strict rejects, chains, respects core.hooksPath."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from cc_hooks.record.commit_msg import (
    CHAINED_NAME,
    HookError,
    install_commit_msg_hook,
    python_regex_to_ere,
    uninstall_commit_msg_hook,
)

WARNING = "fix commit without a 'Symptom:' trailer"


def git(root: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(root), *args], check=check, capture_output=True, text=True)


def commit(root: Path, message: str, *extra: str) -> subprocess.CompletedProcess:
    return git(root, "commit", "--allow-empty", "-m", message, *extra, check=False)


def count(root: Path) -> int:
    out = git(root, "rev-list", "--count", "--all", check=False).stdout.strip()
    return int(out or 0)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "config", "user.email", "t@example.com")
    git(tmp_path, "config", "user.name", "T")
    return tmp_path


def test_warns_on_fix_without_trailer_but_commits(repo):
    assert install_commit_msg_hook(repo) == "installed"
    result = commit(repo, "fix(ui)!: blank screen")
    assert result.returncode == 0 and WARNING in result.stderr
    assert count(repo) == 1


def test_silent_on_trailer_and_on_non_fix(repo):
    install_commit_msg_hook(repo)
    ok = commit(repo, "fix: blank screen\n\nSymptom: blank region after startup")
    assert ok.returncode == 0 and WARNING not in ok.stderr
    plain = commit(repo, "feat: new button")
    assert plain.returncode == 0 and WARNING not in plain.stderr
    assert count(repo) == 2


def test_symptom_in_body_is_not_a_trailer(repo):
    install_commit_msg_hook(repo)
    result = commit(repo, "fix: x\n\nSymptom: looks like one\nbut this paragraph continues.")
    assert WARNING in result.stderr


def test_commit_touching_symptoms_file_is_a_fix(repo):
    install_commit_msg_hook(repo)
    (repo / "SYMPTOMS.md").write_text("# Symptom Index\n")
    git(repo, "add", "SYMPTOMS.md")
    assert WARNING in commit(repo, "Document the flicker").stderr
    (repo / "other.txt").write_text("x")
    git(repo, "add", "other.txt")
    assert WARNING not in commit(repo, "Add other").stderr


def test_strict_rejects_and_accepts(repo):
    install_commit_msg_hook(repo, strict=True)
    rejected = commit(repo, "hotfix: crash")
    assert rejected.returncode == 1 and WARNING in rejected.stderr and count(repo) == 0
    accepted = commit(repo, "hotfix: crash\n\nSymptom: crash on empty input")
    assert accepted.returncode == 0 and count(repo) == 1


def test_chains_existing_hook_and_propagates_failure(repo):
    hooks = repo / ".git" / "hooks"
    hooks.mkdir(parents=True, exist_ok=True)
    existing = hooks / "commit-msg"
    existing.write_text('#!/bin/sh\necho "local hook ran" >&2\ngrep -q NOPE "$1" && exit 3\nexit 0\n')
    existing.chmod(0o755)
    assert install_commit_msg_hook(repo) == "installed"
    assert (hooks / CHAINED_NAME).read_text().startswith("#!/bin/sh\necho")
    result = commit(repo, "fix: x")
    assert "local hook ran" in result.stderr and WARNING in result.stderr and result.returncode == 0
    failed = commit(repo, "feat: NOPE")
    assert failed.returncode != 0 and "local hook ran" in failed.stderr and count(repo) == 1
    assert uninstall_commit_msg_hook(repo) == "removed"
    assert existing.read_text().startswith("#!/bin/sh\necho") and not (hooks / CHAINED_NAME).exists()


def test_idempotent_and_updated(repo):
    assert install_commit_msg_hook(repo) == "installed"
    assert install_commit_msg_hook(repo) == "unchanged"
    assert install_commit_msg_hook(repo, strict=True) == "updated"
    assert commit(repo, "fix: x").returncode == 1


def test_respects_core_hooks_path(repo):
    git(repo, "config", "core.hooksPath", "githooks")
    install_commit_msg_hook(repo)
    assert (repo / "githooks" / "commit-msg").exists()
    assert not (repo / ".git" / "hooks" / "commit-msg").exists()
    assert WARNING in commit(repo, "fix: y").stderr


def test_config_pattern_is_used(repo):
    (repo / ".cc-hooks.toml").write_text('[trailers]\nfix_subject_pattern = "^repair\\\\s"\n')
    install_commit_msg_hook(repo)
    assert WARNING in commit(repo, "Repair the pump").stderr
    assert WARNING not in commit(repo, "fix: not a fix here").stderr


def test_uninstall_leaves_foreign_hook(repo):
    hooks = repo / ".git" / "hooks"
    hooks.mkdir(parents=True, exist_ok=True)
    (hooks / "commit-msg").write_text("#!/bin/sh\nexit 0\n")
    assert uninstall_commit_msg_hook(repo) == "foreign"
    assert (hooks / "commit-msg").exists()
    (hooks / "commit-msg").unlink()
    assert uninstall_commit_msg_hook(repo) == "absent"


def test_refuses_when_both_foreign_hook_and_local_exist(repo):
    hooks = repo / ".git" / "hooks"
    hooks.mkdir(parents=True, exist_ok=True)
    (hooks / "commit-msg").write_text("#!/bin/sh\nexit 0\n")
    (hooks / CHAINED_NAME).write_text("#!/bin/sh\nexit 0\n")
    with pytest.raises(HookError):
        install_commit_msg_hook(repo)
    assert (hooks / "commit-msg").read_text() == "#!/bin/sh\nexit 0\n"


def test_regex_translation():
    assert python_regex_to_ere(r"^fix(\s|$)") == "^fix([[:space:]]|$)"
    with pytest.raises(HookError):
        python_regex_to_ere(r"^(?:fix)")
