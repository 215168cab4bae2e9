"""What the session sweep reads from a transcript: its tool calls and the facts around them.

Apart from ``session_sweep`` (which judges) and ``transcript_adapter`` (which builds these from
helper E's reader) so that data flows one way: reader -> adapter -> records -> sweep."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

EDIT_TOOLS = {"Edit", "Write", "MultiEdit", "NotebookEdit"}
COMMITTING_RE = re.compile(r"\bgit\b[^|;&]*?\s(commit|merge|cherry-pick|rebase|revert|am|pull|stash\s+pop)\b")


@dataclass
class Call:
    """One tool call and its result, as the sweep needs it."""

    index: int
    name: str
    command: Optional[str]  # Bash
    file: Optional[str]  # Edit/Write
    ok: bool
    output: str
    timestamp: Optional[str] = None


@dataclass
class Sweep:
    calls: list[Call]
    prompts: list[tuple[str, Optional[str]]]  # (text, timestamp) of real user prompts
    edits: list[str]  # repo-relative paths edited in the session
    commit_hints: list[str]  # sha prefixes the session printed for its commits
    started: Optional[str]  # timestamp of the first live line
    first_commit_at: Optional[str] = None  # when the session first ran a command that makes commits
