"""The compaction checklist (methodology §2), one module per item.

Every check module defines ``ID`` and ``run(ctx: CheckContext) -> CheckResult``.
A check that could not look (git failed, time ran out, a file was unreadable)
says COULD_NOT_CHECK with the reason: never PASS.
"""

from __future__ import annotations

import importlib
from typing import Iterable, Optional

from cc_hooks.checks.context import CheckContext
from cc_hooks.checks.result import COULD_NOT_CHECK, FAIL, PASS, CheckResult, Finding, could_not_check

# Checklist order; also the order the report prints.
CHECK_IDS = ("session", "ledgers", "tracked-homes", "questions", "stale-claims", "dashboard", "trailers", "guards", "committed", "audit")
TIME_BUDGET = "time budget"

__all__ = ["CHECK_IDS", "CheckContext", "CheckResult", "Finding", "PASS", "FAIL", "COULD_NOT_CHECK", "run_checks", "run_check", "score"]


def module_for(check_id: str):
    return importlib.import_module(f"cc_hooks.checks.{check_id.replace('-', '_')}")


def run_check(ctx: CheckContext, check_id: str) -> CheckResult:
    """One check; its own failure to look becomes COULD_NOT_CHECK, never an exception."""
    from cc_hooks.git import GitError, GitTimeout

    if ctx.deadline.expired():
        return could_not_check(check_id, TIME_BUDGET)
    try:
        result = module_for(check_id).run(ctx)
    except GitTimeout:
        return could_not_check(check_id, TIME_BUDGET)
    except GitError as exc:
        return could_not_check(check_id, f"git: {exc}")
    except Exception as exc:  # a check must never take the checklist down
        ctx.errors.append(f"{check_id}: {type(exc).__name__}: {exc}")
        return could_not_check(check_id, f"internal error ({type(exc).__name__}: {exc})")
    return result


def run_checks(ctx: CheckContext, ids: Optional[Iterable[str]] = None) -> list[CheckResult]:
    return [run_check(ctx, check_id) for check_id in (ids or CHECK_IDS)]


def score(results: list[CheckResult]) -> str:
    """"6/9 PASS, 2 FAIL, 1 COULD_NOT_CHECK"."""
    counts = {status: sum(1 for r in results if r.status == status) for status in (PASS, FAIL, COULD_NOT_CHECK)}
    text = f"{counts[PASS]}/{len(results)} PASS"
    if counts[FAIL]:
        text += f", {counts[FAIL]} FAIL"
    if counts[COULD_NOT_CHECK]:
        text += f", {counts[COULD_NOT_CHECK]} could not be checked"
    return text


def exit_code(results: list[CheckResult]) -> int:
    """0 all PASS, 1 any FAIL, 2 nothing FAILed but something could not be checked."""
    statuses = {r.status for r in results}
    if FAIL in statuses:
        return 1
    return 2 if COULD_NOT_CHECK in statuses else 0
