"""Compaction summaries of a project's sessions: what was summarized, what the audit found, what was injected.

- ``store``: the rehydration reports SessionStart injected (written on the hook path: stdlib only),
  and the captures PostCompact wrote.
- ``collect``: every compaction of a session, from its transcript and from the state directory.
- ``render``: ``show`` on a terminal or as plain text, and the Markdown and HTML exports.
"""
