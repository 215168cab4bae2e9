"""What reading a dashboard gives: the claims with their addresses, the state block, the queue.

The shapes every backend exchanges (``cc_hooks.record.dashboard`` re-exports
them). A module of their own, because defining them costs milliseconds that a
hook whose dashboard facts are remembered (``cc_hooks.claims.rehydration``)
does not spend.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:  # pragma: no cover
    from cc_hooks.record.findings import Finding


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
