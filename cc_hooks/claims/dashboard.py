"""The claims a dashboard makes, extracted once per content.

The rehydration report and the compaction checklist both verify the dashboard's
claims. What reading and extraction make of a dashboard file (its state block,
its findings, its claims) is remembered by the file's bytes (``cc_hooks.memo``),
so an unchanged dashboard is neither parsed nor extracted again; the claims are
verified anew by every caller. A queued item keeps its own date (None when
undated): the report dates such items by the state block, the checklist does not.
"""

from __future__ import annotations

from typing import Optional


def remembered_facts(state, locator: str, data: bytes) -> dict:
    """``facts_of`` the file dashboard ``data`` at ``locator``, remembered by its bytes."""
    from cc_hooks.memo import remember

    def parse() -> dict:
        from cc_hooks.record.backends.file import parse

        return facts_of(parse(data, locator))

    return remember(state, "dashboard", [locator, data], parse)


def facts_of(read) -> dict:
    """A ``DashboardRead`` as JSON data: ``exists``, ``state`` (date, date_text, line), ``findings``
    ([rule, severity, message, file, line]) and ``claims`` (``Claim.extracted``)."""
    from cc_hooks.claims.extract import claim_from_line

    source, block = read.locator, read.state
    claims = []
    if block is not None:
        for item in block.claims:
            section = "resume" if item.kind == "resume" else "state"
            claims.append(claim_from_line(item.text, source, item.line or None, section, block.date))
    for item in read.queued:
        claims.append(claim_from_line(item.text, source, item.line or None, "queue", item.date, item.done))
    return {
        "exists": read.exists,
        "state": None if block is None else {"date": block.date, "date_text": block.date_text, "line": block.line},
        "findings": [[f.rule, getattr(f, "severity", "error"), f.message, f.file, f.line] for f in read.findings],
        "claims": [claim.extracted() for claim in claims],
    }


TRACKER_MARGIN = 0.5  # seconds of a hook's budget kept for verifying and rendering after a tracker read


def tracker_facts(backend, remaining: Optional[float] = None) -> tuple[Optional[dict], str, list[str]]:
    """(facts of a tracker dashboard, or None when it could not be read at all; its name; the
    report's notes about the read). ``remaining``: the caller's budget, in seconds; the read
    gets at most that less a margin, and never more than the configured timeout."""
    from cc_hooks.record.backends._tracker import STALE_RULE, UNREAD_RULE
    from cc_hooks.report import quote

    timeout = None if remaining is None else max(0.1, remaining - TRACKER_MARGIN)
    read = backend.read(timeout=timeout)
    facts = facts_of(read)
    notes = []
    for rule, severity, message, _, _ in facts["findings"]:
        if rule in (STALE_RULE, UNREAD_RULE):
            said, _, reason = message.partition(" unreachable: ")
            notes.append(f"{said} unreachable: {quote(reason)}.")
        elif severity != "info":
            notes.append(f"Dashboard problem: {quote(message)}")
    return (facts if read.exists else None), read.locator, notes[:4]


def state_date(facts: dict) -> Optional[str]:
    return facts["state"]["date"] if facts["state"] else None


def claims_of(facts: dict, undated_by_state: bool = False) -> list:
    """The claims, ready to verify; ``undated_by_state``: an undated queued item takes the state block's date."""
    from cc_hooks.claims.model import Claim

    claims = [Claim.from_extracted(data) for data in facts["claims"]]
    if undated_by_state:
        for claim in claims:
            if claim.section == "queue" and not claim.date:
                claim.date = state_date(facts)
    return claims
