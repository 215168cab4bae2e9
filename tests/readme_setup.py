"""The README's setup, run once per test session: a fresh repository after the `test:install` block.

The install block creates a virtualenv and pip-installs this checkout into it (~20 s): the tests that
need it share one pristine result (``tests/conftest.py::readme_install``) and copy it to change it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
MARKED_BLOCK = re.compile(r"<!-- test:([\w-]+) -->\s*\n```(\w+)[^\n]*\n(.*?)\n```", re.S)
PLACEHOLDER = "/path/to/cc-hooks"


def readme_block(name: str) -> str:
    if not README.exists():
        pytest.skip("README.md not written yet")
    for marker, language, body in MARKED_BLOCK.findall(README.read_text(encoding="utf-8")):
        if marker == name:
            assert language == "sh"
            return body.strip()
    pytest.fail(f"README.md has no test:{name} block")


def newcomer_env(claude_config: Path) -> dict:
    """A shell as a newcomer has it: no virtualenv active, no Claude Code session history."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTEST_ADDOPTS")}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if ".venv" not in p)
    env["CLAUDE_CONFIG_DIR"] = str(claude_config)
    return env


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


def fresh_repository(path: Path) -> Path:
    path.mkdir(parents=True)
    git(path, "init", "-q", "-b", "main")
    for key, value in (("user.name", "New User"), ("user.email", "new@example.com"), ("commit.gpgsign", "false")):
        git(path, "config", key, value)
    (path / "README.md").write_text("# my project\n", encoding="utf-8")
    git(path, "add", "README.md")
    git(path, "commit", "-q", "-m", "Initial commit")
    return path


def run_install(repo: Path, env: dict) -> subprocess.CompletedProcess:
    command = readme_block("install")
    assert PLACEHOLDER in command
    proc = subprocess.run(["sh", "-c", command.replace(PLACEHOLDER, str(REPO))], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=600)
    if proc.returncode != 0 and re.search(r"No matching distribution|Could not find a version", proc.stderr):
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true and the package index is unreachable: {proc.stderr[-500:]}")
        pytest.skip(f"the package index is unreachable: {proc.stderr.strip().splitlines()[-1]}")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc


def copy_project(source: Path, target: Path) -> Path:
    """A copy of an installed project, its .venv included (its scripts still name the original's Python)."""
    shutil.copytree(source, target, symlinks=True)
    return target
