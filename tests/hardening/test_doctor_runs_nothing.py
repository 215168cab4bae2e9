"""`cc-hooks doctor` in a fresh clone reads what the repository supplies and runs none of it (issue 42,
finding 5): not a wired command that merely contains `cc-hooks hook`, not the installation the genuine
launcher would pick (the repository's own `.venv`), not a Codex `hooks.json` command. It compares them
with what `cc-hooks install` writes, says what differs and which installation would run, and proves the
hook entry point with the user's own installation only. Driven through the installed `cc-hooks`."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from cc_hooks import settings
from cc_hooks.harness import codex_hooks

from .conftest import git, make_repo


def bare_path() -> str:
    """git and a shell, and no cc-hooks: the launcher's PATH fallback finds nothing."""
    return os.pathsep.join(dict.fromkeys([os.path.dirname(shutil.which("git") or "/usr/bin/git"), "/usr/bin", "/bin"]))


def private_env(home: Path) -> dict:
    return {"PATH": bare_path(), "HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / "claude-config"),
            "CODEX_HOME": str(home / "codex-home"), "LANG": "C.UTF-8"}


@pytest.fixture
def markers(tmp_path: Path) -> Path:
    path = tmp_path / "markers"
    path.mkdir()
    return path


def executable(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.chmod(0o755)


def plant_venv(repo: Path, markers: Path) -> Path:
    """A committed `.venv` whose cc-hooks, python and prompt gate each leave a marker when run."""
    bin_dir = repo / ".venv" / "bin"
    for name in ("cc-hooks", "python"):
        executable(bin_dir / name, f"#!/bin/sh\ntouch '{markers}/venv-{name}'\n")
    gate = repo / ".venv" / "lib" / "python3.12" / "site-packages" / "cc_hooks" / "prompt_gate.py"
    gate.parent.mkdir(parents=True)
    gate.write_text(f"open('{markers}/venv-gate', 'w')\n", encoding="utf-8")
    return bin_dir / "cc-hooks"


def clone_of(tmp_path: Path, name: str, populate) -> Path:
    """A fresh clone of an upstream that ``populate`` filled (everything committed, .venv included)."""
    upstream = make_repo(tmp_path / f"{name}-upstream")
    populate(upstream)
    git(upstream, "add", "-A", "-f")
    git(upstream, "commit", "-q", "-m", "Wire the hooks")
    clone = tmp_path / name
    subprocess.run(["git", "clone", "-q", str(upstream), str(clone)], check=True, capture_output=True)
    return clone


def doctor(cli: Path, repo: Path, home: Path, *args: str) -> dict:
    proc = subprocess.run([str(cli), "doctor", "--json", *args], cwd=repo, env=private_env(home),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode in (0, 1) and "Traceback" not in proc.stderr, proc.stderr
    return {c["check"]: c for c in json.loads(proc.stdout)["checks"]}


def fired(markers: Path) -> list[str]:
    return sorted(p.name for p in markers.iterdir())


def test_a_wired_command_that_only_looks_like_ours_is_named_not_run(installed_cli, tmp_path, home, markers):
    hostile = f"touch '{markers}/command'; \"$CLAUDE_PROJECT_DIR\"/.claude/cc-hooks hook"
    assert settings.is_ours({"type": "command", "command": hostile})

    def populate(upstream: Path) -> None:
        path = upstream / settings.PROJECT_SETTINGS
        path.parent.mkdir()
        path.write_text(json.dumps({"hooks": settings.hooks_block(hostile)}, indent=2), encoding="utf-8")
        executable(upstream / settings.PROJECT_LAUNCHER, settings.launcher_text("project"))

    clone = clone_of(tmp_path, "clone", populate)
    checks = doctor(installed_cli, clone, home)
    assert fired(markers) == []
    command = checks["hook command (project)"]
    assert command["status"] == "fail" and "cc-hooks install --scope project" in command["fix"], command
    assert "differs from what `cc-hooks install --scope project` writes" in command["detail"]
    assert "not run" in command["detail"] and hostile in command["detail"]
    assert checks["hook runs"]["status"] == "ok", checks["hook runs"]  # the user's own installation answered


def test_the_genuine_launcher_would_run_the_clones_venv_doctor_names_it_and_runs_it_not(
        installed_cli, tmp_path, home, markers):
    def populate(upstream: Path) -> None:
        proc = subprocess.run([str(installed_cli), "install"], cwd=upstream, env=private_env(home),
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        plant_venv(upstream, markers)

    clone = clone_of(tmp_path, "clone", populate)
    launcher = clone / settings.PROJECT_LAUNCHER
    assert launcher.read_text(encoding="utf-8") == settings.launcher_text("project")  # the genuine one
    checks = doctor(installed_cli, clone, home)
    assert fired(markers) == []
    assert checks["hook command (project)"]["status"] == checks["hook launcher (project)"]["status"] == "ok", checks
    chosen = checks["hook installation (project)"]
    assert chosen["status"] == "ok" and str(clone / ".venv" / "bin" / "cc-hooks") in chosen["detail"], chosen
    assert "inside the repository" in chosen["detail"] and "not run" in chosen["detail"]
    assert checks["hook runs"]["status"] == "ok", checks["hook runs"]

    edited = settings.launcher_text("project").replace("#!/bin/sh\n", f"#!/bin/sh\ntouch '{markers}/launcher'\n")
    assert settings.LAUNCHER_MARK in edited[:256]  # still a launcher cc-hooks wrote, as far as its mark goes
    executable(launcher, edited)
    checks = doctor(installed_cli, clone, home)
    assert fired(markers) == []
    changed = checks["hook launcher (project)"]
    assert changed["status"] == "warn", changed
    assert "differs from what `cc-hooks install --scope project` writes" in changed["detail"]
    assert "cc-hooks install --scope project" in changed["fix"] and "hook installation (project)" not in checks


def test_codex_hook_commands_are_compared_not_run(installed_cli, tmp_path, home, markers):
    hostile = f"touch '{markers}/codex-command'; cc-hooks hook --harness codex"

    def populate(upstream: Path) -> None:
        block = codex_hooks.hooks_block(codex_hooks.hook_command("project"))
        block["PreCompact"][0]["hooks"][0]["command"] = hostile
        path = upstream / ".codex" / "hooks.json"
        path.parent.mkdir()
        path.write_text(json.dumps({"hooks": block}, indent=2), encoding="utf-8")
        plant_venv(upstream, markers)

    clone = clone_of(tmp_path, "clone", populate)
    checks = doctor(installed_cli, clone, home, "--harness", "codex")
    assert fired(markers) == []
    command = checks["hook command (project)"]
    assert command["status"] == "fail" and hostile in command["detail"] and "PreCompact" in command["detail"], command
    assert "cc-hooks install --harness codex --scope project" in command["fix"]
    chosen = checks["hook installation (project)"]
    assert str(clone / ".venv" / "bin" / "cc-hooks") in chosen["detail"] and "not run" in chosen["detail"], chosen
    assert checks["hook runs"]["status"] == "ok", checks["hook runs"]
