"""`cc-hooks audit`: the cold-start audit of the record from a fresh-clone view (methodology §5).

Exit status: 0 every question PASSes, 1 any WEAK or FAIL, 2 the audit could not run (not a
repository, no commits, git failing, the agent unavailable or its answer malformed).
Every audit that ran is stored in the state dir for the checklist's `audit` check; a rejected
agent answer is stored as an error, never as a PASS. Never run from a hook.
"""

from __future__ import annotations

HELP = "Cold-start audit: can a stranger with a fresh clone answer the record's questions? (PASS/WEAK/FAIL)"


def add_arguments(parser) -> None:
    from cc_hooks.cli import PROJECT_HELP

    parser.add_argument("--project", metavar="DIR", default=".", help=PROJECT_HELP)
    parser.add_argument("--question", metavar="TEXT", action="append", default=[], help="also ask this question (repeatable)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--plain", action="store_true",
                        help="plain markdown even on a terminal (the default when stdout is not a terminal)")
    parser.add_argument("--write-report", action="store_true", help="write the report to COLDSTART_AUDIT.md (rewritten; commit it)")
    parser.add_argument("--agent", action="store_true", help="also have your own `claude -p` grade the questions as a cold-start auditor")
    parser.add_argument("--claude", metavar="PATH", help="the Claude Code CLI to run for --agent (default: `claude` on PATH)")
    parser.add_argument("--timeout", metavar="SECONDS", type=float, default=600.0, help="how long --agent may take (default 600)")
    parser.add_argument("--max-questions", metavar="N", type=int, default=40, help="the most questions --agent is asked (default 40)")
    parser.epilog = "Exit status: 0 all PASS, 1 any WEAK or FAIL, 2 the audit could not run."


def run(args) -> int:
    import signal
    import sys
    from pathlib import Path

    from cc_hooks.audit import run_audit
    from cc_hooks.audit.agent import AgentError, find_claude
    from cc_hooks.audit.freshclone import FreshCloneError, Interrupted
    from cc_hooks.audit.report import REPORT_NAME, print_rich, render_json, render_markdown, report_file_text
    from cc_hooks.audit.result import AuditResult, head_fingerprint, record_paths
    from cc_hooks.cli import CliError
    from cc_hooks.config import ConfigError, load_config
    from cc_hooks.git import GitError, run_git

    root = _repo_root(Path(args.project))
    if root is None:
        raise CliError(f"not a git repository: {args.project}", 2)
    if args.max_questions < 1 or args.timeout <= 0:
        raise CliError("--max-questions and --timeout must be positive", 2)
    try:
        config = load_config(root)
    except ConfigError as exc:
        raise CliError(str(exc), 2) from None
    claude = None
    if args.agent:
        try:
            claude = find_claude(args.claude)
        except AgentError as exc:
            raise CliError(str(exc), 2) from None
    try:
        result = run_audit(root, config, args.question, claude, args.timeout, args.max_questions)
    except (FreshCloneError, GitError) as exc:
        raise CliError(str(exc), 2) from None
    except AgentError as exc:
        head = run_git(root, "rev-parse", "HEAD", check=False).strip() or None
        failed = AuditResult(head, str(root), error=f"agent audit rejected: {exc}")
        failed.record = head_fingerprint(root, record_paths(root, config), head) if head else {}
        try:
            _store(root, failed)
        except OSError:
            pass  # the rejection is what the user must hear about
        if args.json:
            print(render_json(failed))
        raise CliError(f"{exc} (nothing was stored as PASS)", 2) from None
    except Interrupted as exc:
        raise CliError(f"interrupted by {signal.Signals(exc.signum).name}; the fresh-clone view was removed",
                       128 + exc.signum) from None
    try:
        stored = _store(root, result)
    except OSError as exc:
        stored, unstored = None, exc
    else:
        unstored = None
    if args.write_report:
        from cc_hooks.cli import CliError
        from cc_hooks.fsutil import RefusedFile, write_repo_text

        try:  # through the no-follow writer: a committed COLDSTART_AUDIT.md link must not reach ~/.claude/CLAUDE.md
            write_repo_text(root, root / REPORT_NAME, report_file_text(result))
        except RefusedFile as exc:
            raise CliError(f"cc-hooks audit: {exc}", 2) from exc
    if args.json:
        print(render_json(result))
    elif sys.stdout.isatty() and not args.plain:
        print_rich(result)
    else:
        print(render_markdown(result), end="")
    if not args.json:
        where = f"; stored in {stored}" if stored else ""
        written = f"; report written to {REPORT_NAME} (commit it)" if args.write_report else ""
        print(f"cc-hooks audit: {result.score_line}{where}{written}", file=sys.stderr)
    if unstored is not None:
        raise CliError(f"the audit ran but its result could not be stored for `cc-hooks check`: {unstored}", 2)
    return result.exit_code()


def _store(root, result):
    """Store ``result`` in the state dir; the path, or None outside a repository."""
    from cc_hooks.audit.result import store
    from cc_hooks.state import state_dir

    state = state_dir(root, create=True)
    return store(result, state) if state is not None else None


def _repo_root(path):
    from pathlib import Path

    from cc_hooks.git import GitError, run_git

    if not path.is_dir():
        return None
    from cc_hooks.cli import CliError

    try:
        top = run_git(path, "rev-parse", "--show-toplevel", check=False).strip()
    except GitError as exc:
        raise CliError(str(exc), 2) from None
    return Path(top) if top else None
