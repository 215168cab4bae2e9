"""The real, interactive Claude Code CLI in a tmux pane: what a person sees, read with ``capture-pane``.

``ClaudeRunner.run`` drives ``claude -p``, which prints no hook lines; here the CLI runs in its REPL
on a private tmux server (its own socket, so nothing touches a developer's tmux), with the same
temporary HOME, environment and fake API as the runner. Every wait polls the screen for a pattern
with a deadline; nothing sleeps a fixed time.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import time
from pathlib import Path
from typing import Optional, Sequence

from .harness import ClaudeRunner

WIDTH, HEIGHT = 200, 60
HISTORY_LINES = 5000


def tmux_missing() -> Optional[str]:
    """Why the interactive tests cannot run here, or None."""
    if shutil.which("tmux") is None:
        return "tmux is not on PATH (apt-get install tmux); the interactive end-to-end tests drive the CLI in a tmux pane"
    return None


def trust_project(runner: ClaudeRunner) -> None:
    """Seed ``~/.claude.json`` as a person who has used Claude Code here: onboarding done, the test key
    approved, the project's trust dialog accepted (before that no settings-file hook runs)."""
    path = runner.home / ".claude.json"
    data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    data.update({"hasCompletedOnboarding": True, "theme": "dark", "numStartups": 5,
                 "customApiKeyResponses": {"approved": [runner.env()["ANTHROPIC_API_KEY"][-20:]], "rejected": []}})
    project = data.setdefault("projects", {}).setdefault(str(runner.cwd), {})
    project.update({"hasTrustDialogAccepted": True, "hasCompletedProjectOnboarding": True})
    path.write_text(json.dumps(data), encoding="utf-8")


class Pane:
    """One interactive ``claude`` in a detached tmux session on a private server."""

    def __init__(self, runner: ClaudeRunner, args: Sequence[str] = (), socket: Optional[Path] = None):
        self.runner = runner
        self.socket = str(socket or runner.home.parent / "tmux.sock")
        trust_project(runner)
        env = {**runner.env(), "TERM": "xterm-256color", "COLORTERM": "truecolor"}
        exports = " ".join(f"{key}={shlex.quote(value)}" for key, value in env.items())
        argv = " ".join(shlex.quote(a) for a in [str(runner.cli), *args])
        # env -i: the pane gets the runner's clean environment, not the tmux server's
        command = f"cd {shlex.quote(str(runner.cwd))} && exec env -i {exports} {argv}"
        self._tmux("new-session", "-d", "-s", "cc", "-x", str(WIDTH), "-y", str(HEIGHT), command)
        self._tmux("set-option", "-t", "cc", "history-limit", str(HISTORY_LINES))

    def _tmux(self, *args: str, input: Optional[bytes] = None) -> str:
        proc = subprocess.run(["tmux", "-S", self.socket, *args], input=input, capture_output=True, timeout=30)
        if proc.returncode != 0 and args[0] not in ("kill-server", "capture-pane"):
            raise AssertionError(f"tmux {' '.join(args[:2])} failed: {proc.stderr.decode(errors='replace')}")
        return proc.stdout.decode("utf-8", errors="replace")

    def screen(self) -> str:
        """The pane with its scroll-back, wrapped lines joined."""
        return self._tmux("capture-pane", "-p", "-J", "-t", "cc", "-S", f"-{HISTORY_LINES}")

    def wait_for(self, pattern: str, timeout: float = 30.0, more_than: int = 0) -> re.Match:
        """The last match of ``pattern`` (a regex) once the screen shows it more than ``more_than`` times
        (``count`` before an action, so that an old line in the scroll-back does not answer for a new one)."""
        regex = re.compile(pattern, re.M)
        deadline = time.monotonic() + timeout
        while True:
            text = self.screen()
            found = list(regex.finditer(text))
            if len(found) > more_than:
                return found[-1]
            if time.monotonic() > deadline:
                raise AssertionError(f"not on screen within {timeout:g} s: {pattern!r}\n--- screen ---\n{text[-6000:]}")
            time.sleep(0.2)

    def count(self, pattern: str) -> int:
        return len(re.findall(pattern, self.screen(), re.M))

    def ready(self, timeout: float = 45.0) -> None:
        self.wait_for(r"^\S*\s*❯", timeout)  # the prompt box

    def type_line(self, text: str, timeout: float = 20.0) -> None:
        """Type ``text`` into the prompt, wait until it shows, press Enter."""
        shown = re.escape(text[-40:])
        before = self.count(shown)
        self._tmux("send-keys", "-t", "cc", "-l", text)
        self.wait_for(shown, timeout, more_than=before)
        self._tmux("send-keys", "-t", "cc", "Enter")

    def paste_line(self, text: str, timeout: float = 20.0) -> None:
        """Paste ``text`` (a bracketed paste, as a person pasting a big prompt), then Enter."""
        before = self.count(r"\[Pasted text")
        self._tmux("load-buffer", "-b", "big", "-", input=text.encode("utf-8"))
        self._tmux("paste-buffer", "-p", "-d", "-b", "big", "-t", "cc")
        self.wait_for(r"\[Pasted text", timeout, more_than=before)
        self._tmux("send-keys", "-t", "cc", "Enter")

    def close(self) -> None:
        self._tmux("kill-server")

    def __enter__(self) -> "Pane":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
