"""The thin git layer, on real temporary repositories."""

from __future__ import annotations

import os
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


def test_the_git_layer_imports_no_other_cc_hooks_module():
    """Data flows one way: the runtime and the prefetch plug into cc_hooks.git (``set_gate``,
    ``set_early_answers``); git imports neither, and the prefetch does not import the runtime
    (issue 22, item 5: they imported each other in a circle)."""
    import ast
    from pathlib import Path

    package = Path(git.__file__).parent

    def imported(module: str) -> set[str]:
        tree = ast.parse((package / f"{module}.py").read_text(encoding="utf-8"))
        names = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("cc_hooks"):
                names |= {f"{node.module}.{a.name}" if node.module == "cc_hooks" else node.module for a in node.names}
            elif isinstance(node, ast.Import):
                names |= {a.name for a in node.names if a.name.startswith("cc_hooks")}
        return names

    assert imported("git") == set()
    assert "cc_hooks.runtime" not in imported("prefetch")


def test_every_git_process_neutralizes_the_repositorys_programs(git_repo, tmp_path):
    marker = tmp_path / "fsmonitor-ran"
    hook = tmp_path / "fsmonitor"
    hook.write_text(f"#!/bin/sh\ntouch '{marker}'\n")
    hook.chmod(0o755)
    subprocess.run(["git", "-C", str(git_repo), "config", "core.fsmonitor", str(hook)], check=True)
    git.run_git(git_repo, "status", "--porcelain")
    git.run_git(git_repo, "ls-files", "-m")
    assert not marker.exists()
    subprocess.run(["git", "-C", str(git_repo), "status", "--porcelain"], capture_output=True)
    assert marker.exists()  # plain git would have run it


def test_named_overrides_cover_the_repositorys_drivers_and_leave_the_users_alone():
    listing = [b"global", b"filter.lfs.clean", b"local", b"filter.Evil.clean", b"local", b"diff.d.textconv",
               b"worktree", b"pager.log", b"local", b"user.name", b"local", b"remote.origin.url", b""]
    found = dict(git.named_overrides(listing))
    assert found["filter.Evil.smudge"] == "" and found["filter.Evil.required"] == "false"
    assert found["diff.d.textconv"] == "" and found["pager.log"] == "false"
    assert found["remote.origin.uploadpack"] == "git-upload-pack"
    assert not any(key.startswith(("filter.lfs", "user.")) for key in found)


def test_flags_go_right_after_the_subcommand():
    assert git.with_flags(["--literal-pathspecs", "log", "-1"]) == [
        "--literal-pathspecs", "log", "--no-ext-diff", "--no-textconv", "--no-show-signature", "-1"]
    assert git.with_flags(["-c", "core.hooksPath=/dev/null", "worktree", "add"]) == ["-c", "core.hooksPath=/dev/null", "worktree", "add"]
    assert git.with_flags(["cat-file", "--batch"]) == ["cat-file", "--batch"]


def test_asked_reads_back_what_the_caller_asked(git_repo):
    for args in (["status", "--porcelain", "-z"], ["rev-parse", "HEAD"], ["--literal-pathspecs", "grep", "-e", "x"]):
        assert git.asked(git.command(git_repo, args)) == args


def test_a_grafts_file_linked_to_dev_zero_is_not_read_by_git(git_repo):
    """tests/hardening's grafts case failed in CI (1.4–2.3 GB, 5.2 s): a git process walking history
    read ``.git/info/grafts`` -> ``/dev/zero`` until the hook killed it. A regular grafts file is kept."""
    grafts = git_repo / ".git" / "info" / "grafts"
    grafts.parent.mkdir(parents=True, exist_ok=True)
    grafts.unlink(missing_ok=True)
    grafts.symlink_to("/dev/zero")
    assert git.run_git(git_repo, "rev-list", "--count", "HEAD", timeout=3).strip() == "1"
    assert git.bounded_history(git_repo) == {"GIT_GRAFT_FILE": os.devnull}
    grafts.unlink()
    grafts.write_text("")
    assert git.bounded_history(git_repo) is None
