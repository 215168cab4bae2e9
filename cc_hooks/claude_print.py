"""The user's own ``claude -p``, run for one answer: found, run with a timeout, its JSON envelope checked.

Shared by the audit's agent half (``cc_hooks.audit.agent``) and triage's (``cc_hooks.record.triage_agent``):
the CLI is the caller's (``--claude`` or ``claude`` on PATH), run in its own process group so that a
timeout or Ctrl-C takes its tools with it. What the model says is checked by the caller; this module only
says whether the CLI answered (``ClaudeError`` with the reason when it did not).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
from pathlib import Path
from typing import Optional


NO_HOOKS = json.dumps({"disableAllHooks": True})  # --settings: the user's hooks (cc-hooks among them) do not run in it


class ClaudeError(Exception):
    """The CLI could not run, or its output is not an answer; the message says why."""


def find_claude(explicit: Optional[str] = None) -> Path:
    """The Claude Code CLI: ``explicit`` (``--claude``), else ``claude`` on PATH."""
    if explicit:
        path = Path(explicit).expanduser()
        if not (path.is_file() and os.access(path, os.X_OK)):
            raise ClaudeError(f"--claude {explicit}: not an executable file")
        return path
    found = shutil.which("claude")
    if found is None:
        raise ClaudeError("the Claude Code CLI (`claude`) is not on PATH; install it or pass --claude PATH")
    return Path(found)


def execute(argv: list[str], cwd: Path, env: dict, timeout: float) -> tuple[str, str, int]:
    """stdout, stderr and exit status of ``argv``; its whole process group is killed after ``timeout``."""
    try:
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, encoding="utf-8", errors="replace",
                                start_new_session=True)
    except OSError as exc:
        raise ClaudeError(f"cannot run {argv[0]}: {exc}") from exc
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill(proc)
        raise ClaudeError(f"claude did not answer within {timeout:g}s (--timeout)") from None
    except BaseException:  # Ctrl-C, SIGTERM: the agent and its tools go too
        _kill(proc)
        raise
    return stdout, stderr, proc.returncode


def _kill(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        pass
    try:
        proc.communicate(timeout=10)
    except (subprocess.TimeoutExpired, ValueError, OSError):
        pass


def result_text(stdout: str, stderr: str, code: int) -> str:
    """The model's final text from ``claude -p --output-format json`` output."""
    output = None
    for line in reversed(stdout.strip().splitlines()):
        try:
            candidate = json.loads(line)
        except ValueError:
            continue
        if isinstance(candidate, dict):
            output = candidate
            break
    if code != 0 and output is None:
        last = (stderr.strip().splitlines() or stdout.strip().splitlines() or [""])[-1]
        raise ClaudeError(f"claude exited {code}: {last[:300]}")
    if output is None:
        raise ClaudeError("claude printed no JSON result (expected --output-format json)")
    if output.get("is_error") or output.get("subtype") not in (None, "success"):
        raise ClaudeError(f"claude reported an error: {str(output.get('result') or output.get('subtype'))[:300]}")
    return str(output.get("result", ""))
