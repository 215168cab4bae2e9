"""A small project with a complete record, built in a real temporary git repository.

Every audit test starts from ``project`` (all questions PASS) and breaks one thing.
"""

from __future__ import annotations

import datetime
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

TODAY = datetime.date.today().isoformat()


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


# The same healthy ledgers as the checklist tests: one fixture record for both.
from checks.conftest import DECISIONS, SYMPTOMS, WorkTree  # noqa: E402

QUESTIONS = """# Cold-start questions

- Why did add(2, 3) return -1? → SYMPTOMS.md#symptom-add2-3-returns--1
- Where is add() tested? → tests/test_calc.py::test_add
"""

NEXT_STEPS = """# Next steps

## CURRENT STATE — {today}
Resume point: add a regression test for negative numbers.
- Fix for "add(2, 3) returns -1" landed in `{fix_short}`.

## QUEUED
- {today} — Add a regression test for negative numbers in `add()`.
"""


@dataclass
class Project(WorkTree):
    fix: str


def build_project(base: Path) -> Project:
    root = base / "proj"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    for key, value in (("user.name", "Test User"), ("user.email", "test@example.com"), ("commit.gpgsign", "false")):
        git(root, "config", key, value)
    project = Project(root, "")
    project.write("src/calc.py", "def add(a, b):\n    return a - b\n")
    project.write("tests/test_calc.py", "from src.calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n")
    project.write(".gitignore", "CLAUDE.md\n.claude/\n*.log\n")
    project.write("README.md", "# calc\n\nAdds numbers.\n")
    project.commit("Initial commit")
    project.write("src/calc.py", "def add(a, b):\n    return a + b\n")
    project.fix = project.commit("Fix add() subtracting instead of adding\n\nSymptom: add(2, 3) returns -1", "src/calc.py")
    project.write("SYMPTOMS.md", SYMPTOMS.format(fix=project.fix[:10], today=TODAY))
    project.write("DECISIONS.md", DECISIONS.format(today=TODAY))
    project.write("COLDSTART_QUESTIONS.md", QUESTIONS)
    project.write("next_steps.md", NEXT_STEPS.format(today=TODAY, fix_short=project.fix[:10]))
    project.commit("Record the add() fix")
    return project


@pytest.fixture
def project(tmp_path) -> Project:
    return build_project(tmp_path)


def audit(project: Project, questions=(), **kwargs):
    from cc_hooks.audit import run_audit
    from cc_hooks.config import load_config

    return run_audit(project.root, load_config(project.root), questions, **kwargs)


def by_kind(result, kind: str) -> list:
    return [g for g in result.graded if g.question.kind == kind]


def one(result, kind: str):
    [item] = by_kind(result, kind)
    return item
