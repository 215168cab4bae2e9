"""`guards`: every recorded fix has a guard that resolves at HEAD (or an explicit
`none — <gap>`), and no guard's last proof (`cc-hooks guards prove`, stored in
the state directory) said DOES-NOT-DETECT or BROKEN. Runs nothing: guards run
only when a person asks (`cc-hooks guards run|prove`).

How the guards resolve is a function of SYMPTOMS.md, the configured guards and
HEAD's tree (every path and blob id), so it is remembered by those; the proofs
are read live (a proof changes no byte of the repository)."""

from __future__ import annotations

from cc_hooks.checks.result import CheckResult, Finding, could_not_check, passed, verdict

ID = "guards"


def run(ctx) -> CheckResult:
    from cc_hooks.guards.proofs import FAILING, PROVEN, load_proofs

    resolved = resolution(ctx)
    if resolved["problem"]:
        return could_not_check(ID, resolved["problem"])
    if not resolved["exists"]:
        return passed(ID, f"no {resolved['file']}: no recorded fix to guard")
    findings = [Finding(f"the guard of \"{observable}\" does not resolve: {problem}", file=source, line=line)
                for observable, problem, source, line in resolved["unresolved"]]
    guards = resolved["guards"]
    counts = {"guards": len(guards), "gaps": resolved["gaps"], "proven": 0, "unproven": 0}
    proofs = load_proofs(ctx.state, [name for name, *_ in guards])
    for name, ref, source, line, observable in guards:
        proof = proofs[name]
        if proof is None or proof.get("ref") != ref:  # never proven, or proven as another guard
            counts["unproven"] += 1
            continue
        counts["proven"] += proof["verdict"] == PROVEN
        if proof["verdict"] in FAILING:
            findings.append(Finding(
                f"the guard `{ref}` of \"{observable}\" was last proven {proof['verdict']} "
                f"({proof.get('reason', '')}; {proof.get('time', '?')}): fix it, then `cc-hooks guards prove {name}`",
                file=source, line=line, commit=proof.get("head") or None,
            ))
    ok = (f"{counts['guards']} guard(s) resolve at HEAD, {counts['gaps']} explicit gap(s); "
          f"{counts['proven']} PROVEN, {counts['unproven']} never proven")
    return verdict(ID, findings, ok, "{n} guard problem(s)", **counts)


def resolution(ctx) -> dict:
    """What the check needs of ``resolve_guards``: {"problem", "exists", "file", "unresolved":
    [[observable, problem, source, line]], "gaps": n, "guards": [[name, ref, source, line, observable]]
    (every guard but the `none` ones)}, remembered by SYMPTOMS.md, the configured guards and HEAD's tree."""
    import json
    import sys

    from cc_hooks.memo import remember
    from cc_hooks.record.ledger import read_ledger

    tree = ctx.pointer_tree()
    path = ctx.config.record.symptoms
    digest = getattr(tree, "digest", None)
    text, _ = read_ledger(ctx.root / path, path, root=ctx.root)
    if ctx.state is None or digest is None or text is None:
        return _resolve(ctx, tree)
    configured = json.dumps({name: g.model_dump(mode="json") for name, g in ctx.config.guards.items()}, sort_keys=True)
    try:
        return remember(ctx.state, "guards-check", [path, text, configured, sys.executable, digest], lambda: _resolve(ctx, tree, strict=True))
    except _Unchecked as exc:
        return exc.resolved


class _Unchecked(Exception):
    """HEAD could not be read: the answer holds for this run only."""

    def __init__(self, resolved: dict):
        super().__init__(resolved["problem"])
        self.resolved = resolved


def _resolve(ctx, tree, strict: bool = False) -> dict:
    from cc_hooks.guards.resolve import NONE, resolve_guards

    resolved = resolve_guards(ctx.root, ctx.config, timeout=ctx.timeout(), tree=tree, state=ctx.state)
    out = {
        "problem": resolved.problem,
        "exists": resolved.ledger_exists,
        "file": resolved.symptoms_file,
        "unresolved": [[_observable(g), g.problem, g.source, g.line] for g in resolved.unresolved],
        "gaps": sum(1 for g in resolved.guards if g.kind == NONE and g.problem is None),
        "guards": [[g.name, g.ref, g.source, g.line, _observable(g)] for g in resolved.guards if g.kind != NONE],
    }
    if strict and out["problem"]:
        raise _Unchecked(out)
    return out


def _observable(guard) -> str:
    return guard.record.observable if guard.record else guard.name
