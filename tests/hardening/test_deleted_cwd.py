"""A session still open in a removed worktree: every event exits 0 with one line on stderr, no
traceback (issue 16, item 9: ``os.getcwd()`` raised outside the fail-open guard)."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import EVENTS, Answer, assert_sane, git, make_repo
from .faults import FIELDS

ENTRY = Path(sys.executable).with_name("cc-hooks")
pytestmark = pytest.mark.skipif(not ENTRY.exists(), reason=f"the installed entry point {ENTRY} is absent")


@pytest.mark.parametrize("name", EVENTS)
def test_every_event_in_a_removed_worktree_exits_0_with_one_line(tmp_path, name):
    repo = make_repo(tmp_path / "repo")
    worktree = tmp_path / "linked"
    git(repo, "worktree", "add", "-q", str(worktree))
    payload = json.dumps({"hook_event_name": name, "session_id": "gone", "cwd": str(worktree),
                          "transcript_path": str(worktree / "t.jsonl"), **FIELDS[name]})
    # The shell stands in the worktree, the worktree is removed, then the hook starts there.
    script = f"cd {shlex.quote(str(worktree))} && rm -rf {shlex.quote(str(worktree))} && exec {shlex.quote(str(ENTRY))} hook"
    proc = subprocess.run(["sh", "-c", script], input=payload.encode(), capture_output=True, timeout=60)
    answer = Answer(name, proc.returncode, proc.stdout.decode(), proc.stderr.decode(), 0.0)
    assert_sane(answer)
    assert proc.returncode == 0 and answer.stderr.count("\n") == 1 and "no longer exists" in answer.stderr, answer
