"""Facts derived from file contents, remembered across hook runs.

The ledgers only grow, so most of what a hook derives from them (parsed
entries, validation findings, the paths they name, the guards they cite) is
the same as the last time. ``remember`` keys such a fact by what it was derived
from (the bytes, plus the code that derived it) and keeps it as JSON in
``<state dir>/cache/``: an unchanged SYMPTOMS.md then costs a read and a hash,
not a parse. Anything wrong with the cache (missing, corrupt, read-only, full)
only costs the recomputation; it never changes an answer.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Callable, Iterable, Optional, Union

FOLDER = "cache"
KEEP_PER_KIND = 8  # the ledgers change at every compaction: old keys are dead weight
Part = Union[bytes, str]

_code: Optional[bytes] = None


def remember(state: Optional[Path], kind: str, parts: Iterable[Part], compute: Callable[[], Any]) -> Any:
    """``compute()``, or what it returned the last time for the same ``parts`` and code.

    The value must be JSON data; it comes back as JSON decodes it (lists, not tuples).
    """
    path = cache_path(state, kind, parts) if state is not None else None
    if path is not None:
        from cc_hooks.fsutil import read_state_bytes

        try:
            return json.loads(read_state_bytes(path))["value"]
        except (OSError, ValueError, KeyError, TypeError):
            pass
    value = compute()
    if path is not None and state.is_dir():
        _store(path, kind, value)
    return value


def cache_path(state: Path, kind: str, parts: Iterable[Part]) -> Path:
    digest = hashlib.sha256(code_fingerprint())
    digest.update(kind.encode())
    for part in parts:
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "big"))  # ("ab", "c") and ("a", "bc") differ
        digest.update(data)
    return state / FOLDER / f"{kind}-{digest.hexdigest()[:40]}.json"


def code_fingerprint() -> bytes:
    """Which code derived a fact: the version, and the size and mtime of every module of
    the package (an editable install changes code without changing the version)."""
    global _code
    if _code is None:
        from cc_hooks import __version__

        package = os.path.dirname(os.path.abspath(__file__))
        stamps = [__version__]
        for folder, dirs, files in os.walk(package):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                if name.endswith(".py"):
                    info = os.stat(os.path.join(folder, name))
                    stamps.append(f"{os.path.relpath(folder, package)}/{name}:{info.st_size}:{info.st_mtime_ns}")
        _code = "\n".join(stamps).encode()
    return _code


def _store(path: Path, kind: str, value: Any) -> None:
    from cc_hooks.fsutil import write_state_bytes
    from cc_hooks.state import private_dirs, state_root_of

    try:
        data = json.dumps({"value": value}, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        root = state_root_of(path)
        if root is None:
            private_dirs(path.parent)
        write_state_bytes(root or path.parent, path, data, check_root=root is not None)
        _prune(path.parent, kind, keep=path)
    except (OSError, TypeError, ValueError):
        pass  # a read-only or full state dir, or a value JSON cannot hold, only costs the cache


def _prune(folder: Path, kind: str, keep: Path) -> None:
    """Keep the newest ``KEEP_PER_KIND`` entries of ``kind``."""
    entries = []
    for entry in os.scandir(folder):
        if entry.name.startswith(f"{kind}-") and entry.name.endswith(".json") and entry.name[len(kind) + 1:].count("-") == 0:
            try:
                entries.append((entry.stat().st_mtime_ns, entry.path))
            except OSError:
                continue
    entries.sort(reverse=True)
    for _, stale in entries[KEEP_PER_KIND:]:
        if stale != str(keep):
            try:
                os.unlink(stale)
            except OSError:
                pass
