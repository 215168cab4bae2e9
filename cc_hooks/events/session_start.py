"""SessionStart: the next context starts with the working state re-derived from sources of truth.

After a compaction the report also carries the capture debt of the PreCompact
checkpoint of this compaction, and says so when there is none (PreCompact does
not fire on some Claude Code versions and compaction paths): then the checklist
runs here, within what is left of the budget. On resume, the summary captured
at the last compaction is audited too.
"""

from __future__ import annotations

from cc_hooks.events._project import open_project
from cc_hooks.runtime import Deadline, HookContext

RECENT_SECONDS = 15 * 60  # a checkpoint without prompt_id this recent belongs to this compaction


def handle(ctx: HookContext):
    from cc_hooks.protocol import SessionStartInput, session_start_output

    event = SessionStartInput.model_validate(ctx.payload)
    project = open_project(ctx, "session_start_seconds")
    if project is None or event.source not in project.config.hooks.report_sources:
        return None
    directory = ctx.state_dir()
    preface, debt, summary = "", [], None
    if event.source == "compact":
        preface, debt = _capture_debt(ctx, project, event, directory)
    elif event.source in ("resume", "fork"):
        summary = _last_summary(directory, event.session_id)
    budget = project.config.hooks.budget_chars
    rehydration = _rehydrate(ctx, project, event.source, summary, debt, budget - len(preface), _notes(project))
    return session_start_output(preface + rehydration.markdown, rehydration.system_message, budget)


def _notes(project) -> list[str]:
    notes = []
    missing = project.missing_stores()
    if missing:
        notes.append("Record files missing: " + ", ".join(missing) + " (`cc-hooks init` creates them).")
    if project.config_problem:
        notes.append(f"Configuration problem (defaults used): {project.config_problem}")
    return notes


def _rehydrate(ctx, project, source, summary, debt, budget, notes):
    from cc_hooks.claims.rehydration import build_rehydration

    hooks = project.config.hooks.model_copy(update={"budget_chars": max(500, budget)})
    config = project.config.model_copy(update={"hooks": hooks})
    text, date = (summary or (None, None))
    return build_rehydration(project.root, source, config, ctx.deadline, summary_text=text, capture_debt=debt, summary_date=date, notes=notes)


def _capture_debt(ctx, project, event, directory):
    """(preface, debt): what PreCompact found unrecorded, or the checklist run now if it did not run."""
    checkpoint = _checkpoint_of_this_compaction(directory, event)
    if checkpoint is not None:
        return "", [item.get("text", "") for item in checkpoint.get("preserve", []) if isinstance(item, dict)]
    from cc_hooks.checks import run_checks, score
    from cc_hooks.checks.context import make_context
    from cc_hooks.checks.preserve import preserve_items

    checks_deadline = Deadline(ctx.deadline.remaining() / 2)
    results = run_checks(make_context(project.root, checks_deadline, event.transcript_path, event.session_id or None, project.config))
    preface = (
        "**Capture missed:** no PreCompact checkpoint exists for this compaction (the PreCompact hook did not run "
        f"or did not finish), so nothing told the summarizer what to keep. The checklist ran now: {score(results)}.\n\n"
    )
    return preface, [item["text"] for item in preserve_items(results)]


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
    """(text, date) of the summary captured at this session's last compaction, if any."""
    from cc_hooks.state import read_json, state_key

    if directory is None:
        return None
    captures = sorted((directory / "summaries" / state_key(session_id)).glob("*.json"))
    for path in reversed(captures):
        data = read_json(path)
        if isinstance(data, dict) and isinstance(data.get("summary"), str) and data["summary"].strip():
            return data["summary"], path.stem[:8]
    return None


def on_timeout(ctx: HookContext):
    from cc_hooks.protocol import session_start_output

    return session_start_output(
        "cc-hooks: the rehydration report did not finish within its time budget; nothing in it was verified. "
        "Run `cc-hooks rehydrate` for the full report.",
        "cc-hooks: report timed out",
        2_000,
    )
