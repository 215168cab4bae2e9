"""Run the labeled corpus through the real pipeline and score every verdict.

A case (``cases/*.md``) names its repository and holds a dashboard (a
````` ````dashboard ````` fence), a compaction summary (````` ````summary `````)
or both, then its labels, one per line::

    - TRUE [2] "`tablekit/legacy_sql.py` is gone" — deleted in {sha:drop-legacy}, absent at HEAD
    - FALSE [5] "Support offset without limit" — landed in {sha:offset-impl} [cites {sha:offset-impl}]

The quoted key is the whole text of one extracted claim, or a unique
substring of one (placeholders resolved, whitespace collapsed); the class is 1-8 (the error classes of issue
15) or ``other:<what>``; ``[cites X]`` (optional, repeatable) requires the
evidence to name commit X as well as the verdict to be right.

``run_case`` writes the dashboard as ``next_steps.md`` in the built clone,
excluded through ``.git/info/exclude`` so the work tree's state is the one the
case intends (the file backend reads the file from the work tree, tracked or
not), calls ``build_rehydration`` exactly as SessionStart does, and matches
each label to exactly one extracted claim. A label that matches no claim is
"not found by the extractor".
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Optional

CASES_DIR = Path(__file__).parent / "cases"
LABELS = ("TRUE", "FALSE", "UNCHECKABLE")
EXPECTED = {"TRUE": "VERIFIED", "FALSE": "CONTRADICTED", "UNCHECKABLE": "UNVERIFIED"}
NOT_FOUND = "NOT FOUND"
VERDICT_COLUMNS = ("VERIFIED", "CONTRADICTED", "UNVERIFIED", NOT_FOUND)
CLASSES = tuple(str(n) for n in range(1, 9))
OTHER_KINDS = ("path", "line", "merged", "pushed", "clean", "position", "external", "intent", "prose", "queue")

_FENCE_RE = re.compile(r"^````(dashboard|summary)\n(.*?)\n````\s*$", re.MULTILINE | re.DOTALL)
_LABEL_RE = re.compile(r'^- (TRUE|FALSE|UNCHECKABLE) \[(\d|other:[a-z]+)\] "(.+)" — (.+?)\s*$')
_CITES_RE = re.compile(r"\s*\[cites ([^\]]+)\]")
_HEADER_RE = re.compile(r"^(repo|summary_date):\s*(\S+)\s*$", re.MULTILINE)


@dataclass
class Label:
    label: str
    cls: str
    key: str
    reason: str
    cites: list[str] = field(default_factory=list)
    line: int = 0


@dataclass
class Case:
    name: str
    repo: str
    dashboard: Optional[str]
    summary: Optional[str]
    summary_date: Optional[str]
    labels: list[Label]


@dataclass
class Outcome:
    case: str
    key: str
    label: str
    cls: str
    reason: str
    verdict: str  # one of VERDICT_COLUMNS
    evidence: str = ""
    claim: str = ""
    source: str = ""
    cites_missing: list[str] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)  # what the claim was modeled as: its statements' kinds, else its kind

    @property
    def correct(self) -> bool:
        return self.verdict == EXPECTED[self.label] and not self.cites_missing

    @property
    def checkable(self) -> bool:
        return self.label in ("TRUE", "FALSE")

    def to_dict(self) -> dict:
        data = asdict(self)
        data["correct"] = self.correct
        return data


class CaseError(Exception):
    """The case itself is wrong (a key matching several claims, a bad label line)."""


def parse_case(path: Path) -> Case:
    text = path.read_text(encoding="utf-8")
    headers = dict(_HEADER_RE.findall(text))
    if "repo" not in headers:
        raise CaseError(f"{path.name}: no `repo:` line")
    fences = {kind: body for kind, body in _FENCE_RE.findall(text)}
    if not fences:
        raise CaseError(f"{path.name}: no ````dashboard or ````summary fence")
    labels = []
    in_labels = False
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("## Labels"):
            in_labels = True
            continue
        if not in_labels or not line.strip() or line.startswith("<!--"):
            continue
        match = _LABEL_RE.match(line)
        if not match:
            raise CaseError(f"{path.name}:{number}: not a label line: {line!r}")
        label, cls, key, reason = match.groups()
        if cls.startswith("other:") and cls[6:] not in OTHER_KINDS:
            raise CaseError(f"{path.name}:{number}: unknown class {cls}")
        cites = _CITES_RE.findall(reason)
        reason = _CITES_RE.sub("", reason).strip()
        labels.append(Label(label, cls, key, reason, cites, number))
    if not labels:
        raise CaseError(f"{path.name}: no labels")
    return Case(path.stem, headers["repo"], fences.get("dashboard"), fences.get("summary"), headers.get("summary_date"), labels)


def load_cases(directory: Path = CASES_DIR) -> list[Case]:
    return [parse_case(path) for path in sorted(Path(directory).glob("*.md")) if path.name != "README.md"]


def _normal(text: str) -> str:
    return " ".join(text.split())


def minimal_dashboard(date: str) -> str:
    """The dashboard a summary-only case runs with (the report needs one to audit a summary)."""
    return f"# Next steps\n\n## CURRENT STATE — {date}\nResume point: continue from the compaction summary.\n"


def run_case(case: Case, repo, strict: bool = True) -> tuple[list[Outcome], list]:
    """(an outcome per label, the extracted claims no label matched)."""
    from cc_hooks.claims.rehydration import build_rehydration
    from cc_hooks.config import load_config
    from cc_hooks.runtime import Deadline

    if case.dashboard is None and not case.summary_date:
        raise CaseError(f"{case.name}: a summary-only case needs `summary_date:`")
    dashboard = repo.resolve(case.dashboard) if case.dashboard is not None else minimal_dashboard(case.summary_date)
    summary = repo.resolve(case.summary) if case.summary is not None else None
    _exclude(repo.path, "next_steps.md")
    target = repo.path / "next_steps.md"
    target.write_text(dashboard + "\n", encoding="utf-8")
    try:
        result = build_rehydration(
            repo.path, "compact", load_config(repo.path), Deadline(60), summary_text=summary, summary_date=case.summary_date
        )
    finally:
        target.unlink()
    if not result.initialized or result.dashboard != "next_steps.md":
        raise CaseError(f"{case.name}: the rehydration did not read the dashboard ({result.notes})")
    return _match(case, repo, result.claims, strict)


def _match(case: Case, repo, claims: list, strict: bool = True) -> tuple[list[Outcome], list]:
    """Outcomes by label. ``strict``: a key matching a claim another label took is an error of the case
    (the tuned corpus); otherwise (a corpus written without the code) that label is NOT FOUND."""
    outcomes = []
    used: dict[int, str] = {}
    for label in case.labels:
        key = re.sub(r"^DONE\b[\s:]*(?:(?:—|–|--)\s+)?", "", _normal(repo.resolve(label.key)))  # the item is its text
        hits = [i for i, claim in enumerate(claims) if key == claim.text] or [i for i, claim in enumerate(claims) if key in claim.text]
        if len(hits) > 1:
            raise CaseError(f"{case.name}:{label.line}: key {key!r} matches {len(hits)} claims")
        if hits and hits[0] in used and strict:
            raise CaseError(f"{case.name}:{label.line}: claim already labeled by {used[hits[0]]!r}")
        if hits and hits[0] in used:  # a sentence the extractor did not split from the one labeled before it
            outcomes.append(Outcome(case.name, key, label.label, label.cls, label.reason, NOT_FOUND))
            continue
        if not hits:
            outcomes.append(Outcome(case.name, key, label.label, label.cls, label.reason, NOT_FOUND))
            continue
        used[hits[0]] = key
        claim = claims[hits[0]]
        cites = [repo.resolve(c) for c in label.cites]
        missing = [c for c in cites if not names_commit(claim.evidence, c)]
        outcomes.append(
            Outcome(case.name, key, label.label, label.cls, label.reason, claim.verdict, claim.evidence, claim.text, claim.source, missing,
                    [a.what for a in claim.assertions] or [claim.kind])
        )
    unlabeled = [c for i, c in enumerate(claims) if i not in used]
    return outcomes, unlabeled


def names_commit(evidence: str, sha: str) -> bool:
    """The evidence names commit ``sha`` (by any prefix of 4+ digits, as the claim may have)."""
    sha = sha.lower()
    return any(sha.startswith(token) or token.startswith(sha) for token in re.findall(r"\b[0-9a-f]{4,40}\b", evidence.lower()))


def _exclude(root: Path, name: str) -> None:
    exclude = root / ".git" / "info" / "exclude"
    exclude.parent.mkdir(parents=True, exist_ok=True)
    lines = exclude.read_text().splitlines() if exclude.exists() else []
    if name not in lines:
        exclude.write_text("\n".join(lines + [name]) + "\n")


@dataclass
class Run:
    outcomes: list[Outcome]
    unlabeled: dict[str, list[str]]  # case -> "dashboard: <text>" / "summary: <text>" of claims no label matched
    cases: int


def run_all(root: Path, cases: Optional[list[Case]] = None, repos: Optional[dict] = None) -> Run:
    """Build the corpus repositories under ``root`` (unless given) and run every case."""
    from .repos import build_all

    cases = load_cases() if cases is None else cases
    repos = build_all(root) if repos is None else repos
    outcomes: list[Outcome] = []
    unlabeled: dict[str, list[str]] = {}
    for case in cases:
        if case.repo not in repos:
            raise CaseError(f"{case.name}: no corpus repository {case.repo!r}")
        found, rest = run_case(case, repos[case.repo])
        outcomes += found
        texts = [f"{'dashboard' if c.source == 'next_steps.md' else 'summary'}: {c.text}" for c in rest if c.source != "next_steps.md" or case.dashboard is not None]
        if texts:
            unlabeled[case.name] = texts
    return Run(outcomes, unlabeled, len(cases))


# --- scoring ---------------------------------------------------------------


def matrix(outcomes: list[Outcome]) -> dict[str, dict[str, int]]:
    table = {label: {v: 0 for v in VERDICT_COLUMNS} for label in LABELS}
    for o in outcomes:
        table[o.label][o.verdict] += 1
    return table


def false_verified(outcomes: list[Outcome]) -> list[Outcome]:
    return [o for o in outcomes if o.verdict == "VERIFIED" and o.label != "TRUE"]


def false_contradicted(outcomes: list[Outcome]) -> list[Outcome]:
    return [o for o in outcomes if o.verdict == "CONTRADICTED" and o.label != "FALSE"]


def not_found(outcomes: list[Outcome]) -> list[Outcome]:
    return [o for o in outcomes if o.verdict == NOT_FOUND]


def accuracy(outcomes: list[Outcome]) -> tuple[int, int]:
    """(correct, total) over the checkable claims (labeled TRUE or FALSE)."""
    checkable = [o for o in outcomes if o.checkable]
    return sum(o.correct for o in checkable), len(checkable)


def class_of(cls: str) -> str:
    return cls if cls in CLASSES else "other"


def per_class(outcomes: list[Outcome]) -> dict[str, dict[str, int]]:
    rows: dict[str, dict[str, int]] = {}
    for o in outcomes:
        for key in (o.cls,) if o.cls in CLASSES else (o.cls, "other"):
            row = rows.setdefault(key, {"n": 0, "TRUE": 0, "FALSE": 0, "UNCHECKABLE": 0, "correct": 0, "false VERIFIED": 0, "false CONTRADICTED": 0, NOT_FOUND: 0})
            row["n"] += 1
            row[o.label] += 1
            row["correct"] += o.correct
            row["false VERIFIED"] += o.verdict == "VERIFIED" and o.label != "TRUE"
            row["false CONTRADICTED"] += o.verdict == "CONTRADICTED" and o.label != "FALSE"
            row[NOT_FOUND] += o.verdict == NOT_FOUND
    order = list(CLASSES) + ["other"] + sorted(k for k in rows if k.startswith("other:"))
    return {k: rows[k] for k in order if k in rows}
