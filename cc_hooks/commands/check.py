"""`cc-hooks check`: run the compaction checklist by hand."""

from __future__ import annotations

HELP = ("Run the compaction checklist by hand: session, ledgers, tracked-homes, questions, stale-claims, dashboard, "
        "trailers, guards, committed, audit.")
DEFAULT_SECONDS = 60.0


def add_arguments(parser) -> None:
    from cc_hooks.cli import PROJECT_HELP

    from cc_hooks.tables import add_plain_argument

    parser.add_argument("--project", metavar="DIR", help=PROJECT_HELP)
    from cc_hooks.checks import CHECK_IDS

    parser.add_argument("--transcript", metavar="PATH",
                        help="a session transcript (.jsonl) for the `session` check to sweep (default: the newest "
                        "transcript of this project in Claude Code's projects folder)")
    parser.add_argument("--session", metavar="ID", help="use this session's last checkpoint (default: the newest of any session)")
    parser.add_argument("--only", metavar="ID", action="append", help=f"run only this check (repeatable): {', '.join(CHECK_IDS)}")
    parser.add_argument("--seconds", type=float, default=DEFAULT_SECONDS, help=f"time budget (default {DEFAULT_SECONDS:g})")
    parser.add_argument("--json", action="store_true", help='print {"passed", "checks": [{"id", "status", "summary", "findings"}]}')
    add_plain_argument(parser)
    parser.epilog = ("Exit status: 0 all PASS, 1 any FAIL or an error (not a git repository, an unknown check, an "
                     "invalid .cc-hooks.toml), 2 nothing FAILed but something could not be checked. Each FAIL names "
                     "its next step.")


def run(args) -> int:
    import json
    from pathlib import Path

    from cc_hooks.checks import CHECK_IDS, exit_code, run_checks
    from cc_hooks.checks.context import make_context
    from cc_hooks.cli import CliError
    from cc_hooks.commands.install import project_root
    from cc_hooks.config import ConfigError, load_config
    from cc_hooks.git import work_tree_root
    from cc_hooks.runtime import Deadline

    root = project_root(args.project)
    if work_tree_root(root) is None:
        raise CliError(f"{root} is not inside a git repository")
    unknown = [i for i in args.only or [] if i not in CHECK_IDS]
    if unknown:
        raise CliError(f"unknown check {', '.join(unknown)} (known: {', '.join(CHECK_IDS)})")
    if args.transcript and not Path(args.transcript).is_file():
        raise CliError(f"--transcript {args.transcript}: no such file")
    try:
        config = load_config(root)
    except ConfigError as exc:
        raise CliError(str(exc)) from None
    transcript, looked_in = (args.transcript, None) if args.transcript else newest_transcript(root)
    ctx = make_context(root, Deadline(args.seconds), transcript, args.session, config)
    if looked_in:
        from cc_hooks.checks.session import NO_SESSIONS

        ctx.cache[NO_SESSIONS] = looked_in
    results = run_checks(ctx, args.only)
    code = exit_code(results)
    if args.json:
        print(json.dumps({"passed": code == 0, "checks": [r.to_dict() for r in results]}, indent=2, ensure_ascii=False))
    else:
        print_table(root, results, args.plain)
    return code


def newest_transcript(root):
    """(the newest session transcript of this project, None) or (None, where none was found)."""
    from cc_hooks.transcript import store

    try:
        files = [p for folder in store.project_folders(root) for p in store.session_files(folder)]
        newest = max(files, key=lambda p: p.stat().st_mtime) if files else None
    except OSError:
        return None, None
    if newest is not None:
        return newest, None
    return None, str(store.projects_root() / store.escape_project(str(root)))


def print_table(root, results, plain=None) -> None:
    from cc_hooks.checks import FAIL, PASS, score
    from cc_hooks.printable import printable
    from cc_hooks.tables import Column, print_table as show

    style = {PASS: "green", FAIL: "bold red"}
    columns = [Column("check"), Column("status"), Column("summary / findings", wrap=True)]
    rows = []
    for result in results:  # findings quote the repo: no escape sequences (and never markup)
        body = result.summary + "".join(f"\n • {f}" for f in result.findings)
        rows.append([result.id, (result.status, style.get(result.status, "yellow")), printable(body)])
    show(f"cc-hooks check — {root}", columns, rows, plain=plain, footer=score(results))
