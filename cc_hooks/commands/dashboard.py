"""`cc-hooks dashboard show | queue | update | close | migrate`: the one way to read and change the dashboard."""

from __future__ import annotations

HELP = "Read or change the dashboard (file, GitHub Issues or Jira) through its one contract."

ACTIONS = ("show", "queue", "update", "close", "migrate")


def add_arguments(parser) -> None:
    import argparse

    from cc_hooks.cli import PROJECT_HELP

    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--project", metavar="DIR", help=PROJECT_HELP)
    common.add_argument("--json", action="store_true", help="the result as JSON")
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True
    actions.add_parser("show", parents=[common], help="the current state and the open queue")
    queue = actions.add_parser("queue", parents=[common], help="queue a pending item")
    queue.add_argument("text", help="the item, one line")
    queue.add_argument("--date", help="YYYY-MM-DD (default today)")
    update = actions.add_parser("update", parents=[common], help="rewrite the current state with today's date")
    update.add_argument("--resume", required=True, metavar="TEXT", help="the resume point, one sentence")
    update.add_argument("--claim", action="append", default=[], metavar="TEXT", help="a state bullet (repeatable)")
    update.add_argument("--date", help="YYYY-MM-DD (default today)")
    close = actions.add_parser("close", parents=[common], help="close a queued item, naming the commit(s) that landed it")
    close.add_argument("item", help="its key (#12, PROJ-12), line number (file), or a unique piece of its text")
    close.add_argument("--commit", action="append", default=[], metavar="SHA", help="the landing commit (repeatable; default: the one the queue verifier finds)")
    migrate = actions.add_parser("migrate", parents=[common], help="move the file dashboard into a tracker (dry run unless --apply)")
    migrate.add_argument("--to", nargs=2, required=True, metavar=("BACKEND", "LOCATOR"), help="e.g. --to github owner/repo")
    migrate.add_argument("--apply", action="store_true", help="do it (default: print the plan)")
    parser.epilog = "Exit status: 0 done, 1 the tracker could not be read or written (one line says why), 2 bad usage."


def run(args) -> int:
    from cc_hooks.cli import CliError
    from cc_hooks.commands.install import project_root
    from cc_hooks.config import ConfigError, load_config
    from cc_hooks.fsutil import RefusedFile
    from cc_hooks.record.dashboard import DashboardError, open_dashboard

    root = project_root(args.project)
    try:
        config = load_config(root)
    except ConfigError as exc:
        raise CliError(str(exc), 2) from exc
    try:
        backend, declaration, _ = open_dashboard(root, config)
        if args.action == "migrate":
            return _migrate(args, root, config, backend, declaration)
        return globals()[f"_{args.action}"](args, root, config, backend)
    except (DashboardError, RefusedFile) as exc:
        raise CliError(_clean(str(exc)), 1) from exc


# --- the actions ------------------------------------------------------------------------


def _show(args, root, config, backend) -> int:
    import sys

    from cc_hooks.record.backends._http import TrackerError

    if not _is_tracker(backend):
        return _print_read(args, backend.read(), backend)
    try:
        read, _ = backend.read_live()
    except TrackerError as exc:
        reason = backend.reason(exc)
        stale = backend.last_good_read(reason)
        print(f"cc-hooks dashboard: {_clean(backend.display)}: {_clean(reason)}", file=sys.stderr)
        if stale.exists:
            _print_read(args, stale, backend)
        return 1
    return _print_read(args, read, backend)


def _queue(args, root, config, backend) -> int:
    item = backend.queue(args.text, args.date)
    return _print_item(args, "queued", item, backend)


def _update(args, root, config, backend) -> int:
    state = backend.update(args.resume, args.claim, args.date)
    if args.json:
        import json
        from dataclasses import asdict

        print(json.dumps({"updated": _where(backend), "state": asdict(state) if state else None}, indent=2, ensure_ascii=False))
    else:
        print(f"{_where(backend)}: CURRENT STATE — {state.date if state else '?'} ({len(state.claims) if state else 0} claim(s))")
    return 0


def _close(args, root, config, backend) -> int:
    commits = args.commit or _landing_commits(root, config, backend, args.item)
    if not commits:
        from cc_hooks.record.dashboard import DashboardError

        raise DashboardError(f"no commit on HEAD references or matches {args.item!r}; name it with --commit SHA")
    item = backend.close(args.item, None, commits)
    return _print_item(args, f"closed (landed in {', '.join(commits)})", item, backend)


def _migrate(args, root, config, source, declaration) -> int:
    from cc_hooks.record.dashboard import DashboardError, get_backend

    to, locator = args.to[0].lower(), args.to[1]
    if declaration.backend != "file":
        raise DashboardError(f"the dashboard is already `{declaration.backend} {declaration.locator}`; migrate moves a file dashboard")
    target = get_backend(to, root, locator)
    if not _is_tracker(target):
        raise DashboardError(f"`{to}` is not a tracker backend")
    read = source.read()
    if not read.exists:
        raise DashboardError(f"{declaration.locator} does not exist: nothing to migrate")
    state = read.state
    resume = state.resume_point.text if state and state.resume_point else None
    claims = [c.text for c in state.claims if c.kind != "resume"] if state else []
    items = read.open_items
    plan = _plan(declaration, target, resume, claims, items)
    if not args.apply:
        _print_plan(args, plan, applied=False)
        return 0
    if target.has_content():
        raise DashboardError(f"{target.display} already holds a dashboard (a state issue or queued issues); migrate into an empty one")
    _check_migration_writes(root, declaration, source)
    if resume is not None or claims:
        target.update(resume or "(migrated from the file dashboard; no resume point)", claims, state.date if state and state.date else None)
    for item in items:
        target.queue(item.text, item.date if item.date and _iso(item.date) else None)
    _rewrite_declaration(root, declaration, f"Dashboard: {to} {locator}")
    _stub_file(root, source, target)
    _print_plan(args, plan, applied=True)
    return 0


# --- helpers ----------------------------------------------------------------------------------


def _is_tracker(backend) -> bool:
    from cc_hooks.record.backends._tracker import TrackerBackend

    return isinstance(backend, TrackerBackend)


def _where(backend) -> str:
    return _clean(backend.display if _is_tracker(backend) else backend.locator)


def _clean(text: str) -> str:
    from cc_hooks.printable import printable

    return " ".join(printable(str(text)).split())


def _iso(date: str) -> bool:
    from cc_hooks.record.markdown import is_iso_date

    return is_iso_date(date)


def _print_read(args, read, backend) -> int:
    import json

    from cc_hooks.printable import printable

    if args.json:
        print(printable(json.dumps(read.to_dict(), indent=2, ensure_ascii=False)))
        return 0
    lines = [f"Dashboard: {_where(backend)}"]
    for finding in read.findings:
        if finding.severity != "info" or finding.rule == "dashboard-untrusted-authors":
            lines.append(f"! {_clean(finding.message)}")
    state = read.state
    if state is not None:
        lines.append(f"## CURRENT STATE — {_clean(state.date or state.date_text or 'undated')}")
        for claim in state.claims:
            lines.append(f"Resume point: {_clean(claim.text)}" if claim.kind == "resume" else f"- {_clean(claim.text)}")
    lines.append(f"## QUEUED ({len(read.open_items)} open)")
    for item in read.queued:
        done = "DONE " if item.done else ""
        lines.append(f"- {done}{_clean(item.date or 'undated')} — {_clean(item.text)}")
    print("\n".join(lines))
    return 0


def _print_item(args, what: str, item, backend) -> int:
    import json
    from dataclasses import asdict

    if args.json:
        print(json.dumps({"dashboard": _where(backend), "result": what, "item": asdict(item)}, indent=2, ensure_ascii=False))
    else:
        print(f"{_where(backend)}: {what}: {_clean(item.text)}")
    return 0


def _landing_commits(root, config, backend, selector: str) -> list[str]:
    """The commit the queue verifier says landed the item (so `close` can name it), or []."""
    import re

    from cc_hooks.claims.extract import claim_from_line
    from cc_hooks.claims.model import CONTRADICTED
    from cc_hooks.claims.verify import verify_claims
    from cc_hooks.runtime import Deadline

    read = backend.read()
    wanted = " ".join(selector.lower().split())
    for item in read.open_items:
        key = item.text.split(" ", 1)[0].lower()
        named = (str(item.line) == selector) or key in (wanted, f"#{wanted}") or (wanted and wanted in " ".join(item.text.lower().split()))
        if not named:
            continue
        claim = claim_from_line(item.text, read.locator, item.line or None, "queue", item.date, False)
        verify_claims(root, [claim], config, Deadline(20.0))
        if claim.verdict == CONTRADICTED:
            found = re.search(r"\b([0-9a-f]{7,40})\b", claim.evidence)
            if found:
                return [found.group(1)]
        return []
    return []


def _plan(declaration, target, resume, claims, items) -> dict:
    return {
        "from": f"file {declaration.locator}",
        "to": target.display,
        "state": {"resume_point": resume, "claims": claims},
        "queue": [{"date": i.date, "text": i.text} for i in items],
        "declaration": f"Dashboard: {target.display}",
    }


def _print_plan(args, plan: dict, applied: bool) -> None:
    import json

    if args.json:
        print(json.dumps({**plan, "applied": applied}, indent=2, ensure_ascii=False))
        return
    verb = "Moved" if applied else "Would move"
    lines = [f"{verb} the dashboard from `{plan['from']}` to `{_clean(plan['to'])}`:"]
    lines.append(f"- the state: resume point {'and ' if plan['state']['resume_point'] else 'none, '}{len(plan['state']['claims'])} claim(s)")
    lines.append(f"- {len(plan['queue'])} open queued item(s), each keeping its date")
    lines.append(f"- CLAUDE.md: `{_clean(plan['declaration'])}`; {plan['from'][5:]} becomes a pointer (its history keeps the old dashboard)")
    if not applied:
        lines.append("Dry run: nothing changed; `--apply` does it.")
    print("\n".join(lines))


def _declaration_places(root, declaration) -> list:
    """(file, line) of every declaration ``migrate`` rewrites, in order; line None: CLAUDE.md gets the
    line appended (there is no declaration in it to rewrite)."""
    from pathlib import Path

    from cc_hooks.record.dashboard import _tracked_echoes

    places = [(declaration.file, declaration.line)] if declaration.source == "CLAUDE.md" else []
    places += [(echo.file, echo.line) for echo in _tracked_echoes(Path(root))]
    if not places or declaration.source != "CLAUDE.md":
        places.insert(0, ("CLAUDE.md", None))
    return places


def _check_migration_writes(root, declaration, source) -> None:
    """RefusedFile, before the tracker is written, when a file ``--apply`` rewrites is a link."""
    from pathlib import Path

    from cc_hooks.fsutil import RefusedFile, check_repo_path
    from cc_hooks.record.dashboard import DashboardError

    for path in [Path(root) / rel for rel, _ in _declaration_places(root, declaration)] + [source.path]:
        try:
            check_repo_path(root, path)
        except RefusedFile:
            raise
        except OSError as exc:  # a plain file where a directory belongs
            raise DashboardError(f"cannot write {path}: {exc.strerror or exc}") from exc


def _rewrite_declaration(root, declaration, line: str) -> None:
    """Point CLAUDE.md (and any tracked echo) at the tracker: one dashboard, never two."""
    from pathlib import Path

    from cc_hooks.fsutil import write_repo_bytes

    for rel, number in _declaration_places(root, declaration):
        path = Path(root) / rel
        if number is None:
            old = path.read_bytes() if path.exists() else b""
            sep = b"" if not old or old.endswith(b"\n") else b"\n"
            write_repo_bytes(root, path, old + sep + line.encode() + b"\n")
            continue
        lines = path.read_bytes().split(b"\n")
        old = lines[number - 1]
        ending = b"\r" if old.endswith(b"\r") else b""
        indent = old[: len(old) - len(old.lstrip())]
        lines[number - 1] = indent + line.encode() + ending
        write_repo_bytes(root, path, b"\n".join(lines))


def _stub_file(root, source, target) -> None:
    from cc_hooks.fsutil import write_repo_text
    from cc_hooks.record.backends.file import today

    text = (f"# Next steps\n\nThe dashboard moved to `{target.display}` on {today()} "
            "(`cc-hooks dashboard show` reads it); this file's git history keeps the old one.\n")
    write_repo_text(root, source.path, text)
