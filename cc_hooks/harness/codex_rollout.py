"""Read a Codex rollout (``$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<session>.jsonl``) from the end.

Each line is ``{timestamp, ordinal, type, payload}``. A compaction writes a ``compacted`` record
(``payload.message`` is the summary the next context starts from, after Codex's own preamble);
the live part is everything after the newest one. As for Claude Code's transcripts
(``cc_hooks.transcript.reader``), the newest ``compacted`` line is found by a byte search from the
end, and only it and the live part are parsed: the cost is about the live part's, whatever the
history before it. The result is the same ``LiveTranscript`` the session sweep reads for Claude
Code, with Codex's tools mapped onto the names the sweep knows:

- ``exec_command`` (and the older ``shell``) → ``Bash``, its exit code from the
  ``CommandExecution`` item (``exit_code``) or the output's "Process exited with code N";
- ``apply_patch`` → one ``Edit`` per file it changed (the ``FileChange`` item's absolute paths, or
  the patch's own ``*** Add/Update/Delete File:`` lines);
- the person's prompts: ``UserMessage`` items (never the context Codex injects itself).

Standard library only: this runs on the hook path.
"""

from __future__ import annotations

import json
import os
import re
from typing import Optional

from cc_hooks.transcript.reader import (
    _GIT_COMMIT,
    SCAN_BYTES,
    CompactSummary,
    LiveTranscript,
    Message,
    ToolCall,
    UserPrompt,
    _map,
    commit_of,
    find_last,
    iter_records,
)

COMPACTED_NEEDLE = b'"type":"compacted"'
# Codex prefixes the summary with this paragraph (0.171.0), ending in a colon and a newline.
SUMMARY_PREAMBLE = "Another language model started to solve this problem"
SHELL_TOOLS = ("exec_command", "shell", "shell_command", "local_shell")
_EXITED = re.compile(r"Process exited with code (-?\d+)|^Exit code:? (-?\d+)", re.MULTILINE)
_PATCH_FILE = re.compile(r"^\*\*\* (?:Add|Update|Delete) File: (.+?)\s*$", re.MULTILINE)
_OUTPUT_MARK = "\nOutput:\n"


def is_compacted(record: dict) -> bool:
    return record.get("type") == "compacted" and isinstance(record.get("payload"), dict)


def summary_of(payload: dict) -> str:
    """The summary text of a ``compacted`` payload, without Codex's preamble."""
    message = payload.get("message")
    if not isinstance(message, str):
        return ""
    if message.startswith(SUMMARY_PREAMBLE):
        head, newline, rest = message.partition(":\n")
        return rest if newline else message
    return message


def newest_compacted(path, scan_bytes: Optional[int] = SCAN_BYTES) -> Optional[dict]:
    """The newest ``compacted`` record of the rollout at ``path`` (with its ``timestamp``), or None."""
    with open(os.fspath(path), "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        floor = 0 if scan_bytes is None or size <= scan_bytes else size - scan_bytes
        with _map(handle, size) as buf:
            found = find_last(buf, COMPACTED_NEEDLE, size, floor, is_compacted)
    return found[1] if found else None


def newest_summary(path) -> Optional[str]:
    """What PostCompact audits: the summary of the newest compaction (already on disk when it runs)."""
    record = newest_compacted(path)
    return summary_of(record["payload"]) if record else None


def read_live(path, max_bytes: Optional[int] = None, scan_bytes: Optional[int] = SCAN_BYTES) -> LiveTranscript:
    """The live part of the rollout at ``path``: after the newest ``compacted`` record."""
    path = os.fspath(path)
    with open(path, "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        floor = 0 if scan_bytes is None or size <= scan_bytes else size - scan_bytes
        with _map(handle, size) as buf:
            found = find_last(buf, COMPACTED_NEEDLE, size, floor, is_compacted)
            live = LiveTranscript(path=path, size=size, live_offset=found[0] if found else floor, summary=None)
            live.session_id = _session_from_name(path)
            start = live.live_offset
            if found is None and floor > 0:
                newline = buf.find(b"\n", floor, size)
                start, live.truncated = (size if newline < 0 else newline + 1), True
            if max_bytes is not None and size - start > max_bytes:
                newline = buf.find(b"\n", size - max_bytes, size)
                start, live.truncated = (size if newline < 0 else newline + 1), True
            builder = _Builder(live)
            for _offset, record in iter_records(buf, start, size):
                if record is None:
                    live.bad_lines += 1
                else:
                    builder.add(record)
    builder.finish()
    return live


def _session_from_name(path: str) -> Optional[str]:
    stem = os.path.basename(path).removesuffix(".jsonl")
    match = re.search(r"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$", stem)
    return match.group(1) if match else None


class _Builder:
    def __init__(self, live: LiveTranscript):
        self.live = live
        self.calls: dict[str, ToolCall] = {}
        self.patches: dict[str, list[ToolCall]] = {}

    def add(self, record: dict) -> None:
        kind, payload, when = record.get("type"), record.get("payload"), record.get("timestamp")
        if not isinstance(payload, dict):
            self.live.skipped_lines += 1
            return
        if kind == "compacted":
            self._compacted(payload, when)
        elif kind == "response_item":
            self._response_item(payload, when)
        elif kind == "event_msg":
            self._event(payload, when)
        elif kind in ("turn_context", "session_meta"):
            cwd = payload.get("cwd")
            self.live.cwd = cwd if isinstance(cwd, str) else self.live.cwd
            self.live.session_id = payload.get("session_id") or payload.get("id") or self.live.session_id
        else:
            self.live.skipped_lines += 1

    def _compacted(self, payload: dict, when) -> None:
        live = self.live
        live.messages, live.tool_calls, live.user_prompts = [], [], []
        self.calls, self.patches = {}, {}
        live.summary = CompactSummary(text=summary_of(payload), trigger=None, pre_tokens=None, boundary_uuid=None,
                                      summary_uuid=payload.get("window_id"), timestamp=when, detected_by="compacted",
                                      metadata={k: payload.get(k) for k in ("window_number", "window_id", "previous_window_id")})

    def _response_item(self, item: dict, when) -> None:
        kind = item.get("type")
        if kind == "message":
            role = str(item.get("role") or "")
            texts = [c.get("text", "") for c in item.get("content") or [] if isinstance(c, dict) and isinstance(c.get("text"), str)]
            self.live.messages.append(Message(role, item.get("id"), None, when, [{"type": "text", "text": t} for t in texts], item))
        elif kind in ("function_call", "custom_tool_call", "local_shell_call"):
            self._call(item, when)
        elif kind in ("function_call_output", "custom_tool_call_output"):
            self._output(item)

    def _call(self, item: dict, when) -> None:
        call_id, name = item.get("call_id"), str(item.get("name") or item.get("type"))
        if not isinstance(call_id, str):
            return
        arguments = _arguments(item)
        if name in SHELL_TOOLS or item.get("type") == "local_shell_call":
            command = _command_text(arguments.get("cmd", arguments.get("command")))
            call = ToolCall(call_id, "Bash", {"command": command}, None, when, command=command)
            self.calls[call_id] = call
            self.live.tool_calls.append(call)
        elif name == "apply_patch":
            text = item.get("input") if isinstance(item.get("input"), str) else str(arguments.get("input", ""))
            edits = [ToolCall(f"{call_id}#{n}", "Edit", {"file_path": self._absolute(p)}, None, when)
                     for n, p in enumerate(dict.fromkeys(_PATCH_FILE.findall(text)))]
            self.patches[call_id] = edits
            self.live.tool_calls.extend(edits)

    def _absolute(self, path: str) -> str:
        if os.path.isabs(path) or not self.live.cwd:
            return path
        return os.path.join(self.live.cwd, path)

    def _output(self, item: dict) -> None:
        call_id = item.get("call_id")
        output = item.get("output")
        text = output if isinstance(output, str) else "\n".join(
            str(c.get("text", "")) for c in output or [] if isinstance(c, dict)) if isinstance(output, list) else ""
        call = self.calls.get(call_id)
        code = _exit_code(text)
        if call is not None and call.result_text is None:
            call.result_text = text.split(_OUTPUT_MARK, 1)[1] if _OUTPUT_MARK in text else text
            call.exit_code = code if call.exit_code is None else call.exit_code
            call.is_error = call.exit_code not in (0, None)
        for edit in self.patches.get(call_id, []):
            if edit.result_text is None:
                edit.result_text = text
                edit.is_error = code not in (0, None) or text.startswith(("apply_patch verification failed", "aborted"))

    def _event(self, payload: dict, when) -> None:
        kind = payload.get("type")
        item = payload.get("item") if isinstance(payload.get("item"), dict) else {}
        if kind == "item_completed" and item.get("type") == "UserMessage":
            text = "\n".join(str(c.get("text", "")) for c in item.get("content") or [] if isinstance(c, dict))
            if text.strip():
                self.live.user_prompts.append(UserPrompt(text, item.get("id"), when, payload.get("turn_id")))
        elif kind == "user_message" and isinstance(payload.get("message"), str):  # older rollouts
            self.live.user_prompts.append(UserPrompt(payload["message"], None, when, payload.get("turn_id")))
        elif kind == "item_completed" and item.get("type") == "CommandExecution":
            call = self.calls.get(item.get("id"))
            if call is not None and isinstance(item.get("exit_code"), int):
                call.exit_code = item["exit_code"]
                call.is_error = call.exit_code != 0
                if call.result_text is None and isinstance(item.get("aggregated_output"), str):
                    call.result_text = item["aggregated_output"]
        elif kind == "item_completed" and item.get("type") == "FileChange":
            self._file_change(item, when)
        else:
            self.live.skipped_lines += 1

    def _file_change(self, item: dict, when) -> None:
        """The files a patch really changed (absolute paths): they replace what its text named."""
        changes = item.get("changes")
        call_id = item.get("id")
        if not isinstance(changes, dict) or not isinstance(call_id, str):
            return
        failed = item.get("status") not in (None, "completed")
        known = self.patches.get(call_id, [])
        self.live.tool_calls = [c for c in self.live.tool_calls if c not in known]
        edits = [ToolCall(f"{call_id}#{n}", "Edit", {"file_path": path}, None, when,
                          result_text=str(item.get("stdout") or ""), is_error=failed)
                 for n, path in enumerate(changes) if isinstance(path, str)]
        self.patches[call_id] = edits
        self.live.tool_calls.extend(edits)

    def finish(self) -> None:
        edited: dict[str, None] = {}
        for call in self.live.tool_calls:
            path = call.input.get("file_path") if call.name == "Edit" else None
            if isinstance(path, str) and path and not call.is_error and call.result_text is not None:
                edited[path] = None
            if call.name == "Bash" and call.command and _GIT_COMMIT.search(call.command):
                self.live.commits.append(commit_of(call))
        self.live.files_edited = list(edited)


def _arguments(item: dict) -> dict:
    raw = item.get("arguments", item.get("action"))
    if isinstance(raw, dict):
        return raw
    if isinstance(raw, str):
        try:
            value = json.loads(raw)
        except ValueError:
            return {}
        return value if isinstance(value, dict) else {}
    return {}


def _command_text(command) -> str:
    """``"git status"``, or the script of ``["bash", "-lc", "git status"]``."""
    if isinstance(command, str):
        return command
    if isinstance(command, list) and all(isinstance(part, str) for part in command):
        if len(command) == 3 and command[1] in ("-lc", "-c"):
            return command[2]
        return " ".join(command)
    return ""


def _exit_code(text: str) -> Optional[int]:
    match = _EXITED.search(text or "")
    if not match:
        return None
    return int(match.group(1) if match.group(1) is not None else match.group(2))
