"""Write Codex rollouts in the shape Codex CLI 0.171.0 writes them (observed offline; see
``../shared/docs/codex-platform.md``): ``{timestamp, ordinal, type, payload}`` per line."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

SESSION = "01a23189-94b4-7c42-aa55-27c3556c08e0"
PREAMBLE = ("Another language model started to solve this problem and produced a summary of its thinking process. "
            "You also have access to the state of the tools that were used by that language model. Use this to build on "
            "the work that has already been done and avoid duplicating work. Here is the summary produced by the other "
            "language model, use the information in this summary to assist with your own analysis:\n")


def rollout_path(codex_home: Path, session: str = SESSION) -> Path:
    return codex_home / "sessions" / "2026" / "12" / "01" / f"rollout-2026-12-01T12-17-09-{session}.jsonl"


class Rollout:
    def __init__(self, path: Path, cwd: Path, session: str = SESSION):
        self.path, self.cwd, self.session = path, cwd, session
        self.lines: list[dict] = []
        self._ordinal = itertools.count()
        self._ids = itertools.count(1)
        self._second = itertools.count(10)
        self.record("session_meta", {"session_id": session, "id": session, "cwd": str(cwd), "cli_version": "0.171.0"})
        self.record("turn_context", {"turn_id": "turn-1", "cwd": str(cwd), "model": "gpt-5.5"})

    def record(self, kind: str, payload: dict) -> None:
        when = f"2026-12-01T12:17:{next(self._second) % 60:02d}.000Z"
        self.lines.append({"timestamp": when, "ordinal": next(self._ordinal), "type": kind, "payload": payload})

    def prompt(self, text: str, turn: str = "turn-1") -> None:
        self.record("response_item", {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]})
        self.record("event_msg", {"type": "item_completed", "turn_id": turn,
                                  "item": {"type": "UserMessage", "id": f"u{next(self._ids)}",
                                           "content": [{"type": "text", "text": text, "text_elements": []}]}})

    def command(self, cmd: str, output: str, exit_code: int = 0) -> None:
        call = f"call_{next(self._ids)}"
        self.record("response_item", {"type": "function_call", "name": "exec_command", "call_id": call,
                                      "arguments": json.dumps({"cmd": cmd})})
        self.record("event_msg", {"type": "item_completed", "item": {
            "type": "CommandExecution", "id": call, "command": ["/bin/bash", "-lc", cmd],
            "status": "completed" if exit_code == 0 else "failed", "aggregated_output": output, "exit_code": exit_code}})
        self.record("response_item", {"type": "function_call_output", "call_id": call, "output":
                                      f"Chunk ID: ab12\nWall time: 0.0 seconds\nProcess exited with code {exit_code}\n"
                                      f"Original token count: 2\nOutput:\n{output}"})

    def patch(self, rel: str, old: str, new: str) -> None:
        call = f"call_{next(self._ids)}"
        text = f"*** Begin Patch\n*** Update File: {rel}\n@@\n-{old}\n+{new}\n*** End Patch\n"
        self.record("response_item", {"type": "custom_tool_call", "name": "apply_patch", "call_id": call, "input": text})
        self.record("event_msg", {"type": "item_completed", "item": {
            "type": "FileChange", "id": call, "status": "completed", "stdout": f"Success. Updated the following files:\nM {rel}\n",
            "changes": {str(self.cwd / rel): {"type": "update", "unified_diff": f"-{old}\n+{new}\n"}}}})
        self.record("response_item", {"type": "custom_tool_call_output", "call_id": call,
                                      "output": f"Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\nM {rel}\n"})

    def compacted(self, summary: str) -> None:
        self.record("response_item", {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": summary}]})
        self.record("compacted", {"message": PREAMBLE + summary, "replacement_history": [], "window_number": 1,
                                  "window_id": f"{self.session}:1", "previous_window_id": f"{self.session}:0"})
        self.record("turn_context", {"turn_id": "turn-2", "cwd": str(self.cwd), "model": "gpt-5.5"})
        self.record("event_msg", {"type": "item_completed", "item": {"type": "ContextCompaction", "id": "cc1"}})

    def save(self) -> Path:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text("".join(json.dumps(line, separators=(",", ":")) + "\n" for line in self.lines), encoding="utf-8")
        return self.path
