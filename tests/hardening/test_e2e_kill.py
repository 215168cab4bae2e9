"""The real CLI killed during a compaction: the summarizer's request hangs at the fake API, the
`claude` process group gets SIGKILL while it waits, then the session is resumed. The session
resumes, the state directory is consistent, and the next compaction goes through."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from tests.e2e.conftest import cc_hooks_exe, claude, claude_cli, fake_api  # noqa: F401 (fixtures)
from tests.e2e.harness import ClaudeRunner
from tests.e2e.test_foundation import assert_hooks_clean, install_cc_hooks

pytestmark = pytest.mark.e2e


def hang_summaries(fake) -> threading.Event:
    """Make every summary request wait until the returned event is set."""
    release = threading.Event()
    answer = fake.answer_messages

    def answer_messages(body, entry):
        turn, tokens = answer(body, entry)
        if entry.kind == "summary":
            release.wait(120)
        return turn, tokens

    fake.answer_messages = answer_messages
    return release


def state_is_consistent(state: Path) -> None:
    for path in state.rglob("*"):
        if path.is_file() and path.suffix == ".json":
            json.loads(path.read_text())
        assert not path.name.endswith(".tmp"), path


def test_kill_claude_during_a_compaction_then_resume(claude: ClaudeRunner, cc_hooks_exe: Path) -> None:  # noqa: F811
    install_cc_hooks(claude, cc_hooks_exe)
    fake = claude.fake
    fake.queue_text("first answer")
    fake.queue_text("second answer")
    sid = claude.session(["hello", "and more"])  # 2.1.197 will not compact a single exchange
    release = hang_summaries(fake)
    argv = [str(claude.cli), "-p", "--output-format", "json", "--resume", sid, "--", "/compact keep it"]
    proc = subprocess.Popen(argv, cwd=claude.cwd, env=claude.env(), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while not fake.summaries and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        assert fake.summaries, f"the compaction never asked for a summary (exit {proc.poll()})"
        os.killpg(proc.pid, signal.SIGKILL)  # mid-compaction: PreCompact ran, the summary is pending
        proc.communicate(timeout=30)
    finally:
        release.set()
    state = claude.cwd / ".git" / "cc-hooks"
    checkpoints = list((state / "checkpoints").rglob("*.json"))
    assert checkpoints, "PreCompact wrote no checkpoint before the kill"
    assert not any(json.loads(p.read_text()).get("compacted") for p in checkpoints)  # never confirmed
    assert not (state / "summaries").exists()  # PostCompact never ran
    state_is_consistent(state)

    fake.answer_messages = type(fake).answer_messages.__get__(fake)
    fake.queue_text("resumed fine")
    result = claude.run("are you there?", resume=sid)
    assert result.result_text == "resumed fine"
    claude.compact(sid, "keep it")  # the next compaction completes
    transcript = claude.transcript(sid)
    assert transcript.hook_outcomes("PreCompact")[-1:] == transcript.hook_outcomes("PostCompact")[-1:] == ["completed successfully"]
    assert_hooks_clean(transcript)
    assert len(transcript.boundaries()) == 1
    state_is_consistent(state)
    assert any(json.loads(p.read_text()).get("compacted") for p in (state / "checkpoints").rglob("*.json"))


def test_kill_an_archive_of_a_real_session_then_resume(claude: ClaudeRunner, cc_hooks_exe: Path) -> None:  # noqa: F811
    """`transcripts archive` killed in its write, then finished: the CLI resumes the session each time."""
    import hashlib
    import sys

    from .test_sigkill import kill_when_temp_appears

    install_cc_hooks(claude, cc_hooks_exe)
    fake = claude.fake
    for n in range(3):
        fake.queue_text(f"answer {n}")
    sid = claude.session(["one", "two", "three"])
    claude.compact(sid, "keep it")
    fake.queue_text("after compaction")
    claude.run("four", resume=sid)
    path = claude.transcript_path(sid)
    old = time.time() - 3600
    os.utime(path, (old, old))
    original = hashlib.sha256(path.read_bytes()).hexdigest()

    def archive(action: str) -> list[str]:
        return [sys.executable, "-m", "cc_hooks", "transcripts", action, str(path), "--execute", "--min-idle", "0",
                "--archive-dir", str(claude.home / "archive")]

    for _ in range(5):  # the live file's rewrite is brief: on a loaded machine the watcher can miss it
        caught = kill_when_temp_appears(archive("archive"), claude.cwd, path.parent)
        if caught and hashlib.sha256(path.read_bytes()).hexdigest() == original:
            break
        caught = False  # the rename landed before the kill did: the live file is the whole archived one, restored below
        undone = subprocess.run(archive("restore"), capture_output=True, text=True, timeout=120)
        assert undone.returncode == 0 and hashlib.sha256(path.read_bytes()).hexdigest() == original, undone.stdout + undone.stderr
        os.utime(path, (old, old))
    assert caught, "five archives finished before their write could be interrupted"
    assert hashlib.sha256(path.read_bytes()).hexdigest() == original  # killed mid-write: the live file is untouched
    fake.queue_text("resumed after the killed archive")
    assert claude.run("five", resume=sid).result_text == "resumed after the killed archive"
    os.utime(path, (old, old))
    done = subprocess.run(archive("archive"), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "archived" in done.stdout, done.stdout
    fake.queue_text("resumed after the archive")
    assert claude.run("six", resume=sid).result_text == "resumed after the archive"
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]
