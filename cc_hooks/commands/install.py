"""`cc-hooks install`: merge the hooks block into a Claude Code settings file."""

from __future__ import annotations

import os

HELP = "Wire cc-hooks into Claude Code's settings (idempotent; keeps everything else in the file)."

SCOPE_HELP = (
    "project: <root>/.claude/settings.json (committed; portable command); "
    "local: <root>/.claude/settings.local.json (this machine); "
    "user: $CLAUDE_CONFIG_DIR/settings.json or ~/.claude/settings.json (this machine, all projects)"
)


def add_arguments(parser) -> None:
    from cc_hooks.cli import PROJECT_HELP

    parser.add_argument("--scope", choices=("project", "local", "user"), default="project", help=SCOPE_HELP)
    add_harness_argument(parser)
    parser.add_argument("--project", metavar="DIR", help=PROJECT_HELP)
    parser.add_argument("--dry-run", action="store_true", help="show the plan and the diff; write nothing")
    parser.add_argument(
        "--git-hooks",
        action="store_true",
        help="also install the commit-msg git hook that warns when a fix commit has no Symptom: trailer "
        "(an existing commit-msg hook is kept and chained)",
    )
    parser.add_argument("--strict", action="store_true", help="with --git-hooks: reject such commits instead of warning")
    parser.add_argument(
        "--agents",
        action="store_true",
        help="also install the method's skills (semantic-compactor, rehydrate) and subagents "
        "(regression-triage, cold-start-auditor) into .claude/",
    )
    parser.epilog = ("Exit status: 0 wired, or already wired (a warning, such as an ignored .claude/settings.json, "
                     "does not change it); 1 an error: an invalid or unwritable settings file, a commit-msg hook "
                     "that cannot be installed, --strict without --git-hooks.")


HARNESS_HELP = ("the CLI to wire: claude-code (.claude/settings*.json) or codex (project: <root>/.codex/hooks.json; "
                "user: $CODEX_HOME/hooks.json; Codex then asks you to trust the hooks)")


def add_harness_argument(parser) -> None:
    from cc_hooks.harness import CLAUDE_CODE, NAMES

    parser.add_argument("--harness", choices=NAMES, default=CLAUDE_CODE, help=HARNESS_HELP)


def project_root(option):
    """The top of the work tree containing ``--project DIR`` (else the cwd); the directory itself
    when it is in no work tree."""
    from pathlib import Path

    from cc_hooks.cli import CliError
    from cc_hooks.git import work_tree_root

    if option:
        root = Path(option).expanduser().absolute()
        if not root.is_dir():
            raise CliError(f"--project {option}: not a directory")
        return work_tree_root(root) or root
    cwd = Path.cwd()
    return work_tree_root(cwd) or cwd


def load_or_fail(path):
    from cc_hooks import settings
    from cc_hooks.cli import CliError

    try:
        return settings.load(path)
    except settings.SettingsError as exc:
        raise CliError(f"refusing to touch {exc}; fix or move the file, then run again") from exc


def apply(file, new_data, dry_run: bool, root=None) -> str:
    """Write ``new_data`` if it differs; return the one-line outcome. ``root``: the work tree of a
    project-scope file, written through no symlink (``settings.write``)."""
    from cc_hooks import settings
    from cc_hooks.cli import CliError
    from cc_hooks.fsutil import RefusedFile

    new = settings.render(file, new_data)
    if file.exists and new_data == file.data:
        return f"{file.path}: unchanged, nothing written"
    if dry_run:
        print(settings.diff(file, new), end="")
        return f"{file.path}: dry run, nothing written"
    try:
        saved = settings.write(file, new, root)
    except settings.SettingsError as exc:
        raise CliError(f"refusing to touch {exc}") from exc
    except RefusedFile as exc:
        raise CliError(f"{exc}; {file.path} is unchanged") from exc
    except OSError as exc:
        raise CliError(f"cannot write {file.path} ({exc.strerror or exc}); it is unchanged") from exc
    return f"{file.path}: written" + (f" (backup: {saved})" if saved else " (new file)")


def run(args) -> int:
    from cc_hooks import settings
    from cc_hooks.cli import CliError

    if args.strict and not args.git_hooks:
        raise CliError("--strict only applies with --git-hooks")
    root = project_root(args.project)
    check_repo_writes(root, repo_files(args.scope, root, args.agents))
    file = load_or_fail(settings.settings_path(args.scope, root))
    command = settings.wired_command(args.scope)
    new_data, status = settings.merge(file.data, command)
    for event in settings.EVENTS:
        print(f"{event}: {status[event]}")
    print(write_launcher(args.scope, root, args.dry_run))  # first: the settings must never name a missing launcher
    print(apply(file, new_data, args.dry_run, repo_root(args.scope, root)))
    if args.scope == "project":
        for rel in (settings.PROJECT_SETTINGS, settings.PROJECT_LAUNCHER):
            rule = settings.ignore_rule(root, rel)
            if rule:
                print(f"warning: {rel} is ignored by git ({rule}), so the project scope cannot be "
                      f"committed and a clone gets no hooks; {settings.ignored_advice(rel)}")
    if args.git_hooks:
        print(git_hook_outcome(root, "install", args.dry_run, strict=args.strict))
    if args.agents:
        from cc_hooks.agents_install import install_agents

        for line in install_agents(root, args.scope, dry_run=args.dry_run):
            print(line)
    for scope in settings.SCOPES:
        if scope != args.scope and _commands_in(scope, root) - {command}:
            # Claude Code dedupes identical commands only; a different one runs as well.
            print(
                f"note: cc-hooks is also wired in the {scope} settings with another command, so each event "
                f"would run twice; remove one with `cc-hooks uninstall --scope {scope}`"
            )
    return 0


def repo_root(scope: str, root):
    """``root`` when the scope's settings file is in the work tree (written through no symlink), else None."""
    return root if scope in ("project", "local") else None


def repo_files(scope: str, root, agents: bool) -> list:
    """Every file of the work tree that ``install``/``uninstall`` of ``scope`` may write or remove."""
    from cc_hooks import settings

    if repo_root(scope, root) is None:
        return []
    files = [settings.settings_path(scope, root)]
    if scope == "project":
        files.append(settings.launcher_path(scope, root))
    if agents:
        from cc_hooks.agents_install import planned_files

        files += [path for path, _ in planned_files(root, scope)]
    return files


def check_repo_writes(root, paths) -> None:
    """CliError, before anything is written, when a link in the repository would take one of these
    writes elsewhere (``.claude -> ~/.claude``): one line naming the path and the link."""
    from cc_hooks.cli import CliError
    from cc_hooks.fsutil import RefusedFile, check_repo_path

    for path in paths:
        try:
            check_repo_path(root, path)
        except RefusedFile as exc:
            raise CliError(f"{exc}; nothing written") from exc
        except OSError as exc:  # a plain file where a directory belongs
            raise CliError(f"cannot write {path} ({exc.strerror or exc}); nothing written") from exc


def write_launcher(scope: str, root, dry_run: bool) -> str:
    """Write the scope's launcher (mode 0755) unless it is already current; one line saying what happened."""
    from cc_hooks import settings
    from cc_hooks.cli import CliError
    from cc_hooks.fsutil import RefusedFile, atomic_write_bytes, write_repo_bytes

    path = settings.launcher_path(scope, root)
    text = settings.launcher_text(scope).encode("utf-8")
    try:
        current = path.read_bytes()
    except OSError:
        current = None
    if current == text and os.access(path, os.X_OK):
        return f"{path}: unchanged"
    if current is not None and not settings.is_launcher(path):
        raise CliError(f"{path} exists and is not a cc-hooks launcher; move it away, then run again")
    if dry_run:
        return f"{path}: dry run, would write the launcher"
    try:
        if scope == "project":
            write_repo_bytes(root, path, text, mode=0o755)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_bytes(path, text, mode=0o755)
    except RefusedFile as exc:
        raise CliError(f"{exc}; nothing wired") from exc
    except OSError as exc:
        raise CliError(f"cannot write {path} ({exc.strerror or exc}); nothing wired") from exc
    return f"{path}: launcher written"


def _commands_in(scope: str, root) -> set:
    from cc_hooks import settings

    try:
        found = settings.our_handlers(settings.load(settings.settings_path(scope, root)).data)
    except settings.SettingsError:
        return set()
    return {h["command"] for handlers in found.values() for h in handlers}


def git_hook_outcome(root, action: str, dry_run: bool, strict: bool = False) -> str:
    """Install or remove the commit-msg hook; one line saying what happened."""
    from cc_hooks.cli import CliError
    from cc_hooks.config import ConfigError
    from cc_hooks.git import GitError
    from cc_hooks.record import commit_msg

    if dry_run:
        return f"commit-msg hook: dry run, would {action} it"
    try:
        if action == "install":
            return f"commit-msg hook: {commit_msg.install_commit_msg_hook(root, strict=strict)}"
        return f"commit-msg hook: {commit_msg.uninstall_commit_msg_hook(root)}"
    except (commit_msg.HookError, ConfigError, GitError, OSError) as exc:
        raise CliError(f"commit-msg hook: {exc}") from exc
