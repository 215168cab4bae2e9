"""The thin layer between the checks and helper F's claims package:
build claims from the dashboard and from touched docs, verify them in one batch,
and turn the contradicted ones into findings. No verification logic lives here."""

from __future__ import annotations

from cc_hooks.checks.result import Finding


def dashboard_claims(ctx) -> tuple[list, str | None]:
    """The dashboard's claims and its state block's date."""
    from cc_hooks.claims.dashboard import claims_of, state_date

    facts = dashboard_facts(ctx)
    if isinstance(facts, str):
        return [], None
    return claims_of(facts), state_date(facts)


def dashboard_facts(ctx) -> dict | str:
    """What the checklist needs of the dashboard (``cc_hooks.claims.dashboard.facts_of``), read once
    per run; a file dashboard's facts are remembered by its bytes. A str is why the dashboard could
    not be opened."""
    if "dashboard_facts" not in ctx.cache:
        from cc_hooks.claims.dashboard import facts_of, remembered_facts
        from cc_hooks.record.dashboard import DashboardError, get_backend

        declaration = ctx.declaration[0]
        try:
            backend = get_backend(declaration.backend, ctx.root, declaration.locator)
            if declaration.backend == "file":
                data, failed = backend.read_bytes()
                facts = facts_of(failed) if failed is not None else remembered_facts(ctx.state, declaration.locator, data)
            else:
                facts = facts_of(backend.read())
        except DashboardError as exc:
            facts = str(exc)
        ctx.cache["dashboard_facts"] = facts
    return ctx.cache["dashboard_facts"]


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
