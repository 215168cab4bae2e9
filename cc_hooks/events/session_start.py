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
# When PreCompact left its marker (cc_hooks.markers) but no checkpoint: it ran, and its write failed
# (the error is known) or it did not finish. The person's line says the same in a few words.
CAPTURE_NOT_STORED = ("Capture incomplete: the PreCompact hook ran but could not store its checkpoint ({why}), so "
                      "what it found is not here. The compaction checklist ran now instead.")
CAPTURE_UNFINISHED = ("Capture incomplete: the PreCompact hook started but did not finish, so it stored no checkpoint. "
                      "The compaction checklist ran now instead.")
# Neither a checkpoint nor a marker, and no marker could have been made: nothing tells whether it ran.
CAPTURE_UNKNOWN = ("Capture unknown: no PreCompact checkpoint exists for this compaction, and none could have been "
                   "stored (the state directory cannot be written), so whether the PreCompact hook ran cannot be "
                   "told. The compaction checklist ran now instead.")
DETAILS_POINTER = "`cc-hooks summaries show`"
REPORT = "rehydration report"
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
        problem = _keep_report(ctx, directory, event.session_id, result.stdout)
        if problem:  # nothing was kept, so the person's line may change: it says so, and points nowhere
            result = ctx.harness.session_start_output(rehydration.markdown,
                                                      _visible(rehydration.system_message, capture, problem), budget)
    return result


def _keep_report(ctx, directory, session_id: str, stdout: str) -> Optional[str]:
    """Keep the report as injected, for ``cc-hooks summaries show`` (best effort: the report stands);
    None, or why it could not be kept."""
    from cc_hooks.state import write_problem
    from cc_hooks.summaries.store import save_report

    if directory is None or not session_id:
        return None
    try:
        save_report(directory, session_id, "compact", stdout)
    except OSError as exc:
        ctx.log("warning", f"report not kept: {exc}")
        return write_problem(exc)
    return None


def _visible(report_line: str, capture: "Capture", unkept: Optional[str] = None) -> str:
    """The person's line: after a compaction, the checklist's result before the report's counts
    ("cc-hooks: checklist 6/10 PASS (auto); 1 verified, ... — `cc-hooks summaries show` for details").
    Auto compaction shows nothing else of cc-hooks on screen (PreCompact's and PostCompact's output
    appear only after a manual /compact), so this line carries what matters. ``unkept``: why the
    report could not be stored (then there are no details to show)."""
    from cc_hooks.state import not_stored

    if capture.checklist is None:
        return report_line + (f"; {not_stored(REPORT, unkept)}" if unkept else "")
    counts = report_line.removeprefix("cc-hooks: ")
    tail = f"; {not_stored(REPORT, unkept)}" if unkept else f" — {DETAILS_POINTER} for details"
    return f"cc-hooks: checklist {capture.checklist}; {counts}{tail}"


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

    note, why = _missed(directory, event)
    checks_deadline = Deadline(ctx.deadline.remaining() / 2)
    results = run_checks(make_context(project.root, checks_deadline, event.transcript_path, event.session_id or None, project.config))
    result = _result(score(results), [r.id for r in results if r.status == FAIL])
    debt = _debt(preserve_items(results))
    failing = [r.id for r in results if r.status == FAIL]
    return Capture(debt, f"found by the compaction checklist run now: {result}", [f"{note} Result: {result}."],
                   checklist=_short_result(score(results), failing, why))


def _missed(directory, event) -> tuple[str, str]:
    """(the report's note, the person's few words) on why this compaction has no checkpoint: told
    from PreCompact's marker, or said to be unknowable when no marker could have been made."""
    from cc_hooks.markers import can_mark, consume, find
    from cc_hooks.printable import clean

    if directory is None:
        return CAPTURE_UNKNOWN, "run now, PreCompact unknown"
    found = find(directory, event.session_id, event.prompt_id, RECENT_SECONDS)
    if found is not None:
        marker, why = found
        consume(marker)
        if why is None:
            return CAPTURE_UNFINISHED, "run now, PreCompact did not finish"
        return CAPTURE_NOT_STORED.format(why=clean(why)[:200]), "run now, PreCompact's checkpoint not stored"
    if not can_mark(directory):
        return CAPTURE_UNKNOWN, "run now, PreCompact unknown"
    return CAPTURE_MISSED, "run now, no PreCompact"


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
