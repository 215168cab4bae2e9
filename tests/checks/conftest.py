"""A healthy record repository: every check PASSes on it; each test breaks one thing."""

from __future__ import annotations

import datetime
import json
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

TODAY = datetime.date.today().isoformat()


def git(repo: Path, *args: str, input: str | None = None) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True, input=input).stdout


def commit(repo: Path, message: str, *paths: str) -> str:
    git(repo, "add", *(["--", *paths] if paths else ["-A"]))
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD").strip()


SYMPTOMS = """# Symptom Index

Append-only. Keyed by observable.

---

## Symptom: add(2, 3) returns -1

**Known causes**:

### Cause 1: add() subtracted instead of adding — fixed in {fix}
- **Mechanism**: `src/calc.py` used `-` where `+` was meant.
- **Discriminator**: add(2, 0) == 2 but add(2, 3) == -1.
- **Fix**: use `+` ({fix})
- **Guard**: tests/test_calc.py::test_add

**Ruled out**:
- float rounding — eliminated by integer inputs failing too, {today}
"""

DECISIONS = """# Decision Ledger

Append-only, dated.

---

## {today} — Keep integer-only arithmetic

**Decision**: `add()` accepts integers only.
**Context**: the user corrected the agent: no float support.
**Rejected alternatives**:
- float support — rejected because the user decided against it
**Consequences**: callers convert before calling.
"""

QUESTIONS = """# Cold-start questions

- Why did add(2, 3) return -1? → SYMPTOMS.md#symptom-add2-3-returns--1
- Where is add() implemented? → src/calc.py:1
- Why no floats? → DECISIONS.md
"""

NEXT_STEPS = """# Next steps

## CURRENT STATE — {today}
Resume point: add a regression test for negative numbers.
- Fix for "add(2, 3) returns -1" landed in `{fix_short}`.
- Work is on branch `main`.

## QUEUED
- {today} — Add a regression test for negative numbers in `add()`.
"""


@dataclass
class WorkTree:
    """A real git work tree a test writes, commits and reads back (the audit's project is one too)."""

    root: Path

    def write(self, rel: str, text: str) -> Path:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    def read(self, rel: str) -> str:
        return (self.root / rel).read_text(encoding="utf-8")

    def commit(self, message: str, *paths: str) -> str:
        return commit(self.root, message, *paths)

    def git(self, *args: str) -> str:
        return git(self.root, *args)

    @property
    def state(self) -> Path:
        return self.root / ".git" / "cc-hooks"


@dataclass
class RecordRepo(WorkTree):
    remote: Path
    fix: str

    def push(self) -> None:
        git(self.root, "push", "-q")

    def write_audit(self, grades=("PASS", "PASS"), created: float | None = None) -> Path:
        path = self.state / "audits" / f"audit-{time.time_ns()}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        results = [{"question": f"q{i}", "grade": g} for i, g in enumerate(grades)]
        path.write_text(json.dumps({"created": created or time.time() + 1, "results": results}))
        return path


def build_record_repo(base: Path) -> RecordRepo:
    remote = base / "origin.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    root = base / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    for key, value in (("user.name", "Test User"), ("user.email", "test@example.com"), ("commit.gpgsign", "false")):
        git(root, "config", key, value)
    repo = RecordRepo(root, remote, "")
    repo.write("src/calc.py", "def add(a, b):\n    return a - b\n")
    repo.write("tests/test_calc.py", "from src.calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n")
    repo.write(".gitignore", "*.log\nlocal/\n")
    repo.write("CLAUDE.md", "# Agent notes\n\nDashboard: file next_steps.md\n")
    repo.commit("Initial commit")
    repo.write("src/calc.py", "def add(a, b):\n    return a + b\n")
    repo.fix = repo.commit("Fix add() subtracting instead of adding\n\nSymptom: add(2, 3) returns -1", "src/calc.py")
    repo.write("SYMPTOMS.md", SYMPTOMS.format(fix=repo.fix[:10], today=TODAY))
    repo.write("DECISIONS.md", DECISIONS.format(today=TODAY))
    repo.write("COLDSTART_QUESTIONS.md", QUESTIONS)
    repo.write("next_steps.md", NEXT_STEPS.format(today=TODAY, fix_short=repo.fix[:10]))
    repo.commit("Record the add() fix\n\nSymptom: add(2, 3) returns -1", "SYMPTOMS.md", "DECISIONS.md", "COLDSTART_QUESTIONS.md", "next_steps.md")
    git(root, "remote", "add", "origin", str(remote))
    git(root, "push", "-q", "-u", "origin", "main")
    repo.write_audit()
    return repo


@pytest.fixture
def record_repo(tmp_path) -> RecordRepo:
    return build_record_repo(tmp_path)


def check(repo: RecordRepo, check_id: str, transcript: Path | None = None, seconds: float = 30.0):
    from cc_hooks.checks import run_check
    from cc_hooks.checks.context import make_context
    from cc_hooks.runtime import Deadline

    ctx = make_context(repo.root, Deadline(seconds), transcript_path=transcript)
    return run_check(ctx, check_id)
