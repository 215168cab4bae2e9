"""`cc-hooks doctor`: read-only health check of the install, the wiring and the record.

It runs nothing the wiring names (a clone supplies its project settings, launcher and .venv): the
commands and the launcher are compared with what `install` writes, the installation they would start
is named, and only the installation doctor itself runs from answers a synthetic event."""

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
    findings += check_wiring(root, config or Config())
    findings += check_project_settings_committable(root)
    findings += check_command_forms(root)
    findings.append(check_hook_runs(root))
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
    """Findings for the settings files and each event."""
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
    return findings


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
    """Per scope: the wired commands and their launcher, byte for byte against what `cc-hooks install`
    writes, and the installation they would start. None of it runs: a clone supplies the project's."""
    from cc_hooks import settings

    findings = []
    for scope in settings.SCOPES:
        try:
            found = settings.our_handlers(settings.load(settings.settings_path(scope, root)).data)
        except settings.SettingsError:
            continue  # check_wiring names the file
        if found:
            findings += _scope_forms(root, scope, found)
    return findings


def _scope_forms(root, scope: str, found: dict) -> list:
    from cc_hooks import settings

    fix = f"cc-hooks install --scope {scope}"
    short, long = settings.wired_command(scope), settings.hook_command(scope)
    forms = {"short": block_commands(settings.hooks_block(short)), "long": block_commands(settings.hooks_block(long))}
    matched, stray = compare_commands(found, forms)
    name = f"hook command ({scope})"
    if stray:
        findings = [differs(name, stray, fix, f"`{short}`")]
    elif "long" in matched:
        findings = [warn(name, f"the long command of an earlier cc-hooks ({len(long)} characters, which Claude Code "
                               "echoes as the hook's name at a manual /compact); it still finds cc-hooks as below",
                         f"{fix} (writes the launcher and the short command)")]
    else:
        findings = [ok(name, f"as `{fix}` writes it: {short}")]
    launcher = check_launcher(root, scope) if "short" in matched else None
    if launcher is not None:
        findings.append(launcher)
    if "long" in matched or (launcher is not None and launcher.status == "ok"):
        findings.append(project_installation(scope, root) if scope == "project" else machine_installation(scope))
    return findings


def block_commands(block: dict) -> dict:
    """event -> the command a hooks block (``settings.hooks_block`` and the like) wires for it."""
    return {event: groups[0]["hooks"][0]["command"] for event, groups in block.items()}


def compare_commands(found: dict, forms: dict) -> tuple:
    """The names of the ``forms`` (name -> ``block_commands``) that our handlers in ``found`` match byte
    for byte, and the (event, command) of each handler that matches none."""
    matched, stray = [], []
    for event, handlers in found.items():
        for handler in handlers:
            form = next((name for name, commands in forms.items() if commands.get(event) == handler["command"]), None)
            if form is None:
                stray.append((event, handler["command"]))
            elif form not in matched:
                matched.append(form)
    return matched, stray


def differs(name: str, stray: list, fix: str, expected: str = "") -> Finding:
    """A failed finding naming each handler that is not what ``fix`` writes (doctor never runs them)."""
    events: dict = {}
    for event, command in stray:
        events.setdefault(command, []).append(event)
    listing = "; ".join(f"{', '.join(names)}: {command}" for command, names in events.items())
    wanted = f" ({expected})" if expected else ""
    return fail(name, f"{listing} — differs from what `{fix}` writes{wanted}; not run (doctor runs no wired command)",
                fix)


def check_launcher(root, scope: str) -> Finding:
    """The launcher the short command names, against the bytes `cc-hooks install` writes (read, not run)."""
    import os
    import shlex

    from cc_hooks import settings
    from cc_hooks.fsutil import read_repo_bytes

    name = f"hook launcher ({scope})"
    path = settings.launcher_path(scope, root)
    writers = ("project",) if scope == "project" else ("local", "user")  # one machine launcher serves both
    written = {settings.launcher_text(writer).encode("utf-8") for writer in writers}
    fix = f"cc-hooks install --scope {scope}" + (
        f" (and commit {settings.PROJECT_LAUNCHER} with {settings.PROJECT_SETTINGS})" if scope == "project" else "")
    try:
        current = read_repo_bytes(path, limit=max(map(len, written)) + 1, truncate=True)
    except FileNotFoundError:
        return fail(name, f"the launcher {path} is missing, so every event fails", fix)
    except OSError as exc:
        return fail(name, f"{path}: {exc.strerror or exc}", f"move it away, then {fix}")
    if settings.LAUNCHER_MARK.encode() not in current[:256]:
        return fail(name, f"{path} is not a cc-hooks launcher", f"move it away, then {fix}")
    if not os.access(path, os.X_OK):
        return fail(name, f"{path} is not executable", f"chmod +x {shlex.quote(str(path))}, or {fix}")
    if current not in written:
        return warn(name, f"{path} differs from what `cc-hooks install --scope {scope}` writes; not run, so which "
                          "cc-hooks it starts is not known", fix)
    return ok(name, f"{path}, as `cc-hooks install --scope {scope}` writes it")


def project_installation(scope: str, root) -> Finding:
    """Which cc-hooks the project scope's command starts, in its own order (``settings.launcher_text``):
    the project's .venv, then PATH. Said, never run: the .venv is the repository's to supply."""
    import os
    from pathlib import Path

    pinned = Path(root) / ".venv" / "bin" / "cc-hooks"
    name = f"hook installation ({scope})"
    if not os.access(pinned, os.X_OK):  # the launcher's `[ -x "$d/cc-hooks" ]`
        return _on_path(name, root, f"no {pinned}")
    where = "the project's .venv, inside the repository" if _inside(pinned, root) else "the project's .venv"
    if _is_this_installation(pinned):
        return ok(name, f"{pinned} ({where}): the installation this doctor runs from")
    return ok(name, f"{pinned} ({where}): the hooks start it; not run by doctor, which runs no file of the repository")


def machine_installation(scope: str) -> Finding:
    """Which cc-hooks a machine scope's command starts: the installation it pins (this one, when the
    command and launcher are what this installation writes), then PATH."""
    import os
    import sys
    from pathlib import Path

    script = Path(sys.executable).parent / "cc-hooks"
    pinned = script if os.access(script, os.X_OK) else Path(sys.executable)  # as settings.hook_command pins it
    name = f"hook installation ({scope})"
    if os.access(pinned, os.X_OK):
        return ok(name, f"{pinned}: the installation this doctor runs from (pinned by the launcher)")
    return _on_path(name, None, f"no {pinned}")


def _on_path(name: str, root, missing: str) -> Finding:
    """The launcher's fallback, `command -v cc-hooks`, resolved on this PATH and named, not run."""
    import os
    import shutil
    import sys

    from cc_hooks.settings import NOT_INSTALLED

    found = shutil.which("cc-hooks")
    if found is None:
        return fail(name, f"{NOT_INSTALLED}: {missing}, none on PATH; the launcher skips every hook",
                    "install cc-hooks where the command looks (the project's .venv or PATH), then cc-hooks install")
    path = os.path.abspath(found)
    if root is not None and _inside(path, root):
        return warn(name, f"{path}: cc-hooks on PATH, inside the repository ({missing}); not run by doctor — "
                          "with a PATH entry in the repository, any clone supplies the hook",
                    "take the repository's directories (and empty or '.' entries) out of PATH")
    if _is_this_installation(path):
        return ok(name, f"{path}: cc-hooks on PATH ({missing}), the installation this doctor runs from")
    return ok(name, f"{path}: cc-hooks on PATH ({missing}), another installation than this doctor's "
                    f"({sys.executable}); not run by doctor")


def _inside(path, root) -> bool:
    import os

    real_root = os.path.realpath(root)
    return os.path.commonpath([real_root, os.path.realpath(path)]) == real_root


def _is_this_installation(script) -> bool:
    """Whether ``script`` is the console script beside the interpreter this doctor runs on."""
    import os
    import sys
    from pathlib import Path

    try:
        return os.path.samefile(Path(script).parent, Path(sys.executable).parent)
    except OSError:
        return False


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


def check_hook_runs(root, harness_args: tuple = ()) -> Finding:
    """This installation's hook entry point (the interpreter and package doctor runs from) answers an
    event it ignores. Never a wired command, a launcher or another file the repository supplies: those
    are compared with what `install` writes instead (``check_command_forms``)."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    import cc_hooks

    name = "hook runs"
    argv = [sys.executable, "-m", "cc_hooks", "hook", *harness_args]
    shown = " ".join(argv)
    # `-m` puts the working directory first on sys.path: the running package's parent, never the repository
    # (whose own cc_hooks/ would be imported instead).
    home = Path(cc_hooks.__file__).resolve().parent.parent
    payload = json.dumps({"hook_event_name": "Doctor", "session_id": "cc-hooks-doctor", "cwd": str(root)})
    try:
        proc = subprocess.run(argv, input=payload, capture_output=True, text=True, cwd=home, timeout=HOOK_RUN_SECONDS)
    except subprocess.TimeoutExpired:
        return fail(name, f"no answer within {HOOK_RUN_SECONDS:g} s: {shown}", "run it by hand to see where it hangs")
    except OSError as exc:
        return fail(name, f"cannot start {sys.executable}: {exc}", "reinstall cc-hooks")
    if proc.returncode != 0:
        first = (proc.stderr.strip().splitlines() or ["no stderr"])[-1]
        return fail(name, f"exit {proc.returncode}: {first} ({shown})", "reinstall cc-hooks")
    return ok(name, f"this installation's hook entry point answered a synthetic event: {shown}")


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
