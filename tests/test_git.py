"""The thin git layer, on real temporary repositories."""

from __future__ import annotations

import subprocess

import pytest

from cc_hooks import git


def test_head_of_a_repo_with_commits(git_repo):
    tip = git.head(git_repo)
    expected = subprocess.run(["git", "-C", str(git_repo), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    assert (tip.branch, tip.sha) == ("main", expected)


def test_head_of_a_fresh_repo_is_an_unborn_branch(tmp_path):
    subprocess.run(["git", "init", "-q", "-b", "trunk", str(tmp_path)], check=True)
    assert git.head(tmp_path) == git.Head("trunk", None)


def test_head_detached(git_repo):
    subprocess.run(["git", "-C", str(git_repo), "checkout", "-q", "--detach"], check=True)
    tip = git.head(git_repo)
    assert tip.branch is None and len(tip.sha) == 40


def test_a_damaged_head_is_an_error_not_an_empty_repo(git_repo):
    (git_repo / ".git" / "HEAD").write_text("garbage\n")
    with pytest.raises(git.GitError):
        git.head(git_repo)


def test_object_types_in_one_batch(git_repo):
    sha = git.head(git_repo).sha
    found = git.object_types(git_repo, [sha[:9], "deadbeef1234", "main"])
    assert found[sha[:9]].endswith(" commit") and found["main"].endswith(" commit")
    assert found["deadbeef1234"] is None


def test_run_git_reports_failures_in_one_line(tmp_path):
    with pytest.raises(git.GitError) as excinfo:
        git.run_git(tmp_path, "log")
    assert "\n" not in str(excinfo.value)
