"""Where Claude Code keeps transcripts, and whether one is still in use.

``<config>/projects/<escaped cwd>/<session>.jsonl`` with ``<config>`` = ``$CLAUDE_CONFIG_DIR`` or
``~/.claude``; ``<escaped cwd>`` = the real path of the session's start directory with every
non-alphanumeric character replaced by ``-``, cut to 200 characters plus ``-<base36 hash>`` when
longer (CLI 2.1.197 ``$E``/``jCe``). The cwd recorded inside the transcript is the ground truth.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Iterable, Optional

MAX_FOLDER = 200
DEFAULT_MIN_IDLE = 30 * 60  # seconds without a write before a session counts as not live
_NON_ALNUM = re.compile(r"[^a-zA-Z0-9]")
_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def projects_root() -> Path:
    config = os.environ.get("CLAUDE_CONFIG_DIR")
    return (Path(config).expanduser() if config else Path.home() / ".claude") / "projects"


def java_hash(text: str) -> int:
    """JavaScript ``(h << 5) - h + charCodeAt(i) | 0`` over UTF-16 code units."""
    units = text.encode("utf-16-le")
    value = 0
    for i in range(0, len(units), 2):
        value = (value * 31 + int.from_bytes(units[i:i + 2], "little")) & 0xFFFFFFFF
    return value - (1 << 32) if value >= 1 << 31 else value


def _base36(number: int) -> str:
    digits = ""
    while True:
        number, rest = divmod(number, 36)
        digits = _BASE36[rest] + digits
        if not number:
            return digits


def escape_project(cwd: str) -> str:
    escaped = _NON_ALNUM.sub("-", cwd)
    if len(escaped) <= MAX_FOLDER:
        return escaped
    return f"{escaped[:MAX_FOLDER]}-{_base36(abs(java_hash(cwd)))}"


def session_files(folder: Path) -> list[Path]:
    """Main-session transcripts of a project folder (subagent files live in subfolders)."""
    try:
        return sorted(p for p in folder.iterdir() if p.suffix == ".jsonl" and p.is_file())
    except OSError:
        return []


def recorded_cwd(path: Path, limit: int = 1 << 20) -> Optional[str]:
    """The ``cwd`` of the first record that has one, within the first ``limit`` bytes."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(limit)
    except OSError:
        return None
    for raw in head.split(b"\n"):
        if b'"cwd"' not in raw:
            continue
        try:
            record = json.loads(raw.decode("utf-8", "replace"))
        except ValueError:
            continue
        if isinstance(record, dict) and isinstance(record.get("cwd"), str):
            return record["cwd"]
    return None


def project_folders(directory: str | os.PathLike, root: Optional[Path] = None) -> list[Path]:
    """The project folders holding sessions started in ``directory``, checked against recorded cwds."""
    root = root or projects_root()
    real = os.path.realpath(directory)
    candidates = {os.path.abspath(directory), real}
    names = {escape_project(c) for c in candidates}
    prefixes = {n[:MAX_FOLDER] + "-" for n in names if len(n) > MAX_FOLDER}
    found = []
    try:
        entries = sorted(p for p in root.iterdir() if p.is_dir())
    except OSError:
        return []
    for folder in entries:
        if folder.name not in names and not any(folder.name.startswith(p) for p in prefixes):
            continue
        cwds = {recorded_cwd(f) for f in session_files(folder)} - {None}
        # A folder whose transcripts record another cwd is a name collision (/a-b vs /a/b).
        if not cwds or cwds & candidates or any(c.startswith(real + os.sep) for c in cwds):
            found.append(folder)
    return found


def all_project_folders(root: Optional[Path] = None) -> list[Path]:
    root = root or projects_root()
    try:
        return sorted(p for p in root.iterdir() if p.is_dir())
    except OSError:
        return []


def open_paths() -> set[str]:
    """Real paths of files some readable process holds open (Linux /proc; empty elsewhere)."""
    found: set[str] = set()
    try:
        pids = [p for p in os.listdir("/proc") if p.isdigit()]
    except OSError:
        return found
    for pid in pids:
        fd_dir = f"/proc/{pid}/fd"
        try:
            fds = os.listdir(fd_dir)
        except OSError:
            continue
        for fd in fds:
            try:
                found.add(os.readlink(f"{fd_dir}/{fd}"))
            except OSError:
                continue
    return found


def liveness(path: Path, min_idle: float = DEFAULT_MIN_IDLE, opened: Optional[Iterable[str]] = None,
             now: Optional[float] = None) -> Optional[str]:
    """Why ``path`` looks live (written recently, or open in a process), or None when it is idle."""
    now = time.time() if now is None else now
    try:
        age = now - path.stat().st_mtime
    except OSError as exc:
        return f"cannot stat: {exc.strerror}"
    if age < min_idle:
        return f"modified {age / 60:.0f} min ago (threshold {min_idle / 60:g} min)"
    opened = open_paths() if opened is None else opened
    if os.path.realpath(path) in set(opened):
        return "open in a running process"
    return None
