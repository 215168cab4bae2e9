"""The append-only check for the ledgers: earlier entries are never edited or deleted.

Two versions of a ledger are split into H2 entries; each entry of the older
version is found in the newer one by its heading anchor (GitHub slug, and which
occurrence of it) and compared line by line after whitespace normalization
(CRLF, BOM, trailing spaces, re-wrapped spacing and blank lines do not count).
The preamble (title and intro before the first entry) may change freely;
appending entries is the point. A SYMPTOMS.md entry may also *grow* — a
recurring symptom gains causes and ruled-out lines — as long as every old line
is still there, in order; a DECISIONS.md entry may not change at all (amend by
appending a new dated entry).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Optional

from cc_hooks.record.findings import Finding, finding

if TYPE_CHECKING:  # pragma: no cover
    from cc_hooks.record.markdown import Section

RULES = {
    "entry-edited": "an earlier entry's text changed",
    "entry-deleted": "an earlier entry is gone",
    "entry-heading-edited": "an earlier entry's heading changed (its anchor breaks); body unchanged",
    "entry-not-appended": "a new entry sits before an earlier one instead of at the end (warning)",
    "ledger-deleted": "the ledger existed in the base version and is gone",
    "append-only-unchecked": "a version could not be read, so nothing was compared (warning)",
}

INDEX = ":"  # pass as ``target`` to compare against the staged version
_RULE_LINES = {"---", "***", "___"}


@dataclass
class _Entry:
    key: tuple[str, int]  # (base slug, occurrence) — the anchor without GitHub's -N suffix
    heading: str
    start: int
    lines: list[tuple[int, str]]  # (line number, normalized text), blank lines dropped

    @property
    def texts(self) -> list[str]:
        return [text for _, text in self.lines]


def _entries(text: str) -> list[_Entry]:
    from cc_hooks.record.markdown import Document  # lazily: an unchanged ledger is never split

    _, sections = Document.parse(text).sections(2)
    seen: dict[str, int] = {}
    entries = []
    for section in sections:
        base = section.heading.base_slug
        seen[base] = seen.get(base, -1) + 1
        entries.append(_Entry((base, seen[base]), section.heading.text, section.start, _normalized(section)))
    return entries


def _normalized(section: Section) -> list[tuple[int, str]]:
    from cc_hooks.record.markdown import collapse_whitespace

    lines = [(section.start + i, collapse_whitespace(line)) for i, line in enumerate(section.lines)]
    lines = [(n, t) for n, t in lines if t]
    while len(lines) > 1 and lines[-1][1] in _RULE_LINES:
        lines.pop()  # a separator before the next entry is not part of this one
    return lines


def compare_versions(
    old_text: str, new_text: str, path: str, growth: bool = False, base_label: str = "the base version"
) -> list[Finding]:
    """Findings for every earlier entry of ``old_text`` edited or deleted in ``new_text``."""
    if old_text == new_text:  # the common case (ledger unchanged since the base): nothing to parse
        return []
    old_entries, new_entries = _entries(old_text), _entries(new_text)
    by_key = {entry.key: entry for entry in new_entries}
    matched_new: set[tuple[str, int]] = set()
    findings = []
    for old in old_entries:
        new = by_key.get(old.key)
        if new is None:
            findings.append(_missing(old, new_entries, path, base_label))
            continue
        matched_new.add(new.key)
        problem = _first_change(old, new, growth)
        if problem is not None:
            line, message = problem
            findings.append(finding(path, line, "entry-edited", f"entry {old.heading!r} was edited: {message}", _slug(new)))
    findings.extend(_insertions(new_entries, matched_new, path))
    return findings


def _slug(entry: _Entry) -> str:
    base, occurrence = entry.key
    return f"{base}-{occurrence}" if occurrence else base


def _missing(old: _Entry, new_entries: list[_Entry], path: str, base_label: str) -> Finding:
    body = old.texts[1:]
    for new in new_entries:
        if new.key != old.key and new.texts[1:] == body and body:
            return finding(
                path, new.start, "entry-heading-edited",
                f"heading of entry {old.heading!r} changed to {new.heading!r} (links to #{_slug(old)} break)", _slug(new),
            )
    return finding(path, None, "entry-deleted", f"entry {old.heading!r} (line {old.start} in {base_label}) was deleted", _slug(old))


def _first_change(old: _Entry, new: _Entry, growth: bool) -> Optional[tuple[int, str]]:
    """(line in the new version, what changed) for the first change that is not allowed."""
    old_texts, new_texts = old.texts, new.texts
    if growth:
        position = 0
        for text in old_texts:
            while position < len(new_texts) and new_texts[position] != text:
                position += 1
            if position == len(new_texts):
                return _line_near(new, _expected_position(old_texts, new_texts, text)), f"line {_quote(text)} was changed or removed"
            position += 1
        return None
    if old_texts == new_texts:
        return None
    import difflib

    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old_texts, b=new_texts, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        if tag == "insert":
            return _line_near(new, j1), f"line {_quote(new_texts[j1])} was added"
        if tag == "delete":
            return _line_near(new, j1), f"line {_quote(old_texts[i1])} was removed"
        return _line_near(new, j1), f"line {_quote(old_texts[i1])} became {_quote(new_texts[j1])}"
    return None


def _expected_position(old_texts: list[str], new_texts: list[str], missing: str) -> int:
    """Where the missing line would have been: after the last old line that precedes it and survives."""
    index = old_texts.index(missing)
    for previous in reversed(old_texts[:index]):
        if previous in new_texts:
            return new_texts.index(previous) + 1
    return 0


def _line_near(entry: _Entry, position: int) -> int:
    if position < len(entry.lines):
        return entry.lines[position][0]
    return entry.lines[-1][0] if entry.lines else entry.start


def _quote(text: str, limit: int = 70) -> str:
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def _insertions(new_entries: list[_Entry], matched: set, path: str) -> list[Finding]:
    """New entries placed before the last surviving old entry."""
    last_old = max((i for i, e in enumerate(new_entries) if e.key in matched), default=-1)
    return [
        finding(path, entry.start, "entry-not-appended", f"new entry {entry.heading!r} was inserted before earlier entries, not appended", _slug(entry), "warning")
        for entry in new_entries[:last_old]
        if entry.key not in matched
    ]


# --- reading the versions from git --------------------------------------------


class _Unreadable(Exception):
    pass


def _git_path(repo_root: Path, path: str | os.PathLike) -> str:
    candidate = Path(path)
    if candidate.is_absolute():
        candidate = Path(os.path.relpath(candidate, repo_root))
    return PurePosixPath(*candidate.parts).as_posix()


def _read_revision(repo_root: Path, revision: str, path: str) -> Optional[str]:
    """The file at ``revision`` (``:`` = the index), None if absent there; _Unreadable if the revision is bad."""
    from cc_hooks.git import GitError, object_types, run_git

    spec = f":{path}" if revision == INDEX else f"{revision}:{path}"
    probes = [spec] if revision == INDEX else [f"{revision}^{{commit}}", spec]
    try:
        found = object_types(repo_root, probes)
        if revision != INDEX and found.get(probes[0]) is None:
            raise _Unreadable(f"{revision!r} is not a commit")
        if found.get(spec) is None:
            return None
        return run_git(repo_root, "cat-file", "blob", spec)
    except GitError as exc:
        raise _Unreadable(str(exc)) from exc


def revision_text(data: bytes) -> str:
    """A version's bytes as ``_read_revision`` reads them from git (UTF-8 with replacement,
    universal newlines: what ``run_git``'s text mode makes of them)."""
    return data.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n")


def blob_id(data: bytes, like: str) -> str:
    """The object id git gives ``data`` as a blob, in the hash function of the object id ``like``
    (SHA-1, or SHA-256 in a repository of that object format)."""
    import hashlib

    digest = hashlib.sha256() if len(like) == 64 else hashlib.sha1()
    digest.update(b"blob %d\0" % len(data))
    digest.update(data)
    return digest.hexdigest()


def _unborn_head(repo_root: Path) -> bool:
    from cc_hooks.git import GitError, head

    try:
        return head(repo_root).sha is None
    except GitError:
        return False


def check_append_only(
    repo_root: str | os.PathLike,
    path: str | os.PathLike,
    base: str = "HEAD",
    target: Optional[str] = None,
    growth: Optional[bool] = None,
) -> list[Finding]:
    """Findings for earlier entries of the ledger ``path`` edited or deleted between versions.

    ``base`` and ``target`` are revisions; ``target=None`` is the working tree and
    ``target=INDEX`` (``":"``) the staged version. ``growth`` allows an entry to
    gain lines (default: True for a file named like SYMPTOMS.md, else False).
    A ledger absent from ``base`` (or a repository without commits, for the
    default base) has nothing to protect.
    """
    root = Path(repo_root)
    rel = _git_path(root, path)
    if growth is None:
        growth = "symptom" in PurePosixPath(rel).name.lower()
    try:
        old_text = _read_revision(root, base, rel)
    except _Unreadable as exc:
        if base == "HEAD" and _unborn_head(root):
            return []
        return [finding(rel, None, "append-only-unchecked", f"cannot read {rel} at {base}: {exc}", severity="warning")]
    if old_text is None:
        return []
    try:
        new_text = _read_target(root, rel, target)
    except _Unreadable as exc:
        return [finding(rel, None, "append-only-unchecked", f"cannot read {rel} at {target}: {exc}", severity="warning")]
    if new_text is None:
        count = len(_entries(old_text))
        if not count:
            return []
        where = "the working tree" if target is None else ("the index" if target == INDEX else target)
        return [finding(rel, None, "ledger-deleted", f"{rel} ({count} entries at {base}) is missing from {where}")]
    return compare_versions(old_text, new_text, rel, growth=growth, base_label=base)


def _read_target(root: Path, rel: str, target: Optional[str]) -> Optional[str]:
    if target is not None:
        return _read_revision(root, target, rel)
    try:
        from cc_hooks.fsutil import read_repo_bytes

        return read_repo_bytes(root / rel, root).decode("utf-8", errors="replace")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise _Unreadable(exc.strerror or str(exc)) from exc
