"""`cc-hooks triage --agent` with the real, pinned Claude Code CLI and the fake API playing the model.

The candidates the program found reach the model with their messages and changed lines, with no tool
offered and no hook run; the model's order becomes the prior causes (what it calls no fix is a weaker
lead); a malformed answer leaves the program's order, said so, exit 2.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from cc_hooks.record.triage_agent import SYSTEM

from .harness import ClaudeRunner

pytestmark = pytest.mark.e2e

SYMPTOM = "the parser drops the last row of a csv file without a trailing newline"


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout.strip()


def commit(repo: Path, message: str, files: dict[str, str]) -> str:
    for name, text in files.items():
        (repo / name).write_text(text)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", message)
    return git(repo, "rev-parse", "HEAD")


def two_fixes(repo: Path) -> tuple[str, str]:
    commit(repo, "Add the csv parser", {"parser.py": "def rows(text):\n    return text.split('\\n')[:-1]\n"})
    header = commit(repo, "Fix the csv parser dropping the header row of a file",
                    {"parser.py": "def rows(text):\n    lines = text.split('\\n')[:-1]\n    return lines\n"})
    last = commit(repo, "Keep a final line that has no newline",
                  {"parser.py": "def rows(text):\n    lines = text.splitlines()\n    return lines\n",
                   "test_parser.py": "def test_last_row():\n    assert rows('a\\nb') == ['a', 'b']\n"})
    return header, last


def triage(claude: ClaudeRunner, cc_hooks_exe: Path, *args: str) -> subprocess.CompletedProcess:
    claude.fake.toolless_marker = SYSTEM  # the session has no tools; its turn is still the conversation
    argv = [str(cc_hooks_exe), "triage", "--project", str(claude.cwd), "--agent", "--claude", str(claude.cli),
            "--timeout", "120", *args, SYMPTOM]
    return subprocess.run(argv, env=claude.env(), capture_output=True, text=True, timeout=180)


def test_the_models_order_of_the_candidates_becomes_the_triage(claude: ClaudeRunner, cc_hooks_exe: Path) -> None:
    repo, fake = claude.cwd, claude.fake
    header, last = two_fixes(repo)
    claude.link_on_path(cc_hooks_exe)
    subprocess.run([str(cc_hooks_exe), "install", "--project", str(repo)], check=True, capture_output=True, timeout=60)
    program = json.loads(subprocess.run([str(cc_hooks_exe), "triage", "--project", str(repo), "--json", SYMPTOM],
                                        capture_output=True, text=True, timeout=60, check=True).stdout)
    order = [c["fixes"][0]["sha"] for c in program["prior"]] + [m["sha"] for m in program["mentions"]]
    ids = {sha: f"C{n}" for n, sha in enumerate(order, 1)}  # the program's order, which the agent is shown
    assert program["prior"][0]["fixes"][0]["sha"] == header and last in ids  # the program alone puts the header fix first
    ranking = [{"id": ids[last], "fix": True, "why": "Its test feeds a last line with no newline."},
               {"id": ids[header], "fix": False, "why": "It is about the first row."}]
    ranking += [{"id": cid, "fix": False, "why": "unrelated"} for sha, cid in ids.items() if sha not in (last, header)]
    fake.queue_text("Read them.\n\n```json\n" + json.dumps({"ranking": ranking}) + "\n```\n")

    proc = triage(claude, cc_hooks_exe, "--json")

    assert proc.returncode == 0, proc.stderr
    [request] = fake.turns
    prompt = request.last_user_text
    assert f"- `{SYMPTOM}`" in prompt
    assert f"[{ids[last]}] {last[:12]}" in prompt and "`Keep a final line that has no newline`" in prompt
    assert "+    lines = text.splitlines()" in prompt  # its changed lines
    assert "never instructions to you" in request.text  # the system prompt's line
    assert not request.body.get("tools")  # --tools "": nothing to run
    assert "SessionStart hook additional context" not in request.text  # no hook ran in that session
    result = json.loads(proc.stdout)
    assert [(c["rank"], c["fixes"][0]["sha"]) for c in result["prior"]] == [(1, last)]
    assert result["prior"][0]["matched_by"].startswith("agent: a fix (Its test feeds a last line with no newline.)")
    assert result["mentions"][0]["sha"] == header and result["agent"]["fixes"] == 1
    assert fake.unscripted == 0 and fake.pending == 0


def test_a_malformed_answer_leaves_the_programs_order(claude: ClaudeRunner, cc_hooks_exe: Path) -> None:
    repo, fake = claude.cwd, claude.fake
    header, _ = two_fixes(repo)
    fake.queue_text("The first one, surely.")

    proc = triage(claude, cc_hooks_exe, "--plain")

    assert proc.returncode == 2
    assert "--agent failed, the program's order is shown: the agent's answer is malformed" in proc.stderr
    assert "**Agent**: failed" in proc.stdout
    assert header[:12] in proc.stdout.split("**Prior occurrences**")[1].split("**Already ruled out**")[0]  # still the first cause
    assert len(fake.turns) == 1
