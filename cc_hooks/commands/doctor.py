"""`cc-hooks doctor`: read-only health check of the install, the wiring and the record."""

from __future__ import annotations

HELP = "Check that cc-hooks is installed, wired and working here; each problem with its fix (read-only)."

HOOK_RUN_SECONDS = 30.0
DEPENDENCIES = {"pydantic": (2,), "GitPython": (3, 1), "tomli-w": (1,), "rich": (13,)}


def add_arguments(parser) -> None:
    from cc_hooks.cli import PROJECT_HELP

    from cc_hooks.tables import add_plain_argument

    from cc_hooks.commands.install import add_harness_argument

    parser.add_argument("--project", metavar="DIR", help=PROJECT_HELP)
    add_harness_argument(parser)
    parser.add_argument("--json", action="store_true", help="print the findings as JSON")
    add_plain_argument(parser)
    parser.epilog = "Exit status: 0 when healthy (warnings allowed), 1 when any check fails."


def run(args) -> int:
    from cc_hooks.commands.install import project_root

    root = project_root(args.project)
    return report(root, diagnose(root), args)


def report(root, findings: list, args) -> int:
    """Print ``findings`` (a table, or JSON with ``--json``); 0 when none failed, else 1."""
    import json

    healthy = not any(f.status == "fail" for f in findings)
    if args.json:
        print(json.dumps({"project": str(root), "healthy": healthy, "checks": [f.as_dict() for f in findings]}, indent=2))
    else:
        _print_table(root, findings, healthy, args.plain)
    return 0 if healthy else 1


class Finding:
    __slots__ = ("check", "status", "detail", "fix")

    def __init__(self, check: str, status: str, detail: str, fix: str = ""):
        self.check, self.status, self.detail, self.fix = check, status, detail, fix

    def as_dict(self) -> dict:
        return {"check": self.check, "status": self.status, "detail": self.detail, "fix": self.fix}


def ok(check: str, detail: str) -> Finding:
    return Finding(check, "ok", detail)


def fail(check: str, detail: str, fix: str) -> Finding:
    return Finding(check, "fail", detail, fix)


def warn(check: str, detail: str, fix: str) -> Finding:
    return Finding(check, "warn", detail, fix)


def diagnose(root) -> list:
    """Every check, in the order a person would fix them."""
    from cc_hooks.config import Config

    findings = [check_python(), *check_dependencies(), check_git(), check_repo(root)]
    config_finding, config = check_config(root)
    findings.append(config_finding)
    wiring, commands = check_wiring(root, config or Config())
    findings += wiring
    findings += check_project_settings_committable(root)
    findings += check_command_forms(root)
    findings += [check_hook_runs(root, command) for command in commands]
    findings.append(check_state_dir(root))
    findings += check_records(root, config or Config())
    findings.append(check_log(root))
    return findings


# -- environment ---------------------------------------------------------------


def check_python() -> Finding:
    import sys

    version = ".".join(map(str, sys.version_info[:3]))
    if sys.version_info < (3, 10):
        return fail("python", f"Python {version} at {sys.executable}", "install cc-hooks into Python 3.10 or newer")
    return ok("python", f"Python {version} at {sys.executable}")


def _version_tuple(text: str) -> tuple:
    import re

    return tuple(int(part) for part in re.findall(r"\d+", text)[:3])


def check_dependencies() -> list:
    from importlib import metadata

    findings = []
    for name, minimum in DEPENDENCIES.items():
        wanted = ".".join(map(str, minimum))
        try:
            version = metadata.version(name)
        except metadata.PackageNotFoundError:
            findings.append(fail(f"dependency {name}", "not installed", f"pip install '{name}>={wanted}'"))
            continue
        if _version_tuple(version) < minimum:
            findings.append(fail(f"dependency {name}", f"{version} (need >= {wanted})", f"pip install -U '{name}>={wanted}'"))
        else:
            findings.append(ok(f"dependency {name}", version))
    return findings


def check_git() -> Finding:
    from cc_hooks.git import GitError, run_git

    try:
        return ok("git", run_git(".", "--version", timeout=10).strip())
    except GitError as exc:
        return fail("git", str(exc), "install git and make sure it is on PATH")


def check_repo(root) -> Finding:
    from cc_hooks.git import work_tree_root

    top = work_tree_root(root)
    if top is None:
        return fail("repository", f"{root} is not inside a git repository", "run cc-hooks in a git work tree (git init)")
    return ok("repository", str(top))


def check_config(root):
    from cc_hooks.config import CONFIG_NAME, ConfigError, load_config

    try:
        config = load_config(root)
    except ConfigError as exc:
        return fail("config", str(exc), f"fix {CONFIG_NAME} (hooks fall back to defaults meanwhile)"), None
    unknown = _unknown_keys(config)
    if unknown:
        return warn("config", f"unknown keys: {', '.join(unknown)}", f"check their spelling in {CONFIG_NAME}"), config
    present = (root / CONFIG_NAME).is_file()
    return ok("config", f"{CONFIG_NAME} parses" if present else f"no {CONFIG_NAME}; defaults"), config


def _unknown_keys(model, prefix: str = "") -> list:
    from pydantic import BaseModel

    keys = [f"{prefix}{key}" for key in (model.model_extra or {})]
    for name in type(model).model_fields:
        value = getattr(model, name)
        if isinstance(value, BaseModel):
            keys += _unknown_keys(value, f"{prefix}{name}.")
    return keys


# -- wiring --------------------------------------------------------------------


def check_wiring(root, config):
    """Findings for the settings files and each event; plus the distinct hook commands found."""
    from cc_hooks import settings

    findings = []
    wired: dict = {event: [] for event in settings.EVENTS}  # event -> [(scope, handler)]
    for scope in settings.SCOPES:
        path = settings.settings_path(scope, root)
        try:
            file = settings.load(path)
        except settings.SettingsError as exc:
            findings.append(fail(f"settings ({scope})", str(exc), "fix the file; Claude Code cannot use it either"))
            continue
        if file.data.get("disableAllHooks") is True:
            findings.append(
                fail(f"settings ({scope})", f"{path}: disableAllHooks is true, no hook runs", "remove disableAllHooks")
            )
        for event, handlers in settings.our_handlers(file.data).items():
            if event in wired:
                wired[event] += [(scope, handler) for handler in handlers]
    for event in settings.EVENTS:
        findings.append(_check_event(event, wired[event], getattr(config.hooks, settings.BUDGET_FIELDS[event])))
    commands = list(dict.fromkeys(h["command"] for entries in wired.values() for _, h in entries))
    return findings, commands


def check_project_settings_committable(root) -> list:
    """The project scope is "committed; portable": an ignored .claude/settings.json never is."""
    from cc_hooks import settings

    path = settings.settings_path("project", root)
    if not path.is_file():
        return []
    findings = []
    for rel in (settings.PROJECT_SETTINGS, settings.PROJECT_LAUNCHER):  # the settings run the launcher
        rule = settings.ignore_rule(root, rel) if (root / rel).is_file() else None
        if rule is not None:
            findings.append(warn("settings (project) committable", f"{rel} is ignored by git ({rule}): "
                                 "a clone of this repository gets no hooks", settings.ignored_advice(rel)))
    return findings[:1]


def check_command_forms(root) -> list:
    """Per scope: the short command and its launcher, or the long inline form of earlier releases."""
    from cc_hooks import settings

    findings = []
    for scope in settings.SCOPES:
        try:
            found = settings.our_handlers(settings.load(settings.settings_path(scope, root)).data)
        except settings.SettingsError:
            continue  # check_wiring names the file
        commands = dict.fromkeys(h["command"].removesuffix(f" {settings.GATE_FLAG}") for hs in found.values() for h in hs)
        findings += [_command_form(root, scope, command) for command in commands]
    return findings


def _command_form(root, scope: str, command: str) -> Finding:
    import os
    import shlex
    from pathlib import Path

    from cc_hooks import settings

    name = f"hook command ({scope})"
    if not settings.is_short(command):
        if "&& exec" in command:
            return warn(name, f"the long command of an earlier cc-hooks ({len(command)} characters, which Claude Code "
                              "echoes as the hook's name at a manual /compact); it still works",
                        f"cc-hooks install --scope {scope} (writes the launcher and the short command)")
        return ok(name, f"hand-written: {command}")
    head = shlex.split(command)[0]
    path = Path(str(root) + head[len("$CLAUDE_PROJECT_DIR"):]) if head.startswith("$CLAUDE_PROJECT_DIR") else Path(head)
    fix = f"cc-hooks install --scope {scope}" + (
        f" (and commit {settings.PROJECT_LAUNCHER} with {settings.PROJECT_SETTINGS})" if scope == "project" else "")
    if not path.is_file():
        return fail(name, f"{command}: the launcher {path} is missing, so every event fails", fix)
    if not settings.is_launcher(path):
        return fail(name, f"{path} is not a cc-hooks launcher", f"move it away, then {fix}")
    if not os.access(path, os.X_OK):
        return fail(name, f"{path} is not executable", f"chmod +x {shlex.quote(str(path))}, or {fix}")
    if scope == "project" and path.read_text(encoding="utf-8", errors="replace") != settings.launcher_text("project"):
        return warn(name, f"{path} differs from what this cc-hooks writes", fix)
    return ok(name, f"{command} (launcher {path})")


def _check_event(event: str, entries: list, budget: float) -> Finding:
    from cc_hooks.settings import MAX_TIMEOUT

    name = f"wired {event}"
    if not entries:
        return fail(name, "no cc-hooks handler in any settings file", "cc-hooks install (add --scope local|user for this machine only)")
    if len({h["command"] for _, h in entries}) > 1:
        scopes = ", ".join(scope for scope, _ in entries)
        return fail(name, f"wired with different commands in: {scopes}; the hook runs once per command", "cc-hooks uninstall --scope <one of them>")
    scope, handler = entries[0]
    timeout = handler.get("timeout")
    if not isinstance(timeout, (int, float)) or isinstance(timeout, bool):
        return fail(name, f"{scope}: no timeout (Claude Code then waits up to {MAX_TIMEOUT} s)", f"cc-hooks install --scope {scope}")
    if not budget < timeout < MAX_TIMEOUT:
        return fail(
            name,
            f"{scope}: timeout {timeout:g} s is outside ({budget:g}, {MAX_TIMEOUT}) — it must exceed the hook's own budget",
            f"cc-hooks install --scope {scope}",
        )
    return ok(name, f"{scope}, timeout {timeout:g} s (hook budget {budget:g} s)")


def check_hook_runs(root, command: str) -> Finding:
    """Run the configured command the way Claude Code does, with an event it ignores."""
    import json
    import os
    import subprocess

    from cc_hooks.settings import NOT_INSTALLED

    name = "hook runs"
    payload = json.dumps({"hook_event_name": "Doctor", "session_id": "cc-hooks-doctor", "cwd": str(root)})
    env = {**os.environ, "CLAUDE_PROJECT_DIR": str(root)}
    try:
        proc = subprocess.run(
            ["sh", "-c", command], input=payload, capture_output=True, text=True, cwd=root, env=env, timeout=HOOK_RUN_SECONDS
        )
    except subprocess.TimeoutExpired:
        return fail(name, f"no answer within {HOOK_RUN_SECONDS:g} s: {command}", "run the command by hand to see where it hangs")
    except OSError as exc:
        return fail(name, f"cannot run sh: {exc}", "install a POSIX shell")
    first = (proc.stderr.strip().splitlines() or [""])[0]
    if proc.returncode != 0:
        return fail(name, f"exit {proc.returncode}: {first or 'no stderr'} ({command})", "cc-hooks install again, or fix the installation")
    if first.startswith(NOT_INSTALLED):
        return fail(name, first, "install cc-hooks where the command looks (the project's .venv or PATH), then cc-hooks install")
    return ok(name, command)


# -- the repository's side -----------------------------------------------------


def check_state_dir(root) -> Finding:
    import os

    from cc_hooks.state import state_dir

    from cc_hooks.fsutil import RefusedFile, check_state_root

    directory = state_dir(root)
    if directory is None:
        return fail("state dir", "no git directory, so no state directory", "run in a git repository")
    if os.path.lexists(directory):
        try:
            check_state_root(directory, tighten=False)
        except RefusedFile as exc:  # a link, another owner, writable by others: no state is written there
            return fail("state dir", f"{directory}: {exc}", "see docs/security.md, defence 23")
    if directory.is_dir():
        if os.access(directory, os.W_OK | os.X_OK):
            return ok("state dir", str(directory))
        return fail("state dir", f"{directory} is not writable", f"fix the permissions of {directory}")
    if os.access(directory.parent, os.W_OK | os.X_OK):
        return ok("state dir", f"{directory} (created on first use)")
    return fail("state dir", f"{directory.parent} is not writable", f"fix the permissions of {directory.parent}")


def check_records(root, config) -> list:
    from cc_hooks.git import GitError, tracked_files, work_tree_root

    top = work_tree_root(root)
    if top is None:
        return []
    try:
        tracked = tracked_files(top)
    except GitError as exc:
        return [fail("record files", f"cannot list tracked files: {exc}", "check that git works here")]
    record = config.record
    dashboard, where = _dashboard(top, config)
    findings = []
    if dashboard is None:
        findings.append(ok("record dashboard", f"{where} (not a file; its backend checks it)"))
    for rel in (record.symptoms, record.decisions, dashboard, record.questions):
        if rel is None:
            continue
        name = f"record {rel}"
        if not (top / rel).is_file():
            findings.append(fail(name, "missing", "cc-hooks init"))
        elif rel not in tracked:
            findings.append(fail(name, "present but not tracked by git", f"git add {rel} && git commit"))
        else:
            findings.append(ok(name, "present and tracked"))
    return findings


def _dashboard(top, config):
    """(path of a file dashboard or None, its declaration as text)."""
    try:
        from cc_hooks.record.dashboard import find_declaration
    except ImportError:  # the dashboard module is optional here
        return config.record.default_dashboard, f"file {config.record.default_dashboard}"
    declaration, _ = find_declaration(top, config)
    where = f"{declaration.backend} {declaration.locator}"
    return (declaration.locator if declaration.backend == "file" else None), where


def check_log(root) -> Finding:
    from cc_hooks.state import LOG_NAME, read_log, state_dir

    errors = [entry for entry in read_log(root, limit=200) if entry.get("level") == "error"]
    if not errors:
        return ok("hook log", "no hook failures recorded")
    last = errors[-3:]
    lines = "; ".join(f"{e.get('ts', '?')} {e.get('event', '?')}: {e.get('message', '')}" for e in last)
    where = (state_dir(root) or root) / LOG_NAME
    return warn("hook log", f"{len(errors)} failure(s); last: {lines}", f"see {where} (the hooks failed open)")


# -- output --------------------------------------------------------------------


def _print_table(root, findings: list, healthy: bool, plain=None) -> None:
    from cc_hooks.printable import printable
    from cc_hooks.tables import Column, print_table

    style = {"ok": "green", "warn": "yellow", "fail": "bold red"}
    columns = [Column("check", max_width=32), Column("status"), Column("detail", wrap=True), Column("fix", wrap=True)]
    rows = [[printable(f.check), (f.status, style[f.status]), printable(f.detail), printable(f.fix)]
            for f in findings]  # details quote the hook log and the repo: no escape sequence reaches the terminal
    problems = sum(1 for f in findings if f.status == "fail")
    print_table(f"cc-hooks doctor: {root}", columns, rows, plain=plain,
                footer="healthy" if healthy else f"{problems} problem(s)")
