"""What the two ledgers share: kept extras, file reading, commit checks."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Optional

from pydantic import BaseModel

from cc_hooks.record.findings import Finding, finding

if TYPE_CHECKING:  # pragma: no cover
    from cc_hooks.record.markdown import Section


class Extra(BaseModel):
    """A section or labelled paragraph the format does not define; kept verbatim."""

    title: str
    line: int
    text: str


class Part:
    """A labelled field, list item or extra section: where it starts, its lines."""

    __slots__ = ("title", "line", "lines", "list_item")

    def __init__(self, title: str, line: int, first: str = "", list_item: bool = False) -> None:
        self.title = title
        self.line = line
        self.lines = [first] if first else []
        self.list_item = list_item

    def takes(self, line: str) -> bool:
        """Whether ``line`` continues this part: a list item ends at an unindented paragraph."""
        if not self.list_item or not line or line[0].isspace():
            return True
        return not self.lines or self.lines[-1] != ""

    def text(self, sep: str = "\n") -> str:
        """The lines, each stripped, joined by ``sep`` (blank lines dropped for " ")."""
        lines = (part.strip() for part in self.lines)
        if sep == " ":
            return " ".join(part for part in lines if part)
        return sep.join(lines).strip()


def trim_end(section: Section, end: int) -> int:
    """Pull ``end`` back over trailing blank lines and rules (``---``)."""
    while end > section.start and section.lines[end - section.start].strip() in ("", "---", "***", "___"):
        end -= 1
    return end


def read_ledger(path: Path, display: str, root: Optional[Path] = None) -> tuple[Optional[str], list[Finding]]:
    """The file's text, or None and a finding saying why not (also when ``root`` is given and a
    symlink takes the path out of it: a clone must not make cc-hooks read files elsewhere)."""
    if root is not None:
        real_root, real = os.path.realpath(root), os.path.realpath(path)
        if os.path.commonpath([real_root, real]) != real_root:
            return None, [finding(display, None, "file-outside-repo", f"{display} resolves outside the repository (symlink to {real}); not read")]
    from cc_hooks.fsutil import read_repo_bytes

    try:
        data = read_repo_bytes(path)
    except FileNotFoundError:
        return None, [finding(display, None, "file-missing", f"{display} does not exist", severity="warning")]
    except OSError as exc:
        return None, [finding(display, None, "file-unreadable", f"cannot read {display}: {exc.strerror or exc}")]
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError as exc:
        text = data.decode("utf-8", errors="replace")
        line = data[: exc.start].count(b"\n") + 1
        return text, [finding(display, line, "file-unreadable", "not valid UTF-8 (decoded with replacement characters)")]


def check_shas(
    repo_root: str | os.PathLike, path: str, named: Iterable[tuple[str, int, Optional[str]]], timeout: float = 10.0
) -> list[Finding]:
    """Findings for shas that are not commits: ``named`` is (sha, line, entry slug).

    One ``git cat-file --batch-check`` for all of them.
    """
    from cc_hooks.git import GitError, object_types

    named = list(named)
    if not named:
        return []
    try:
        types = object_types(repo_root, [f"{sha}" for sha, _, _ in named], timeout=timeout)
    except GitError as exc:
        return [finding(path, None, "sha-unchecked", f"commits not checked: {exc}", severity="warning")]
    return sha_findings(path, named, types)


def sha_findings(path: str, named: Iterable[tuple[str, int, Optional[str]]], types: dict[str, Optional[str]]) -> list[Finding]:
    """``check_shas`` given the ``git.object_types`` answer for the shas (a caller may batch it with other names)."""
    findings = []
    for sha, line, slug in named:
        found = types.get(sha)
        if found is None:
            findings.append(finding(path, line, "sha-unknown", f"commit {sha} does not exist in the repository (or is ambiguous)", slug))
        elif not found.endswith(" commit"):
            findings.append(finding(path, line, "sha-not-commit", f"{sha} is a {found.split()[-1]}, not a commit", slug))
    return findings


class EntryBuilder:
    """What both ledgers' builders share: where the entry is, and its findings."""

    def __init__(self, path: str, section: Section, heading_at: dict) -> None:
        self.path = path
        self.section = section
        self.heading_at = heading_at
        self.slug = section.heading.slug
        self.findings: list[Finding] = []

    def flag(self, line: Optional[int], rule: str, message: str, severity: str = "error") -> None:
        self.findings.append(finding(self.path, line, rule, message, self.slug, severity))


def build_entries(text: str, path: str, builder_class) -> tuple[Optional[str], int, list]:
    """(title, preamble end, [(builder, entry)]) of a ledger: each H2 section streamed through a
    ``builder_class(path, section, heading_at)``; a repeated heading is flagged on its builder."""
    from cc_hooks.record.markdown import Document  # lazily: a remembered ledger is not parsed

    document = Document.parse(text)
    preamble, sections = document.sections(2)
    heading_at = {h.line: h for h in document.headings}
    hidden = document.hidden
    built, seen = [], {}
    for section in sections:
        builder = builder_class(path, section, heading_at)
        for number in range(section.start + 1, section.end + 1):
            builder.feed(number, section.lines[number - section.start], number in hidden)
        entry = builder.build()
        base = section.heading.base_slug
        if base in seen:
            builder.flag(section.start, "duplicate-heading", f"same heading as the entry at line {seen[base]}")
        else:
            seen[base] = section.start
        built.append((builder, entry))
    title = next((h.text for h in document.headings if h.level == 1 and h.line <= preamble.end), None)
    return title, preamble.end, built


def read_text(path: Path) -> Optional[str]:
    """The file's text (invalid UTF-8 replaced), or None when it cannot be read (``fsutil.read_repo_text``:
    a regular file of bounded size)."""
    from cc_hooks.fsutil import read_repo_text

    try:
        return read_repo_text(path)
    except OSError:
        return None
