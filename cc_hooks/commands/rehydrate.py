"""`cc-hooks rehydrate`: the verified rehydration report, by hand."""

from __future__ import annotations

HELP = "Verify every dashboard claim against git, the ledgers and trusted probes; print the report."

SECONDS = 30.0


def add_arguments(parser) -> None:
    from cc_hooks.cli import PROJECT_HELP

    parser.add_argument("--project", metavar="DIR", help=PROJECT_HELP)
    parser.add_argument("--transcript", metavar="PATH", help="also audit the last compaction summary in this transcript (.jsonl)")
    parser.add_argument("--json", action="store_true", help="every claim with kind, verdict, evidence and source line, as JSON")
    parser.add_argument("--budget", type=int, metavar="CHARS", help="report size (default: hooks.budget_chars; unlimited with --json)")
    parser.add_argument("--seconds", type=float, default=SECONDS, help=f"time budget for the checks (default {SECONDS:g})")
    parser.epilog = "Exit status: 0 no contradictions, 1 contradictions, 2 could not check."


def run(args) -> int:
    import json
    import sys
    from pathlib import Path

    from cc_hooks.claims.rehydration import build_rehydration, latest_summary
    from cc_hooks.cli import CliError
    from cc_hooks.commands.install import project_root
    from cc_hooks.config import ConfigError, load_config
    from cc_hooks.git import work_tree_root
    from cc_hooks.runtime import Deadline

    root = project_root(args.project)
    if work_tree_root(root) is None:
        raise CliError(f"{root} is not inside a git repository", 2)
    try:
        config = load_config(root)
    except ConfigError as exc:
        raise CliError(str(exc), 2) from exc
    summary = summary_date = None
    if args.transcript:
        path = Path(args.transcript).expanduser()
        if not path.is_file():
            raise CliError(f"--transcript {args.transcript}: no such file", 2)
        summary, summary_date = latest_summary(path)
    if args.budget or args.json:
        config = config.model_copy(deep=True)
        config.hooks.budget_chars = args.budget or 1_000_000
    result = build_rehydration(root, "manual", config, Deadline(args.seconds), summary, (), summary_date)
    if args.json:
        print(json.dumps(result.to_dict(), indent=2, ensure_ascii=False))
    elif sys.stdout.isatty():
        from rich.console import Console
        from rich.markdown import Markdown

        Console().print(Markdown(result.markdown))
    else:
        print(result.markdown)
    if not args.json:
        print(result.system_message, file=sys.stderr)
    return result.exit_code
