"""The harness layer: what belongs to the agent CLI that runs the hooks, apart from what is cc-hooks'.

cc-hooks' own work (the checklist, the claims, the report, the record) does not depend on which CLI
runs it. What does, a harness adapter answers:

- **hook I/O**: which stdin fields an event carries (``normalize`` maps them to the names the event
  handlers read), and which outputs each event honours (``pre_compact_output``,
  ``pre_compact_block``, ``post_compact_output``, ``session_start_output``,
  ``user_prompt_submit_output``); ``steers_summary`` says whether PreCompact's output reaches the
  summarizer at all;
- **the summary**: where the compaction summary is when PostCompact runs (``compact_summary``);
- **the transcript**: its format (``read_live``: the part after the last compaction, as a
  ``cc_hooks.transcript.LiveTranscript``) and where transcripts live (``sessions_root``);
- **wiring**: where hooks are declared (``hooks_path``), in which scopes, and how they are trusted
  (the adapter's module: ``cc_hooks.settings`` for Claude Code, ``cc_hooks.harness.codex_hooks``
  for Codex).

Two adapters: ``claude_code.ClaudeCode`` (delegating to ``cc_hooks.protocol``, ``cc_hooks.settings``
and ``cc_hooks.transcript``) and ``codex.Codex``. A third harness is one more module here and one
more entry in ``ADAPTERS``. This module is imported on every hook: standard library only, and the
adapters load only when asked for.
"""

from __future__ import annotations

import os
from typing import Any, Mapping, Optional

CLAUDE_CODE = "claude-code"
CODEX = "codex"
ADAPTERS = {CLAUDE_CODE: ("cc_hooks.harness.claude_code", "ClaudeCode"), CODEX: ("cc_hooks.harness.codex", "Codex")}
NAMES = tuple(ADAPTERS)
ROLLOUT_PREFIX = "rollout-"  # Codex names every transcript rollout-<timestamp>-<session id>.jsonl
_CACHE: dict = {}


class Harness:
    """The interface every adapter implements (the defaults are Claude Code's choices)."""

    name = ""
    label = ""  # how the person knows it: "Claude Code", "Codex"
    steers_summary = True  # PreCompact's output reaches the summarizer's instructions
    scopes: tuple = ()

    def normalize(self, payload: dict) -> dict:
        """The payload under the field names the event handlers read (unknown fields kept)."""
        return payload

    # -- outputs, per event (each returns a cc_hooks.runtime.HookResult) ---------------------------
    def pre_compact_output(self, instructions: str, notice: str, budget: int):
        raise NotImplementedError

    def pre_compact_block(self, reason: str):
        raise NotImplementedError

    def post_compact_output(self, line: str):
        raise NotImplementedError

    def session_start_output(self, context: str, system_message: Optional[str], budget: int):
        raise NotImplementedError

    def user_prompt_submit_output(self, context: str, budget: int, system_message: Optional[str] = None):
        raise NotImplementedError

    # -- the summary and the transcript ----------------------------------------------------------
    def compact_summary(self, payload: Mapping[str, Any]) -> Optional[str]:
        """The summary of the compaction PostCompact reports, or None when it cannot be found."""
        raise NotImplementedError

    def read_live(self, path):
        """The live part of the transcript at ``path`` (a ``cc_hooks.transcript.LiveTranscript``)."""
        raise NotImplementedError

    def sessions_root(self):
        """Where this harness keeps its transcripts."""
        raise NotImplementedError

    def hooks_path(self, scope: str, project_root):
        """The file that declares hooks in ``scope``."""
        raise NotImplementedError


def get(name: str) -> Harness:
    """The adapter called ``name`` (one of ``NAMES``); raises KeyError for another."""
    adapter = _CACHE.get(name)
    if adapter is None:
        import importlib

        module, cls = ADAPTERS[name]
        adapter = _CACHE[name] = getattr(importlib.import_module(module), cls)()
    return adapter


def detect_name(payload: Mapping[str, Any], environ: Optional[Mapping[str, str]] = None) -> str:
    """Which harness sent ``payload``: a Codex rollout as the transcript, else Claude Code's own
    environment variable, else Codex's fields and environment; Claude Code by default (it was the
    only one before, and its payloads carry no marker of their own on every event)."""
    env = os.environ if environ is None else environ
    transcript = payload.get("transcript_path")
    if isinstance(transcript, str) and transcript:
        return CODEX if os.path.basename(transcript).startswith(ROLLOUT_PREFIX) else CLAUDE_CODE
    if env.get("CLAUDE_PROJECT_DIR") or env.get("CLAUDECODE"):
        return CLAUDE_CODE
    if "turn_id" in payload or env.get("CODEX_MANAGED_BY_NPM") or env.get("CODEX_THREAD_ID"):
        return CODEX
    return CLAUDE_CODE


def detect(payload: Mapping[str, Any], explicit: Optional[str] = None, environ: Optional[Mapping[str, str]] = None) -> Harness:
    """The adapter for this event: ``explicit`` (``cc-hooks hook --harness``, which install writes) wins."""
    return get(explicit if explicit in ADAPTERS else detect_name(payload, environ))


def for_transcript(path) -> Harness:
    """The adapter whose transcript format ``path`` is in (by its name: Codex's are ``rollout-*``)."""
    return get(CODEX if os.path.basename(os.fspath(path)).startswith(ROLLOUT_PREFIX) else CLAUDE_CODE)
