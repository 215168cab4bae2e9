"""SYMPTOMS.md: parse into models, validate per entry and line.

Format (methodology §3.1)::

    ## Symptom: <observable, in operator's words>
    **Known causes** (...):
    ### Cause 1: <root cause> — fixed in <sha>
    - **Mechanism**: ...
    - **Discriminator**: ...
    - **Fix**: <what changed> (<sha>)
    - **Guard**: <test / script, or "none — ...">
    **Ruled out**:
    - <hypothesis> — eliminated by <evidence>, <YYYY-MM-DD>

Parsing never raises on bad input: what is missing or malformed becomes a
Finding on the entry and line concerned. Unknown sections and labels are kept
(``extra``), never errors. Commit existence is checked separately, in one git
process for the whole file (``validate_symptoms``).
"""

from __future__ import annotations

import functools

import os
import re
from pathlib import Path
from typing import Optional

from pydantic import BaseModel

from cc_hooks.record.findings import Finding
from cc_hooks.record.ledger import EntryBuilder, Extra, Part, build_entries, check_shas, read_ledger, read_text, trim_end
from cc_hooks.record.markdown import DATE_RE, Section, is_iso_date, match_bullet, match_label, split_dash

RULES = {
    "symptom-heading": "an entry heading is not `## Symptom: <observable>`",
    "symptom-no-cause": "an entry has no `### Cause N: ...` subsection",
    "symptom-no-ruled-out": "an entry has no **Ruled out** list (warning)",
    "cause-heading": "a cause has no root-cause text, or its fields sit outside a `### Cause N:` heading",
    "cause-no-fixed-in": "a cause heading lacks `— fixed in <sha>`",
    "cause-no-mechanism": "a cause lacks **Mechanism**",
    "cause-no-discriminator": "a cause lacks **Discriminator**",
    "cause-no-fix": "a cause lacks **Fix**",
    "cause-no-guard": "a cause lacks **Guard** (write `none — <why>` when there is none)",
    "cause-fix-no-sha": "a **Fix** bullet names no commit sha (warning)",
    "ruled-out-no-evidence": "a ruled-out line lacks `— eliminated by <evidence>`",
    "ruled-out-no-date": "a ruled-out line has no date",
    "date-invalid": "a date is not a real YYYY-MM-DD date",
    "duplicate-heading": "two entries share a heading (GitHub anchors become -1, -2)",
    "sha-unknown": "a named commit does not exist (or is ambiguous) in the repository",
    "sha-not-commit": "a named sha is an object but not a commit",
    "sha-unchecked": "commits could not be checked: git failed (warning)",
    "file-missing": "the ledger does not exist (warning)",
    "file-unreadable": "the ledger cannot be read",
}

CAUSE_FIELDS = ("mechanism", "discriminator", "fix", "guard")

_SYMPTOM_HEADING_RE = re.compile(r"^symptom\s*(?::|—|–|--|-)\s*(.*)$", re.IGNORECASE)
_CAUSE_HEADING_RE = re.compile(r"^cause\b\s*#?\s*(\d+)?\s*(?::|\.|—|–|--|-)?\s*(.*)$", re.IGNORECASE)
_FIXED_IN_RE = re.compile(r"\(?\s*\bfixed\s+in\b\s*:?\s*", re.IGNORECASE)
_SHA_RE = re.compile(r"`([0-9a-fA-F]{7,40})`|(?<![\w.])([0-9a-f]{7,40})(?![\w])")
_DIGIT_RE = re.compile(r"\d")
_TRAILING_DASH_RE = re.compile(r"\s*(?:—|–|--|-)\s*$")
_RULED_OUT_KEYS = {"ruled out", "ruled-out", "ruled out hypotheses"}


def find_shas(text: str) -> list[str]:
    """Commit-sha-looking tokens: 7-40 hex digits (with a digit, unless in backticks)."""
    shas = []
    for match in _SHA_RE.finditer(text):
        sha = match.group(1) or match.group(2)
        if match.group(1) or _DIGIT_RE.search(sha):
            sha = sha.lower()
            if sha not in shas:
                shas.append(sha)
    return shas


class Cause(BaseModel):
    number: Optional[int] = None
    title: str = ""  # the root cause
    heading: str = ""
    slug: Optional[str] = None  # None when the cause has no heading of its own
    start: int
    end: int
    fixed_in: list[str] = []  # shas named after "fixed in" in the heading
    mechanism: Optional[str] = None
    discriminator: Optional[str] = None
    fix: Optional[str] = None
    fix_shas: list[str] = []  # shas named in the Fix bullet
    guard: Optional[str] = None
    extra: dict[str, str] = {}  # unknown labelled bullets, kept
    field_lines: dict[str, int] = {}  # "mechanism", "discriminator", "fix", "guard" -> line of its label

    @property
    def shas(self) -> list[str]:
        return list(dict.fromkeys([*self.fixed_in, *self.fix_shas]))


class RuledOut(BaseModel):
    text: str
    hypothesis: str
    evidence: Optional[str] = None
    date: Optional[str] = None
    line: int


class Symptom(BaseModel):
    observable: str
    heading: str
    slug: str
    start: int
    end: int
    causes: list[Cause] = []
    ruled_out: list[RuledOut] = []
    ruled_out_note: Optional[str] = None  # e.g. "none yet"
    extra: list[Extra] = []


class SymptomsFile(BaseModel):
    path: str
    title: Optional[str] = None  # the H1, if any
    preamble_end: int  # last line before the first entry (0 if none)
    entries: list[Symptom] = []
    findings: list[Finding] = []

    def entry(self, slug: str) -> Optional[Symptom]:
        return next((e for e in self.entries if e.slug == slug), None)


# --- parsing ------------------------------------------------------------------


class _Cause:
    def __init__(self, number: Optional[int], title: str, heading: str, slug: Optional[str], start: int, fixed_in: list) -> None:
        self.number, self.title, self.heading, self.slug = number, title, heading, slug
        self.start, self.fixed_in = start, fixed_in
        self.end: Optional[int] = None  # set when the cause's lines end
        self.fields: dict[str, Part] = {}
        self.extra: dict[str, Part] = {}

    @property
    def name(self) -> str:
        if self.number is not None:
            return str(self.number)
        return repr(self.title) if self.title else f"at line {self.start}"


class _Builder(EntryBuilder):
    """Accumulates one entry's parts while its lines stream past."""

    def __init__(self, path: str, section: Section, heading_at: dict) -> None:
        super().__init__(path, section, heading_at)
        self.causes: list[_Cause] = []
        self.ruled_out: list[Part] = []
        self.ruled_out_seen = False
        self.ruled_out_note: Optional[str] = None
        self.extra: list[Part] = []
        self.context = "entry"  # entry | cause | ruled_out | extra
        self.target: Optional[Part] = None  # where continuation lines go

    def _leave_cause(self, number: int) -> None:
        """The cause in progress (if any) ends before line ``number``."""
        if self.context == "cause" and self.causes and self.causes[-1].end is None:
            self.causes[-1].end = number - 1

    def feed(self, number: int, line: str, hidden: bool) -> None:
        heading = None if hidden else self.heading_at.get(number)
        if heading is not None and heading.level <= 3:
            self._heading(number, heading)
            return
        label = None if hidden else match_label(line)
        if label is not None and self._label(number, label):
            return
        if self.context == "ruled_out" and not hidden:
            bullet = match_bullet(line)
            if bullet is not None and bullet[0] < 2:
                self.target = Part("", number, bullet[1], list_item=True)
                self.ruled_out.append(self.target)
                return
            if line and not line[0].isspace():
                self.context, self.target = "entry", None  # a paragraph after the list ends it
        if self.target is not None and self.target.takes(line):
            self.target.lines.append(line)
        elif line.strip():
            self.target = Part("", number, line)
            self.extra.append(self.target)

    def _heading(self, number: int, heading) -> None:
        self._leave_cause(number)
        match = _CAUSE_HEADING_RE.match(heading.text)
        if match:
            self._new_cause(number, heading, match)
            self.context, self.target = "cause", None
        else:
            self.target = Part(heading.text, number)
            self.extra.append(self.target)
            self.context = "extra"

    def _new_cause(self, number: int, heading, match) -> None:
        rest = match.group(2).strip()
        fixed = _FIXED_IN_RE.search(rest)
        title, fixed_text = (rest[: fixed.start()], rest[fixed.end() :]) if fixed else (rest, None)
        title = _TRAILING_DASH_RE.sub("", title).strip()
        shas = find_shas(fixed_text) if fixed_text is not None else []
        cause = _Cause(int(match.group(1)) if match.group(1) else None, title, heading.text, heading.slug, number, shas)
        if not title:
            self.flag(number, "cause-heading", "cause heading names no root cause")
        if fixed_text is None:
            self.flag(number, "cause-no-fixed-in", f"cause {cause.name} heading lacks `— fixed in <sha>`")
        elif not shas:
            self.flag(number, "cause-no-fixed-in", f"cause {cause.name}: no commit sha after 'fixed in' ({fixed_text!r})")
        self.causes.append(cause)

    def _label(self, number: int, label) -> bool:
        key = label.key
        if key == "known causes" or key in _RULED_OUT_KEYS:
            self._leave_cause(number)
        if key == "known causes":
            self.context, self.target = "entry", None
            return True
        if key in _RULED_OUT_KEYS:
            self.context, self.target, self.ruled_out_seen = "ruled_out", None, True
            if "eliminated" in label.value.lower():
                self.target = Part("", number, label.value, list_item=True)
                self.ruled_out.append(self.target)
            elif label.value:
                self.ruled_out_note = label.value
            return True
        if key in CAUSE_FIELDS:
            if self.context != "cause":
                self.flag(number, "cause-heading", f"**{label.name}** outside a `### Cause N:` heading")
                self.causes.append(_Cause(None, "", "", None, number, []))
                self.context = "cause"
            self.target = self.causes[-1].fields[key] = Part(label.name, number, label.value, label.bullet)
            return True
        if not label.colon:
            return False  # bold text at the start of a line, not a label
        self.target = Part(label.name, number, label.value, label.bullet)
        if self.context == "cause" and label.bullet:
            self.causes[-1].extra[label.name] = self.target
        else:  # a paragraph label ends the cause: its fields are list items
            self._leave_cause(number)
            self.context = "extra"
            self.extra.append(self.target)
        return True


    def build(self) -> Symptom:
        section = self.section
        heading = section.heading
        match = _SYMPTOM_HEADING_RE.match(heading.text)
        observable = match.group(1).strip() if match else heading.text
        if not match:
            self.flag(heading.line, "symptom-heading", f"heading {heading.text!r} is not `Symptom: <observable>`")
        elif not observable:
            self.flag(heading.line, "symptom-heading", "heading names no observable")
        causes = self._build_causes()
        if not causes:
            self.flag(heading.line, "symptom-no-cause", "entry has no `### Cause N: ...` subsection")
        ruled_out = [self._build_ruled_out(part.line, part.text(" ")) for part in self.ruled_out]
        if not self.ruled_out_seen:
            self.flag(heading.line, "symptom-no-ruled-out", "entry has no **Ruled out** list", "warning")
        extra = [Extra(title=p.title, line=p.line, text=p.text()) for p in self.extra]
        return Symptom(
            observable=observable,
            heading=heading.text,
            slug=heading.slug,
            start=section.start,
            end=trim_end(section, section.end),
            causes=causes,
            ruled_out=ruled_out,
            ruled_out_note=self.ruled_out_note,
            extra=extra,
        )

    def _build_causes(self) -> list[Cause]:
        causes = []
        for raw in self.causes:
            end = raw.end if raw.end is not None else self.section.end
            fields = {key: part.text() for key, part in raw.fields.items()}
            for key in CAUSE_FIELDS:
                if not fields.get(key):
                    line = raw.fields[key].line if key in raw.fields else raw.start
                    self.flag(line, f"cause-no-{key}", f"cause {raw.name} lacks **{key.capitalize()}**")
            fix_shas = find_shas(fields.get("fix") or "")
            if fields.get("fix") and not fix_shas:
                self.flag(raw.fields["fix"].line, "cause-fix-no-sha", f"**Fix** of cause {raw.name} names no commit sha", "warning")
            causes.append(
                Cause(
                    number=raw.number,
                    title=raw.title,
                    heading=raw.heading,
                    slug=raw.slug,
                    start=raw.start,
                    end=trim_end(self.section, end),
                    fixed_in=raw.fixed_in,
                    mechanism=fields.get("mechanism") or None,
                    discriminator=fields.get("discriminator") or None,
                    fix=fields.get("fix") or None,
                    fix_shas=fix_shas,
                    guard=fields.get("guard") or None,
                    extra={k: p.text() for k, p in raw.extra.items()},
                    field_lines={key: part.line for key, part in raw.fields.items()},
                )
            )
        return causes

    def _build_ruled_out(self, line: int, text: str) -> RuledOut:
        parts = split_dash(text, "eliminated by")
        hypothesis, rest = parts if parts else (text, None)
        evidence, date = None, None
        dates = list(DATE_RE.finditer(rest if rest is not None else text))
        if dates:
            date = dates[-1].group(1)
            if not is_iso_date(date):
                self.flag(line, "date-invalid", f"ruled-out date {date!r} is not a real YYYY-MM-DD date")
        else:
            self.flag(line, "ruled-out-no-date", "ruled-out line has no date (`, YYYY-MM-DD` at the end)")
        if rest is not None:
            body = rest[: dates[-1].start()] + rest[dates[-1].end() :] if dates else rest
            evidence = body.strip(" \t,;:()[]—–-") or None
        if evidence is None:
            self.flag(line, "ruled-out-no-evidence", "ruled-out line lacks `— eliminated by <evidence>`")
        return RuledOut(text=text, hypothesis=hypothesis, evidence=evidence, date=date, line=line)


RECORD_GAPS = "record gaps found"


def parse_symptoms(text: str, path: str = "SYMPTOMS.md") -> SymptomsFile:
    """Parse SYMPTOMS.md text. Never raises; problems are in ``.findings``.

    Several checks of one run parse the same ledger: the result is memoized per
    (text, path) and shared, so treat it as read-only.
    """
    return _parse_symptoms(text, path)


@functools.lru_cache(maxsize=4)
def _parse_symptoms(text: str, path: str) -> SymptomsFile:
    title, preamble_end, built = build_entries(text, path, _Builder)
    # "## Record gaps found": the list of trailer-less fix commits the trailers check points to; not an entry.
    built = [(builder, entry) for builder, entry in built if entry.heading.strip().lower() != RECORD_GAPS]
    entries = [entry for _, entry in built]
    findings = [f for builder, _ in built for f in builder.findings]
    return SymptomsFile(path=path, title=title, preamble_end=preamble_end, entries=entries, findings=findings)


def load_symptoms(root: str | os.PathLike, rel: str = "SYMPTOMS.md") -> Optional[SymptomsFile]:
    """The parsed ledger at ``root/rel``, or None when it cannot be read."""
    text = read_text(Path(root) / rel)
    return parse_symptoms(text, rel) if text is not None else None


# --- validation (needs the repository) ----------------------------------------


def named_shas(ledger: SymptomsFile) -> list[tuple[str, int, Optional[str]]]:
    named = []
    for entry in ledger.entries:
        for cause in entry.causes:
            for sha in cause.shas:
                named.append((sha, cause.start, entry.slug))
    return named


def validate_symptoms(
    repo_root: str | os.PathLike,
    path: str = "SYMPTOMS.md",
    text: Optional[str] = None,
    check_commits: bool = True,
) -> list[Finding]:
    """Every finding for the ledger at ``repo_root/path`` (or for ``text``)."""
    findings: list[Finding] = []
    if text is None:
        text, findings = read_ledger(Path(repo_root) / path, path, root=Path(repo_root))
        if text is None:
            return findings
    ledger = parse_symptoms(text, path)
    findings.extend(ledger.findings)
    if check_commits:
        findings.extend(check_shas(repo_root, path, named_shas(ledger)))
    return findings
