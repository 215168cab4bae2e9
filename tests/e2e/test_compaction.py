"""The compaction checklist through the real Claude Code CLI (issue 4's end-to-end bar).

A scripted session fixes a bug and commits it without a `Symptom:` trailer and without a
SYMPTOMS.md entry, in a repository set up by `cc-hooks install` and `cc-hooks init`. Then:
- `/compact` (policy `warn`): the summarizer request carries the unrecorded outcome (the failing
  command, its error line, the fix commit's sha) and the trailer finding; the fake summarizer
  claims a commit that does not exist, and the next prompt's model request carries the audit
  naming that claim CONTRADICTED.
- `/compact` (policy `block-manual`): blocked with the explanation, no summary request; once the
  fix is recorded (trailer + SYMPTOMS.md entry), the next `/compact` passes on its merits.
"""

from __future__ import annotations

import subprocess
import textwrap
from pathlib import Path

import pytest

from cc_hooks.events.pre_compact import CHECKABLE_PHRASINGS

from .fakeapi import bash, edit, read
from .harness import ClaudeRunner

pytestmark = pytest.mark.e2e

TOOLS = ["Bash", "Edit", "Read", "Write"]
TIMEOUT = 45.0
CALC = "def add(a, b):\n    return a - b\n"
TEST_CALC = "from calc import add\n\nassert add(2, 3) == 5, f\"add(2, 3) returned {add(2, 3)}\"\nprint(\"1 passed\")\n"
TEST_COMMAND = "python3 test_calc.py"
ERROR = "AssertionError: add(2, 3) returned -1"
FIX_SUBJECT = "Fix add() subtracting instead of adding"
FALSE_SHA = "deadbee1"
SUMMARY = ("<analysis>the user asked for a fix</analysis>\n<summary>Fixed add() in calc.py; "
           f"fixed in commit {FALSE_SHA}. Tests pass.</summary>")
QUESTIONS = "- Where is add() implemented? → calc.py\n"


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout.strip()


def adopt(claude: ClaudeRunner, cc_hooks_exe: Path) -> None:
    """`cc-hooks install` + `cc-hooks init`, one cold-start question, everything committed."""
    claude.link_on_path(cc_hooks_exe)
    for verb in ("install", "init"):
        proc = subprocess.run([str(cc_hooks_exe), verb, "--project", str(claude.cwd)], capture_output=True, text=True,
                              timeout=60)
        assert proc.returncode == 0, proc.stdout + proc.stderr
    repo = claude.cwd
    with open(repo / "COLDSTART_QUESTIONS.md", "a", encoding="utf-8") as handle:
        handle.write(QUESTIONS)
    (repo / "calc.py").write_text(CALC)
    (repo / "test_calc.py").write_text(TEST_CALC)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "Adopt cc-hooks; add calc")


def fix_without_record(claude: ClaudeRunner) -> tuple[str, str]:
    """The scripted session: a failing test, the fix, a commit with no trailer. (session id, fix sha)"""
    claude.fake.queue(bash(TEST_COMMAND, "run the tests"))
    claude.fake.queue_text("The test fails: add() subtracts.")
    claude.fake.queue(
        read("calc.py"),
        edit("calc.py", "return a - b", "return a + b"),
        bash(TEST_COMMAND, "run the tests"),
        bash(f"git commit -qam '{FIX_SUBJECT}'", "commit"),
    )
    claude.fake.queue_text("Fixed and committed.")
    sid = claude.session(["run the tests", "fix it and commit"], allowed_tools=TOOLS, timeout=TIMEOUT)
    results = claude.fake.tool_results()
    assert results[0].get("is_error") and "returned -1" in str(results[0]["content"])
    assert git(claude.cwd, "log", "-1", "--format=%B").strip() == FIX_SUBJECT
    return sid, git(claude.cwd, "rev-parse", "HEAD")


def instructions(request) -> str:
    return request.last_user_text.split("Additional Instructions:", 1)[1]


@pytest.fixture
def adopted(claude: ClaudeRunner, cc_hooks_exe: Path) -> ClaudeRunner:
    adopt(claude, cc_hooks_exe)
    return claude


def test_unrecorded_fix_reaches_the_summarizer_and_a_false_claim_is_audited(adopted: ClaudeRunner) -> None:
    fake = adopted.fake
    sid, fix = fix_without_record(adopted)
    fake.summary_text = SUMMARY

    adopted.compact(sid, "keep the decisions", timeout=TIMEOUT)

    [summary_request] = fake.summaries
    text = instructions(summary_request)
    assert text.lstrip().startswith("keep the decisions\n\ncc-hooks compaction checklist:")
    preserve = text.split("Preserve verbatim", 1)[1]
    outcome = next(line for line in preserve.splitlines() if "unrecorded outcome" in line)
    assert f"`{TEST_COMMAND}`" in outcome and ERROR in outcome and fix[:12] in outcome
    trailer = next(line for line in preserve.splitlines() if "no `Symptom:` trailer" in line)
    assert fix[:12] in trailer and FIX_SUBJECT in trailer
    assert "FAIL: session" in text and "trailers" in text
    rules = next(line for line in text.splitlines() if line.startswith("Rules that keep this summary checkable"))
    assert all(phrasing in rules for phrasing in CHECKABLE_PHRASINGS)  # checkable phrasing, asked of the summarizer

    fake.queue_text("Continuing.")
    adopted.run("what next?", resume=sid, timeout=TIMEOUT)

    [request] = fake.containing("what next?", kind="turn")
    assert "UserPromptSubmit hook additional context: cc-hooks audit of the compaction summary" in request.text
    audit = request.text.split("UserPromptSubmit hook additional context:", 1)[1]
    contradicted = next(line for line in audit.splitlines() if "CONTRADICTED" in line)
    assert f"fixed in commit {FALSE_SHA}" in contradicted and "no commit deadbee1" in contradicted
    lost = audit.split("Lost in the summary", 1)[1]
    assert fix[:12] in lost and ERROR in lost
    assert fake.unscripted == 0 and fake.pending == 0


def record_the_fix(repo: Path, fix: str) -> str:
    """What the block asks for: the fix commit gains a trailer, SYMPTOMS.md gains an entry."""
    git(repo, "commit", "-q", "--amend", "-m", FIX_SUBJECT, "-m", "Symptom: add(2, 3) returns -1")
    amended = git(repo, "rev-parse", "HEAD")
    entry = textwrap.dedent(f"""
        ## Symptom: add(2, 3) returns -1

        **Known causes**:

        ### Cause 1: add() subtracted instead of adding — fixed in {amended[:10]}
        - **Mechanism**: `calc.py` used `-` where `+` was meant.
        - **Discriminator**: add(2, 0) == 2 but add(2, 3) == -1.
        - **Fix**: use `+` ({amended[:10]})
        - **Guard**: test_calc.py
        """)
    with open(repo / "SYMPTOMS.md", "a", encoding="utf-8") as handle:
        handle.write(entry)
    git(repo, "commit", "-qam", "Record the add() fix", "-m", "Symptom: add(2, 3) returns -1")
    return amended


def test_block_manual_blocks_until_the_fix_is_recorded(adopted: ClaudeRunner) -> None:
    repo, fake = adopted.cwd, adopted.fake
    sid, fix = fix_without_record(adopted)
    config = repo / ".cc-hooks.toml"
    config.write_text(config.read_text().replace('precompact_policy = "warn"', 'precompact_policy = "block-manual"'))

    blocked = adopted.compact(sid, "keep the decisions", timeout=TIMEOUT, check=False)

    shown = blocked.stdout + blocked.stderr
    assert "Compaction blocked by PreCompact hook" in shown, blocked.describe()
    assert "cc-hooks blocked this compaction" in shown and fix[:12] in shown and "/compact again within 60 s" in shown
    assert fake.summaries == [] and adopted.transcript(sid).boundaries() == []
    block = repo / ".git" / "cc-hooks" / "blocks" / f"{sid}.json"
    assert block.is_file()

    record_the_fix(repo, fix)
    fake.summary_text = "<summary>Fixed add() (see SYMPTOMS.md).</summary>"
    adopted.compact(sid, "keep the decisions", timeout=TIMEOUT)

    [summary_request] = fake.summaries
    text = instructions(summary_request)
    assert [line for line in text.splitlines() if line.startswith("FAIL:")] == ["FAIL: audit."]  # never blocks
    assert "Preserve verbatim" not in text
    assert block.is_file()  # the once-only override was not spent: it passed on its merits
    assert [b["compactMetadata"]["trigger"] for b in adopted.transcript(sid).boundaries()] == ["manual"]
