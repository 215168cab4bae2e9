"""The dashboard: where it is declared and what a backend must do.

Declaration (methodology §6.2): a ``Dashboard: <backend> <locator>`` line in
CLAUDE.md; else a tracked echo of it in any tracked file; else
``file next_steps.md``. A declaration that lives only in an untracked or
ignored CLAUDE.md is reported (a fresh clone loses it: the gitignore trap).

Backends: one module per backend in ``cc_hooks.record.backends``, named after
the backend, defining ``Backend(root, locator)`` with the four operations of
the contract (read, queue, update, close); the registry is the package itself
(``available_backends``), so a new backend is one new module. Tracker backends
(``github``, ``jira``) share ``backends._tracker`` and ``backends._http``.
Nothing here knows a backend's format; the shapes they exchange are defined in
``dashboard_read`` and available from here.
"""

from __future__ import annotations

import importlib
import os
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Optional, Protocol, Sequence, Union

if TYPE_CHECKING:  # pragma: no cover
    from cc_hooks.config import Config
    from cc_hooks.record.dashboard_read import DashboardRead, QueueItem, StateBlock
    from cc_hooks.record.findings import Finding

DEFAULT_BACKEND = "file"
CLAUDE_MD_PATHS = ("CLAUDE.md", ".claude/CLAUDE.md")
_DECLARATION_RE = re.compile(r"^\s*Dashboard:[ \t]*(.*)$")
_BACKEND_NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")


# What backends exchange lives in cc_hooks.record.dashboard_read, imported when first used (a
# remembered dashboard never is): ``from cc_hooks.record.dashboard import Claim`` works. What makes a
# claim checkable is found by cc_hooks.claims.addresses, the one address extractor.
_READ_NAMES = frozenset("Claim StateBlock QueueItem DashboardRead".split())


def __getattr__(name: str):
    if name in _READ_NAMES:
        from cc_hooks.record import dashboard_read

        return getattr(dashboard_read, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class DashboardError(Exception):
    """A dashboard operation cannot be done; the message says why."""


class Backend(Protocol):
    """The contract every dashboard backend implements (methodology §6.1)."""

    name: str
    locator: str

    def read(self) -> DashboardRead:
        """Current state and queue. Never raises for a malformed dashboard: findings say what is wrong."""

    def queue(self, text: str, date: Optional[str] = None) -> QueueItem:
        """Record a pending item."""

    def update(self, resume_point: str, claims: Sequence[str], date: Optional[str] = None) -> StateBlock:
        """Rewrite the current state with a fresh date."""

    def close(self, item: Union[int, str], date: Optional[str] = None, commits: Sequence[str] = ()) -> QueueItem:
        """Mark an item done (by line number, tracker key, or a unique piece of its text), naming the
        commit(s) that landed it."""


# --- registry ------------------------------------------------------------------


def available_backends() -> list[str]:
    import pkgutil

    import cc_hooks.record.backends as package

    return sorted(m.name for m in pkgutil.iter_modules(package.__path__) if not m.name.startswith("_"))


def get_backend(name: str, root: str | os.PathLike, locator: str) -> Backend:
    """The backend module ``cc_hooks.record.backends.<name>``'s ``Backend(root, locator)``."""
    known = name == DEFAULT_BACKEND or (_BACKEND_NAME_RE.match(name) and name in available_backends())  # the default always is
    if not known:
        raise DashboardError(f"unknown dashboard backend {name!r} (available: {', '.join(available_backends())})")
    module = importlib.import_module(f"cc_hooks.record.backends.{name}")
    return module.Backend(Path(root), locator)


# --- declaration ------------------------------------------------------------------


@dataclass(frozen=True)
class Declaration:
    backend: str
    locator: str
    source: str  # "CLAUDE.md", "tracked-echo" or "default"
    file: Optional[str] = None  # where the line is, relative to the repo root
    line: Optional[int] = None


def parse_declaration(line: str) -> Optional[tuple[str, str]]:
    """(backend, locator) from a ``Dashboard:`` line; None when it is not one or is empty."""
    match = _DECLARATION_RE.match(line)
    if not match:
        return None
    value = re.sub(r"<!--.*?(-->|$)", "", match.group(1))
    value = re.sub(r"(^|\s)#\s.*$", "", value).strip().strip("`").strip()
    parts = value.split(None, 1)
    if not parts:
        return None
    backend = parts[0].lower()
    locator = parts[1].strip() if len(parts) > 1 else ""
    return backend, locator


def find_declaration(root: str | os.PathLike, config: Optional["Config"] = None) -> tuple[Declaration, list["Finding"]]:
    """Where the dashboard is, and any problem with how that is recorded."""
    from cc_hooks.record.findings import finding

    root = Path(root)
    default_path = config.record.default_dashboard if config is not None else "next_steps.md"
    findings = []
    primary = _claude_md_declaration(root)
    echoes = _tracked_echoes(root)
    chosen = primary or (echoes[0] if echoes else None)
    if chosen is None:
        declaration = Declaration(DEFAULT_BACKEND, default_path, "default")
        findings.append(finding("CLAUDE.md", None, "dashboard-undeclared", f"no `Dashboard:` line; using the default `file {default_path}`", severity="info"))
        return declaration, findings
    if primary is not None and not echoes:
        findings.extend(_untracked_home_findings(root, primary))
    for echo in echoes:
        if (echo.backend, echo.locator) != (chosen.backend, chosen.locator):
            findings.append(
                finding(echo.file or "", echo.line, "dashboard-declaration-mismatch",
                        f"says `{echo.backend} {echo.locator}` but {chosen.file}:{chosen.line} says `{chosen.backend} {chosen.locator}`",
                        severity="warning")
            )
    chosen = _completed(chosen, default_path)
    if not chosen.locator:
        findings.append(finding(chosen.file or "", chosen.line, "dashboard-declaration-malformed", f"backend `{chosen.backend}` needs a locator"))
    return chosen, findings


def locate_dashboard(root: str | os.PathLike, config: Optional["Config"] = None) -> Declaration:
    """The declaration ``find_declaration`` chooses, without judging how it is recorded.

    Tracked echoes only decide when CLAUDE.md declares nothing, so only then
    are they searched for (one ``git grep`` over the work tree).
    """
    root = Path(root)
    default_path = config.record.default_dashboard if config is not None else "next_steps.md"
    chosen = _claude_md_declaration(root)
    if chosen is None:
        echoes = _tracked_echoes(root)
        chosen = echoes[0] if echoes else None
    if chosen is None:
        return Declaration(DEFAULT_BACKEND, default_path, "default")
    return _completed(chosen, default_path)


def _completed(chosen: Declaration, default_path: str) -> Declaration:
    """``Dashboard: file`` with no path means the default file."""
    if chosen.backend == DEFAULT_BACKEND and not chosen.locator:
        return Declaration(chosen.backend, default_path, chosen.source, chosen.file, chosen.line)
    return chosen


def _claude_md_declaration(root: Path) -> Optional[Declaration]:
    from cc_hooks.fsutil import read_repo_text

    for rel in CLAUDE_MD_PATHS:
        try:
            text = read_repo_text(root / rel, root)
        except OSError:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            parsed = parse_declaration(line)
            if parsed:
                return Declaration(parsed[0], parsed[1], "CLAUDE.md", rel, number)
    return None


def _tracked_echoes(root: Path) -> list[Declaration]:
    """Every ``Dashboard:`` line in a tracked file other than CLAUDE.md (one ``git grep``)."""
    from cc_hooks.git import GitError, run_git

    try:
        out = run_git(root, "grep", "-n", "-z", "-I", "-E", "^[[:space:]]*Dashboard:", check=False)
    except GitError:
        return []
    echoes = []
    for record in out.splitlines():
        parts = record.split("\0", 2)
        if len(parts) != 3 or parts[0] in CLAUDE_MD_PATHS or not parts[1].isdigit():
            continue
        parsed = parse_declaration(parts[2])
        if parsed:
            echoes.append(Declaration(parsed[0], parsed[1], "tracked-echo", parts[0], int(parts[1])))
    return echoes


def _untracked_home_findings(root: Path, primary: Declaration) -> list["Finding"]:
    from cc_hooks.git import GitError, ignored, run_git
    from cc_hooks.record.findings import finding

    rel = primary.file or "CLAUDE.md"
    try:
        tracked = bool(run_git(root, "ls-files", "-z", "--", rel).strip("\0"))
        is_ignored = not tracked and rel in ignored(root, [rel])
    except GitError:
        return []
    line = f"Dashboard: {primary.backend} {primary.locator}".rstrip()
    if is_ignored:
        return [finding(rel, primary.line, "dashboard-gitignore-trap",
                        f"{rel} is gitignored and no tracked file echoes `{line}`: a fresh clone loses the declaration; add the line to a tracked file (e.g. README.md)")]
    if not tracked:
        return [finding(rel, primary.line, "dashboard-declaration-untracked",
                        f"{rel} is not tracked and no tracked file echoes `{line}`; commit it or echo the line in a tracked file",
                        severity="warning")]
    return []


def open_dashboard(root: str | os.PathLike, config: Optional["Config"] = None) -> tuple[Backend, Declaration, list["Finding"]]:
    """The declared backend, the declaration, and the declaration's findings."""
    declaration, findings = find_declaration(root, config)
    return get_backend(declaration.backend, root, declaration.locator), declaration, findings


def safe_relative_path(locator: str) -> str:
    """A repo-relative path; DashboardError if it is absolute or escapes the repo."""
    if not locator or locator.startswith(("/", "~", "\\")) or re.match(r"^[A-Za-z]:[\\/]", locator):
        raise DashboardError(f"dashboard path {locator!r} must be relative to the repository root")
    normalized = posixpath.normpath(locator.replace("\\", "/"))
    if normalized == ".." or normalized.startswith("../") or normalized == ".":
        raise DashboardError(f"dashboard path {locator!r} escapes the repository")
    return normalized
