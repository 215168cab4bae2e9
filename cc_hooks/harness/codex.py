"""The Codex CLI adapter (observed on 0.171.0, ``../shared/docs/codex-platform.md``).

What differs from Claude Code, and what cc-hooks does about it:

- **PreCompact cannot steer the summary**: Codex ignores its stdout. The checklist still runs and
  writes the checkpoint; the person sees one ``systemMessage`` line in the TUI; the
  SessionStart(compact) report then states the capture debt and the must-keep items as facts
  (``steers_summary = False``). ``block-manual`` answers ``{"continue": false, "stopReason": …}``,
  which skips the compaction and interrupts the turn; the handler only blocks manual ones (a blocked
  auto compaction would fail the turn).
- **No summary field in PostCompact**: the summary is the ``message`` of the rollout's newest
  ``compacted`` record, already on disk when PostCompact runs.
- **PostCompact's output**: a ``systemMessage`` for the person, as PreCompact's.
- **Stdin**: ``turn_id`` where Claude Code has ``prompt_id`` (SessionStart has neither).
- **SessionStart / UserPromptSubmit**: ``hookSpecificOutput.additionalContext`` becomes a developer
  message of the next model request, as on Claude Code.
- **Transcript**: ``$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl`` (``codex_rollout``).
- **Wiring**: ``<repo>/.codex/hooks.json`` (only read once the project is trusted) or
  ``$CODEX_HOME/hooks.json``, same shape as Claude Code's hooks block; every hook must also be
  trusted, or Codex skips it silently (``codex_hooks``).
"""

from __future__ import annotations

import os
from pathlib import Path

from cc_hooks.harness import CODEX, Harness

NOTICE_CHARS = 300


def codex_home() -> Path:
    configured = os.environ.get("CODEX_HOME")
    return Path(configured).expanduser() if configured else Path.home() / ".codex"


class Codex(Harness):
    name = CODEX
    label = "Codex"
    steers_summary = False
    scopes = ("project", "user")

    def normalize(self, payload):
        if payload.get("prompt_id") is None and isinstance(payload.get("turn_id"), str):
            return {**payload, "prompt_id": payload["turn_id"]}  # checkpoints are keyed by it
        return payload

    def pre_compact_output(self, instructions, notice, budget):
        """Codex ignores PreCompact's stdout: only the person's line is worth printing."""
        return _json({"systemMessage": _line(notice)})

    def pre_compact_block(self, reason):
        from cc_hooks.printable import printable
        from cc_hooks.protocol import truncate

        text = truncate(printable(reason).strip(), 2_000, pointer="run `cc-hooks check`")
        return _json({"continue": False, "stopReason": text, "systemMessage": _line(text.splitlines()[0])})

    def post_compact_output(self, line):
        return _json({"systemMessage": _line(line)})

    def session_start_output(self, context, system_message, budget):
        from cc_hooks.protocol import session_start_output

        return session_start_output(context, system_message, budget)

    def user_prompt_submit_output(self, context, budget, system_message=None):
        from cc_hooks.protocol import user_prompt_submit_output

        return user_prompt_submit_output(context, budget, system_message)

    def compact_summary(self, payload):
        from cc_hooks.harness.codex_rollout import newest_summary

        path = payload.get("transcript_path")
        if not isinstance(path, str) or not os.path.isfile(path):
            return None
        return newest_summary(path)

    def read_live(self, path):
        from cc_hooks.harness.codex_rollout import read_live

        return read_live(path)

    def sessions_root(self):
        return codex_home() / "sessions"

    def hooks_path(self, scope, project_root):
        if scope == "project":
            return Path(project_root) / ".codex" / "hooks.json"
        if scope == "user":
            return codex_home() / "hooks.json"
        raise ValueError(f"Codex has no {scope!r} scope (project or user)")


def _line(text: str) -> str:
    from cc_hooks.printable import printable
    from cc_hooks.protocol import truncate

    return truncate(" ".join(printable(text or "").split()), NOTICE_CHARS, pointer="see `cc-hooks check`")


def _json(data: dict):
    from cc_hooks.protocol import dumps_compact
    from cc_hooks.runtime import HookResult

    return HookResult(stdout=dumps_compact(data))
