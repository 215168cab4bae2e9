"""A real repository with three recorded fixes, one per proof verdict.

- ``add`` (calc_add.py): its test really detects the bug → PROVEN;
- ``mul`` (calc_mul.py): its test only checks the type, and passes with the fix
  reverted → DOES-NOT-DETECT;
- ``sub`` (calc_sub.py): a later commit rewrote the fixed line, so the fix does
  not revert cleanly → UNPROVABLE.

The template is built once per session and copied into each test's tmp_path.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ADD_SYMPTOM = "add(2, 3) returns -1"
MUL_SYMPTOM = "mul(2, 3) returns 5"
SUB_SYMPTOM = "sub(5, 3) returns 8"


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


def commit(repo: Path, message: str, files: dict[str, str]) -> str:
    for name, text in files.items():
        path = repo / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    git(repo, "add", *files)
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD").strip()


def symptom_entry(observable: str, cause: str, sha: str, guard: str) -> str:
    return (
        f"## Symptom: {observable}\n\n**Known causes**:\n\n"
        f"### Cause 1: {cause} — fixed in {sha[:12]}\n"
        f"- **Mechanism**: {cause}.\n"
        f"- **Discriminator**: call it with 2 and 3.\n"
        f"- **Fix**: use the right operator ({sha[:12]}).\n"
        f"- **Guard**: {guard}\n\n"
        f"**Ruled out**:\n- a caching bug — eliminated by a fresh interpreter, 2026-11-29\n\n"
    )


def build(repo: Path) -> dict[str, str]:
    repo.mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    for key, value in (("user.name", "Test User"), ("user.email", "test@example.com"), ("commit.gpgsign", "false")):
        git(repo, "config", key, value)
    commit(repo, "Add the calculator", {
        "pytest.ini": "[pytest]\n",
        "calc_add.py": "def add(a, b):\n    return a - b\n",
        "calc_mul.py": "def mul(a, b):\n    return a + b\n",
        "calc_sub.py": "def sub(a, b):\n    return a + b\n",
    })
    shas = {}
    shas["add"] = commit(repo, f"Fix add() subtracting\n\nSymptom: {ADD_SYMPTOM}", {
        "calc_add.py": "def add(a, b):\n    return a + b\n",
        "tests/test_add.py": "from calc_add import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n",
    })
    shas["mul"] = commit(repo, f"Fix mul() adding\n\nSymptom: {MUL_SYMPTOM}", {
        "calc_mul.py": "def mul(a, b):\n    return a * b\n",
        "tests/test_mul.py": "from calc_mul import mul\n\n\nclass TestMul:\n    def test_returns_an_int(self):\n"
                             "        assert isinstance(mul(2, 3), int)\n",
    })
    shas["sub"] = commit(repo, f"Fix sub() adding\n\nSymptom: {SUB_SYMPTOM}", {
        "calc_sub.py": "def sub(a, b):\n    return a - b\n",
        "tests/test_sub.py": "from calc_sub import sub\n\n\ndef test_sub():\n    assert sub(5, 3) == 2\n",
    })
    commit(repo, "Write sub() as a negated difference", {"calc_sub.py": "def sub(a, b):\n    return -(b - a)\n"})
    ledger = "# Symptom Index\n\nAppend-only.\n\n---\n\n" + "".join([
        symptom_entry(ADD_SYMPTOM, "add() subtracted", shas["add"], "`tests/test_add.py::test_add`"),
        symptom_entry(MUL_SYMPTOM, "mul() added", shas["mul"], "`tests/test_mul.py::TestMul::test_returns_an_int` (checks the type)"),
        symptom_entry(SUB_SYMPTOM, "sub() added", shas["sub"], "tests/test_sub.py::test_sub"),
    ])
    commit(repo, "Record the three fixes", {"SYMPTOMS.md": ledger})
    return shas


@pytest.fixture(scope="session")
def _template(tmp_path_factory) -> tuple[Path, dict]:
    repo = tmp_path_factory.mktemp("template") / "repo"
    return repo, build(repo)


@pytest.fixture
def calc_repo(_template, tmp_path, monkeypatch) -> Path:
    """A private copy of the three-fixes repository.

    Its tests need no pytest plugin, and autoloading this venv's (hypothesis: ~1-2 s
    of imports per run) would dominate every guard run; children inherit this."""
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    python3_on_path(tmp_path / "bin", monkeypatch)
    repo = tmp_path / "repo"
    shutil.copytree(_template[0], repo, symlinks=True)
    return repo


@pytest.fixture
def fix_shas(_template) -> dict[str, str]:
    return dict(_template[1])


@pytest.fixture
def isolated(tmp_path, monkeypatch) -> dict:
    """XDG_CONFIG_HOME (trust store) and TMPDIR (proof worktrees) inside tmp_path, for this process and children."""
    config, tmp = tmp_path / "xdg", tmp_path / "tmp"
    config.mkdir()
    tmp.mkdir()
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    monkeypatch.setenv("TMPDIR", str(tmp))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)  # re-read TMPDIR
    return {"config": config, "tmp": tmp}


def cc_hooks(*args: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cc_hooks", *args], cwd=str(cwd), capture_output=True, text=True,
                          timeout=timeout, env=dict(os.environ))


def snapshot(repo: Path) -> dict:
    """Everything a proof must leave alone: status, HEAD, the worktree list, every file's bytes (outside .git)."""
    files = {}
    for path in sorted(repo.rglob("*")):
        if ".git" in path.relative_to(repo).parts or not path.is_file():
            continue
        files[str(path.relative_to(repo))] = path.read_bytes()
    return {
        "status": git(repo, "status", "--porcelain=v1", "--untracked-files=all"),
        "head": git(repo, "rev-parse", "HEAD"),
        "worktrees": git(repo, "worktree", "list", "--porcelain"),
        "files": files,
    }


def python3_on_path(directory: Path, monkeypatch, target: str = sys.executable) -> Path:
    """A ``python3`` first on PATH that runs ``target`` (this suite's Python, which has pytest): guards
    fall back to python3 on PATH, and the machine's may have no pytest."""
    directory.mkdir(parents=True, exist_ok=True)
    shim = directory / "python3"
    shim.write_text(f'#!/bin/sh\nexec "{target}" "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    monkeypatch.setenv("PATH", f"{directory}{os.pathsep}{os.environ.get('PATH', '')}")
    return shim
