"""The UserPromptSubmit gate (cc_hooks/prompt_gate.py, issue 22 item 2): nothing queued costs a
`python -I -S` that imports only os and sys; anything queued, or anything it cannot read, is handed
to the full hook with the same stdin. Run here through the commands that are wired, in a venv laid
out as a non-editable install is."""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cc_hooks import prompt_gate, settings
from cc_hooks.state import add_pending, state_dir

GATE = Path(prompt_gate.__file__)
REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def repo(tmp_path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


@pytest.fixture
def venv(tmp_path, repo) -> Path:
    """``<repo>/.venv`` as a non-editable install lays it out: the gate in site-packages, a python, and a
    cc-hooks that notes each start in ``started`` before running the real full hook."""
    bin_dir = repo / ".venv" / "bin"
    site = repo / ".venv" / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages" / "cc_hooks"
    bin_dir.mkdir(parents=True)
    site.mkdir(parents=True)
    shutil.copy(GATE, site / "prompt_gate.py")
    (bin_dir / "python").symlink_to(sys.executable)
    real = Path(sys.executable).parent / "cc-hooks"
    script = bin_dir / "cc-hooks"
    script.write_text(f'#!/bin/sh\necho "$@" >> "{tmp_path}/started"\nexec "{real}" "$@"\n')
    script.chmod(0o755)
    return repo / ".venv"


def payload(repo: Path, session: str = "s-1", event: str = "UserPromptSubmit", **extra) -> bytes:
    return json.dumps({"hook_event_name": event, "session_id": session, "cwd": str(repo), "prompt": "go on", **extra}).encode()


# The launcher `cc-hooks install` writes (issue 18), and the inline long form earlier releases wired.
FORMS = ("launcher", "inline")


@pytest.fixture(params=FORMS)
def form(request) -> str:
    return request.param


def run_wired(repo: Path, data: bytes, form: str = "launcher") -> subprocess.CompletedProcess:
    if form == "launcher":
        launcher = settings.launcher_path("project", repo)
        launcher.parent.mkdir(exist_ok=True)
        launcher.write_text(settings.launcher_text("project"), encoding="utf-8")
        launcher.chmod(0o755)
        command = settings.hooks_block(settings.wired_command("project"))["UserPromptSubmit"][0]["hooks"][0]["command"]
        assert command == '"$CLAUDE_PROJECT_DIR"/.claude/cc-hooks hook --gate'
    else:
        command = settings.hooks_block(settings.hook_command("project"))["UserPromptSubmit"][0]["hooks"][0]["command"]
    env = {"PATH": "/usr/bin:/bin", "HOME": str(repo.parent), "CLAUDE_PROJECT_DIR": str(repo)}
    return subprocess.run(["sh", "-c", command], input=data, capture_output=True, env=env, cwd=repo, timeout=60)


def starts(tmp_path) -> list[str]:
    path = tmp_path / "started"
    return path.read_text().splitlines() if path.exists() else []


def test_nothing_queued_answers_without_starting_the_full_hook(tmp_path, repo, venv, form):
    proc = run_wired(repo, payload(repo), form)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"")
    assert starts(tmp_path) == []


def test_a_queued_item_is_handed_over_and_delivered_once(tmp_path, repo, venv, form):
    add_pending(state_dir(repo, create=True), "s-1", {"text": "the audit found 2 problems"})
    big = payload(repo, prompt="x" * 300_000)  # more than a pipe holds at once
    proc = run_wired(repo, big, form)
    assert proc.returncode == 0, proc.stderr
    assert "the audit found 2 problems" in json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]
    assert starts(tmp_path) == ["hook"]
    again = run_wired(repo, payload(repo), form)
    assert again.stdout == b"" and starts(tmp_path) == ["hook"]  # delivered once; the gate answers the rest


def test_another_sessions_item_does_not_wake_the_full_hook(tmp_path, repo, venv, form):
    add_pending(state_dir(repo, create=True), "other", {"text": "not yours"})
    assert run_wired(repo, payload(repo), form).stdout == b""
    assert starts(tmp_path) == []


@pytest.mark.parametrize("data", [
    b"not json",
    b'{"hook_event_name": "UserPromptSubmit", "session_id": "s\\u002d1", "cwd": "/"}',  # an escape: not guessed at
    b'{"hook_event_name": "UserPromptSubmit", "session_id": "a", "x": {"session_id": "b"}}',  # the key twice
    b'{"hook_event_name": "SessionStart", "session_id": "s-1"}',  # another event
])
def test_what_the_gate_cannot_read_goes_to_the_full_hook(tmp_path, repo, venv, data, form):
    proc = run_wired(repo, data, form)
    assert proc.returncode == 0
    assert starts(tmp_path) == ["hook"]


def test_an_editable_or_foreign_install_keeps_the_old_command(repo, tmp_path, form):
    assert settings.prompt_command("cc-hooks hook") == "cc-hooks hook"
    # no gate file in the venv (an editable install): the wired command runs the full hook as before
    bin_dir = repo / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "cc-hooks").write_text(f'#!/bin/sh\necho "$@" >> "{tmp_path}/started"\nexit 0\n')
    (bin_dir / "cc-hooks").chmod(0o755)
    assert run_wired(repo, payload(repo), form).returncode == 0
    assert starts(tmp_path) == ["hook"]


def test_old_wiring_is_still_ours_and_updated(repo):
    old = settings.hook_command("project")  # what every event ran before the gate
    assert settings.is_ours({"type": "command", "command": old})
    new = settings.hooks_block(old)["UserPromptSubmit"][0]["hooks"][0]["command"]
    assert new != old and settings.is_ours({"type": "command", "command": new})
    stale = {"hooks": {event: [{"hooks": [{"type": "command", "command": old, "timeout": settings.TIMEOUTS[event]}]}]
                       for event in settings.EVENTS}}
    merged, status = settings.merge(stale, old)
    assert status["UserPromptSubmit"] == "updated" and status["SessionStart"] == "unchanged"
    assert settings.remove(merged)[0] == {}


def test_a_machine_scope_gates_with_its_absolute_installation(tmp_path):
    local = settings.hook_command("local")
    gated = settings.prompt_command(local)
    script = str(Path(sys.executable).parent / "cc-hooks")
    assert gated.endswith(local) and f"\"${{g%/*}}\" {script} hook" in gated and " -I -S -c " in gated


def test_the_gate_imports_only_the_built_in_posix_and_sys():
    tree = ast.parse(GATE.read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert imported == {"posix", "sys"} and not [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    script = f"import sys; sys.argv = ['gate', 'true']; exec(open({str(GATE)!r}).read()); print(sorted(sys.modules))"
    loaded = subprocess.run([sys.executable, "-I", "-S", "-c", script], input=b"{}", capture_output=True, check=True)
    for heavy in (b"'json'", b"'re'", b"'site'", b"'os'"):  # os alone costs more than the gate's own work
        assert heavy not in loaded.stdout, heavy


@pytest.mark.parametrize("raw, key, expected", [
    (b'{"session_id": "abc", "cwd": "/x"}', b"session_id", b"abc"),
    (b'{"prompt": "say \\"session_id\\": 1", "session_id":"s"}', b"session_id", b"s"),  # quoted in a string: skipped
    (b'{"prompt": "session_id", "session_id": "s"}', b"session_id", b"s"),
    (b'{}', b"cwd", None),
])
def test_fields_are_read_from_the_raw_bytes(raw, key, expected):
    assert prompt_gate.field(raw, key) == expected


@pytest.mark.parametrize("path", [b"/a/b/../c", b"a/./b//c/", b"../x", b"/..", b"a/../..", b"/"])
def test_paths_normalise_as_os_path_does(path):
    assert prompt_gate._normpath(path) == os.path.normpath(path)


def test_the_common_dir_is_the_one_cc_hooks_state_finds(tmp_path, repo):
    from cc_hooks.state import common_dir_path

    subprocess.run(["git", "-C", str(repo), "commit", "-q", "--allow-empty", "-m", "x"], check=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@b", "GIT_COMMITTER_NAME": "a",
                        "GIT_COMMITTER_EMAIL": "a@b"})
    subprocess.run(["git", "-C", str(repo), "worktree", "add", "-q", str(tmp_path / "linked")], check=True)
    (repo / "deep" / "er").mkdir(parents=True)
    for start in (repo, repo / "deep" / "er", tmp_path / "linked", repo / ".git"):
        assert prompt_gate.common_dir(str(start).encode()) == common_dir_path(str(start)).encode()


@pytest.mark.parametrize("raw", [b'{"cwd": 3}', b'{"cwd": "a\\b"}', b'{"cwd": "a", "x": {"cwd": "b"}}'])
def test_a_field_it_cannot_read_plainly_is_not_guessed(raw):
    with pytest.raises(ValueError):
        prompt_gate.field(raw, b"cwd")


def test_the_plugin_route_gates_too(tmp_path, repo):
    plugin = tmp_path / "plugin"
    for part in ("hooks", "cc_hooks"):
        shutil.copytree(REPO / part, plugin / part, ignore=shutil.ignore_patterns("__pycache__"))
    bin_dir = tmp_path / "tools"
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(sys.executable)
    (bin_dir / "cc-hooks").write_text(f'#!/bin/sh\necho "$@" >> "{tmp_path}/started"\nexit 0\n')
    (bin_dir / "cc-hooks").chmod(0o755)
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(tmp_path), "CLAUDE_PLUGIN_ROOT": str(plugin)}
    command = ["sh", str(plugin / "hooks" / "run-hook"), "--gate"]
    quiet = subprocess.run(command, input=payload(repo), capture_output=True, env=env, cwd=repo, timeout=60)
    assert (quiet.returncode, quiet.stdout, starts(tmp_path)) == (0, b"", [])
    add_pending(state_dir(repo, create=True), "s-1", {"text": "queued"})
    subprocess.run(command, input=payload(repo), capture_output=True, env=env, cwd=repo, timeout=60)
    assert starts(tmp_path) == ["hook"]  # handed over to run-hook, which found cc-hooks on PATH
