"""cc_hooks.settings: the block, the merge, the shape checks and the shell command itself."""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cc_hooks import settings

REPO_TOP = Path(__file__).resolve().parents[1]
VENV_SCRIPT = Path(sys.executable).parent / "cc-hooks"

FOREIGN = {
    "permissions": {"allow": ["Bash(git status)"]},
    "hooks": {
        "PreCompact": [{"matcher": "auto", "hooks": [{"type": "command", "command": "./tools/save.sh", "timeout": 9}]}],
        "SessionStart": [
            {"matcher": "startup", "hooks": [{"type": "command", "command": "echo hi"}]},
            {"hooks": [{"type": "command", "command": "echo all"}]},
        ],
        "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
    },
    "model": "opus",
}


def ours(command: str = "cc-hooks hook", timeout: int = 30) -> dict:
    return {"type": "command", "command": command, "timeout": timeout}


# -- the block and its example file ------------------------------------------------------------


def test_example_file_is_rendered_from_the_python_block():
    example = (REPO_TOP / settings.EXAMPLE_NAME).read_text(encoding="utf-8")
    assert example == settings.render_example(), (
        "settings.example.json drifted; regenerate it: python -c \"from cc_hooks.settings import render_example;"
        " open('settings.example.json','w').write(render_example())\""
    )


def test_block_wires_the_four_events_without_matcher_and_with_timeouts_above_the_budgets():
    from cc_hooks.config import HooksConfig

    block = settings.hooks_block("cc-hooks hook")
    assert list(block) == ["PreCompact", "PostCompact", "SessionStart", "UserPromptSubmit"]
    budgets = HooksConfig()
    for event, groups in block.items():
        assert len(groups) == 1 and "matcher" not in groups[0]
        (handler,) = groups[0]["hooks"]
        assert handler["type"] == "command"
        assert getattr(budgets, settings.BUDGET_FIELDS[event]) < handler["timeout"] < settings.MAX_TIMEOUT


@pytest.mark.parametrize(
    "command, expected",
    [
        ("cc-hooks hook", True),
        ("/opt/venv/bin/cc-hooks hook", True),
        ("'/a b/cc-hooks' hook", True),
        ("python3 -m cc_hooks hook", True),
        (settings.hook_command("project"), True),
        (settings.hook_command("local"), True),
        ("cc-hooks hooks-report", False),
        ("cc-hooks doctor", False),
        ("my-cc-hooks-wrapper.sh", False),
        ("echo hook", False),
    ],
)
def test_our_handlers_are_recognised_by_their_command(command, expected):
    assert settings.is_ours({"type": "command", "command": command}) is expected


def test_a_non_command_handler_is_never_ours():
    assert not settings.is_ours({"type": "http", "command": "cc-hooks hook"})
    assert not settings.is_ours("cc-hooks hook")


# -- merge and remove ----------------------------------------------------------------------------


def test_merge_into_empty_settings_writes_exactly_the_block():
    merged, status = settings.merge({}, "cc-hooks hook")
    assert merged == {"hooks": settings.hooks_block("cc-hooks hook")}
    assert set(status.values()) == {"installed"}


def test_merge_keeps_foreign_content_and_order_and_remove_restores_it():
    original = copy.deepcopy(FOREIGN)
    merged, status = settings.merge(FOREIGN, "cc-hooks hook")
    assert FOREIGN == original, "merge must not mutate its input"
    assert list(merged) == ["permissions", "hooks", "model"]
    assert list(merged["hooks"]) == ["PreCompact", "SessionStart", "Stop", "PostCompact", "UserPromptSubmit"]
    assert merged["hooks"]["PreCompact"][0] == FOREIGN["hooks"]["PreCompact"][0]
    assert merged["hooks"]["SessionStart"][:2] == FOREIGN["hooks"]["SessionStart"]
    assert status == dict.fromkeys(settings.EVENTS, "installed")
    restored, removed = settings.remove(merged)
    assert restored == original
    assert removed == dict.fromkeys(settings.EVENTS, 1)


def test_merge_twice_is_unchanged():
    once, _ = settings.merge(FOREIGN, "cc-hooks hook")
    twice, status = settings.merge(once, "cc-hooks hook")
    assert twice == once
    assert set(status.values()) == {"unchanged"}


def test_merge_replaces_an_outdated_entry_in_place_and_keeps_a_shared_groups_foreign_handler():
    data = {
        "hooks": {
            "SessionStart": [
                {"hooks": [{"type": "command", "command": "echo first"}]},
                {"matcher": "compact", "hooks": [ours("cc-hooks hook", 60), {"type": "command", "command": "echo mine"}]},
                {"hooks": [{"type": "command", "command": "echo last"}]},
            ],
            "PreCompact": [{"hooks": [ours("cc-hooks hook", 99)]}, {"hooks": [ours("old/cc-hooks hook", 1)]}],
        }
    }
    merged, status = settings.merge(data, "NEW cc-hooks hook")
    assert status["SessionStart"] == "updated" and status["PreCompact"] == "updated"
    assert status["PostCompact"] == "installed"
    new_group = settings.hooks_block("NEW cc-hooks hook")["SessionStart"][0]
    assert merged["hooks"]["SessionStart"] == [
        {"hooks": [{"type": "command", "command": "echo first"}]},
        new_group,
        {"matcher": "compact", "hooks": [{"type": "command", "command": "echo mine"}]},
        {"hooks": [{"type": "command", "command": "echo last"}]},
    ]
    assert merged["hooks"]["PreCompact"] == settings.hooks_block("NEW cc-hooks hook")["PreCompact"]


def test_remove_keeps_a_foreign_empty_event_and_leaves_files_without_ours_alone():
    data = {"hooks": {"Stop": []}, "x": 1}
    assert settings.remove(data) == (data, {})
    assert settings.remove({"x": 1}) == ({"x": 1}, {})


def test_remove_drops_the_hooks_object_it_emptied():
    merged, _ = settings.merge({"x": 1}, "cc-hooks hook")
    assert settings.remove(merged) == ({"x": 1}, dict.fromkeys(settings.EVENTS, 1))


# -- loading -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, fragment",
    [
        ('{"hooks": {}', "not valid JSON (line 1 column 13"),
        ('{\n  "a": 1,\n}', "not valid JSON (line 3 column 1"),
        ("[]", "top level is a JSON array"),
        ('{"hooks": []}', "`hooks` is a JSON array"),
        ('{"hooks": {"PreCompact": {}}}', "`hooks.PreCompact` is a JSON object"),
        ('{"hooks": {"PreCompact": ["x"]}}', "`hooks.PreCompact[0]` is a JSON string"),
        ('{"hooks": {"Stop": [{"hooks": {}}]}}', "`hooks.Stop[0].hooks` is a JSON object"),
        ('{"hooks": {"Stop": [{"hooks": [1]}]}}', "`hooks.Stop[0].hooks[0]` is a JSON number"),
        ('{"a": 1, "a": 2}', "duplicate key 'a'"),
    ],
)
def test_load_refuses_what_it_cannot_merge_safely(tmp_path, text, fragment):
    path = tmp_path / "settings.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(settings.SettingsError) as info:
        settings.load(path)
    assert str(info.value).startswith(f"{path}: ")
    assert fragment in str(info.value)


def test_load_accepts_missing_empty_and_bom_files(tmp_path):
    missing = settings.load(tmp_path / "nope.json")
    assert not missing.exists and missing.data == {}
    (tmp_path / "empty.json").write_text(" \n", encoding="utf-8")
    assert settings.load(tmp_path / "empty.json").data == {}
    (tmp_path / "bom.json").write_bytes(b'\xef\xbb\xbf{"a": 1}')
    assert settings.load(tmp_path / "bom.json").data == {"a": 1}


def test_render_keeps_the_files_indentation(tmp_path):
    path = tmp_path / "s.json"
    path.write_text('{\n    "a": [\n        1\n    ]\n}\n', encoding="utf-8")
    file = settings.load(path)
    assert settings.render(file, file.data) == path.read_bytes()
    path.write_text('{\n\t"a": 1\n}\n', encoding="utf-8")
    file = settings.load(path)
    assert settings.render(file, file.data) == path.read_bytes()


def test_settings_paths_per_scope(tmp_path, monkeypatch):
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cfg"))
    assert settings.settings_path("project", tmp_path) == tmp_path / ".claude" / "settings.json"
    assert settings.settings_path("local", tmp_path) == tmp_path / ".claude" / "settings.local.json"
    assert settings.settings_path("user", tmp_path) == tmp_path / "cfg" / "settings.json"
    monkeypatch.delenv("CLAUDE_CONFIG_DIR")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert settings.settings_path("user", tmp_path) == tmp_path / "home" / ".claude" / "settings.json"


# -- the command, really run through a shell -----------------------------------------------------


def bare_path() -> str:
    """A PATH with git and the system tools but without this virtualenv (Claude Code's view)."""
    venv_bin = str(Path(sys.executable).parent)
    dirs = ["/usr/bin", "/bin", os.path.dirname(shutil.which("git") or "/usr/bin/git")]
    dirs = [d for d in dict.fromkeys(dirs) if d != venv_bin]
    assert shutil.which("cc-hooks", path=os.pathsep.join(dirs)) is None, "cc-hooks is installed system-wide here"
    return os.pathsep.join(dirs)


def run_shell(shell: str, command: str, stdin: str, project_dir: Path, path: str) -> subprocess.CompletedProcess:
    env = {"PATH": path, "HOME": str(project_dir), "CLAUDE_PROJECT_DIR": str(project_dir)}
    return subprocess.run(
        [shell, "-c", command], input=stdin, capture_output=True, text=True, cwd=project_dir, env=env, timeout=60
    )


SHELLS = [s for s in ("sh", "bash") if shutil.which(s)]
UNKNOWN_EVENT = '{"hook_event_name": "Doctor", "session_id": "t"}'


@pytest.mark.parametrize("shell", SHELLS)
def test_project_command_without_cc_hooks_prints_one_line_and_exits_0(shell, tmp_path):
    proc = run_shell(shell, settings.hook_command("project"), UNKNOWN_EVENT, tmp_path, bare_path())
    assert proc.returncode == 0
    assert proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith(settings.NOT_INSTALLED)


@pytest.mark.parametrize("shell", SHELLS)
def test_project_command_runs_the_projects_venv_cc_hooks_with_a_path_lacking_it(shell, tmp_path):
    assert VENV_SCRIPT.is_file(), "run the tests with the venv's python (pip install -e . creates the script)"
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    (tmp_path / ".venv" / "bin" / "cc-hooks").symlink_to(VENV_SCRIPT)
    command = settings.hook_command("project")
    ignored = run_shell(shell, command, UNKNOWN_EVENT, tmp_path, bare_path())
    assert (ignored.returncode, ignored.stdout, ignored.stderr) == (0, "", "")
    # Bad stdin proves the real hook ran: it fails open with its own one-line diagnosis.
    bad = run_shell(shell, command, "not json", tmp_path, bare_path())
    assert bad.returncode == 0
    assert "stdin is not valid JSON" in bad.stderr and settings.NOT_INSTALLED not in bad.stderr


def test_project_command_falls_back_to_cc_hooks_on_path(tmp_path):
    path = os.pathsep.join([str(VENV_SCRIPT.parent), bare_path()])
    proc = run_shell("sh", settings.hook_command("project"), "not json", tmp_path, path)
    assert proc.returncode == 0 and "stdin is not valid JSON" in proc.stderr


def test_the_wrapper_passes_stdin_and_the_exit_code_through(tmp_path):
    # Exit 2 from PreCompact blocks a manual compaction; the wrapper must not swallow it.
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    program = bin_dir / "cc-hooks"
    program.write_text('#!/bin/sh\n[ "$1" = hook ] || exit 9\ncat\nexit 2\n', encoding="utf-8")
    program.chmod(0o755)
    proc = run_shell("sh", settings.hook_command("project"), '{"x": 1}', tmp_path, bare_path())
    assert (proc.returncode, proc.stdout) == (2, '{"x": 1}')


def test_project_command_carries_no_absolute_path_of_this_machine():
    command = settings.hook_command("project")
    for local in (str(Path.home()), sys.prefix, sys.executable, str(REPO_TOP), "/usr", "/tmp"):
        assert local not in command
    assert set(re.findall(r"(?<![\w$}])/[\w.-]+", command)) == {"/dev"}  # only /dev/null


@pytest.mark.parametrize("shell", SHELLS)
def test_local_command_runs_this_installation_with_a_path_lacking_it(shell, tmp_path):
    command = settings.hook_command("local")
    assert str(VENV_SCRIPT) in command
    ignored = run_shell(shell, command, UNKNOWN_EVENT, tmp_path, bare_path())
    assert (ignored.returncode, ignored.stdout, ignored.stderr) == (0, "", "")
    bad = run_shell(shell, command, "not json", tmp_path, bare_path())
    assert bad.returncode == 0 and "stdin is not valid JSON" in bad.stderr


def test_local_command_whose_installation_vanished_prints_one_line_and_exits_0(tmp_path):
    command = settings.hook_command("local", executable=str(tmp_path / "gone" / "bin" / "python"))
    assert "-m cc_hooks hook" in command
    proc = run_shell("sh", command, UNKNOWN_EVENT, tmp_path, bare_path())
    assert proc.returncode == 0 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith(settings.NOT_INSTALLED)


def test_commands_quote_paths_with_spaces(tmp_path):
    bin_dir = tmp_path / "my venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "cc-hooks").symlink_to(VENV_SCRIPT)
    command = settings.hook_command("user", executable=str(bin_dir / "python"))
    assert settings.is_ours({"type": "command", "command": command})
    proc = run_shell("sh", command, "not json", tmp_path, bare_path())
    assert proc.returncode == 0 and "stdin is not valid JSON" in proc.stderr

