"""Atomic file writes: temp file in the same directory, fsync, rename.

A reader never sees a half-written file, and a crash leaves either the old or
the new content (and a temporary file, which the next write of the same file
removes). Writing through a symlink replaces its target and keeps the
link; the replaced file's permission bits are kept.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def atomic_write_bytes(path: str | os.PathLike, data: bytes, mode: int | None = None) -> None:
    target = Path(os.path.realpath(path))
    if mode is None:
        try:
            mode = target.stat().st_mode & 0o7777
        except FileNotFoundError:
            mode = None
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    _fsync_dir(target.parent)
    _remove_stale_temps(target)


def _remove_stale_temps(target: Path) -> None:
    """Delete the temporary files that writers which are gone left in ``target``'s directory (a
    SIGKILL between the temp file and the rename, or a hook process that exited while its
    abandoned handler was writing; in a work tree ``git add -A`` would commit them). Only our
    own names are touched: ``.<name>.<pid>.<8 random characters>.tmp``."""
    try:
        entries = os.listdir(target.parent)
    except OSError:
        return
    for name in entries:
        if not (name.startswith(".") and name.endswith(".tmp")):
            continue
        parts = name.rsplit(".", 3)  # ['.<name>', pid, random, 'tmp']
        if len(parts) != 4 or not parts[1].isdigit() or len(parts[2]) != 8:
            continue
        pid = int(parts[1])
        if pid == os.getpid() or process_alive(pid):
            continue
        try:
            os.unlink(target.parent / name)
        except OSError:
            pass


def process_alive(pid: int) -> bool:
    """True while ``pid`` exists (also when it belongs to another user)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, owned by someone else
    return True


def atomic_write_text(path: str | os.PathLike, text: str, mode: int | None = None) -> None:
    atomic_write_bytes(path, text.encode("utf-8"), mode)


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
