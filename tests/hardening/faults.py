"""Helpers of the fault tests: events with realistic fields, a tmpfs mounted over a directory."""

from __future__ import annotations

import json
import subprocess
from contextlib import contextmanager
from pathlib import Path

import pytest

from .conftest import event

FIELDS = {
    "PreCompact": {"trigger": "auto"},
    "PostCompact": {"trigger": "auto", "compact_summary": "Done: abc1234 on main; edited src/a.py."},
    "SessionStart": {"source": "compact"},
    "UserPromptSubmit": {"prompt": "go on"},
}
STARTUP = 0.0  # none: a hook process counts its start-up against its budget (issue 16, item 14)


def payload(name: str, cwd: Path, **extra) -> bytes:
    return json.dumps(event(name, cwd, **{"transcript_path": str(cwd / "t.jsonl"), **FIELDS[name], **extra})).encode()


@contextmanager
def mounted_tmpfs(where: Path, size: str, readonly: bool = False):
    where.mkdir(parents=True, exist_ok=True)
    options = f"size={size},mode=0700" + (",ro" if readonly else "")
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(where)], capture_output=True)
    if proc.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({proc.stderr.decode().strip() or 'not root'})")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def fill(directory: Path) -> None:
    """Fill a file system to the last byte."""
    with open(directory / "ballast", "wb", buffering=0) as handle:
        try:
            while True:
                handle.write(b"\0" * 4096)
        except OSError:
            pass
    for n in range(10_000):  # then the inodes/blocks left for small files
        try:
            (directory / f"b{n}").write_bytes(b"x" * 64)
        except OSError:
            break


