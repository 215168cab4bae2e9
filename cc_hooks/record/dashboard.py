"""The dashboard: where it is declared, what a backend must do, and the claim addresses.

Declaration (methodology §6.2): a ``Dashboard: <backend> <locator>`` line in
CLAUDE.md; else a tracked echo of it in any tracked file; else
``file next_steps.md``. A declaration that lives only in an untracked or
ignored CLAUDE.md is reported (a fresh clone loses it: the gitignore trap).

Backends: one module per backend in ``cc_hooks.record.backends``, named after
the backend, defining ``Backend(root, locator)`` with the four operations of
the contract (read, queue, update, close). Nothing here knows a backend's
format; the shapes they exchange are defined here.
"""

from __future__ import annotations

import importlib
import os
import posixpath
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Optional, Protocol, Sequence, Union

if TYPE_CHECKING:  # pragma: no cover
    from cc_hooks.config import Config
    from cc_hooks.record.findings import Finding

DEFAULT_BACKEND = "file"
CLAUDE_MD_PATHS = ("CLAUDE.md", ".claude/CLAUDE.md")
_DECLARATION_RE = re.compile(r"^\s*Dashboard:[ \t]*(.*)$")
_BACKEND_NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")


class DashboardError(Exception):
    """A dashboard operation cannot be done; the message says why."""


# --- claim addresses ----------------------------------------------------------

# A sha: 7-40 lowercase hex, with at least one digit and one letter (so neither
# "1234567" nor "defaced" is one), not glued to a word, path or version.
_SHA_RE = re.compile(r"(?<![\w./#-])[0-9a-f]{7,40}(?![\w/-])")
_HEX_LETTER_RE = re.compile(r"[a-f]")
_DIGIT_RE = re.compile(r"[0-9]")
_PATH_RE = re.compile(r"^(?!-)([\w.@+~-]+(?:/[\w.@+~-]+)*/?)(?::(\d+)(?:-(\d+))?)?$")
_EXTENSION_RE = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,7}$")
_ISSUE_RE = re.compile(r"#\d+")
_KEY_RE = re.compile(r"[A-Z][A-Z0-9_]{1,9}-\d+")
_KEY_STOPLIST = {"UTF", "ISO", "SHA", "MD", "RFC", "CVE", "PEP", "ECMA", "COVID", "GPT", "HTTP", "TLS"}
_ADDRESS_RE = re.compile(
    r"(?P<keyword>(?i:\b(?:branch(?:es)?|on|into|from))\s+)?`(?P<tick>[^`\s]+)`"
    r"|(?<![\w./#-])(?P<sha>[0-9a-f]{7,40})(?![\w/-])"
    r"|(?<![\w&/#])(?P<issue>#\d+)\b"
    r"|(?<![\w-])(?P<key>[A-Z][A-Z0-9_]{1,9}-\d+)\b"
    r"|\(probe:\s*(?P<probe>[\w.-]+)\s*\)"
)


@dataclass(frozen=True)
class PathRef:
    path: str
    line: Optional[int] = None
    end_line: Optional[int] = None


@dataclass(frozen=True)
class Addresses:
    """What makes a claim checkable."""

    shas: tuple[str, ...] = ()
    branches: tuple[str, ...] = ()
    paths: tuple[PathRef, ...] = ()
    refs: tuple[str, ...] = ()  # "#123", "PROJ-12"
    probes: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.shas or self.branches or self.paths or self.refs or self.probes)


def extract_addresses(text: str) -> Addresses:
    """Shas, branches, paths, issue refs and probes named in one claim.

    Precedence inside backticks: a name after "branch"/"on"/"into"/"from" is a
    branch; else a sha-looking token is a sha; else a token with a ``/`` or a
    file extension is a path (``path:line`` and ``path:a-b`` keep the lines).
    One regex pass over the text.
    """
    shas, branches, ticks, refs, probes = [], [], [], [], []
    for match in _ADDRESS_RE.finditer(text):
        kind = match.lastgroup
        value = match.group(kind)
        if kind == "tick":
            if _is_sha(value):
                shas.append(value)
            elif match.group("keyword"):
                branches.append(value)
            elif _ISSUE_RE.fullmatch(value) or _KEY_RE.fullmatch(value):
                refs.append(value)
            else:
                ticks.append(value)
        elif kind == "sha":
            if _is_sha(value):
                shas.append(value)
        elif kind == "issue":
            refs.append(value)
        elif kind == "key":
            if value.split("-")[0] not in _KEY_STOPLIST:
                refs.append(value)
        else:
            probes.append(value)
    paths: list[PathRef] = []
    for token in ticks:
        ref = None if token in branches or "://" in token else _path_ref(token)
        if ref and ref not in paths:
            paths.append(ref)
    return Addresses(_unique(shas), _unique(branches), tuple(paths), _unique(refs), _unique(probes))


def _is_sha(token: str) -> bool:
    """7-40 lowercase hex with at least one digit and one letter."""
    return bool(_SHA_RE.fullmatch(token) and _DIGIT_RE.search(token) and _HEX_LETTER_RE.search(token))


def _path_ref(token: str) -> Optional[PathRef]:
    match = _PATH_RE.match(token)
    if not match:
        return None
    path = match.group(1)
    if "/" not in path and not _EXTENSION_RE.search(path):
        return None
    if _is_sha(path):
        return None
    line = int(match.group(2)) if match.group(2) else None
    end = int(match.group(3)) if match.group(3) else None
    return PathRef(path, line, end)


def _unique(items) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items)) if items else ()


# --- what backends exchange ------------------------------------------------------


@dataclass
class Claim:
    line: int  # 1-based line in the dashboard (0 when the backend has no lines)
    text: str
    kind: str  # "resume" (the resume point) or "bullet"
    addresses: Addresses = field(default_factory=Addresses)


@dataclass
class StateBlock:
    line: int  # the heading's line
    end_line: int  # last line of the block
    date: Optional[str]  # ISO YYYY-MM-DD, None when undated or invalid
    date_text: str  # what the heading says after "CURRENT STATE"
    resume_point: Optional[Claim]
    claims: list[Claim]  # every claim, the resume point first when present


@dataclass
class QueueItem:
    line: int
    date: Optional[str]
    text: str
    done: bool
    addresses: Addresses = field(default_factory=Addresses)


@dataclass
class DashboardRead:
    backend: str
    locator: str
    exists: bool
    state: Optional[StateBlock] = None
    queued: list[QueueItem] = field(default_factory=list)
    findings: list["Finding"] = field(default_factory=list)

    @property
    def open_items(self) -> list[QueueItem]:
        return [item for item in self.queued if not item.done]

    def to_dict(self) -> dict:
        data = asdict(self)
        data["findings"] = [f.model_dump() for f in self.findings]
        return data


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

    def close(self, item: Union[int, str], date: Optional[str] = None) -> QueueItem:
        """Mark an item done (by line number or a unique piece of its text)."""


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
    for rel in CLAUDE_MD_PATHS:
        try:
            text = (root / rel).read_text(encoding="utf-8", errors="replace")
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
