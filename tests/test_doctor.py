"""`cc-hooks doctor`: healthy when wired and working, one named problem per defect, read-only."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cc_hooks import settings

RECORDS = ("SYMPTOMS.md", "DECISIONS.md", "next_steps.md", "COLDSTART_QUESTIONS.md")
VENV_SCRIPT = Path(sys.executable).parent / "cc-hooks"


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


def bare_path() -> str:
    """PATH without this virtualenv, as Claude Code may see it."""
    venv_bin = str(Path(sys.executable).parent)
    dirs = dict.fromkeys([os.path.dirname(shutil.which("git") or "/usr/bin/git"), "/usr/bin", "/bin"])
    return os.pathsep.join(d for d in dirs if d != venv_bin)


def cli(*args: str, cwd: Path, home: Path, path: str = "") -> subprocess.CompletedProcess:
    env = {**os.environ, "HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / "claude-config"),
           "PATH": path or bare_path()}
    env.pop("CLAUDE_PROJECT_DIR", None)
    return subprocess.run(
        [sys.executable, "-m", "cc_hooks", *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=120
    )


def doctor(repo: Path, home: Path, path: str = "") -> tuple[int, dict]:
    proc = cli("doctor", "--json", cwd=repo, home=home, path=path)
    assert proc.returncode in (0, 1), proc.stderr
    report = json.loads(proc.stdout)
    assert report["healthy"] is (proc.returncode == 0)
    return proc.returncode, {c["check"]: c for c in report["checks"]}


def failing(checks: dict) -> set[str]:
    return {name for name, c in checks.items() if c["status"] == "fail"}


@pytest.fixture
def healthy_repo(git_repo: Path, home: Path) -> Path:
    """The four record files committed, cc-hooks wired for this machine (local scope)."""
    for name in RECORDS:
        (git_repo / name).write_text(f"# {name}\n", encoding="utf-8")
    git(git_repo, "add", *RECORDS)
    git(git_repo, "commit", "-q", "-m", "Add the record")
    assert cli("install", "--scope", "local", cwd=git_repo, home=home).returncode == 0
    return git_repo


def local_settings(repo: Path) -> Path:
    return repo / ".claude" / "settings.local.json"


def edit(path: Path, change) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")


def test_a_wired_working_repo_is_healthy(healthy_repo, home):
    code, checks = doctor(healthy_repo, home)
    assert code == 0, [c for c in checks.values() if c["status"] != "ok"]
    for event in settings.EVENTS:
        assert checks[f"wired {event}"]["status"] == "ok"
    for name in ("hook runs", "git", "python", "dependency pydantic", "state dir", "config", "hook log",
                 "hook command (local)", "hook launcher (local)", "hook installation (local)"):
        assert checks[name]["status"] == "ok"
    assert "the installation this doctor runs from" in checks["hook installation (local)"]["detail"]
    assert all(checks[f"record {name}"]["status"] == "ok" for name in RECORDS)


def test_doctor_is_read_only(healthy_repo, home, tmp_path):
    def snapshot():
        return {p: (p.read_bytes() if p.is_file() else None) for p in sorted(tmp_path.rglob("*"))}

    before = snapshot()
    doctor(healthy_repo, home)
    assert snapshot() == before
    assert not (healthy_repo / ".git" / "cc-hooks").exists()


def test_an_unwired_event_is_named(healthy_repo, home):
    edit(local_settings(healthy_repo), lambda d: d["hooks"].pop("UserPromptSubmit"))
    code, checks = doctor(healthy_repo, home)
    assert code == 1
    assert failing(checks) == {"wired UserPromptSubmit"}
    assert "cc-hooks install" in checks["wired UserPromptSubmit"]["fix"]


def test_a_missing_timeout_is_named(healthy_repo, home):
    edit(local_settings(healthy_repo), lambda d: d["hooks"]["PreCompact"][0]["hooks"][0].pop("timeout"))
    code, checks = doctor(healthy_repo, home)
    assert code == 1 and failing(checks) == {"wired PreCompact"}
    assert "no timeout" in checks["wired PreCompact"]["detail"]


@pytest.mark.parametrize("timeout", [10, 600, 3600])
def test_a_timeout_outside_budget_and_600_is_named(healthy_repo, home, timeout):
    edit(local_settings(healthy_repo), lambda d: d["hooks"]["PreCompact"][0]["hooks"][0].update(timeout=timeout))
    code, checks = doctor(healthy_repo, home)
    assert code == 1 and failing(checks) == {"wired PreCompact"}
    assert f"timeout {timeout} s" in checks["wired PreCompact"]["detail"]


def test_the_budget_comes_from_the_projects_config(healthy_repo, home):
    (healthy_repo / ".cc-hooks.toml").write_text("[hooks]\nsession_start_seconds = 20\n", encoding="utf-8")
    code, checks = doctor(healthy_repo, home)
    assert code == 1 and failing(checks) == {"wired SessionStart"}
    assert "(20, 600)" in checks["wired SessionStart"]["detail"]


def test_a_hook_command_install_does_not_write_is_named_and_not_run(healthy_repo, home, tmp_path):
    # doctor used to run every wired command (issue 42, finding 5); it compares them with install's now
    broken = f"touch {tmp_path / 'ran'}; {VENV_SCRIPT} hook --no-such-option"
    assert settings.is_ours({"type": "command", "command": broken})
    path = local_settings(healthy_repo)
    path.write_text(json.dumps({"hooks": settings.hooks_block(broken)}), encoding="utf-8")
    code, checks = doctor(healthy_repo, home)
    assert code == 1 and failing(checks) == {"hook command (local)"}
    assert not (tmp_path / "ran").exists()
    found = checks["hook command (local)"]
    assert found["detail"].startswith(f"PreCompact, PostCompact, SessionStart, UserPromptSubmit: {broken} — differs")
    assert "not run" in found["detail"] and found["fix"] == "cc-hooks install --scope local"
    assert "hook installation (local)" not in checks and checks["hook runs"]["status"] == "ok"


def test_cc_hooks_missing_where_the_portable_command_looks_is_named(healthy_repo, home):
    assert cli("uninstall", "--scope", "local", cwd=healthy_repo, home=home).returncode == 0
    assert cli("install", "--scope", "project", cwd=healthy_repo, home=home).returncode == 0
    code, checks = doctor(healthy_repo, home)
    assert code == 1 and failing(checks) == {"hook installation (project)"}
    assert checks["hook installation (project)"]["detail"].startswith(settings.NOT_INSTALLED)
    # The same settings are healthy once the project's .venv has cc-hooks; doctor names it, and runs its own.
    (healthy_repo / ".venv" / "bin").mkdir(parents=True)
    (healthy_repo / ".venv" / "bin" / "cc-hooks").symlink_to(VENV_SCRIPT)
    code, checks = doctor(healthy_repo, home)
    assert code == 0
    assert checks["hook installation (project)"]["detail"].startswith(str(healthy_repo / ".venv" / "bin" / "cc-hooks"))
    assert "not run by doctor" in checks["hook installation (project)"]["detail"]


def test_the_installation_the_launcher_finds_on_path_is_named_not_run(healthy_repo, home, tmp_path):
    assert cli("uninstall", "--scope", "local", cwd=healthy_repo, home=home).returncode == 0
    assert cli("install", "--scope", "project", cwd=healthy_repo, home=home).returncode == 0
    code, checks = doctor(healthy_repo, home, path=os.pathsep.join([str(VENV_SCRIPT.parent), bare_path()]))
    assert code == 0
    found = checks["hook installation (project)"]
    assert found["detail"].startswith(f"{VENV_SCRIPT}: cc-hooks on PATH") and "this doctor runs from" in found["detail"]
    # A PATH entry inside the repository lets a clone supply the hook: named, not run.
    tools = healthy_repo / "tools"
    tools.mkdir()
    (tools / "cc-hooks").write_text(f"#!/bin/sh\ntouch {tmp_path / 'ran'}\n", encoding="utf-8")
    (tools / "cc-hooks").chmod(0o755)
    code, checks = doctor(healthy_repo, home, path=os.pathsep.join([str(tools), bare_path()]))
    found = checks["hook installation (project)"]
    assert code == 0 and found["status"] == "warn" and "inside the repository" in found["detail"]
    assert not (tmp_path / "ran").exists()


def test_two_scopes_with_different_commands_are_named(healthy_repo, home):
    assert cli("install", "--scope", "project", cwd=healthy_repo, home=home).returncode == 0
    (healthy_repo / ".venv" / "bin").mkdir(parents=True)
    (healthy_repo / ".venv" / "bin" / "cc-hooks").symlink_to(VENV_SCRIPT)
    code, checks = doctor(healthy_repo, home)
    assert code == 1 and failing(checks) == {f"wired {event}" for event in settings.EVENTS}
    assert "project, local" in checks["wired PreCompact"]["detail"]


def test_the_same_command_in_two_scopes_is_fine(healthy_repo, home):
    # Claude Code runs identical commands once.
    assert cli("install", "--scope", "user", cwd=healthy_repo, home=home).returncode == 0
    assert doctor(healthy_repo, home)[0] == 0


def test_a_malformed_settings_file_is_named(healthy_repo, home):
    user = home / "claude-config" / "settings.json"
    user.parent.mkdir(exist_ok=True)  # the local scope's launcher may be there already
    user.write_text("{oops", encoding="utf-8")
    code, checks = doctor(healthy_repo, home)
    assert code == 1 and failing(checks) == {"settings (user)"}
    assert str(user) in checks["settings (user)"]["detail"] and "line 1 column 2" in checks["settings (user)"]["detail"]


def test_disable_all_hooks_is_named(healthy_repo, home):
    edit(local_settings(healthy_repo), lambda d: d.update(disableAllHooks=True))
    code, checks = doctor(healthy_repo, home)
    assert code == 1 and failing(checks) == {"settings (local)"}


def test_missing_and_untracked_record_files_are_named(healthy_repo, home):
    git(healthy_repo, "rm", "-q", "DECISIONS.md")
    git(healthy_repo, "rm", "-q", "--cached", "next_steps.md")
    code, checks = doctor(healthy_repo, home)
    assert code == 1 and failing(checks) == {"record DECISIONS.md", "record next_steps.md"}
    assert checks["record DECISIONS.md"]["fix"] == "cc-hooks init"
    assert "not tracked" in checks["record next_steps.md"]["detail"]


def test_the_declared_dashboard_file_is_the_one_checked(healthy_repo, home):
    (healthy_repo / "CLAUDE.md").write_text("# Project\n\nDashboard: file docs/status.md\n", encoding="utf-8")
    git(healthy_repo, "add", "CLAUDE.md")
    git(healthy_repo, "commit", "-q", "-m", "Declare the dashboard")
    code, checks = doctor(healthy_repo, home)
    assert code == 1 and failing(checks) == {"record docs/status.md"}
    (healthy_repo / "docs").mkdir()
    (healthy_repo / "docs" / "status.md").write_text("# Next steps\n", encoding="utf-8")
    git(healthy_repo, "add", "docs/status.md")
    git(healthy_repo, "commit", "-q", "-m", "Add the dashboard")
    assert doctor(healthy_repo, home)[0] == 0


def test_an_invalid_config_is_named(healthy_repo, home):
    (healthy_repo / ".cc-hooks.toml").write_text("[hooks\n", encoding="utf-8")
    code, checks = doctor(healthy_repo, home)
    assert code == 1 and failing(checks) == {"config"}
    assert "not valid TOML" in checks["config"]["detail"]


def test_hook_failures_in_the_log_are_shown_as_a_warning(healthy_repo, home):
    from cc_hooks.state import log_event

    log_event(healthy_repo, "warning", "SessionStart", "slow git")
    assert doctor(healthy_repo, home)[1]["hook log"]["status"] == "ok"
    log_event(healthy_repo, "error", "PreCompact", "ValueError: boom")
    code, checks = doctor(healthy_repo, home)
    assert code == 0
    assert checks["hook log"]["status"] == "warn" and "PreCompact: ValueError: boom" in checks["hook log"]["detail"]


def test_outside_a_repository_doctor_fails_with_the_reason(tmp_path, home):
    plain = tmp_path / "plain"
    plain.mkdir()
    code, checks = doctor(plain, home)
    assert code == 1 and {"repository", "state dir"} <= failing(checks)


def test_the_terminal_table_names_the_problem(healthy_repo, home):
    edit(local_settings(healthy_repo), lambda d: d["hooks"].pop("PostCompact"))
    proc = cli("doctor", cwd=healthy_repo, home=home)
    assert proc.returncode == 1
    assert "wired PostCompact" in proc.stdout and "1 problem(s)" in proc.stdout
