"""The short wired command and the launcher it runs (issue 18 item 2): what Claude Code echoes as the
hook's name reads like `cc-hooks hook`, and the launcher keeps the guarantees of the long inline form
(no machine path in the project scope; the project's .venv, then PATH; fail open with one line).
Old wiring keeps working, and `install` / `uninstall` / `doctor` know both forms."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cc_hooks import settings

VENV_SCRIPT = Path(sys.executable).parent / "cc-hooks"
UNKNOWN_EVENT = '{"hook_event_name": "Doctor", "session_id": "t"}'


def bare_path() -> str:
    venv_bin = str(Path(sys.executable).parent)
    dirs = dict.fromkeys([os.path.dirname(shutil.which("git") or "/usr/bin/git"), "/usr/bin", "/bin"])
    return os.pathsep.join(d for d in dirs if d != venv_bin)


def cli(*args: str, cwd: Path, home: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / "claude-config"), "PATH": bare_path()}
    env.pop("CLAUDE_PROJECT_DIR", None)
    return subprocess.run([sys.executable, "-m", "cc_hooks", *args], capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=120)


def run_as_claude_code(command: str, stdin: str, project: Path, path: str) -> subprocess.CompletedProcess:
    """A shell-form hook as Claude Code runs it: bash -c, CLAUDE_PROJECT_DIR set, cwd anywhere in the project."""
    env = {"PATH": path, "HOME": str(project), "CLAUDE_PROJECT_DIR": str(project)}
    cwd = project / "sub"
    cwd.mkdir(exist_ok=True)  # the session may have cd'ed: the launcher is found through CLAUDE_PROJECT_DIR
    return subprocess.run(["bash", "-c", command], input=stdin, capture_output=True, text=True, cwd=cwd, env=env,
                          timeout=60)


def wired(path: Path, event: str = "PreCompact") -> str:
    return json.loads(path.read_text(encoding="utf-8"))["hooks"][event][0]["hooks"][0]["command"]


@pytest.fixture
def installed(git_repo: Path, home: Path) -> Path:
    proc = cli("install", cwd=git_repo, home=home)
    assert proc.returncode == 0, proc.stderr
    return git_repo


def test_the_project_command_is_short_and_its_launcher_carries_no_machine_path(installed: Path):
    path = installed / ".claude" / "settings.json"
    for event in settings.EVENTS:
        command = wired(path, event)
        assert command.startswith('"$CLAUDE_PROJECT_DIR"/.claude/cc-hooks hook') and len(command) <= 50, command
    launcher = installed / ".claude" / "cc-hooks"
    assert os.access(launcher, os.X_OK) and settings.is_launcher(launcher)
    text = launcher.read_text(encoding="utf-8") + path.read_text(encoding="utf-8")
    for local in (str(Path.home()), sys.prefix, sys.executable, str(installed), "/usr", "/tmp"):
        assert local not in text
    rooted = re.findall(r"(?<![\w$}\"*.])/(?:bin|dev|etc|home|opt|root|srv|tmp|usr|var)\b[\w./-]*", launcher.read_text())
    assert set(rooted) == {"/bin/sh", "/dev/null"}


def test_without_cc_hooks_the_launcher_prints_one_line_and_exits_0(installed: Path):
    proc = run_as_claude_code(wired(installed / ".claude" / "settings.json"), UNKNOWN_EVENT, installed, bare_path())
    assert (proc.returncode, proc.stdout) == (0, "")
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith(settings.NOT_INSTALLED)


def test_the_launcher_prefers_the_projects_venv_then_path(installed: Path):
    command = wired(installed / ".claude" / "settings.json")
    on_path = run_as_claude_code(command, "not json", installed, os.pathsep.join([str(VENV_SCRIPT.parent), bare_path()]))
    assert on_path.returncode == 0 and "stdin is not valid JSON" in on_path.stderr
    bin_dir = installed / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "cc-hooks").write_text('#!/bin/sh\n[ "$1" = hook ] || exit 9\ncat\nexit 2\n', encoding="utf-8")
    (bin_dir / "cc-hooks").chmod(0o755)
    # the .venv wins over PATH, and stdin and the exit code (2 blocks a manual compaction) pass through
    proc = run_as_claude_code(command, '{"x": 1}', installed, os.pathsep.join([str(VENV_SCRIPT.parent), bare_path()]))
    assert (proc.returncode, proc.stdout) == (2, '{"x": 1}')


def test_a_missing_launcher_fails_open_with_one_line(installed: Path):
    (installed / ".claude" / "cc-hooks").unlink()
    proc = run_as_claude_code(wired(installed / ".claude" / "settings.json"), UNKNOWN_EVENT, installed, bare_path())
    assert proc.returncode not in (0, 2)  # not 2: nothing is blocked; Claude Code shows the line and goes on
    assert proc.stderr.count("\n") == 1 and ".claude/cc-hooks" in proc.stderr


def test_old_inline_wiring_works_and_is_upgraded_by_install(git_repo: Path, home: Path):
    old = settings.hook_command("project")
    stale = {"hooks": settings.hooks_block(old) | {"Stop": [{"hooks": [{"type": "command", "command": "notify"}]}]}}
    path = git_repo / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text(json.dumps(stale, indent=2), encoding="utf-8")
    before = run_as_claude_code(wired(path), "not json", git_repo, os.pathsep.join([str(VENV_SCRIPT.parent), bare_path()]))
    assert before.returncode == 0 and "stdin is not valid JSON" in before.stderr  # old wiring still runs the hook
    _, checks = doctor(git_repo, home)
    assert checks["hook command (project)"]["status"] == "warn" and "long command" in checks["hook command (project)"]["detail"]

    proc = cli("install", cwd=git_repo, home=home)
    assert proc.returncode == 0, proc.stderr
    assert all(f"{event}: updated" in proc.stdout for event in settings.EVENTS)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["hooks"] == {**settings.hooks_block(settings.wired_command("project")), "Stop": stale["hooks"]["Stop"]}
    _, checks = doctor(git_repo, home)
    assert checks["hook command (project)"]["status"] == "ok"


def test_uninstall_removes_either_form_and_the_launcher(git_repo: Path, home: Path, installed: Path):
    proc = cli("uninstall", cwd=installed, home=home)
    assert proc.returncode == 0, proc.stderr
    assert not (installed / ".claude" / "cc-hooks").exists() and "launcher removed" in proc.stdout
    assert json.loads((installed / ".claude" / "settings.json").read_text()) == {}
    path = installed / ".claude" / "settings.json"
    path.write_text(json.dumps({"hooks": settings.hooks_block(settings.hook_command("project"))}), encoding="utf-8")
    assert cli("uninstall", cwd=installed, home=home).returncode == 0
    assert json.loads(path.read_text()) == {}


def test_a_persons_own_file_at_the_launchers_place_is_never_overwritten(git_repo: Path, home: Path):
    own = git_repo / ".claude" / "cc-hooks"
    own.parent.mkdir()
    own.write_text("#!/bin/sh\necho mine\n", encoding="utf-8")
    proc = cli("install", cwd=git_repo, home=home)
    assert proc.returncode == 1 and "not a cc-hooks launcher" in proc.stderr
    assert own.read_text() == "#!/bin/sh\necho mine\n" and not (git_repo / ".claude" / "settings.json").exists()


def test_the_machine_scopes_share_one_launcher_and_uninstall_keeps_it_while_used(git_repo: Path, home: Path):
    assert cli("install", "--scope", "local", cwd=git_repo, home=home).returncode == 0
    assert cli("install", "--scope", "user", cwd=git_repo, home=home).returncode == 0
    launcher = home / "claude-config" / "cc-hooks"
    local, user = git_repo / ".claude" / "settings.local.json", home / "claude-config" / "settings.json"
    assert wired(local) == wired(user) == f"{launcher} hook"  # identical: Claude Code runs it once
    proc = cli("uninstall", "--scope", "local", cwd=git_repo, home=home)
    assert "kept, the user settings still run it" in proc.stdout and launcher.exists()
    assert "launcher removed" in cli("uninstall", "--scope", "user", cwd=git_repo, home=home).stdout
    assert not launcher.exists()


def test_doctor_names_a_missing_launcher(installed: Path, home: Path):
    (installed / ".claude" / "cc-hooks").unlink()
    code, checks = doctor(installed, home)
    assert code == 1 and checks["hook launcher (project)"]["status"] == "fail"
    assert "missing" in checks["hook launcher (project)"]["detail"]
    assert "cc-hooks install --scope project" in checks["hook launcher (project)"]["fix"]
    assert "hook installation (project)" not in checks  # what a missing launcher would start is no question


def test_doctor_compares_the_launcher_with_installs_bytes_and_runs_it_not(installed: Path, home: Path, tmp_path: Path):
    launcher = installed / ".claude" / "cc-hooks"
    launcher.write_text(settings.launcher_text("project") + f"touch {tmp_path / 'ran'}\n", encoding="utf-8")
    code, checks = doctor(installed, home)
    assert not (tmp_path / "ran").exists()
    found = checks["hook launcher (project)"]
    assert found["status"] == "warn" and "differs from what `cc-hooks install --scope project` writes" in found["detail"]
    assert "hook installation (project)" not in checks  # an unknown launcher: which cc-hooks it starts is not known
    assert "cc-hooks install --scope project" in found["fix"]
    assert f"{launcher}: launcher written" in cli("install", cwd=installed, home=home).stdout
    assert doctor(installed, home)[1]["hook launcher (project)"]["status"] == "ok"  # install rewrote it


def doctor(repo: Path, home: Path) -> tuple[int, dict]:
    proc = cli("doctor", "--json", cwd=repo, home=home)
    assert proc.returncode in (0, 1), proc.stderr
    return proc.returncode, {c["check"]: c for c in json.loads(proc.stdout)["checks"]}
