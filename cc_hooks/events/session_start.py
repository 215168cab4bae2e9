"""SessionStart: the next context starts with the working state re-derived from git."""

from __future__ import annotations

from cc_hooks.events._project import open_project
from cc_hooks.runtime import HookContext


def handle(ctx: HookContext):
    from cc_hooks.git import GitError, head
    from cc_hooks.protocol import SessionStartInput, session_start_output

    event = SessionStartInput.model_validate(ctx.payload)
    project = open_project(ctx, "session_start_seconds")
    if project is None:
        return None
    if event.source not in project.config.hooks.report_sources:
        return None
    lines = [f"## cc-hooks: state at session start ({event.source})", f"Repository: `{project.root.name}`"]
    try:
        tip = head(project.root, timeout=ctx.deadline.timeout(5))
        branch = f"`{tip.branch}`" if tip.branch else "detached HEAD"
        lines.append(f"Branch: {branch}; HEAD: `{tip.sha[:12]}`" if tip.sha else f"Branch: {branch}; no commits yet")
    except GitError as exc:
        lines.append(f"Git state could not be read: {exc}")
    missing = project.missing_stores()
    if missing:
        lines.append("The record is not initialized: missing " + ", ".join(missing) + " (`cc-hooks init` creates them).")
    if project.config_problem:
        lines.append(f"Configuration problem (defaults used): {project.config_problem}")
    summary = "record not initialized" if missing else "record present (verification not run)"
    return session_start_output("\n".join(lines), f"cc-hooks: {summary}", project.config.hooks.budget_chars)


def on_timeout(ctx: HookContext):
    from cc_hooks.protocol import session_start_output

    return session_start_output(
        "cc-hooks: the state report did not finish within its time budget; nothing in it was verified. "
        "Run `cc-hooks rehydrate` for the full report.",
        "cc-hooks: report timed out",
        2_000,
    )
