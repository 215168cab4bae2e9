"""The thin layer between the checks and helper F's claims package:
build claims from the dashboard and from touched docs, verify them in one batch,
and turn the contradicted ones into findings. No verification logic lives here."""

from __future__ import annotations

from cc_hooks.checks.result import Finding


def dashboard_claims(ctx) -> tuple[list, str | None]:
    """The dashboard's claims and its state block's date."""
    from cc_hooks.claims.extract import claim_from_line
    from cc_hooks.record.dashboard import DashboardError, get_backend

    declaration = ctx.declaration[0]
    try:
        read = get_backend(declaration.backend, ctx.root, declaration.locator).read()
    except DashboardError:
        return [], None
    source = declaration.locator
    claims = []
    if read.state is not None:
        for claim in read.state.claims:
            section = "resume" if claim.kind == "resume" else "state"
            claims.append(claim_from_line(claim.text, source, claim.line or None, section=section, date=read.state.date))
    for item in read.queued:
        claims.append(claim_from_line(item.text, source, item.line or None, section="queue", date=item.date, done=item.done))
    return claims, (read.state.date if read.state else None)


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
