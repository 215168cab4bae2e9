"""The package as users run it: a wheel built from this tree, installed (non-editable) into a fresh
venv, and the bare venvs the floors come from (cached by the wheel's bytes).

- ``install()``: ``<cache>/venv-cc-hooks-<wheel sha>``: ``bin/cc-hooks``, and the prompt gate in its
  site-packages, exactly where ``cc-hooks install`` points the wired one-liner.
- ``bare()``: a venv with nothing installed (``--without-pip``): ``python -c pass`` from there.
- ``deps()``: a venv with only pydantic and GitPython: ``import pydantic, git`` from there.

An editable install's interpreter is slower at every start (its ``.pth`` finder), so measuring
the hook and its floor with it, as docs/benchmarks.md did before issue 22, flatters the ratios.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASE = getattr(sys, "_base_executable", sys.executable)  # venvs are made from the base interpreter


def venv_root() -> Path:
    """``$CC_HOOKS_BENCH_VENVS``, else ``~/.cache/cc-hooks-bench/venvs``: shared by every run, the smoke
    run's fresh fixture cache included (the bare venvs never change; the package's is keyed by its wheel)."""
    explicit = os.environ.get("CC_HOOKS_BENCH_VENVS")
    root = Path(explicit) if explicit else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cc-hooks-bench" / "venvs"
    root.mkdir(parents=True, exist_ok=True)
    return root


def _venv(path: Path, packages: list[str]) -> Path:
    if (path / "bin" / "python").exists():
        return path
    shutil.rmtree(path, ignore_errors=True)  # a half-made one: venv scripts hold their absolute path
    subprocess.run([BASE, "-m", "venv", "--without-pip", str(path)], check=True)
    if packages:
        subprocess.run([sys.executable, "-m", "pip", "--python", str(path / "bin" / "python"), "install", "-q",
                        "--disable-pip-version-check", *packages], check=True)
    subprocess.run([str(path / "bin" / "python"), "-m", "compileall", "-q", str(path / "lib")], capture_output=True)
    return path


def wheel(cache: Path) -> Path:
    out = Path(tempfile.mkdtemp(prefix="cc-hooks-wheel-", dir=cache))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                    "--disable-pip-version-check", "-w", str(out), str(ROOT)], check=True, capture_output=True)
    [built] = out.glob("cc_hooks-*.whl")
    return built


def install(cache: Path) -> Path:
    built = wheel(cache)
    digest = hashlib.sha256(built.read_bytes()).hexdigest()[:16]
    venv = _venv(cache / f"venv-cc-hooks-{digest}", [str(built)])
    shutil.rmtree(built.parent, ignore_errors=True)
    return venv


def bare(cache: Path) -> Path:
    return _venv(cache / "venv-bare", [])


def deps(cache: Path) -> Path:
    return _venv(cache / "venv-pydantic-git", ["pydantic>=2.5,<3", "GitPython>=3.1.40"])
