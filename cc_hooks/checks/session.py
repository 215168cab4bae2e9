"""`session`: every outcome of the session has a record (methodology §2 items 1-2).

An outcome (a command that failed and then, after an edit, succeeded) is recorded
when the session also wrote a SYMPTOMS.md/DECISIONS.md entry, a guard test, or
made a commit with a `Symptom:` trailer. A correction by the user is recorded by
a DECISIONS.md entry. Files edited in the session but not committed are listed.
Git is the evidence for commits and the work tree; the transcript for the rest.

A failing test that then passed is a guard candidate (issue 11): the test that
saw the problem is the natural **Guard** of the fix's SYMPTOMS.md entry. A
candidate is "guarded" once a cause of SYMPTOMS.md (as in the work tree) names
it as its Guard, or names a Guard and the candidate's fix commit.
"""

from __future__ import annotations

import re
import shlex

from cc_hooks.checks.result import Finding, could_not_check, passed, verdict
from cc_hooks.checks.session_sweep import find_outcomes, is_correction, session_commits, sweep, Correction

ID = "session"
NO_SESSIONS = "no-session-transcripts"  # ctx.cache key: where `cc-hooks check` looked and found no session
GUARD_RE = re.compile(r"(^|/)(tests?/|spec/|test_[^/]*$|[^/]*_test\.[a-z]+$|[^/]*\.(test|spec)\.[a-z]+$)")


def run(ctx):
    if ctx.transcript_path is None:
        if ctx.cache.get(NO_SESSIONS):
            return passed(ID, f"no Claude Code session has run in this project yet (none in {ctx.cache[NO_SESSIONS]}): "
                              "nothing to sweep")
        return could_not_check(ID, "no transcript to sweep (the hook passes it; by hand use --transcript)")
    try:
        found = sweep(ctx)
    except ImportError as exc:
        return could_not_check(ID, f"the transcript reader is not available ({exc})")
    if found is None:
        return could_not_check(ID, f"transcript not readable: {ctx.transcript_path}")
    commits = _commits(ctx)
    record = ctx.config.record
    touched = set(found.edits) | {path for c in commits for path in c["files"]} | ctx.dirty
    trailered = [c for c in commits if c["symptoms"]]
    guards = sorted(p for p in found.edits if GUARD_RE.search(p))

    outcomes = find_outcomes(found.calls)
    ledgers = [p for p in (record.symptoms, record.decisions) if p in touched]
    for outcome in outcomes:
        outcome.fixed_in = _fix_commit(outcome, commits)
        outcome.recorded_by = _record_of(outcome, trailered, ledgers, guards)
    corrections = [Correction(text.strip()[:300], ts) for text, ts in found.prompts if is_correction(text)]
    for correction in corrections:
        if record.decisions in touched:
            correction.recorded_by = record.decisions

    dirty = ctx.dirty
    uncommitted = sorted(p for p in found.edits if p in dirty)
    findings = [_outcome_finding(o) for o in outcomes if not o.recorded_by]
    findings += [Finding(f"the user corrected the agent: \"{c.text}\" — not in {record.decisions}", claim=c.text)
                 for c in corrections if not c.recorded_by]
    findings += [Finding("edited in this session but not committed", file=p) for p in uncommitted]
    guard_candidates = _guard_candidates(ctx, [o for o in outcomes if o.is_test])
    data = {
        "outcomes": [o.to_dict() for o in outcomes],
        "corrections": [c.to_dict() for c in corrections],
        "commits": [{k: c[k] for k in ("sha", "subject", "symptoms")} for c in commits],
        "uncommitted": uncommitted,
        "guard_candidates": guard_candidates,
    }
    ok = (f"{len(outcomes)} outcome(s), {len(corrections)} correction(s), {len(commits)} commit(s): all recorded")
    return verdict(ID, findings, ok, "{n} unrecorded session fact(s)", **data)


def _record_of(outcome, trailered: list[dict], ledgers: list[str], guards: list[str]):
    """What records ``outcome``: a `Symptom:` commit that contains one of its fix's files, a ledger
    entry written in the session, or a guard test (edited with the fix, or the test the command runs)."""
    fixed = set(outcome.edits)
    for commit in trailered:
        if fixed & set(commit["files"]):
            return f"commit {commit['sha'][:12]} (Symptom: {commit['symptoms'][0]})"
    if ledgers:
        return "ledger entry (" + ", ".join(ledgers) + ")"
    for guard in guards:
        if guard in fixed or (outcome.is_test and guard in outcome.command):
            return f"guard test {guard}"
    return None


_FAILED_ID_RE = re.compile(r"^(?:FAILED|ERROR) (\S+::\S+)")
_TARGET_RE = re.compile(r"::|/|\.[A-Za-z]\w*$")


def _guard_candidates(ctx, outcomes) -> list[dict]:
    """One dict per failing-then-passing test: its command, the test id to name as the Guard
    (when the command or the failure names one), the fix commit, and the recorded Guard that
    already covers it (``guarded_by``), if any."""
    if not outcomes:
        return []
    recorded = _recorded_guards(ctx)
    candidates = []
    for outcome in outcomes:
        targets = _targets(outcome)
        test_id = next((t for t in targets if "::" in t), None)
        guarded_by = next((where for shas, pointer, where in recorded
                           if pointer in targets or (outcome.fixed_in and any(outcome.fixed_in.startswith(s) for s in shas))),
                          None)
        candidates.append({"command": outcome.command, "test_id": test_id, "fixed_in": outcome.fixed_in,
                           "guarded_by": guarded_by})
    return candidates


def _targets(outcome) -> list[str]:
    """What the test command runs (paths, test ids), then the test ids its failure named."""
    try:
        words = shlex.split(outcome.command)[1:]
    except ValueError:
        words = outcome.command.split()[1:]
    targets = [w for w in words if not w.startswith("-") and _TARGET_RE.search(w)]
    for error in (outcome.error, *outcome.later_errors):
        failed = _FAILED_ID_RE.match(error)
        if failed:
            targets.append(failed.group(1))
    return list(dict.fromkeys(targets))


def _recorded_guards(ctx) -> list[tuple[list[str], "str | None", str]]:
    """(the cause's fix shas, the Guard's test id or script path, where) for every non-`none` Guard."""
    from cc_hooks.guards.resolve import classify, split_references
    from cc_hooks.record.ledger import read_ledger
    from cc_hooks.record.symptoms import parse_symptoms

    path = ctx.config.record.symptoms
    text, _ = read_ledger(ctx.root / path, path, root=ctx.root)
    if text is None:
        return []
    found = []
    for entry in parse_symptoms(text, path).entries:
        for cause in entry.causes:
            _, refs = split_references(cause.guard or "none")
            for ref in refs or []:
                line = cause.field_lines.get("guard", cause.start)
                found.append((cause.shas, classify(ref, ctx.config).pointer, f"{path}:{line} `{ref}`"))
    return found


def _fix_commit(outcome, commits: list[dict]):
    """The oldest session commit holding a file edited between the failure and the success."""
    fixed = set(outcome.edits)
    return next((c["sha"] for c in reversed(commits) if fixed & set(c["files"])), None)


def _outcome_finding(outcome) -> Finding:
    from cc_hooks.report import quote  # command output is data: a code span nothing inside can close

    kind = "a failing test then passed" if outcome.is_test else "failed then succeeded"
    edited = ", ".join(outcome.edits[:3])
    committed = "" if outcome.fixed_in else " (fix not committed)"  # a committed fix is named by the finding's commit
    then = "".join(f", then {quote(error)}" for error in outcome.later_errors)
    return Finding(
        f"unrecorded outcome: {quote(outcome.command)} {kind} after editing {edited}{committed}; error: {quote(outcome.error)}{then} — "
        "record it (SYMPTOMS.md entry, a guard test, or a `Symptom:` trailer)",
        file=outcome.edits[0] if outcome.edits else None,
        commit=outcome.fixed_in,
        command=outcome.command,
    )


def _commits(ctx) -> list[dict]:
    shas = session_commits(ctx)
    if not shas:
        return []
    from cc_hooks.record.trailers import read_commits

    out = ctx.git("show", "--no-walk", "--name-only", "--format=\x1e%H", *shas)
    files = {}
    for record in out.split("\x1e")[1:]:
        lines = [line for line in record.splitlines() if line.strip()]
        if lines:
            files[lines[0]] = lines[1:]
    commits = read_commits(ctx.root, ["--no-walk", *shas], timeout=ctx.timeout())
    return [{"sha": c.sha, "subject": c.subject, "symptoms": list(c.symptoms), "files": files.get(c.sha, [])} for c in commits]
