"""Verify any list of claims within a deadline.

Verifiers run in a fixed order, each once for all the claims it applies to
(git, attribution, paths, contents, queue, position, then external probes, the slowest), after one
``cat-file`` looked up every object name any of them needs. When the
deadline passes, every claim a verifier did not get to is UNVERIFIED("time
budget"); when git fails, UNVERIFIED with git's message. Nothing is VERIFIED
by default.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from cc_hooks.claims import (verify_attribution, verify_code, verify_contents, verify_external, verify_git, verify_history, verify_paths,
                             verify_position, verify_queue)
from cc_hooks.claims.context import BudgetExhausted, VerifyContext
from cc_hooks.claims.model import FUTURE_WORK, NO_ADDRESS, TIME_BUDGET, UNVERIFIED, Claim

VERIFIERS = (verify_git, verify_attribution, verify_paths, verify_contents, verify_history, verify_code, verify_queue, verify_position,
             verify_external)


def verify_claims(
    repo_root: str | Path,
    claims: list[Claim],
    config,
    deadline,
    state_date: Optional[str] = None,
) -> VerifyContext:
    """Add checks to every claim (in place); returns the context (``git_calls`` counts processes).

    ``deadline`` is any object with ``remaining() -> float`` seconds;
    ``state_date`` (ISO) is the date of the state block the claims come from,
    which position claims are judged against.
    """
    from cc_hooks.git import GitError

    ctx = VerifyContext(Path(repo_root), config, deadline, state_date)
    plan = [(verifier, [c for c in claims if verifier.applies(c)]) for verifier in VERIFIERS]
    _look_up_objects(ctx, plan)
    for verifier, relevant in plan:
        if not relevant:
            continue
        try:
            if deadline.remaining() <= 0:
                raise BudgetExhausted()
            verifier.verify(ctx, relevant)
        except (BudgetExhausted, GitError) as exc:
            reason = TIME_BUDGET if _is_timeout(exc) else f"could not check: {exc}"
            for claim in relevant:
                if not any(check.by == verifier.NAME for check in claim.checks):
                    claim.add("", UNVERIFIED, reason, verifier.NAME)
    for claim in claims:
        if not claim.checks:
            claim.add("", UNVERIFIED, FUTURE_WORK if claim.intent and claim.addresses else NO_ADDRESS, "")
    return ctx


def _look_up_objects(ctx: VerifyContext, plan) -> None:
    """Every object name any verifier will look up, in one ``cat-file`` process.

    Best effort: when it fails, each verifier asks again and reports the failure on its claims.
    """
    from cc_hooks.git import GitError

    names = [name for verifier, relevant in plan if relevant and hasattr(verifier, "object_names") for name in verifier.object_names(ctx, relevant)]
    try:
        ctx.objects(names)
    except (BudgetExhausted, GitError):
        pass


def _is_timeout(exc: Exception) -> bool:
    from cc_hooks.git import GitTimeout

    return isinstance(exc, (BudgetExhausted, GitTimeout))
