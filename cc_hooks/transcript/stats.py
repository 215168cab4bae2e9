"""Figures for the ``transcripts stats`` verb: what the transcript store holds and what it could shed."""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Iterable, Optional

from cc_hooks.transcript.lines import CATEGORIES, plan_file
from cc_hooks.transcript.store import DEFAULT_MIN_IDLE, liveness


@dataclass
class SessionStats:
    path: str
    project: str
    size: int
    compactions: int
    before_boundary: int  # bytes before the last compact boundary
    needed_before_boundary: int  # of those, what a resume still needs (preserved, metadata, unknown)
    archivable: int  # bytes an archive would move out
    categories: dict
    types: dict  # line type -> {"lines", "bytes", "archivable"}
    age_seconds: float
    live: Optional[str]  # why it looks live, or None

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass
class Totals:
    sessions: int = 0
    live: int = 0
    size: int = 0
    compactions: int = 0
    before_boundary: int = 0
    needed_before_boundary: int = 0
    archivable: int = 0
    categories: dict = field(default_factory=lambda: dict.fromkeys(CATEGORIES, 0))
    types: dict = field(default_factory=dict)

    def add(self, item: SessionStats) -> None:
        self.sessions += 1
        self.live += item.live is not None
        for name in ("size", "compactions", "before_boundary", "needed_before_boundary", "archivable"):
            setattr(self, name, getattr(self, name) + getattr(item, name))
        for name, value in item.categories.items():
            self.categories[name] = self.categories.get(name, 0) + value
        for name, figures in item.types.items():
            entry = self.types.setdefault(name, dict.fromkeys(figures, 0))
            for key, value in figures.items():
                entry[key] = entry.get(key, 0) + value


def session_stats(path: Path, min_idle: float = DEFAULT_MIN_IDLE, opened: Optional[Iterable[str]] = None,
                  now: Optional[float] = None) -> SessionStats:
    now = time.time() if now is None else now
    stat = path.stat()
    plan, _ = plan_file(str(path), stat.st_size)
    return SessionStats(
        path=str(path),
        project=path.parent.name,
        size=stat.st_size,
        compactions=plan.compactions,
        before_boundary=plan.before_boundary,
        needed_before_boundary=plan.kept_before_boundary,
        archivable=plan.saved,
        categories=plan.categories,
        types=plan.types,
        age_seconds=max(now - stat.st_mtime, 0.0),
        live=liveness(path, min_idle, opened, now),
    )


def by_project(items: Iterable[SessionStats]) -> dict[str, Totals]:
    projects: dict[str, Totals] = {}
    for item in items:
        projects.setdefault(item.project, Totals()).add(item)
    return projects


def human_bytes(value: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if abs(value) < 1024 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} GB"


def human_age(seconds: float) -> str:
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{seconds / size:.0f} {unit}"
    return f"{seconds:.0f} s"


