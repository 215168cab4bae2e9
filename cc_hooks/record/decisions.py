"""DECISIONS.md: parse into models, validate per entry and line.

Format (methodology §3.2)::

    ## <YYYY-MM-DD> — <decision title>
    **Decision**: <what was decided>
    **Context**: <the forces at play>
    **Rejected alternatives**:
    - <alternative> — rejected because <reason>
    **Consequences**: <what this commits us to>
    **Amends**: <date or #anchor of an earlier decision, if any>

Never raises on bad input; unknown labels and sections are kept (``extra``).
"""

from __future__ import annotations

import functools

import os
import re
from pathlib import Path
from typing import Optional

from pydantic import BaseModel

from cc_hooks.record.findings import Finding, finding
from cc_hooks.record.ledger import EntryBuilder, Extra, Part, build_entries, read_ledger, read_text, trim_end
from cc_hooks.record.markdown import DATE_RE, Section, is_iso_date, match_bullet, match_label, split_dash

RULES = {
    "decision-heading": "an entry heading is not `## YYYY-MM-DD — <title>`",
    "decision-no-title": "an entry heading has a date but no title",
    "date-invalid": "a date is not a real YYYY-MM-DD date",
    "decision-no-decision": "an entry lacks **Decision**",
    "decision-no-context": "an entry lacks **Context**",
    "decision-no-rejected": "an entry lists no rejected alternatives",
    "decision-no-consequences": "an entry lacks **Consequences**",
    "rejected-no-reason": "a rejected alternative lacks `— rejected because <reason>`",
    "decision-order": "an entry is dated before the entry above it (warning)",
    "amends-unresolved": "**Amends** names no date/anchor of an entry in this file (warning)",
    "duplicate-heading": "two entries share a heading (GitHub anchors become -1, -2)",
    "file-missing": "the ledger does not exist (warning)",
    "file-unreadable": "the ledger cannot be read",
}

REQUIRED = ("decision", "context", "consequences")
_FIELD_KEYS = {
    "decision": "decision",
    "context": "context",
    "rejected alternatives": "rejected",
    "rejected alternative": "rejected",
    "alternatives rejected": "rejected",
    "rejected": "rejected",
    "consequences": "consequences",
    "consequence": "consequences",
    "amends": "amends",
}
_HEADING_RE = re.compile(r"^(\d{4}-\d{1,2}-\d{1,2})(?:\s*(?:—|–|--|:)\s*|\s+-\s+|\s*$)(.*)$")
_ANCHOR_RE = re.compile(r"#([\w-]+)")
_NO_AMENDS = {"", "none", "n/a", "na", "-", "—", "–", "nothing", "no"}


class Rejected(BaseModel):
    alternative: str
    reason: Optional[str] = None
    text: str
    line: int


class Decision(BaseModel):
    date: Optional[str] = None  # as written; valid only if no date-invalid finding
    title: str
    heading: str
    slug: str
    start: int
    end: int
    decision: Optional[str] = None
    context: Optional[str] = None
    rejected: list[Rejected] = []
    rejected_note: Optional[str] = None  # inline text after the label, e.g. "none"
    consequences: Optional[str] = None
    amends: Optional[str] = None
    extra: list[Extra] = []
    field_lines: dict[str, int] = {}  # field key -> line of its label


class DecisionsFile(BaseModel):
    path: str
    title: Optional[str] = None
    preamble_end: int
    entries: list[Decision] = []
    findings: list[Finding] = []

    def entry(self, slug: str) -> Optional[Decision]:
        return next((e for e in self.entries if e.slug == slug), None)


class _Builder(EntryBuilder):
    def __init__(self, path: str, section: Section, heading_at: dict) -> None:
        super().__init__(path, section, heading_at)
        self.fields: dict[str, Part] = {}
        self.rejected: list[Part] = []
        self.extra: list[Part] = []
        self.in_rejected = False
        self.target: Optional[Part] = None

    def feed(self, number: int, line: str, hidden: bool) -> None:
        heading = None if hidden else self.heading_at.get(number)
        if heading is not None and heading.level <= 3:
            self.in_rejected = False
            self.target = Part(heading.text, number)
            self.extra.append(self.target)
            return
        label = None if hidden else match_label(line)
        if label is not None and (label.key in _FIELD_KEYS or label.colon):
            self._label(number, label)
            return
        if self.in_rejected and not hidden:
            bullet = match_bullet(line)
            if bullet is not None and bullet[0] < 2:
                self.target = Part("", number, bullet[1], list_item=True)
                self.rejected.append(self.target)
                return
            if line and not line[0].isspace():
                self.in_rejected, self.target = False, None
        if self.target is not None and self.target.takes(line):
            self.target.lines.append(line)
        elif line.strip():
            self.target = Part("", number, line)
            self.extra.append(self.target)

    def _label(self, number: int, label) -> None:
        key = _FIELD_KEYS.get(label.key)
        self.in_rejected = key == "rejected"
        self.target = Part(label.name, number, label.value)
        if key is None:
            self.extra.append(self.target)
        elif key == "rejected" and "rejected because" in label.value.lower():
            self.rejected.append(self.target)  # one alternative inline
            self.fields[key] = Part(label.name, number)
        else:
            self.fields[key] = self.target

    def build(self) -> Decision:
        section, heading = self.section, self.section.heading
        date, title = self._heading(heading)
        values = {key: part.text() for key, part in self.fields.items() if key != "rejected"}
        for key in REQUIRED:
            if not values.get(key):
                line = self.fields[key].line if key in self.fields else heading.line
                self.flag(line, f"decision-no-{key}", f"entry lacks **{key.capitalize()}**")
        rejected = [self._rejected(part) for part in self.rejected]
        note = self.fields["rejected"].text() if "rejected" in self.fields else None
        if not rejected:
            line = self.fields["rejected"].line if "rejected" in self.fields else heading.line
            self.flag(line, "decision-no-rejected", "entry lists no rejected alternatives (`- X — rejected because Y`)")
        return Decision(
            date=date,
            title=title,
            heading=heading.text,
            slug=heading.slug,
            start=section.start,
            end=trim_end(section, section.end),
            decision=values.get("decision") or None,
            context=values.get("context") or None,
            rejected=rejected,
            rejected_note=note or None,
            consequences=values.get("consequences") or None,
            amends=values.get("amends") or None,
            extra=[Extra(title=p.title, line=p.line, text=p.text()) for p in self.extra],
            field_lines={key: part.line for key, part in self.fields.items()},
        )

    def _heading(self, heading) -> tuple[Optional[str], str]:
        match = _HEADING_RE.match(heading.text)
        if not match:
            self.flag(heading.line, "decision-heading", f"heading {heading.text!r} is not `YYYY-MM-DD — <title>`")
            return None, heading.text
        date, title = match.group(1), match.group(2).strip()
        if not is_iso_date(date):
            self.flag(heading.line, "date-invalid", f"date {date!r} is not a real YYYY-MM-DD date")
        if not title:
            self.flag(heading.line, "decision-no-title", "heading has a date but no title")
        return date, title

    def _rejected(self, part: Part) -> Rejected:
        text = part.text(" ")
        split = split_dash(text, "rejected because")
        if split is None or not split[1]:
            self.flag(part.line, "rejected-no-reason", "rejected alternative lacks `— rejected because <reason>`")
            alternative = split[0] if split else text
            return Rejected(alternative=alternative, reason=None, text=text, line=part.line)
        return Rejected(alternative=split[0], reason=split[1], text=text, line=part.line)


def parse_decisions(text: str, path: str = "DECISIONS.md") -> DecisionsFile:
    """Parse DECISIONS.md text. Never raises; problems are in ``.findings``.

    Memoized per (text, path) like ``parse_symptoms``: the result is shared, treat it as read-only.
    """
    return _parse_decisions(text, path)


@functools.lru_cache(maxsize=4)
def _parse_decisions(text: str, path: str) -> DecisionsFile:
    title, preamble_end, built = build_entries(text, path, _Builder)
    entries, findings = [], []
    previous_date: Optional[str] = None
    for builder, entry in built:
        if entry.date and is_iso_date(entry.date):
            if previous_date and entry.date < previous_date:
                builder.flag(entry.start, "decision-order", f"dated {entry.date}, before the entry above ({previous_date})", "warning")
            previous_date = max(previous_date or entry.date, entry.date)
        entries.append(entry)
        findings.extend(builder.findings)
    findings.extend(_check_amends(path, entries))
    return DecisionsFile(path=path, title=title, preamble_end=preamble_end, entries=entries, findings=findings)


def load_decisions(root: str | os.PathLike, rel: str = "DECISIONS.md") -> Optional[DecisionsFile]:
    """The parsed ledger at ``root/rel``, or None when it cannot be read."""
    text = read_text(Path(root) / rel)
    return parse_decisions(text, rel) if text is not None else None


def _check_amends(path: str, entries: list[Decision]) -> list[Finding]:
    """Each **Amends** must name (by date or #anchor) an earlier entry of this file."""
    findings = []
    for index, entry in enumerate(entries):
        value = entry.amends
        if value is None or value.strip().strip(".").lower() in _NO_AMENDS:
            continue
        earlier = entries[:index]
        anchors = [m.group(1).lower() for m in _ANCHOR_RE.finditer(value)]
        dates = [m.group(1) for m in DATE_RE.finditer(_ANCHOR_RE.sub(" ", value))]
        line = _amends_line(entry)
        if not dates and not anchors:
            findings.append(finding(path, line, "amends-unresolved", "**Amends** names no date or #anchor of an earlier entry", entry.slug, "warning"))
            continue
        missing = [d for d in dates if not any(e.date == d for e in earlier)]
        missing += [f"#{a}" for a in anchors if not any(e.slug == a for e in earlier)]
        if missing:
            findings.append(finding(path, line, "amends-unresolved", f"**Amends** names {', '.join(missing)}: no earlier entry matches", entry.slug, "warning"))
    return findings


def _amends_line(entry: Decision) -> int:
    return entry.field_lines.get("amends", entry.start)


def validate_decisions(
    repo_root: str | os.PathLike,
    path: str = "DECISIONS.md",
    text: Optional[str] = None,
) -> list[Finding]:
    """Every finding for the ledger at ``repo_root/path`` (or for ``text``)."""
    findings: list[Finding] = []
    if text is None:
        text, findings = read_ledger(Path(repo_root) / path, path, root=Path(repo_root))
        if text is None:
            return findings
    return findings + parse_decisions(text, path).findings
