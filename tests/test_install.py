"""`cc-hooks install` / `uninstall` at the CLI level, in real temporary git repos."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cc_hooks import settings

REPO_TOP = Path(__file__).resolve().parents[1]

FOREIGN = {
    "permissions": {"allow": ["Bash(git status)"], "deny": []},
    "env": {"FOO": "1"},
    "hooks": {
        "PreCompact": [{"matcher": "manual", "hooks": [{"type": "command", "command": "./tools/save.sh", "timeout": 9}]}],
        "SessionStart": [
            {"matcher": "startup", "hooks": [{"type": "command", "command": "echo hi", "statusMessage": "hi"}]}
        ],
        "PostToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "ruff format"}]}],
    },
    "model": "opus",
}


def cli(*args: str, cwd: Path, home: Path) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "HOME": str(home),
        "CLAUDE_CONFIG_DIR": str(home / "claude-config"),
    }
    return subprocess.run(
        [sys.executable, "-m", "cc_hooks", *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=60
    )


def project_settings(repo: Path) -> Path:
    return repo / ".claude" / "settings.json"


def write_json(path: Path, data, indent=2) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=indent) + "\n", encoding="utf-8")


def backups(repo: Path) -> list[Path]:
    return sorted((repo / ".git" / "cc-hooks" / "backups").glob("*.bak-*"))


def test_install_into_a_fresh_repo_writes_exactly_the_example_block(git_repo, home):
    proc = cli("install", cwd=git_repo, home=home)
    assert proc.returncode == 0, proc.stderr
    assert project_settings(git_repo).read_text(encoding="utf-8") == (REPO_TOP / "settings.example.json").read_text(
        encoding="utf-8"
    )
    for event in settings.EVENTS:
        assert f"{event}: installed" in proc.stdout
    assert "(new file)" in proc.stdout
    assert backups(git_repo) == []  # nothing existed to back up


def test_install_then_uninstall_round_trips_foreign_settings(git_repo, home):
    path = project_settings(git_repo)
    write_json(path, FOREIGN)
    assert cli("install", cwd=git_repo, home=home).returncode == 0
    installed = json.loads(path.read_text(encoding="utf-8"))
    assert {k: v for k, v in installed.items() if k != "hooks"} == {k: v for k, v in FOREIGN.items() if k != "hooks"}
    assert installed["hooks"]["PreCompact"][0] == FOREIGN["hooks"]["PreCompact"][0]
    assert installed["hooks"]["PostToolUse"] == FOREIGN["hooks"]["PostToolUse"]
    assert settings.our_handlers(installed).keys() == set(settings.EVENTS)

    proc = cli("uninstall", cwd=git_repo, home=home)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(path.read_text(encoding="utf-8")) == FOREIGN
    for event in settings.EVENTS:
        assert f"{event}: removed" in proc.stdout


def test_second_install_reports_unchanged_and_writes_nothing(git_repo, home):
    path = project_settings(git_repo)
    write_json(path, FOREIGN)
    assert cli("install", cwd=git_repo, home=home).returncode == 0
    before = (path.read_bytes(), path.stat().st_mtime_ns, backups(git_repo))
    proc = cli("install", cwd=git_repo, home=home)
    assert proc.returncode == 0
    assert (path.read_bytes(), path.stat().st_mtime_ns, backups(git_repo)) == before
    for event in settings.EVENTS:
        assert f"{event}: unchanged" in proc.stdout
    assert "nothing written" in proc.stdout


@pytest.mark.parametrize(
    "text, position",
    [
        ('{\n  "hooks": {\n    "PreCompact": [\n  }\n}\n', "line 4 column 3"),
        ('{"hooks": [{"type": "command"}]}', "`hooks` is a JSON array"),
    ],
)
@pytest.mark.parametrize("verb", ["install", "uninstall"])
def test_a_malformed_settings_file_is_refused_untouched(git_repo, home, text, position, verb):
    path = project_settings(git_repo)
    path.parent.mkdir()
    path.write_text(text, encoding="utf-8")
    before = (path.read_bytes(), path.stat().st_mtime_ns)
    proc = cli(verb, cwd=git_repo, home=home)
    assert proc.returncode != 0
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before
    assert backups(git_repo) == []
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and str(path) in lines[0] and position in lines[0]


def test_dry_run_writes_nothing_and_shows_the_plan_and_diff(git_repo, home):
    proc = cli("install", "--dry-run", cwd=git_repo, home=home)
    assert proc.returncode == 0
    assert not (git_repo / ".claude").exists()
    assert "PreCompact: installed" in proc.stdout and "dry run, nothing written" in proc.stdout
    assert f"+++ {project_settings(git_repo)}" in proc.stdout and '+            "timeout": 30' in proc.stdout

    path = project_settings(git_repo)
    write_json(path, FOREIGN)
    before = (path.read_bytes(), path.stat().st_mtime_ns)
    proc = cli("install", "--dry-run", cwd=git_repo, home=home)
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before
    assert backups(git_repo) == [] and not (git_repo / ".git" / "cc-hooks").exists()
    assert "--- " in proc.stdout and '+    "PostCompact": [' in proc.stdout


def test_uninstall_dry_run_writes_nothing(git_repo, home):
    assert cli("install", cwd=git_repo, home=home).returncode == 0
    path = project_settings(git_repo)
    before = path.read_bytes()
    proc = cli("uninstall", "--dry-run", cwd=git_repo, home=home)
    assert proc.returncode == 0 and path.read_bytes() == before
    assert "PreCompact: removed" in proc.stdout and '-    "PreCompact": [' in proc.stdout


def test_a_change_is_backed_up_in_the_state_dir_first(git_repo, home):
    path = project_settings(git_repo)
    write_json(path, FOREIGN)
    original = path.read_bytes()
    proc = cli("install", cwd=git_repo, home=home)
    (backup,) = backups(git_repo)
    assert backup.read_bytes() == original
    assert backup.stat().st_mode & 0o777 == 0o600
    assert f"(backup: {backup})" in proc.stdout
    status = subprocess.run(["git", "-C", str(git_repo), "status", "--porcelain"], capture_output=True, text=True)
    assert status.stdout.splitlines() == ["?? .claude/"]  # no backup clutter in the work tree
    assert cli("uninstall", cwd=git_repo, home=home).returncode == 0
    assert len(backups(git_repo)) == 2


def test_a_symlinked_user_settings_file_is_written_through_and_keeps_its_mode(git_repo, home, tmp_path):
    """The user's own settings may live in their dotfiles; a repository's are written through no
    symlink (tests/hardening/test_repo_writes_nofollow.py)."""
    shared = tmp_path / "dotfiles" / "claude-settings.json"
    write_json(shared, FOREIGN)
    shared.chmod(0o640)
    link = home / "claude-config" / "settings.json"
    link.parent.mkdir()
    link.symlink_to(shared)
    assert cli("install", "--scope", "user", cwd=git_repo, home=home).returncode == 0
    assert link.is_symlink() and os.readlink(link) == str(shared)
    assert settings.our_handlers(json.loads(shared.read_text(encoding="utf-8"))).keys() == set(settings.EVENTS)
    assert shared.stat().st_mode & 0o777 == 0o640


def test_the_files_indentation_is_kept(git_repo, home):
    path = project_settings(git_repo)
    write_json(path, FOREIGN, indent=4)
    assert cli("install", cwd=git_repo, home=home).returncode == 0
    assert path.read_text(encoding="utf-8").startswith('{\n    "permissions": {\n        "allow"')


def test_an_outdated_entry_is_updated_in_place(git_repo, home):
    path = project_settings(git_repo)
    stale = {"hooks": {"SessionStart": [{"matcher": "compact", "hooks": [{"type": "command", "command": "cc-hooks hook"}]}]}}
    write_json(path, stale)
    proc = cli("install", cwd=git_repo, home=home)
    assert "SessionStart: updated" in proc.stdout and "PreCompact: installed" in proc.stdout
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["hooks"]["SessionStart"] == settings.hooks_block(settings.wired_command("project"))["SessionStart"]


@pytest.mark.parametrize(
    "scope, where",
    [
        ("local", lambda repo, home: repo / ".claude" / "settings.local.json"),
        ("user", lambda repo, home: home / "claude-config" / "settings.json"),
    ],
)
def test_machine_scopes_write_this_installations_absolute_command(git_repo, home, scope, where):
    proc = cli("install", "--scope", scope, cwd=git_repo, home=home)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(where(git_repo, home).read_text(encoding="utf-8"))
    launcher = home / "claude-config" / "cc-hooks"  # both machine scopes: one launcher, one command
    assert data["hooks"]["PreCompact"][0]["hooks"][0]["command"] == f"{launcher} hook"
    assert str(Path(sys.executable).parent) in launcher.read_text(encoding="utf-8")
    assert not project_settings(git_repo).exists() and not (git_repo / ".claude" / "cc-hooks").exists()


def test_install_from_a_subdirectory_targets_the_work_tree_top(git_repo, home):
    sub = git_repo / "src" / "pkg"
    sub.mkdir(parents=True)
    assert cli("install", cwd=sub, home=home).returncode == 0
    assert project_settings(git_repo).is_file() and not (sub / ".claude").exists()
    elsewhere = home / "proj"
    elsewhere.mkdir()
    assert cli("install", "--project", str(elsewhere), cwd=sub, home=home).returncode == 0
    assert project_settings(elsewhere).is_file()


def test_install_notes_a_second_scope_that_would_run_the_hook_twice(git_repo, home):
    assert "note:" not in cli("install", cwd=git_repo, home=home).stdout
    proc = cli("install", "--scope", "local", cwd=git_repo, home=home)
    assert "also wired in the project settings" in proc.stdout


def test_git_hooks_flag_installs_and_removes_the_commit_msg_hook(git_repo, home):
    hook = git_repo / ".git" / "hooks" / "commit-msg"
    proc = cli("install", "--git-hooks", "--strict", cwd=git_repo, home=home)
    assert proc.returncode == 0, proc.stderr
    assert "commit-msg hook: installed" in proc.stdout
    assert os.access(hook, os.X_OK) and "STRICT=1" in hook.read_text(encoding="utf-8")
    proc = cli("uninstall", "--git-hooks", cwd=git_repo, home=home)
    assert "commit-msg hook: removed" in proc.stdout and not hook.exists()


def test_strict_without_git_hooks_is_an_error_that_writes_nothing(git_repo, home):
    proc = cli("install", "--strict", cwd=git_repo, home=home)
    assert proc.returncode != 0 and "--strict only applies with --git-hooks" in proc.stderr
    assert not (git_repo / ".claude").exists()


def test_uninstall_without_a_settings_file_changes_nothing(git_repo, home):
    proc = cli("uninstall", cwd=git_repo, home=home)
    assert proc.returncode == 0 and "nothing to remove" in proc.stdout
    assert not (git_repo / ".claude").exists()


def test_install_agents_writes_the_skills_and_subagents_and_uninstall_removes_them(tmp_path):
    import subprocess
    import sys

    root = tmp_path / "proj"
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    run = lambda *a: subprocess.run([sys.executable, "-m", "cc_hooks", *a, "--project", str(root)], capture_output=True, text=True)  # noqa: E731
    first = run("install", "--agents")
    assert first.returncode == 0, first.stderr
    skill = root / ".claude" / "skills" / "semantic-compactor" / "SKILL.md"
    agent = root / ".claude" / "agents" / "regression-triage.md"
    assert skill.is_file() and agent.is_file() and "cc-hooks triage" in agent.read_text()
    again = run("install", "--agents")
    agent_lines = [line for line in again.stdout.splitlines() if "/.claude/skills/" in line or "/.claude/agents/" in line]
    assert len(agent_lines) == 4 and all(line.endswith(": unchanged") for line in agent_lines)
    gone = run("uninstall", "--agents")
    assert gone.returncode == 0 and not skill.exists() and not agent.exists()
