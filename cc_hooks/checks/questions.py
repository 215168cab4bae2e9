"""`questions`: every COLDSTART_QUESTIONS.md pointer resolves in what a fresh
clone sees (helper D's resolver); WEAK (a commit-only pointer) counts as a gap."""

from __future__ import annotations

from cc_hooks.checks.result import Finding, could_not_check, failed, verdict

ID = "questions"


def run(ctx):
    from cc_hooks.record.questions import PASS, check_questions

    report = check_questions(ctx.root, ctx.config.record.questions, ctx.config, timeout=ctx.timeout(),
                             tree=ctx.pointer_tree(), state=ctx.state)
    path = report.file
    if not report.exists:
        return failed(ID, f"{path} does not exist", [Finding(f"{path} does not exist (`cc-hooks init` creates it)", file=path)])
    if not report.questions:
        return failed(ID, f"{path} has no questions", [Finding(
            "no `- <question> → <pointer>` lines: add one per non-obvious fact, e.g. `- Where is X configured? → path`",
            file=path)])
    unchecked = [r.reason for q in report.questions for r in q.results if not r.checked]
    if unchecked:
        return could_not_check(ID, unchecked[0])
    findings = [
        Finding(f"{q.grade}: \"{q.question}\" — {q.reason or 'no pointer resolves'}", file=path, line=q.line)
        for q in report.questions if q.grade != PASS
    ]
    counts = report.counts
    return verdict(ID, findings, f"{counts[PASS]} question(s), every pointer resolves",
                   f"{{n}} of {len(report.questions)} question(s) not PASS ({counts['WEAK']} WEAK, {counts['FAIL']} FAIL)")
