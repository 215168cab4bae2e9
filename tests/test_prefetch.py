"""cc_hooks.prefetch: a hook starts last run's git commands early, takes their answers, changes nothing else."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cc_hooks import git as gitmod
from cc_hooks import prefetch, runtime

FINISH = prefetch.finish


@pytest.fixture(autouse=True)
def own_key(tmp_path, monkeypatch):
    """A per-test user secret (the prefetch list is signed with it)."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))


def signed(data: dict) -> dict:
    """``data`` as this code would have saved it (a valid HMAC under this user's key)."""
    body = {"root": data["root"], "commands": data["commands"]}
    return {**body, "mac": prefetch._mac(prefetch.user_key(create=True), body)}


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


@pytest.fixture
def record(git_repo: Path) -> Path:
    proc = subprocess.run([sys.executable, "-m", "cc_hooks", "init", "--project", str(git_repo)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    (git_repo / "next_steps.md").write_text((git_repo / "next_steps.md").read_text().replace(
        "## QUEUED", f"- Landed in `{git(git_repo, 'rev-parse', '--short', 'HEAD').strip()}`.\n- Branch `nope` exists.\n\n## QUEUED"))
    git(git_repo, "add", "-A")
    git(git_repo, "commit", "-q", "-m", "Start the record")
    return git_repo


def run(repo: Path, monkeypatch, event: str = "SessionStart", **fields) -> tuple[str, dict]:
    """One hook run in this process: (stdout, the prefetch's counts)."""
    counts = {}
    monkeypatch.setattr(prefetch, "finish", lambda: counts.update(FINISH() or {}))
    out = io.StringIO()
    payload = {"hook_event_name": event, "session_id": "s1", "cwd": str(repo), "source": "startup", **fields}
    assert runtime.run_hook(io.BytesIO(json.dumps(payload).encode()), out, io.StringIO()) == 0
    return out.getvalue(), counts


def learned(repo: Path, event: str = "SessionStart") -> dict:
    return json.loads((repo / ".git" / "cc-hooks" / prefetch.FILE.format(event=event)).read_text())


def test_the_second_run_takes_every_git_answer_from_its_prefetch_and_says_the_same(record, monkeypatch):
    first, counts = run(record, monkeypatch)
    assert counts == {"started": 0, "hits": 0, "unused": 0}
    commands = learned(record)["commands"]
    assert learned(record)["root"] == str(record) and len(commands) >= 3
    assert all(prefetch.reads_only(c["args"]) for c in commands)
    second, counts = run(record, monkeypatch)
    assert counts == {"started": len(commands), "hits": len(commands), "unused": 0}
    assert second == first and "CONTRADICTED" in json.loads(second)["hookSpecificOutput"]["additionalContext"]


def test_a_changed_repository_is_seen_by_the_prefetched_commands(record, monkeypatch):
    run(record, monkeypatch)
    before, _ = run(record, monkeypatch)
    git(record, "branch", "nope")  # the branch the dashboard says exists now does
    after, counts = run(record, monkeypatch)
    context = {name: json.loads(text)["hookSpecificOutput"]["additionalContext"] for name, text in (("before", before), ("after", after))}
    assert counts["hits"] >= 1 and "named nope" in context["before"] and "nope" not in context["after"]


def test_a_command_nobody_asks_for_again_is_killed_and_forgotten(record, monkeypatch):
    run(record, monkeypatch)
    store = record / ".git" / "cc-hooks" / prefetch.FILE.format(event="SessionStart")
    data = learned(record)
    data["commands"].append({"args": ["log", "--format=%H", "HEAD"], "stdin": None})
    store.write_text(json.dumps(signed(data)))
    _, counts = run(record, monkeypatch)
    assert counts["unused"] == 1 and counts["hits"] == counts["started"] - 1
    assert ["log", "--format=%H", "HEAD"] not in [c["args"] for c in learned(record)["commands"]]


@pytest.mark.parametrize("args", [
    ["config", "user.name", "Mallory"],
    ["-c", "core.pager=touch pwned", "log"],
    ["log", "--output=pwned"],
    ["grep", "-Otouch pwned", "x"],
    ["diff", "--ext-diff"],
    [],
])
def test_a_learned_list_starts_only_read_only_commands(record, monkeypatch, args):
    """Even a list signed with the user's key (a bug of ours, not a planted file) starts only reads."""
    store = record / ".git" / "cc-hooks" / prefetch.FILE.format(event="SessionStart")
    store.parent.mkdir(exist_ok=True)
    store.write_text(json.dumps(signed({"root": str(record), "commands": [{"args": args, "stdin": None}]})))
    _, counts = run(record, monkeypatch)
    assert counts["started"] == 0
    assert git(record, "config", "user.name").strip() == "Test User"
    assert not (record / "pwned").exists()


@pytest.mark.parametrize("content", ["{not json", '{"root": 1}', '[1]', '{"root": "%s", "commands": [{"args": "log"}, 7]}'])
def test_a_corrupt_learned_list_only_costs_the_speed_up(record, monkeypatch, content):
    expected, _ = run(record, monkeypatch)
    store = record / ".git" / "cc-hooks" / prefetch.FILE.format(event="SessionStart")
    store.write_text(content.replace("%s", str(record)))
    again, counts = run(record, monkeypatch)
    assert again == expected and counts["started"] == 0
    assert learned(record)["commands"]  # and the next run has a good list again


def test_another_work_tree_of_the_repository_does_not_use_this_ones_list(record, monkeypatch, tmp_path):
    run(record, monkeypatch)
    other = tmp_path / "linked"
    git(record, "worktree", "add", "-q", str(other))
    _, counts = run(other, monkeypatch)
    assert counts["started"] == 0
    assert learned(record)["root"] == str(other)  # the list now belongs to the work tree that ran last


def test_the_prompt_hook_never_prefetches(record, monkeypatch):
    run(record, monkeypatch)
    _, counts = run(record, monkeypatch, event="UserPromptSubmit", prompt="hi")
    assert counts == {}
    assert not (record / ".git" / "cc-hooks" / prefetch.FILE.format(event="UserPromptSubmit")).exists()


def test_a_prefetched_answer_reads_exactly_like_a_run_git_answer(git_repo):
    (git_repo / "odd.txt").write_bytes(b"caf\xe9 crlf\r\nbare cr\rend\n")
    git(git_repo, "add", "odd.txt")
    args = ("grep", "-n", "-I", "-e", "c", "--", "odd.txt")
    direct = gitmod.run_git(git_repo, *args)
    prefetch._session = prefetch._Session("SessionStart", str(git_repo), str(git_repo / "unused.json"), [])
    gitmod.set_early_answers(prefetch.answer)
    try:
        running = prefetch._Running(gitmod.command(git_repo, args), None, gitmod.environment())
        prefetch._session.running[(str(git_repo), args, None)] = running
        prefetch._session.started.append(running)
        assert gitmod.run_git(git_repo, *args) == direct
        assert prefetch._session.hits == 1 and "\ufffd" in direct and "\r" not in direct
    finally:
        prefetch.finish()


def test_a_prefetched_command_that_hangs_times_out_and_is_killed(git_repo):
    running = prefetch._Running([sys.executable, "-c", "import time; time.sleep(30)"], None, dict(os.environ))
    assert prefetch.wait(running, 0.2) is None
    assert running.proc.wait(5) is not None  # killed, not left running


def test_git_never_reads_the_hooks_stdin(git_repo):
    """A git command given no input gets an empty stdin, never the caller's (a terminal or an open pipe)."""
    code = f"from cc_hooks.git import run_git; print(run_git({str(git_repo)!r}, 'hash-object', '--stdin').strip())"
    proc = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        out, _ = proc.communicate(timeout=20)  # stdin stays open: a git reading it would wait forever
    finally:
        proc.kill()
    assert out.strip() == "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"  # the empty blob


def test_the_runtime_and_the_module_agree_on_the_events():
    assert runtime.PREFETCH_EVENTS == prefetch.EVENTS


def test_a_stdin_larger_than_the_pipe_is_written_when_the_answer_is_wanted(git_repo):
    """The early write takes what the pipe holds without blocking; the rest goes at wait()."""
    names = b"HEAD:README.md\n" * 40_000  # ~600 KB
    running = prefetch._Running(["git", "-C", str(git_repo), "cat-file", "--batch-check=%(objecttype)"], names,
                                {**os.environ, **gitmod.GIT_ENV})
    assert running.rest  # more than a pipe holds
    answer = prefetch.wait(running, 30)
    assert answer.returncode == 0 and answer.stdout == b"blob\n" * 40_000


def test_a_command_whose_answer_is_remembered_is_neither_learned_nor_answered_early(git_repo):
    """``run_git(..., prefetch=False)``: the memo keeps its answer, so the next run would start it for nothing."""
    (git_repo / ".git" / "cc-hooks").mkdir(exist_ok=True)
    head = git(git_repo, "rev-parse", "HEAD").strip()
    prefetch.start("SessionStart", str(git_repo))
    try:
        gitmod.run_git(git_repo, "merge-base", "--is-ancestor", head, head, prefetch=False)
        gitmod.run_git(git_repo, "rev-parse", "HEAD")
        journal = [entry["args"] for entry in prefetch._session.journal]
    finally:
        prefetch.finish()
    assert journal == [["rev-parse", "HEAD"]]
    assert [c["args"] for c in learned(git_repo)["commands"]] == [["rev-parse", "HEAD"]]
