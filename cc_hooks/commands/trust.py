"""`cc-hooks trust`: allow this repository's probes and guards to run (like direnv allow)."""

from __future__ import annotations

HELP = ("Trust this repository's probe and guard commands (.cc-hooks.toml) so hooks may run them, and the "
        "tracker endpoint its config sends your credential to.")


def add_arguments(parser) -> None:
    from cc_hooks.cli import PROJECT_HELP

    parser.add_argument("--project", metavar="DIR", help=PROJECT_HELP)
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--show", action="store_true",
                        help="show the probe and guard table, the tracker endpoints, and whether they are trusted; change nothing")
    action.add_argument("--revoke", action="store_true", help="forget the trust for this repository")
    parser.epilog = ("Exit status: 0 trusted, revoked, or (with --show) trusted or nothing to trust; 1 with --show, "
                     "not trusted; 2 an invalid .cc-hooks.toml or an unreadable trust store.")


def run(args) -> int:
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
    from cc_hooks.record.backends import _endpoint

    table = trust.command_table(config)
    endpoints = _endpoint.requests(config)
    state = trust.status(root, config)
    if args.show:
        return _show(root, table, endpoints, state)
    if not any(table.values()):
        print(f"{root}: .cc-hooks.toml defines no probes or guards; trusting the empty table")
    else:
        for kind in ("probes", "guards"):
            for name, entry in table[kind].items():
                print(f"{kind[:-1]} {name}: {' '.join(entry['argv'])}")
        for key, value in table.get("guard_runner", {}).items():
            print(f"guards run with {key}: {' '.join(value) if isinstance(value, list) else value}")
    for backend, asked in endpoints.items():
        print(f"dashboard: {_endpoint.describe(backend, asked)}")
    try:
        state = trust.trust(root, config, endpoints)
    except trust.TrustStoreError as exc:
        raise CliError(str(exc), 2) from exc
    for name, sha in sorted(state.files.items()):
        print(f"covers file {name} ({'absent now' if sha == 'missing' else 'sha256 ' + sha[:16] + '…'})")
    first = ", ".join(commit[:12] for commit in state.identity) or "no commits yet"
    print(f"{root}: trusted (sha256 {state.digest[:16]}…, root commit {first}, stored in {trust.trust_path()})")
    return 0


def _show(root, table: dict, endpoints: dict, state) -> int:
    import json

    from cc_hooks import trust
    from cc_hooks.record.backends import _endpoint

    if not any(table.values()) and not endpoints:
        print(f"{root}: .cc-hooks.toml declares no probes, guards or tracker endpoint; there is nothing to trust (nothing runs)")
        return 0
    pinned = trust.endpoints_pinned(root) if endpoints else {}
    allowed = all(pinned.get(backend) == asked for backend, asked in endpoints.items())
    for backend, asked in endpoints.items():
        mark = "allowed" if pinned.get(backend) == asked else "not allowed: nothing is sent until `cc-hooks trust`"
        print(f"dashboard: {_endpoint.describe(backend, asked)} ({mark})")
    if any(table.values()):
        print(json.dumps(table, indent=2, sort_keys=True))
        for name, sha in sorted(state.files.items()):
            mark = " (changed)" if name in state.changed_files and state.trusted_files is not None else ""
            print(f"file {name}: {sha[:16]}{mark}")
        verdict = "trusted" if state.trusted else state.reason
        print(f"{root}: sha256 {state.digest[:16]}… {verdict}")
    return 0 if (state.trusted or not any(table.values())) and allowed else 1
