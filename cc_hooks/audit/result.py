"""What an audit produces: graded questions, the score, and the stored result.

A stored result (``<state>/audits/<stamp>.json``) is what the checklist's
``audit`` check reads::

    {"created": <unix time>, "head": <sha audited>, "record": {<path>: <blob sha or null>},
     "score": {"PASS": n, "WEAK": n, "FAIL": n, "total": n}, "error": null | <why the audit could not run>,
     "results": [{"id", "question", "kind", "grade", "level", "where", "remediation", "flags", "source",
                  "deterministic", "agent"}]}

``record`` fingerprints the record files as audited (HEAD's blobs), so the
check can tell whether the record changed since. A result with an ``error``
has no results: it never counts as PASS.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

PASS, WEAK, FAIL = "PASS", "WEAK", "FAIL"
GRADES = (PASS, WEAK, FAIL)
STRICTNESS = {PASS: 0, WEAK: 1, FAIL: 2}

# Ladder levels (methodology §1.3): where an answer was found.
GUARD, COMMENT, INDEX, LOG = 1, 2, 3, 4

UNTRACKED_HOME = "untracked-home"  # the answer lives only in an ignored file
UNCOMMITTED = "uncommitted"  # the answer lives only in a file not committed at HEAD
STALE = "stale"  # a claim HEAD contradicts


def stricter(a: Optional[str], b: Optional[str]) -> Optional[str]:
    """The stricter of two grades (FAIL > WEAK > PASS); None means "not graded"."""
    if a is None:
        return b
    if b is None:
        return a
    return a if STRICTNESS[a] >= STRICTNESS[b] else b


@dataclass
class Question:
    id: str  # stable within one audit: "symptom:<slug>", "decision:<slug>", "q:<n>", ...
    text: str
    kind: str  # symptom | trailer | decision | oddity | coldstart | caller | stale | agent
    source: str = ""  # where the question came from (file:line, commit)
    terms: tuple[str, ...] = ()  # what a search for the answer looks for
    data: dict = field(default_factory=dict)  # kind-specific details for the answerer


@dataclass
class Graded:
    """One question's answer: grade, where it lives, what to do about a gap."""

    question: Question
    grade: str
    where: str = ""
    remediation: str = ""
    level: Optional[int] = None
    flags: list[str] = field(default_factory=list)
    deterministic: Optional[str] = None  # the program's grade, when it graded
    agent: Optional[dict] = None  # the agent's answer, when it graded

    def to_dict(self) -> dict:
        return {
            "id": self.question.id,
            "question": self.question.text,
            "kind": self.question.kind,
            "source": self.question.source,
            "grade": self.grade,
            "level": self.level,
            "where": self.where,
            "remediation": self.remediation,
            "flags": list(self.flags),
            "deterministic": self.deterministic,
            "agent": self.agent,
        }


@dataclass
class AuditResult:
    head: Optional[str]
    project: str
    graded: list[Graded] = field(default_factory=list)
    record: dict[str, Optional[str]] = field(default_factory=dict)
    created: float = field(default_factory=time.time)
    agent: Optional[dict] = None  # {"cli", "questions_sent", "duration"} when --agent ran
    error: Optional[str] = None
    notes: list[str] = field(default_factory=list)  # e.g. questions left out by the limit
    set_aside: list[dict] = field(default_factory=list)  # mined questions the agent judged not worth asking, with why

    @property
    def counts(self) -> dict[str, int]:
        counts = {grade: 0 for grade in GRADES}
        for item in self.graded:
            counts[item.grade] += 1
        return counts

    @property
    def all_pass(self) -> bool:
        return self.error is None and bool(self.graded) and all(g.grade == PASS for g in self.graded)

    @property
    def gaps(self) -> list[Graded]:
        return [g for g in self.graded if g.grade != PASS]

    @property
    def score_line(self) -> str:
        counts = self.counts
        return f"Score: {counts[PASS]}/{len(self.graded)}  (weak: {counts[WEAK]}, fail: {counts[FAIL]})"

    def exit_code(self) -> int:
        """0 all PASS, 1 any WEAK or FAIL (or nothing to ask), 2 the audit could not run."""
        if self.error is not None:
            return 2
        return 0 if self.all_pass else 1

    def to_dict(self) -> dict:
        counts = self.counts
        return {
            "created": self.created,
            "date": time.strftime("%Y-%m-%d", time.gmtime(self.created)),
            "head": self.head,
            "project": self.project,
            "record": dict(self.record),
            "score": {**counts, "total": len(self.graded)},
            "all_pass": self.all_pass,
            "error": self.error,
            "agent": self.agent,
            "notes": list(self.notes),
            "results": [g.to_dict() for g in self.graded],
            "set_aside": [dict(item) for item in self.set_aside],
        }


def store(result: AuditResult, state: Path) -> Path:
    """Write ``result`` to ``<state>/audits/<stamp>.json`` (atomically) and return the path."""
    from cc_hooks.state import stamp, write_json

    path = Path(state) / "audits" / f"{stamp()}.json"
    write_json(path, result.to_dict())
    return path



# --- is the record still what was audited? ------------------------------------------------


def record_paths(root: Path, config) -> list[str]:
    """The repo-relative record files: the ledgers, the questions file and a file dashboard."""
    from cc_hooks.record.dashboard import find_declaration

    record = config.record
    paths = [record.symptoms, record.decisions, record.questions]
    declaration, _ = find_declaration(root, config)
    if declaration.backend == "file" and declaration.locator:
        paths.append(declaration.locator)
    return sorted(dict.fromkeys(paths))


def head_fingerprint(root: Path, paths: list[str], rev: str = "HEAD", timeout: float = 30.0) -> dict[str, Optional[str]]:
    """path -> blob sha at ``rev`` (None when the file is not there): the record as audited."""
    from cc_hooks.git import run_git

    out = run_git(root, "ls-tree", "-z", "--full-tree", rev, "--", *paths, timeout=timeout)
    blobs = {}
    for entry in out.split("\0"):
        meta, tab, path = entry.partition("\t")
        if tab:
            blobs[path] = meta.split()[2]
    return {path: blobs.get(path) for path in paths}


def worktree_fingerprint(root: Path, paths: list[str], timeout: float = 30.0) -> dict[str, Optional[str]]:
    """path -> blob sha of the file in the work tree now (None when absent); one git process."""
    from cc_hooks.git import run_git

    present = [p for p in paths if (Path(root) / p).is_file()]
    out = run_git(root, "hash-object", "--", *present, timeout=timeout).split() if present else []
    found = dict(zip(present, out))
    return {path: found.get(path) for path in paths}
