"""UserPromptSubmit: deliver, once, what an earlier hook queued for this session.

Runs on every prompt, so the common case (nothing queued) is a stat() after
Python starts: no pydantic, no git, no config.
"""

from __future__ import annotations

from cc_hooks.runtime import SILENT, HookContext


def quick(payload: dict, cwd: str):
    from cc_hooks.state import common_dir_path, has_pending

    session_id = payload.get("session_id")
    if not isinstance(session_id, str) or not session_id:
        return SILENT
    common = common_dir_path(cwd)
    if common is None or not has_pending(common, session_id):
        return SILENT
    return None  # something is queued: take the full path


def handle(ctx: HookContext):
    from cc_hooks.config import load_config_or_default
    from cc_hooks.protocol import user_prompt_submit_output
    from cc_hooks.state import take_pending

    directory = ctx.state_dir()
    if directory is None:
        return None
    pending = take_pending(directory, ctx.session_id)
    if not isinstance(pending, dict):
        return None
    texts = [item["text"] for item in pending.get("items", []) if isinstance(item, dict) and isinstance(item.get("text"), str)]
    if not texts:
        return None
    config, _ = load_config_or_default(ctx.repo_root())
    return user_prompt_submit_output("\n\n".join(texts), config.hooks.budget_chars)


def on_timeout(ctx: HookContext):
    return None
