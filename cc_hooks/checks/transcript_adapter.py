"""Turn helper E's live transcript (``cc_hooks.transcript.read_live``) into the
sweep's `Sweep`: tool calls with a plain verdict, repo-relative edited paths,
real user prompts, and the commit shas the session printed.

A Bash call succeeded on exit 0 and failed on a non-zero exit code, or when a
hook refused to run it (an error result with no exit code, e.g. "Pre-commit
validation failed"). A call whose outcome is unknown (no result in the live
part, interrupted, refused by the user, cancelled with its siblings) is left
out: the sweep prefers missing an outcome to inventing one.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Optional

from cc_hooks.checks.sweep_record import COMMITTING_RE, EDIT_TOOLS, Call, Sweep

_PATH_KEYS = ("file_path", "notebook_path")
_NOT_A_FAILURE_RE = re.compile(r"user doesn't want to proceed|user rejected|Request interrupted|Sibling tool call errored|"
                               r"Interrupted by user|was blocked\. For security", re.IGNORECASE)


def to_sweep(live, root) -> Sweep:
    """The sweep's view of ``live`` (a LiveTranscript) for the repository at ``root``."""
    paths = _PathMapper(Path(root), live.cwd)
    calls = []
    for index, tool in enumerate(live.tool_calls):
        call = _call(index, tool, paths)
        if call is not None:
            calls.append(call)
    edits = list(dict.fromkeys(c.file for c in calls if c.name in EDIT_TOOLS and c.file and c.ok))
    prompts = [(p.text, p.timestamp) for p in live.user_prompts]
    hints = list(dict.fromkeys(c.sha for c in live.commits if c.ok and c.sha))
    committing = [t.timestamp for t in live.tool_calls if t.name == "Bash" and t.timestamp and COMMITTING_RE.search(t.command or "")]
    return Sweep(calls, prompts, edits, hints, _started(live), min(committing, default=None))


def _call(index: int, tool, paths: "_PathMapper") -> Optional[Call]:
    if tool.result_text is None:
        return None  # no result yet: the call is still running, or its result is before the boundary
    if tool.name == "Bash":
        ok = _bash_ok(tool)
        return None if ok is None else Call(index, "Bash", tool.command or "", None, ok, tool.result_text, tool.timestamp)
    if tool.name in EDIT_TOOLS:
        raw = next((tool.input.get(key) for key in _PATH_KEYS if isinstance(tool.input.get(key), str)), None)
        path = paths.relative(raw) if raw else None
        if path is None:
            return None  # outside the repository (a plan file, another checkout): not this repo's work
        return Call(index, tool.name, None, path, not tool.is_error, tool.result_text, tool.timestamp)
    return None


def _bash_ok(tool) -> Optional[bool]:
    """True on exit 0, False on a non-zero exit or a hook's refusal, None when unknown."""
    if tool.exit_code is not None:
        return tool.exit_code == 0
    detail = tool.tool_use_result if isinstance(tool.tool_use_result, dict) else {}
    if tool.is_error and not detail.get("interrupted") and not _NOT_A_FAILURE_RE.search(tool.result_text or ""):
        return False
    return None


def _started(live) -> Optional[str]:
    """When the live part began: the boundary's time, else the first message's."""
    if live.summary is not None and live.summary.timestamp:
        return live.summary.timestamp
    return next((m.timestamp for m in live.messages if m.timestamp and not m.preserved), None)


class _PathMapper:
    """Absolute tool paths → repo-relative ones.

    A path under the repository is relative to it. A path under the session's
    recorded cwd, when that cwd is not the repository (the transcript was
    copied, the checkout moved), is taken relative to the cwd. Anything else is
    outside the repository."""

    def __init__(self, root: Path, cwd: Optional[str]):
        self.root = _real(root)
        self.cwd = Path(cwd) if cwd else None
        self.seen: dict[str, Optional[str]] = {}
        if self.cwd is not None and (_under(self.cwd, self.root) or _under(_real(self.cwd), self.root)):
            self.cwd = None  # paths under it are under the root already

    def relative(self, raw: str) -> Optional[str]:
        if raw not in self.seen:
            self.seen[raw] = self._relative(raw)
        return self.seen[raw]

    def _relative(self, raw: str) -> Optional[str]:
        path = Path(raw)
        if not path.is_absolute():
            base = self.cwd if self.cwd is not None else self.root
            path = base / path
        for base, candidate in ((self.root, _real(path)), (self.root, path), (self.cwd, path)):
            if base is not None and _under(candidate, base):
                rel = os.path.normpath(os.path.relpath(candidate, base))
                return None if rel.startswith("..") else Path(rel).as_posix()
        return None


def _real(path: Path) -> Path:
    try:
        return path.resolve()
    except OSError:
        return path


def _under(path: Path, base: Path) -> bool:
    try:
        path.relative_to(base)
    except ValueError:
        return False
    return True
