"""`cc-hooks install|uninstall|doctor --harness codex` in real temporary git repos and CODEX_HOMEs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cc_hooks.harness.codex_hooks import hook_keys

FOREIGN = {
    "hooks": {
        "PreCompact": [{"hooks": [{"type": "command", "command": "./tools/save.sh", "timeout": 9}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
    },
}


def cli(*args: str, cwd: Path, codex_home: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "CODEX_HOME": str(codex_home), "PATH": os.path.dirname(sys.executable) + ":/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-m", "cc_hooks", *args], capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=60)


@pytest.fixture
def codex_home(tmp_path) -> Path:
    path = tmp_path / "codex-home"
    path.mkdir()
    return path


def hooks_json(git_repo: Path) -> Path:
    return git_repo / ".codex" / "hooks.json"


def test_install_merges_keeps_foreign_hooks_backs_up_and_is_idempotent(git_repo, codex_home):
    path = hooks_json(git_repo)
    path.parent.mkdir()
    path.write_text(json.dumps(FOREIGN, indent=4))
    first = cli("install", "--harness", "codex", cwd=git_repo, codex_home=codex_home)
    assert first.returncode == 0, first.stderr
    assert "PreCompact: installed" in first.stdout and "backup:" in first.stdout
    data = json.loads(path.read_text())
    commands = [h["command"] for g in data["hooks"]["PreCompact"] for h in g["hooks"]]
    assert commands[0] == "./tools/save.sh" and "hook --harness codex" in commands[1]
    assert data["hooks"]["Stop"] == FOREIGN["hooks"]["Stop"]
    assert {event for event, _key, _handler in hook_keys(path, data)} == {"PreCompact", "PostCompact", "SessionStart", "UserPromptSubmit"}
    assert path.read_text().startswith('{\n    "hooks"')  # the file's own indentation
    before = path.read_bytes()
    again = cli("install", "--harness", "codex", cwd=git_repo, codex_home=codex_home)
    assert "unchanged, nothing written" in again.stdout and path.read_bytes() == before
    [backup] = (git_repo / ".git" / "cc-hooks" / "backups").glob("hooks.json.bak-*")
    assert json.loads(backup.read_text()) == FOREIGN


def test_install_prints_the_trust_steps_and_dry_run_writes_nothing(git_repo, codex_home):
    dry = cli("install", "--harness", "codex", "--dry-run", cwd=git_repo, codex_home=codex_home)
    assert dry.returncode == 0 and "dry run, nothing written" in dry.stdout and "+++" in dry.stdout
    assert not hooks_json(git_repo).exists()
    assert "Trust all and continue" in dry.stdout
    assert f'[projects."{git_repo}"] trust_level = "trusted"' in dry.stdout  # the project is not trusted yet
    (codex_home / "config.toml").write_text(f'[projects."{git_repo}"]\ntrust_level = "trusted"\n')
    trusted = cli("install", "--harness", "codex", "--dry-run", cwd=git_repo, codex_home=codex_home)
    assert "trust_level" not in trusted.stdout and "Trust all and continue" in trusted.stdout


def test_user_scope_goes_to_codex_home_and_local_is_refused(git_repo, codex_home):
    proc = cli("install", "--harness", "codex", "--scope", "user", cwd=git_repo, codex_home=codex_home)
    assert proc.returncode == 0, proc.stderr
    command = json.loads((codex_home / "hooks.json").read_text())["hooks"]["SessionStart"][0]["hooks"][0]["command"]
    assert command.startswith(f"[ -x {Path(sys.executable).parent / 'cc-hooks'} ]") and "--harness codex" in command
    local = cli("install", "--harness", "codex", "--scope", "local", cwd=git_repo, codex_home=codex_home)
    assert local.returncode == 1 and "Codex has no local scope" in local.stderr


def test_uninstall_removes_exactly_ours(git_repo, codex_home):
    path = hooks_json(git_repo)
    path.parent.mkdir()
    path.write_text(json.dumps(FOREIGN))
    cli("install", "--harness", "codex", cwd=git_repo, codex_home=codex_home)
    proc = cli("uninstall", "--harness", "codex", cwd=git_repo, codex_home=codex_home)
    assert proc.returncode == 0 and "PreCompact: removed" in proc.stdout
    assert json.loads(path.read_text()) == FOREIGN


def test_an_invalid_hooks_json_is_never_rewritten(git_repo, codex_home):
    path = hooks_json(git_repo)
    path.parent.mkdir()
    path.write_text('{"hooks": [')
    proc = cli("install", "--harness", "codex", cwd=git_repo, codex_home=codex_home)
    assert proc.returncode == 1 and "not valid JSON" in proc.stderr and path.read_text() == '{"hooks": ['


def doctor(git_repo, codex_home) -> dict:
    proc = cli("doctor", "--harness", "codex", "--json", cwd=git_repo, codex_home=codex_home)
    return {f["check"]: f for f in json.loads(proc.stdout)["checks"]}


def test_doctor_finds_untrusted_hooks_an_untrusted_project_and_hooks_turned_off(git_repo, codex_home):
    cli("install", "--harness", "codex", cwd=git_repo, codex_home=codex_home)
    found = doctor(git_repo, codex_home)
    assert found["codex project trust"]["status"] == "fail"
    assert found["codex hook trust"]["status"] == "fail" and "4 of 4 hook(s) declared but not trusted" in found["codex hook trust"]["detail"]
    assert found["wired PreCompact"]["status"] == "ok"
    path = hooks_json(git_repo)
    keys = [key for _e, key, _h in hook_keys(path, json.loads(path.read_text()))]
    trust = "".join(f'[hooks.state."{key}"]\ntrusted_hash = "sha256:00"\n' for key in keys[:3])
    (codex_home / "config.toml").write_text(f'[features]\nhooks = false\n[projects."{git_repo}"]\ntrust_level = "trusted"\n{trust}')
    found = doctor(git_repo, codex_home)
    assert "codex project trust" not in found
    assert found["codex hooks feature"]["status"] == "fail"
    assert "1 of 4 hook(s) declared but not trusted" in found["codex hook trust"]["detail"] and keys[3] in found["codex hook trust"]["detail"]


def test_doctor_without_codex_wiring_says_how_to_install(git_repo, codex_home):
    found = doctor(git_repo, codex_home)
    assert found["wired SessionStart"]["status"] == "fail"
    assert "install --harness codex" in found["wired SessionStart"]["fix"]
