"""COLDSTART_QUESTIONS.md: PASS / WEAK / FAIL for every pointer rule, both directions, batched git."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cc_hooks.record.questions import FAIL, PASS, WEAK, check_questions, clean_pointer, parse_questions, resolve_pointers


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, text=True).stdout


def make_repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.email", "t@example.com")
    git(root, "config", "user.name", "T")
    files = {
        ".gitignore": "secret.md\n",
        "src/net/retry.py": "import time\n\n# 7: the upstream rate limit allows 7 bursts\nRETRIES = 7\n",
        "DECISIONS.md": "# Decision Ledger\n\n## 2025-01-10 — Retry seven times\n\nWhy.\n\n## Café & Ünïcode!\n",
        "tests/test_retry.py": "class TestRetry:\n    def test_gives_up(self):\n        pass\n\n\ndef test_backoff():\n    assert True\n",
        "docs/guide.md": "# Guide\n",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    os.symlink("src/net/retry.py", root / "inside-link.py")
    os.symlink("../outside.md", root / "escape-link.md")
    os.symlink("src", root / "srclink")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "init")
    (root / "secret.md").write_text("ignored answer\n")
    (root / "uncommitted.md").write_text("x\n")
    (tmp_path / "outside.md").write_text("outside\n")
    return root


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path)


@pytest.fixture(scope="module")
def shared_repo(tmp_path_factory) -> Path:
    """Read-only tests share one repo (building it is most of their cost)."""
    return make_repo(tmp_path_factory.mktemp("questions"))


def grade_of(repo: Path, pointer: str) -> tuple[str, str]:
    result = resolve_pointers(repo, [pointer])[pointer]
    return result.grade, result.reason


@pytest.mark.parametrize(
    "pointer",
    [
        "src/net/retry.py",
        "./src/net/retry.py",
        "src/net",
        "src/net/retry.py:4",
        "src/net/retry.py:1-4",
        "DECISIONS.md#2025-01-10--retry-seven-times",
        "DECISIONS.md#café--ünïcode",
        "tests/test_retry.py::test_backoff",
        "tests/test_retry.py::TestRetry::test_gives_up",
        "tests/test_retry.py::test_backoff[param-1]",
        "inside-link.py:3",
        "srclink/net/retry.py",
    ],
)
def test_pass(shared_repo, pointer):
    assert grade_of(shared_repo, pointer)[0] == PASS


@pytest.mark.parametrize(
    "pointer, reason",
    [
        ("../outside.md", "escapes the repository"),
        ("src/../../outside.md", "escapes the repository"),
        ("/etc/passwd", "absolute path"),
        ("~/notes.md", "absolute path"),
        ("secret.md", "ignored by .gitignore"),
        ("uncommitted.md", "not committed at HEAD"),
        ("nope.md", "no such file"),
        ("src/net/retry.py:5", "out of range"),
        ("src/net/retry.py:0", "out of range"),
        ("src/net/retry.py:3-9", "out of range"),
        ("DECISIONS.md#2025-01-10", "did you mean `#2025-01-10--retry-seven-times`"),
        ("DECISIONS.md#no-such-heading", "no heading"),
        ("src/net/retry.py#x", "only in markdown"),
        ("tests/test_retry.py::test_missing", "no definition of `test_missing`"),
        ("tests/test_retry.py::TestRetry::test_backoff_nope", "no definition"),
        ("escape-link.md", "points outside the repository"),
        ("src/net:3", "is a directory"),
        ("https://example.com/x.md", "a URL"),
        ("deadbee1", "no such commit"),
    ],
)
def test_fail(shared_repo, pointer, reason):
    grade, why = grade_of(shared_repo, pointer)
    assert grade == FAIL and reason in why


def test_commit_alone_is_weak(repo):
    sha = git(repo, "rev-parse", "HEAD").strip()
    assert grade_of(repo, sha[:10])[0] == WEAK
    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    assert grade_of(repo, tree)[0] == FAIL


def test_file_and_grades(repo):
    sha = git(repo, "rev-parse", "HEAD").strip()[:8]
    (repo / "COLDSTART_QUESTIONS.md").write_text(
        "# Cold-start questions\n<!-- - commented → nope.md -->\n"
        "- Why is the retry limit 7? → src/net/retry.py:3 (comment); DECISIONS.md#2025-01-10--retry-seven-times\n"
        f"- Why the backoff? -> {sha}\n"
        f"- Mixed? → docs/guide.md; {sha}\n"
        "- Broken? → docs/guide.md; nope.md\n"
        "- No pointer at all\n"
        "```\n- fenced → nope.md\n```\n"
    )
    report = check_questions(repo)
    grades = [(q.line, q.grade) for q in report.questions]
    assert grades == [(3, PASS), (4, WEAK), (5, PASS), (6, FAIL), (7, FAIL)]
    assert report.questions[0].pointers == ["src/net/retry.py:3", "DECISIONS.md#2025-01-10--retry-seven-times"]
    assert "nope.md: no such file" in report.questions[3].reason
    assert report.counts == {PASS: 2, WEAK: 1, FAIL: 2} and not report.all_pass
    assert [f.rule for f in report.findings] == ["question-no-arrow"]


def test_all_pass(repo):
    (repo / "COLDSTART_QUESTIONS.md").write_text("- Why 7? → src/net/retry.py:3\n")
    assert check_questions(repo).all_pass


def test_missing_file(repo):
    report = check_questions(repo)
    assert not report.exists and [f.rule for f in report.findings] == ["questions-missing"]


def test_no_commits_yet(tmp_path):
    git(tmp_path, "init", "-q")
    (tmp_path / "a.md").write_text("x\n")
    assert resolve_pointers(tmp_path, ["a.md"])["a.md"].reason.startswith("no commits yet")


def test_git_processes_do_not_grow_with_lines(repo, monkeypatch):
    sha = git(repo, "rev-parse", "HEAD").strip()[:8]
    calls = []
    real_run = subprocess.run

    def counting_run(argv, *args, **kwargs):
        if argv and argv[0] == "git":
            calls.append(argv[3] if len(argv) > 3 else "")
        return real_run(argv, *args, **kwargs)

    from cc_hooks.git import run_git

    run_git(repo, "rev-parse", "HEAD")  # the repository's configuration is read once per process (cc_hooks.git)
    monkeypatch.setattr(subprocess, "run", counting_run)
    line = f"- q → src/net/retry.py:{{n}}; DECISIONS.md#2025-01-10--retry-seven-times; tests/test_retry.py::test_backoff; secret.md; {sha}\n"
    counts = []
    for size in (2, 60):
        (repo / "COLDSTART_QUESTIONS.md").write_text("".join(line.format(n=1 + i % 4) for i in range(size)))
        calls.clear()
        report = check_questions(repo)
        assert len(report.questions) == size
        counts.append(len(calls))
    assert counts[0] == counts[1] <= 6


def test_clean_pointer():
    assert clean_pointer(" `src/a.py:3` (comment) ") == "src/a.py:3"
    assert clean_pointer("[the guide](docs/guide.md#intro)") == "docs/guide.md#intro"
    assert clean_pointer("commit abc1234") == "abc1234"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("-*→>;:#`()[] \n\tab/.1")) | st.characters(), max_size=300))
def test_parse_never_raises(text):
    questions, findings = parse_questions(text)
    assert all(q.line >= 1 for q in questions)
