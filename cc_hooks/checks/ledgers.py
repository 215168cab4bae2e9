"""`ledgers`: SYMPTOMS.md and DECISIONS.md exist, are tracked, validate, and are
append-only since the last checkpoint (HEAD vs the working tree when there is none)."""

from __future__ import annotations

from cc_hooks.checks.result import CheckResult, Finding, could_not_check, verdict

ID = "ledgers"
UNCHECKED = "append-only-unchecked"


def run(ctx) -> CheckResult:
    from cc_hooks.record.append_only import check_append_only
    from cc_hooks.record.decisions import validate_decisions
    from cc_hooks.record.symptoms import validate_symptoms

    record = ctx.config.record
    base = ctx.since or "HEAD"
    findings: list[Finding] = []
    unchecked: list[str] = []
    for path, validate in ((record.symptoms, validate_symptoms), (record.decisions, validate_decisions)):
        if not (ctx.root / path).is_file():
            findings.append(Finding(f"{path} does not exist (`cc-hooks init` creates it)", file=path))
            continue
        if path not in ctx.tracked:
            findings.append(Finding(f"{path} is not tracked; `git add` and commit it", file=path))
        findings += [_convert(f) for f in validate(ctx.root, path) if f.severity == "error"]
        for f in check_append_only(ctx.root, path, base=base):
            if f.rule == UNCHECKED:
                unchecked.append(f.message)
            elif f.severity == "error":
                findings.append(_convert(f, f" (append-only since {base[:12]}: amend by appending a new entry)"))
    since = f"since checkpoint {base[:12]}" if ctx.since else "since HEAD"
    if unchecked and not findings:
        return could_not_check(ID, "; ".join(unchecked))
    return verdict(ID, findings, f"both ledgers tracked, valid and append-only {since}", "{n} ledger problem(s)")


def _convert(f, suffix: str = "") -> Finding:
    return Finding(f.message + suffix, file=f.file, line=f.line)
