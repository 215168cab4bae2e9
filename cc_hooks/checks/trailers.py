"""`trailers`: fix commits since the last checkpoint (and those made in the session)
carry a `Symptom:` trailer. Without a checkpoint the base is the commit that
added the symptoms ledger: fixes from before the record existed, and the commit
that created it, are not held to it.

What each commit of the scope is (a fix, with or without a trailer) is a fact of history: it is
remembered up to the HEAD it was read at (``cc_hooks.memo.remember_history``), and a new HEAD
reads only the commits since then, so a hook after one new commit costs the same at 1,000 or
50,000 commits. The verdict is made on every run from those facts."""

from __future__ import annotations

import re

from cc_hooks.checks.result import Finding, passed, verdict

ID = "trailers"
RECENT = 1000  # shas of the newest commits in scope kept, to tell a session's commit already counted


def run(ctx):
    from cc_hooks.record.trailers import FixRule, read_commits
    from cc_hooks.report import quote  # a commit subject is repository text: data, not instructions

    rule = FixRule.from_config(ctx.config.trailers, ctx.config.record.symptoms)
    if ctx.head.sha is None:
        return passed(ID, "no commits yet")
    symptoms = ctx.config.record.symptoms if rule.touching_symptoms_is_fix else None
    facts = _facts(ctx, rule)
    gaps = {sha: subject for sha, subject in facts["gaps"]}
    checked = facts["count"]
    session = [sha for sha in session_commit_shas(ctx) if sha not in gaps]
    if session:
        recent = set(facts["recent"])
        for commit in read_commits(ctx.root, ["--no-walk", *session], symptoms_path=symptoms, timeout=ctx.timeout()):
            if commit.sha in recent or _in_scope(ctx, facts, commit.sha):
                continue  # counted (and judged) with the scope
            checked += 1
            if rule.is_fix(commit) and not commit.symptoms:
                gaps[commit.sha] = commit.subject
    recorded = recorded_gaps(ctx.root / ctx.config.record.symptoms, ctx.root) if gaps else set()
    findings = [
        Finding(f"fix commit {quote(subject)} has no `Symptom:` trailer (amend it if unpushed, else record it in "
                f"{ctx.config.record.symptoms} under \"Record gaps found\")", commit=sha)
        for sha, subject in gaps.items()
        if not any(sha.startswith(short) for short in recorded)
    ]
    where = {"checkpoint": "since the last checkpoint", "adoption": f"since {ctx.config.record.symptoms} was added",
             "session": "made in this session"}[facts["scope"]]
    return verdict(ID, findings, f"{checked} commit(s) {where} checked; every fix carries a trailer",
                   "{n} fix commit(s) without a `Symptom:` trailer", checked=checked)


def _facts(ctx, rule) -> dict:
    """{"scope", "base", "count": commits in scope, "gaps": [[sha, subject]] of the fix commits without
    a trailer, newest first, "recent": the newest ``RECENT`` shas in scope}: remembered up to HEAD and
    extended by the commits since, when the history can be remembered at all."""
    from cc_hooks.memo import history_shape, remember_history

    shape = history_shape(ctx.state.parent) if ctx.state is not None else None
    head = ctx.head.sha

    def derive(tip, previous):
        return _extend(ctx, rule, head, tip, previous) if tip else _scan(ctx, rule, head)

    if shape is None:
        return _scan(ctx, rule, head)
    parts = [ctx.since or "", ctx.config.record.symptoms, rule.subject_pattern, str(rule.touching_symptoms_is_fix),
             _git_config(ctx), shape]
    return remember_history(ctx.state, "trailers", parts, head, derive, lambda tip: _is_ancestor(ctx, tip, head))


def _scan(ctx, rule, head: str) -> dict:
    from cc_hooks.record.trailers import read_commits

    base, scope = _base(ctx)
    if scope == "session":
        return {"scope": scope, "base": None, "count": 0, "gaps": [], "recent": []}
    symptoms = ctx.config.record.symptoms if rule.touching_symptoms_is_fix else None
    commits = read_commits(ctx.root, [f"{base}..{head}"], symptoms_path=symptoms, timeout=ctx.timeout())
    return _summary(scope, base, commits, rule)


def _extend(ctx, rule, head: str, tip: str, previous: dict) -> dict:
    """``previous`` (the facts up to ``tip``) and the commits of ``tip..head``. A commit there that adds
    the ledger moves the adoption base: then everything is derived again, as on the first run."""
    from cc_hooks.record.trailers import read_range

    commits, added = read_range(ctx.root, [f"{tip}..{head}"], ctx.config.record.symptoms,
                                touches=rule.touching_symptoms_is_fix, timeout=ctx.timeout())
    if added and previous["scope"] != "checkpoint":
        return _scan(ctx, rule, head)
    if previous["scope"] == "session":
        return previous
    new = _summary(previous["scope"], previous["base"], commits, rule)
    return {**new, "count": new["count"] + previous["count"], "gaps": new["gaps"] + previous["gaps"],
            "recent": (new["recent"] + previous["recent"])[:RECENT]}


def _summary(scope: str, base, commits, rule) -> dict:
    return {"scope": scope, "base": base, "count": len(commits),
            "gaps": [[c.sha, c.subject] for c in commits if rule.is_fix(c) and not c.symptoms],
            "recent": [c.sha for c in commits[:RECENT]]}


def _in_scope(ctx, facts: dict, sha: str) -> bool:
    """Whether a commit of the session (on HEAD) is among those the facts counted: not the base nor
    behind it. Asked of git only for a commit older than the newest ``RECENT`` of the scope."""
    from cc_hooks.git import GitError, GitTimeout

    if facts["scope"] == "session" or not facts["base"] or sha == facts["base"]:
        return False
    try:
        ctx.git("merge-base", "--is-ancestor", sha, facts["base"])
    except GitTimeout:
        raise
    except GitError:
        return True  # not behind the base
    return False


def _is_ancestor(ctx, tip: str, head: str) -> bool:
    from cc_hooks.memo import is_ancestor

    return is_ancestor(ctx.root, tip, head, timeout=ctx.timeout())  # False: rewritten history, or a gone object


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


_GAPS_HEADING_RE = re.compile(r"^#{2,3}\s+Record gaps found\s*$", re.IGNORECASE | re.MULTILINE)


def recorded_gaps(path, root) -> set[str]:
    """The commit shas (7+ hex digits) listed under a "Record gaps found" heading of the symptom
    ledger: commits the ledger says carry no trailer on purpose (record keeping, merges of record)."""
    from cc_hooks.fsutil import RefusedFile, read_repo_bytes

    try:
        text = read_repo_bytes(path, root).decode("utf-8", "replace")
    except (RefusedFile, OSError):
        return set()
    found: set[str] = set()
    for match in _GAPS_HEADING_RE.finditer(text):
        section = text[match.end():]
        end = re.search(r"^#{1,2}\s", section, re.MULTILINE)
        found |= set(re.findall(r"\b[0-9a-f]{7,40}\b", section[: end.start()] if end else section))
    return found
