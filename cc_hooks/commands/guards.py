"""`cc-hooks guards`: list, run and prove the recorded guards."""

from __future__ import annotations

HELP = "List, run and prove the guards recorded in SYMPTOMS.md and .cc-hooks.toml (tri-state: 0 healthy, 1 anomaly, 2 could not observe)."

EPILOG = {
    "list": "Exit status: 0 every guard resolves (or is an explicit `none — <gap>`), 1 some do not, 2 the ledger cannot be read.",
    "run": "Exit status: 0 every guard run observed healthy, 1 any observed the anomaly, 2 otherwise "
    "(could not observe is never a pass; nothing run is 2).",
    "prove": "Exit status: 0 every guard PROVEN, 1 any DOES-NOT-DETECT or BROKEN, 2 otherwise (UNPROVABLE, nothing to prove).",
}
TRUST_NOTE = (
    "Test ids and tracked scripts named in SYMPTOMS.md run like the repo's own tests; commands declared in "
    ".cc-hooks.toml run only after `cc-hooks trust`."
)


def add_arguments(parser) -> None:
    import argparse

    from cc_hooks.cli import PROJECT_HELP

    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--project", metavar="DIR", help=PROJECT_HELP)
    common.add_argument("--json", action="store_true", help="print the result as JSON")
    sub = parser.add_subparsers(dest="action", metavar="ACTION")
    sub.add_parser("list", parents=[common], help="resolve every guard against HEAD; report those that do not resolve",
                   epilog=EPILOG["list"])
    for action, text in (
        ("run", "run guards in the work tree and read their exit codes tri-state"),
        ("prove", "prove guards in a throwaway worktree: healthy on HEAD, anomaly with the fix reverted"),
    ):
        verb = sub.add_parser(action, parents=[common], help=text, description=f"{text}. {TRUST_NOTE}", epilog=EPILOG[action])
        verb.add_argument("names", nargs="*", metavar="NAME|SYMPTOM",
                          help="a guard name, test id, symptom slug or words of a symptom (default: all)")
        verb.add_argument("--timeout", type=float, metavar="SECONDS", help="per-run time limit (default: the guard's own; 300 s for SYMPTOMS.md guards)")
    parser.epilog = ("Actions: list (default), run, prove. " + TRUST_NOTE + " Exit status: 0 all good, 1 a guard does not "
                     "resolve, saw the anomaly or is not proven, 2 could not observe or an error (see each action's --help).")


def run(args) -> int:
    from cc_hooks.cli import CliError
    from cc_hooks.commands.install import project_root
    from cc_hooks.config import ConfigError, load_config
    from cc_hooks.git import work_tree_root
    from cc_hooks.guards.resolve import resolve_guards

    root = project_root(getattr(args, "project", None))
    top = work_tree_root(root)
    if top is None:
        raise CliError(f"{root} is not inside a git repository", 2)
    try:
        config = load_config(top)
    except ConfigError as exc:
        raise CliError(str(exc), 2) from None
    resolution = resolve_guards(top, config)
    if resolution.problem:
        raise CliError(resolution.problem, 2)
    action = getattr(args, "action", None) or "list"
    if action == "list":
        return list_guards(resolution, getattr(args, "json", False))
    guards = choose(resolution, args.names, action)
    from cc_hooks import trust

    trusted = trust.status(top, config).trusted
    if action == "run":
        return run_guards(top, resolution, guards, trusted, args)
    return prove(top, guards, trusted, args)


def choose(resolution, names: list[str], action: str) -> list:
    from cc_hooks.cli import CliError
    from cc_hooks.guards.resolve import NONE

    if names:
        chosen, unknown = resolution.select(names)
        if unknown:
            raise CliError(f"no guard matches {', '.join(repr(n) for n in unknown)} (see `cc-hooks guards list`)", 2)
        return chosen
    if action == "run":
        return [g for g in resolution.guards if g.kind != NONE]
    return [g for g in resolution.guards if g.kind != NONE and g.fixes]  # prove: every recorded cause with a fix and a guard


# --- list ---------------------------------------------------------------------------


def list_guards(resolution, as_json: bool) -> int:
    import json

    code = 1 if resolution.unresolved else 0
    if as_json:
        print(json.dumps({"symptoms_file": resolution.symptoms_file, "exists": resolution.ledger_exists,
                          "guards": [g.to_dict() for g in resolution.guards],
                          "unresolved": len(resolution.unresolved), "exit": code}, indent=2, ensure_ascii=False))
        return code
    if not resolution.ledger_exists:
        print(f"{resolution.symptoms_file} does not exist: no recorded cause to guard")
    for guard in resolution.guards:
        status = f"UNRESOLVED: {guard.problem}" if guard.problem else (f"gap: {guard.gap}" if guard.gap else "resolves at HEAD")
        print(f"{guard.where}  [{guard.kind}] {guard.ref or '(no guard)'}  — {status}")
        print(f"    name {guard.name}")
    print(f"{len(resolution.guards)} guard(s), {len(resolution.unresolved)} unresolved")
    return code


# --- run ----------------------------------------------------------------------------


def run_guards(root, resolution, guards: list, trusted: bool, args) -> int:
    import json

    from cc_hooks.guards.environment import resolve_environment
    from cc_hooks.guards.resolve import NONE
    from cc_hooks.guards.run import ANOMALY, HEALTHY, run_guard

    runs = [g for g in guards if g.kind != NONE]
    gaps = [g for g in guards if g.kind == NONE]
    environment = resolve_environment(root)
    if runs and not args.json:
        print(f"guards run in {environment.label}")
    outcomes = []
    for guard in runs:
        outcome = run_guard(guard, root, trusted, timeout=args.timeout, environment=environment)
        outcomes.append(outcome)
        if not args.json:
            print_outcome(guard, outcome)
    states = {o.state for o in outcomes}
    code = 1 if ANOMALY in states else (0 if states == {HEALTHY} else 2)
    if args.json:
        results = [{**g.to_dict(), "outcome": o.to_dict()} for g, o in zip(runs, outcomes)]
        print(json.dumps({"results": results, "gaps": [g.to_dict() for g in gaps], "trusted": trusted,
                          "environment": environment.label, "exit": code},
                         indent=2, ensure_ascii=False))
        return code
    for guard in gaps:
        print(f"NO GUARD  {guard.where}  {guard.problem or 'none — ' + (guard.gap or '')}")
    counts = {name: sum(1 for o in outcomes if o.state_name == name) for name in ("healthy", "anomaly", "could not observe")}
    summary = ", ".join(f"{n} {name}" for name, n in counts.items())
    print(f"{len(outcomes)} guard(s) run: {summary}" + (f"; {len(gaps)} cause(s) without a guard" if gaps else ""))
    return code


def print_outcome(guard, outcome) -> None:
    label = {0: "HEALTHY", 1: "ANOMALY", 2: "COULD NOT OBSERVE"}[outcome.state]
    print(f"{label}  {guard.name}  ({guard.ref}; {outcome.reason}; {outcome.seconds:.1f}s)")
    if outcome.state == 1:
        for line in record_lines(guard):
            print(f"  {line}")
    if outcome.state != 0 and outcome.output.strip():
        for line in outcome.output.rstrip().splitlines()[-12:]:
            print(f"  | {line}")


def record_lines(guard) -> list[str]:
    """Where an anomaly points: the symptom in the observer's words, its entry, the fix commits."""
    record = guard.record
    if record is None:
        return [f"symptom: {guard.symptom_text}"] if guard.symptom_text else ["symptom: (not linked to a SYMPTOMS.md entry)"]
    lines = [f"symptom: {record.observable}",
             f"record:  {record.file}:{record.symptom_line} (#{record.symptom_slug})"
             + (f", {record.cause} at line {record.cause_line}" if record.cause else "")]
    if record.fixes:
        lines.append(f"known-cause fix commits: {', '.join(record.fixes)}")
    return lines


# --- prove --------------------------------------------------------------------------


def prove(root, guards: list, trusted: bool, args) -> int:
    import json
    import sys

    from cc_hooks.guards.prove import exit_code, prove_guards
    from cc_hooks.state import state_dir

    from cc_hooks.guards.environment import resolve_environment

    progress = None if args.json else (lambda text: print(text, file=sys.stderr, flush=True))
    environment = resolve_environment(root)
    if guards and not args.json:
        print(f"guards run in {environment.label}")
    proofs = prove_guards(root, guards, trusted, timeout=args.timeout, progress=progress)
    code = exit_code(proofs)
    if args.json:
        print(json.dumps({"proofs": [p.to_dict() for p in proofs], "environment": environment.label, "exit": code},
                         indent=2, ensure_ascii=False))
        return code
    for proof in proofs:
        print(f"{proof.verdict:<16} {proof.guard}  ({proof.ref or 'no guard'}) — {proof.reason}")
    if not proofs:
        print("nothing to prove: no recorded cause has both a fix commit and a guard")
    else:
        counts: dict[str, int] = {}
        for proof in proofs:
            counts[proof.verdict] = counts.get(proof.verdict, 0) + 1
        print(", ".join(f"{n} {verdict}" for verdict, n in counts.items()) + f"; stored in {state_dir(root)}/guards/")
    return code
