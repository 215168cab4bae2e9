"""`audit`: a cold-start audit result exists, is newer than the last change to
the record, and is all-PASS (methodology §2 items 8-9; WEAK counts as a gap).

No audit at all is a FAIL, not COULD_NOT_CHECK: we looked, and the bar
("proceed only when the cold read is all-PASS") is not met. The PreCompact
instructions keep this to the score line (``preserve=False``): it is a task
for the person, not a fact the summary must carry.

Audit results are JSON files in ``<state>/audits/`` written by ``cc-hooks audit``
(``cc_hooks.audit.result``): ``{"created": <unix time>, "head": <sha>,
"record": {<path>: <blob sha or null>}, "error": null | <why>, "results":
[{"question": str, "grade": "PASS"|"WEAK"|"FAIL", ...}]}``.

"Newer than the last change to the record": when the result carries the
``record`` fingerprint (the record files' blobs at the audited HEAD), the record
files in the work tree now must hash the same (a later commit, an uncommitted
edit, a new or deleted record file all differ), and no commit after the audited
HEAD may carry a ``Symptom:`` trailer (a question the audit never asked). An
older result without the fingerprint is
judged by time: the last commit touching the record, or a dirty record file's
mtime, must not be newer than ``created``.
"""

from __future__ import annotations

from cc_hooks.checks.result import Finding, failed, passed

ID = "audit"
GRADES_OK = {"PASS"}
MAX_LISTED = 10


def run(ctx):
    from cc_hooks.checkpoint import latest_audit

    audit = latest_audit(ctx.state)
    if audit is None:
        return failed(ID, "no cold-start audit has been run (cc-hooks audit)",
                      [Finding("no cold-start audit has been run (cc-hooks audit)", preserve=False)])
    if audit.get("error"):
        message = f"the newest cold-start audit could not run: {audit['error']}"
        return failed(ID, message, [Finding(message, file=audit.get("_path"), preserve=False)])
    grades = [r for r in audit.get("results", []) if isinstance(r, dict)]
    gaps = [r for r in grades if str(r.get("grade", "")).upper() not in GRADES_OK]
    findings = [
        Finding(f"audit question graded {str(r.get('grade', '?')).upper()}: {r.get('question', '?')}",
                claim=r.get("question"), preserve=False)
        for r in gaps[:MAX_LISTED]
    ]
    if len(gaps) > MAX_LISTED:
        findings.append(Finding(f"... and {len(gaps) - MAX_LISTED} more WEAK/FAIL question(s) (cc-hooks audit)", preserve=False))
    if not grades:
        findings.append(Finding("the newest audit has no graded questions", file=audit.get("_path"), preserve=False))
    changed = record_changes(ctx, audit)
    if changed:
        findings.append(Finding(f"the record changed after the newest audit ({changed}); re-run `cc-hooks audit`", preserve=False))
    if findings:
        return failed(ID, f"cold-start audit not all-PASS or out of date ({len(gaps)} WEAK/FAIL question(s)"
                      f"{', stale' if changed else ''})", findings)
    head = str(audit.get("head") or "")[:12]
    at = f" at {head}" if head else ""
    return passed(ID, f"cold-start audit all-PASS ({len(grades)} question(s)){at}, newer than the record")


def record_changes(ctx, audit: dict) -> str:
    """What changed in the record since ``audit`` ("" when nothing did)."""
    audited = audit.get("record")
    if isinstance(audited, dict) and audited:
        from cc_hooks.audit.result import worktree_fingerprint

        paths = sorted(set(ctx.record_paths.values()) | set(audited))
        now = worktree_fingerprint(ctx.root, paths, timeout=ctx.timeout())
        differ = [p for p in paths if now.get(p) != audited.get(p)]
        return ", ".join([*differ, *_new_trailers(ctx, audit.get("head"))])
    created = audit.get("created")
    changed = last_record_change(ctx)
    if isinstance(created, (int, float)) and changed is not None and changed > created:
        return "a record file is newer"
    return ""


def _new_trailers(ctx, head) -> list[str]:
    """A commit with a `Symptom:` trailer made after the audited HEAD asks a question the audit
    never saw (is that symptom indexed?): the git-log rung of the record changed."""
    if not isinstance(head, str) or not head or ctx.head.sha in (None, head):
        return []
    out = ctx.git("log", "--format=%H%x1f%(trailers:key=Symptom,valueonly)%x1e", f"{head}..HEAD", check=False)
    shas = [rec.split("\x1f")[0].strip() for rec in out.split("\x1e") if rec.partition("\x1f")[2].strip()]
    return [f"commit {sha[:12]} has a Symptom: trailer" for sha in shas]


def last_record_change(ctx) -> float | None:
    """Unix time of the last change to any record file: last commit touching it, or a newer file on disk."""
    paths = sorted(set(ctx.record_paths.values()))
    out = ctx.git("log", "-1", "--format=%ct", "--", *paths, check=False).strip()
    newest = float(out) if out.isdigit() else None
    for path in paths:
        try:
            mtime = (ctx.root / path).stat().st_mtime
        except OSError:
            continue
        if path in ctx.tracked and not _dirty(ctx, path):
            continue  # a checkout's mtime is not a change
        newest = max(newest or 0.0, mtime)
    return newest


def _dirty(ctx, path: str) -> bool:
    return path in ctx.dirty
