"""Shared helpers of the hardening tests: real repos, the hook run in-process and as a
process, and the invariants every hook answer must hold."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Optional

import pytest
from hypothesis import HealthCheck, settings

from cc_hooks import runtime

# CI runs a bounded number of examples; a longer local run: CC_HOOKS_FUZZ_EXAMPLES=5000 pytest tests/hardening
FUZZ_EXAMPLES = int(os.environ.get("CC_HOOKS_FUZZ_EXAMPLES", "0") or 0)


def fuzz(examples: int):
    """Hypothesis settings: ``examples`` in CI, CC_HOOKS_FUZZ_EXAMPLES when set."""
    return settings(
        max_examples=FUZZ_EXAMPLES or examples,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=not FUZZ_EXAMPLES,  # CI is reproducible; a long local run explores
        database=None,
    )


EVENTS = ("PreCompact", "PostCompact", "SessionStart", "UserPromptSubmit")
# Control characters that must never reach Claude or a terminal (newline and tab are layout).
CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


def make_repo(path: Path, commit: bool = True) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q", "-b", "main")
    git(path, "config", "user.name", "Test")
    git(path, "config", "user.email", "test@example.com")
    git(path, "config", "commit.gpgsign", "false")
    if commit:
        (path / "README.md").write_text("demo\n")
        git(path, "add", "README.md")
        git(path, "commit", "-q", "-m", "Initial commit")
    return path


def event(name: str, cwd: Path, **fields) -> dict:
    return {"hook_event_name": name, "session_id": "sess-1", "cwd": str(cwd), **fields}


class Answer:
    def __init__(self, event: Optional[str], code: int, stdout: str, stderr: str, elapsed: float):
        self.event, self.code, self.stdout, self.stderr, self.elapsed = event, code, stdout, stderr, elapsed

    def __repr__(self) -> str:
        return f"Answer({self.event}, {self.code}, out={self.stdout[:300]!r}, err={self.stderr[:300]!r}, {self.elapsed:.2f}s)"

    def context(self) -> Optional[str]:
        if not self.stdout.strip():
            return None
        return json.loads(self.stdout)["hookSpecificOutput"]["additionalContext"]


def event_of(raw: bytes) -> Optional[str]:
    """The event Claude Code would have meant, as the hook reads it (None: not one of ours)."""
    try:
        data = json.loads(raw.decode("utf-8", errors="replace"))
    except (ValueError, RecursionError):
        return None
    name = data.get("hook_event_name") if isinstance(data, dict) else None
    return name if isinstance(name, str) and name in EVENTS else None


def hook_in_process(raw: bytes) -> Answer:
    out, err = io.StringIO(), io.StringIO()
    started = time.monotonic()
    code = runtime.run_hook(io.BytesIO(raw), out, err)
    return Answer(event_of(raw), code, out.getvalue(), err.getvalue(), time.monotonic() - started)


def hook_process(raw: bytes, cwd: Path, env: Optional[dict] = None, timeout: float = 60) -> Answer:
    started = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "cc_hooks", "hook"], input=raw, capture_output=True, cwd=cwd,
        env={**os.environ, **(env or {})}, timeout=timeout,
    )
    elapsed = time.monotonic() - started
    return Answer(event_of(raw), proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace"), elapsed)


def assert_sane(answer: Answer, budget: Optional[float] = None) -> None:
    """What every hook answer must be, whatever the input: fail open, well-formed, in time."""
    event = answer.event
    assert answer.code == 0 or (answer.code == 2 and event == "PreCompact"), answer
    assert "Traceback" not in answer.stdout and "Traceback" not in answer.stderr, answer
    if answer.code == 0:
        assert answer.stderr.count("\n") <= 1, answer  # at most one line on stderr
    if event in ("SessionStart", "UserPromptSubmit"):
        if answer.stdout.strip():
            data = json.loads(answer.stdout)
            assert set(data) <= {"hookSpecificOutput", "systemMessage"}, answer
            specific = data["hookSpecificOutput"]
            assert specific["hookEventName"] == event, answer
            assert isinstance(specific["additionalContext"], str) and len(specific["additionalContext"]) <= 10_000
            for text in (specific["additionalContext"], data.get("systemMessage") or ""):
                assert not CONTROL_RE.search(text), answer
    elif event in ("PreCompact", "PostCompact"):
        assert not answer.stdout.lstrip().startswith("{"), answer
        assert len(answer.stdout) <= 10_000
        assert not CONTROL_RE.search(answer.stdout), answer
    else:
        assert answer.stdout == "", answer
    assert not CONTROL_RE.search(answer.stderr), answer
    if budget is not None and event is not None:
        assert answer.elapsed < budget, answer


# Budgets: the default per-event budget and the runtime's grace (0.5 s), nothing more: the budget is a
# promise (issue 16, item 14), and a hook process counts its own start-up against it.
BUDGET = {name: seconds + runtime.GRACE_SECONDS for name, seconds in runtime.DEFAULT_SECONDS.items()}


@pytest.fixture(scope="module")
def module_repo(tmp_path_factory) -> Path:
    return make_repo(tmp_path_factory.mktemp("hardening") / "repo")


@pytest.fixture
def repo(tmp_path) -> Path:
    return make_repo(tmp_path / "repo")


@pytest.fixture(scope="module")
def in_repo(module_repo):
    """Run in-process hooks with the cwd inside a throwaway repo (a payload without a usable
    ``cwd`` falls back to the process cwd: never let that be the checkout)."""
    before = os.getcwd()
    os.chdir(module_repo)
    try:
        yield module_repo
    finally:
        os.chdir(before)
