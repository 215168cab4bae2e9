"""``Symptom:`` commit trailers: read with git's own trailer parser, and the fix-commit rule.

A trailer is what ``git interpret-trailers`` says it is (the last paragraph of the
message, ``Key: value`` lines), so a ``Symptom:`` line in the middle of a body is
not one. All commits are read by ONE ``git log`` process; a second one lists the
commits that touch the symptoms file when the fix rule needs it (and which of them add it).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Iterable, Optional, Sequence

from cc_hooks.config import DEFAULT_FIX_SUBJECT, TrailersConfig
from cc_hooks.git import head, run_git

# Separators git prints for us; they cannot occur in a sha, a date or a one-line subject.
_REC, _FIELD, _ITEM = "\x1e", "\x1f", "\x1d"
_TRAILERS = "%(trailers:key=Symptom,valueonly,unfold,separator=%x1d)"


@dataclass(frozen=True)
class Commit:
    sha: str
    date: str  # author date, strict ISO 8601
    subject: str
    symptoms: tuple[str, ...] = ()  # values of the Symptom: trailers, in order
    body: Optional[str] = None  # the raw message, only when asked for
    touches_symptoms: bool = False

    def to_dict(self) -> dict:
        return {
            "sha": self.sha,
            "date": self.date,
            "subject": self.subject,
            "symptoms": list(self.symptoms),
            "touches_symptoms": self.touches_symptoms,
        }


@dataclass(frozen=True)
class FixRule:
    """Which commits are fix commits; built from ``TrailersConfig``."""

    subject_pattern: str = DEFAULT_FIX_SUBJECT
    touching_symptoms_is_fix: bool = True
    symptoms_path: str = "SYMPTOMS.md"
    _regex: re.Pattern = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_regex", re.compile(self.subject_pattern, re.IGNORECASE))

    @classmethod
    def from_config(cls, trailers: TrailersConfig, symptoms_path: str = "SYMPTOMS.md") -> "FixRule":
        return cls(trailers.fix_subject_pattern, trailers.touching_symptoms_is_fix, symptoms_path)

    def subject_is_fix(self, subject: str) -> bool:
        return bool(self._regex.search(subject))

    def is_fix(self, commit: Commit) -> bool:
        return self.subject_is_fix(commit.subject) or (self.touching_symptoms_is_fix and commit.touches_symptoms)


def read_commits(
    root: str | os.PathLike,
    revs: Sequence[str] = ("--all",),
    *,
    since: Optional[str] = None,
    with_body: bool = False,
    symptoms_path: Optional[str] = None,
    timeout: float = 30.0,
) -> list[Commit]:
    """Commits reachable from ``revs`` (default: all refs), newest first, with their trailers.

    ``since`` is passed to ``git log --since`` (a date). With ``symptoms_path``,
    each commit says whether it touches that file (one more git process).
    """
    touching = _commits_touching(root, revs, since, symptoms_path, timeout) if symptoms_path else {}
    return _read(root, revs, since, with_body, touching, timeout)


def read_range(root: str | os.PathLike, revs: Sequence[str], symptoms_path: str, *, touches: bool = True,
               timeout: float = 30.0) -> tuple[list[Commit], list[str]]:
    """(the commits of ``revs``, newest first, and the shas of those that add ``symptoms_path``):
    the two git processes of ``read_commits`` with a symptoms path. ``touches``: whether each
    commit's ``touches_symptoms`` is filled (the fix rule may not count touching the ledger)."""
    touching = _commits_touching(root, revs, None, symptoms_path, timeout)
    added = [sha for sha, status in touching.items() if "A" in status]
    return _read(root, revs, None, False, touching if touches else {}, timeout), added


def _read(root, revs: Sequence[str], since: Optional[str], with_body: bool, touching: dict, timeout: float) -> list[Commit]:
    body = f"{_FIELD}%B" if with_body else ""
    fmt = f"{_REC}%H{_FIELD}%aI{_FIELD}%s{_FIELD}{_TRAILERS}{body}"
    args = ["log", f"--format={fmt}", *_since(since), *revs, "--"]
    out = run_git(root, *args, timeout=timeout)
    commits = []
    for record in out.split(_REC)[1:]:
        parts = record.split(_FIELD, 4)
        if len(parts) < 4:
            continue
        sha, date, subject, trailers = parts[:4]
        if not with_body:
            trailers = trailers.rstrip("\n")
        symptoms = tuple(v.strip() for v in trailers.split(_ITEM) if v.strip())
        message = parts[4].rstrip("\n") if with_body and len(parts) > 4 else None
        commits.append(Commit(sha, date, subject, symptoms, message, bool(touching.get(sha))))  # a merge lists no status: not a fix
    return commits


def _since(since: Optional[str]) -> list[str]:
    return [f"--since={since}"] if since else []


def _commits_touching(root, revs: Sequence[str], since: Optional[str], path: str, timeout: float) -> dict[str, str]:
    """sha -> the status letters of ``path`` in that commit (empty for a merge) for every commit
    ``git log -- path`` lists."""
    out = run_git(root, "log", f"--format={_REC}%H", "--name-status", *_since(since), *revs, "--", path, timeout=timeout)
    found = {}
    for record in out.split(_REC)[1:]:
        sha, _, statuses = record.partition("\n")
        found[sha.strip()] = "".join(line[:1] for line in statuses.splitlines() if "\t" in line)
    return found


def commits_with_symptoms(root: str | os.PathLike, revs: Sequence[str] = ("--all",), **kwargs) -> list[Commit]:
    """Only the commits that carry at least one ``Symptom:`` trailer."""
    return [c for c in read_commits(root, revs, **kwargs) if c.symptoms]


def fixes_without_trailer(
    root: str | os.PathLike,
    rule: Optional[FixRule] = None,
    *,
    rev_range: str = "HEAD",
    since: Optional[str] = None,
    timeout: float = 30.0,
) -> list[Commit]:
    """Fix commits in ``rev_range`` (e.g. ``abc123..HEAD``) that lack a ``Symptom:`` trailer."""
    rule = rule or FixRule()
    if head(root, timeout=timeout).sha is None:
        return []  # no commits yet
    symptoms_path = rule.symptoms_path if rule.touching_symptoms_is_fix else None
    commits = read_commits(root, [rev_range], since=since, symptoms_path=symptoms_path, timeout=timeout)
    return [c for c in commits if not c.symptoms and rule.is_fix(c)]


def parse_message_trailers(root: str | os.PathLike, message: str, key: str = "Symptom") -> list[str]:
    """The values of ``key`` trailers in a commit message, parsed by ``git interpret-trailers``."""
    out = run_git(root, "interpret-trailers", "--parse", input=message)
    wanted = key.lower()
    values = []
    for line in out.splitlines():
        name, sep, value = line.partition(":")
        if sep and name.strip().lower() == wanted and value.strip():
            values.append(value.strip())
    return values


def symptom_shas(commits: Iterable[Commit]) -> dict[str, list[str]]:
    """symptom text -> shas of the commits that carry it (first seen first)."""
    index: dict[str, list[str]] = {}
    for commit in commits:
        for symptom in commit.symptoms:
            index.setdefault(symptom, []).append(commit.sha)
    return index
