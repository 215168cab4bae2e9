"""Where Codex keeps its rollouts (``$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<session>.jsonl``)
and the figures ``transcripts stats`` shows for them.

A rollout names no project in its path: the session's directory is the ``cwd`` of its first record
(``session_meta``). ``transcripts archive`` does not touch rollouts: what a ``codex resume`` still
needs from before the newest ``compacted`` record has not been proven (Claude Code only).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Iterable, Optional

from cc_hooks.harness.codex_rollout import COMPACTED_NEEDLE

ARCHIVE_REFUSAL = ("archive, restore and verify are Claude Code only: that a Codex resume is unchanged by "
                   "archiving a rollout has not been proven (transcripts stats works on rollouts)")


def sessions_root() -> Path:
    from cc_hooks.harness.codex import codex_home

    return codex_home() / "sessions"


def rollout_files(root: Optional[Path] = None) -> list[Path]:
    root = root or sessions_root()
    try:
        return sorted(p for p in root.glob("*/*/*/rollout-*.jsonl") if p.is_file())
    except OSError:
        return []


def rollout_cwd(path: Path) -> Optional[str]:
    """The session's directory, from the rollout's first record (``session_meta``)."""
    try:
        with open(path, "rb") as handle:
            first = handle.readline(1 << 20)
        record = json.loads(first.decode("utf-8", "replace"))
    except (OSError, ValueError):
        return None
    payload = record.get("payload") if isinstance(record, dict) else None
    cwd = payload.get("cwd") if isinstance(payload, dict) else None
    return cwd if isinstance(cwd, str) else None


def project_rollouts(project: str, root: Optional[Path] = None) -> list[Path]:
    wanted = {str(Path(project).absolute()), str(Path(project).resolve())}
    return [p for p in rollout_files(root) if rollout_cwd(p) in wanted]


def compaction_offsets(path: Path) -> list[int]:
    """Where each ``compacted`` record starts (a byte search, then a parse of the candidate lines)."""
    from cc_hooks.transcript.reader import parse_line
    from cc_hooks.harness.codex_rollout import is_compacted

    offsets, offset = [], 0
    with open(path, "rb") as handle:
        for line in handle:
            if COMPACTED_NEEDLE in line:
                record = parse_line(line)
                if record is not None and is_compacted(record):
                    offsets.append(offset)
            offset += len(line)
    return offsets


def rollout_stats(path: Path, min_idle: float, opened: Optional[Iterable[str]] = None, now: Optional[float] = None):
    from cc_hooks.transcript.lines import CATEGORIES
    from cc_hooks.transcript.stats import SessionStats
    from cc_hooks.transcript.store import liveness

    now = time.time() if now is None else now
    stat = path.stat()
    offsets = compaction_offsets(path)
    before = offsets[-1] if offsets else 0
    return SessionStats(
        path=str(path), project=rollout_cwd(path) or path.parent.as_posix(), size=stat.st_size,
        compactions=len(offsets), before_boundary=before,
        needed_before_boundary=before,  # unproven what a resume skips: all of it counts as needed
        archivable=0, categories=dict.fromkeys(CATEGORIES, 0), types={}, age_seconds=max(now - stat.st_mtime, 0.0),
        live=liveness(path, min_idle, opened, now),
    )


def is_rollout(path) -> bool:
    return os.path.basename(os.fspath(path)).startswith("rollout-")
