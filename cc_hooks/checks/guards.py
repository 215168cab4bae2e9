"""`guards`: every recorded fix has a guard that resolves at HEAD (or an explicit
`none — <gap>`), and no guard's last proof (`cc-hooks guards prove`, stored in
the state directory) said DOES-NOT-DETECT or BROKEN. Runs nothing: guards run
only when a person asks (`cc-hooks guards run|prove`)."""

from __future__ import annotations

from cc_hooks.checks.result import CheckResult, Finding, could_not_check, passed, verdict

ID = "guards"


def run(ctx) -> CheckResult:
    from cc_hooks.guards.prove import FAILING, PROVEN, load_proofs
    from cc_hooks.guards.resolve import NONE, resolve_guards

    resolution = resolve_guards(ctx.root, ctx.config, timeout=ctx.timeout(), tree=ctx.pointer_tree(), state=ctx.state)
    if resolution.problem:
        return could_not_check(ID, resolution.problem)
    if not resolution.ledger_exists:
        return passed(ID, f"no {resolution.symptoms_file}: no recorded fix to guard")
    findings = [
        Finding(f"the guard of \"{_observable(g)}\" does not resolve: {g.problem}", file=g.source, line=g.line)
        for g in resolution.unresolved
    ]
    counts = {"guards": 0, "gaps": 0, "proven": 0, "unproven": 0}
    proofs = load_proofs(ctx.state, [g.name for g in resolution.guards if g.kind != NONE])
    for guard in resolution.guards:
        if guard.kind == NONE:
            counts["gaps"] += guard.problem is None
            continue
        counts["guards"] += 1
        proof = proofs[guard.name]
        if proof is None or proof.get("ref") != guard.ref:  # never proven, or proven as another guard
            counts["unproven"] += 1
            continue
        counts["proven"] += proof["verdict"] == PROVEN
        if proof["verdict"] in FAILING:
            findings.append(Finding(
                f"the guard `{guard.ref}` of \"{_observable(guard)}\" was last proven {proof['verdict']} "
                f"({proof.get('reason', '')}; {proof.get('time', '?')}): fix it, then `cc-hooks guards prove {guard.name}`",
                file=guard.source, line=guard.line, commit=proof.get("head") or None,
            ))
    ok = (f"{counts['guards']} guard(s) resolve at HEAD, {counts['gaps']} explicit gap(s); "
          f"{counts['proven']} PROVEN, {counts['unproven']} never proven")
    return verdict(ID, findings, ok, "{n} guard problem(s)", **counts)


def _observable(guard) -> str:
    return guard.record.observable if guard.record else guard.name
