"""`trailers`: fix commits since the last checkpoint (and those made in the session)
carry a `Symptom:` trailer. Without a checkpoint the base is the commit that
added the symptoms ledger: fixes from before the record existed, and the commit
that created it, are not held to it."""

from __future__ import annotations

from cc_hooks.checks.result import Finding, passed, verdict

ID = "trailers"


def run(ctx):
    from cc_hooks.record.trailers import Commit, FixRule, read_commits
    from cc_hooks.report import quote  # a commit subject is repository text: data, not instructions

    rule = FixRule.from_config(ctx.config.trailers, ctx.config.record.symptoms)
    if ctx.head.sha is None:
        return passed(ID, "no commits yet")
    symptoms = ctx.config.record.symptoms if rule.touching_symptoms_is_fix else None
    scope, rows = _history(ctx, symptoms)
    commits = {row[0]: Commit(row[0], row[1], row[2], tuple(row[3]), None, row[4]) for row in rows}
    session = session_commit_shas(ctx)
    if session:
        for commit in read_commits(ctx.root, ["--no-walk", *session], symptoms_path=symptoms, timeout=ctx.timeout()):
            commits.setdefault(commit.sha, commit)
    bad = [c for c in commits.values() if rule.is_fix(c) and not c.symptoms]
    findings = [
        Finding(f"fix commit {quote(c.subject)} has no `Symptom:` trailer (amend it if unpushed, else record it in "
                f"{ctx.config.record.symptoms} under \"Record gaps found\")", commit=c.sha)
        for c in bad
    ]
    where = {"checkpoint": "since the last checkpoint", "adoption": f"since {ctx.config.record.symptoms} was added",
             "session": "made in this session"}[scope]
    return verdict(ID, findings, f"{len(commits)} commit(s) {where} checked; every fix carries a trailer",
                   "{n} fix commit(s) without a `Symptom:` trailer", checked=len(commits))


def _history(ctx, symptoms: str | None) -> tuple[str, list[list]]:
    """(scope, [sha, date, subject, symptoms, touches the ledger] of every commit in scope), remembered
    by HEAD's commit id (``CheckContext.history``): git's answers about the history behind it do not change."""
    from cc_hooks.memo import remember

    def read() -> list:
        from cc_hooks.record.trailers import read_commits

        base, scope = _base(ctx)
        if scope == "session":
            return [scope, []]
        rev = f"{base}..HEAD" if base else "HEAD"
        commits = read_commits(ctx.root, [rev], symptoms_path=symptoms, timeout=ctx.timeout())
        return [scope, [[c.sha, c.date, c.subject, list(c.symptoms), c.touches_symptoms] for c in commits]]

    if ctx.history is None:
        scope, rows = read()
    else:
        parts = [ctx.history, ctx.since or "", ctx.config.record.symptoms, symptoms or "", _git_config(ctx)]
        scope, rows = remember(ctx.state, "trailers", parts, read)
    return scope, rows


def _git_config(ctx) -> bytes:
    """Every git configuration file and variable: they shape how git reads trailers."""
    from cc_hooks.git import config_fingerprint

    return config_fingerprint(ctx.state.parent)


def _base(ctx) -> tuple[str | None, str]:
    if ctx.since:
        return ctx.since, "checkpoint"
    # The newest commit that added the ledger: git stops at it instead of walking the whole history,
    # and for a ledger added once (the usual case) it is also the oldest.
    sha = ctx.git("log", "-1", "--diff-filter=A", "--format=%H", "--", ctx.config.record.symptoms, check=False).strip()
    if not sha:
        return None, "session"
    return sha, "adoption"


def session_commit_shas(ctx) -> list[str]:
    """Shas of the commits the session made, as far as the transcript shows (may be empty)."""
    from cc_hooks.checks.session_sweep import session_commits

    return [sha for sha in session_commits(ctx) if sha]
