"""Guards through the real Claude Code CLI (issue 11's end-to-end bar).

A scripted session in a repository set up by `cc-hooks install` and `cc-hooks init` runs a failing
pytest test, fixes the code, adds a regression test, sees the tests pass and commits. Then:
- `/compact`: the summarizer request names the failing-then-passing test command as the guard
  candidate of the fix;
- the fix is recorded (a SYMPTOMS.md cause `— fixed in <sha>` whose **Guard** is the regression
  test's id, committed with a `Symptom:` trailer): the session check over the same transcript now
  finds the candidate covered; and `cc-hooks guards prove` says PROVEN: the test
  passes on HEAD and fails with the fix reverted, in a throwaway worktree that is gone afterwards,
  and the user's work tree is as it was.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from .fakeapi import bash, edit, read
from .harness import ClaudeRunner

pytestmark = pytest.mark.e2e

TOOLS = ["Bash", "Edit", "Read", "Write"]
TIMEOUT = 45.0
CALC = "def add(a, b):\n    return a - b\n"
TEST_CALC = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
REGRESSION = "\n\ndef test_add_negative():\n    assert add(-2, -3) == -5\n"
GUARD = "test_calc.py::test_add_negative"
TEST_COMMAND = "python3 -m pytest -q test_calc.py"
FIX_SUBJECT = "Fix add() subtracting instead of adding"
SYMPTOM = "add(2, 3) returns -1"


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout.strip()


@pytest.fixture
def adopted(claude: ClaudeRunner, cc_hooks_exe: Path) -> ClaudeRunner:
    """`cc-hooks install` + `cc-hooks init`, a calculator with a pytest test, everything committed;
    `python3` on the session's PATH is this environment's interpreter (it has pytest)."""
    claude.link_on_path(cc_hooks_exe)
    python3 = claude.bin_dir / "python3"
    python3.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    python3.chmod(0o755)
    claude.extra_env.update({"PYTHONDONTWRITEBYTECODE": "1", "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"})
    for verb in ("install", "init"):
        proc = subprocess.run([str(cc_hooks_exe), verb, "--project", str(claude.cwd)], capture_output=True, text=True,
                              timeout=60)
        assert proc.returncode == 0, proc.stdout + proc.stderr
    repo = claude.cwd
    (repo / "calc.py").write_text(CALC)
    (repo / "test_calc.py").write_text(TEST_CALC)
    with open(repo / ".gitignore", "a", encoding="utf-8") as handle:
        handle.write(".pytest_cache/\n__pycache__/\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "Adopt cc-hooks; add calc")
    return claude


def fix_with_a_regression_test(claude: ClaudeRunner) -> tuple[str, str]:
    """The scripted session: the test fails, the fix, a regression test, the tests pass, a commit.
    (session id, fix sha)"""
    claude.fake.queue(
        bash(TEST_COMMAND, "run the tests"),
        read("calc.py"),
        edit("calc.py", "return a - b", "return a + b"),
        read("test_calc.py"),
        edit("test_calc.py", "assert add(2, 3) == 5\n", "assert add(2, 3) == 5\n" + REGRESSION),
        bash(TEST_COMMAND, "run the tests"),
        bash(f"git commit -qam '{FIX_SUBJECT}' && git log --oneline -1", "commit"),
    )
    claude.fake.queue_text("Fixed add(), added a regression test, committed.")
    sid = claude.session(["test_add fails: fix it and add a regression test"], allowed_tools=TOOLS, timeout=TIMEOUT)
    results = claude.fake.tool_results()
    assert results[0].get("is_error") and "FAILED test_calc.py::test_add" in str(results[0]["content"]), results[0]
    assert any("2 passed" in str(r["content"]) for r in results[1:]), results  # the fix and the new test
    assert git(claude.cwd, "log", "-1", "--format=%s") == FIX_SUBJECT
    assert git(claude.cwd, "show", "--name-only", "--format=", "HEAD").split() == ["calc.py", "test_calc.py"]
    return sid, git(claude.cwd, "rev-parse", "HEAD")


def record_the_fix(repo: Path, fix: str) -> None:
    """A SYMPTOMS.md cause naming the fix commit, its Guard the regression test; a `Symptom:` trailer."""
    entry = textwrap.dedent(f"""
        ## Symptom: {SYMPTOM}

        **Known causes**:

        ### Cause 1: add() subtracted instead of adding — fixed in {fix[:10]}
        - **Mechanism**: `calc.py` used `-` where `+` was meant.
        - **Discriminator**: add(2, 0) == 2 but add(2, 3) == -1.
        - **Fix**: use `+` ({fix[:10]})
        - **Guard**: `{GUARD}`
        """)
    with open(repo / "SYMPTOMS.md", "a", encoding="utf-8") as handle:
        handle.write(entry)
    git(repo, "commit", "-qam", "Record the add() fix", "-m", f"Symptom: {SYMPTOM}")


def session_as_precompact_saw_it(claude: ClaudeRunner, sid: str, dst: Path) -> Path:
    """The session's transcript up to its compact boundary (the live part PreCompact swept)."""
    data = claude.transcript_path(sid).read_bytes()
    hit = data.rfind(b'"compact_boundary"')
    assert hit >= 0, "no compact boundary in the transcript"
    dst.write_bytes(data[: data.rfind(b"\n", 0, hit) + 1])
    return dst


def guard_candidates(cc_hooks_exe: Path, repo: Path, transcript: Path) -> list[dict]:
    proc = subprocess.run([str(cc_hooks_exe), "check", "--project", str(repo), "--transcript", str(transcript),
                           "--only", "session", "--json"], capture_output=True, text=True, timeout=60)
    [session] = json.loads(proc.stdout)["checks"]
    return session["data"]["guard_candidates"]


def tree_state(repo: Path) -> tuple[str, str, dict[str, bytes]]:
    files = {p: (repo / p).read_bytes() for p in ("calc.py", "test_calc.py", "SYMPTOMS.md")}
    return git(repo, "rev-parse", "HEAD"), git(repo, "status", "--porcelain", "--untracked-files=all"), files


def test_the_guard_candidate_reaches_the_summarizer_and_the_recorded_guard_is_proven(
        adopted: ClaudeRunner, cc_hooks_exe: Path, tmp_path: Path) -> None:
    repo, fake = adopted.cwd, adopted.fake
    sid, fix = fix_with_a_regression_test(adopted)
    fake.summary_text = f"<summary>Fixed add() in {fix[:12]}; regression test `{GUARD}`.</summary>"

    adopted.compact(sid, "keep the decisions", timeout=TIMEOUT)

    [summary_request] = fake.summaries
    text = summary_request.last_user_text.split("Additional Instructions:", 1)[1]
    [candidate] = [line for line in text.splitlines() if line.startswith("Guard candidate:")]
    assert candidate.startswith(f"Guard candidate: `{TEST_COMMAND}` failed then passed (fix `{fix[:12]}`)"), candidate
    assert "record it as the Guard: of the fix's SYMPTOMS.md entry" in candidate

    record_the_fix(repo, fix)
    [recorded] = guard_candidates(cc_hooks_exe, repo, session_as_precompact_saw_it(adopted, sid, tmp_path / "t.jsonl"))
    assert recorded["command"] == TEST_COMMAND and recorded["fixed_in"] == fix
    assert f"`{GUARD}`" in recorded["guarded_by"]  # recorded with a Guard: the next compaction leaves it out

    before = tree_state(repo)
    proc = subprocess.run([str(cc_hooks_exe), "guards", "prove", "--project", str(repo)], capture_output=True, text=True,
                          timeout=120, cwd=repo, env={**adopted.env(), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"})

    assert proc.returncode == 0, proc.stdout + proc.stderr
    [environment, verdict, total] = proc.stdout.splitlines()
    assert environment.startswith("guards run in "), environment  # the project's environment, named
    assert verdict.startswith("PROVEN") and f"({GUARD})" in verdict and "anomaly with the fix reverted" in verdict, verdict
    assert total.startswith("1 PROVEN;"), total
    assert tree_state(repo) == before  # the user's tree: same HEAD, same status, same files
    assert len(git(repo, "worktree", "list").splitlines()) == 1  # no proof worktree left behind
    assert fake.unscripted == 0 and fake.pending == 0
