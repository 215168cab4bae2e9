"""A real temporary git repository to plant claims in."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Optional

import pytest

from cc_hooks.claims.extract import claim_from_line
from cc_hooks.claims.verify import verify_claims
from cc_hooks.config import Config, load_config
from cc_hooks.runtime import Deadline


class Repo:
    def __init__(self, path: Path):
        self.path = path
        path.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", "main")
        self.git("config", "user.name", "Test User")
        self.git("config", "user.email", "test@example.com")
        self.git("config", "commit.gpgsign", "false")

    def git(self, *args: str, date: str = "2026-11-20") -> str:
        env = {**os.environ, "GIT_AUTHOR_DATE": f"{date}T12:00:00", "GIT_COMMITTER_DATE": f"{date}T12:00:00"}
        return subprocess.run(["git", "-C", str(self.path), *args], check=True, capture_output=True, text=True, env=env).stdout

    def write(self, rel: str, text: str) -> Path:
        target = self.path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        return target

    def commit(self, message: str, files: Optional[dict] = None, date: str = "2026-11-20") -> str:
        files = files or {f"f{len(self.git('log', '--oneline', '--all').splitlines()) if self.has_commits() else 0}.txt": message + "\n"}
        for rel, text in files.items():
            self.write(rel, text)
        self.git("add", "--", *files)
        self.git("commit", "-q", "-m", message, date=date)
        return self.sha("HEAD")

    def has_commits(self) -> bool:
        return subprocess.run(["git", "-C", str(self.path), "rev-parse", "-q", "--verify", "HEAD"], capture_output=True).returncode == 0

    def sha(self, rev: str) -> str:
        return self.git("rev-parse", rev).strip()

    def config(self) -> Config:
        return load_config(self.path)

    def check(self, text: str, section: str = "state", date: Optional[str] = None, done: bool = False, state_date: Optional[str] = None, seconds: float = 20.0):
        """One claim, verified; returns it."""
        claim = claim_from_line(text, "next_steps.md", 3, section, date, done)
        verify_claims(self.path, [claim], self.config(), Deadline(seconds), state_date=state_date)
        return claim


@pytest.fixture(autouse=True)
def private_config_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Trust decisions go to a temporary XDG config dir, never the user's."""
    home = tmp_path / "xdg-config"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home))
    return home


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    repo = Repo(tmp_path / "repo")
    repo.commit("Initial commit", {"README.md": "# demo\n"})
    return repo
