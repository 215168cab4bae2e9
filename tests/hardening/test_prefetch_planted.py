"""A prefetch list planted in the state directory (a repository received as an archive with its
``.git``) is never replayed: only the argument vectors this code saved, signed with the user's
own key, for this work tree, from a regular file of the user's (issue 16, item 3)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cc_hooks import prefetch

from .conftest import git, make_repo

ENTRY = Path(sys.executable).with_name("cc-hooks")
pytestmark = pytest.mark.skipif(not ENTRY.exists(), reason=f"the installed entry point {ENTRY} is absent")

# The reported payload and other spellings git accepts for --open-files-in-pager / --output.
PAYLOADS = [
    ["grep", "--open=touch PWNED;", "-e", "x"],
    ["grep", "--open-files=touch PWNED;", "-e", "x"],
    ["grep", "--op=touch PWNED;", "-e", "x"],
    ["grep", "-Otouch PWNED;", "-e", "x"],
    ["grep", "-nOtouch PWNED;", "-e", "x"],
    ["--no-pager", "grep", "--open-files-in=touch PWNED;", "-e", "x"],
    ["log", "--out=PWNED", "-1"],
    ["diff", "--ext", "HEAD"],
]


def session_start(repo: Path, env: dict) -> subprocess.CompletedProcess:
    payload = {"hook_event_name": "SessionStart", "session_id": "planted", "cwd": str(repo), "source": "startup"}
    return subprocess.run([str(ENTRY), "hook"], input=json.dumps(payload).encode(), cwd=repo, capture_output=True,
                          timeout=120, env={**os.environ, **env})


@pytest.fixture
def setting(tmp_path):
    repo = make_repo(tmp_path / "repo")
    (repo / "x.txt").write_text("x\n")
    git(repo, "add", "x.txt")
    git(repo, "commit", "-q", "-m", "x")
    store = repo / ".git" / "cc-hooks" / prefetch.FILE.format(event="SessionStart")
    store.parent.mkdir(mode=0o700)
    return repo, store, {"XDG_CONFIG_HOME": str(tmp_path / "xdg")}


def pwned(repo: Path) -> bool:
    return any(p.name.startswith("PWNED") for p in repo.rglob("*"))


@pytest.mark.parametrize("args", PAYLOADS)
def test_a_planted_list_is_never_replayed(setting, args):
    repo, store, env = setting
    store.write_text(json.dumps({"root": str(repo), "commands": [{"args": args, "stdin": None}]}))
    proc = session_start(repo, env)
    assert proc.returncode == 0 and not pwned(repo)


@pytest.mark.parametrize("args", PAYLOADS)
def test_a_list_signed_with_another_users_key_is_never_replayed(setting, args):
    """An archive can carry a list its sender's cc-hooks signed: the key is not this user's."""
    repo, store, env = setting
    body = {"root": str(repo), "commands": [{"args": args, "stdin": None}]}
    store.write_text(json.dumps({**body, "mac": prefetch._mac(os.urandom(32), body)}))
    proc = session_start(repo, env)
    assert proc.returncode == 0 and not pwned(repo)


@pytest.mark.parametrize("args", PAYLOADS)
def test_even_our_own_signature_never_replays_an_abbreviated_writing_option(setting, args, monkeypatch):
    """Defence in depth: a list we signed ourselves still starts only read-only commands, and
    git's abbreviations of the writing options are caught as well."""
    repo, store, env = setting
    monkeypatch.setenv("XDG_CONFIG_HOME", env["XDG_CONFIG_HOME"])
    body = {"root": str(repo), "commands": [{"args": args, "stdin": None}]}
    store.write_text(json.dumps({**body, "mac": prefetch._mac(prefetch.user_key(create=True), body)}))
    assert not prefetch.reads_only(args)
    proc = session_start(repo, env)
    assert proc.returncode == 0 and not pwned(repo)


def test_a_symlinked_list_or_one_of_another_owner_is_not_read(setting, tmp_path, monkeypatch):
    repo, store, env = setting
    monkeypatch.setenv("XDG_CONFIG_HOME", env["XDG_CONFIG_HOME"])
    session_start(repo, env)
    session_start(repo, env)  # the list is saved and signed by now
    good = json.loads(store.read_text())
    assert prefetch._load(str(store), str(repo)), "our own list loads"
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text(json.dumps(good))
    store.unlink()
    store.symlink_to(elsewhere)
    assert prefetch._load(str(store), str(repo)) == []
    store.unlink()
    store.write_text(json.dumps(good))
    if os.geteuid() == 0:
        os.chown(store, 4242, 4242)
        assert prefetch._load(str(store), str(repo)) == []


def test_another_work_trees_list_is_not_replayed(setting, tmp_path, monkeypatch):
    repo, store, env = setting
    monkeypatch.setenv("XDG_CONFIG_HOME", env["XDG_CONFIG_HOME"])
    session_start(repo, env)
    assert prefetch._load(str(store), str(repo))
    assert prefetch._load(str(store), str(tmp_path / "other")) == []
