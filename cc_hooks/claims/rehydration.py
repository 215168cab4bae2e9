"""Rehydration: read the dashboard, verify every claim, render the report.

``build_rehydration`` is what SessionStart and ``cc-hooks rehydrate`` call.
It never raises for a missing or malformed record: the report says so.

The claims extracted from a dashboard file are remembered by its bytes
(``cc_hooks.memo``): an unchanged dashboard is read, not parsed again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Sequence

from cc_hooks.claims.model import CONTRADICTED, UNVERIFIED, Claim, counts

SUMMARY_SOURCE = "summary"
STALE_CAP = 1000


@dataclass
class Rehydration:
    markdown: str
    system_message: str
    counts: dict
    claims: list[Claim]
    resume_point: Optional[Claim] = None
    dashboard: Optional[str] = None
    state_date: Optional[str] = None
    initialized: bool = True
    cut: bool = False
    git_calls: int = 0
    notes: list[str] = field(default_factory=list)
    capture_debt: list[str] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        """0 nothing contradicted, 1 contradictions, 2 the record could not be checked."""
        if self.counts.get(CONTRADICTED):
            return 1
        return 0 if self.initialized else 2

    def to_dict(self) -> dict:
        return {
            "initialized": self.initialized,
            "dashboard": self.dashboard,
            "state_date": self.state_date,
            "counts": self.counts,
            "resume_point": self.resume_point.to_dict() if self.resume_point else None,
            "claims": [c.to_dict() for c in self.claims],
            "capture_debt": self.capture_debt,
            "notes": self.notes,
            "git_calls": self.git_calls,
            "system_message": self.system_message,
        }


def build_rehydration(
    repo_root: Path,
    source: str,
    config,
    deadline,
    summary_text: Optional[str] = None,
    capture_debt: Sequence = (),
    summary_date: Optional[str] = None,
    notes: Sequence[str] = (),
    debt_title: Optional[str] = None,
) -> Rehydration:
    """Verify the dashboard (and ``summary_text``, a compaction summary) and render the report.

    ``deadline``: any object with ``remaining() -> float`` seconds. ``capture_debt``:
    strings or records (dicts / objects with status, name, message) from the last
    PreCompact checkpoint. ``notes``: facts the caller wants stated in the header
    (a configuration problem, missing stores). ``debt_title``: what the capture
    debt section says about where the debt comes from (default: the last
    PreCompact checkpoint).
    """
    from cc_hooks import report
    from cc_hooks.claims.verify import verify_claims

    repo_root = Path(repo_root)
    budget = getattr(getattr(config, "hooks", None), "budget_chars", report.DEFAULT_BUDGET)
    facts, locator, found = _read_dashboard(repo_root, config, deadline)
    notes = list(notes) + found
    debt = report.debt_lines(capture_debt)
    if facts is None:
        head, problem = _head_only(repo_root, deadline)
        notes += [problem] if problem else []
        data = report.ReportInput(
            source, [], dashboard=locator, capture_debt=capture_debt, notes=notes, initialized=False, budget=budget, head=head,
            debt_title=debt_title,
        )
        text, _ = report.render(data)
        empty = counts([])
        return Rehydration(text, report.system_message(empty, initialized=False), empty, [], dashboard=locator, initialized=False, notes=notes, capture_debt=debt)
    from cc_hooks.claims.dashboard import claims_of, state_date as dated

    state_date = dated(facts)
    claims = claims_of(facts, undated_by_state=True)
    resume = next((c for c in claims if c.section == "resume"), None)
    if summary_text:
        from cc_hooks.claims.extract import extract_from_text

        claims.extend(extract_from_text(summary_text, SUMMARY_SOURCE, date=summary_date))
    ctx = verify_claims(repo_root, claims, config, deadline, state_date=state_date)
    head = _head_fact(ctx)
    notes = notes + _staleness(ctx, state_date)
    data = report.ReportInput(
        source,
        claims,
        dashboard=locator,
        state_date=state_date,
        resume_point=resume,
        capture_debt=capture_debt,
        debt_title=debt_title,
        summary_audited=bool(summary_text),
        summary_date=summary_date if summary_text else None,
        head=head,
        notes=notes,
        budget=budget,
    )
    text, cut = report.render(data)
    counted = counts(claims)
    return Rehydration(
        text,
        report.system_message(counted, cut=cut),
        counted,
        claims,
        resume,
        locator,
        state_date,
        True,
        cut,
        ctx.git_calls,
        notes,
        debt,
    )


def _read_dashboard(root: Path, config, deadline=None):
    """(facts of the dashboard, or None when there is none to check; locator; notes).

    The facts (``cc_hooks.claims.dashboard``) are remembered by the file's bytes.
    The notes quote repository text, so it stays data.
    """
    from cc_hooks.claims.dashboard import facts_of, remembered_facts
    from cc_hooks.record.dashboard import DashboardError, get_backend, locate_dashboard
    from cc_hooks.report import quote
    from cc_hooks.state import state_dir

    try:
        declaration = locate_dashboard(root, config)
        backend = get_backend(declaration.backend, root, declaration.locator)
    except DashboardError as exc:
        return None, None, [f"The dashboard could not be opened: {quote(str(exc))}."]
    if declaration.backend != "file":
        from cc_hooks.claims.dashboard import tracker_facts

        return tracker_facts(backend, deadline.remaining() if deadline is not None else None)
    data, failed = backend.read_bytes()
    facts = facts_of(failed) if failed is not None else remembered_facts(state_dir(root), declaration.locator, data)
    problems = [message for rule, severity, message, _, _ in facts["findings"] if severity != "info" and rule != "dashboard-missing"]
    return (None if failed is not None else facts), declaration.locator, [f"Dashboard problem: {quote(m)}" for m in problems[:3]]


def _head_fact(ctx) -> Optional[str]:
    """Where HEAD is: from the status the verifiers read, else one ``status`` now."""
    from cc_hooks.claims.context import BudgetExhausted
    from cc_hooks.git import GitError
    from cc_hooks.report import head_fact

    try:
        status = ctx._status or ctx.status(untracked=False)
    except (BudgetExhausted, GitError):
        return None
    return head_fact(status.branch, status.oid)


def _head_only(root: Path, deadline) -> tuple[Optional[str], Optional[str]]:
    """(the HEAD fact, or None and why git could not be read)."""
    from cc_hooks.git import GitError, head
    from cc_hooks.report import head_fact

    if deadline.remaining() <= 0.1:
        return None, None
    try:
        tip = head(root, timeout=min(5.0, deadline.remaining()))
    except GitError as exc:
        from cc_hooks.report import quote

        return None, f"Git state could not be read: {quote(str(exc))}."
    return head_fact(tip.branch, tip.sha), None


def _staleness(ctx, state_date: Optional[str]) -> list[str]:
    """How many commits landed since the state block's date (one process)."""
    from cc_hooks.claims.context import BudgetExhausted
    from cc_hooks.git import GitError

    if not state_date:
        return []
    try:
        out = ctx.git("rev-list", "--count", f"--max-count={STALE_CAP}", f"--since={state_date}T23:59:59", "HEAD", check=False).strip()
    except (BudgetExhausted, GitError):
        return []
    if out.isdigit() and int(out) > 0:
        many = f"{out}+" if int(out) >= STALE_CAP else out
        return [f"{many} commit(s) on HEAD are newer than the CURRENT STATE date {state_date}: the state block may be stale."]
    return []


def latest_summary(transcript: Path) -> tuple[Optional[str], Optional[str]]:
    """(text, ISO date) of the last compaction summary in a transcript, or (None, None)."""
    text = date = None
    try:
        handle = open(transcript, encoding="utf-8", errors="replace")
    except OSError:
        return None, None
    with handle:
        for line in handle:
            if '"isCompactSummary"' not in line:
                continue
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if not isinstance(entry, dict) or entry.get("isCompactSummary") is not True:
                continue
            content = (entry.get("message") or {}).get("content")
            if isinstance(content, list):
                content = "\n".join(b.get("text", "") for b in content if isinstance(b, dict))
            if isinstance(content, str) and content.strip():
                text = content
                stamp = entry.get("timestamp")
                date = stamp[:10] if isinstance(stamp, str) and len(stamp) >= 10 else None
    return text, date


def unverified_reasons(claims: list[Claim]) -> dict[str, int]:
    reasons: dict[str, int] = {}
    for claim in claims:
        if claim.verdict == UNVERIFIED:
            reasons[claim.evidence] = reasons.get(claim.evidence, 0) + 1
    return reasons
