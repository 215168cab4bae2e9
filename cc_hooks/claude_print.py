"""The user's own ``claude -p``, run for one answer: found, run with a timeout, its JSON envelope checked.

Shared by the audit's agent half (``cc_hooks.audit.agent``) and triage's (``cc_hooks.record.triage_agent``):
the CLI is the caller's (``--claude`` or ``claude`` on PATH), run in its own process group so that a
timeout or Ctrl-C takes its tools with it. What the model says is checked by the caller; this module only
says whether the CLI answered, and reads the JSON block an answer ends with (``AgentError`` with the reason
when it cannot).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
from pathlib import Path
from typing import Any, Optional


# --settings for every agent cc-hooks starts: no hook runs in it (cc-hooks among them), and the CLI takes
# no `git status` of its own for the system prompt (2.1.197's ran the fsmonitor a repository configured).
NO_HOOKS = json.dumps({"disableAllHooks": True, "includeGitInstructions": False})
# With `--setting-sources ""`: no settings file is read, so neither a repository's (an apiKeyHelper
# runs under -p, which skips the trust dialog) nor a user's broad allow rule applies.
NO_SETTING_FILES = ("--setting-sources", "")


_JSON_BLOCK_RE = re.compile(r"```(?:json)?[ \t]*\n(.*?)\n?```", re.DOTALL | re.IGNORECASE)


class AgentError(Exception):
    """The agent could not run, or its answer is malformed; the message says why."""


def find_claude(explicit: Optional[str] = None) -> Path:
    """The Claude Code CLI: ``explicit`` (``--claude``), else ``claude`` on PATH."""
    if explicit:
        path = Path(explicit).expanduser()
        if not (path.is_file() and os.access(path, os.X_OK)):
            raise AgentError(f"--claude {explicit}: not an executable file")
        return path
    found = shutil.which("claude")
    if found is None:
        raise AgentError("the Claude Code CLI (`claude`) is not on PATH; install it or pass --claude PATH")
    return Path(found)


def execute(argv: list[str], cwd: Path, env: dict, timeout: float) -> tuple[str, str, int]:
    """stdout, stderr and exit status of ``argv``; its whole process group is killed after ``timeout``."""
    try:
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, encoding="utf-8", errors="replace",
                                start_new_session=True)
    except OSError as exc:
        raise AgentError(f"cannot run {argv[0]}: {exc}") from exc
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill(proc)
        raise AgentError(f"claude did not answer within {timeout:g}s (--timeout)") from None
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
        raise AgentError(f"claude exited {code}: {last[:300]}")
    if output is None:
        raise AgentError("claude printed no JSON result (expected --output-format json)")
    if output.get("is_error") or output.get("subtype") not in (None, "success"):
        raise AgentError(f"claude reported an error: {str(output.get('result') or output.get('subtype'))[:300]}")
    return str(output.get("result", ""))


def json_block(text: str) -> Any:
    """The last fenced JSON block of an answer (the whole answer when it has none), parsed."""
    blocks = _JSON_BLOCK_RE.findall(text)
    raw = blocks[-1] if blocks else text.strip()
    try:
        return json.loads(raw)
    except ValueError as exc:
        what = "its JSON block" if blocks else "the answer (no ```json block found)"
        raise AgentError(f"the agent's answer is malformed: {what} does not parse ({exc})") from None
