"""``cc-hooks summaries list|show|export``: the compaction summaries of this project's sessions.

Read from the transcripts (every ``compact_boundary`` and its ``isCompactSummary`` message, so
sessions compacted before cc-hooks was installed are covered) and from the state directory
(PostCompact's capture and audit, SessionStart's injected report).
"""

from __future__ import annotations

import argparse
import json
import sys

HELP = "List, show and export the compaction summaries of this project's sessions, with their audits and reports."

EXIT_STATUS = "Exit status: 0 done, 1 nothing found (no compaction, no such session or number), 2 a usage error."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from cc_hooks.cli import PROJECT_HELP
    from cc_hooks.tables import add_plain_argument

    parser.epilog = EXIT_STATUS
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    specs = {
        "list": "Every compaction: time, trigger, tokens before, summary size, the audit's counts.",
        "show": "One summary with each claim's verdict under its line, and the report the model received after it.",
        "export": "One readable, self-contained document (Markdown or HTML) of a session with its summaries, "
                  "audits and reports.",
    }
    for name, text in specs.items():
        p = sub.add_parser(name, help=text, description=text, epilog=EXIT_STATUS)
        if name == "show":
            p.add_argument("session", nargs="?", metavar="SESSION",
                           help="a session id or a unique prefix of it (default: the newest with a compaction)")
            p.add_argument("number", nargs="?", type=int, metavar="N", help="which compaction, 1 first (default: the last)")
        if name == "export":
            p.add_argument("session", metavar="SESSION", help="a session id or a unique prefix of it")
            p.add_argument("--format", choices=("md", "html"), default="md", help="the document's format (default md)")
            p.add_argument("--output", "-o", metavar="FILE", help="write it here (default: standard output)")
        p.add_argument("--project", metavar="DIR", help=PROJECT_HELP)
        p.add_argument("--transcript", metavar="PATH", action="append",
                       help="read these transcripts (.jsonl; repeatable) instead of the project's own")
        p.add_argument("--json", action="store_true", help="machine-readable output")
        if name != "list":
            p.add_argument("--now", action="store_true",
                           help="verify the claims now even where the compaction's own audit is stored")
            p.add_argument("--seconds", type=float, default=20.0, help="time budget for verifying claims now (default 20)")
        if name != "export":
            add_plain_argument(p)


def run(args: argparse.Namespace) -> int:
    from cc_hooks.cli import CliError
    from cc_hooks.summaries import collect

    root = _root(args)
    transcripts = _transcripts(args)
    sessions = collect.project_sessions(root, transcripts)
    if args.action == "list":
        return _list(args, sessions)
    try:
        session, number = _pick(args, sessions)
        compaction = collect.pick_compaction(session, number) if args.action == "show" else None
    except ValueError as exc:
        raise CliError(str(exc), 1) from None
    config = _config(root)
    from cc_hooks.summaries.render import verdicts

    cache: dict = {}

    def verdicts_of(item):
        if item.number not in cache:
            cache[item.number] = verdicts(item, root, config, args.seconds, args.now)
        return cache[item.number]

    if args.action == "show":
        return _show(args, session, compaction, verdicts_of(compaction))
    return _export(args, session, verdicts_of)


def _pick(args, sessions):
    """(session, N): ``show 2`` with no session of id prefix "2" means the newest session's compaction 2."""
    from cc_hooks.summaries import collect

    number = getattr(args, "number", None)
    try:
        return collect.pick_session(sessions, args.session), number
    except ValueError:
        if args.action != "show" or number is not None or not (args.session or "").isdigit() or not sessions:
            raise
        return collect.pick_session(sessions, None), int(args.session)


def _root(args):
    from pathlib import Path

    from cc_hooks.cli import CliError
    from cc_hooks.git import work_tree_root

    start = Path(args.project or ".").expanduser()
    if not start.is_dir():
        raise CliError(f"--project {args.project}: no such directory", 2)
    root = work_tree_root(start.resolve())
    if root is None:
        raise CliError(f"{start.resolve()} is not inside a git repository", 2)
    return Path(root)


def _transcripts(args):
    from pathlib import Path

    from cc_hooks.cli import CliError

    if not args.transcript:
        return None
    paths = [Path(p).expanduser() for p in args.transcript]
    missing = [p for p in paths if not p.is_file()]
    if missing:
        raise CliError(f"--transcript {missing[0]}: no such file", 2)
    return [p.resolve() for p in paths]


def _config(root):
    from cc_hooks.config import load_config_or_default

    config, _problem = load_config_or_default(root)
    return config


def _list(args, sessions) -> int:
    from cc_hooks.printable import printable
    from cc_hooks.summaries.render import counts_line
    from cc_hooks.tables import Column, print_table

    items = [c for s in sessions for c in s.compactions]
    if args.json:
        print(json.dumps([_listed(c) for c in items], indent=1, ensure_ascii=False))
        return 0 if items else 1
    if not items:
        print("No compaction found in this project's sessions (transcripts or captures).", file=sys.stderr)
        return 1
    columns = [Column("session", short=lambda text: text[:8]), Column("N", justify="right"), Column("time"), Column("trigger", keep=60),
               Column("tokens before", keep=50, justify="right"), Column("summary", justify="right", keep=70),
               Column("audit", keep=90), Column("report", keep=40), Column("from", keep=30)]
    rows = []
    for c in items:
        audit = counts_line(c.audit["counts"]) if c.audit and isinstance(c.audit.get("counts"), dict) else "—"
        rows.append([printable(c.session_id), str(c.number), c.time or "?", printable(c.trigger or "?"),
                     "?" if c.pre_tokens is None else f"{c.pre_tokens:,}", f"{len(c.summary):,} chars", audit,
                     "kept" if c.report else "—", ", ".join(c.sources)])
    footer = "`cc-hooks summaries show SESSION N` prints a summary with its claims' verdicts and the report after it."
    print_table("Compactions", columns, rows, plain=args.plain, footer=footer)
    return 0


def _listed(c) -> dict:
    return {"session_id": c.session_id, "number": c.number, "time": c.time, "epoch": c.epoch, "trigger": c.trigger,
            "pre_tokens": c.pre_tokens, "post_tokens": c.post_tokens, "summary_chars": len(c.summary),
            "audit_counts": (c.audit or {}).get("counts"), "report": bool(c.report), "sources": c.sources,
            "transcript": c.transcript, "capture": c.capture_path}


def _show(args, session, compaction, found) -> int:
    from cc_hooks.summaries import render
    from cc_hooks.tables import is_plain

    if args.json:
        data = compaction.as_dict()
        data.update(claims=found.claims, verified=found.how, counts=found.counts, missing=found.missing)
        print(json.dumps(data, indent=1, ensure_ascii=False, default=str))
    elif is_plain(args.plain):
        sys.stdout.write(render.render_plain(session, compaction, found))
    else:
        render.print_rich(session, compaction, found)
    return 0


def _export(args, session, verdicts_of) -> int:
    from pathlib import Path

    from cc_hooks.cli import CliError
    from cc_hooks.summaries import export

    if args.json:
        data = session.as_dict()
        for item in data["compactions"]:
            found = verdicts_of(next(c for c in session.compactions if c.number == item["number"]))
            item.update(claims=found.claims, verified=found.how, counts=found.counts, missing=found.missing)
        text = json.dumps(data, indent=1, ensure_ascii=False, default=str) + "\n"
    elif args.format == "html":
        text = export.render_html(session, verdicts_of)
    else:
        text = export.render_markdown(session, verdicts_of)
    if not args.output:
        sys.stdout.write(text)
        return 0
    target = Path(args.output).expanduser()
    if not target.parent.is_dir():
        raise CliError(f"--output {args.output}: no such directory", 2)
    from cc_hooks.fsutil import atomic_write_text

    atomic_write_text(target, text)
    print(f"wrote {target} ({len(text.encode('utf-8')):,} bytes, {len(session.compactions)} compaction(s))", file=sys.stderr)
    return 0
