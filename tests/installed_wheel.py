"""The package as a user runs it: a wheel built from this tree, installed (non-editable) into a fresh
venv, with the ``cc-hooks`` console script the harness calls. Built once per test run and shared by
the xdist workers (a lock in the run's common temporary directory).

Use the ``installed_cli`` fixture (tests/conftest.py): the path of that venv's ``bin/cc-hooks``.
"""

from __future__ import annotations

import fcntl
import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SKIPPED = (".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache", ".hypothesis", "bench", "tests")
BASE = getattr(sys, "_base_executable", sys.executable)


def source_digest() -> str:
    """Of every file the wheel is built from: a run after an edit never reuses an older build."""
    digest = hashlib.sha256()
    for path in sorted([ROOT / "pyproject.toml", ROOT / "README.md", *(ROOT / "cc_hooks").rglob("*")]):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def build(parent: Path) -> Path:
    """``<parent>/<source digest>/venv/bin/cc-hooks``, building it unless an earlier worker or run did."""
    base = parent / source_digest()
    base.mkdir(parents=True, exist_ok=True)
    script = base / "venv" / "bin" / "cc-hooks"
    with open(base / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (base / "ready").exists():
            return script
        wheels, source = base / "wheel", base / "source"
        # From a copy: setuptools' build/ in the checkout may hold modules deleted since, and runs share it.
        shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*SKIPPED))
        _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--disable-pip-version-check",
              "-w", str(wheels), str(source)], "build the wheel")
        [wheel] = wheels.glob("cc_hooks-*.whl")
        _run([BASE, "-m", "venv", str(base / "venv")], "make a venv")
        _run([str(base / "venv" / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check",
              str(wheel)], "install the wheel and its dependencies")
        (base / "ready").write_text("ok\n")
    return script


def _run(argv: list[str], what: str) -> None:
    proc = subprocess.run(argv, capture_output=True, text=True)
    if proc.returncode != 0:
        tail = (proc.stdout + proc.stderr).strip()[-400:]
        if "Could not find a version" in tail or "No matching distribution" in tail:
            pytest.skip(f"cannot {what}: the package index is unreachable ({tail[-160:]})")
        raise AssertionError(f"cannot {what}: {tail}")
