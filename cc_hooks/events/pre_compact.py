"""PreCompact: remember the state and tell the summarizer what must survive."""

from __future__ import annotations

from cc_hooks.events._project import open_project
from cc_hooks.runtime import HookContext

SUMMARY_RULES = (
    "Rules that keep this summary checkable: for every piece of completed work give the commit sha; "
    "name branches and file paths exactly; say which claims were not verified; "
    "keep root causes, ruled-out hypotheses and the user's corrections verbatim."
)


def handle(ctx: HookContext):
    from cc_hooks.git import GitError, head
    from cc_hooks.protocol import PreCompactInput, pre_compact_output
    from cc_hooks.state import stamp, state_key, write_json

    event = PreCompactInput.model_validate(ctx.payload)
    project = open_project(ctx, "pre_compact_seconds")
    if project is None:
        return None
    try:
        tip = head(project.root, timeout=ctx.deadline.timeout(5))
        head_line = f"HEAD `{tip.sha[:12]}` on {tip.branch or 'detached HEAD'}" if tip.sha else "no commits yet"
    except GitError as exc:
        tip, head_line = None, f"git state unreadable ({exc})"
    directory = ctx.state_dir(create=True)
    if directory is not None:
        checkpoint = {
            "session_id": event.session_id,
            "prompt_id": event.prompt_id,
            "trigger": event.trigger,
            "head": tip.sha if tip else None,
            "branch": tip.branch if tip else None,
        }
        key = state_key(event.prompt_id) if event.prompt_id else stamp()
        try:
            write_json(directory / "checkpoints" / state_key(event.session_id) / f"{key}.json", checkpoint)
        except OSError as exc:
            ctx.log("warning", f"checkpoint not written: {exc}")
    text = f"cc-hooks (state before this compaction): {head_line}.\n{SUMMARY_RULES}"
    return pre_compact_output(text, project.config.hooks.budget_chars)


def on_timeout(ctx: HookContext):
    from cc_hooks.protocol import pre_compact_output

    return pre_compact_output("cc-hooks: the compaction checklist did not finish in time; " + SUMMARY_RULES, 2_000)
