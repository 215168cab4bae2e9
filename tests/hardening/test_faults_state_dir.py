"""A state directory that cannot be written (full, read-only, a file in its place): the hook still answers."""

from __future__ import annotations


import pytest

from .conftest import BUDGET, EVENTS, assert_sane, hook_in_process
from .faults import fill, mounted_tmpfs, payload


# --- the state directory cannot be written ------------------------------------------------------


@pytest.mark.parametrize("name", EVENTS)
def test_full_state_directory_the_hook_still_answers(repo, name):
    with mounted_tmpfs(repo / ".git" / "cc-hooks", "64k") as state:
        fill(state)
        answer = hook_in_process(payload(name, repo))
        assert_sane(answer, BUDGET[name])
        if name in ("PreCompact", "SessionStart"):
            assert answer.stdout.strip(), answer  # the answer does not depend on writing state


@pytest.mark.parametrize("name", EVENTS)
def test_read_only_state_directory_the_hook_still_answers(repo, name):
    with mounted_tmpfs(repo / ".git" / "cc-hooks", "1m", readonly=True):
        answer = hook_in_process(payload(name, repo))
        assert_sane(answer, BUDGET[name])
        if name in ("PreCompact", "SessionStart"):
            assert answer.stdout.strip(), answer


@pytest.mark.parametrize("name", EVENTS)
def test_a_file_in_place_of_the_state_directory(repo, name):
    (repo / ".git" / "cc-hooks").write_text("not a directory")
    answer = hook_in_process(payload(name, repo))
    assert_sane(answer, BUDGET[name])
    if name in ("PreCompact", "SessionStart"):
        assert answer.stdout.strip(), answer
    assert (repo / ".git" / "cc-hooks").read_text() == "not a directory"


def test_post_compact_on_a_full_state_directory_still_tells_the_user(repo):
    with mounted_tmpfs(repo / ".git" / "cc-hooks", "64k") as state:
        fill(state)
        answer = hook_in_process(payload("PostCompact", repo))
    assert_sane(answer)
    assert "cc-hooks" in answer.stdout and "could not store" in answer.stdout, answer


