"""PostCompact: capture the harness summary, audit it, and queue the audit for
the next prompt (PostCompact's own output reaches only the user).

The audit: every checkable claim of the summary (helper F's extraction and
verification, the same code the rehydration report uses), and whether each
"preserve verbatim" item of the PreCompact checkpoint made it into the summary.

The queued item comes first, before the capture: it carries the summary, and the
finished audit takes its place (``state.replace_pending``). A PostCompact killed in
between leaves it queued, and the prompt that takes it runs the audit (``finish_due``):
the audit reaches the next prompt exactly once whatever step the kill lands on.
"""

from __future__ import annotations

import re
import threading

from cc_hooks.events._project import open_project
from cc_hooks.runtime import HookContext

UNCHECKED_NOTE = (
    "The compaction summary in this context was written by the model from the conversation; "
    "cc-hooks captured it but has not verified its claims. Where it disagrees with git or the "
    "record files, the sources win."
)
# What the person sees when the prompt hook delivers the item (its systemMessage): PostCompact's own
# line reaches the screen only after a manual /compact, never after an auto compaction.
UNCHECKED_NOTICE = "cc-hooks: the compaction summary could not be audited; Claude was told it is unchecked"
NOTICE_LISTED = 2
MAX_LISTED = 8
# The handler and the timeout answer race for the capture and the queued item: each write happens
# under this lock, once, and an abandoned handler writes nothing after the timeout answer.
_WRITES = threading.Lock()


def handle(ctx: HookContext):
    from cc_hooks.protocol import PostCompactInput

    post_compact_output = ctx.harness.post_compact_output

    event = PostCompactInput.model_validate(ctx.payload)
    project = open_project(ctx, "post_compact_seconds")
    if project is None:
        return None
    directory = ctx.state_dir(create=True) or ctx.state_dir()  # one that cannot be made says why at the write
    if directory is None:
        return None
    summary = event.compact_summary or ctx.harness.compact_summary(ctx.payload) or ""  # Codex: from the transcript
    _steps(ctx)["summary"] = summary  # for the timeout answer, which must not read the transcript again
    capture = {"session_id": event.session_id, "trigger": event.trigger, "prompt_id": event.prompt_id, "summary": summary}
    path = _capture_path(ctx, directory, event.session_id)
    # Queued before anything is stored: a kill from here on leaves this item, and the prompt that takes
    # it audits the summary it carries (issue 51, item 3). The finished audit replaces it below.
    _queue_due(ctx, directory, event.session_id, {**unchecked_item(path), "kind": AUDIT_DUE, **capture})
    path, problem = _capture(ctx, path, capture)  # the capture next: an audit that fails loses nothing
    line = capture_line(summary, problem)
    try:
        audit = audit_summary(ctx, project, summary, event.session_id, event.prompt_id)
    except Exception as exc:  # the audit is best effort; the capture stands
        ctx.log("error", f"summary audit failed: {type(exc).__name__}: {exc}")
        queued = _settle(ctx, directory, event.session_id, unchecked_item(path))
        return post_compact_output(f"{line}; audit failed{'' if queued else '; nothing queued for the next prompt'}.")
    with _WRITES:
        _steps(ctx)["audit"] = audit
        if problem is None and not _steps(ctx).get("timed out"):
            _write(ctx, path, {**capture, "audit": audit})
    queued = _settle(ctx, directory, event.session_id, audited_item(path, audit))
    tail = "" if queued else "; the audit could not be queued for the next prompt"
    return post_compact_output(f"{line}; {audit_line(audit)}{tail}.")


AUDIT_DUE = "summary-audit-due"  # a queued summary whose audit is not done yet (it carries the summary)


def unchecked_item(path) -> dict:
    return {"kind": "summary", "capture": str(path) if path else None, "text": UNCHECKED_NOTE, "notice": UNCHECKED_NOTICE}


def audited_item(path, audit: dict) -> dict:
    return {"kind": "summary-audit", "capture": str(path) if path else None, "text": audit_text(audit),
            "notice": audit_notice(audit)}


def _steps(ctx: HookContext) -> dict:
    return ctx.steps  # mirrored to the parent when the handler runs isolated (cc_hooks.isolation)


def _capture_path(ctx: HookContext, directory, session_id: str):
    """Where this compaction's capture goes: chosen once, for the handler and the timeout answer."""
    from pathlib import Path

    from cc_hooks.state import stamp, state_key

    with _WRITES:
        steps = _steps(ctx)
        if "path" not in steps:
            steps["path"] = str(directory / "summaries" / state_key(str(session_id)) / f"{stamp()}.json")
        return Path(steps["path"])


def _capture(ctx: HookContext, path, capture: dict):
    """(path, why it could not be written or None): written once, by the handler or the timeout answer."""
    with _WRITES:
        steps = _steps(ctx)
        if "capture" not in steps and not steps.get("timed out"):
            steps["capture"] = (path, _write(ctx, path, capture))
        return steps.get("capture", (None, "the hook ran out of its budget"))


def _queue_due(ctx: HookContext, directory, session_id: str, item: dict) -> None:
    """Queue the item the audit will replace. Its name is noted before the write, so that a timeout
    answer (in this process or the runtime's parent) replaces this file instead of adding another."""
    from cc_hooks.state import pending_name

    with _WRITES:
        steps = _steps(ctx)
        if "queued" not in steps and not steps.get("timed out"):
            steps["queued"] = name = pending_name()
            if _queue(ctx, directory, session_id, item, name) is None:
                steps["queued"] = None


def _settle(ctx: HookContext, directory, session_id: str, item: dict) -> bool:
    """Put ``item`` in the place of the queued one (or queue it, when that could not be written),
    unless the handler or the timeout answer did already; whether it reaches the next prompt."""
    with _WRITES:
        steps = _steps(ctx)
        if "settled" not in steps and not steps.get("timed out"):
            steps["settled"] = (_put(ctx, directory, session_id, steps.get("queued"), item), item["kind"])
        return steps.get("settled", (False, None))[0]


def _put(ctx: HookContext, directory, session_id: str, name, item: dict) -> bool:
    from cc_hooks.state import replace_pending

    if not name:
        return _queue(ctx, directory, session_id, item) is not None
    try:
        replace_pending(directory, session_id, name, item)
    except OSError as exc:  # the queued item stays: the prompt that takes it audits its summary
        ctx.log("warning", f"audit not queued, its summary is: {exc}")
    return True


def capture_line(summary: str, problem) -> str:
    """The start of PostCompact's one line to the user (why a write failed is one clean line)."""
    from cc_hooks.state import not_stored

    if problem is None:
        return f"cc-hooks: captured the compaction summary ({len(summary)} chars)"
    return f"cc-hooks: {not_stored('compaction summary', problem)}"


def _write(ctx: HookContext, path, data: dict):
    """Write ``data``; None, or why it could not be written (a full or read-only state directory)."""
    from cc_hooks.state import write_json, write_problem

    try:
        write_json(path, data)
    except OSError as exc:
        ctx.log("warning", f"not written: {path}: {exc}")
        return write_problem(exc)
    return None


def _queue(ctx: HookContext, directory, session_id: str, item: dict, name=None):
    """The queued file's name, or None when it could not be written."""
    from cc_hooks.state import add_pending

    try:
        return add_pending(directory, session_id, item, name)
    except OSError as exc:
        ctx.log("warning", f"audit not queued: {exc}")
        return None


def audit_summary(ctx: HookContext, project, summary: str, session_id: str, prompt_id=None, deadline=None) -> dict:
    from cc_hooks.checkpoint import checkpoint_for, mark_compacted
    from cc_hooks.checks.preserve import missing_items
    from cc_hooks.claims.extract import extract_from_text
    from cc_hooks.claims.model import counts
    from cc_hooks.claims.verify import verify_claims

    visible = visible_summary(summary)
    checkpoint = checkpoint_for(ctx.state_dir(), session_id, prompt_id) or {}
    if checkpoint:
        try:
            mark_compacted(checkpoint)
        except OSError as exc:  # a full state directory: the next checklist counts from an older checkpoint
            ctx.log("warning", f"checkpoint not confirmed: {exc}")
    claims = extract_from_text(visible, source="summary")
    verify_claims(project.root, claims, project.config, deadline or ctx.deadline)
    preserve = checkpoint.get("preserve") if isinstance(checkpoint.get("preserve"), list) else []
    return {
        "counts": counts(claims),
        "claims": [c.to_dict() for c in claims],
        "preserve_total": len(preserve),
        "missing": missing_items(preserve, visible),
        "checkpoint": checkpoint.get("_path"),
    }


def finish_due(ctx: HookContext, config, directory, item: dict, deadline) -> dict:
    """The item of a PostCompact that was killed before its audit replaced it (``AUDIT_DUE``),
    finished by the prompt hook that took it: the audit that PostCompact stored with the capture,
    else the audit run now (within ``deadline``) on the summary the item carries, stored with the
    capture; the unchecked note when neither can be had."""
    from cc_hooks.events._project import Project

    path = _due_capture_path(ctx, directory, item)
    stored = _stored_audit(path)
    if stored is not None:
        return stored
    summary, root = item.get("summary"), ctx.repo_root()
    if not isinstance(summary, str) or root is None:
        return unchecked_item(path)
    prompt_id = item.get("prompt_id") if isinstance(item.get("prompt_id"), str) else None
    try:
        audit = audit_summary(ctx, Project(root, config, None), summary, ctx.session_id, prompt_id, deadline)
    except Exception as exc:  # best effort, as in PostCompact
        ctx.log("error", f"summary audit failed: {type(exc).__name__}: {exc}")
        return unchecked_item(path)
    if path is not None:
        _write(ctx, path, {"session_id": ctx.session_id, "trigger": item.get("trigger"), "prompt_id": prompt_id,
                           "summary": summary, "audit": audit})
    return audited_item(path, audit)


_CAPTURE_NAME_RE = re.compile(r"^\d{8}T\d{12}Z\.json$")


def _due_capture_path(ctx: HookContext, directory, item: dict):
    """The capture the item names, in this session's folder only (the item is a state file's data)."""
    import os

    from cc_hooks.state import state_key

    name = os.path.basename(item.get("capture") or "") if isinstance(item.get("capture"), str) else ""
    return directory / "summaries" / state_key(ctx.session_id) / name if _CAPTURE_NAME_RE.match(name) else None


def _stored_audit(path):
    """The finished item from the audit PostCompact stored with its capture before it was killed, if any."""
    from cc_hooks.state import read_json

    data = read_json(path) if path is not None else None
    audit = data.get("audit") if isinstance(data, dict) else None
    if not isinstance(audit, dict):
        return None
    try:
        return audited_item(path, audit)
    except (KeyError, TypeError, AttributeError):  # not an audit this code wrote: audit again
        return None


def visible_summary(summary: str) -> str:
    """The summary the audit reads: the model's scratch work (``<analysis>``) and the wrapper go."""
    from cc_hooks.summaries.visible import visible_summary as visible

    return visible(summary)


def audit_line(audit: dict) -> str:
    c = audit["counts"]
    line = f"{c['VERIFIED']} claim(s) verified, {c['CONTRADICTED']} contradicted, {c['UNVERIFIED']} unverified"
    if audit["preserve_total"]:
        line += f"; {len(audit['missing'])} of {audit['preserve_total']} must-keep item(s) missing from it"
    return line


def audit_notice(audit: dict, limit: int = 300) -> str:
    """One line for the person, at most ``limit`` characters: what the summary got wrong (the claims it
    contradicts, the must-keep items it lost), then the counts. Summary text is quoted, and whole quotes
    are dropped to fit (a cut one could leave its text outside the code span)."""
    for listed in range(NOTICE_LISTED, -1, -1):
        line = _notice(audit, listed)
        if len(line) <= limit:
            return line
    return line


def _notice(audit: dict, listed: int) -> str:
    from cc_hooks.printable import quote

    c, wrong = audit["counts"], [claim for claim in audit["claims"] if claim["verdict"] == "CONTRADICTED"]
    parts = []
    if wrong:
        named = "; ".join(f"{quote(claim['text'], 60)} ({quote(claim['evidence'], 60)})" for claim in wrong[:listed])
        more = len(wrong) - min(listed, len(wrong))
        tail = (f"; {more} more" if named else "") if more else ""
        parts.append(f"the compaction summary got {len(wrong)} claim(s) wrong" + (f": {named}{tail}" if named else ""))
    if audit["missing"]:
        lost = f"{len(audit['missing'])} of {audit['preserve_total']} must-keep item(s)"
        parts.append(f"it lost {lost}" if parts else f"the compaction summary lost {lost}")
    if not parts:
        parts.append("nothing in the compaction summary is contradicted" + ("" if audit["claims"] else " (it names nothing checkable)"))
    return f"cc-hooks: {'; '.join(parts)} — {c['VERIFIED']} verified, {c['CONTRADICTED']} contradicted, {c['UNVERIFIED']} unverified"


def audit_text(audit: dict) -> str:
    """What the model reads on the next prompt: contradictions first, facts only. Text from the
    summary or the repository is quoted as code spans nothing inside can close: it is data."""
    from cc_hooks.report import quote

    lines = ["cc-hooks audit of the compaction summary above (checked against git and the record files; "
             "where they disagree, the sources win):"]
    claims = audit["claims"]
    contradicted = [c for c in claims if c["verdict"] == "CONTRADICTED"]
    unverified = [c for c in claims if c["verdict"] == "UNVERIFIED"]
    verified = [c for c in claims if c["verdict"] == "VERIFIED"]
    for claim in contradicted[:MAX_LISTED]:
        lines.append(f"- CONTRADICTED: {quote(claim['text'])} — {quote(claim['evidence'])}")
    for claim in unverified[:MAX_LISTED]:
        lines.append(f"- UNVERIFIED: {quote(claim['text'])} — {quote(claim['evidence'])}")
    hidden = max(0, len(contradicted) - MAX_LISTED) + max(0, len(unverified) - MAX_LISTED)
    if hidden:
        lines.append(f"- … {hidden} more (see `cc-hooks rehydrate`).")
    if verified:
        lines.append(f"- VERIFIED: {len(verified)} claim(s), e.g. {quote(verified[0]['text'])}.")
    if not claims:
        lines.append("- The summary names no commit, branch or path to check: its content is not verified.")
    else:
        lines.append("Anything in the summary not listed as VERIFIED is not verified.")
    if audit["missing"]:
        lines.append("Lost in the summary (found unrecorded before compaction; still true until recorded):")
        lines += [f"- {quote(item['text'], 600)}" for item in audit["missing"][:MAX_LISTED]]
    return "\n".join(lines)


def on_timeout(ctx: HookContext):
    """Out of budget (a loaded machine, a huge history): the summary is still captured, unaudited,
    and the next prompt says it is not verified; the abandoned handler writes nothing more."""
    post_compact_output = ctx.harness.post_compact_output
    payload = ctx.payload
    summary = payload.get("compact_summary") or _steps(ctx).get("summary")
    session_id = payload.get("session_id")
    if not isinstance(summary, str) or not isinstance(session_id, str) or not session_id:
        return None
    directory = ctx.state_dir(create=True) or ctx.state_dir()
    if directory is None:
        return None
    capture = {"session_id": session_id, "trigger": payload.get("trigger"), "prompt_id": payload.get("prompt_id"),
               "summary": summary}
    path, problem = _capture(ctx, _capture_path(ctx, directory, session_id), capture)
    queued = _settle(ctx, directory, session_id, unchecked_item(path))  # in the place of the item the handler queued
    with _WRITES:
        steps = _steps(ctx)
        steps["timed out"] = True
        audited = steps.get("settled", (False, None))[1] == "summary-audit"
    if audited:
        tail = f"; {audit_line(steps['audit'])}" if "audit" in steps else ""
    else:
        tail = "; not verified: the audit ran out of its budget" + ("" if queued else "; nothing queued for the next prompt")
    return post_compact_output(f"{capture_line(summary, problem)}{tail}.")
