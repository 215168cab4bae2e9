"""Fixtures for the end-to-end tests: the pinned CLIs, the fake API and a runner.

Every test that uses ``claude`` (or ``claude_cli``) runs once per pinned CLI version
(``CC_HOOKS_E2E_CLI_VERSIONS``, default 2.1.197 and 2.1.332).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from .fakeapi import FakeAnthropic
from .harness import ClaudeRunner, PrerequisiteMissing, cli_versions, ensure_cli, in_ci


def _unavailable(reason: str):
    if in_ci():
        pytest.fail(f"CI=true and an end-to-end prerequisite is missing: {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session", params=cli_versions(), ids=lambda v: f"cli-{v}")
def claude_cli(request: pytest.FixtureRequest) -> Path:
    """The pinned CLI binary (installed into the cache on first use)."""
    try:
        return ensure_cli(request.param)
    except PrerequisiteMissing as exc:
        reason = str(exc)
    _unavailable(reason)


@pytest.fixture
def fake_api():
    with FakeAnthropic(max_lifetime=600) as fake:
        yield fake


@pytest.fixture
def claude(claude_cli: Path, fake_api: FakeAnthropic, git_repo: Path, tmp_path: Path) -> ClaudeRunner:
    """A runner in ``git_repo`` with a temp HOME; nothing of cc-hooks is wired yet."""
    return ClaudeRunner(cli=claude_cli, fake=fake_api, home=tmp_path / "home", cwd=git_repo)


@pytest.fixture
def cc_hooks_exe() -> Path:
    """The ``cc-hooks`` console script of the environment running the tests."""
    exe = Path(sys.executable).parent / "cc-hooks"
    if not exe.exists():
        _unavailable(f"{exe} missing: install the package first (pip install -e '.[test]')")
    return exe
