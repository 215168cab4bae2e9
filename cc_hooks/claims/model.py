"""Claims, the checks made on them, and how checks add up to a verdict.

A claim is one load-bearing sentence (a dashboard line, a sentence of the
harness summary) with the addresses and assertions that make it checkable.
Each verifier adds ``Check`` records; ``decide`` combines them with the parts of the sentence
no statement models (``sentence.py``):

- CONTRADICTED if a check disproves a modeled part;
- VERIFIED only if nothing asserted is unmodeled and every check agrees;
- UNVERIFIED otherwise, always with the reason ("no checkable address",
  "whether it was reverted is not checked", "time budget", ...).
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
EXISTS = "exists"  # Check.proves of a look-up: the thing named is (or is not) there


@dataclass(frozen=True)
class Assertion:
    """A git-state statement inside a claim: what it says, about which ref."""

    what: str  # "clean", "staged", "pushed", "merged", "branch_at"
    negated: bool = False
    target: Optional[str] = None  # merge target / branch name
    sha: Optional[str] = None  # for branch_at
    detail: Optional[str] = None  # what else it names: the code name a file "contains", the other ref of "same_tip"
    line: Optional[int] = None  # the line of ``target`` a "mentions" statement is about

    def to_dict(self) -> dict:
        data = {"what": self.what, "negated": self.negated}
        if self.detail:
            data["detail"] = self.detail
        if self.target:
            data["target"] = self.target
        if self.sha:
            data["sha"] = self.sha
        if self.line:
            data["line"] = self.line
        return data


@dataclass
class Check:
    subject: str  # what was checked, e.g. "commit 9b1d2e0"
    verdict: str
    evidence: str  # what the source of truth says, or why it could not be checked
    by: str = ""  # the verifier that made it
    proves: str = ""  # EXISTS: it looked up the thing named, and so decides nothing else the sentence says


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
    unmodeled: list[str] = field(default_factory=list)  # predicates it asserts that no statement checks (sentence.py)
    past: bool = False  # it places the paths it names at a commit ("renamed in `S`"): HEAD does not disprove it
    says_exists: bool = False  # it asserts that what it names exists ("still exists"): a lookup is a check of it
    checks: list[Check] = field(default_factory=list)

    def extracted(self) -> dict:
        """What extraction made of the sentence (no checks), as JSON data for ``from_extracted``."""
        return {
            "text": self.text, "kind": self.kind, "source": self.source, "line": self.line, "section": self.section,
            "date": self.date, "done": self.done, "intent": self.intent,
            "addresses": [[a.kind, a.value, a.line, a.end_line, a.quoted] for a in self.addresses],
            "assertions": [[a.what, a.negated, a.target, a.sha, a.detail, a.line] for a in self.assertions],
            "unmodeled": list(self.unmodeled), "past": self.past, "says_exists": self.says_exists,
        }

    @classmethod
    def from_extracted(cls, data: dict) -> "Claim":
        fields = {key: value for key, value in data.items() if key not in ("addresses", "assertions")}
        return cls(
            **fields,
            addresses=[Address(kind, value, line, end, quoted) for kind, value, line, end, quoted in data["addresses"]],
            assertions=[Assertion(*fields) for fields in data["assertions"]],
        )

    def add(self, subject: str, verdict: str, evidence: str, by: str = "", proves: str = "") -> None:
        self.checks.append(Check(subject, verdict, evidence, by, proves))

    def add_exists(self, subject: str, verdict: str, evidence: str, by: str = "") -> None:
        """A check that looked up the thing named: it says nothing else about the sentence."""
        self.add(subject, verdict, evidence, by, EXISTS)

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
        return decide(self.checks, self.unmodeled, self.past, self.says_exists)

    @property
    def evidence(self) -> str:
        """The checks that decided the verdict, as one line; for an UNVERIFIED claim with unmodeled
        parts, what was checked, then each part left unchecked and how to say it checkably."""
        verdict = self.verdict
        if not self.checks:
            return NO_ADDRESS
        if verdict == UNVERIFIED and self.unmodeled:
            from cc_hooks.claims.sentence import by_name

            checked = "; ".join(dict.fromkeys(_describe(c) for c in self.checks))
            said = "; ".join(f"{p.name} is not checked (say {p.restate})" for p in map(by_name, self.unmodeled))
            return f"{checked}; {said}" if checked else said
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


def decide(checks: list[Check], unmodeled: list[str], past: bool = False, says_exists: bool = False) -> str:
    """The one combination of checks into a verdict (DESIGN.md, "Verdicts by coverage"):

    - CONTRADICTED when a check disproves a modeled part; a thing looked up at HEAD and not found
      does not disprove a sentence that also says something unmodeled, or places it at a commit (``past``),
      unless the sentence says that it exists (``says_exists``);
    - VERIFIED only when nothing it asserts is unmodeled and every check agrees, each one having
      looked at something named;
    - UNVERIFIED otherwise.
    """
    if past:  # what is at HEAD says nothing of the sentence's commit
        checks = [c for c in checks if not (c.proves == EXISTS and c.verdict == CONTRADICTED)]
    against = [c for c in checks if c.verdict == CONTRADICTED]
    if against and not (unmodeled and not says_exists and all(c.proves == EXISTS for c in against)):
        return CONTRADICTED
    if unmodeled or not checks:
        return UNVERIFIED
    if all(c.verdict == VERIFIED and c.subject for c in checks):
        return VERIFIED
    return UNVERIFIED


def _describe(check: Check) -> str:
    return check.evidence  # self-contained; ``subject`` is for --json


def counts(claims: list[Claim]) -> dict[str, int]:
    result = {VERIFIED: 0, CONTRADICTED: 0, UNVERIFIED: 0}
    for claim in claims:
        result[claim.verdict] += 1
    return result
