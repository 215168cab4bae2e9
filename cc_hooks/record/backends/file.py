"""The ``file`` dashboard backend: a tracked ``next_steps.md`` (DESIGN.md, "The record").

```
## CURRENT STATE — 2026-11-29
Resume point: <one sentence>
- <claim>

## QUEUED
- 2026-11-28 — <item>
- DONE 2026-11-27 — <item>
```

Reading never raises on a malformed file: findings say what is wrong. Writes
are minimal: the lines an operation changes are rewritten, every other byte
(line ends included, CRLF or LF) is kept, and the file is replaced atomically,
through no symlink (``fsutil.write_repo_bytes``).
"""

from __future__ import annotations

import datetime
import re
from pathlib import Path
from typing import TYPE_CHECKING, Optional, Sequence, Union

from cc_hooks.fsutil import RefusedFile, write_repo_bytes
from cc_hooks.record.dashboard import DashboardError, safe_relative_path

if TYPE_CHECKING:  # pragma: no cover
    from cc_hooks.record.dashboard_read import DashboardRead, QueueItem, StateBlock

NAME = "file"
_STATE_RE = re.compile(r"^current\s+state\b\s*(.*)$", re.IGNORECASE)
_QUEUED_RE = re.compile(r"^queued\b", re.IGNORECASE)
_STATE_HEADING_RE = re.compile(r"^(\s{0,3}#{1,6}[ \t]+current[ \t]+state)\b.*$", re.IGNORECASE)
_DATE_LEAD_RE = re.compile(r"^[\s—–:(\[-]*(.*?)[\s#)\]]*$")
_RESUME_RE = re.compile(r"^(\s*(?:[-*+]\s+)?(?:\*\*|__)?resume\s+point\b(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*)(.*)$", re.IGNORECASE)
_ITEM_RE = re.compile(r"^(?:(DONE)(?=[\s:]|$)[\s:]*(?:(?:—|–|--)\s+)?)?(?:(\d{4}-\d{1,2}-\d{1,2})\b\s*(?:—|–|--|-|:)?\s*)?(.*)$", re.DOTALL)
_BULLET_PREFIX_RE = re.compile(r"^(\s*[-*+][ \t]+)")


def _markdown():
    """``cc_hooks.record.markdown``, imported when a dashboard is parsed (a remembered one is not)."""
    from cc_hooks.record import markdown

    return markdown


def today() -> str:
    return datetime.date.today().isoformat()


class _Lines:
    """The file as raw lines (line ends kept) plus the cleaned lines the parser sees."""

    def __init__(self, data: bytes):
        text = data.decode("utf-8", "surrogateescape")
        parts = text.split("\n")
        self.raw = [p + "\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
        self.newline = "\r\n" if self.raw and self.raw[0].endswith("\r\n") else "\n"
        # One cleaned line per raw line (a stray CR must not split a line).
        self.clean = [line.rstrip("\n").rstrip("\r").replace("\r", " ") for line in self.raw]
        self.doc = _markdown().Document.parse("\n".join(self.clean))

    def data(self) -> bytes:
        return "".join(self.raw).encode("utf-8", "surrogateescape")

    def insert(self, index: int, new: Sequence[str]) -> None:
        """Insert cleaned ``new`` lines before 0-based ``index``."""
        if index > 0 and index == len(self.raw) and not self.raw[-1].endswith("\n"):
            self.raw[-1] += self.newline  # the old last line had no line end
        self.raw[index:index] = [line + self.newline for line in new]


def parse(data: Union[bytes, str], locator: str = "next_steps.md") -> DashboardRead:
    """Parse a dashboard's content (never raises)."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    return parse_lines(_Lines(data), locator)


def _parse_into(lines: _Lines, result: DashboardRead) -> None:
    from cc_hooks.record.findings import finding

    doc, file = lines.doc, result.locator
    blocks = [_state_block(lines, h) for h in doc.headings if _STATE_RE.match(h.text)]
    for block in blocks:
        result.findings.extend(_date_findings(file, block))
    if not blocks:
        result.findings.append(finding(file, None, "dashboard-no-state", "no `## CURRENT STATE — YYYY-MM-DD` block"))
    else:
        if len(blocks) > 1:
            lines_list = ", ".join(str(b.line) for b in blocks)
            result.findings.append(
                finding(file, blocks[1].line, "dashboard-multiple-states", f"{len(blocks)} CURRENT STATE blocks (lines {lines_list}); keep exactly one, rewrite it in place")
            )
        result.state = max(blocks, key=lambda b: (b.date or "", -b.line))
        if result.state.resume_point is None and result.state.claims:  # an empty block: nothing in flight yet
            result.findings.append(finding(file, result.state.line, "dashboard-no-resume-point", "the CURRENT STATE block has no `Resume point:` line", severity="warning"))
    queued = [h for h in doc.headings if _QUEUED_RE.match(h.text)]
    if len(queued) > 1:
        result.findings.append(finding(file, queued[1].line, "dashboard-multiple-queues", "more than one QUEUED section", severity="warning"))
    for heading in queued:
        result.queued.extend(_queue_items(lines, heading))
    for item in result.queued:
        if item.date is None:
            result.findings.append(finding(file, item.line, "queue-item-undated", "queued item without a `YYYY-MM-DD —` date", severity="warning"))
        elif not _markdown().is_iso_date(item.date):
            result.findings.append(finding(file, item.line, "queue-item-bad-date", f"queued item date {item.date!r} is not a real YYYY-MM-DD date", severity="warning"))


def _section_end(lines: _Lines, heading) -> int:
    """1-based last line of the section a heading opens."""
    later = [h.line for h in lines.doc.headings if h.line > heading.line and h.level <= heading.level]
    return (later[0] - 1) if later else len(lines.clean)


def _content_end(lines: _Lines, start: int, end: int) -> int:
    """The last non-blank line in start..end (1-based), or start if all blank."""
    while end > start and not lines.clean[end - 1].strip():
        end -= 1
    return end


def _bullets(lines: _Lines, start: int, end: int, top_level_only: bool):
    """(line, text) per list item in start..end, continuation lines joined."""
    items: list[list] = []
    match_bullet = _markdown().match_bullet
    for number in range(start, end + 1):
        if number in lines.doc.hidden:
            continue
        line = lines.clean[number - 1]
        bullet = match_bullet(line)
        if bullet and (not top_level_only or bullet[0] == 0):
            items.append([number, bullet[1]])
        elif line.strip() and items and items[-1][1] is not None and (line[:1].isspace() or bullet):
            items[-1][1] += " " + line.strip()
        elif not line.strip():
            continue
        else:
            items.append([number, None])  # plain text ends the previous item
    return [(n, t) for n, t in items if t is not None]


def _state_block(lines: _Lines, heading) -> StateBlock:
    from cc_hooks.record.dashboard_read import Claim, StateBlock

    end = _section_end(lines, heading)
    date_text = _DATE_LEAD_RE.match(_STATE_RE.match(heading.text).group(1)).group(1)
    date = date_text[:10] if len(date_text) >= 10 and _markdown().is_iso_date(date_text[:10]) and not date_text[10:11].isdigit() else None
    resume, claims = None, []
    for number in range(heading.line + 1, end + 1):
        if number in lines.doc.hidden:
            continue
        match = _RESUME_RE.match(lines.clean[number - 1])
        if match and match.group(2).strip():
            resume = Claim(number, match.group(2).strip(), "resume")
            claims.append(resume)
            break
    for number, text in _bullets(lines, heading.line + 1, end, top_level_only=False):
        if resume is not None and number == resume.line:
            continue
        claims.append(Claim(number, text, "bullet"))
    claims.sort(key=lambda c: (c.kind != "resume", c.line))
    return StateBlock(heading.line, end, date, date_text, resume, claims)


def _date_findings(file: str, block: StateBlock) -> list:
    from cc_hooks.record.findings import finding

    if block.date is not None:
        return []
    if not block.date_text:
        return [finding(file, block.line, "dashboard-undated", "the CURRENT STATE heading has no date (`## CURRENT STATE — YYYY-MM-DD`)")]
    return [finding(file, block.line, "dashboard-bad-date", f"CURRENT STATE date {block.date_text!r} is not a YYYY-MM-DD date")]


def _queue_items(lines: _Lines, heading) -> list[QueueItem]:
    from cc_hooks.record.dashboard_read import QueueItem

    items = []
    for number, text in _bullets(lines, heading.line + 1, _section_end(lines, heading), top_level_only=True):
        match = _ITEM_RE.match(text)
        done, date, rest = bool(match.group(1)), match.group(2), match.group(3).strip()
        items.append(QueueItem(number, date, rest, done))
    return items


class Backend:
    """``Dashboard: file <path>``; the path is relative to the repository root."""

    name = NAME

    def __init__(self, root: Path, locator: str):
        self.root = Path(root)
        self.locator = locator or "next_steps.md"

    @property
    def path(self) -> Path:
        """The file; DashboardError when the locator, or a symlink on the way, leaves the repo."""
        import os

        path = self.root / safe_relative_path(self.locator)
        root = os.path.realpath(self.root)
        real = os.path.realpath(path)
        if os.path.commonpath([root, real]) != root:
            raise DashboardError(f"dashboard path {self.locator!r} resolves outside the repository (symlink to {real})")
        return path

    def _load(self) -> Optional[_Lines]:
        from cc_hooks.fsutil import read_repo_bytes

        try:
            return _Lines(read_repo_bytes(self.path, self.root))
        except FileNotFoundError:
            return None

    def read(self) -> DashboardRead:
        data, failed = self.read_bytes()
        return failed if failed is not None else parse(data, self.locator)

    def read_bytes(self) -> tuple[bytes, Optional[DashboardRead]]:
        """(the file's bytes, None), or (b"", what ``read`` says when there are none: the file
        is missing, unreadable, or its path leaves the repository)."""
        from cc_hooks.fsutil import read_repo_bytes

        try:
            return read_repo_bytes(self.path, self.root), None
        except FileNotFoundError:
            rule, message = "dashboard-missing", "the dashboard file does not exist"
        except DashboardError as exc:
            rule, message = "dashboard-bad-path", str(exc)
        except OSError as exc:
            rule, message = "dashboard-unreadable", f"cannot read: {exc}"
        from cc_hooks.record.dashboard_read import DashboardRead
        from cc_hooks.record.findings import finding

        return b"", DashboardRead(NAME, self.locator, False, findings=[finding(self.locator, None, rule, message)])

    def _save(self, lines: _Lines) -> None:
        """Through no symlink at any level: ``next_steps.md -> .git/config`` resolves inside the
        repository, so it is read, but a write through it would rewrite git's configuration."""
        try:
            write_repo_bytes(self.root, self.path, lines.data())
        except RefusedFile as exc:
            raise DashboardError(str(exc)) from exc

    def _load_or_new(self) -> _Lines:
        lines = self._load()
        return lines if lines is not None else _Lines(b"# Next steps\n")

    def update(self, resume_point: str, claims: Sequence[str], date: Optional[str] = None) -> StateBlock:
        date = _checked_date(date)
        texts = [_one_line(resume_point, "resume point")] + [_one_line(_strip_bullet(c), "claim") for c in claims]
        lines = self._load_or_new()
        current = parse_lines(lines, self.locator).state
        if current is None:
            _insert_state(lines, date, texts)
        else:
            heading_raw = lines.clean[current.line - 1]
            prefix = _STATE_HEADING_RE.match(heading_raw).group(1)
            old_resume = current.resume_point
            resume_prefix = "Resume point: "
            if old_resume is not None:
                resume_prefix = _RESUME_RE.match(lines.clean[old_resume.line - 1]).group(1)
            body = [f"{resume_prefix}{texts[0]}"] + [f"- {c}" for c in texts[1:]]
            last = _content_end(lines, current.line, current.end_line)
            old_heading = lines.raw[current.line - 1]
            ending = old_heading[len(old_heading.rstrip("\r\n")):] or lines.newline
            lines.raw[current.line - 1] = f"{prefix} — {date}{ending}"
            del lines.raw[current.line:last]
            lines.insert(current.line, body)
        self._save(lines)
        return self.read().state

    def queue(self, text: str, date: Optional[str] = None) -> QueueItem:
        date = _checked_date(date)
        text = _one_line(_strip_bullet(text), "item")
        lines = self._load_or_new()
        queued = [h for h in lines.doc.headings if _QUEUED_RE.match(h.text)]
        entry = f"- {date} — {text}"
        if queued:
            heading = queued[0]
            index = _content_end(lines, heading.line, _section_end(lines, heading))
            lines.insert(index, [entry])
            number = index + 1
        else:
            index = len(lines.raw)
            block = ([""] if lines.clean and lines.clean[-1].strip() else []) + ["## QUEUED", entry]
            lines.insert(index, block)
            number = index + len(block)
        self._save(lines)
        return next(item for item in self.read().queued if item.line == number)

    def close(self, item: Union[int, str], date: Optional[str] = None, commits: Sequence[str] = ()) -> QueueItem:
        lines = self._load()
        if lines is None:
            raise DashboardError(f"{self.locator} does not exist")
        target = _select(parse_lines(lines, self.locator).queued, item)
        raw = lines.raw[target.line - 1]
        prefix = _BULLET_PREFIX_RE.match(raw).group(1)
        body = raw[len(prefix):]
        if commits:  # the queue verifier takes a DONE item naming its commit as done by it
            text = body.rstrip("\r\n")
            body = text + ", landed in " + ", ".join(f"`{c}`" for c in commits) + body[len(text):]
        lines.raw[target.line - 1] = prefix + "DONE " + body
        self._save(lines)
        return next(i for i in self.read().queued if i.line == target.line)


def parse_lines(lines: _Lines, locator: str) -> DashboardRead:
    from cc_hooks.record.dashboard_read import DashboardRead

    result = DashboardRead(NAME, locator, True)
    _parse_into(lines, result)
    return result


def _insert_state(lines: _Lines, date: str, texts: list[str]) -> None:
    """A new block right after a leading ``# title``, else at the top."""
    block = [f"## CURRENT STATE — {date}", f"Resume point: {texts[0]}"] + [f"- {c}" for c in texts[1:]]
    first = lines.doc.headings[0] if lines.doc.headings else None
    if first is None or first.level != 1:
        lines.insert(0, block + [""])
        return
    index = first.line  # 0-based index of the line after the title
    follows_text = index < len(lines.clean) and lines.clean[index].strip() != ""
    lines.insert(index, [""] + block + ([""] if follows_text else []))


def _select(items: list[QueueItem], selector: Union[int, str]) -> QueueItem:
    if isinstance(selector, int) or (isinstance(selector, str) and selector.isdigit()):
        number = int(selector)
        matches = [i for i in items if i.line == number]
        if not matches:
            raise DashboardError(f"no queued item on line {number}")
    else:
        needle = " ".join(str(selector).lower().split())
        matches = [i for i in items if needle and needle in " ".join(i.text.lower().split())]
        open_matches = [i for i in matches if not i.done]
        matches = open_matches or matches
        if not matches:
            raise DashboardError(f"no queued item matches {selector!r}")
        if len(matches) > 1:
            raise DashboardError(f"{len(matches)} queued items match {selector!r} (lines {', '.join(str(i.line) for i in matches)}); give a line number")
    item = matches[0]
    if item.done:
        raise DashboardError(f"the item on line {item.line} is already DONE")
    return item


def _checked_date(date: Optional[str]) -> str:
    date = date or today()
    if not _markdown().is_iso_date(date):
        raise DashboardError(f"date {date!r} is not YYYY-MM-DD")
    return date


def _one_line(text: str, what: str) -> str:
    text = text.strip()
    if not text or "\n" in text or "\r" in text:
        raise DashboardError(f"the {what} must be one non-empty line")
    return text


def _strip_bullet(text: str) -> str:
    return re.sub(r"^\s*[-*+]\s+", "", text)
