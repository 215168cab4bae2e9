"""cc-hooks as a Claude Code plugin, and its skills and subagents, seen by the real CLI.

The plugin is installed the way a user does it, offline: ``claude plugin marketplace add <dir>``
then ``claude plugin install cc-hooks@cc-hooks`` (user scope, the default), where ``<dir>`` is a
temp copy of the repo's plugin files (``.claude-plugin/``, ``hooks/``, ``cc_hooks/``). The
CLI copies it into ``~/.claude/plugins/cache/`` of the temp HOME and runs ``hooks/run-hook``
from there through ``${CLAUDE_PLUGIN_ROOT}``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cc_hooks.agents_install import SKILLS, SUBAGENTS, install_agents

from .harness import ClaudeRunner

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[2]
PLUGIN_COMMAND = 'sh "${CLAUDE_PLUGIN_ROOT}/hooks/run-hook"'
CONTEXT_PREFIX = "SessionStart hook additional context: "


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout.strip()


def claude_cmd(claude: ClaudeRunner, *args: str) -> subprocess.CompletedProcess:
    proc = subprocess.run([str(claude.cli), *args], cwd=claude.cwd, env=claude.env(), capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, f"claude {' '.join(args)} exited {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    return proc


def install_plugin(claude: ClaudeRunner, tmp_path: Path) -> Path:
    marketplace = tmp_path / "marketplace"
    for part in (".claude-plugin", "hooks", "cc_hooks"):
        shutil.copytree(REPO / part, marketplace / part, ignore=shutil.ignore_patterns("__pycache__"))
    added = claude_cmd(claude, "plugin", "marketplace", "add", str(marketplace))
    assert "Successfully added marketplace: cc-hooks" in added.stdout
    installed = claude_cmd(claude, "plugin", "install", "cc-hooks@cc-hooks")
    assert "Successfully installed plugin: cc-hooks@cc-hooks" in installed.stdout
    listing = claude_cmd(claude, "plugin", "list").stdout
    assert "cc-hooks@cc-hooks" in listing and "enabled" in listing
    return marketplace


def put_python3_on_path(claude: ClaudeRunner, with_dependencies: bool) -> None:
    """A ``python3`` first on PATH: with pydantic and GitPython (but not cc_hooks), or bare."""
    site = os.pathsep.join(p for p in sys.path if p.endswith("site-packages"))
    extra = f'PYTHONPATH="$PYTHONPATH:{site}" ' if with_dependencies else ""
    wrapper = claude.bin_dir / "python3"
    wrapper.write_text(f'#!/bin/sh\n{extra}exec "{sys.executable}" -S "$@"\n')
    wrapper.chmod(0o755)


def plugin_session_start(claude: ClaudeRunner) -> dict:
    runs = claude.runs[-1].transcript().hook_successes("SessionStart:startup")
    assert len(runs) == 1, runs
    assert runs[0]["command"] == PLUGIN_COMMAND and runs[0]["exitCode"] == 0
    return runs[0]


def test_plugin_session_start_reaches_the_model(claude: ClaudeRunner, cc_hooks_exe: Path, tmp_path: Path) -> None:
    claude.link_on_path(cc_hooks_exe)  # as pipx would
    install_plugin(claude, tmp_path)
    claude.fake.queue_text("hello")

    result = claude.run("hi")

    plugin_session_start(claude)
    [context] = result.transcript().additional_context()
    assert "cc-hooks" in context and git(claude.cwd, "rev-parse", "HEAD")[:12] in context
    [turn] = claude.fake.turns
    assert f"{CONTEXT_PREFIX}{context}" in turn.text
    # The plugin's skills and subagents are offered to the model, namespaced by the plugin.
    for name in (*SKILLS, *SUBAGENTS):
        assert f"- cc-hooks:{name}: " in turn.text, name
    assert result.result_text == "hello"


def test_plugin_runs_its_own_checkout_with_python3(claude: ClaudeRunner, tmp_path: Path) -> None:
    put_python3_on_path(claude, with_dependencies=True)  # no cc-hooks anywhere on PATH
    install_plugin(claude, tmp_path)

    claude.run("hi")

    assert plugin_session_start(claude)["stderr"] == ""
    [context] = claude.runs[-1].transcript().additional_context()
    assert "cc-hooks" in context
    assert f"{CONTEXT_PREFIX}{context}" in claude.fake.turns[0].text


def test_plugin_without_an_installation_fails_open(claude: ClaudeRunner, tmp_path: Path) -> None:
    put_python3_on_path(claude, with_dependencies=False)
    install_plugin(claude, tmp_path)
    claude.fake.queue_text("still works")

    result = claude.run("hi")

    run = plugin_session_start(claude)
    assert run["stdout"] == ""
    assert run["stderr"].startswith("cc-hooks: not installed: python3 lacks pydantic, git;")
    assert run["stderr"].count("\n") == 1 and "Traceback" not in run["stderr"]
    assert result.transcript().additional_context() == []
    assert CONTEXT_PREFIX not in claude.fake.turns[0].text
    assert result.result_text == "still works"


def test_installed_skills_and_subagents_are_offered_to_the_model(claude: ClaudeRunner) -> None:
    lines = install_agents(claude.cwd, "project")
    assert all(line.endswith(": written") for line in lines)

    claude.run("hi")

    [turn] = claude.fake.turns
    for name in (*SKILLS, *SUBAGENTS):
        assert f"- {name}: " in turn.text, name


def test_cli_validates_the_plugin_and_the_marketplace(claude: ClaudeRunner) -> None:
    for manifest in ("plugin.json", "marketplace.json"):
        proc = claude_cmd(claude, "plugin", "validate", str(REPO / ".claude-plugin" / manifest))
        assert "Validation passed" in proc.stdout, proc.stdout
        assert "error" not in proc.stdout.lower()
