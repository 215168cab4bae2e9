"""`audit`: a cold-start audit result exists, is newer than the last change to
the record, and is all-PASS (methodology §2 items 8-9; WEAK counts as a gap).

No audit at all is a FAIL, not COULD_NOT_CHECK: we looked, and the bar
("proceed only when the cold read is all-PASS") is not met. The PreCompact
instructions keep this to the score line (``preserve=False``): it is a task
for the person, not a fact the summary must carry.

Audit results are JSON files in ``<state>/audits/`` written by ``cc-hooks audit``:
``{"created": <unix time>, "results": [{"question": str, "grade": "PASS"|"WEAK"|"FAIL", ...}]}``.
"""

from __future__ import annotations

from cc_hooks.checks.result import Finding, failed, passed

ID = "audit"
GRADES_OK = {"PASS"}


def run(ctx):
    from cc_hooks.checkpoint import latest_audit

    audit = latest_audit(ctx.state)
    if audit is None:
        return failed(ID, "no cold-start audit has been run (cc-hooks audit)",
                      [Finding("no cold-start audit has been run (cc-hooks audit)", preserve=False)])
    created = audit.get("created")
    grades = [r for r in audit.get("results", []) if isinstance(r, dict)]
    gaps = [r for r in grades if str(r.get("grade", "")).upper() not in GRADES_OK]
    findings = [
        Finding(f"audit question graded {str(r.get('grade', '?')).upper()}: {r.get('question', '?')}", claim=r.get("question"), preserve=False)
        for r in gaps
    ]
    if not grades:
        findings.append(Finding("the newest audit has no graded questions", file=audit.get("_path"), preserve=False))
    changed = last_record_change(ctx)
    if isinstance(created, (int, float)) and changed is not None and changed > created:
        findings.append(Finding("the record changed after the newest audit; re-run `cc-hooks audit`", preserve=False))
    if findings:
        return failed(ID, f"cold-start audit not all-PASS or out of date ({len(findings)} gap(s))", findings)
    return passed(ID, f"cold-start audit all-PASS ({len(grades)} question(s)), newer than the record")


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
        if path in ctx.tracked and path not in ctx.dirty:
            continue  # a checkout's mtime is not a change
        newest = max(newest or 0.0, mtime)
    return newest
