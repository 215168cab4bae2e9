"""Fixtures shared by every test directory, and the CI guard for the end-to-end tests."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

SHARED_DIR = Path(__file__).resolve().parents[1] / ".." / "shared"

if os.environ.get("CI", "").lower() == "true":
    # CI replays the same examples every run, so a property test cannot fail by chance there;
    # local runs stay random and keep exploring (a crasher they find becomes an @example).
    from hypothesis import settings

    settings.register_profile("ci", derandomize=True, deadline=None)
    settings.load_profile("ci")


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


@pytest.fixture
def git_repo(tmp_path: Path) -> Path:
    """A real git repository on branch ``main`` with an identity configured and one commit."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.name", "Test User")
    git(repo, "config", "user.email", "test@example.com")
    git(repo, "config", "commit.gpgsign", "false")
    (repo / "README.md").write_text("# test repo\n", encoding="utf-8")
    git(repo, "add", "README.md")
    git(repo, "commit", "-q", "-m", "Initial commit")
    return repo


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """An empty directory to be a private HOME."""
    path = tmp_path / "home"
    path.mkdir()
    return path


@pytest.fixture
def git_verbs(monkeypatch) -> list[str]:
    """The verb of every git process started through ``cc_hooks.git`` (text and bytes alike), in order."""
    from cc_hooks import git as gitmod

    verbs: list[str] = []
    real = gitmod._run

    def counting(root, args, *rest, **kwargs):
        verbs.append(next((a for a in args if not a.startswith("-")), ""))
        return real(root, args, *rest, **kwargs)

    monkeypatch.setattr(gitmod, "_run", counting)
    return verbs


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """``../shared`` beside the checkout (design docs and the real corpus)."""
    if not (SHARED_DIR / "corpus").is_dir():
        pytest.skip(f"../shared/corpus not present: {SHARED_DIR.resolve()} (it lives beside the checkout)")
    return SHARED_DIR.resolve()


# --- CI guard: under CI=true the end-to-end tests must have run, none skipped --------------------


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


_E2E: dict = {"ran": set(), "skipped": []}


def _is_xdist_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def pytest_configure(config: pytest.Config) -> None:
    _E2E.update(ran=set(), skipped=[])


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    # Under pytest-xdist the controller sees every worker's reports here, so this counts in both modes.
    if "e2e" not in report.keywords:
        return
    _E2E["ran"].add(report.nodeid)
    if report.skipped:
        reason = report.longrepr[-1] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        _E2E["skipped"].append(f"{report.nodeid}: {reason}")


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if not _in_ci() or _is_xdist_worker(session.config):
        return
    problems = []
    if not _E2E["ran"]:
        problems.append("no end-to-end test (marker e2e) ran")
    problems += [f"end-to-end test skipped: {line}" for line in _E2E["skipped"]]
    if problems:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write("\n")
            reporter.write_sep("=", "CI=true: the end-to-end tests must run", red=True, bold=True)
            for problem in problems:
                reporter.write_line(problem, red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


# --- the README's install, once per session ------------------------------------------------------


@pytest.fixture(scope="session")
def readme_install(tmp_path_factory):
    """(repository, completed process, env) right after the README's `test:install` block ran verbatim in
    a fresh repository. Pristine: a test that changes it works on ``readme_setup.copy_project``."""
    import readme_setup

    base = tmp_path_factory.mktemp("newcomer")
    env = readme_setup.newcomer_env(base / "claude-config")
    repo = readme_setup.fresh_repository(base / "project")
    proc = readme_setup.run_install(repo, env)
    return repo, proc, env


# --- the package as installed, once per run --------------------------------------------------------


@pytest.fixture(scope="session")
def installed_cli(tmp_path_factory) -> Path:
    """The ``cc-hooks`` console script of a fresh venv holding only the wheel built from this tree
    and its dependencies (tests/installed_wheel.py): what the harness runs, not the editable checkout."""
    import installed_wheel

    return installed_wheel.build(tmp_path_factory.getbasetemp().parent / "cc-hooks-installed")
