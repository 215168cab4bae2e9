"""Which environment runs a guard: the project's, never cc-hooks' own by default.

A guard is the project's test, so it runs the way the project runs its tests. cc-hooks is often
installed apart from the project (pipx, the plugin, a venv without the project's test
dependencies), and its own interpreter would make every pytest guard "could not observe". The
first that applies:

1. ``[guards] command = ["uv", "run"]`` in .cc-hooks.toml: every guard runs under that prefix
   (a pytest guard as ``uv run python -m pytest <id>``);
2. ``[guards] python = "<path or program>"``: that interpreter runs pytest guards and ``python``
   scripts;
3. the project's virtualenv: ``.venv`` (or ``venv``) at the top of the work tree, holding
   ``pyvenv.cfg`` and ``bin/python``; it is activated for every guard (``PATH``, ``VIRTUAL_ENV``);
4. ``python3`` on ``PATH``;
5. the interpreter cc-hooks runs under (only when there is no ``python3`` at all).

1 and 2 come from the repository, so guards wait for ``cc-hooks trust`` then, test ids included.
For ``guards prove`` the environment is the user's work tree's (the throwaway worktree has no
virtualenv), with the worktree's code first on ``PYTHONPATH``.
"""

from __future__ import annotations

import os
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

PYTHONS = frozenset({"python", "python3"})
VENV_DIRS = (".venv", "venv")


@dataclass(frozen=True)
class Environment:
    label: str  # said in every report: "the project's .venv (.venv/bin/python)"
    python: tuple[str, ...]  # the argv that starts Python
    prefix: tuple[str, ...] = ()  # wraps every guard's argv (a configured command)
    venv: Optional[str] = None  # a virtualenv to activate
    configured: bool = False  # from .cc-hooks.toml: runs only once trusted
    problem: Optional[str] = None  # why it cannot run anything
    source: str = field(default="", compare=False)

    def argv(self, argv: list[str]) -> list[str]:
        """``argv`` as this environment runs it: ``python`` becomes its Python, under its prefix."""
        if not argv:
            return argv
        if argv[0] in PYTHONS:
            return [*self.python, *argv[1:]]
        if self.prefix and tuple(argv[: len(self.prefix)]) != self.prefix:
            return [*self.prefix, *argv]
        return list(argv)

    def env(self, base: dict) -> dict:
        if not self.venv:
            return base
        env = dict(base)
        env["VIRTUAL_ENV"] = self.venv
        env["PATH"] = os.pathsep.join([str(Path(self.venv) / "bin"), *filter(None, [env.get("PATH")])])
        env.pop("PYTHONHOME", None)
        return env


def resolve_environment(root: str | os.PathLike, config=None, path: Optional[str] = None) -> Environment:
    """The environment guards of the project at ``root`` run in (``path``: the PATH to search)."""
    root = Path(root)
    if config is None:
        from cc_hooks.config import load_config_or_default

        config, _ = load_config_or_default(root)
    runner = getattr(config, "guard_runner", None)
    if runner is not None and runner.command:
        command = tuple(runner.command)
        return Environment(f"`{' '.join(command)}` ([guards] command in .cc-hooks.toml)", (*command, "python"),
                           prefix=command, configured=True, source="command")
    if runner is not None and runner.python:
        return _configured_python(root, runner.python, path)
    for name in VENV_DIRS:
        venv = root / name
        python = venv / "bin" / "python"
        if (venv / "pyvenv.cfg").is_file() and os.access(python, os.X_OK):
            return Environment(f"the project's {name} ({name}/bin/python)", (str(python),), venv=str(venv), source="venv")
    found = shutil.which("python3", path=path)
    if found:
        return Environment(f"python3 on PATH ({found})", (found,), source="path")
    return Environment(f"cc-hooks' own Python ({sys.executable}; no python3 on PATH)", (sys.executable,), source="own")


def _configured_python(root: Path, value: str, path: Optional[str]) -> Environment:
    label = f"[guards] python = {value!r} in .cc-hooks.toml"
    if "/" in value:
        candidate = Path(value).expanduser()
        candidate = candidate if candidate.is_absolute() else root / candidate
        if not os.access(candidate, os.X_OK) or candidate.is_dir():
            return Environment(label, (str(candidate),), configured=True, problem=f"{label}: {candidate} is not an executable file",
                               source="python")
        return Environment(f"{candidate} ({label})", (str(candidate),), configured=True, source="python")
    found = shutil.which(value, path=path)
    if not found:
        return Environment(label, (value,), configured=True, problem=f"{label}: no {value} on PATH", source="python")
    return Environment(f"{found} ({label})", (found,), configured=True, source="python")
