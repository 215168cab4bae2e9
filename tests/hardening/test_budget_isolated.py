"""Issue 42, findings 3-4: the hook's answer at its deadline must not depend on Python getting the
interpreter's lock back. A handler stuck inside one regular expression (a C loop that never
releases the lock) is answered at the deadline by the installed entry point's parent process, its
child is killed with everything it started, and PostCompact's timeout answer still captures the
summary once."""

from __future__ import annotations

import json
import os
import subprocess
import time

import pytest

from checks.conftest import build_record_repo

DEFAULT_BUDGETS = {"PreCompact": 10.0, "SessionStart": 5.0, "PostCompact": 5.0}
SLACK = 0.5 + 0.5  # the documented grace, and the interpreter's start on a loaded machine

# Each handler, once it starts, enters a regular expression that backtracks for longer than any
# test runs and never releases the interpreter's lock; it writes its pid first.
GIL_BOUND = """
import os, re
from cc_hooks.events import {module}

def handle(ctx):
    with open({pids!r}, "a") as out:
        out.write(f"{{os.getpid()}}\\n")
    re.fullmatch(r"(a|aa)+$", "a" * 64 + "b")

{module}.handle = handle
"""
MODULES = {"PreCompact": "pre_compact", "SessionStart": "session_start", "PostCompact": "post_compact"}


@pytest.fixture
def repo(tmp_path):
    return build_record_repo(tmp_path)


def payload(name: str, root) -> bytes:
    extra = {"PreCompact": {"trigger": "auto"}, "SessionStart": {"source": "startup"},
             "PostCompact": {"trigger": "auto", "compact_summary": "The fix landed in `src/calc.py`."}}[name]
    return json.dumps({"hook_event_name": name, "session_id": "s-gil", "cwd": str(root), **extra}).encode()


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.parametrize("name", list(MODULES))
def test_a_handler_holding_the_interpreter_lock_is_answered_at_the_deadline(installed_cli, repo, tmp_path, name):
    site, pids = tmp_path / "site", tmp_path / "pids"
    site.mkdir()
    (site / "sitecustomize.py").write_text(GIL_BOUND.format(module=MODULES[name], pids=str(pids)))
    env = {**os.environ, "PYTHONPATH": str(site), "HOME": str(tmp_path / "home")}
    started = time.monotonic()
    proc = subprocess.run([str(installed_cli), "hook"], input=payload(name, repo.root), capture_output=True, cwd=repo.root,
                          env=env, timeout=DEFAULT_BUDGETS[name] + 10)
    seconds = time.monotonic() - started
    out, err = proc.stdout.decode(), proc.stderr.decode()
    assert proc.returncode == 0 and "Traceback" not in err, err
    assert seconds <= DEFAULT_BUDGETS[name] + SLACK, f"{name}: {seconds:.2f} s"
    assert pids.exists(), "the handler never ran"
    [child] = [int(line) for line in pids.read_text().split()]
    assert not alive(child), "the stuck handler's process outlived the hook"
    if name == "PreCompact":
        assert "did not finish in time" in out
    elif name == "SessionStart":
        assert "did not finish within its time budget" in out
    else:
        assert "captured the compaction summary" in out and "ran out of its budget" in out, out
        [capture] = list((repo.state / "summaries").rglob("*.json"))
        assert json.loads(capture.read_text())["summary"] == "The fix landed in `src/calc.py`."
