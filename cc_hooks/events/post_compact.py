"""PostCompact: capture the harness summary, audit it, and queue the audit for
the next prompt (PostCompact's own output reaches only the user).

The audit: every checkable claim of the summary (helper F's extraction and
verification, the same code the rehydration report uses), and whether each
"preserve verbatim" item of the PreCompact checkpoint made it into the summary.
"""

from __future__ import annotations

import re

from cc_hooks.events._project import open_project
from cc_hooks.runtime import HookContext

UNCHECKED_NOTE = (
    "The compaction summary in this context was written by the model from the conversation; "
    "cc-hooks captured it but has not verified its claims. Where it disagrees with git or the "
    "record files, the sources win."
)
_ANALYSIS_RE = re.compile(r"<analysis>.*?</analysis>", re.DOTALL | re.IGNORECASE)
_SUMMARY_TAG_RE = re.compile(r"</?summary>", re.IGNORECASE)
MAX_LISTED = 8


def handle(ctx: HookContext):
    from cc_hooks.protocol import PostCompactInput
    from cc_hooks.state import stamp, state_key

    post_compact_output = ctx.harness.post_compact_output

    event = PostCompactInput.model_validate(ctx.payload)
    project = open_project(ctx, "post_compact_seconds")
    if project is None:
        return None
    directory = ctx.state_dir(create=True)
    if directory is None:
        return None
    summary = event.compact_summary or ctx.harness.compact_summary(ctx.payload) or ""  # Codex: from the transcript
    path = directory / "summaries" / state_key(event.session_id) / f"{stamp()}.json"
    capture = {"session_id": event.session_id, "trigger": event.trigger, "prompt_id": event.prompt_id, "summary": summary}
    problem = _write(ctx, path, capture)  # the capture first: an audit that fails loses nothing
    line = capture_line(summary, problem)
    try:
        audit = audit_summary(ctx, project, summary, event.session_id, event.prompt_id)
    except Exception as exc:  # the audit is best effort; the capture stands
        ctx.log("error", f"summary audit failed: {type(exc).__name__}: {exc}")
        queued = _queue(ctx, directory, event.session_id, {"kind": "summary", "capture": str(path), "text": UNCHECKED_NOTE})
        return post_compact_output(f"{line}; audit failed{'' if queued else '; nothing queued for the next prompt'}.")
    if problem is None:
        _write(ctx, path, {**capture, "audit": audit})
    queued = _queue(ctx, directory, event.session_id, {"kind": "summary-audit", "capture": str(path), "text": audit_text(audit)})
    tail = "" if queued else "; the audit could not be queued for the next prompt"
    return post_compact_output(f"{line}; {audit_line(audit)}{tail}.")


def capture_line(summary: str, problem) -> str:
    """The start of PostCompact's one line to the user (why a write failed is one clean line)."""
    from cc_hooks.printable import clean

    if problem is None:
        return f"cc-hooks: captured the compaction summary ({len(summary)} chars)"
    return f"cc-hooks: could not store the compaction summary ({clean(problem)[:300]})"


def _write(ctx: HookContext, path, data: dict):
    """Write ``data``; None, or why it could not be written (a full or read-only state directory)."""
    from cc_hooks.state import write_json

    try:
        write_json(path, data)
    except OSError as exc:
        ctx.log("warning", f"not written: {path}: {exc}")
        return exc.strerror or type(exc).__name__
    return None


def _queue(ctx: HookContext, directory, session_id: str, item: dict) -> bool:
    from cc_hooks.state import add_pending

    try:
        add_pending(directory, session_id, item)
    except OSError as exc:
        ctx.log("warning", f"audit not queued: {exc}")
        return False
    return True


def audit_summary(ctx: HookContext, project, summary: str, session_id: str, prompt_id=None) -> dict:
    from cc_hooks.checkpoint import checkpoint_for, mark_compacted
    from cc_hooks.checks.preserve import missing_items
    from cc_hooks.claims.extract import extract_from_text
    from cc_hooks.claims.model import counts
    from cc_hooks.claims.verify import verify_claims

    visible = _SUMMARY_TAG_RE.sub("", _ANALYSIS_RE.sub("", summary))  # the model's scratch work and the wrapper go
    checkpoint = checkpoint_for(ctx.state_dir(), session_id, prompt_id) or {}
    if checkpoint:
        try:
            mark_compacted(checkpoint)
        except OSError as exc:  # a full state directory: the next checklist counts from an older checkpoint
            ctx.log("warning", f"checkpoint not confirmed: {exc}")
    claims = extract_from_text(visible, source="summary")
    verify_claims(project.root, claims, project.config, ctx.deadline)
    preserve = checkpoint.get("preserve") if isinstance(checkpoint.get("preserve"), list) else []
    return {
        "counts": counts(claims),
        "claims": [c.to_dict() for c in claims],
        "preserve_total": len(preserve),
        "missing": missing_items(preserve, visible),
        "checkpoint": checkpoint.get("_path"),
    }


def audit_line(audit: dict) -> str:
    c = audit["counts"]
    line = f"{c['VERIFIED']} claim(s) verified, {c['CONTRADICTED']} contradicted, {c['UNVERIFIED']} unverified"
    if audit["preserve_total"]:
        line += f"; {len(audit['missing'])} of {audit['preserve_total']} must-keep item(s) missing from it"
    return line


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
    return None
