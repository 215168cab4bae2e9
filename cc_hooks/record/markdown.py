"""Markdown helpers shared by every store parser.

Deliberately small: the ledgers are line-oriented, so a single pass that knows
ATX headings, fenced code and HTML comments is enough (headings inside a fence
or a comment are text, as on GitHub). Everything works on normalized lines:
no BOM, ``\\n`` line ends, no trailing whitespace. Line numbers are 1-based.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Iterable, Optional

# A separator between two parts of a heading or bullet: em dash, en dash,
# ``--`` or a spaced hyphen. A bare hyphen must have spaces on both sides so
# dates (2025-01-10) and words (read-only) are not split.
DASH = r"(?:\s*[—–]\s*|\s*--\s*|\s+-\s+)"
ARROW = r"(?:→|->)"
DATE_RE = re.compile(r"\b(\d{4}-\d{1,2}-\d{1,2})\b")
ISO_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")

_MAY_START_BLOCK = frozenset(" `~<#")  # first characters of headings, fences, comments
_FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
# Neither class admits its own opening character: a run of "<" or "[a](" is scanned once, not once
# per opening (quadratic; a line of them stalled SessionStart).
_LINK_RE = re.compile(r"!?\[([^\[\]]*)\]\([^()]*\)")
_TAG_RE = re.compile(r"<[^<>]*>")
_BULLET_RE = re.compile(r"^(\s*)[-*+]\s+(.*)$")


def normalize_text(text: str) -> str:
    """Strip a BOM, turn CRLF/CR into LF and drop trailing whitespace per line."""
    if text.startswith("\ufeff"):
        text = text[1:]
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return "\n".join(line.rstrip() for line in text.split("\n"))


def split_lines(text: str) -> list[str]:
    """Normalized lines (no trailing empty line for a final newline)."""
    lines = normalize_text(text).split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def collapse_whitespace(line: str) -> str:
    return " ".join(line.split())


def normalize_body(lines: Iterable[str]) -> list[str]:
    """Lines as compared for equality: whitespace collapsed, blank lines dropped."""
    return [c for c in (collapse_whitespace(line) for line in lines) if c]


def is_iso_date(value: str) -> bool:
    """``YYYY-MM-DD`` and a real calendar date."""
    if not ISO_DATE_RE.match(value):
        return False
    import datetime

    try:
        datetime.date.fromisoformat(value)
    except ValueError:
        return False
    return True


# --- GitHub heading anchors ---------------------------------------------------


def heading_plain_text(raw: str) -> str:
    """The heading's rendered text, roughly: links keep their text, tags vanish."""
    if "](" in raw:
        raw = _LINK_RE.sub(r"\1", raw)
    if "<" in raw:
        raw = _TAG_RE.sub("", raw)
    return raw.strip()


def slugify(raw_heading: str) -> str:
    """The anchor GitHub gives a heading (before de-duplication).

    github-slugger: lowercase, drop every character that is not a letter, mark,
    number, connector punctuation (``_``), space or hyphen, then spaces -> ``-``.
    Runs are not collapsed: ``2025-01-10 — Use X`` -> ``2025-01-10--use-x``.
    """
    text = heading_plain_text(raw_heading).lower()
    if text.isascii():
        return _ASCII_DROP_RE.sub("", text).replace(" ", "-")
    text = _ASCII_PUNCT_RE.sub("", text)
    return _NON_WORD_RE.sub(_keep_marks, text).replace(" ", "-")


_ASCII_DROP_RE = re.compile(r"[^a-z0-9 _-]")
_ASCII_PUNCT_RE = re.compile(r"[\x00-\x1f!-,./:-@\[-^`{-\x7f]")  # ASCII except letters, digits, space, - and _
_NON_WORD_RE = re.compile(r"[^\w\- ]")  # candidates to drop; marks and connectors are kept


def _keep_marks(match: "re.Match[str]") -> str:
    category = unicodedata.category(match.group())
    return match.group() if category[0] == "M" or category == "Pc" else ""


class Slugger:
    """De-duplicates anchors in document order, like GitHub (``x``, ``x-1``, ``x-2``)."""

    def __init__(self) -> None:
        self._seen: dict[str, int] = {}

    def slug(self, raw_heading: str) -> str:
        return self.slug_and_base(raw_heading)[0]

    def slug_and_base(self, raw_heading: str) -> tuple[str, str]:
        base = slug = slugify(raw_heading)
        while slug in self._seen:
            self._seen[base] += 1
            slug = f"{base}-{self._seen[base]}"
        self._seen[slug] = 0
        return slug, base


# --- structure ----------------------------------------------------------------


@dataclass
class Heading:
    level: int
    text: str  # raw heading text, closing #s removed
    line: int  # 1-based
    slug: str  # GitHub anchor, de-duplicated over the whole document
    base_slug: str  # before de-duplication


@dataclass
class Section:
    """A heading and everything up to the next heading of the same or higher rank."""

    heading: Optional[Heading]  # None for the preamble
    start: int  # 1-based, inclusive (the heading line)
    end: int  # 1-based, inclusive; end < start for an empty preamble
    lines: list[str] = field(repr=False)  # start..end, normalized

    @property
    def body(self) -> list[str]:
        """The lines after the heading."""
        return self.lines[1:] if self.heading else self.lines


@dataclass
class Document:
    lines: list[str]
    headings: list[Heading]
    # 1-based line numbers that are inside a fenced block or HTML comment
    hidden: frozenset = frozenset()

    @classmethod
    def parse(cls, text: str) -> "Document":
        lines = split_lines(text)
        return cls(lines, *_scan(lines))

    def sections(self, level: int) -> tuple[Section, list[Section]]:
        """Split at headings of ``level``: (preamble, sections).

        A heading of a higher rank (fewer #) after the first cut does not
        split: its lines stay in the preceding section, so nothing is lost.
        """
        cuts = [h for h in self.headings if h.level == level]
        first = cuts[0].line if cuts else len(self.lines) + 1
        preamble = Section(None, 1, first - 1, self.lines[: first - 1])
        sections = []
        for index, heading in enumerate(cuts):
            end = cuts[index + 1].line - 1 if index + 1 < len(cuts) else len(self.lines)
            sections.append(Section(heading, heading.line, end, self.lines[heading.line - 1 : end]))
        return preamble, sections

    def headings_between(self, start: int, end: int) -> list[Heading]:
        return [h for h in self.headings if start <= h.line <= end]


def match_heading(line: str) -> Optional[tuple[int, str]]:
    """(level, text) of an ATX heading (CommonMark: up to 3 spaces, 1-6 #, closing #s dropped)."""
    stripped = line.lstrip(" ")
    if len(line) - len(stripped) > 3 or stripped[:1] != "#":
        return None
    text = stripped.lstrip("#")
    level = len(stripped) - len(text)
    if level > 6 or (text and text[0] not in " \t"):
        return None
    text = text.strip(" \t")
    if text.endswith("#"):
        bare = text.rstrip("#")
        if not bare or bare[-1] in " \t":
            text = bare.rstrip(" \t")
    return level, text


def _scan(lines: list[str]) -> tuple[list[Heading], frozenset]:
    """One pass: headings outside fences/comments, and the hidden line numbers."""
    headings: list[Heading] = []
    hidden: set[int] = set()
    slugger = Slugger()
    fence: Optional[str] = None
    in_comment = False
    for number, line in enumerate(lines, 1):
        if fence is None and not in_comment and line[:1] not in _MAY_START_BLOCK:
            continue  # the common case: text, list items, labels
        if fence is not None:
            hidden.add(number)
            stripped = line.strip()
            if stripped.startswith(fence) and stripped.strip(fence[0]) == "":
                fence = None
            continue
        if in_comment:
            hidden.add(number)
            if "-->" in line:
                in_comment = False
            continue
        match = _FENCE_RE.match(line)
        if match:
            fence = match.group(1)
            hidden.add(number)
            continue
        if line.lstrip().startswith("<!--"):
            hidden.add(number)
            in_comment = "-->" not in line[line.index("<!--") + 4 :]
            continue
        if "#" in line[:4]:
            heading = match_heading(line)
            if heading is not None:
                level, text = heading
                headings.append(Heading(level, text, number, *slugger.slug_and_base(text)))
    return headings, frozenset(hidden)


# --- labelled fields and bullets ----------------------------------------------


@dataclass(slots=True)
class Label:
    name: str  # as written, e.g. "Rejected alternatives"
    key: str  # lowercased, single-spaced: "rejected alternatives"
    value: str  # inline text after the label
    bullet: bool  # the label line was a list item
    colon: bool  # a colon followed the label (inside or after the bold)


def match_label(line: str) -> Optional[Label]:
    """``**Label**: value``, ``**Label:** value``, ``- **Label**: value`` (colon optional).

    Plain string operations, not one big regex: this runs on most lines of a ledger.
    """
    if "**" not in line and "__" not in line:
        return None
    rest = line.lstrip()
    bullet = rest[:1] in _MARKERS and rest[1:2] in (" ", "\t")
    if bullet:
        rest = rest[2:].lstrip()
    fence = rest[:2]
    if fence != "**" and fence != "__":
        return None
    close = rest.find(fence, 2)
    if close < 0:
        return None
    name = rest[2:close].strip()
    colon = name.endswith(":")
    if colon:
        name = name[:-1].rstrip()
    key = _label_key(name)
    if key is None:
        return None
    value = rest[close + 2 :].lstrip()
    if value[:1] == ":":
        colon, value = True, value[1:].lstrip()
    return Label(name, key, value.rstrip(), bullet, colon)


_MARKERS = frozenset("-*+")
_LABEL_NAME_RE = re.compile(r"[A-Za-z][A-Za-z /'-]*\Z")
_LABEL_KEYS: dict[str, Optional[str]] = {}


def _label_key(name: str) -> Optional[str]:
    """"Rejected  Alternatives" -> "rejected alternatives"; None if not label-shaped (memoized)."""
    try:
        return _LABEL_KEYS[name]
    except KeyError:
        key = " ".join(name.lower().split()) if _LABEL_NAME_RE.match(name) else None
        if len(_LABEL_KEYS) < 4096:  # ledgers use a handful of labels; stay bounded on junk
            _LABEL_KEYS[name] = key
        return key


def match_bullet(line: str) -> Optional[tuple[int, str]]:
    """(indent, text) of a list item, else None."""
    match = _BULLET_RE.match(line)
    if not match:
        return None
    return len(match.group(1).expandtabs(4)), match.group(2).strip()


def split_dash(text: str, keyword: str) -> Optional[tuple[str, str]]:
    """Split ``left — keyword right`` on the first dash-separated ``keyword``.

    Tolerates ``—``, ``–``, ``--`` and a spaced ``-``; case-insensitive. Returns
    (left, right) or None when the separator is absent.
    """
    match = _split_re(keyword).search(text)
    if not match:
        return None
    return text[: match.start()].strip(), text[match.end() :].strip()


_SPLIT_CACHE: dict[str, "re.Pattern[str]"] = {}


def _split_re(keyword: str) -> "re.Pattern[str]":
    pattern = _SPLIT_CACHE.get(keyword)
    if pattern is None:
        words = r"\s+".join(re.escape(w) for w in keyword.split())
        pattern = re.compile(rf"{DASH}{words}\b\s*:?\s*", re.IGNORECASE)
        _SPLIT_CACHE[keyword] = pattern
    return pattern


_DASH_RE = re.compile(DASH)


def split_heading_dash(text: str) -> Optional[tuple[str, str]]:
    """Split a heading like ``2025-01-10 — title`` at its first dash separator."""
    match = _DASH_RE.search(text)
    if not match:
        return None
    return text[: match.start()].strip(), text[match.end() :].strip()
