"""One streaming pass over every line of a transcript, and what a resume still needs.

What CLI 2.1.197 does on ``--resume`` (read from its loader): it keeps the chain records (user,
assistant, system, attachment, progress with a uuid), relinks the messages a boundary preserved
(``compactMetadata.preservedMessages.uuids`` in order, else a ``parentUuid`` walk from
``preservedSegment.tailUuid`` to ``headUuid``) after the summary, walks ``parentUuid`` back from
the newest leaf, and takes session metadata (mode, titles, tags, …) from metadata lines. Files over
5 MB are read from the last boundary that has no preserved segment, plus the last
``attribution-snapshot`` line. So before the last boundary a resume needs: the boundaries, what they
preserve or point at, the latest line of each "latest wins" metadata type, and every line we cannot
classify (kept, to be safe).

CLI 2.1.332 adds line types; its loader says what each is to it (a table of
"transcript" / "boundary-cleared" / "last-wins" / "accumulate" per type):
``api-request``, ``api-request-blob``, ``api-request-shape`` (and ``api-request-resumed``) log the
requests it sent, deduplicated by hash, and are cleared at every boundary (after a boundary it writes
the shape and blobs again); ``cost-state``, ``atis-latch`` and ``tools-used`` are "last wins".
Resume equivalence on both pinned CLIs (tests/e2e/test_transcript_archive.py) confirms that a resume
needs none of the first before the last boundary and only the newest of the others.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import BinaryIO, Iterable, Iterator, Optional

from cc_hooks.transcript.reader import is_boundary, parse_line, preserved_uuids

CHUNK = 1 << 20
CHAIN_TYPES = frozenset({"user", "assistant", "system", "attachment", "progress"})
# Metadata where only the newest line matters to the CLI (it reads them as "last one wins").
LATEST_ONLY = frozenset({
    "last-prompt", "mode", "permission-mode", "custom-title", "ai-title", "tag", "agent-name",
    "agent-color", "agent-setting", "worktree-state", "queue-operation", "summary",
    "attribution-snapshot", "cost-state", "atis-latch", "tools-used",
})
# Request logs the CLI itself clears at each boundary: nothing after a boundary refers to one before it.
BOUNDARY_CLEARED = frozenset({"api-request", "api-request-blob", "api-request-shape", "api-request-resumed"})
METADATA_TYPES = LATEST_ONLY - {"file-history-snapshot"}
CATEGORIES = ("file-history-snapshot", "progress", "tool_results", "thinking", "messages", "attachments",
              "api_requests", "metadata", "other")
UNPARSED = "(unparsed)"


def resume_rule(kind: Optional[str]) -> str:
    """What a resume does with lines of this type before the last boundary (the ``stats`` legend)."""
    if kind is None or kind == UNPARSED:
        return "kept (does not parse)"
    if kind in CHAIN_TYPES:
        return "chain: kept if a boundary preserves it"
    if kind == "file-history-snapshot":
        return "kept for a preserved message, and the newest"
    if kind in LATEST_ONLY:
        return "latest wins: the newest is kept"
    if kind in BOUNDARY_CLEARED:
        return "request log, cleared at a boundary: archived"
    return "unknown type: kept"


@dataclass(slots=True)
class LineInfo:
    start: int
    end: int  # exclusive, newline included
    type: Optional[str]  # None: did not parse
    uuid: Optional[str] = None
    parent: Optional[str] = None
    message_id: Optional[str] = None  # file-history-snapshot: the message it belongs to
    boundary: Optional[dict] = None  # the record, for compact boundaries
    category: str = "other"

    @property
    def size(self) -> int:
        return self.end - self.start


@dataclass
class KeepPlan:
    size: int
    ranges: list  # [(start, end)] of the original to keep, merged, ascending
    last_boundary: Optional[int]  # offset of the last boundary line
    compactions: int
    kept_before_boundary: int  # bytes before the last boundary a resume still needs
    categories: dict = field(default_factory=dict)  # category -> bytes (whole file)
    types: dict = field(default_factory=dict)  # line type -> {"lines", "bytes", "archivable"}

    @property
    def kept_size(self) -> int:
        return sum(end - start for start, end in self.ranges)

    @property
    def before_boundary(self) -> int:
        return self.last_boundary or 0

    @property
    def saved(self) -> int:
        return self.size - self.kept_size


def iter_raw_lines(chunks: Iterable[bytes]) -> Iterator[tuple[int, bytes]]:
    """(offset, line with its newline) from a stream of byte chunks; a last unterminated line too."""
    offset, carry = 0, b""
    for chunk in chunks:
        data = carry + chunk if carry else chunk
        pos = 0
        while True:
            nl = data.find(b"\n", pos)
            if nl < 0:
                break
            yield offset, data[pos:nl + 1]
            offset += nl + 1 - pos
            pos = nl + 1
        carry = data[pos:]
    if carry:
        yield offset, carry


def file_chunks(handle: BinaryIO, limit: int, start: int = 0) -> Iterator[bytes]:
    handle.seek(start)
    left = limit - start
    while left > 0:
        chunk = handle.read(min(CHUNK, left))
        if not chunk:
            return
        left -= len(chunk)
        yield chunk


def classify(offset: int, raw: bytes) -> LineInfo:
    record = parse_line(raw) if raw.strip() else None
    info = LineInfo(offset, offset + len(raw), None if record is None else str(record.get("type")))
    if record is None:
        return info
    kind = info.type
    info.uuid = record.get("uuid") if isinstance(record.get("uuid"), str) else None
    info.parent = record.get("parentUuid") if isinstance(record.get("parentUuid"), str) else None
    if is_boundary(record):
        info.boundary = record
    if kind == "file-history-snapshot":
        info.message_id = record.get("messageId")
        info.category = kind
    elif kind == "progress":
        info.category = kind
    elif kind == "attachment":
        info.category = "attachments"
    elif kind in BOUNDARY_CLEARED:
        info.category = "api_requests"
    elif kind in METADATA_TYPES:
        info.category = "metadata"
    elif kind in ("user", "assistant", "system"):
        info.category = "messages"
    if kind in ("user", "assistant"):
        content = (record.get("message") or {}).get("content") if isinstance(record.get("message"), dict) else None
        types = {b.get("type") for b in content if isinstance(b, dict)} if isinstance(content, list) else set()
        if "tool_result" in types:
            info.category = "tool_results"
        elif "thinking" in types or "redacted_thinking" in types:
            info.category = "thinking"
    return info


def scan(chunks: Iterable[bytes], digest: Optional["hashlib._Hash"] = None) -> list[LineInfo]:
    """Classify every line; feed every byte to ``digest`` on the way."""
    infos = []
    for offset, raw in iter_raw_lines(_tee(chunks, digest)):
        infos.append(classify(offset, raw))
    return infos


def _tee(chunks: Iterable[bytes], digest) -> Iterator[bytes]:
    for chunk in chunks:
        if digest is not None:
            digest.update(chunk)
        yield chunk


def plan_keep(infos: list[LineInfo], size: int) -> KeepPlan:
    """Which lines the live file must keep for the CLI to resume exactly as before."""
    categories = dict.fromkeys(CATEGORIES, 0)
    for info in infos:
        categories[info.category] += info.size
    boundaries = [i for i, info in enumerate(infos) if info.boundary is not None]
    if not boundaries:
        return KeepPlan(size, [(0, size)] if size else [], None, 0, 0, categories, _types(infos, None))
    last = boundaries[-1]
    needed = _referenced_uuids(infos, boundaries)
    keep = [False] * len(infos)
    latest: dict[str, int] = {}
    for i, info in enumerate(infos):
        if info.type in LATEST_ONLY or info.type == "file-history-snapshot":
            latest[info.type] = i
    for i, info in enumerate(infos):
        keep[i] = i >= last or _needed_before(info, needed)
    for i in latest.values():
        keep[i] = True
    ranges = _merge((info.start, info.end) for i, info in enumerate(infos) if keep[i])
    before = infos[last].start
    kept_before = sum(min(end, before) - start for start, end in ranges if start < before)
    return KeepPlan(size, ranges, before, len(boundaries), kept_before, categories, _types(infos, keep))


def _types(infos: list[LineInfo], keep: Optional[list]) -> dict:
    """Lines, bytes and archivable bytes of each line type (``keep`` None: nothing is archivable)."""
    found: dict = {}
    for i, info in enumerate(infos):
        entry = found.setdefault(info.type or UNPARSED, {"lines": 0, "bytes": 0, "archivable": 0})
        entry["lines"] += 1
        entry["bytes"] += info.size
        if keep is not None and not keep[i]:
            entry["archivable"] += info.size
    return dict(sorted(found.items(), key=lambda item: -item[1]["bytes"]))


def _needed_before(info: LineInfo, needed: set) -> bool:
    if info.type is None or info.boundary is not None:
        return True  # unparseable lines and every boundary stay
    if info.type in CHAIN_TYPES:
        return info.uuid in needed
    if info.type == "file-history-snapshot":
        return info.message_id in needed
    if info.type in BOUNDARY_CLEARED:
        return False
    return info.type not in LATEST_ONLY  # a type we cannot classify: keep it


def _referenced_uuids(infos: list[LineInfo], boundaries: list[int]) -> set:
    by_uuid = {info.uuid: info for info in infos if info.uuid}

    def lookup(uuid: str) -> Optional[dict]:
        info = by_uuid.get(uuid)
        return {"parentUuid": info.parent} if info else None

    needed: set = set()
    for i in boundaries:
        record = infos[i].boundary
        meta = record.get("compactMetadata") or {}
        needed.add(record.get("logicalParentUuid"))
        messages = meta.get("preservedMessages") or {}
        segment = meta.get("preservedSegment") or {}
        for key in ("uuids", "allUuids"):
            values = messages.get(key)
            if isinstance(values, list):
                needed.update(v for v in values if isinstance(v, str))
        # Not the anchors: the CLI only uses an anchor uuid as the new parent of the preserved head,
        # and an anchor (the summary) always comes after its own boundary.
        needed.update(segment.get(k) for k in ("headUuid", "tailUuid"))
        walk_only = {"compactMetadata": {"preservedSegment": segment}}
        needed.update(preserved_uuids(walk_only, lookup))
    needed.discard(None)
    return needed


def _merge(ranges: Iterable[tuple[int, int]]) -> list:
    merged: list = []
    for start, end in ranges:
        if merged and merged[-1][1] == start:
            merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged


def plan_file(path: str, size: int) -> tuple[KeepPlan, str]:
    """The keep plan of the first ``size`` bytes of ``path`` and their sha256."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        infos = scan(file_chunks(handle, size), digest)
    return plan_keep(infos, size), digest.hexdigest()
