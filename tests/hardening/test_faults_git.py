"""git missing from PATH, or a git that hangs: the budget holds, nothing is claimed verified,
no git outlives the hook."""

from __future__ import annotations

import os
import signal
import time

import pytest

from .conftest import BUDGET, EVENTS, assert_sane, hook_process
from .faults import STARTUP, payload


# --- git missing, git hanging ------------------------------------------------------------------


@pytest.mark.parametrize("name", EVENTS)
def test_git_missing_from_path(repo, tmp_path, name):
    empty_bin = tmp_path / "no-git"
    empty_bin.mkdir()
    answer = hook_process(payload(name, repo), repo, env={"PATH": str(empty_bin)})
    assert_sane(answer, BUDGET[name] + STARTUP)
    if name == "SessionStart":
        assert "git is not installed" in answer.context()
        assert "VERIFIED (" not in answer.context()
    if name == "PreCompact":
        assert "could not be checked" in answer.stdout or "Not checked" in answer.stdout


@pytest.fixture
def hanging_git(tmp_path):
    """A ``git`` first on PATH that records its pid and sleeps."""
    bin_dir = tmp_path / "hang-bin"
    bin_dir.mkdir()
    pids = tmp_path / "git-pids"
    fake = bin_dir / "git"
    fake.write_text(f"#!/bin/sh\necho $$ >> '{pids}'\nexec sleep 60\n")
    fake.chmod(0o755)
    yield {"PATH": f"{bin_dir}:{os.environ['PATH']}"}, pids
    for line in (pids.read_text().split() if pids.exists() else []):
        try:
            os.kill(int(line), signal.SIGKILL)
        except (ProcessLookupError, ValueError):
            pass


@pytest.mark.parametrize("name", ["PreCompact", "PostCompact", "SessionStart"])
def test_hanging_git_the_budget_holds_and_nothing_is_verified(repo, hanging_git, name):
    env, _ = hanging_git
    (repo / ".cc-hooks.toml").write_text(
        "[hooks]\npre_compact_seconds = 2.0\nsession_start_seconds = 1.0\npost_compact_seconds = 1.0\n"
    )
    answer = hook_process(payload(name, repo), repo, env=env)
    assert_sane(answer, 2.0 + 0.5 + STARTUP)
    if name == "SessionStart":
        context = answer.context()
        assert "VERIFIED (" not in context and ("time budget" in context or "took longer" in context), context
    elif name == "PreCompact":
        assert "PASS" not in answer.stdout.split(";")[0] or "could not be checked" in answer.stdout or "did not finish" in answer.stdout
    else:
        assert "verified" not in answer.stdout.replace("unverified", "") or "0 claim(s) verified" in answer.stdout


@pytest.mark.parametrize("name", ["PreCompact", "PostCompact", "SessionStart"])
def test_hanging_git_leaves_no_git_running_after_the_hook(repo, hanging_git, name):
    """A hook that gave up on git must not leave it behind (a real git stuck on a lock or a
    network file system would pile up, one per prompt)."""
    env, pids = hanging_git
    (repo / ".cc-hooks.toml").write_text(
        "[hooks]\npre_compact_seconds = 1.0\nsession_start_seconds = 1.0\npost_compact_seconds = 1.0\n"
    )
    hook_process(payload(name, repo), repo, env=env)
    time.sleep(0.3)
    alive = []
    for line in (pids.read_text().split() if pids.exists() else []):
        try:
            os.kill(int(line), 0)
            alive.append(line)
        except ProcessLookupError:
            pass
    assert not alive, f"git processes still running after the hook exited: {alive}"




def test_only_the_abandoned_handler_thread_is_refused_git(repo):
    """The refusal is scoped to the thread the runtime gave up on: the rest of the process (a
    CLI command in the same interpreter, the next in-process hook) still runs git."""
    from cc_hooks import runtime
    from cc_hooks.git import GitTimeout, run_git

    seen = {}

    class LateGit:
        @staticmethod
        def handle(ctx):
            time.sleep(0.8)
            try:
                run_git(repo, "rev-parse", "HEAD")
                seen["late"] = "ran"
            except GitTimeout as exc:
                seen["late"] = str(exc)

        @staticmethod
        def on_timeout(ctx):
            return None

    ctx = runtime.HookContext("SessionStart", {}, repo, runtime.Deadline(0.1))
    runtime._run_with_budget(LateGit, ctx)
    assert run_git(repo, "rev-parse", "HEAD").strip()  # this thread is not refused
    deadline = time.monotonic() + 5
    while "late" not in seen and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "budget ran out" in seen["late"]
    while runtime._ABANDONED and time.monotonic() < deadline:  # its `finally` runs just after
        time.sleep(0.01)
    assert not runtime._ABANDONED  # the thread removed itself when it ended
