"""`cc-hooks trust`: allow this repository's probes and guards to run (like direnv allow)."""

from __future__ import annotations

HELP = "Trust this repository's probe and guard commands (.cc-hooks.toml) so hooks may run them."


def add_arguments(parser) -> None:
    from cc_hooks.cli import PROJECT_HELP

    parser.add_argument("--project", metavar="DIR", help=PROJECT_HELP)
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--show", action="store_true", help="show the probe and guard table and whether it is trusted; change nothing")
    action.add_argument("--revoke", action="store_true", help="forget the trust for this repository")
    parser.epilog = ("Exit status: 0 trusted, revoked, or (with --show) trusted or nothing to trust; 1 with --show, "
                     "not trusted; 2 an invalid .cc-hooks.toml or an unreadable trust store.")


def run(args) -> int:
    import json

    from cc_hooks import trust
    from cc_hooks.cli import CliError
    from cc_hooks.commands.install import project_root
    from cc_hooks.config import ConfigError, load_config

    root = project_root(args.project)
    if args.revoke:
        try:
            forgot = trust.revoke(root)
        except trust.TrustStoreError as exc:
            raise CliError(str(exc), 2) from exc
        print(f"{root}: trust revoked" if forgot else f"{root}: was not trusted; nothing to revoke")
        return 0
    try:
        config = load_config(root)
    except ConfigError as exc:
        raise CliError(str(exc), 2) from exc
    table = trust.command_table(config)
    state = trust.status(root, config)
    if args.show and not any(table.values()):
        print(f"{root}: .cc-hooks.toml declares no probes or guards; there is nothing to trust (nothing runs)")
        return 0
    if args.show:
        print(json.dumps(table, indent=2, sort_keys=True))
        for name, sha in sorted(state.files.items()):
            mark = " (changed)" if name in state.changed_files and state.trusted_files is not None else ""
            print(f"file {name}: {sha[:16]}{mark}")
        verdict = "trusted" if state.trusted else state.reason
        print(f"{root}: sha256 {state.digest[:16]}… {verdict}")
        return 0 if state.trusted else 1
    if not any(table.values()):
        print(f"{root}: .cc-hooks.toml defines no probes or guards; trusting the empty table")
    else:
        for kind in ("probes", "guards"):
            for name, entry in table[kind].items():
                print(f"{kind[:-1]} {name}: {' '.join(entry['argv'])}")
        for key, value in table.get("guard_runner", {}).items():
            print(f"guards run with {key}: {' '.join(value) if isinstance(value, list) else value}")
    try:
        state = trust.trust(root, config)
    except trust.TrustStoreError as exc:
        raise CliError(str(exc), 2) from exc
    for name, sha in sorted(state.files.items()):
        print(f"covers file {name} ({'absent now' if sha == 'missing' else 'sha256 ' + sha[:16] + '…'})")
    first = ", ".join(commit[:12] for commit in state.identity) or "no commits yet"
    print(f"{root}: trusted (sha256 {state.digest[:16]}…, root commit {first}, stored in {trust.trust_path()})")
    return 0
