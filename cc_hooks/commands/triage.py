"""`cc-hooks triage SYMPTOM...`: search the record for a symptom before theorizing (methodology §8).

Each phrasing (2-4 are best, in the operator's words) is matched loosely: as a
phrase, and as its significant words (all of them, or all but one when there
are three or more) in any order. Searched: ``Symptom:`` trailers and commit
messages on every ref (one ``git log``), SYMPTOMS.md (entries and causes) and
DECISIONS.md. For every prior fix the question is whether its change is still
in HEAD, decided by what the fix did (cc_hooks.record.fixes): its added lines
present and its removed lines absent modulo formatting, across renames: intact,
rewritten since (by S), or gone (removed by S).

Verdict:
- ``NOVEL``: no prior cause recorded anywhere.
- ``KNOWN-BUT-FIX-INTACT``: prior causes exist and every one has a fix that is
  still in HEAD (intact, or rewritten since), so this is likely a new cause.
- ``KNOWN (n prior causes)``: some prior cause has no fix, or a fix that is gone
  (removed or reverted by a named commit, or never reached HEAD): likely a regression.

Exit status: 0 whenever the search ran, whatever the verdict; 2 when it could
not (not a git repository, git failing).
"""

from __future__ import annotations

import argparse
import itertools
import re
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Optional

HELP = "Search the record (trailers, commits, SYMPTOMS.md, DECISIONS.md) for a symptom; say KNOWN, KNOWN-BUT-FIX-INTACT or NOVEL."

NOVEL, KNOWN, INTACT = "NOVEL", "KNOWN", "KNOWN-BUT-FIX-INTACT"
STOPWORDS = frozenset(
    "a an the and or but of on in at to for from by with without into onto after before when while is are was were be been "
    "being it its this that these those there then than so as not no yes do does did has have had i we you they he she my our "
    "your their me us them after again some any all very just only also".split()
)
_NON_WORD_RE = re.compile(r"[^\w]+")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from cc_hooks.cli import PROJECT_HELP

    parser.add_argument("symptom", nargs="+", metavar="SYMPTOM", help="the symptom, in 2-4 phrasings an observer would use (quote each)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--plain", action="store_true",
                        help="plain markdown even on a terminal (the default when stdout is not a terminal)")
    parser.add_argument("--project", metavar="DIR", default=".", help=PROJECT_HELP)
    parser.add_argument("--agent", action="store_true",
                        help="also have your own `claude -p` read the best candidates' messages and diffs and order them")
    parser.add_argument("--claude", metavar="PATH", help="the Claude Code CLI to run for --agent (default: `claude` on PATH)")
    parser.add_argument("--timeout", metavar="SECONDS", type=float, default=300.0, help="how long --agent may take (default 300)")
    parser.epilog = ("Exit status: 0 whenever the search ran, whatever the verdict (KNOWN, KNOWN-BUT-FIX-INTACT, NOVEL); "
                     "2 when it could not (not a git repository, git failing) or --agent failed (the program's order is shown).")


def run(args) -> int:
    from cc_hooks.cli import CliError
    from cc_hooks.git import GitError

    root = _repo_root(Path(args.project))
    if root is None:
        raise CliError(f"not a git repository: {args.project}", 2)
    try:
        from cc_hooks.state import state_dir

        state_dir(root, create=True)  # where the history index is remembered (cc_hooks.record.history_index)
    except OSError:
        pass  # a read-only repository: the index is built each run
    agent = _agent(args) if args.agent else None
    try:
        result = triage(root, args.symptom, agent=agent)
    except GitError as exc:
        raise CliError(str(exc), 2) from exc
    if args.json:
        import json

        print(json.dumps(result.to_dict(), indent=2, ensure_ascii=False))
    elif sys.stdout.isatty() and not args.plain:
        render_rich(result)
    else:
        from cc_hooks.printable import printable

        print(printable(render_markdown(result)))
    if result.agent.get("error"):
        from cc_hooks.printable import clean

        print(f"cc-hooks triage: --agent failed, the program's order is shown: {clean(result.agent['error'])}", file=sys.stderr)
        return 2
    return 0


def _agent(args):
    """``--agent``: the user's ``claude -p``, in an empty directory, ordering the candidates it is shown."""
    from cc_hooks.cli import CliError
    from cc_hooks.record.triage_agent import AgentError, find_claude, run_agent

    try:
        claude = find_claude(args.claude)
    except AgentError as exc:
        raise CliError(str(exc), 2) from exc
    return lambda phrasings, shown: run_agent(claude, phrasings, shown, timeout=args.timeout)


def _repo_root(path: Path) -> Optional[Path]:
    from cc_hooks.git import GitError, run_git

    if not path.is_dir():
        return None
    try:
        top = run_git(path, "rev-parse", "--show-toplevel", check=False).strip()
    except GitError:
        return None
    return Path(top) if top else None


# --- matching ---------------------------------------------------------------------


def _stem(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def normalize(text: str) -> str:
    """Lowercase, punctuation to spaces, whitespace collapsed."""
    return " ".join(_NON_WORD_RE.sub(" ", text.lower()).split())


@dataclass(frozen=True)
class Phrasing:
    """One phrasing and its simple variants."""

    text: str
    phrase: str  # normalized
    words: tuple[str, ...]  # significant, stemmed

    @classmethod
    def of(cls, text: str) -> "Phrasing":
        phrase = normalize(text)
        words = tuple(dict.fromkeys(_stem(w) for w in phrase.split() if w not in STOPWORDS))
        return cls(text, phrase, words)

    def word_sets(self) -> list[tuple[str, ...]]:
        """All significant words, then (from three words on) every subset missing one."""
        if not self.words:
            return []
        sets = [self.words]
        if len(self.words) >= 3:
            sets += list(itertools.combinations(self.words, len(self.words) - 1))
        return sets

    def match(self, text: str) -> Optional[str]:
        """How ``text`` matches this phrasing ("phrase" / "all words" / "words: a b"), or None."""
        if not text or not self.phrase:
            return None
        normalized = normalize(text)
        if f" {self.phrase} " in f" {normalized} ":
            return "phrase"
        tokens = {_stem(w) for w in normalized.split()}
        for index, words in enumerate(self.word_sets()):
            if all(w in tokens for w in words):
                return "all words" if index == 0 else "words: " + " ".join(words)
        return None


def match_any(phrasings: list[Phrasing], *texts: Optional[str]) -> Optional[str]:
    for phrasing in phrasings:
        for text in texts:
            how = phrasing.match(text or "")
            if how:
                return f"{phrasing.text!r} ({how})"
    return None


# --- result shapes -----------------------------------------------------------------


@dataclass
class FixStatus:
    sha: str  # as recorded
    full_sha: Optional[str] = None
    subject: Optional[str] = None
    date: Optional[str] = None
    in_head: Optional[bool] = None  # an ancestor of HEAD
    intact: Optional[bool] = None  # still there: intact or rewritten (not gone)
    status: str = "unknown"  # intact | rewritten | gone | not-in-head | missing | empty | unknown
    detail: str = ""
    files: list[str] = field(default_factory=list)
    by: Optional[str] = None  # the commit that rewrote or removed it


@dataclass
class PriorCause:
    source: str  # "SYMPTOMS.md" or "trailer" or "commit"
    symptom: str
    cause: str
    matched_by: str
    fix: Optional[str] = None
    guard: Optional[str] = None
    discriminator: Optional[str] = None
    line: Optional[int] = None  # in SYMPTOMS.md
    fixes: list[FixStatus] = field(default_factory=list)
    rank: Optional[int] = None  # a commit found by evidence: its place (1 = best); None for the record's own
    score: Optional[float] = None

    @property
    def fix_intact(self) -> bool:
        return bool(self.fixes) and all(f.intact for f in self.fixes)


@dataclass
class TriageResult:
    phrasings: list[str]
    verdict: str
    prior: list[PriorCause] = field(default_factory=list)
    ruled_out: list[dict] = field(default_factory=list)
    discriminators: list[dict] = field(default_factory=list)
    decisions: list[dict] = field(default_factory=list)
    mentions: list[dict] = field(default_factory=list)  # commits whose message matches but are no fix
    gaps: list[str] = field(default_factory=list)
    searched: dict = field(default_factory=dict)
    agent: dict = field(default_factory=dict)  # --agent: {"duration", "sent", "fixes"} or {"error"}

    @property
    def label(self) -> str:
        return f"{KNOWN} ({len(self.prior)} prior cause{'s' if len(self.prior) != 1 else ''})" if self.verdict == KNOWN else self.verdict

    @property
    def meaning(self) -> str:
        if self.verdict == NOVEL:
            return "nothing in the record matches: investigate, then record the cause"
        if self.verdict == INTACT:
            gone = self.gone_leads
            if gone:  # the verdict may not contradict a line below it
                return (f"the best match's fix is still in HEAD, but lead {gone[0].rank} ({gone[0].fixes[0].sha[:12]}) is gone "
                        f"from HEAD: if that is the fix, a regression")
            return "every prior fix is still in HEAD: likely a new cause"
        return "a prior cause has no fix, or its fix is gone from HEAD: likely a regression"

    @property
    def gone_leads(self) -> list["PriorCause"]:
        """Ranked runners-up whose fix is gone (shown, not part of the verdict)."""
        return [c for c in self.prior if c.rank and c.rank > 1 and c.fixes and any(f.status == "gone" for f in c.fixes)]

    def to_dict(self) -> dict:
        data = asdict(self)
        data["label"] = self.label
        data["meaning"] = self.meaning
        for cause, raw in zip(self.prior, data["prior"]):
            raw["fix_intact"] = cause.fix_intact
        return data


# --- the search -----------------------------------------------------------------------


def triage(root: Path, symptoms: list[str], config=None, timeout: float = 30.0, agent=None) -> TriageResult:
    """``agent``: a callable ``(phrasings, shown) -> triage_agent.Ordering`` (``--agent``: the user's
    ``claude -p``) that orders the program's best candidates; when it fails, the program's order stands."""
    from cc_hooks.config import load_config_or_default
    from cc_hooks.record.trailers import FixRule, read_commits

    if config is None:
        config, _ = load_config_or_default(root)
    phrasings = [Phrasing.of(s) for s in symptoms if s.strip()]
    result = TriageResult([p.text for p in phrasings], NOVEL)
    rule = FixRule.from_config(config.trailers, config.record.symptoms)
    from cc_hooks.record import history_index

    index = history_index.load(root, timeout=timeout)  # HEAD's history, remembered
    # Other refs' commits (a trailer on an unmerged branch is a prior cause too): usually few.
    others = read_commits(root, ["--all", "--not", "HEAD"] if len(index) else ["--all"], timeout=timeout)
    from cc_hooks.record.decisions import load_decisions
    from cc_hooks.record.symptoms import load_symptoms

    ledger = load_symptoms(root, config.record.symptoms)
    decisions = load_decisions(root, config.record.decisions)
    result.searched = {"commits": len(index) + len(others), "symptom_entries": len(ledger.entries) if ledger else 0,
                       "decisions": len(decisions.entries) if decisions else 0}

    by_sha = _causes_by_sha(ledger)
    prior: dict[tuple, PriorCause] = {}
    matched_entries = set()
    if ledger:
        for entry in ledger.entries:
            how = match_any(phrasings, entry.observable, *(c.title for c in entry.causes))
            if how:
                matched_entries.add(entry.slug)
                _add_entry(result, prior, entry, how)

    trailered = [(row[0], row[2], row[3]) for row in reversed(index.rows) if row[3]]
    trailered += [(c.sha, c.subject, list(c.symptoms)) for c in others if c.symptoms]
    for sha, subject, symptoms in trailered:
        how_trailer = match_any(phrasings, *symptoms)
        if not how_trailer:
            continue
        referenced = _lookup(by_sha, sha)
        if referenced:
            entry, cause = referenced
            if entry.slug not in matched_entries:
                matched_entries.add(entry.slug)
                _add_entry(result, prior, entry, f"commit {sha[:12]} ({how_trailer})")
            continue
        symptom = "; ".join(symptoms)
        prior[("commit", sha)] = PriorCause("trailer", symptom, subject, how_trailer, fix=subject, fixes=[FixStatus(sha)])
        if not any(match_any([Phrasing.of(s)], e.observable) for s in symptoms for e in (ledger.entries if ledger else [])):
            result.gaps.append(f"`Symptom: {symptom}` ({sha[:12]}) has no {config.record.symptoms} entry")
    _add_history(root, result, prior, phrasings, index, config, rule, timeout, agent)

    result.prior = list(prior.values())
    _check_fixes(root, result.prior, index, others, timeout)
    _superseded(root, result, timeout)
    _add_cause_gaps(result, config.record.symptoms)
    if decisions:
        for entry in decisions.entries:
            how = match_any(phrasings, entry.title, entry.decision, entry.context)
            if how:
                result.decisions.append({"date": entry.date, "title": entry.title, "slug": entry.slug, "line": entry.start, "matched_by": how})
    judged = _judged(result.prior)
    if judged:
        result.verdict = INTACT if all(c.fix_intact or _nothing_to_lose(c) for c in judged) else KNOWN
    return result


def _judged(prior: list["PriorCause"]) -> list["PriorCause"]:
    """The causes the verdict speaks for: the record's own and the first ranked commit (the runners-up
    are leads; a gone one is named beside the verdict, ``TriageResult.gone_leads``). A revert found as a
    candidate fixed nothing: what it undid is judged as that commit's fix."""
    from cc_hooks.record.reverts import is_revert

    return [c for c in prior if c.rank in (None, 1) and not (c.source == "commit" and is_revert(c.cause))]


def _nothing_to_lose(cause: "PriorCause") -> bool:
    """A commit found in history whose change has no line to compare (comments, docs, tests only):
    nothing says its fix is gone, so it raises no regression alarm (a record's cause without a fix still does)."""
    return cause.source == "commit" and bool(cause.fixes) and all(f.intact or f.status == "empty" for f in cause.fixes)


HISTORY_CAUSES = 3  # ranked commits shown as prior causes; the first alone can make the verdict


def _add_history(root: Path, result: TriageResult, prior: dict, phrasings: list[Phrasing], index, config, rule, timeout: float,
                 agent=None) -> None:
    """Past fixes found by evidence in commits HEAD shipped that the record does not already name
    (cc_hooks.record.evidence): a commit only on another branch is no lead for a symptom seen here."""
    from cc_hooks.record.evidence import STRONG, rank

    named = tuple(f.sha.lower() for cause in prior.values() for f in cause.fixes)
    record = (config.record.symptoms, config.record.decisions)
    ranked = rank(root, [p.text for p in phrasings], index, timeout, limit=HISTORY_CAUSES + 5, record_files=record, exclude=named)
    is_fix = {c.sha: c.score >= STRONG for c in ranked}
    if agent is not None and ranked:
        ranked, is_fix = _agent_order(root, result, [p.text for p in phrasings], ranked, is_fix, agent, timeout)
    shown = 0
    for candidate in ranked:
        if is_fix[candidate.sha] and shown < HISTORY_CAUSES:
            shown += 1
            prior[("commit", candidate.sha)] = PriorCause("commit", candidate.subject, candidate.subject, candidate.why,
                                                          fixes=[FixStatus(candidate.sha)], rank=shown, score=round(candidate.score, 1))
            if rule.subject_is_fix(candidate.subject) and shown == 1:
                result.gaps.append(f"fix commit {candidate.sha[:12]} \"{candidate.subject}\" has no `Symptom:` trailer")
        else:
            result.mentions.append({"sha": candidate.sha, "date": candidate.date, "subject": candidate.subject, "matched_by": candidate.why})


def _agent_order(root: Path, result: TriageResult, phrasings: list[str], ranked: list, is_fix: dict, agent,
                 timeout: float) -> tuple[list, dict]:
    """The candidates in the agent's order, and which it says fix the symptom (its reason first among
    each one's); when it fails, the program's (``ranked``, ``is_fix``), and ``result.agent`` says why."""
    from cc_hooks.record.triage_agent import AgentError, show

    shown = show(root, ranked, timeout)
    try:
        ordering = agent(phrasings, shown)
    except AgentError as exc:
        result.agent = {"error": str(exc)}
        return ranked, is_fix
    by_id = {s.id: c for s, c in zip(shown, ranked)}
    for cid, candidate in by_id.items():
        verdict = "a fix" if ordering.fix[cid] else "not the fix"
        candidate.reasons.insert(0, f"agent: {verdict}" + (f" ({ordering.why[cid]})" if ordering.why[cid] else ""))
    result.agent = {"duration": ordering.duration, "sent": len(shown), "fixes": sum(ordering.fix.values())}
    return [by_id[cid] for cid in ordering.order], {by_id[cid].sha: ordering.fix[cid] for cid in ordering.order}


def _superseded(root: Path, result: TriageResult, timeout: float) -> None:
    """A fix whose lines were taken out by a commit that is itself a lead for this symptom (a prior
    fix or a ranked commit) was redone, not regressed: the later fix of the same thing replaced it.
    A commit found in history whose subject says it is a refactor fixed nothing: its code taken out
    since is a rewrite, not a regression. A commit of a merged branch whose lines a later commit of
    the same branch took out is one step of the change that merge landed (rich's "Fix ZWJ and edge
    cases", then "refine", in #3953); so is a commit whose author changed its lines again in the next
    commits of an unbroken run pushed straight to the branch (dramatiq's "time_limit: define a
    protocol for timeout managers", then "make ctypes timeout manager a daemon", 50 minutes later)."""
    from cc_hooks.record import fixes as fixmod
    from cc_hooks.record.evidence import is_chore

    leads = {f.full_sha for cause in result.prior for f in cause.fixes if f.full_sha} | {m["sha"] for m in result.mentions}
    for cause in result.prior:
        for fix in cause.fixes:
            if fix.status != "gone" or not fix.by:
                continue
            removal = fix.detail.split(": likely a regression")[0]
            if fix.detail.startswith(fixmod.REVERTED):
                continue  # a revert is no later fix of the same thing: what it undid is gone
            if fix.by in leads:
                fix.status, fix.intact = "rewritten", True
                fix.detail = f"changed by {fix.by[:12]}, itself a lead for this symptom: a later fix of the same thing ({removal})"
            elif cause.source == "commit" and is_chore(cause.cause):
                fix.status, fix.intact = "rewritten", True
                fix.detail = f"a refactor, not a fix: its code was rewritten since ({removal})"
            elif (merge := _landed_together(root, fix.full_sha or fix.sha, fix.by, timeout)) is not None:
                _judge_as_landed(root, fix, merge, removal, timeout)
            elif _one_series(root, fix.full_sha or fix.sha, fix.by, timeout):
                _judge_as_landed(root, fix, fix.by, removal, timeout, series=True)


def _judge_as_landed(root: Path, fix: "FixStatus", end: str, removal: str, timeout: float, series: bool = False) -> None:
    """A fix that the commits landed with it changed again is judged by the net change that landed,
    ``end``'s (the merge of its branch, or the last commit of its author's ``series``), when that change
    still carries the fix (``_carries``: the names it brought in, the lines it took out). A branch or
    series that undid the fix keeps the alarm."""
    from cc_hooks.git import GitError
    from cc_hooks.record import fixes as fixmod

    sha = fix.full_sha or fix.sha
    where = f"by its author's next commits, up to {end[:12]}" if series else f"on its own branch before {end[:12]} merged it"
    try:
        patches = _patches(root, [sha] if series else [sha, end], timeout)
        patch = _net_patch(root, f"{sha}^", end, timeout) if series else patches.get(end, b"")
        if not _carries(patches.get(sha, b""), patch):
            fix.detail = f"undone {where} ({removal}): likely a regression"
            return
        judged = fixmod.judge_many(root, [(end, patch, None, True)], timeout).get(end)
        _, intact, status, detail, _, by = _check_one(root, end, True, patch, judged, timeout)
    except GitError:
        return  # the alarm stands, as the fix alone was judged
    if intact:
        fix.status, fix.intact, fix.by = "rewritten", True, None
        fix.detail = f"changed again {where}: one change, whose net lines HEAD has ({removal})"
    else:
        fix.status, fix.detail, fix.by = status, f"as landed by {end[:12]}: {detail}", by


def _one_series(root: Path, sha: str, later: str, timeout: float) -> bool:
    """Whether ``sha`` and ``later`` are one author's unbroken run of at most ``SERIES_COMMITS`` commits on
    ``later``'s first-parent line, written within ``SERIES_HOURS`` (author dates: a rebase keeps them) and
    with no tag holding the fix without ``later``: one change pushed in steps, never released half done
    (one ``git log``, one ``for-each-ref``)."""
    from cc_hooks.git import GitError, run_git

    try:
        rows = [line.split("\0") for line in run_git(root, "log", "--first-parent", f"--max-count={SERIES_COMMITS + 1}",
                                                        "--format=%H%x00%ae%x00%at", f"{sha}^..{later}", timeout=timeout).splitlines()]
    except GitError:
        return False  # a root commit has no parent to start the run from
    if not 2 <= len(rows) <= SERIES_COMMITS or not rows[-1][0].startswith(sha) or not rows[0][0].startswith(later):
        return False
    if len({r[1].lower() for r in rows}) != 1 or int(rows[0][2]) - int(rows[-1][2]) > SERIES_HOURS * 3600:
        return False
    released = run_git(root, "for-each-ref", "--count=1", "--format=%(refname)", f"--contains={sha}", f"--no-contains={later}",
                       "refs/tags", check=False, timeout=timeout)
    return not released.strip()


SERIES_HOURS = 24
SERIES_COMMITS = 50


def _net_patch(root: Path, base: str, end: str, timeout: float) -> bytes:
    """The patch from ``base`` to ``end``, with ``_patches``' options."""
    from cc_hooks.git import GitError, run_git_bytes

    proc = run_git_bytes(root, "diff-tree", "-r", *_PATCH_OPTIONS, base, end, "--", timeout=timeout)
    if proc.returncode != 0:
        raise GitError(f"git diff-tree failed: {proc.stderr.decode('utf-8', 'replace').strip()[:200]}")
    return proc.stdout


def _carries(fix_patch: bytes, merge_patch: bytes) -> bool:
    """Whether a net change (a merge's, a run's) holds most of the names a fix's code brought in, and
    still removes most of the lines it took out: a later step that wrote back what the fix removed
    (``value = cache[key]`` after the fix's ``cache.get``) undid it, whatever else it kept."""
    from cc_hooks.record import fixes as fixmod

    fix_changes = fixmod.judged_files(fixmod.parse_patch(fix_patch))
    net_changes = fixmod.parse_patch(merge_patch)
    brought = fixmod.brought_names(fix_changes)
    if not fixmod.carried(brought, fixmod.names_of(line for c in net_changes for line in c.added)):
        return False
    removed = {fixmod.canonical(line) for c in fix_changes for line in c.removed if fixmod.significant(line)}
    still = {fixmod.canonical(line) for c in net_changes for line in c.removed} & removed
    return 2 * len(still) >= len(removed)


def _landed_together(root: Path, sha: str, later: str, timeout: float) -> Optional[str]:
    """The merge that landed ``sha`` when ``later`` is a commit of the same merged branch, else None:
    among the oldest ``LANDING_MERGES`` merges descending from ``sha`` (one ``rev-list
    --ancestry-path``), the first whose branch ``M^1..M^2`` holds it (one ``rev-list`` each; a
    "Merge main into feature" on the way has the fix on its first side)."""
    from cc_hooks.git import GitError, run_git

    try:
        merges = run_git(root, "rev-list", "--ancestry-path", "--merges", f"{sha}..HEAD", timeout=timeout).split()
        for merge in merges[::-1][:LANDING_MERGES]:
            branch = run_git(root, "rev-list", f"{merge}^1..{merge}^2", timeout=timeout).split()
            if any(c.startswith(sha) for c in branch):
                return merge if any(c.startswith(later) for c in branch) else None
    except GitError:
        return None
    return None


LANDING_MERGES = 3


def _causes_by_sha(ledger) -> dict:
    index = {}
    for entry in ledger.entries if ledger else []:
        for cause in entry.causes:
            for sha in cause.shas:
                index[sha.lower()] = (entry, cause)
    return index


def _lookup(index: dict, full_sha: str):
    for sha, found in index.items():
        if full_sha.startswith(sha):
            return found
    return None


def _add_entry(result: TriageResult, prior: dict, entry, how: str) -> None:
    if not entry.causes:
        prior[("entry", entry.slug)] = PriorCause("SYMPTOMS.md", entry.observable, "no cause recorded yet", how, line=entry.start)
    for cause in entry.causes:
        prior[("cause", entry.slug, cause.start)] = PriorCause(
            "SYMPTOMS.md", entry.observable, cause.title, how, cause.fix, cause.guard, cause.discriminator, cause.start,
            [FixStatus(sha) for sha in cause.shas],
        )
        if cause.discriminator:
            result.discriminators.append({"symptom": entry.observable, "cause": cause.title, "discriminator": cause.discriminator, "line": cause.start})
    for ruled in entry.ruled_out:
        result.ruled_out.append({"symptom": entry.observable, "hypothesis": ruled.hypothesis, "evidence": ruled.evidence, "date": ruled.date, "line": ruled.line})


def _add_cause_gaps(result: TriageResult, symptoms_file: str) -> None:
    for cause in result.prior:
        if cause.source != "SYMPTOMS.md":
            continue
        where = f"{symptoms_file}:{cause.line}"
        if not cause.fixes:
            result.gaps.append(f"{where}: cause \"{cause.cause}\" names no fix commit")
        guard = (cause.guard or "").strip().lower()
        if not guard or guard.startswith("none"):
            result.gaps.append(f"{where}: cause \"{cause.cause}\" has no guard")


# --- is the fix still in HEAD? -------------------------------------------------------------


def _check_fixes(root: Path, prior: list[PriorCause], index, others, timeout: float) -> None:
    """Judge every prior fix by what it did (cc_hooks.record.fixes): ancestry, patches and file
    contents in one batch each; a fix whose lines are not all in HEAD costs a few more."""
    from cc_hooks.git import cat_blobs, head, object_types
    from cc_hooks.record import fixes as fixmod

    pairs = [(cause, f) for cause in prior for f in cause.fixes]
    if not pairs:
        return
    known = object_types(root, [f.sha for _, f in pairs], timeout=timeout)
    info = {c.sha: (c.subject, c.date) for c in others}
    for _, fix in pairs:
        found = known.get(fix.sha)
        if found is None or found.split()[1] != "commit":
            fix.status, fix.detail = "missing", "no such commit in this repository"
            continue
        fix.full_sha = found.split()[0]
        position = index.position(fix.full_sha)
        if position is not None:
            fix.date, fix.subject = index.rows[position][1], index.rows[position][2]
        elif fix.full_sha in info:
            fix.subject, fix.date = info[fix.full_sha]
    shas = list(dict.fromkeys(f.full_sha for _, f in pairs if f.full_sha))
    if not shas:
        return
    head_sha = head(root).sha
    in_head = {sha for sha in shas if index.position(sha) is not None}  # the index is HEAD's history
    patches = _patches(root, shas, timeout)
    guards = {f.full_sha: cause.guard for cause, f in pairs if f.full_sha and cause.guard}
    names = [n for sha in shas for n in fixmod.prefetch_names(sha, patches.get(sha, b""))]
    names += [n for g in guards.values() for n in fixmod.guard_names(g)]
    blobs = cat_blobs(root, names, timeout=timeout) if head_sha else {}
    judged = fixmod.judge_many(root, [(sha, patches.get(sha, b""), guards.get(sha), sha in in_head) for sha in shas if head_sha],
                               timeout, blobs)
    checked = {sha: _check_one(root, sha, sha in in_head, patches.get(sha, b""), judged.get(sha), timeout) for sha in shas}
    for _, fix in pairs:
        if fix.full_sha:
            fix.in_head, fix.intact, fix.status, fix.detail, fix.files, fix.by = checked[fix.full_sha]


_PATCH_OPTIONS = ("-p", "--binary", "--no-color", "--no-ext-diff", "--no-textconv", "--no-renames")


def _patches(root: Path, shas: list[str], timeout: float) -> dict[str, bytes]:
    """sha -> the patch of that commit against its first parent, all from one ``diff-tree --stdin``.
    Each commit's patch follows a header carrying a random marker no patch line can contain."""
    import secrets

    from cc_hooks.git import GitError, run_git_bytes

    marker = b"cc-hooks-" + secrets.token_hex(16).encode()
    proc = run_git_bytes(
        root, "diff-tree", "--stdin", *_PATCH_OPTIONS, "--root", "-m", "--first-parent", "--always", f"--format={marker.decode()} %H",
        input="\n".join(shas).encode() + b"\n", timeout=timeout,
    )
    if proc.returncode != 0:
        raise GitError(f"git diff-tree failed: {proc.stderr.decode('utf-8', 'replace').strip()[:200]}")
    patches: dict[str, bytes] = {}
    for chunk in proc.stdout.split(marker + b" ")[1:]:
        header, _, patch = chunk.partition(b"\n")
        patches.setdefault(header.strip().decode("ascii", "replace"), patch.lstrip(b"\n"))
    return patches


def _check_one(root: Path, sha: str, in_head: bool, patch: bytes, judged, timeout: float) -> tuple:
    from cc_hooks.record import fixes as fixmod

    files = sorted({name.decode("utf-8", "replace") for name in re.findall(rb"^(?:\+\+\+ b|--- a)/(.*)$", patch, re.M)})
    if not patch.strip():
        return in_head, None, "empty", "the commit changes no file", files, None
    if judged is None:
        return in_head, False, "not-in-head", "HEAD has no commits", files, None
    if judged.outcome == "empty":
        return in_head, None, "empty", judged.detail, files, None
    if judged.outcome != fixmod.INTACT and not in_head:
        branches = _branches_containing(root, sha, timeout)
        where = f"only on {', '.join(branches)}" if branches else "on no branch (reachable from other refs only)"
        return in_head, False, "not-in-head", f"not in HEAD; {where}", files, None
    if judged.outcome == fixmod.INTACT and not in_head:
        judged.detail = "not an ancestor of HEAD, but an equivalent change is in HEAD"
    return in_head, judged.outcome != fixmod.GONE, judged.outcome, judged.detail, files, judged.by


def _branches_containing(root: Path, sha: str, timeout: float) -> list[str]:
    from cc_hooks.git import run_git

    out = run_git(root, "for-each-ref", "--format=%(refname:short)", f"--contains={sha}", "refs/heads", "refs/remotes", check=False, timeout=timeout)
    return out.split()


# --- output -------------------------------------------------------------------------------


_OUTCOME_WORDS = {"intact": "intact", "rewritten": "rewritten since", "gone": "GONE", "not-in-head": "not in HEAD",
                  "missing": "unknown commit", "empty": "nothing to compare", "unknown": "unknown"}


def outcome_text(fix: FixStatus) -> str:
    """"intact", "rewritten since: ...", "GONE: ...": the outcome first, then why."""
    return f"{_OUTCOME_WORDS.get(fix.status, fix.status)}: {fix.detail}" if fix.detail else _OUTCOME_WORDS.get(fix.status, fix.status)


def _fix_text(fix: FixStatus) -> str:
    return f"`{fix.sha[:12]}` {fix.date[:10] if fix.date else ''} {outcome_text(fix)}".replace("  ", " ")


def _cause_lines(cause: PriorCause) -> list[str]:
    """A cause in as few words as it takes: a commit found by evidence is its subject and why it
    ranks there; a trailer is its symptom and its commit; a ledger cause its entry."""
    if cause.source == "commit":
        [fix] = cause.fixes
        head = f"- #{cause.rank} `{fix.sha[:12]}` {(fix.date or '')[:10]} {cause.cause} — why: {cause.matched_by}"
        return [head.replace("  ", " "), f"  - still there? {outcome_text(fix)}"]
    if cause.source == "trailer":
        [fix] = cause.fixes
        return [f"- {cause.symptom} — fixed by `{fix.sha[:12]}` {(fix.date or '')[:10]} {cause.cause} [trailer; matched {cause.matched_by}]",
                f"  - still there? {outcome_text(fix)}"]
    where = f"{cause.source}:{cause.line}" if cause.line else cause.source
    lines = [f"- {cause.symptom} — cause: {cause.cause} [{where}; matched {cause.matched_by}]"]
    lines.append(f"  - fix: {cause.fix or 'not recorded'}; guard: {cause.guard or 'none recorded'}")
    lines += [f"  - fix commit {_fix_text(fix)}" for fix in cause.fixes] or ["  - fix commit: none recorded"]
    return lines


def render_markdown(result: TriageResult) -> str:
    lines = [f"## Triage: {' / '.join(result.phrasings)}", "", f"**Verdict**: {result.label} — {result.meaning}", ""]
    lines.append("**Prior occurrences** (the record's, then past fixes ranked by evidence):" if result.prior else "**Prior occurrences**: none")
    for cause in result.prior:
        lines += _cause_lines(cause)
    lines += ["", "**Already ruled out**:" if result.ruled_out else "**Already ruled out**: nothing recorded"]
    lines += [f"- {r['hypothesis']} — {r['evidence'] or 'no evidence recorded'}{', ' + r['date'] if r['date'] else ''}" for r in result.ruled_out]
    lines += ["", "**Recorded discriminators**:" if result.discriminators else "**Recorded discriminators**: none"]
    lines += [f"- {d['cause']}: {d['discriminator']}" for d in result.discriminators]
    if result.decisions:
        lines += ["", "**Related decisions**:"] + [f"- {d['date']} — {d['title']} (DECISIONS.md#{d['slug']})" for d in result.decisions]
    if result.mentions:
        lines += ["", "**Weaker leads** (less evidence):"] + [f"- `{m['sha'][:12]}` {m['date'][:10]} {m['subject']} — {m['matched_by']}"
                                                              for m in result.mentions]
    lines += _agent_lines(result)
    lines += ["", "**Record gaps found**:" if result.gaps else "**Record gaps found**: none"]
    lines += [f"- {gap}" for gap in result.gaps]
    searched = result.searched
    lines += ["", f"Searched {searched.get('commits', 0)} commits on all refs, {searched.get('symptom_entries', 0)} SYMPTOMS.md entries, "
              f"{searched.get('decisions', 0)} DECISIONS.md entries."]
    return "\n".join(lines)


def _agent_lines(result: TriageResult) -> list[str]:
    agent = result.agent
    if not agent:
        return []
    if agent.get("error"):
        return ["", f"**Agent**: failed, the program's order is shown ({agent['error']})"]
    return ["", f"**Agent**: ordered the {agent['sent']} best candidates in {agent['duration']:g}s; "
                f"{agent['fixes']} of them fix this symptom, it says (its reason leads each one's)"]


def render_rich(result: TriageResult) -> None:
    from rich.console import Console
    from rich.markup import escape as rich_escape

    from cc_hooks.printable import printable

    def escape(text: str) -> str:  # record text: no markup, no escape sequences
        return rich_escape(printable(text))

    console = Console()
    style = {NOVEL: "yellow", INTACT: "cyan", KNOWN: "bold red"}[result.verdict]
    console.print(f"[bold]Triage:[/bold] {escape(' / '.join(result.phrasings))}")
    console.print(f"[{style}]{result.label}[/{style}] — {result.meaning}")
    if result.prior:
        from cc_hooks.tables import Column, print_table

        columns = [Column("symptom", wrap=True), Column("cause", wrap=True), Column("fix", keep=30, wrap=True),
                   Column("guard", keep=20, wrap=True), Column("fix commit"), Column("date", keep=40),
                   Column("still present?", wrap=True)]
        rows = []
        for cause in result.prior:
            for fix in cause.fixes or [None]:
                found = cause.source == "commit"  # a commit found by evidence: its subject once, and why it ranks there
                present = ("no fix recorded", None) if fix is None else (
                    {True: "yes", False: "NO", None: "unknown"}[fix.intact] + "\n" + printable(outcome_text(fix)),
                    {True: "green", False: "red", None: None}[fix.intact])
                rows.append([f"#{cause.rank} in history" if found else printable(cause.symptom),
                             printable(f"{cause.cause}\nwhy: {cause.matched_by}" if found else cause.cause),
                             "this commit" if found else printable(cause.fix or "not recorded"),
                             printable(cause.guard or "none recorded"), fix.sha[:12] if fix else "none recorded",
                             (fix.date or "")[:10] if fix else "", present])
        print_table("", columns, rows, plain=False)
    for line in _agent_lines(result)[1:]:
        console.print(printable(line.replace("**", "")), markup=False, highlight=False)
    for title, items in (
        ("Already ruled out", [f"{r['hypothesis']} — {r['evidence'] or 'no evidence recorded'} {r['date'] or ''}" for r in result.ruled_out]),
        ("Recorded discriminators", [f"{d['cause']}: {d['discriminator']}" for d in result.discriminators]),
        ("Related decisions", [f"{d['date']} — {d['title']}" for d in result.decisions]),
        ("Weaker leads (less evidence)", [f"{m['sha'][:12]} {m['subject']} — {m['matched_by']}" for m in result.mentions]),
        ("Record gaps found", result.gaps),
    ):
        if items:
            console.print(f"[bold]{title}[/bold]")
            for item in items:
                console.print(f"  • {printable(item)}", markup=False, highlight=False)
