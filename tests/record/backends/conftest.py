"""Fixtures: a real git repo whose dashboard is a loopback fake tracker."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from .fakes import FakeGitHub, FakeJira

GITHUB_TOKEN = "ghp_s3cretTOKENvalue0123456789abcdefXYZ"
JIRA_TOKEN = "ATATT3xFfGF0-s3cret-jira-token-0123456789"
JIRA_EMAIL = "dev@example.com"


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


def commit(repo: Path, message: str, name: str = "work.txt", date: str = "2026-11-25T12:00:00") -> str:
    path = repo / name
    path.write_text((path.read_text() if path.exists() else "") + message + "\n")
    git(repo, "add", name)
    subprocess.run(["git", "-C", str(repo), "commit", "-q", "-m", message], check=True,
                   env={**_env(), "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date})
    return git(repo, "rev-parse", "HEAD").strip()


def _env() -> dict:
    import os

    return dict(os.environ)


def declare(repo: Path, line: str, toml: str = "", allow: bool = True) -> None:
    """Declare the dashboard (and its config); ``allow``: the user pins the endpoint the config
    names, as `cc-hooks trust` does (the fakes are not api.github.com)."""
    (repo / "CLAUDE.md").write_text(f"# Project\n\n{line}\n")
    if toml:
        (repo / ".cc-hooks.toml").write_text(toml)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "Declare the dashboard")
    if allow:
        pin_endpoints(repo)


def pin_endpoints(repo: Path) -> None:
    from cc_hooks import trust
    from cc_hooks.config import load_config
    from cc_hooks.record.backends import _endpoint

    config = load_config(repo)
    trust.trust(repo, config, _endpoint.requests(config))


@pytest.fixture(autouse=True)
def private_user_config(tmp_path, monkeypatch):
    """The user's config dir (trust.json, config.toml) is the test's own."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "user-config"))


@pytest.fixture(autouse=True)
def fresh_process():
    """Each test is a new process: no failed read remembered from another test."""
    from cc_hooks.record.backends import _tracker

    _tracker._PROCESS_READS.clear()
    yield
    _tracker._PROCESS_READS.clear()


@pytest.fixture
def github(monkeypatch):
    fake = FakeGitHub(token=GITHUB_TOKEN)
    monkeypatch.setenv("GITHUB_TOKEN", GITHUB_TOKEN)
    yield fake
    fake.stop()


@pytest.fixture
def jira(monkeypatch):
    fake = FakeJira(email=JIRA_EMAIL, token=JIRA_TOKEN)
    monkeypatch.setenv("JIRA_EMAIL", JIRA_EMAIL)
    monkeypatch.setenv("JIRA_API_TOKEN", JIRA_TOKEN)
    yield fake
    fake.stop()


@pytest.fixture
def gh_repo(git_repo, github):
    """A repo declaring ``Dashboard: github o/r`` against the fake."""
    declare(git_repo, "Dashboard: github o/r", f'[dashboard.github]\napi_url = "{github.url}"\n')
    return git_repo


@pytest.fixture
def jira_repo(git_repo, jira):
    declare(git_repo, "Dashboard: jira PROJ", f'[dashboard.jira]\nurl = "{jira.url}"\n')
    return git_repo


def state_body(date: str = "2026-11-24", resume: str = "Finish the parser", *claims: str) -> str:
    return "\n".join([f"## CURRENT STATE — {date}", f"Resume point: {resume}", *[f"- {c}" for c in claims]]) + "\n"
