"""Codex's hook wiring: ``hooks.json`` (project ``<repo>/.codex/hooks.json``, user
``$CODEX_HOME/hooks.json``), its merge, and the trust Codex requires before it runs a hook.

The file has Claude Code's shape (event → matcher groups → handlers), so reading, checking,
rendering, backing up and writing are ``cc_hooks.settings``'; our handlers are recognised the same
way, by their command (``cc-hooks hook``), so ``settings.remove`` removes exactly them. What is
Codex's own:

- the command names the harness (``hook --harness codex``), and the project scope finds the
  project's ``.venv`` from the hook's working directory (Codex has no ``$CLAUDE_PROJECT_DIR``; it
  runs hooks in the session's directory);
- **trust**: Codex reads ``<repo>/.codex/hooks.json`` only in a trusted project
  (``[projects."<root>"] trust_level = "trusted"`` in ``$CODEX_HOME/config.toml``), and runs a hook
  only once its definition is trusted (``[hooks.state."<hooks.json>:<event>:<group>:<handler>"]
  trusted_hash = "sha256:…"``), else skips it silently; ``[features] hooks = false`` turns them off.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Optional

from cc_hooks.harness.codex import codex_home

CONFIG_NAME = "config.toml"
NOT_INSTALLED = "cc-hooks: not installed"
APP_SERVER_SECONDS = 15.0
TRUST_STEP = ('Codex skips untrusted hooks silently. Trust them once: start `codex` in {root} and answer the '
              '"Hooks need review" prompt with "Trust all and continue" (or "Review hooks", or /hooks later). '
              'Check with `cc-hooks doctor --harness codex`.')
PROJECT_TRUST_STEP = ('Codex reads {path} only in a trusted project: start `codex` in {root} and answer "Trust this '
                      'folder?" with "Trust and continue", or add [projects."{root}"] trust_level = "trusted" to {config}.')


def hook_command(scope: str, executable: Optional[str] = None) -> str:
    """The shell command Codex runs for every event: a pinned cc-hooks, else one on PATH, else one
    line on stderr and exit 0 (a missing install never breaks a session)."""
    if scope == "project":
        where = "<repo>/.venv/bin/cc-hooks"
        pinned = _PROJECT_PIN + '[ -x "$d/cc-hooks" ] && exec "$d/cc-hooks" hook --harness codex'
    else:
        python = executable or sys.executable
        script = Path(python).parent / "cc-hooks"
        if os.access(script, os.X_OK):
            where = str(script)
            pinned = f"[ -x {shlex.quote(where)} ] && exec {shlex.quote(where)} hook --harness codex"
        else:
            where = python
            pinned = f"[ -x {shlex.quote(where)} ] && exec {shlex.quote(where)} -m cc_hooks hook --harness codex"
    line = f"{NOT_INSTALLED}: no {where}, none on PATH; hook skipped (see cc-hooks doctor --harness codex)"
    return f"{pinned}; command -v cc-hooks >/dev/null 2>&1 && exec cc-hooks hook --harness codex; echo {shlex.quote(line)} >&2"


_PROJECT_PIN = 'd="$(git rev-parse --show-toplevel 2>/dev/null)/.venv/bin"; '
_SCRIPT_PIN = re.compile(r"\[ -x ('[^']*/cc-hooks'|[^\s';]*/cc-hooks) \] && exec \1 hook --harness codex; ")


def prompt_command(command: str) -> str:
    """UserPromptSubmit's command: the prompt gate of the pinned installation first (as for Claude
    Code, ``settings.prompt_command``): it answers "nothing queued" before Python's site or the package
    load, and hands a queued item over to the full hook (told Codex by the rollout it is given)."""
    from cc_hooks.settings import _gate

    if command.startswith(_PROJECT_PIN):
        return _PROJECT_PIN + _gate('"$d"', '"$d/cc-hooks"') + command[len(_PROJECT_PIN):]
    pinned = _SCRIPT_PIN.match(command)
    if pinned:
        script = shlex.split(pinned.group(1))[0]
        return _gate(shlex.quote(os.path.dirname(script)), shlex.quote(script)) + command
    return command


def hooks_block(command: str) -> dict[str, list[dict[str, Any]]]:
    """One match-all group per event, with Claude Code's timeouts (each above the hook's own budget)."""
    from cc_hooks.settings import EVENTS, TIMEOUTS

    commands = {event: prompt_command(command) if event == "UserPromptSubmit" else command for event in EVENTS}
    return {event: [{"hooks": [{"type": "command", "command": commands[event], "timeout": TIMEOUTS[event]}]}]
            for event in EVENTS}


def merge(data: dict[str, Any], command: str) -> tuple[dict[str, Any], dict[str, str]]:
    """``data`` with our block in (where our handlers were, else at the end); event -> status."""
    from cc_hooks.settings import merge_block

    return merge_block(data, hooks_block(command))


# -- trust ---------------------------------------------------------------------------------------


def config_path() -> Path:
    return codex_home() / CONFIG_NAME


def load_config(path: Optional[Path] = None) -> tuple[dict, Optional[str]]:
    """``$CODEX_HOME/config.toml`` as a dict (empty when absent), and why it could not be read."""
    path = path or config_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}, None
    except (OSError, UnicodeDecodeError) as exc:
        return {}, f"{path}: cannot read ({exc})"
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    try:
        return tomllib.loads(text), None
    except tomllib.TOMLDecodeError as exc:
        return {}, f"{path}: not valid TOML ({exc})"


def snake(event: str) -> str:
    """``PreCompact`` -> ``pre_compact`` (how Codex names events in trust keys)."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", event).lower()


def hook_keys(path: Path, data: dict) -> list[tuple[str, str, dict]]:
    """(event, trust key, handler) for each of our handlers in ``data`` (the hooks.json at ``path``)."""
    from cc_hooks.settings import is_ours

    keys = []
    for event, groups in data.get("hooks", {}).items():
        for g, group in enumerate(groups):
            for h, handler in enumerate(group.get("hooks", [])):
                if is_ours(handler):
                    keys.append((event, f"{path}:{snake(event)}:{g}:{h}", handler))
    return keys


def hooks_enabled(config: dict) -> bool:
    features = config.get("features")
    return not (isinstance(features, dict) and features.get("hooks") is False)


def project_trusted(config: dict, root: Path) -> bool:
    projects = config.get("projects")
    if not isinstance(projects, dict):
        return False
    for candidate in dict.fromkeys((str(root), str(Path(root).resolve()))):
        entry = projects.get(candidate)
        if isinstance(entry, dict) and entry.get("trust_level") == "trusted":
            return True
    return False


def recorded_hashes(config: dict) -> dict[str, str]:
    """trust key -> the ``trusted_hash`` config.toml records for it."""
    state = (config.get("hooks") or {}).get("state") if isinstance(config.get("hooks"), dict) else None
    if not isinstance(state, dict):
        return {}
    return {key: value["trusted_hash"] for key, value in state.items()
            if isinstance(value, dict) and isinstance(value.get("trusted_hash"), str)}


def codex_statuses(cwd: Path, codex: Optional[str] = None, timeout: float = APP_SERVER_SECONDS) -> Optional[dict]:
    """trust key -> {"trustStatus", "currentHash", ...} as Codex itself reports them (``codex app-server``,
    ``hooks/list``), or None when no ``codex`` is on PATH or it did not answer."""
    import shutil

    binary = codex or shutil.which("codex")
    if binary is None:
        return None
    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"clientInfo": {"name": "cc-hooks", "version": "0"}}},
        {"jsonrpc": "2.0", "method": "initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "hooks/list", "params": {"cwds": [str(cwd)]}},
    ]
    try:
        proc = subprocess.Popen([binary, "app-server"], cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    except OSError:
        return None
    try:
        return _hooks_list(proc, requests, time.monotonic() + timeout)
    finally:
        proc.kill()
        proc.wait()


def _hooks_list(proc, requests: list, end: float) -> Optional[dict]:
    import select

    for request in requests[:1]:
        proc.stdin.write(json.dumps(request) + "\n")
    proc.stdin.flush()
    sent_rest = False
    while time.monotonic() < end:
        ready, _, _ = select.select([proc.stdout], [], [], max(0.0, end - time.monotonic()))
        if not ready:
            return None
        line = proc.stdout.readline()
        if not line:
            return None
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if message.get("id") == 1 and not sent_rest:
            for request in requests[1:]:
                proc.stdin.write(json.dumps(request) + "\n")
            proc.stdin.flush()
            sent_rest = True
        elif message.get("id") == 2:
            found = {}
            for entry in (message.get("result") or {}).get("data") or []:
                for hook in entry.get("hooks") or []:
                    if isinstance(hook, dict) and isinstance(hook.get("key"), str):
                        found[hook["key"]] = hook
            return found
    return None
