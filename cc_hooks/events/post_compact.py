"""PostCompact: capture the harness summary; its audit reaches the model on the next prompt."""

from __future__ import annotations

from cc_hooks.events._project import open_project
from cc_hooks.runtime import HookContext

UNCHECKED_NOTE = (
    "The compaction summary in this context was written by the model from the conversation; "
    "cc-hooks captured it but has not verified its claims. Where it disagrees with git or the "
    "record files, the sources win."
)


def handle(ctx: HookContext):
    from cc_hooks.protocol import PostCompactInput, post_compact_output
    from cc_hooks.state import add_pending, stamp, state_key, write_json

    event = PostCompactInput.model_validate(ctx.payload)
    project = open_project(ctx, "post_compact_seconds")
    if project is None:
        return None
    directory = ctx.state_dir(create=True)
    if directory is None:
        return None
    summary = event.compact_summary or ""
    path = directory / "summaries" / state_key(event.session_id) / f"{stamp()}.json"
    write_json(path, {"session_id": event.session_id, "trigger": event.trigger, "prompt_id": event.prompt_id, "summary": summary})
    add_pending(directory, event.session_id, {"kind": "summary", "capture": str(path), "text": UNCHECKED_NOTE})
    return post_compact_output(f"cc-hooks: captured the compaction summary ({len(summary)} chars).")


def on_timeout(ctx: HookContext):
    return None
