"""The skills and subagents of the method, shipped as package data and installed into ``.claude/``.

``cc_hooks/agents/skills/<name>/SKILL.md`` become ``.claude/skills/<name>/SKILL.md`` and
``cc_hooks/agents/subagents/<name>.md`` become ``.claude/agents/<name>.md`` (project and local
scope: in the project; user scope: in ``$CLAUDE_CONFIG_DIR`` or ``~/.claude``). The plugin ships
the same files from the same place (``.claude-plugin/plugin.json`` points at them).

Every installed file ends with a marker line holding the hash of the text above it. A file
whose text still matches its marker was not edited, so a newer cc-hooks may replace it; a file
that does not match (or has no marker) belongs to the user and is kept unless ``force``.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Optional

from cc_hooks import __version__

SKILLS = ("semantic-compactor", "rehydrate")
SUBAGENTS = ("regression-triage", "cold-start-auditor")
_MARKER = re.compile(r"\n<!-- installed by cc-hooks \S+; sha256:([0-9a-f]{64})[^\n]*-->\n\Z")


def packaged_text(kind: str, name: str) -> str:
    """The packaged markdown of a ``skill`` or ``subagent``."""
    from importlib.resources import files

    base = files("cc_hooks") / "agents"
    if kind == "skill" and name in SKILLS:
        return (base / "skills" / name / "SKILL.md").read_text(encoding="utf-8")
    if kind == "subagent" and name in SUBAGENTS:
        return (base / "subagents" / f"{name}.md").read_text(encoding="utf-8")
    raise ValueError(f"no packaged {kind} named {name!r}")


def split_frontmatter(text: str) -> tuple[dict[str, str], str]:
    """``(fields, body)`` of a markdown file that starts with a ``---`` block of ``key: value`` lines."""
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        raise ValueError("no frontmatter: the file must start with a '---' line")
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].strip() == "---")
    except StopIteration:
        raise ValueError("frontmatter is not closed by a '---' line") from None
    fields: dict[str, str] = {}
    for number, line in enumerate(lines[1:end], start=2):
        key, sep, value = line.partition(":")
        if not sep or not re.fullmatch(r"[A-Za-z][\w-]*", key.strip()):
            raise ValueError(f"frontmatter line {number} is not 'key: value': {line!r}")
        fields[key.strip()] = value.strip()
    return fields, "\n".join(lines[end + 1 :]).lstrip("\n")


def agent_definition(name: str) -> dict:
    """A packaged subagent as the CLI's ``--agents`` JSON wants it: description, prompt, tools."""
    fields, body = split_frontmatter(packaged_text("subagent", name))
    definition = {"description": fields["description"], "prompt": body}
    if fields.get("tools"):
        definition["tools"] = [tool.strip() for tool in fields["tools"].split(",") if tool.strip()]
    return definition


def target_dir(project_root: Path, scope: str) -> Path:
    """The ``.claude`` directory a scope installs into (local shares the project's: skills and
    agents have no personal-project location in Claude Code)."""
    if scope in ("project", "local"):
        return Path(project_root) / ".claude"
    if scope == "user":
        from cc_hooks.settings import user_config_dir

        return user_config_dir()
    raise ValueError(f"unknown scope {scope!r}")


def _repo_root(project_root: Path, scope: str) -> Optional[Path]:
    """The work tree the scope installs into, None for the user's own directory."""
    return Path(project_root) if scope in ("project", "local") else None


def planned_files(project_root: Path, scope: str) -> list[tuple[Path, str]]:
    """``(destination, packaged text)`` for every skill and subagent."""
    claude = target_dir(project_root, scope)
    planned = [(claude / "skills" / name / "SKILL.md", packaged_text("skill", name)) for name in SKILLS]
    planned += [(claude / "agents" / f"{name}.md", packaged_text("subagent", name)) for name in SUBAGENTS]
    return planned


def stamped(text: str) -> str:
    """``text`` plus the marker line that lets a later install tell whether it was edited."""
    text = text if text.endswith("\n") else text + "\n"
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return f"{text}\n<!-- installed by cc-hooks {__version__}; sha256:{digest} (edit freely: cc-hooks then leaves this file alone) -->\n"


def edited_by_user(current: str) -> bool:
    """True unless ``current`` is exactly what some cc-hooks install wrote."""
    match = _MARKER.search(current)
    if match is None:
        return True
    body = current[: match.start()]
    return hashlib.sha256(body.encode("utf-8")).hexdigest() != match.group(1)


def _read(path: Path) -> Optional[str]:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except UnicodeDecodeError:
        return ""  # not ours to judge: treated as edited


def install_agents(project_root: Path, scope: str, *, dry_run: bool = False, force: bool = False) -> list[str]:
    """Install (or update) the skills and subagents; one line per file saying what happened.

    Idempotent: a second run reports every file unchanged. A file the user edited is kept,
    and the line says so, unless ``force``. In the project (project and local scope) a file is
    written through no symlink at any level (``fsutil.write_repo_bytes``; RefusedFile otherwise).
    """
    from cc_hooks.fsutil import atomic_write_text, write_repo_text

    root = _repo_root(project_root, scope)
    outcomes = []
    for path, text in planned_files(project_root, scope):
        wanted = stamped(text)
        current = _read(path)
        if current == wanted:
            outcomes.append(f"{path}: unchanged")
            continue
        if current is not None and edited_by_user(current) and not force:
            outcomes.append(f"{path}: kept, edited since cc-hooks wrote it (not overwritten; force replaces it)")
            continue
        verb = "written" if current is None else ("replaced (it had been edited)" if edited_by_user(current) else "updated")
        if dry_run:
            outcomes.append(f"{path}: dry run, would be {verb}")
            continue
        if root is not None:
            write_repo_text(root, path, wanted)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(path, wanted)
        outcomes.append(f"{path}: {verb}")
    return outcomes


def uninstall_agents(project_root: Path, scope: str, *, dry_run: bool = False) -> list[str]:
    """Remove the files cc-hooks installed and nobody edited; one line per file found (in the
    project: reached through no symlink, ``fsutil.remove_repo_file``)."""
    from cc_hooks.fsutil import remove_repo_file

    root = _repo_root(project_root, scope)
    outcomes = []
    for path, _ in planned_files(project_root, scope):
        current = _read(path)
        if current is None:
            continue
        if edited_by_user(current):
            outcomes.append(f"{path}: kept, edited since cc-hooks wrote it")
            continue
        if dry_run:
            outcomes.append(f"{path}: dry run, would be removed")
            continue
        if root is not None:
            remove_repo_file(root, path)
        else:
            path.unlink()
        if path.name == "SKILL.md":
            try:
                path.parent.rmdir()  # only when empty
            except OSError:
                pass
        outcomes.append(f"{path}: removed")
    return outcomes
