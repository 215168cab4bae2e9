"""``cc-hooks transcripts stats|archive|restore|verify``: the transcript store and its archive."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HELP = "Show what session transcripts hold; archive what the CLI no longer needs (restore, verify)."


EXIT_STATUS = {
    "stats": "Exit status: 0 shown, 1 no transcript found, 2 a usage error.",
    "archive": "Exit status: 0 done (a dry run included), 1 a transcript failed or a named one is live, 2 a usage error.",
    "restore": "Exit status: 0 done (a dry run included), 1 a transcript failed or a named one is live, 2 a usage error.",
    "verify": "Exit status: 0 every archive and live transcript checks out, 1 any does not, 2 a usage error.",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = "Exit status: 0 done, 1 a transcript failed (or none was found), 2 a usage error; see each action's --help."
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    specs = {
        "stats": "Size, compactions, bytes before the last boundary and what they are, per session and project.",
        "archive": "Move pre-compaction content of idle sessions into a gzip archive (dry run without --execute).",
        "restore": "Rebuild archived transcripts byte for byte (dry run without --execute).",
        "verify": "Check archives against their manifests and the live transcripts against the cut.",
    }
    for name, text in specs.items():
        p = sub.add_parser(name, help=text, description=text, epilog=EXIT_STATUS[name])
        p.add_argument("paths", nargs="*", metavar="PATH", help="session transcripts (.jsonl)")
        p.add_argument("--project", metavar="DIR", help="the sessions started in this directory")
        p.add_argument("--all", action="store_true", help="every project under $CLAUDE_CONFIG_DIR/projects")
        p.add_argument("--harness", choices=("claude-code", "codex"), default="claude-code",
                       help="whose transcripts --project/--all select: claude-code, or codex "
                            "($CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl; stats only)")
        p.add_argument("--json", action="store_true", help="machine-readable output")
        if name != "verify":
            p.add_argument("--min-idle", type=float, default=30.0, metavar="MINUTES",
                           help="a session written within this many minutes is live and left alone (default 30)")
        if name == "stats":
            from cc_hooks.tables import add_plain_argument

            add_plain_argument(p)
        if name in ("archive", "restore"):
            p.add_argument("--execute", action="store_true", help="really do it (default: show what would happen)")
        if name != "stats":
            p.add_argument("--archive-dir", metavar="DIR",
                           help="archive root (default $CC_HOOKS_ARCHIVE_DIR, else $XDG_DATA_HOME/cc-hooks/archive)")


def run(args: argparse.Namespace) -> int:
    from cc_hooks.cli import CliError

    selectors = bool(args.paths) + bool(args.project) + bool(args.all)
    if selectors != 1:
        raise CliError("give exactly one of: PATH..., --project DIR, --all", 2)
    from cc_hooks.harness.codex_store import ARCHIVE_REFUSAL, is_rollout

    codex = getattr(args, "harness", None) == "codex"
    if args.action != "stats" and (codex or any(is_rollout(p) for p in args.paths)):
        raise CliError(ARCHIVE_REFUSAL, 1)
    paths = _codex_targets(args) if codex else _targets(args)
    if args.action == "stats":
        return _stats(args, paths)
    return _archive_actions(args, paths)


def _targets(args) -> list[Path]:
    from cc_hooks.cli import CliError
    from cc_hooks.transcript import store

    if args.paths:
        missing = [p for p in args.paths if not Path(p).is_file()]
        if missing and args.action in ("stats", "archive"):
            raise CliError(f"no such transcript: {missing[0]}", 2)
        return [Path(p).resolve() for p in args.paths]
    root = store.projects_root()
    if args.project:
        folders = store.project_folders(args.project, root)
        names = [f.name for f in folders] or [store.escape_project(str(Path(args.project).resolve()))]
    else:
        folders = store.all_project_folders(root)
        names = [f.name for f in folders]
    paths = [p for folder in folders for p in store.session_files(folder)]
    if args.action in ("restore", "verify"):
        from cc_hooks.transcript.archive import archived_transcripts

        archive_root = _archive_root(args)
        known = set(paths)
        for name in ([None] if args.all else names):
            paths += [p for p in archived_transcripts(archive_root, name) if p not in known]
    if not paths and args.action == "stats":
        raise CliError(f"no transcripts found under {root}" + (f" for {args.project}" if args.project else ""), 1)
    return paths


def _codex_targets(args) -> list[Path]:
    from cc_hooks.cli import CliError
    from cc_hooks.harness import codex_store

    if args.paths:
        return _targets(args)
    paths = codex_store.project_rollouts(args.project) if args.project else codex_store.rollout_files()
    if not paths:
        raise CliError(f"no rollouts found under {codex_store.sessions_root()}" + (f" for {args.project}" if args.project else ""), 1)
    return paths


def _archive_root(args):
    from cc_hooks.transcript.archive import archive_root

    return Path(args.archive_dir).expanduser() if getattr(args, "archive_dir", None) else archive_root()


def _progress(paths, label: str):
    """Iterate ``paths`` with a rich progress bar on a terminal when there are many."""
    if len(paths) < 8 or not sys.stderr.isatty():
        yield from paths
        return
    from rich.progress import Progress

    with Progress(transient=True, console=_console(stderr=True)) as progress:
        task = progress.add_task(label, total=len(paths))
        for path in paths:
            yield path
            progress.advance(task)


def _console(stderr: bool = False):
    from rich.console import Console

    return Console(stderr=stderr)


def _stats(args, paths: list[Path]) -> int:
    from cc_hooks.transcript import stats, store

    opened = store.open_paths()
    from cc_hooks.harness.codex_store import is_rollout, rollout_stats

    items = [(rollout_stats if is_rollout(p) else stats.session_stats)(p, args.min_idle * 60, opened)
             for p in _progress(paths, "Scanning transcripts")]
    projects = stats.by_project(items)
    total = stats.Totals()
    for item in items:
        total.add(item)
    if args.json:
        print(json.dumps({
            "sessions": [i.as_dict() for i in items],
            "projects": {name: vars(t) for name, t in projects.items()},
            "total": vars(total),
        }, indent=1))
        return 0
    _print_stats(items, projects, total, getattr(args, "plain", None))
    return 0


STATS_COLUMNS = (  # (name, keep): on a narrow terminal the per-kind byte counts go first
    ("session", 100), ("size", 100), ("compactions", 60), ("before last boundary", 40), ("still needed", 30),
    ("archivable", 90), ("snapshots", 10), ("progress", 11), ("tool results", 12), ("thinking", 13),
    ("messages", 14), ("attachments", 15), ("api requests", 16), ("metadata", 9), ("other", 17), ("age", 80),
    ("live", 95),
)
KIND_COLUMNS = ("file-history-snapshot", "progress", "tool_results", "thinking", "messages", "attachments",
                "api_requests", "metadata", "other")


def _short_session(text: str) -> str:
    """``<project>/<session id>`` as a terminal shows it: the id's first 8 characters are enough."""
    project, slash, session = text.rpartition("/")
    return f"{project}/{session[:8]}" if slash and len(session) == 36 else text


def _print_stats(items, projects, total, plain=None) -> None:
    from cc_hooks.printable import printable
    from cc_hooks.tables import Column, print_table
    from cc_hooks.transcript.stats import human_age, human_bytes as hb

    columns = [Column("session" if name == "session" else ("comp." if name == "compactions" else name), keep,
                      max_width=26 if name == "session" else None, ellipsis_start=name == "session",
                      short=_short_session if name == "session" else None,
                      justify="left" if name in ("session", "live") else "right")
               for name, keep in STATS_COLUMNS]
    rows = []
    for item in items:
        c = item.categories
        rows.append([
            printable(f"{item.project}/{Path(item.path).stem}"), hb(item.size), str(item.compactions),
            hb(item.before_boundary), hb(item.needed_before_boundary), hb(item.archivable),
            *(hb(c.get(kind, 0)) for kind in KIND_COLUMNS),
            human_age(item.age_seconds), "yes" if item.live else "",
        ])
    for name, t in sorted(projects.items()):
        rows.append([(printable(f"{name} ({t.sessions} sessions)"), "dim"), hb(t.size), str(t.compactions),
                     hb(t.before_boundary), hb(t.needed_before_boundary), hb(t.archivable),
                     *("" for _ in KIND_COLUMNS), "", str(t.live or "")])
    rows.append([("total", "bold"), hb(total.size), str(total.compactions), hb(total.before_boundary),
                 hb(total.needed_before_boundary), hb(total.archivable),
                 *(hb(total.categories.get(kind, 0)) for kind in KIND_COLUMNS), "", str(total.live or "")])
    print_table("Session transcripts", columns, rows, plain=plain)
    _print_types(total.types, plain)


def _print_types(types: dict, plain=None) -> None:
    """Every line type seen, with what a resume does with it before the last boundary."""
    from cc_hooks.printable import printable
    from cc_hooks.tables import Column, print_table
    from cc_hooks.transcript.lines import resume_rule
    from cc_hooks.transcript.stats import human_bytes as hb

    columns = [Column("line type", max_width=28), Column("lines", justify="right"), Column("bytes", justify="right"),
               Column("archivable", justify="right"), Column("before the last boundary, a resume", wrap=True)]
    rows = [[printable(name), str(f["lines"]), hb(f["bytes"]), hb(f["archivable"]), resume_rule(name)]
            for name, f in sorted(types.items(), key=lambda item: -item[1]["bytes"])]
    print_table("Line types", columns, rows, plain=plain)


def _archive_actions(args, paths: list[Path]) -> int:
    from cc_hooks.transcript import archive, store
    from cc_hooks.transcript.stats import human_bytes as hb

    root = _archive_root(args)
    opened = store.open_paths() if args.action != "verify" else ()
    explicit = bool(args.paths)
    outcomes, failed = [], 0
    for path in _progress(paths, f"{args.action.capitalize()} transcripts"):
        try:
            if args.action == "archive":
                o = archive.archive_session(path, execute=args.execute, min_idle=args.min_idle * 60, root=root,
                                            opened=opened)
            elif args.action == "restore":
                o = archive.restore_session(path, execute=args.execute, min_idle=args.min_idle * 60, root=root,
                                            opened=opened)
            else:
                o = archive.verify_session(path, root=root)
        except (archive.ArchiveError, OSError) as exc:
            o = archive.Outcome(str(path), "failed", str(exc))
        outcomes.append(o)
        refused = explicit and o.action == "skipped" and o.reason.startswith("live")
        failed += o.action == "failed" or refused
    if args.json:
        print(json.dumps([dict(vars(o), saved=o.saved) for o in outcomes], indent=1))
    else:
        for o in outcomes:
            detail = o.reason
            if o.action in ("archived", "would-archive"):
                detail = f"{hb(o.original_size)} -> {hb(o.kept_size)} ({hb(o.saved)} moved out) {detail}".rstrip()
            print(f"{o.action:13} {o.transcript}" + (f": {detail}" if detail else ""))
            for note in o.notes:
                print(f"{'':13} {note}")
        if args.action == "archive":
            saving = sum(o.saved for o in outcomes if o.action in ("archived", "would-archive"))
            verb = "moved out" if args.execute else "would be moved out (dry run; add --execute)"
            print(f"{hb(saving)} {verb}; archive: {root}")
        elif args.action == "restore" and not args.execute:
            print("dry run; add --execute")
    return 1 if failed else 0
