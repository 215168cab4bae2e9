"""`cc-hooks hook` as Claude Code runs it: a real process, real temp repos, bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from cc_hooks import runtime


def make_repo(path: Path, commit: bool = True) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
    for key, value in (("user.name", "Test"), ("user.email", "test@example.com")):
        subprocess.run(["git", "-C", str(path), "config", key, value], check=True)
    if commit:
        (path / "README.md").write_text("demo\n")
        subprocess.run(["git", "-C", str(path), "add", "README.md"], check=True)
        subprocess.run(["git", "-C", str(path), "commit", "-q", "-m", "Initial commit"], check=True)
    return path


def run_hook(payload, cwd: Path, env: dict | None = None, raw: bytes | None = None) -> subprocess.CompletedProcess:
    data = raw if raw is not None else json.dumps(payload).encode()
    return subprocess.run(
        [sys.executable, "-m", "cc_hooks", "hook"],
        input=data,
        capture_output=True,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        timeout=60,
    )


def event(name: str, cwd: Path, **fields) -> dict:
    return {"hook_event_name": name, "session_id": "sess-1", "cwd": str(cwd), "transcript_path": str(cwd / "t.jsonl"), **fields}


@pytest.fixture
def repo(tmp_path):
    return make_repo(tmp_path / "repo")


def log_lines(repo: Path) -> list[dict]:
    path = repo / ".git" / "cc-hooks" / "hook.log"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


@pytest.mark.parametrize(
    "raw, reason",
    [
        (b"", "empty stdin"),
        (b"   \n", "empty stdin"),
        (b"{not json", "not valid JSON"),
        (b"[1, 2]", "expected an object"),
        (b"\xff\xfe garbage", "not valid JSON"),
        (b"[" * 100_000, "not valid JSON"),
    ],
)
def test_bad_stdin_exits_0_with_one_line_and_is_logged(repo, raw, reason):
    proc = run_hook(None, repo, raw=raw)
    assert proc.returncode == 0
    assert proc.stdout == b""
    err = proc.stderr.decode()
    assert err.count("\n") == 1 and reason in err and "Traceback" not in err
    assert reason in log_lines(repo)[-1]["message"]


def test_oversized_stdin_is_refused_without_reading_it_all(repo):
    proc = run_hook(None, repo, raw=b" " * (runtime.MAX_STDIN_BYTES + 10))
    assert proc.returncode == 0 and b"larger than" in proc.stderr


@pytest.mark.parametrize("name", ["Stop", "SessionEnd", "PreToolUse", "SomethingNew"])
def test_other_events_are_ignored_silently(repo, name):
    proc = run_hook(event(name, repo), repo)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"")


def test_session_start_reports_repo_branch_head_and_uninitialized_record(repo):
    proc = run_hook(event("SessionStart", repo, source="startup"), repo)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    context = out["hookSpecificOutput"]["additionalContext"]
    head = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    assert out["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert "`main`" in context and head[:12] in context
    assert "not initialized" in context and "SYMPTOMS.md" in context
    assert out["systemMessage"] == "cc-hooks: record not initialized"


def test_session_start_before_the_first_commit(tmp_path):
    repo = make_repo(tmp_path / "empty", commit=False)
    out = json.loads(run_hook(event("SessionStart", repo, source="startup"), repo).stdout)
    assert "no commits yet" in out["hookSpecificOutput"]["additionalContext"]


def test_session_start_source_not_configured_prints_nothing(repo):
    (repo / ".cc-hooks.toml").write_text('[hooks]\nreport_sources = ["compact"]\n')
    proc = run_hook(event("SessionStart", repo, source="startup"), repo)
    assert (proc.returncode, proc.stdout) == (0, b"")


def test_outside_a_repository_nothing_is_written(tmp_path):
    plain = tmp_path / "plain"
    plain.mkdir()
    for name, extra in (("SessionStart", {"source": "startup"}), ("PreCompact", {"trigger": "auto"})):
        proc = run_hook(event(name, plain, **extra), plain)
        assert (proc.returncode, proc.stdout) == (0, b"")
    assert list(plain.iterdir()) == []


def test_git_not_installed(repo, tmp_path):
    bin_dir = tmp_path / "bin-without-git"
    bin_dir.mkdir()
    proc = run_hook(event("SessionStart", repo, source="startup"), repo, env={"PATH": str(bin_dir)})
    assert proc.returncode == 0
    context = json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "git is not installed" in context


def test_hanging_git_is_cut_by_the_budget(repo, tmp_path):
    bin_dir = tmp_path / "slow-bin"
    bin_dir.mkdir()
    fake = bin_dir / "git"
    fake.write_text("#!/bin/sh\nsleep 30\n")
    fake.chmod(0o755)
    (repo / ".cc-hooks.toml").write_text("[hooks]\nsession_start_seconds = 1.0\n")
    started = time.monotonic()
    proc = run_hook(event("SessionStart", repo, source="startup"), repo, env={"PATH": f"{bin_dir}:{os.environ['PATH']}"})
    elapsed = time.monotonic() - started
    assert proc.returncode == 0 and elapsed < 6
    context = json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "time budget" in context or "took longer than" in context
    assert "VERIFIED (" not in context  # nothing is claimed verified


def test_a_handler_that_hangs_is_answered_by_its_timeout_fallback(tmp_path):
    class Hanging:
        @staticmethod
        def handle(ctx):
            time.sleep(30)

        @staticmethod
        def on_timeout(ctx):
            return runtime.HookResult(stdout="fallback")

    ctx = runtime.HookContext("SessionStart", {}, tmp_path, runtime.Deadline(0.2))
    started = time.monotonic()
    assert runtime._run_with_budget(Hanging, ctx).stdout == "fallback"
    assert time.monotonic() - started < 2


def test_an_exception_in_a_handler_fails_open(repo):
    (repo / ".cc-hooks.toml").write_text("this is [not toml")
    proc = run_hook(event("SessionStart", repo, source="startup"), repo)
    assert proc.returncode == 0
    context = json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "Configuration problem" in context and "not valid TOML" in context


def test_wrong_field_types_fail_open(repo):
    proc = run_hook({"hook_event_name": "SessionStart", "session_id": 42, "cwd": str(repo), "source": ["x"]}, repo)
    assert proc.returncode == 0 and proc.stdout == b""
    assert proc.stderr.decode().startswith("cc-hooks: SessionStart hook skipped: ValidationError")


def test_pre_compact_prints_instructions_and_writes_a_checkpoint(repo):
    proc = run_hook(event("PreCompact", repo, trigger="manual", custom_instructions=None, prompt_id="p-1"), repo)
    assert proc.returncode == 0
    text = proc.stdout.decode()
    assert text.startswith("cc-hooks") and "commit sha" in text
    assert "hookSpecificOutput" not in text and not text.lstrip().startswith("{")
    checkpoint = json.loads((repo / ".git" / "cc-hooks" / "checkpoints" / "sess-1" / "p-1.json").read_text())
    assert checkpoint["trigger"] == "manual" and len(checkpoint["head"]) == 40


def test_post_compact_capture_is_delivered_exactly_once(repo):
    proc = run_hook(event("PostCompact", repo, trigger="auto", compact_summary="<summary>did things</summary>"), repo)
    assert proc.returncode == 0 and b"captured the compaction summary" in proc.stdout
    captures = list((repo / ".git" / "cc-hooks" / "summaries" / "sess-1").glob("*.json"))
    assert len(captures) == 1 and json.loads(captures[0].read_text())["summary"] == "<summary>did things</summary>"
    first = run_hook(event("UserPromptSubmit", repo, prompt="go on"), repo)
    context = json.loads(first.stdout)["hookSpecificOutput"]
    assert context["hookEventName"] == "UserPromptSubmit" and "not verified" in context["additionalContext"]
    assert json.loads(first.stdout)["systemMessage"].startswith("cc-hooks: nothing in the compaction summary is contradicted")
    second = run_hook(event("UserPromptSubmit", repo, prompt="again"), repo)
    assert (second.returncode, second.stdout) == (0, b"")
    other_session = run_hook({**event("UserPromptSubmit", repo, prompt="x"), "session_id": "sess-2"}, repo)
    assert other_session.stdout == b""


def test_broken_state_dir_still_answers(repo):
    (repo / ".git" / "cc-hooks").write_text("not a directory")
    proc = run_hook(event("PreCompact", repo, trigger="auto", custom_instructions=None), repo)
    assert proc.returncode == 0 and proc.stdout.decode().startswith("cc-hooks")
    proc = run_hook(event("PostCompact", repo, trigger="auto", compact_summary="s"), repo)
    assert proc.returncode == 0


def test_linked_worktrees_share_one_state_dir(repo, tmp_path):
    linked = tmp_path / "linked"
    subprocess.run(["git", "-C", str(repo), "worktree", "add", "-q", str(linked), "-b", "side"], check=True)
    run_hook(event("PostCompact", linked, trigger="auto", compact_summary="s"), linked)
    assert [p.suffix for p in (repo / ".git" / "cc-hooks" / "pending" / "sess-1").iterdir()] == [".json"]


HOOK_IMPORTS = textwrap.dedent(
    """
    import io, json, sys
    from cc_hooks.runtime import run_hook
    payload = json.dumps({payload})
    run_hook(io.BytesIO(payload.encode()), io.StringIO(), io.StringIO())
    print(json.dumps(sorted(m for m in ("rich", "git", "pydantic") if m in sys.modules)))
    """
)


@pytest.mark.parametrize(
    "name, fields, allowed",
    [
        ("UserPromptSubmit", {"prompt": "x"}, []),
        ("SessionStart", {"source": "startup"}, ["pydantic"]),
        ("PreCompact", {"trigger": "auto"}, ["pydantic"]),
    ],
)
def test_hook_start_up_imports_stay_light(repo, name, fields, allowed):
    code = HOOK_IMPORTS.format(payload=repr(event(name, repo, **fields)))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=repo, check=True).stdout
    assert json.loads(out.splitlines()[-1]) == allowed


def test_the_hook_process_runs_without_the_cyclic_collector(repo):
    """The hook entry disables the collector; the runtime called as a library leaves the caller's alone."""
    code = textwrap.dedent("""
        import gc, sys
        from cc_hooks.cli import main
        code = main(["hook"])
        print(f"collector {gc.isenabled()}", file=sys.stderr)
        raise SystemExit(code)
    """)
    payload = {"hook_event_name": "SessionStart", "session_id": "gc", "cwd": str(repo), "source": "startup"}
    proc = subprocess.run([sys.executable, "-c", code], input=json.dumps(payload).encode(), capture_output=True, cwd=repo, timeout=60)
    assert proc.returncode == 0 and b"rehydration report" in proc.stdout
    assert proc.stderr.decode().strip().endswith("collector False")

    import gc
    import io

    assert gc.isenabled()
    runtime.run_hook(io.BytesIO(json.dumps(payload).encode()), io.StringIO(), io.StringIO())
    assert gc.isenabled()


@pytest.mark.parametrize("event, fields, code", [
    ("SessionStart", {"source": "startup"}, 0),
    ("PreCompact", {"trigger": "manual"}, 2),  # block-manual: the exit status survives the fast exit
])
def test_the_hook_process_ends_right_after_its_flushed_answer(repo, event, fields, code):
    """As a program, `cc-hooks hook` skips the interpreter's teardown (no atexit runs) once its whole
    answer is flushed; as a library call it returns."""
    if event == "PreCompact":
        (repo / ".cc-hooks.toml").write_text('[hooks]\nprecompact_policy = "block-manual"\n')
    program = textwrap.dedent("""
        import atexit, sys
        atexit.register(lambda: print("teardown ran", file=sys.stderr))
        sys.argv = ["cc-hooks", "hook"]
        from cc_hooks.cli import main
        raise SystemExit(main())
    """)
    payload = {"hook_event_name": event, "session_id": "exit", "cwd": str(repo), **fields}
    proc = subprocess.run([sys.executable, "-c", program], input=json.dumps(payload).encode(), capture_output=True, cwd=repo, timeout=60)
    assert proc.returncode == code and b"teardown ran" not in proc.stderr
    answer = proc.stdout if event == "SessionStart" else proc.stderr
    assert answer.strip() and (event != "SessionStart" or json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"])
    library = program.replace("raise SystemExit(main())", "raise SystemExit(main(['hook']))")
    payload["session_id"] = "exit-library"  # a second manual /compact of one session within 60 s is let through
    again = subprocess.run([sys.executable, "-c", library], input=json.dumps(payload).encode(), capture_output=True, cwd=repo, timeout=60)
    assert again.returncode == code and b"teardown ran" in again.stderr
