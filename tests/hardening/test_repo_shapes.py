"""Every hook event answers sanely in every repository shape people have: no commits yet,
detached HEAD, shallow clone, bare repo, linked worktree, submodule, merge or rebase in
progress, paths with spaces and non-ASCII, CRLF files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cc_hooks import state

from .conftest import EVENTS, assert_sane, event, git, hook_in_process, make_repo
from .faults import FIELDS


def commit(repo: Path, name: str, text: str, message: str) -> None:
    (repo / name).write_text(text)
    git(repo, "add", name)
    git(repo, "commit", "-q", "-m", message)


def record(repo: Path) -> None:
    subprocess.run([sys.executable, "-m", "cc_hooks", "init"], cwd=repo, capture_output=True, check=True)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "Record")


def no_commits(tmp: Path) -> Path:
    return make_repo(tmp / "empty", commit=False)


def detached(tmp: Path) -> Path:
    repo = make_repo(tmp / "detached")
    commit(repo, "a.txt", "a\n", "Second")
    git(repo, "checkout", "-q", "--detach", "HEAD~1")
    return repo


def shallow(tmp: Path) -> Path:
    origin = make_repo(tmp / "origin")
    record(origin)
    for i in range(3):
        commit(origin, f"f{i}.txt", f"{i}\n", f"Commit {i}")
    clone = tmp / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{origin}", str(clone)], check=True)
    return clone


def bare(tmp: Path) -> Path:
    origin = make_repo(tmp / "origin-bare")
    target = tmp / "bare.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(origin), str(target)], check=True)
    return target


def linked_worktree(tmp: Path) -> Path:
    repo = make_repo(tmp / "main-wt")
    linked = tmp / "linked-wt"
    git(repo, "worktree", "add", "-q", str(linked), "-b", "side")
    return linked


def submodule(tmp: Path) -> Path:
    inner = make_repo(tmp / "inner")
    outer = make_repo(tmp / "outer")
    subprocess.run(["git", "-C", str(outer), "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(inner), "sub"],
                   check=True, capture_output=True)
    git(outer, "commit", "-q", "-m", "Add submodule")
    return outer / "sub"


def merging(tmp: Path) -> Path:
    repo = make_repo(tmp / "merging")
    git(repo, "checkout", "-q", "-b", "other")
    commit(repo, "README.md", "other\n", "Other")
    git(repo, "checkout", "-q", "main")
    commit(repo, "README.md", "main\n", "Main")
    subprocess.run(["git", "-C", str(repo), "merge", "-q", "other"], capture_output=True)
    assert (repo / ".git" / "MERGE_HEAD").exists()
    return repo


def rebasing(tmp: Path) -> Path:
    repo = make_repo(tmp / "rebasing")
    git(repo, "checkout", "-q", "-b", "other")
    commit(repo, "README.md", "other\n", "Other")
    git(repo, "checkout", "-q", "main")
    commit(repo, "README.md", "main\n", "Main")
    subprocess.run(["git", "-C", str(repo), "rebase", "other"], capture_output=True)
    assert (repo / ".git" / "rebase-merge").exists() or (repo / ".git" / "rebase-apply").exists()
    return repo


def odd_paths(tmp: Path) -> Path:
    repo = make_repo(tmp / "with space ünïcode 日本")
    record(repo)
    (repo / "dir with space").mkdir()
    commit(repo, "dir with space/naïve file.py", "x = 1\n", "Add naïve file")
    return repo


def crlf(tmp: Path) -> Path:
    repo = make_repo(tmp / "crlf")
    record(repo)
    for name in ("next_steps.md", "SYMPTOMS.md", "DECISIONS.md", "COLDSTART_QUESTIONS.md", ".cc-hooks.toml"):
        path = repo / name
        path.write_bytes(path.read_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "CRLF")
    return repo


SHAPES = [no_commits, detached, shallow, bare, linked_worktree, submodule, merging, rebasing, odd_paths, crlf]


@pytest.mark.parametrize("shape", SHAPES, ids=[s.__name__ for s in SHAPES])
def test_every_event_answers_in_every_shape(tmp_path, monkeypatch, shape):
    where = shape(tmp_path)
    monkeypatch.chdir(where)
    for name in EVENTS:
        answer = hook_in_process(json.dumps(event(name, where, session_id=f"s-{shape.__name__}", **FIELDS[name])).encode())
        assert_sane(answer, 15)
        if name == "SessionStart" and shape is not bare:
            assert answer.context(), answer
    if shape is not bare:
        follow = hook_in_process(json.dumps(event("UserPromptSubmit", where, session_id=f"s-{shape.__name__}", prompt="x")).encode())
        assert_sane(follow)


def test_a_linked_worktree_shares_the_main_state_dir(tmp_path):
    linked = linked_worktree(tmp_path)
    main = tmp_path / "main-wt"
    assert state.state_dir(linked) == state.state_dir(main) == main / ".git" / "cc-hooks"
    hook_in_process(json.dumps(event("PostCompact", linked, session_id="wt", compact_summary="s")).encode())
    answer = hook_in_process(json.dumps(event("UserPromptSubmit", main, session_id="wt", prompt="x")).encode())
    assert answer.context()


def test_a_submodule_has_its_own_state_dir(tmp_path):
    sub = submodule(tmp_path)
    outer = tmp_path / "outer"
    assert state.state_dir(sub) == outer / ".git" / "modules" / "sub" / "cc-hooks"
    assert state.state_dir(outer) == outer / ".git" / "cc-hooks"


def test_a_detached_head_and_an_unborn_branch_are_named_as_such(tmp_path):
    for shape, phrase in ((detached, "detached"), (no_commits, "no commits yet")):
        where = shape(tmp_path)
        answer = hook_in_process(json.dumps(event("SessionStart", where, source="startup")).encode())
        assert phrase in answer.context(), answer.context()
