"""Read the live part of a transcript: everything after the last compaction.

The file is not read whole: candidate boundary lines are found by a byte search for
``"compact_boundary"`` from the end (inside a JSON string the quotes would be escaped, so only a real
key or value matches), only those candidates and the live part are JSON-parsed. Cost is about
O(live part), whatever the size of the history before it.

Detection order (platform doc §5): the boundary line, then an ``isCompactSummary`` user line, then a
user line whose text starts with the summary prefix. The file is read up to the size seen at open (a
session may be appending); a last line that does not parse is ignored; invalid UTF-8 is replaced.
Positioned reads through a small chunk cache, not mmap: a file that another process truncates
while it is read gives short reads here, where a mapping would kill the hook with SIGBUS.

Bounded whatever the file: only its last ``SCAN_BYTES`` are searched and parsed (a 2 GB sparse
file costs what 64 MiB does; the result says ``truncated``), and a line longer than
``MAX_LINE_BYTES`` is counted as bad without being joined or parsed.
Standard library only: this runs on the hook path.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from typing import Any, Iterator, Optional

BOUNDARY_NEEDLE = b'"compact_boundary"'
SUMMARY_FLAG_NEEDLE = b'"isCompactSummary"'
SUMMARY_PREFIX = "This session is being continued from a previous conversation"
SUMMARY_PREFIX_NEEDLE = SUMMARY_PREFIX.encode()
CHAIN_TYPES = frozenset({"user", "assistant", "system", "attachment"})
EDIT_TOOLS = {"Edit": "file_path", "Write": "file_path", "MultiEdit": "file_path", "NotebookEdit": "notebook_path"}
_EXIT_CODE = re.compile(r"^Exit code (-?\d+)")
_GIT_COMMIT = re.compile(r"\bgit\s+(?:-[cC]\s+\S+\s+|--?[\w-]+(?:=\S+)?\s+)*commit\b")
# "[main 1a2b3c4] subject" (git commit) or "1a2b3c4 subject" (git log --oneline).
_COMMIT_SHA = re.compile(r"^\[[^\]\s]+(?: \([^)]*\))? ([0-9a-f]{7,40})\]|^([0-9a-f]{7,40}) \S", re.MULTILINE)
_COMMAND_WRAPPERS = (
    "<local-command-", "<command-name>", "<command-message>", "<task-notification>", "<system-reminder>",
)
_MAX_WALK = 10_000
SCAN_BYTES = 64 * 1024 * 1024  # the end of a transcript a hook reads at most
MAX_LINE_BYTES = 32 * 1024 * 1024  # a longer line is not a record the CLI wrote


@dataclass
class CompactSummary:
    text: str
    trigger: Optional[str]
    pre_tokens: Optional[int]
    boundary_uuid: Optional[str]
    summary_uuid: Optional[str]
    timestamp: Optional[str]
    detected_by: str  # "boundary" | "isCompactSummary" | "prefix"
    metadata: dict = field(default_factory=dict)  # compactMetadata as written


@dataclass
class Message:
    type: str
    uuid: Optional[str]
    parent_uuid: Optional[str]
    timestamp: Optional[str]
    content: list  # blocks; a plain string becomes [{"type": "text", "text": ...}]
    raw: dict
    message_id: Optional[str] = None  # assistant: the API message id shared by split lines
    preserved: bool = False  # kept verbatim from before the boundary (CLI >= 2.1.197)

    @property
    def text(self) -> str:
        return "\n".join(b.get("text", "") for b in self.content if isinstance(b, dict) and b.get("type") == "text")


@dataclass
class ToolCall:
    id: str
    name: str
    input: dict
    assistant_uuid: Optional[str]
    timestamp: Optional[str]
    result_text: Optional[str] = None  # None: no result in the live part (yet)
    is_error: bool = False
    result_uuid: Optional[str] = None
    tool_use_result: Any = None  # the line's top-level toolUseResult (tool-specific)
    command: Optional[str] = None  # Bash only
    exit_code: Optional[int] = None  # Bash only, when the result shows it


@dataclass
class Commit:
    command: str
    sha: Optional[str]
    ok: bool
    tool_use_id: str
    timestamp: Optional[str]
    output: Optional[str]


@dataclass
class UserPrompt:
    text: str
    uuid: Optional[str]
    timestamp: Optional[str]
    prompt_id: Optional[str]


@dataclass
class LiveTranscript:
    path: str
    size: int  # bytes considered (file size at open)
    live_offset: int  # where the live part starts
    summary: Optional[CompactSummary]
    messages: list = field(default_factory=list)
    tool_calls: list = field(default_factory=list)
    commits: list = field(default_factory=list)
    files_edited: list = field(default_factory=list)
    user_prompts: list = field(default_factory=list)
    truncated: bool = False  # the live part was longer than max_bytes; its start was skipped
    skipped_lines: int = 0  # unknown types and metadata lines
    bad_lines: int = 0  # lines that did not parse (a torn last line included)
    session_id: Optional[str] = None
    cwd: Optional[str] = None

    @property
    def live_bytes(self) -> int:
        return self.size - self.live_offset


def read_live(path: str | os.PathLike, max_bytes: Optional[int] = None,
              scan_bytes: Optional[int] = SCAN_BYTES) -> LiveTranscript:
    """The live part of the transcript at ``path``; ``max_bytes`` caps how much of it is parsed,
    ``scan_bytes`` how much of the file's end is searched at all (None: the whole file)."""
    path = os.fspath(path)
    with open(path, "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        floor = 0 if scan_bytes is None or size <= scan_bytes else size - scan_bytes
        with _map(handle, size) as buf:
            return _read(path, buf, size, max_bytes, floor)


class _FileView:
    """The first ``size`` bytes of an open file, for the three operations the reader needs
    (``find``, ``rfind``, slices), read with ``os.pread`` in cached 1 MiB chunks. Searches run
    on the cached chunk itself (no copy); a needle across two chunks is found at the seam."""

    CHUNK = 1 << 20
    KEEP = 16  # chunks cached: 16 MiB at most

    def __init__(self, handle, size: int):
        from collections import OrderedDict

        self.fd, self.size = handle.fileno(), size
        self._chunks: OrderedDict = OrderedDict()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._chunks.clear()

    def _chunk(self, index: int) -> bytes:
        data = self._chunks.get(index)
        if data is not None:
            self._chunks.move_to_end(index)
            return data
        base = index * self.CHUNK
        want = max(0, min(self.CHUNK, self.size - base))
        try:
            data = os.pread(self.fd, want, base) if want else b""
        except OSError:
            data = b""
        self._chunks[index] = data
        if len(self._chunks) > self.KEEP:
            self._chunks.popitem(last=False)
        return data

    def __getitem__(self, span: slice) -> bytes:
        start = max(0, span.start or 0)
        stop = min(self.size, self.size if span.stop is None else span.stop)
        if stop <= start:
            return b""
        first, last = start // self.CHUNK, (stop - 1) // self.CHUNK
        parts = []
        for index in range(first, last + 1):
            base = index * self.CHUNK
            parts.append(self._chunk(index)[max(start, base) - base : min(stop, base + self.CHUNK) - base])
        return parts[0] if len(parts) == 1 else b"".join(parts)

    def find(self, sub: bytes, start: int = 0, end: Optional[int] = None) -> int:
        end = self.size if end is None else min(end, self.size)
        pos, overlap = max(0, start), len(sub) - 1
        while pos < end:
            base = (pos // self.CHUNK) * self.CHUNK
            chunk = self._chunk(pos // self.CHUNK)
            stop = min(end, base + len(chunk))
            if stop <= pos:
                return -1  # a short read: the file is shorter than it was
            hit = chunk.find(sub, pos - base, stop - base)
            if hit >= 0:
                return base + hit
            if overlap and stop < end:
                seam_start = max(pos, stop - overlap)
                hit = self[seam_start : min(end, stop + overlap)].find(sub)
                if hit >= 0:
                    return seam_start + hit
            pos = stop
        return -1

    def rfind(self, sub: bytes, start: int = 0, end: Optional[int] = None) -> int:
        end = self.size if end is None else min(end, self.size)
        start, overlap, hi = max(0, start), len(sub) - 1, end
        while hi > start:
            base = ((hi - 1) // self.CHUNK) * self.CHUNK
            chunk = self._chunk((hi - 1) // self.CHUNK)
            lo, top = max(start, base), min(hi, base + len(chunk))
            if top > lo:
                hit = chunk.rfind(sub, lo - base, top - base)
                if hit >= 0:
                    return base + hit
            if overlap and lo > start:
                seam_start = max(start, lo - overlap)
                hit = self[seam_start : min(hi, lo + overlap)].rfind(sub)
                if hit >= 0:
                    return seam_start + hit
            hi = lo
        return -1


def _map(handle, size: int) -> _FileView:
    return _FileView(handle, size)


def parse_line(raw: bytes) -> Optional[dict]:
    """One JSONL record, or None when it is not a JSON object (torn, garbage)."""
    try:
        value = json.loads(raw.decode("utf-8", "replace"))
    except (ValueError, RecursionError):  # RecursionError: nested past ~1000 levels
        return None
    return value if isinstance(value, dict) else None


def line_at(buf, pos: int, end: int, floor: int = 0) -> tuple[int, int]:
    """(start, stop) of the line holding byte ``pos``, not looking before ``floor``; stop excludes
    the newline."""
    newline = buf.rfind(b"\n", floor, pos)
    start = newline + 1 if newline >= 0 else floor
    stop = buf.find(b"\n", pos, end)
    return start, (end if stop < 0 else stop)


def find_last(buf, needle: bytes, end: int, floor: int, accept) -> Optional[tuple[int, dict]]:
    """The last line in [floor, end) holding ``needle`` whose record passes ``accept``."""
    hi = end
    while True:
        hit = buf.rfind(needle, floor, hi)
        if hit < 0:
            return None
        start, stop = line_at(buf, hit, end, floor)
        record = parse_line(buf[start:stop]) if stop - start <= MAX_LINE_BYTES else None
        if record is not None and accept(record):
            return start, record
        if start <= floor:
            return None
        hi = start


def is_boundary(record: dict) -> bool:
    return record.get("type") == "system" and record.get("subtype") == "compact_boundary"


def is_summary_flag(record: dict) -> bool:
    return record.get("type") == "user" and record.get("isCompactSummary") is True


def is_summary_prefix(record: dict) -> bool:
    return record.get("type") == "user" and content_text(record).lstrip().startswith(SUMMARY_PREFIX)


def content_blocks(record: dict) -> list:
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    if isinstance(content, list):
        return [b if isinstance(b, dict) else {"type": "text", "text": str(b)} for b in content]
    return []


def content_text(record: dict) -> str:
    return "\n".join(str(b.get("text", "")) for b in content_blocks(record) if b.get("type") == "text")


def result_text(block: dict) -> str:
    content = block.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(b.get("text", "")) for b in content if isinstance(b, dict) and b.get("type") == "text")
    return ""


def iter_records(buf, start: int, end: int, block: int = 1 << 20) -> Iterator[tuple[int, Optional[dict]]]:
    """(offset, record or None) for each non-blank line in [start, end), split a block at a time
    (a line longer than a block is joined from its pieces once, not copied block by block; one
    longer than ``MAX_LINE_BYTES`` is dropped as it goes and yields None)."""
    pending: list[bytes] = []
    pending_at = pos = start
    pending_size, oversized = 0, False
    while pos < end:
        data = buf[pos : min(end, pos + block)]
        if not data:
            break  # a short read: the file is shorter than it was
        base, pos = pos, pos + len(data)
        first = data.find(b"\n")
        if first < 0:
            if not oversized:
                pending.append(data)
                pending_size += len(data)
                if pending_size > MAX_LINE_BYTES:
                    pending, oversized = [], True
            continue
        if oversized:
            yield pending_at, None
        else:
            pending.append(data[:first])
            yield from _records_of(pending_at, b"".join(pending))
        offset = base + first + 1
        lines = data[first + 1 :].split(b"\n")
        for line in lines[:-1]:
            yield from _records_of(offset, line)
            offset += len(line) + 1
        pending, pending_at = [lines[-1]], offset
        pending_size, oversized = len(lines[-1]), False
    if oversized:
        yield pending_at, None
    else:
        yield from _records_of(pending_at, b"".join(pending))


def _records_of(offset: int, line: bytes) -> Iterator[tuple[int, Optional[dict]]]:
    if line and not line.isspace():
        yield offset, parse_line(line)


def _read(path: str, buf, size: int, max_bytes: Optional[int], floor: int = 0) -> LiveTranscript:
    found = find_last(buf, BOUNDARY_NEEDLE, size, floor, is_boundary)
    detected_by = "boundary"
    if found is None:
        found = find_last(buf, SUMMARY_FLAG_NEEDLE, size, floor, is_summary_flag)
        detected_by = "isCompactSummary"
    if found is None:
        found = find_last(buf, SUMMARY_PREFIX_NEEDLE, size, floor, is_summary_prefix)
        detected_by = "prefix"
    live_offset = found[0] if found else floor
    boundary = found[1] if found and detected_by == "boundary" else None

    result = LiveTranscript(path=path, size=size, live_offset=live_offset, summary=None)
    parse_from = live_offset
    if found is None and floor > 0:  # no compaction in the part searched: the first line there is cut
        nl = buf.find(b"\n", floor, size)
        parse_from = size if nl < 0 else nl + 1
        result.truncated = True
    if max_bytes is not None and size - live_offset > max_bytes:
        nl = buf.find(b"\n", size - max_bytes, size)
        parse_from = size if nl < 0 else nl + 1
        result.truncated = True
    builder = _Builder(result)
    if found and detected_by != "boundary":
        result.summary = builder.summary_from(found[1], None, detected_by)
    for offset, record in iter_records(buf, parse_from, size):
        if record is None:
            result.bad_lines += 1
            continue
        builder.add(record, boundary)
    if boundary is not None and not result.truncated:
        builder.add_preserved(buf, live_offset, boundary)
    builder.finish()
    return result


class _Builder:
    def __init__(self, result: LiveTranscript):
        self.result = result
        self.by_message_id: dict[str, Message] = {}
        self.calls: dict[str, ToolCall] = {}
        self.anchor_index: Optional[int] = None
        # The lines chained to the boundary before its summary: CLI 2.1.332 writes attachments
        # (instructions, session_context, date) between the boundary and the summary message.
        self.before_summary: set = set()

    def summary_from(self, record: dict, boundary: Optional[dict], detected_by: str) -> CompactSummary:
        meta = (boundary or {}).get("compactMetadata") or {}
        return CompactSummary(
            text=content_text(record),
            trigger=meta.get("trigger"),
            pre_tokens=meta.get("preTokens"),
            boundary_uuid=(boundary or {}).get("uuid"),
            summary_uuid=record.get("uuid"),
            timestamp=(boundary or record).get("timestamp"),
            detected_by=detected_by,
            metadata=meta,
        )

    def add(self, record: dict, boundary: Optional[dict]) -> None:
        kind = record.get("type")
        if kind not in CHAIN_TYPES:
            self.result.skipped_lines += 1
            return
        self.result.session_id = record.get("sessionId") or self.result.session_id
        self.result.cwd = record.get("cwd") or self.result.cwd
        if is_boundary(record):
            if boundary is not None and record.get("uuid") == boundary.get("uuid"):
                self.before_summary = {boundary.get("uuid")}
            return
        if kind == "user" and (is_summary_flag(record) or is_summary_prefix(record)):
            if boundary is not None and record.get("parentUuid") in self.before_summary:
                self.result.summary = self.summary_from(record, boundary, "boundary")
            elif self.result.summary is None or self.result.summary.summary_uuid != record.get("uuid"):
                # A summary without its boundary line: the live part restarts here.
                self._restart()
                how = "isCompactSummary" if is_summary_flag(record) else "prefix"
                self.result.summary = self.summary_from(record, None, how)
            self.anchor_index = len(self.result.messages)
            self.before_summary = set()
        elif self.before_summary and record.get("parentUuid") in self.before_summary:
            self.before_summary.add(record.get("uuid"))
        message = self._message(record)
        if message is None:
            return
        if kind == "assistant":
            self._assistant_blocks(message, record)
        elif kind == "user":
            self._user_blocks(message, record)

    def _restart(self) -> None:
        r = self.result
        r.messages, r.tool_calls, r.commits, r.files_edited, r.user_prompts = [], [], [], [], []
        self.by_message_id, self.calls = {}, {}

    def _message(self, record: dict) -> Optional[Message]:
        blocks = content_blocks(record)
        message = record.get("message")
        message_id = message.get("id") if isinstance(message, dict) and record.get("type") == "assistant" else None
        if message_id and message_id in self.by_message_id:
            known = self.by_message_id[message_id]
            seen = {json.dumps(b, sort_keys=True) for b in known.content}
            new = [b for b in blocks if json.dumps(b, sort_keys=True) not in seen]
            known.content.extend(new)
            return Message(known.type, known.uuid, known.parent_uuid, known.timestamp, new, record, message_id)
        item = Message(
            type=record.get("type", ""),
            uuid=record.get("uuid"),
            parent_uuid=record.get("parentUuid"),
            timestamp=record.get("timestamp"),
            content=list(blocks),
            raw=record,
            message_id=message_id,
        )
        if message_id:
            self.by_message_id[message_id] = item
        self.result.messages.append(item)
        return item

    def _assistant_blocks(self, message: Message, record: dict) -> None:
        for block in message.content:
            if block.get("type") != "tool_use" or not isinstance(block.get("id"), str):
                continue
            tool_input = block.get("input") if isinstance(block.get("input"), dict) else {}
            call = ToolCall(
                id=block["id"],
                name=str(block.get("name", "")),
                input=tool_input,
                assistant_uuid=record.get("uuid"),
                timestamp=record.get("timestamp"),
            )
            if call.name == "Bash":
                call.command = str(tool_input.get("command", ""))
            self.calls[call.id] = call
            self.result.tool_calls.append(call)

    def _user_blocks(self, message: Message, record: dict) -> None:
        results = [b for b in message.content if b.get("type") == "tool_result"]
        for block in results:
            call = self.calls.get(block.get("tool_use_id"))
            if call is None or call.result_text is not None:
                continue
            call.result_text = result_text(block)
            call.is_error = block.get("is_error") is True
            call.result_uuid = record.get("uuid")
            call.tool_use_result = record.get("toolUseResult")
            if call.name == "Bash":
                call.exit_code = bash_exit_code(call)
        if results or record.get("isMeta") or record.get("isCompactSummary"):
            return
        text = message.text
        if text and not text.lstrip().startswith(_COMMAND_WRAPPERS) and not is_summary_prefix(record):
            self.result.user_prompts.append(
                UserPrompt(text=text, uuid=record.get("uuid"), timestamp=record.get("timestamp"),
                           prompt_id=record.get("promptId"))
            )

    def add_preserved(self, buf, boundary_offset: int, boundary: dict) -> None:
        """Messages kept verbatim from before the boundary; the CLI relinks them after the summary."""
        uuids = preserved_uuids(boundary, lambda uuid: _record_by_uuid(buf, uuid, boundary_offset))
        found = []
        for uuid in uuids:
            record = _record_by_uuid(buf, uuid, boundary_offset)
            if record is not None and record.get("type") in CHAIN_TYPES:
                item = Message(record.get("type", ""), uuid, record.get("parentUuid"), record.get("timestamp"),
                               content_blocks(record), record, None, preserved=True)
                found.append(item)
        at = 0 if self.anchor_index is None else self.anchor_index + 1
        self.result.messages[at:at] = found

    def finish(self) -> None:
        edited: dict[str, None] = {}
        for call in self.result.tool_calls:
            key = EDIT_TOOLS.get(call.name)
            path = call.input.get(key) if key else None
            if isinstance(path, str) and path and not call.is_error:
                edited[path] = None
            if call.name == "Bash" and call.command and _GIT_COMMIT.search(call.command):
                self.result.commits.append(commit_of(call))
        self.result.files_edited = list(edited)


def preserved_uuids(boundary: dict, lookup) -> list[str]:
    """The uuids a boundary keeps from before itself, in order (a listed set, else a parentUuid walk)."""
    meta = boundary.get("compactMetadata") or {}
    listed = (meta.get("preservedMessages") or {}).get("uuids")
    if isinstance(listed, list) and listed:
        return [u for u in listed if isinstance(u, str)]
    segment = meta.get("preservedSegment") or {}
    head, tail = segment.get("headUuid"), segment.get("tailUuid")
    if not isinstance(head, str) or not isinstance(tail, str):
        return []
    walked, uuid = [], tail
    while isinstance(uuid, str) and len(walked) < _MAX_WALK and uuid not in walked:
        walked.append(uuid)
        if uuid == head:
            return walked[::-1]
        record = lookup(uuid)
        uuid = record.get("parentUuid") if record else None
    return []


def _record_by_uuid(buf, uuid: str, end: int) -> Optional[dict]:
    found = find_last(buf, f'"{uuid}"'.encode(), end, 0, lambda r: r.get("uuid") == uuid)
    return found[1] if found else None


def bash_exit_code(call: ToolCall) -> Optional[int]:
    text = call.result_text or ""
    match = _EXIT_CODE.match(text)
    if match:
        return int(match.group(1))
    detail = call.tool_use_result if isinstance(call.tool_use_result, dict) else {}
    if call.is_error or detail.get("interrupted") or not isinstance(call.tool_use_result, dict):
        return None
    return 0  # the CLI reports a non-zero exit as an error result starting "Exit code N"


def commit_of(call: ToolCall) -> Commit:
    output = call.result_text
    match = _COMMIT_SHA.search(output or "") if call.exit_code == 0 else None
    sha = (match.group(1) or match.group(2)) if match else None
    return Commit(command=call.command or "", sha=sha, ok=call.exit_code == 0, tool_use_id=call.id,
                  timestamp=call.timestamp, output=output)
