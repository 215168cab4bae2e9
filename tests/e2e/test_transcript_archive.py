"""Resume equivalence: archiving a transcript must not change what a resume sends to the model.

A scripted session with tool use and two compactions; the request of
``claude -p --resume <sid> "next"`` is recorded on the original transcript, on the archived one
(``cc-hooks transcripts archive --execute``) and on the restored one, each time starting from the
same transcript state. The ``system`` blocks and ``messages`` must be identical.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from .fakeapi import bash, read, write
from .harness import ClaudeRunner

pytestmark = pytest.mark.e2e

PROMPT = "next"


def build_session(claude: ClaudeRunner) -> str:
    tools = ["Bash", "Write", "Edit", "Read"]
    claude.fake.queue(write("notes.txt", "first note\n"), bash("git add notes.txt && git commit -qm 'Add notes'"))
    claude.fake.queue_text("Added and committed notes.txt.")
    sid = claude.session(["write a note and commit it"], allowed_tools=tools)
    claude.fake.queue_text("We keep notes in plain text.")
    claude.run("remember: notes stay plain text", resume=sid)
    claude.fake.summary_text = "<summary>first summary: notes.txt committed</summary>"
    claude.compact(sid, "keep the decisions")
    claude.fake.queue(read("notes.txt"), bash("echo second >> notes.txt && git commit -qam 'More notes'"))
    claude.fake.queue_text("Appended a second note.")
    claude.run("append a second note", resume=sid, allowed_tools=tools)
    claude.fake.queue_text("Done with the second note.")
    claude.run("thanks", resume=sid)
    claude.fake.summary_text = "<summary>second summary: two notes committed</summary>"
    claude.compact(sid, "keep the decisions again")
    claude.fake.queue_text("Ready.")
    claude.run("status?", resume=sid)
    assert len(claude.transcript(sid).boundaries()) == 2
    return sid


def resume_request(claude: ClaudeRunner, sid: str) -> dict:
    """The body of the model request made by ``--resume <sid> next``."""
    claude.fake.clear_log()
    claude.fake.queue_text("Next: nothing pending.")
    claude.run(PROMPT, resume=sid)
    turns = [r for r in claude.fake.turns if PROMPT in r.last_user_text]
    assert turns, "no model request carried the resume prompt"
    return turns[-1].body


def comparable(body: dict) -> dict:
    """``system``, ``messages`` and the tool count of a request, compared as sent: nothing is normalized
    (no field differed between the runs on 2.1.197 or 2.1.332, so none needs justifying)."""
    return {"system": body.get("system"), "messages": body.get("messages"), "tools": len(body.get("tools") or [])}


def put_back(path: Path, data: bytes) -> None:
    """Reset the transcript to ``data`` and make it look idle (old mtime) for the liveness check."""
    path.write_bytes(data)
    old = time.time() - 3600
    os.utime(path, (old, old))


def cc_hooks(claude: ClaudeRunner, archive_dir: Path, *args: str) -> subprocess.CompletedProcess:
    exe = Path(os.environ.get("VIRTUAL_ENV", "")) / "bin" / "cc-hooks"
    exe = exe if exe.exists() else Path(__import__("sys").executable).parent / "cc-hooks"
    env = {**os.environ, "HOME": str(claude.home), "CC_HOOKS_ARCHIVE_DIR": str(archive_dir)}
    env.pop("CLAUDE_CONFIG_DIR", None)
    return subprocess.run([str(exe), "transcripts", *args], capture_output=True, text=True, env=env, timeout=120)


def test_resume_sends_the_same_request_after_archive_and_after_restore(claude: ClaudeRunner, tmp_path: Path) -> None:
    sid = build_session(claude)
    path = claude.transcript_path(sid)
    original = path.read_bytes()

    before = resume_request(claude, sid)
    sent = str(before.get("messages"))
    assert "second summary" in sent and "first summary" not in sent  # the live part after compaction 2

    put_back(path, original)
    archive_dir = tmp_path / "archive"
    done = cc_hooks(claude, archive_dir, "archive", str(path), "--execute", "--min-idle", "0")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "archived" in done.stdout, done.stdout
    cut = path.read_bytes()
    assert len(cut) < len(original), "archiving moved nothing out: the test would prove nothing"
    # The first compaction's summary message went to the archive, and so did CLI 2.1.332's request
    # log before the last boundary (`api-request*`), and all but the newest of each "latest wins" line.
    kept_chain = [json.loads(line) for line in cut.splitlines() if line.strip()]
    assert not any(r.get("type") == "user" and "first summary" in json.dumps(r) for r in kept_chain)
    last = max(i for i, r in enumerate(kept_chain) if r.get("subtype") == "compact_boundary")
    kinds_before = [r.get("type") for r in kept_chain[:last]]
    assert not set(kinds_before) & {"api-request", "api-request-blob", "api-request-shape"}, kinds_before
    for kind in ("cost-state", "atis-latch", "tools-used", "mode", "permission-mode"):
        assert kinds_before.count(kind) <= 1, kind
    print(f"cli {claude.version}: {len(original)} -> {len(cut)} bytes ({1 - len(cut) / len(original):.0%} moved out)")

    after_archive = resume_request(claude, sid)
    assert comparable(after_archive) == comparable(before)

    put_back(path, cut)  # the state right after the archive, so restore sees exactly the cut
    restored = cc_hooks(claude, archive_dir, "restore", str(path), "--execute", "--min-idle", "0")
    assert restored.returncode == 0, restored.stdout + restored.stderr
    assert hashlib.sha256(path.read_bytes()).hexdigest() == hashlib.sha256(original).hexdigest()

    after_restore = resume_request(claude, sid)
    assert comparable(after_restore) == comparable(before)
