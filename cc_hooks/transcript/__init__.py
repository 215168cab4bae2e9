"""Claude Code session transcripts (``~/.claude/projects/<escaped cwd>/<session>.jsonl``).

- ``reader``: the live part (after the last compaction) of one transcript, fast and tolerant.
- ``lines``: a streaming pass over every line (classification, what a resume still needs).
- ``store``: where transcripts live, project-folder escaping, liveness.
- ``archive``: move what the CLI no longer needs into a compressed archive; restore; verify.
- ``stats``: per-session and per-project figures.

Only ``reader`` is imported here; it uses the standard library alone.
"""

from __future__ import annotations

from cc_hooks.transcript.reader import (
    Commit,
    CompactSummary,
    LiveTranscript,
    Message,
    ToolCall,
    UserPrompt,
    read_live,
)

__all__ = ["Commit", "CompactSummary", "LiveTranscript", "Message", "ToolCall", "UserPrompt", "read_live"]
