"""Every compaction of a project's sessions, from the transcripts and from the state directory.

A transcript records each compaction as a ``compact_boundary`` line followed by the
``isCompactSummary`` user message (on CLI 2.1.332 after a few attachments), so sessions compacted
before cc-hooks was installed are covered. PostCompact's capture (the summary as the hook received
it, with its audit) and SessionStart's report (as injected) are matched to the compaction they
belong to: a capture by its text, else by time; a report by time (it follows its compaction).
"""

from __future__ import annotations

import os
import re
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterable, Optional

BOUNDARY = b'"compact_boundary"'
SUMMARY_FLAG = b'"isCompactSummary"'
SLACK_SECONDS = 5.0  # a capture or report is written just after its boundary (same machine clock)
_SUMMARY_MARK = re.compile(r"^Summary:[ \t]*\n", re.MULTILINE)
_TRAILERS = (
    "\nIf you need specific details from before compaction",
    "\nContinue the conversation from where it left off",
    "\nPlease continue the conversation from where we left off",
)
_REMINDER = re.compile(r"<system-reminder>.*?</system-reminder>\s*", re.DOTALL)


@dataclass
class Compaction:
    session_id: str
    number: int = 0  # 1-based, in the order of the session
    epoch: Optional[float] = None
    trigger: Optional[str] = None
    pre_tokens: Optional[int] = None
    post_tokens: Optional[int] = None
    boundary_uuid: Optional[str] = None
    summary_uuid: Optional[str] = None
    transcript_summary: Optional[str] = None  # the isCompactSummary message, as the model read it
    captured_summary: Optional[str] = None  # what PostCompact received
    capture_path: Optional[str] = None
    audit: Optional[dict] = None  # PostCompact's audit, when it ran
    report: Optional[dict] = None  # {"report", "system_message", "path", "epoch"} from SessionStart
    transcript: Optional[str] = None

    @property
    def time(self) -> str:
        if self.epoch is None:
            return ""
        return datetime.fromtimestamp(self.epoch, timezone.utc).strftime("%Y-%m-%d %H:%M:%SZ")

    @property
    def summary(self) -> str:
        """The summary's own text: the capture when there is one (the audit's lines refer to it)."""
        if self.captured_summary is not None:
            return visible_summary(self.captured_summary)
        return summary_body(self.transcript_summary or "")

    @property
    def sources(self) -> list[str]:
        return [name for name, present in (("transcript", self.transcript_summary is not None or self.boundary_uuid),
                                           ("capture", self.capture_path), ("report", self.report)) if present]

    def as_dict(self) -> dict:
        data = asdict(self)
        data.update(time=self.time, summary=self.summary, summary_chars=len(self.summary), sources=self.sources)
        return data


@dataclass
class Session:
    session_id: str
    transcript: Optional[str] = None
    cwd: Optional[str] = None
    compactions: list = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"session_id": self.session_id, "transcript": self.transcript, "cwd": self.cwd,
                "compactions": [c.as_dict() for c in self.compactions]}


def visible_summary(text: str) -> str:
    """A captured summary as the audit read it (``post_compact.visible_summary``)."""
    from cc_hooks.events.post_compact import visible_summary as visible

    return visible(text)


def summary_body(text: str) -> str:
    """The summarizer's text inside the CLI's wrapper message (prefix, reminders, resume instructions)."""
    from cc_hooks.transcript.reader import SUMMARY_PREFIX

    body = text
    if body.lstrip().startswith(SUMMARY_PREFIX):
        mark = _SUMMARY_MARK.search(body)
        body = body[mark.end():] if mark else body.split("\n\n", 1)[-1]
    cuts = [body.find(t) for t in _TRAILERS if body.find(t) >= 0]
    if cuts:
        body = body[:min(cuts)]
    return visible_summary(_REMINDER.sub("", body)).strip()


def iso_epoch(value) -> Optional[float]:
    if not isinstance(value, str) or not value:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


def transcript_compactions(path: Path) -> tuple[list[Compaction], Optional[str], Optional[str]]:
    """(compactions, session id, cwd) recorded in one transcript, oldest first; streamed, and only
    the lines that hold a boundary or summary marker are parsed."""
    from cc_hooks.transcript.lines import file_chunks, iter_raw_lines
    from cc_hooks.transcript.reader import content_text, is_boundary, is_summary_flag, parse_line

    found: list[Compaction] = []
    session_id, cwd = path.stem, None
    with open(path, "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        for _, raw in iter_raw_lines(file_chunks(handle, size)):
            if cwd is None and b'"cwd"' in raw:
                record = parse_line(raw)
                cwd = record.get("cwd") if record and isinstance(record.get("cwd"), str) else None
            if BOUNDARY not in raw and SUMMARY_FLAG not in raw:
                continue
            record = parse_line(raw)
            if record is None:
                continue
            if isinstance(record.get("sessionId"), str):
                session_id = record["sessionId"]
            if is_boundary(record):
                meta = record.get("compactMetadata") if isinstance(record.get("compactMetadata"), dict) else {}
                found.append(Compaction(
                    session_id, epoch=iso_epoch(record.get("timestamp")), trigger=_str(meta.get("trigger")),
                    pre_tokens=_int(meta.get("preTokens")), post_tokens=_int(meta.get("postTokens")),
                    boundary_uuid=_str(record.get("uuid")), transcript=str(path)))
            elif is_summary_flag(record):
                if not found or found[-1].transcript_summary is not None:  # a summary without its boundary
                    found.append(Compaction(session_id, epoch=iso_epoch(record.get("timestamp")), transcript=str(path)))
                found[-1].transcript_summary = content_text(record)
                found[-1].summary_uuid = _str(record.get("uuid"))
    for item in found:
        item.session_id = session_id
    return found, session_id, cwd


def _str(value) -> Optional[str]:
    return value if isinstance(value, str) else None


def _int(value) -> Optional[int]:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def merge(compactions: list[Compaction], captures: Iterable, reports: Iterable) -> list[Compaction]:
    """Attach captures and reports ((epoch, path, data) each) to the compactions; number them."""
    items = sorted(compactions, key=lambda c: (c.epoch is None, c.epoch or 0))
    for when, path, data in captures:
        target = _by_text(items, data["summary"]) or _by_time(items, when, lambda c: c.capture_path is None)
        if target is None:
            target = Compaction(str(data.get("session_id") or ""), epoch=when, trigger=_str(data.get("trigger")))
            items.append(target)
            items.sort(key=lambda c: (c.epoch is None, c.epoch or 0))
        target.captured_summary, target.capture_path = data["summary"], path
        target.audit = data.get("audit") if isinstance(data.get("audit"), dict) else None
        target.trigger = target.trigger or _str(data.get("trigger"))
    for when, path, data in reports:
        if data.get("source") not in (None, "compact"):
            continue
        target = _by_time(items, when, lambda c: c.report is None)
        if target is not None:
            target.report = {"report": data["report"], "system_message": data.get("system_message"),
                             "path": path, "epoch": when, "cut": bool(data.get("cut"))}
    for number, item in enumerate(items, start=1):
        item.number = number
    return items


def _by_text(items: list[Compaction], captured: str) -> Optional[Compaction]:
    text = visible_summary(captured).strip()
    if not text:
        return None
    return next((c for c in items if c.capture_path is None and c.transcript_summary and text in c.transcript_summary),
                None)


def _by_time(items: list[Compaction], when: float, free) -> Optional[Compaction]:
    """The last compaction at or before ``when`` (within the slack), if nothing of its kind is attached yet."""
    dated = [c for c in items if c.epoch is not None and c.epoch <= when + SLACK_SECONDS]
    if not dated:
        return None
    last = dated[-1]
    return last if free(last) else None


def project_sessions(root: Path, transcripts: Optional[list[Path]] = None) -> list[Session]:
    """Every session of the project (its transcripts, or ``transcripts``) and of its state directory
    that has a compaction, newest last."""
    from cc_hooks.state import state_dir
    from cc_hooks.summaries import store as kept
    from cc_hooks.transcript import store

    if transcripts is None:
        transcripts = [p for folder in store.project_folders(root) for p in store.session_files(folder)]
    directory = state_dir(root)
    sessions: dict[str, Session] = {}
    for path in transcripts:
        found, session_id, cwd = transcript_compactions(path)
        sessions[session_id] = Session(session_id, str(path), cwd, found)
    if directory is not None:
        for key in kept.state_sessions(directory):
            sessions.setdefault(key, Session(key))
    for session in sessions.values():
        caps = kept.captures(directory, session.session_id) if directory is not None else []
        reps = kept.reports(directory, session.session_id) if directory is not None else []
        session.compactions = merge(session.compactions, caps, reps)
        for item in session.compactions:
            item.session_id, item.transcript = session.session_id, session.transcript
    found = [s for s in sessions.values() if s.compactions]
    return sorted(found, key=lambda s: max((c.epoch or 0) for c in s.compactions))


def pick_session(sessions: list[Session], wanted: Optional[str]) -> Session:
    """The session named by ``wanted`` (its id or a unique prefix of it), else the newest; ValueError."""
    if not sessions:
        raise ValueError("no compaction found in this project's sessions (transcripts or captures)")
    if not wanted:
        return sessions[-1]
    exact = [s for s in sessions if s.session_id == wanted]
    matches = exact or [s for s in sessions if s.session_id.startswith(wanted)]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise ValueError(f"no session {wanted!r} with a compaction in this project")
    raise ValueError(f"{wanted!r} names {len(matches)} sessions: give more of the id")


def pick_compaction(session: Session, number: Optional[int]) -> Compaction:
    if number is None:
        return session.compactions[-1]
    if not 1 <= number <= len(session.compactions):
        raise ValueError(f"session {session.session_id} has compactions 1..{len(session.compactions)}, not {number}")
    return session.compactions[number - 1]
