"""Claims, the checks made on them, and how checks add up to a verdict.

A claim is one load-bearing sentence (a dashboard line, a sentence of the
harness summary) with the addresses and assertions that make it checkable.
Each verifier adds ``Check`` records; the verdict follows from them:

- CONTRADICTED if any check contradicts the claim;
- VERIFIED if at least one check was made and every check agrees;
- UNVERIFIED otherwise, always with the reason ("no checkable address",
  "probe not trusted", "time budget", ...).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from cc_hooks.claims.address import REF, Address

# Assertion targets that name no ref (statements.py writes them, verify_git reads them).
DETACHED = "(detached)"
DEFAULT_BRANCH = "(default branch)"  # "only on `x`": not on the mainline either  # head_at's target when the sentence says HEAD is detached

VERIFIED = "VERIFIED"
CONTRADICTED = "CONTRADICTED"
UNVERIFIED = "UNVERIFIED"
VERDICTS = (CONTRADICTED, UNVERIFIED, VERIFIED)  # report order

GIT = "git"
EXTERNAL = "external"
POSITION = "position"
QUEUE = "queue"
PATH = "path"
KINDS = (GIT, EXTERNAL, POSITION, QUEUE, PATH)

NO_ADDRESS = "no checkable address"
FUTURE_WORK = "future work: what it names is not expected to exist yet"
TIME_BUDGET = "time budget"


@dataclass(frozen=True)
class Assertion:
    """A git-state statement inside a claim: what it says, about which ref."""

    what: str  # "clean", "staged", "pushed", "merged", "branch_at"
    negated: bool = False
    target: Optional[str] = None  # merge target / branch name
    sha: Optional[str] = None  # for branch_at
    detail: Optional[str] = None  # what else it names: the code name a file "contains", the other ref of "same_tip"

    def to_dict(self) -> dict:
        data = {"what": self.what, "negated": self.negated}
        if self.detail:
            data["detail"] = self.detail
        if self.target:
            data["target"] = self.target
        if self.sha:
            data["sha"] = self.sha
        return data


@dataclass
class Check:
    subject: str  # what was checked, e.g. "commit 9b1d2e0"
    verdict: str
    evidence: str  # what the source of truth says, or why it could not be checked
    by: str = ""  # the verifier that made it


@dataclass
class Claim:
    text: str
    kind: str
    source: str  # "next_steps.md", "summary", ...
    line: Optional[int] = None
    section: str = "state"  # "resume" | "state" | "queue" | "summary"
    addresses: list[Address] = field(default_factory=list)
    assertions: list[Assertion] = field(default_factory=list)
    date: Optional[str] = None  # queue item date, else the state block's
    done: bool = False  # a DONE queue item
    intent: bool = False  # future work ("will create x"): no git-state assertions, paths not checked
    checks: list[Check] = field(default_factory=list)

    def extracted(self) -> dict:
        """What extraction made of the sentence (no checks), as JSON data for ``from_extracted``."""
        return {
            "text": self.text, "kind": self.kind, "source": self.source, "line": self.line, "section": self.section,
            "date": self.date, "done": self.done, "intent": self.intent,
            "addresses": [[a.kind, a.value, a.line, a.end_line, a.quoted] for a in self.addresses],
            "assertions": [[a.what, a.negated, a.target, a.sha, a.detail] for a in self.assertions],
        }

    @classmethod
    def from_extracted(cls, data: dict) -> "Claim":
        fields = {key: value for key, value in data.items() if key not in ("addresses", "assertions")}
        return cls(
            **fields,
            addresses=[Address(kind, value, line, end, quoted) for kind, value, line, end, quoted in data["addresses"]],
            assertions=[Assertion(*fields) for fields in data["assertions"]],
        )

    def add(self, subject: str, verdict: str, evidence: str, by: str = "") -> None:
        self.checks.append(Check(subject, verdict, evidence, by))

    def merged_away(self, name: str) -> bool:
        """The claim says ``name`` was merged into another branch (which may since have deleted it)."""
        return any(a.what == "merged" and not a.negated and a.target != name for a in self.assertions)

    def addresses_of(self, *kinds: str) -> list[Address]:
        return [a for a in self.addresses if a.kind in kinds]

    @property
    def location(self) -> str:
        return f"{self.source}:{self.line}" if self.line else self.source

    @property
    def checkable(self) -> bool:
        """Names something a verifier looks up: a commit, branch, path or probe, a
        git state ("working tree clean"), or, for queue and position claims,
        the commit log and the decision ledger. An issue reference alone is not."""
        if self.kind in (QUEUE, POSITION) or self.assertions:
            return True
        return any(a.kind != REF for a in self.addresses)

    @property
    def verdict(self) -> str:
        verdicts = {c.verdict for c in self.checks}
        if CONTRADICTED in verdicts:
            return CONTRADICTED
        if verdicts == {VERIFIED} and all(c.subject for c in self.checks):
            return VERIFIED  # every check agrees, and each one looked at something named
        return UNVERIFIED

    @property
    def evidence(self) -> str:
        """The checks that decided the verdict, as one line."""
        verdict = self.verdict
        if not self.checks:
            return NO_ADDRESS
        decisive = [c for c in self.checks if c.verdict == verdict] or self.checks
        return "; ".join(dict.fromkeys(_describe(c) for c in decisive))

    def to_dict(self) -> dict:
        return {
            "text": self.text,
            "kind": self.kind,
            "verdict": self.verdict,
            "evidence": self.evidence,
            "source": self.source,
            "line": self.line,
            "section": self.section,
            "date": self.date,
            "done": self.done,
            "addresses": [a.to_dict() for a in self.addresses],
            "assertions": [a.to_dict() for a in self.assertions],
            "checks": [
                {"subject": c.subject, "verdict": c.verdict, "evidence": c.evidence, "by": c.by} for c in self.checks
            ],
        }


def _describe(check: Check) -> str:
    return check.evidence  # self-contained; ``subject`` is for --json


def counts(claims: list[Claim]) -> dict[str, int]:
    result = {VERIFIED: 0, CONTRADICTED: 0, UNVERIFIED: 0}
    for claim in claims:
        result[claim.verdict] += 1
    return result
