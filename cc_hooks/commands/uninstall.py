"""`cc-hooks uninstall`: remove exactly cc-hooks' own entries from a settings file."""

from __future__ import annotations

HELP = "Remove cc-hooks' hook entries from Claude Code's settings (foreign hooks and other keys are kept)."


def add_arguments(parser) -> None:
    from cc_hooks.cli import PROJECT_HELP

    from cc_hooks.commands.install import SCOPE_HELP, add_harness_argument

    parser.add_argument("--scope", choices=("project", "local", "user"), default="project", help=SCOPE_HELP)
    add_harness_argument(parser)
    parser.add_argument("--project", metavar="DIR", help=PROJECT_HELP)
    parser.add_argument("--dry-run", action="store_true", help="show the plan and the diff; write nothing")
    parser.add_argument(
        "--git-hooks", action="store_true", help="also remove cc-hooks' commit-msg git hook (a chained one is put back)"
    )
    parser.add_argument("--agents", action="store_true", help="also remove the skills and subagents nobody edited")
    parser.epilog = ("Exit status: 0 removed, or nothing to remove; 1 an error: an invalid or unwritable settings file, "
                     "a commit-msg hook that cannot be removed.")


def run(args) -> int:
    from cc_hooks import settings
    from cc_hooks.commands.install import (apply, check_repo_writes, git_hook_outcome, load_or_fail, project_root,
                                           repo_files, repo_root)

    root = project_root(args.project)
    check_repo_writes(root, repo_files(args.scope, root, args.agents))
    path = settings.settings_path(args.scope, root)
    file = load_or_fail(path)
    if args.git_hooks:
        print(git_hook_outcome(root, "uninstall", args.dry_run))
    if args.agents:
        from cc_hooks.agents_install import uninstall_agents

        for line in uninstall_agents(root, args.scope, dry_run=args.dry_run):
            print(line)
    if not file.exists:
        print(f"{path}: no such file, nothing to remove")
    else:
        new_data, removed = settings.remove(file.data)
        for event in sorted(set(settings.EVENTS) | set(removed), key=_event_order):
            print(f"{event}: removed" if event in removed else f"{event}: absent")
        print(apply(file, new_data, args.dry_run, repo_root(args.scope, root)))
    outcome = remove_launcher(args.scope, root, args.dry_run)
    if outcome:
        print(outcome)
    return 0


def remove_launcher(scope: str, root, dry_run: bool):
    """Remove the scope's launcher (after the settings that name it) unless another scope still runs
    it (local and user share one); a person's own file stays. The project's is reached through
    no symlink (``fsutil.remove_repo_file``)."""
    from cc_hooks import settings
    from cc_hooks.commands.install import _commands_in
    from cc_hooks.fsutil import remove_repo_file

    path = settings.launcher_path(scope, root)
    if not path.exists():
        return None
    command = settings.wired_command(scope)
    users = [other for other in settings.SCOPES
             if other != scope and {command, settings.prompt_command(command)} & _commands_in(other, root)]
    if users:
        return f"{path}: kept, the {users[0]} settings still run it"
    if not settings.is_launcher(path):
        return f"{path}: not a cc-hooks launcher, kept"
    if dry_run:
        return f"{path}: dry run, would remove the launcher"
    try:
        if scope == "project":
            remove_repo_file(root, path)
        else:
            path.unlink()
    except OSError as exc:
        return f"{path}: could not remove the launcher ({exc.strerror or exc})"
    return f"{path}: launcher removed"


def _event_order(event: str):
    from cc_hooks.settings import EVENTS

    return (EVENTS.index(event) if event in EVENTS else len(EVENTS), event)
