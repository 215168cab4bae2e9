"""The Claude Code adapter: every answer delegates to the modules that were written for it.

- hook I/O: ``cc_hooks.protocol`` (PreCompact's plain stdout is appended to the summarizer's
  instructions; exit 2 blocks a manual compaction; PostCompact's stdout reaches the person only);
- the summary: PostCompact's ``compact_summary`` field;
- the transcript: ``cc_hooks.transcript`` (``~/.claude/projects/<escaped cwd>/<session>.jsonl``);
- wiring: ``cc_hooks.settings`` (``.claude/settings.json``, ``settings.local.json``,
  ``$CLAUDE_CONFIG_DIR/settings.json``); Claude Code runs every hook it finds, no trust step.
"""

from __future__ import annotations

from cc_hooks.harness import CLAUDE_CODE, Harness


class ClaudeCode(Harness):
    name = CLAUDE_CODE
    label = "Claude Code"
    steers_summary = True
    scopes = ("project", "local", "user")

    def pre_compact_output(self, instructions, notice, budget):
        from cc_hooks.protocol import pre_compact_output

        return pre_compact_output(instructions, budget)

    def pre_compact_block(self, reason):
        from cc_hooks.protocol import pre_compact_block

        return pre_compact_block(reason)

    def post_compact_output(self, line):
        from cc_hooks.protocol import post_compact_output

        return post_compact_output(line)

    def session_start_output(self, context, system_message, budget):
        from cc_hooks.protocol import session_start_output

        return session_start_output(context, system_message, budget)

    def user_prompt_submit_output(self, context, budget, system_message=None):
        from cc_hooks.protocol import user_prompt_submit_output

        return user_prompt_submit_output(context, budget, system_message)

    def compact_summary(self, payload):
        summary = payload.get("compact_summary")
        return summary if isinstance(summary, str) else None

    def read_live(self, path):
        from cc_hooks.transcript import read_live

        return read_live(path)

    def sessions_root(self):
        from cc_hooks.transcript.store import projects_root

        return projects_root()

    def hooks_path(self, scope, project_root):
        from cc_hooks.settings import settings_path

        return settings_path(scope, project_root)
