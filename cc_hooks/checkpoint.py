"""PreCompact checkpoints and the few other state files the checklist reads.

Layout (under the state directory, see ``cc_hooks.state``):
``checkpoints/<session>/<prompt_id or stamp>.json``  what PreCompact found;
``blocks/<session>.json``                           when block-manual last blocked;
``audits/*.json``                                   cold-start audit results (``cc-hooks audit``).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Optional

from cc_hooks.state import read_json, stamp, state_key, write_json

OVERRIDE_SECONDS = 60.0


def write_checkpoint(directory: Path, session_id: str, prompt_id: Optional[str], data: dict) -> Path:
    key = state_key(prompt_id) if prompt_id else stamp()
    path = directory / "checkpoints" / state_key(session_id) / f"{key}.json"
    write_json(path, {"created": time.time(), **data})
    return path


def _newest_json(folder: Path, compacted_only: bool = False) -> Optional[dict]:
    best: tuple[float, Optional[dict]] = (-1.0, None)
    try:
        paths = list(folder.glob("*.json"))
    except OSError:
        return None
    for path in paths:
        data = _read_compacted(path) if compacted_only else read_json(path)
        if not isinstance(data, dict) or (compacted_only and not data.get("compacted")):
            continue
        created = data.get("created")
        when = float(created) if isinstance(created, (int, float)) else path.lstat().st_mtime
        if when > best[0]:
            best = (when, {**data, "_path": str(path)})
    return best[1]


def _read_compacted(path: Path) -> Optional[object]:
    """``read_json``, skipping the parse of a checkpoint whose bytes lack a ``"compacted"`` key: a
    session's uncompacted checkpoints (blocked or abandoned compactions, every benchmark run) add up."""
    from cc_hooks.fsutil import read_state_bytes

    try:
        raw = read_state_bytes(path)  # a planted symlink (to /dev/zero, to a file outside) is not followed
    except OSError:
        return None
    if b'"compacted"' not in raw:
        return None
    try:
        return json.loads(raw.decode("utf-8"))
    except ValueError:
        return None


def latest_checkpoint(directory: Optional[Path], session_id: Optional[str] = None, compacted_only: bool = False) -> Optional[dict]:
    """The newest checkpoint of ``session_id`` (of any session when None).

    ``compacted_only``: only checkpoints PostCompact confirmed (a PreCompact that
    was blocked, or that Claude Code bailed out of, is not a compaction)."""
    if directory is None:
        return None
    root = directory / "checkpoints"
    if session_id:
        return _newest_json(root / state_key(session_id), compacted_only)
    newest = None
    try:
        folders = [p for p in root.iterdir() if p.is_dir()]
    except OSError:
        return None
    for folder in folders:
        candidate = _newest_json(folder, compacted_only)
        if candidate and (newest is None or candidate.get("created", 0) > newest.get("created", 0)):
            newest = candidate
    return newest


def checkpoint_for(directory: Optional[Path], session_id: str, prompt_id: Optional[str]) -> Optional[dict]:
    """The checkpoint PreCompact wrote for this compaction: the one keyed by its ``prompt_id``
    (PreCompact can fire with no compaction after it), else the session's newest."""
    if directory is None:
        return None
    if prompt_id:
        path = directory / "checkpoints" / state_key(session_id) / f"{state_key(prompt_id)}.json"
        data = read_json(path)
        if isinstance(data, dict):
            return {**data, "_path": str(path)}
    return latest_checkpoint(directory, session_id)


def mark_compacted(checkpoint: dict) -> None:
    """Record that the compaction this checkpoint was written for happened."""
    path = checkpoint.get("_path")
    if path:
        data = {k: v for k, v in checkpoint.items() if k != "_path"}
        write_json(Path(path), {**data, "compacted": time.time()})


def record_block(directory: Path, session_id: str) -> None:
    write_json(directory / "blocks" / f"{state_key(session_id)}.json", {"session_id": session_id, "blocked_at": time.time()})


def blocked_recently(directory: Optional[Path], session_id: str, window: float = OVERRIDE_SECONDS) -> bool:
    """True when a compaction of this session was blocked less than ``window`` seconds ago."""
    if directory is None:
        return False
    data = read_json(directory / "blocks" / f"{state_key(session_id)}.json")
    if not isinstance(data, dict) or not isinstance(data.get("blocked_at"), (int, float)):
        return False
    return 0 <= time.time() - data["blocked_at"] <= window


def clear_block(directory: Optional[Path], session_id: str) -> None:
    if directory is None:
        return
    try:
        (directory / "blocks" / f"{state_key(session_id)}.json").unlink()
    except OSError:
        pass


def latest_audit(directory: Optional[Path]) -> Optional[dict]:
    """The newest cold-start audit result (written by ``cc-hooks audit``), if any."""
    if directory is None:
        return None
    return _newest_json(directory / "audits")


def dumps(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1, default=str)
