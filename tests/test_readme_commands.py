"""The README's setup commands work as written.

A fenced ``sh`` block preceded by a ``<!-- test:NAME -->`` line is a command the README promises.
Each NAME has a check here, and a marker without one fails, so no promised command goes untested:

- ``install``: run verbatim (with ``/path/to/cc-hooks`` pointing at this checkout) in a fresh git
  repository; it must leave a working cc-hooks in ``.venv``, the four hooks wired, and the record.
- ``tests``: not run (it would run this suite inside itself); checked to install the ``test`` extra
  and to run pytest.
- ``plugin``: checked against the plugin and marketplace manifests (the real CLI runs the plugin
  route in tests/e2e/test_plugin.py).
- ``first-hour``: run verbatim after ``install`` and the commit ``init`` asks for, by
  tests/test_first_hour.py (the scripted newcomer).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from cc_hooks import __version__

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
MARKED_BLOCK = re.compile(r"<!-- test:([\w-]+) -->\s*\n```(\w+)[^\n]*\n(.*?)\n```", re.S)
PLACEHOLDER = "/path/to/cc-hooks"


def readme_blocks(text: str) -> dict[str, str]:
    """``{marker: command text}`` of every marked fenced block; every marker must precede a sh block."""
    markers = re.findall(r"<!-- test:([\w-]+) -->", text)
    blocks = {}
    for name, language, body in MARKED_BLOCK.findall(text):
        assert language == "sh", f"test:{name} marks a {language} block; only sh blocks are run"
        assert name not in blocks, f"test:{name} is used twice"
        blocks[name] = body.strip()
    assert sorted(blocks) == sorted(markers), f"a marker is not followed by a fenced block: {markers}"
    return blocks


@pytest.fixture(scope="module")
def blocks() -> dict[str, str]:
    if not README.exists():
        pytest.skip("README.md not written yet")
    return readme_blocks(README.read_text(encoding="utf-8"))


def test_readme_blocks_are_found_and_a_bad_marker_is_refused() -> None:
    good = "text\n<!-- test:a -->\n```sh\necho a\n```\n<!-- test:b -->\n\n```sh title=\"b\"\necho b\n```\n"
    assert readme_blocks(good) == {"a": "echo a", "b": "echo b"}
    with pytest.raises(AssertionError, match="only sh blocks"):
        readme_blocks("<!-- test:a -->\n```python\nprint()\n```\n")
    with pytest.raises(AssertionError, match="not followed by a fenced block"):
        readme_blocks("<!-- test:a -->\nplain words\n")


def test_every_marked_readme_command_has_a_check(blocks: dict[str, str]) -> None:
    assert "install" in blocks
    known = {"install", "tests", "plugin", "first-hour"}
    assert set(blocks) <= known, f"no check for test:{sorted(set(blocks) - known)}"


def test_readme_install_command_sets_up_a_project(blocks: dict[str, str], readme_install) -> None:
    assert PLACEHOLDER in blocks["install"]
    git_repo, _, _ = readme_install  # the block, run verbatim in a fresh repository (tests/readme_setup.py)
    exe = git_repo / ".venv" / "bin" / "cc-hooks"
    version = subprocess.run([str(exe), "--version"], capture_output=True, text=True, timeout=60)
    assert version.stdout.strip() == f"cc-hooks {__version__}"
    settings = json.loads((git_repo / ".claude" / "settings.json").read_text())
    assert set(settings["hooks"]) == {"PreCompact", "PostCompact", "SessionStart", "UserPromptSubmit"}
    for name in ("SYMPTOMS.md", "DECISIONS.md", "next_steps.md", "COLDSTART_QUESTIONS.md"):
        assert (git_repo / name).is_file(), name
    again = subprocess.run([str(exe), "install"], cwd=git_repo, capture_output=True, text=True, timeout=60)
    assert again.returncode == 0 and "unchanged, nothing written" in again.stdout


def test_readme_test_command_installs_the_test_extra_and_runs_pytest(blocks: dict[str, str]) -> None:
    if "tests" not in blocks:
        pytest.skip("README has no test:tests block")
    command = blocks["tests"]
    assert "'.[test]'" in command and "-m pytest" in command
    assert "test = [" in (REPO / "pyproject.toml").read_text()


def test_readme_plugin_commands_match_the_manifests(blocks: dict[str, str]) -> None:
    if "plugin" not in blocks:
        pytest.skip("README has no test:plugin block")
    plugin = json.loads((REPO / ".claude-plugin" / "plugin.json").read_text())["name"]
    marketplace = json.loads((REPO / ".claude-plugin" / "marketplace.json").read_text())["name"]
    command = blocks["plugin"]
    assert "claude plugin marketplace add " in command
    assert f"claude plugin install {plugin}@{marketplace}" in command
