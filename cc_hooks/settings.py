"""Claude Code settings files: where they live, what cc-hooks adds, how it merges.

The hooks block is defined here, in Python (``EVENTS``, ``TIMEOUTS``,
``hook_command``); ``settings.example.json`` at the repo top is rendered from it
and a test keeps the two equal.

The wired command is short (``"$CLAUDE_PROJECT_DIR"/.claude/cc-hooks hook``): Claude Code
echoes it as the hook's name at a manual ``/compact``. The logic that finds an installation
lives in a launcher file ``install`` writes beside the settings (``launcher_text``); earlier
releases wired that logic inline (``hook_command``, the "long form"), which still works and is
still recognised, and ``install`` replaces it.

Our handlers are recognised by their command string (it runs ``cc-hooks hook``,
``cc_hooks hook`` or ``cc-hooks" hook``), never by an extra key: Claude Code's schema for
handler objects is not ours to extend. Everything else in the file (other keys, foreign hooks,
their order) is kept as it is.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import shlex
import stat
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from cc_hooks.fsutil import atomic_write_bytes, write_repo_bytes, write_state_bytes

EVENTS = ("PreCompact", "PostCompact", "SessionStart", "UserPromptSubmit")
# Seconds. Each must exceed the hook's own internal budget (config: 10/5/5/2 s by
# default) so that the hook, not Claude Code, decides what to drop when time runs out.
TIMEOUTS = {"PreCompact": 30, "PostCompact": 15, "SessionStart": 15, "UserPromptSubmit": 5}
BUDGET_FIELDS = {
    "PreCompact": "pre_compact_seconds",
    "PostCompact": "post_compact_seconds",
    "SessionStart": "session_start_seconds",
    "UserPromptSubmit": "user_prompt_submit_seconds",
}
MAX_TIMEOUT = 600  # Claude Code's default; a hook stalls compaction this long at most

SCOPES = ("project", "local", "user")
EXAMPLE_NAME = "settings.example.json"

# The single line the wrapper prints when it finds no cc-hooks; doctor looks for it.
NOT_INSTALLED = "cc-hooks: not installed"
_OURS = re.compile(r"cc[-_]hooks[\"']?\s+hook(?![\w-])")
_BACKUPS_KEPT = 10


class SettingsError(Exception):
    """The settings file cannot be used as it is; the message names the file and the place."""


# -- the command ---------------------------------------------------------------


def hook_command(scope: str, executable: Optional[str] = None) -> str:
    """The shell logic that runs cc-hooks for every event: the launcher's body (``launcher_text``),
    and the command earlier releases wired inline (the long form, still recognised and working).

    It tries a pinned cc-hooks first (project: ``$CLAUDE_PROJECT_DIR/.venv``,
    portable across machines; local/user: this installation's absolute path),
    then ``cc-hooks`` on PATH, else prints one line on stderr and exits 0, so a
    missing install never breaks or blocks a session. ``exec`` passes the hook's
    own exit code (2 = block a manual compaction) through unchanged.
    """
    if scope == "project":
        where = "$CLAUDE_PROJECT_DIR/.venv/bin/cc-hooks"
        pinned = 'd="$CLAUDE_PROJECT_DIR/.venv/bin"; [ -x "$d/cc-hooks" ] && exec "$d/cc-hooks" hook'
    else:
        python = executable or sys.executable
        script = Path(python).parent / "cc-hooks"
        if os.access(script, os.X_OK):
            where = str(script)
            pinned = f"[ -x {shlex.quote(where)} ] && exec {shlex.quote(where)} hook"
        else:
            where = python
            pinned = f"[ -x {shlex.quote(where)} ] && exec {shlex.quote(where)} -m cc_hooks hook"
    line = f"{NOT_INSTALLED}: no {where}, none on PATH; hook skipped (see cc-hooks doctor)"
    fallback = f"command -v cc-hooks >/dev/null 2>&1 && exec cc-hooks hook; echo {shlex.quote(line)} >&2"
    return f"{pinned}; {fallback}"


# UserPromptSubmit runs cc_hooks/prompt_gate.py first, from the installation the command pins, when
# that is a non-editable install (the gate is then a file of its site-packages): `python -I -S` on
# it answers "nothing queued" before site, pydantic or the package load, and hands over otherwise.
GATE_GLOB = "/../lib/python3*/site-packages/cc_hooks/prompt_gate.py"
_PROJECT_PIN = 'd="$CLAUDE_PROJECT_DIR/.venv/bin"; '
_SCRIPT_PIN = re.compile(r"\[ -x ('[^']*/cc-hooks'|[^\s';]*/cc-hooks) \] && exec \1 hook; ")


def prompt_command(command: str) -> str:
    """UserPromptSubmit's command for ``command``: a launcher's with ``--gate`` (the launcher runs the
    gate); for the long form, the gate of the pinned installation first, then ``command`` unchanged
    (an editable install, another command: as before)."""
    if is_short(command):
        return f"{command} {GATE_FLAG}"
    if command.startswith(_PROJECT_PIN):
        return _PROJECT_PIN + _gate('"$d"', '"$d/cc-hooks"') + command[len(_PROJECT_PIN):]
    pinned = _SCRIPT_PIN.match(command)
    if pinned:
        script = shlex.split(pinned.group(1))[0]
        return _gate(shlex.quote(os.path.dirname(script)), shlex.quote(script)) + command
    return command


# Imported, not run as a script: the import takes the .pyc pip wrote (a script is compiled at every
# start), and the import system skips a .pyc of another Python version where running it would fail.
_GATE_CODE = "import sys; sys.path[0:0] = sys.argv[1:2]; import prompt_gate; sys.exit(prompt_gate.main(sys.argv[1:]))"


def _gate(bin_dir: str, script: str) -> str:
    return (f'for g in {bin_dir}{GATE_GLOB}; do [ -f "$g" ] && [ -x {script} ] && '
            f'exec {bin_dir}/python -I -S -c {shlex.quote(_GATE_CODE)} "${{g%/*}}" {script} hook; done; ')


# --- the launcher: what the short wired command runs -----------------------------------------------

# The project scope's launcher is .claude/cc-hooks, committed with .claude/settings.json (it holds no
# machine path). The machine scopes (local, user) share one in the user config dir that pins this
# installation: their commands are then identical, and Claude Code runs an identical command once.
LAUNCHER_NAME = "cc-hooks"
LAUNCHER_MARK = "# cc-hooks launcher"
GATE_FLAG = "--gate"


def launcher_path(scope: str, project_root: Path) -> Path:
    if scope == "project":
        return project_root / ".claude" / LAUNCHER_NAME
    return user_config_dir() / LAUNCHER_NAME


def wired_command(scope: str) -> str:
    """The short command Claude Code runs (and echoes) for every event: the scope's launcher."""
    if scope == "project":
        return f'"$CLAUDE_PROJECT_DIR"/.claude/{LAUNCHER_NAME} hook'
    return f"{shlex.quote(str(user_config_dir() / LAUNCHER_NAME))} hook"


def launcher_text(scope: str, executable: Optional[str] = None) -> str:
    """The launcher file: ``hook_command``'s logic, with the prompt gate first for ``hook --gate``."""
    body = hook_command(scope, executable)
    where = "the project's .venv" if scope == "project" else "this installation (an absolute path)"
    return "\n".join([
        "#!/bin/sh",
        f"{LAUNCHER_MARK}, written by `cc-hooks install --scope {scope}` (run it again to rewrite this file).",
        *([] if scope == "project" else ["# It serves both machine scopes (local and user settings name it alike)."]),
        f"# Claude Code runs `<this file> hook` for every event: cc-hooks from {where}, else from PATH;",
        "# with neither, one line on stderr and exit 0, so a missing installation never breaks a session.",
        f"# `hook {GATE_FLAG}` (UserPromptSubmit) starts with the installation's prompt gate (python -I -S).",
        f'if [ "$2" = {GATE_FLAG} ]; then',
        f"    {prompt_command(body)}",
        "else",
        f"    {body}",
        "fi",
        "",
    ])


def is_launcher(path: Path) -> bool:
    """Whether ``path`` is a launcher cc-hooks wrote (a person's own file is never touched)."""
    try:
        with open(path, "rb") as handle:
            return LAUNCHER_MARK.encode() in handle.read(256)
    except OSError:
        return False


def is_short(command: str) -> bool:
    """Whether ``command`` is a launcher's short form (not the long form of earlier releases)."""
    head = command.removesuffix(f" {GATE_FLAG}")
    return head in {wired_command(scope) for scope in SCOPES} or (
        head.endswith(f"/{LAUNCHER_NAME} hook") and ";" not in head and "&&" not in head
    )


def is_ours(handler: Any) -> bool:
    return (
        isinstance(handler, dict)
        and handler.get("type") == "command"
        and isinstance(handler.get("command"), str)
        and _OURS.search(handler["command"]) is not None
    )


def hooks_block(command: str) -> dict[str, list[dict[str, Any]]]:
    """The ``hooks`` object cc-hooks merges: one match-all group per event (UserPromptSubmit's
    command starts with the prompt gate, ``prompt_command``)."""
    commands = {event: prompt_command(command) if event == "UserPromptSubmit" else command for event in EVENTS}
    return {
        event: [{"hooks": [{"type": "command", "command": commands[event], "timeout": TIMEOUTS[event]}]}]
        for event in EVENTS
    }


def render_example() -> str:
    """The text of ``settings.example.json`` (the project-scope block)."""
    return json.dumps({"hooks": hooks_block(wired_command("project"))}, indent=2) + "\n"


# -- where the files are -------------------------------------------------------


def user_config_dir() -> Path:
    configured = os.environ.get("CLAUDE_CONFIG_DIR")
    return Path(configured).expanduser() if configured else Path.home() / ".claude"


def settings_path(scope: str, project_root: Path) -> Path:
    if scope == "project":
        return project_root / ".claude" / "settings.json"
    if scope == "local":
        return project_root / ".claude" / "settings.local.json"
    if scope == "user":
        return user_config_dir() / "settings.json"
    raise ValueError(f"unknown scope {scope!r}")


# -- reading -------------------------------------------------------------------


@dataclass
class SettingsFile:
    path: Path
    raw: Optional[bytes]  # None when the file does not exist
    data: dict[str, Any]

    @property
    def exists(self) -> bool:
        return self.raw is not None


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            # json.loads would silently keep the last one; rewriting would lose the first.
            raise ValueError(f"duplicate key {key!r}")
        seen[key] = value
    return seen


def load(path: Path) -> SettingsFile:
    """Read and check a settings file; a missing file is an empty object. Raises SettingsError."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return SettingsFile(path, None, {})
    except OSError as exc:
        raise SettingsError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SettingsError(f"{path}: not UTF-8 (byte {exc.start})") from exc
    if not text.strip():
        return SettingsFile(path, raw, {})
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except json.JSONDecodeError as exc:
        raise SettingsError(f"{path}: not valid JSON (line {exc.lineno} column {exc.colno}: {exc.msg})") from exc
    except ValueError as exc:
        raise SettingsError(f"{path}: {exc}") from exc
    if not isinstance(data, dict):
        raise SettingsError(f"{path}: the top level is a JSON {_kind(data)}, expected an object")
    problem = _shape_problem(data.get("hooks", {}))
    if problem:
        raise SettingsError(f"{path}: {problem}")
    return SettingsFile(path, raw, data)


def _kind(value: Any) -> str:
    return {dict: "object", list: "array", str: "string", bool: "boolean", type(None): "null"}.get(
        type(value), "number"
    )


def _shape_problem(hooks: Any) -> Optional[str]:
    if not isinstance(hooks, dict):
        return f"`hooks` is a JSON {_kind(hooks)}, expected an object of event name -> list of matcher groups"
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            return f"`hooks.{event}` is a JSON {_kind(groups)}, expected a list of matcher groups"
        for i, group in enumerate(groups):
            where = f"hooks.{event}[{i}]"
            if not isinstance(group, dict):
                return f"`{where}` is a JSON {_kind(group)}, expected an object with a `hooks` list"
            handlers = group.get("hooks", [])
            if not isinstance(handlers, list):
                return f"`{where}.hooks` is a JSON {_kind(handlers)}, expected a list of handlers"
            for j, handler in enumerate(handlers):
                if not isinstance(handler, dict):
                    return f"`{where}.hooks[{j}]` is a JSON {_kind(handler)}, expected a handler object"
    return None


def our_handlers(data: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """event -> our handlers found in a (checked) settings object, in file order."""
    found: dict[str, list[dict[str, Any]]] = {}
    for event, groups in data.get("hooks", {}).items():
        for group in groups:
            for handler in group.get("hooks", []):
                if is_ours(handler):
                    found.setdefault(event, []).append(handler)
    return found


# -- merging -------------------------------------------------------------------


def _without_ours(groups: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], Optional[int]]:
    """The groups minus our handlers (groups left empty dropped), and where our first one was."""
    kept: list[dict[str, Any]] = []
    first: Optional[int] = None
    for group in groups:
        handlers = group.get("hooks", [])
        foreign = [h for h in handlers if not is_ours(h)]
        if len(foreign) != len(handlers):
            if first is None:
                first = len(kept)
            if not foreign:
                continue
            group = {**group, "hooks": foreign}
        kept.append(group)
    return kept, first


def merge(data: dict[str, Any], command: str) -> tuple[dict[str, Any], dict[str, str]]:
    """Settings with our block in; event -> installed | updated | unchanged."""
    return merge_block(data, hooks_block(command))


def merge_block(data: dict[str, Any], block: dict[str, list]) -> tuple[dict[str, Any], dict[str, str]]:
    """``data`` with ``block`` (a harness's hooks object) in, where our handlers were, else at the end."""
    hooks = dict(data.get("hooks", {}))
    status: dict[str, str] = {}
    for event in EVENTS:
        groups = hooks.get(event, [])
        ours = [g for g in groups if any(is_ours(h) for h in g.get("hooks", []))]
        if ours == block[event]:
            status[event] = "unchanged"
            continue
        kept, first = _without_ours(groups)
        at = len(kept) if first is None else first
        hooks[event] = kept[:at] + block[event] + kept[at:]
        status[event] = "installed" if first is None else "updated"
    return {**data, "hooks": hooks}, status


def remove(data: dict[str, Any]) -> tuple[dict[str, Any], dict[str, int]]:
    """Settings without our handlers (in any event); event -> handlers removed.

    Containers that only held ours (matcher groups, event lists, the ``hooks``
    object) are removed with them; foreign content is untouched.
    """
    if "hooks" not in data:
        return data, {}
    hooks: dict[str, Any] = {}
    removed: dict[str, int] = {}
    for event, groups in data["hooks"].items():
        count = sum(1 for g in groups for h in g.get("hooks", []) if is_ours(h))
        if not count:
            hooks[event] = groups
            continue
        removed[event] = count
        kept, _ = _without_ours(groups)
        if kept:
            hooks[event] = kept
    result = dict(data)
    if hooks or not removed:
        result["hooks"] = hooks
    else:
        del result["hooks"]
    return result, removed


# -- writing -------------------------------------------------------------------


def _indent_of(raw: Optional[bytes]) -> Any:
    """Keep the file's own indentation (tab or N spaces); Claude Code writes 2 spaces."""
    if raw:
        for line in raw.decode("utf-8-sig", errors="replace").splitlines()[1:]:
            stripped = line.lstrip(" \t")
            if stripped and stripped != line:
                lead = line[: len(line) - len(stripped)]
                return "\t" if lead.startswith("\t") else len(lead)
    return 2


def render(settings: SettingsFile, data: dict[str, Any]) -> bytes:
    return (json.dumps(data, indent=_indent_of(settings.raw), ensure_ascii=False) + "\n").encode("utf-8")


def diff(settings: SettingsFile, new: bytes) -> str:
    old = (settings.raw or b"").decode("utf-8-sig", errors="replace").splitlines(keepends=True)
    name = str(settings.path)
    before = name if settings.exists else "/dev/null"
    return "".join(difflib.unified_diff(old, new.decode("utf-8").splitlines(keepends=True), before, name))


def backup_dir_for(path: Path) -> Path:
    """Where backups of ``path`` go, creating the state dir if needed.

    Inside a git repo: the tool's state dir (in the work tree a backup would be
    an untracked file, easy to commit by mistake); elsewhere: beside the file.
    """
    from cc_hooks.state import state_dir

    directory = state_dir(path.parent, create=True) if path.parent.exists() else None
    return directory / "backups" if directory is not None else path.parent


def backup(settings: SettingsFile, root: Optional[Path] = None) -> Optional[Path]:
    """Copy the current bytes to a timestamped backup (mode 0600: settings may hold secrets).

    ``root``: the work tree of a project-scope file, whose backup goes to the state directory
    through no symlink (``write_state_bytes``), or beside the file outside a git repository
    (``write_repo_bytes``)."""
    if settings.raw is None:
        return None
    from cc_hooks.state import state_dir

    state = state_dir(root, create=True) if root is not None else None
    directory = state / "backups" if state is not None else backup_dir_for(settings.path)
    stem = f"{settings.path.name}.bak-{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}"
    target, n = directory / stem, 1
    while target.exists():
        n += 1
        target = directory / f"{stem}-{n}"
    if state is not None:
        write_state_bytes(state, target, settings.raw)
    elif root is not None:
        write_repo_bytes(root, target, settings.raw, mode=0o600)
    else:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        atomic_write_bytes(target, settings.raw, mode=0o600)
    _prune_backups(directory, settings.path.name)
    return target


def _prune_backups(directory: Path, name: str) -> None:
    old = sorted(directory.glob(f"{name}.bak-*"), key=lambda p: p.stat().st_mtime)
    for stale in old[:-_BACKUPS_KEPT]:
        try:
            stale.unlink()
        except OSError:
            pass


def read_only_problem(settings: SettingsFile) -> Optional[str]:
    """Why the file must not be rewritten: no write bit is a person's "do not touch"
    (root, and a rename over the file, would otherwise ignore it)."""
    if not settings.exists:
        return None
    try:
        mode = stat.S_IMODE(settings.path.stat().st_mode)
    except OSError:
        return None
    if mode & 0o222:
        return None
    return f"{settings.path}: read-only (mode {mode:04o}); make it writable (chmod u+w) to let cc-hooks change it"


def write(settings: SettingsFile, new: bytes, root: Optional[Path] = None) -> Optional[Path]:
    """Back up, then replace atomically, keeping the mode. Returns the backup.

    ``root``: the work tree of a project-scope file (``.claude/settings*.json``), written through no
    symlink at any level (``fsutil.write_repo_bytes``: RefusedFile otherwise); without it (the user's
    own settings) a symlink is written through. Raises SettingsError for a read-only file (nothing is
    written, not even the backup)."""
    problem = read_only_problem(settings)
    if problem:
        raise SettingsError(problem)
    saved = backup(settings, root)
    if root is not None:
        write_repo_bytes(root, settings.path, new)
        return saved
    mode = None
    if not settings.exists:
        settings.path.parent.mkdir(parents=True, exist_ok=True)
        mask = os.umask(0)
        os.umask(mask)
        mode = 0o666 & ~mask
    atomic_write_bytes(settings.path, new, mode=mode)
    return saved


# --- the project scope must be committable --------------------------------------------------------

PROJECT_SETTINGS = ".claude/settings.json"
PROJECT_LAUNCHER = ".claude/" + LAUNCHER_NAME


def ignore_rule(project_root: Path, rel: str = PROJECT_SETTINGS) -> Optional[str]:
    """The .gitignore rule that hides ``rel`` from git (``"<source>:<line>: <pattern>"``), or None:
    tracked, not ignored, or not in a git work tree. The project scope is "committed; portable":
    an ignored settings file never reaches a clone, so its hooks wire this machine only."""
    from cc_hooks.git import GitError, run_git

    try:
        if run_git(project_root, "ls-files", "-z", "--", rel).strip("\0"):
            return None  # tracked: ignore rules no longer apply
        out = run_git(project_root, "check-ignore", "-v", "-z", "--no-index", "--stdin", input=f"{rel}\0", check=False)
    except GitError:
        return None
    fields = out.split("\0")
    if len(fields) < 4 or not fields[3] or fields[2].startswith("!"):
        return None
    return f"{fields[0]}:{fields[1]}: {fields[2]}"


def ignored_advice(rel: str = PROJECT_SETTINGS) -> str:
    """What to do about an ignored project settings file, in one line."""
    return (f"commit it anyway with `git add -f {rel}` (once tracked, ignore rules no longer apply), "
            "or wire this machine only with `cc-hooks install --scope local`")
