"""UserPromptSubmit: deliver, once, what an earlier hook queued for this session.

Runs on every prompt, so the common case (nothing queued) is a stat() after
Python starts: no pydantic, no git, no config. Only the queued items that fit the
output budget are taken (oldest first, the first one always); the rest stay queued
for the next prompt, so twenty audits queued at once all arrive, a few a prompt.
A summary a PostCompact queued but was killed before auditing is audited here, by the
prompt that took it (the only case in which this hook runs git).
"""

from __future__ import annotations

from cc_hooks.hook_result import SILENT
from cc_hooks.runtime import HookContext

DUE = "summary-audit-due"  # cc_hooks.events.post_compact.AUDIT_DUE, without importing it on every prompt
RESERVE_SECONDS = 0.3  # of the budget, kept for the answer when a left-over audit runs here


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
    # Everything slow (pydantic, the config) comes before the claim: once the queued
    # items are taken they must reach the output, or be queued again.
    from cc_hooks.config import load_config_or_default
    from cc_hooks.protocol import OUTPUT_CAP_CHARS

    user_prompt_submit_output = ctx.harness.user_prompt_submit_output
    from cc_hooks.state import settle_claims, take_pending

    directory = ctx.state_dir()
    if directory is None:
        return None
    config, _ = load_config_or_default(ctx.repo_root())
    ctx.deadline.reset(config.hooks.user_prompt_submit_seconds)
    if ctx.deadline.expired():
        return None  # the runtime has given up on us: leave the queue for the next prompt
    room = max(200, min(config.hooks.budget_chars, OUTPUT_CAP_CHARS - 200))  # as protocol.truncate counts
    claims: list = []  # removed only once the answer is built in time; a kill before leaves them to the next prompt
    pending = take_pending(directory, ctx.session_id, room, claims)
    if not isinstance(pending, dict):
        settle_claims(claims, delivered=True)  # nothing usable in them
        return None
    items = _finished(ctx, config, directory, [item for item in pending.get("items", []) if isinstance(item, dict)])
    texts = [item["text"] for item in items if isinstance(item.get("text"), str)]
    if not texts:
        settle_claims(claims, delivered=True)
        return None
    # The person's line: what the summary audit found (the model gets the whole audit as context).
    notices = [item["notice"] for item in items if isinstance(item.get("notice"), str) and item["notice"].strip()]
    result = user_prompt_submit_output("\n\n".join(texts), config.hooks.budget_chars, " · ".join(notices) or None)
    if ctx.deadline.expired():
        settle_claims(claims, delivered=False)  # too late to be printed: back in the queue, in order
        return None
    settle_claims(claims, delivered=True)
    return result


def _finished(ctx: HookContext, config, directory, items: list) -> list:
    """Each item a killed PostCompact left unaudited, audited now (its claim is ours: exactly once).
    Only after such a kill does this prompt run git; the audit keeps ``RESERVE_SECONDS`` for the answer."""
    due = [item.get("kind") == DUE for item in items]
    if not any(due):
        return items
    from cc_hooks.events.post_compact import finish_due
    from cc_hooks.runtime import Deadline

    deadline = Deadline(max(0.05, ctx.deadline.remaining() - RESERVE_SECONDS))
    return [finish_due(ctx, config, directory, item, deadline) if is_due else item for item, is_due in zip(items, due)]


def on_timeout(ctx: HookContext):
    return None
