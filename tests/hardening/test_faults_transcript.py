"""The transcript deleted, rotated or truncated while the hooks read it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading

import pytest

from .conftest import BUDGET, assert_sane, hook_process
from .faults import STARTUP, payload


# --- the transcript changes under the reader ----------------------------------------------------


def _transcript_lines(n: int) -> bytes:
    lines = []
    for i in range(n):
        lines.append(json.dumps({"type": "user", "uuid": f"u{i}", "parentUuid": f"u{i-1}" if i else None,
                                 "message": {"role": "user", "content": f"prompt {i} " + "x" * 200}}))
    return ("\n".join(lines) + "\n").encode()


@pytest.mark.parametrize("mode", ["delete", "rotate"])  # truncation: the deterministic test below
def test_transcript_changing_mid_read_the_hooks_still_answer(repo, tmp_path, mode):
    """A writer deletes, rotates (rename + new file) or truncates the transcript while hooks
    read it. The hooks run as processes: a SIGBUS from a truncated mapping would kill one."""
    transcript = repo / "t.jsonl"
    content = _transcript_lines(4000)
    transcript.write_bytes(content)
    stop = threading.Event()

    def churn():
        while not stop.is_set():
            try:
                if mode == "delete":
                    transcript.unlink(missing_ok=True)
                    transcript.write_bytes(content)
                else:
                    os.replace(transcript, tmp_path / "t.jsonl.1")
                    transcript.write_bytes(content)
            except OSError:
                pass

    worker = threading.Thread(target=churn, daemon=True)
    worker.start()
    try:
        for name in ("PreCompact", "SessionStart", "PreCompact", "SessionStart"):
            answer = hook_process(payload(name, repo), repo)
            assert_sane(answer, BUDGET[name] + STARTUP)
            if name in ("PreCompact", "SessionStart"):
                assert answer.stdout.strip(), answer
    finally:
        stop.set()
        worker.join()


def test_transcript_reader_survives_truncation_after_open(tmp_path):
    """read_live maps the file; truncating it under the mapping must not crash the process."""
    transcript = tmp_path / "t.jsonl"
    transcript.write_bytes(_transcript_lines(20_000))
    code = (
        "import os, sys, threading\n"
        "from cc_hooks.transcript import reader\n"
        "path = sys.argv[1]\n"
        "real_map = reader._map\n"
        "def racing_map(handle, size):\n"
        "    mapped = real_map(handle, size)\n"
        "    os.truncate(path, 10)\n"  # another process truncates right after the map
        "    return mapped\n"
        "reader._map = racing_map\n"
        "live = reader.read_live(path)\n"
        "print('ok', len(live.messages))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code, str(transcript)], capture_output=True, text=True, timeout=60)
    assert proc.returncode in (0, 1) and proc.returncode != -signal.SIGBUS, (proc.returncode, proc.stderr[-500:])


@pytest.mark.parametrize("name", ["PreCompact", "SessionStart"])
def test_a_transcript_path_that_blocks_on_open_is_cut_by_the_budget(repo, tmp_path, name):
    """A FIFO with no writer blocks open() forever: the budget still holds and the hook answers."""
    fifo = tmp_path / "t.jsonl"
    os.mkfifo(fifo)
    (repo / ".cc-hooks.toml").write_text("[hooks]\npre_compact_seconds = 2.0\nsession_start_seconds = 2.0\n")
    answer = hook_process(payload(name, repo, transcript_path=str(fifo)), repo)
    assert_sane(answer, 2.0 + 0.5 + STARTUP)
    assert answer.stdout.strip(), answer
