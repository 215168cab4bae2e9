"""The thin layer between the checks and helper F's claims package:
build claims from the dashboard and from touched docs, verify them in one batch,
and turn the contradicted ones into findings. No verification logic lives here."""

from __future__ import annotations

from cc_hooks.checks.result import Finding


def dashboard_claims(ctx) -> tuple[list, str | None]:
    """The dashboard's claims and its state block's date."""
    from cc_hooks.claims.model import Claim

    facts = dashboard_facts(ctx)
    if isinstance(facts, str):
        return [], None
    state = facts["state"]
    return [Claim.from_extracted(c) for c in facts["claims"]], (state["date"] if state else None)


def dashboard_facts(ctx) -> dict | str:
    """What the checklist needs of the dashboard (exists, error findings, state block, extracted
    claims), read once per run; a file dashboard's facts are remembered by its bytes. A str is
    why the dashboard could not be opened."""
    if "dashboard_facts" not in ctx.cache:
        from cc_hooks.record.dashboard import DashboardError, get_backend

        declaration = ctx.declaration[0]
        try:
            backend = get_backend(declaration.backend, ctx.root, declaration.locator)
            data, failed = backend.read_bytes() if declaration.backend == "file" else (b"", None)
            if declaration.backend == "file" and failed is None:
                from cc_hooks.memo import remember
                from cc_hooks.record.backends.file import parse

                facts = remember(ctx.state, "checklist-dashboard", [declaration.locator, data],
                                 lambda: _facts(parse(data, declaration.locator)))
            else:
                facts = _facts(failed or backend.read())
        except DashboardError as exc:
            facts = str(exc)
        ctx.cache["dashboard_facts"] = facts
    return ctx.cache["dashboard_facts"]


def _facts(read) -> dict:
    from cc_hooks.claims.extract import claim_from_line

    source, state = read.locator, read.state
    claims = []
    if state is not None:
        for claim in state.claims:
            section = "resume" if claim.kind == "resume" else "state"
            claims.append(claim_from_line(claim.text, source, claim.line or None, section=section, date=state.date))
    for item in read.queued:
        claims.append(claim_from_line(item.text, source, item.line or None, section="queue", date=item.date, done=item.done))
    return {
        "exists": read.exists,
        "errors": [[f.message, f.file, f.line] for f in read.findings if f.severity == "error"],
        "state": None if state is None else {"date": state.date, "date_text": state.date_text, "line": state.line},
        "claims": [claim.extracted() for claim in claims],
    }


def text_claims(text: str, source: str, date: str | None = None) -> list:
    from cc_hooks.claims.extract import extract_from_text

    return extract_from_text(text, source=source, date=date)


def verify(ctx, claims: list, state_date: str | None = None) -> list:
    """Verify ``claims`` in place (one batch) and return them."""
    from cc_hooks.claims.verify import verify_claims

    if claims:
        verify_claims(ctx.root, claims, ctx.config, ctx.deadline, state_date=state_date)
    return claims


def contradicted(ctx, claims: list, state_date: str | None = None) -> list[tuple[str, Finding]]:
    """(kind, finding) for each claim the sources of truth contradict."""
    from cc_hooks.claims.model import CONTRADICTED

    out = []
    for claim in verify(ctx, claims, state_date):
        if claim.verdict == CONTRADICTED:
            out.append((claim.kind, Finding(f"\"{claim.text}\" is contradicted: {claim.evidence}",
                                            file=claim.source, line=claim.line, claim=claim.text)))
    return out
