"""SessionStart: the next context starts with the working state re-derived from sources of truth.

After a compaction the report also carries the capture debt of the PreCompact
checkpoint of this compaction, and says so when there is none (PreCompact does
not fire on some Claude Code versions and compaction paths): then the checklist
runs here, within what is left of the budget. On resume, the summary captured
at the last compaction is audited too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

from cc_hooks.events._project import open_project
from cc_hooks.runtime import Deadline, HookContext

RECENT_SECONDS = 15 * 60  # a checkpoint without prompt_id this recent belongs to this compaction
CAPTURE_MISSED = (
    "Capture missed: no PreCompact checkpoint exists for this compaction (the PreCompact hook did not run "
    "or did not finish), so nothing told the summarizer what to keep. The compaction checklist ran now instead."
)
DETAILS_POINTER = "`cc-hooks summaries show`"
# After the capture title when the harness never shows PreCompact's output to its summarizer (Codex).
UNSTEERED = ("does not pass PreCompact's findings to its summarizer, so the summary was written without them: "
             "each item below is a fact found before the compaction, true until it is recorded")
# Checklist items about the dashboard's claims: the report verifies those itself, freshly.
REVERIFIED_CHECKS = ("dashboard", "stale-claims")


@dataclass
class Capture:
    """What the report says about the capture of this compaction."""

    debt: list = field(default_factory=list)
    title: Optional[str] = None
    notes: list = field(default_factory=list)
    checklist: Optional[str] = None  # for the person: "6/10 PASS, 2 FAIL (auto; FAIL: questions, audit)"


def handle(ctx: HookContext):
    from cc_hooks.protocol import SessionStartInput

    event = SessionStartInput.model_validate(ctx.payload)
    project = open_project(ctx, "session_start_seconds")
    if project is None or event.source not in project.config.hooks.report_sources:
        return None
    directory = ctx.state_dir()
    notes = _notes(project)
    capture, summary = Capture(), None
    if event.source == "compact":
        capture = _capture(ctx, project, event, directory)
        if not ctx.harness.steers_summary and capture.debt:
            capture.title += f"; {ctx.harness.label} {UNSTEERED}"
    elif event.source in ("resume", "fork"):
        summary = _last_summary(directory, event.session_id)
    budget = project.config.hooks.budget_chars
    rehydration = _rehydrate(ctx, project, event.source, summary, capture, notes + capture.notes)
    result = ctx.harness.session_start_output(rehydration.markdown, _visible(rehydration.system_message, capture), budget)
    if event.source == "compact":
        _keep_report(ctx, event.session_id, result.stdout)
    return result


def _keep_report(ctx, session_id: str, stdout: str) -> None:
    """Keep the report as injected, for ``cc-hooks summaries show`` (best effort: the report stands)."""
    from cc_hooks.summaries.store import save_report

    directory = ctx.state_dir(create=True)
    if directory is None or not session_id:
        return
    try:
        save_report(directory, session_id, "compact", stdout)
    except OSError as exc:
        ctx.log("warning", f"report not kept: {exc}")


def _visible(report_line: str, capture: "Capture") -> str:
    """The person's line: after a compaction, the checklist's result before the report's counts
    ("cc-hooks: checklist 6/10 PASS (auto); 1 verified, ... — `cc-hooks summaries show` for details").
    Auto compaction shows nothing else of cc-hooks on screen (PreCompact's and PostCompact's output
    appear only after a manual /compact), so this line carries what matters."""
    if capture.checklist is None:
        return report_line
    counts = report_line.removeprefix("cc-hooks: ")
    return f"cc-hooks: checklist {capture.checklist}; {counts} — {DETAILS_POINTER} for details"


def _notes(project) -> list[str]:
    """Header facts; the names and messages in them come from the repository, so they are quoted."""
    from cc_hooks.report import quote

    notes = []
    missing = project.missing_stores()
    if missing:
        notes.append("Record files missing: " + ", ".join(quote(name) for name in missing) + " (`cc-hooks init` creates them).")
    if project.config_problem:
        notes.append(f"Configuration problem (defaults used): {quote(project.config_problem)}")
    return notes


def _rehydrate(ctx, project, source, summary, capture: Capture, notes):
    from cc_hooks.claims.rehydration import build_rehydration

    text, date = summary or (None, None)
    return build_rehydration(
        project.root, source, project.config, ctx.deadline, summary_text=text, summary_date=date,
        capture_debt=capture.debt, debt_title=capture.title, notes=notes,
    )


def _capture(ctx, project, event, directory) -> Capture:
    """The debt of the PreCompact checkpoint of this compaction, or the checklist run now if there is none."""
    checkpoint = _checkpoint_of_this_compaction(directory, event)
    if checkpoint is not None:
        debt = _debt(item for item in checkpoint.get("preserve", []) if isinstance(item, dict))
        failing = [r.get("id") for r in checkpoint.get("results", []) if isinstance(r, dict) and r.get("status") == "FAIL"]
        trigger = checkpoint.get("trigger") if isinstance(checkpoint.get("trigger"), str) else "compaction"
        return Capture(debt, f"the PreCompact checklist of this compaction: {_result(checkpoint.get('score'), failing)}",
                       checklist=_short_result(checkpoint.get("score"), failing, trigger[:20]))
    from cc_hooks.checks import FAIL, run_checks, score
    from cc_hooks.checks.context import make_context
    from cc_hooks.checks.preserve import preserve_items

    checks_deadline = Deadline(ctx.deadline.remaining() / 2)
    results = run_checks(make_context(project.root, checks_deadline, event.transcript_path, event.session_id or None, project.config))
    result = _result(score(results), [r.id for r in results if r.status == FAIL])
    debt = _debt(preserve_items(results))
    failing = [r.id for r in results if r.status == FAIL]
    return Capture(debt, f"found by the compaction checklist run now: {result}", [f"{CAPTURE_MISSED} Result: {result}."],
                   checklist=_short_result(score(results), failing, "run now, no PreCompact"))


def _debt(items) -> list[str]:
    return [item.get("text", "") for item in items if item.get("check") not in REVERIFIED_CHECKS]


def _result(scored, failing: list) -> str:
    """ "7/10 PASS, 2 FAIL (FAIL: questions, audit)"."""
    text = str(scored or "no score recorded")
    return text + (f" (FAIL: {', '.join(str(f) for f in failing)})" if failing else "")


def _short_result(scored, failing: list, why: str) -> str:
    """ "8/10 PASS, 2 FAIL (auto; FAIL: questions, audit)", the ids cut to a few."""
    shown = ", ".join(str(f)[:40] for f in failing[:3]) + (", …" if len(failing) > 3 else "")
    return f"{str(scored or 'no score recorded')[:80]} ({why}{'; FAIL: ' + shown if failing else ''})"


def _checkpoint_of_this_compaction(directory, event):
    import time

    from cc_hooks.checkpoint import latest_checkpoint
    from cc_hooks.state import read_json, state_key

    if directory is None:
        return None
    if event.prompt_id:
        found = read_json(directory / "checkpoints" / state_key(event.session_id) / f"{state_key(event.prompt_id)}.json")
        if isinstance(found, dict):
            return found
    newest = latest_checkpoint(directory, event.session_id)
    if newest and isinstance(newest.get("created"), (int, float)) and time.time() - newest["created"] < RECENT_SECONDS:
        if not event.prompt_id or newest.get("prompt_id") in (None, event.prompt_id):
            return newest
    return None


def _last_summary(directory, session_id):
    """(text, ISO date) of the summary captured at this session's last compaction, if any.

    The ``<analysis>`` scratchpad is dropped: Claude Code does not keep it in
    the context, so its sentences are no claim the agent will act on.
    """
    from cc_hooks.state import read_json, state_key
    from cc_hooks.summaries.visible import without_analysis

    if directory is None:
        return None
    captures = sorted((directory / "summaries" / state_key(session_id)).glob("*.json"))
    for path in reversed(captures):
        data = read_json(path)
        if isinstance(data, dict) and isinstance(data.get("summary"), str):
            text = without_analysis(data["summary"]).strip()
            if text:
                return text, _stamp_date(path.stem)
    return None


def _stamp_date(stem: str) -> Optional[str]:
    """``20261129T101500123456Z`` (``cc_hooks.state.stamp``) -> ``2026-11-29``."""
    match = re.match(r"(\d{4})(\d{2})(\d{2})T", stem)
    return "-".join(match.groups()) if match else None


def on_timeout(ctx: HookContext):
    return ctx.harness.session_start_output(
        "cc-hooks: the rehydration report did not finish within its time budget; nothing in it was verified. "
        "Run `cc-hooks rehydrate` for the full report.",
        "cc-hooks: report timed out",
        2_000,
    )
