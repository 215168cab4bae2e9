"""`dashboard`: the CURRENT STATE block is dated no earlier than the last commit
that touched anything but the record files; no open QUEUED item describes work
that landed; the shas and branches it cites exist (methodology §2 item 6)."""

from __future__ import annotations

from cc_hooks.checks.result import Finding, could_not_check, verdict

ID = "dashboard"
OWN_KINDS = ("queue", "git")  # the other kinds of contradicted dashboard claims are `stale-claims` findings


def run(ctx):
    from cc_hooks.checks.claims_adapter import dashboard_facts

    facts = dashboard_facts(ctx)
    if isinstance(facts, str):
        return could_not_check(ID, facts)
    declaration = ctx.declaration[0]
    tracker = declaration.backend != "file"
    where = f"{declaration.backend} {declaration.locator}" if tracker else declaration.locator
    if not facts["exists"]:
        unread = [message for _, _, message, _, _ in facts["findings"]]
        if tracker:
            return could_not_check(ID, unread[0] if unread else f"the dashboard `{where}` could not be read")
        return verdict(ID, [Finding(f"the dashboard `{where}` does not exist (`cc-hooks init` creates it)", file=where)], "", "no dashboard")
    findings = [Finding(message, file=file, line=line) for _, severity, message, file, line in facts["findings"] if severity == "error"]
    findings += _date_findings(ctx, facts["state"], where)
    findings += [_with_fix(kind, finding, tracker) for kind, finding in claim_findings(ctx) if kind in OWN_KINDS]
    date = facts["state"]["date"] if facts["state"] else None
    stale = [message for rule, _, message, _, _ in facts["findings"] if rule == "dashboard-tracker-unreachable"]
    said = f" ({stale[0]})" if stale else ""  # the verdict is on the last good read: say so
    return verdict(ID, findings, f"`{where}` dated {date}, true against HEAD{said}", "{n} dashboard problem(s)" + said.replace("{", "{{").replace("}", "}}"))


def _with_fix(kind: str, finding: Finding, tracker: bool) -> Finding:
    """A queued item whose work landed gets the command that closes it (the board reconciliation)."""
    if kind != "queue" or not finding.claim or "landed" not in finding.message:
        return finding
    item = _item_selector(finding, tracker)
    if item:
        finding.command = f"cc-hooks dashboard close {item}"
        finding.message += f"; fix: `{finding.command}`"
    return finding


def _item_selector(finding: Finding, tracker: bool) -> str:
    """A tracker item's key (its text starts with it), or a file item's line."""
    if not tracker:
        return str(finding.line) if finding.line else ""
    key = (finding.claim or "").split(" ", 1)[0]
    import re

    return key if re.fullmatch(r"#\d+|[A-Z][A-Z0-9_]*-\d+", key) else ""


def _date_findings(ctx, state: dict | None, where: str) -> list[Finding]:
    if state is None:
        return [Finding("no `## CURRENT STATE — <date>` block", file=where)]
    if state["date"] is None:
        return [Finding(f"the CURRENT STATE block is not dated (heading says {state['date_text']!r})", file=where, line=state["line"])]
    last = last_work_commit(ctx)
    if last and last[1] > state["date"]:
        return [Finding(f"the CURRENT STATE block is dated {state['date']}, older than commit {last[0][:12]} of {last[1]} "
                        f"that changed work outside the record; update the state", file=where, line=state["line"], commit=last[0])]
    return []


def last_work_commit(ctx) -> tuple[str, str] | None:
    """(sha, YYYY-MM-DD) of the newest commit on HEAD touching anything but the record files."""
    if ctx.head.sha is None:
        return None
    excludes = [f":(exclude){path}" for path in sorted(set(ctx.record_paths.values()))]

    def read():
        out = ctx.git("log", "-1", "--format=%H %cs", "HEAD", "--", ".", *excludes).split()
        return out if len(out) == 2 else None

    if ctx.history is None:
        found = read()
    else:  # the history behind HEAD does not change: neither does its newest work commit
        from cc_hooks.memo import remember

        found = remember(ctx.state, "last-work-commit", [ctx.history, *excludes], read)
    return (found[0], found[1]) if found else None


def claim_findings(ctx) -> list[tuple[str, Finding]]:
    """(claim kind, finding) for every contradicted dashboard claim; verified once per context."""
    if "dashboard_claims" not in ctx.cache:
        from cc_hooks.checks.claims_adapter import contradicted, dashboard_claims

        claims, state_date = dashboard_claims(ctx)
        ctx.cache["dashboard_claims"] = contradicted(ctx, claims, state_date)
    return ctx.cache["dashboard_claims"]
