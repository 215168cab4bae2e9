"""`cc-hooks audit --agent` with the real, pinned Claude Code CLI as the auditor's runtime and the
fake API playing the cold-start auditor.

The audit runs `claude -p` in the fresh-clone view with the caller's environment (the harness's
ANTHROPIC_BASE_URL etc.), so the questions reach the fake; its scripted JSON answer is parsed and
merged with the program's grades (the stricter wins); the checklist's `audit` check flips from
FAIL to PASS once the record is fixed and re-audited; a malformed answer is rejected (exit 2) and
nothing is stored as PASS.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from .harness import ClaudeRunner

pytestmark = pytest.mark.e2e

SYMPTOM = "add(2, 3) returns -1"
DECISIONS = """# Decision Ledger

## 2026-11-29 — Keep integer-only arithmetic

**Decision**: `add()` accepts integers only.
**Context**: the user ruled out floats.
**Rejected alternatives**:
- float support — rejected because the user decided against it
**Consequences**: callers convert first.
"""
ENTRY = """# Symptom Index

## Symptom: add(2, 3) returns -1

### Cause 1: add() subtracted — fixed in {sha}
- **Mechanism**: `-` instead of `+`.
- **Discriminator**: add(2, 0) == 2 but add(2, 3) == -1.
- **Fix**: use `+` ({sha})
- **Guard**: test_calc.py::test_add

**Ruled out**:
- overflow — eliminated by small inputs failing too, 2026-11-29
"""
DECISION_ID = "decision:2026-11-29--keep-integer-only-arithmetic"


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout.strip()


def commit(repo: Path, message: str) -> str:
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", message)
    return git(repo, "rev-parse", "HEAD")


def answer(*grades: tuple[str, str, str]) -> str:
    results = [{"id": qid, "grade": grade, "where": where, "remediation": ""} for qid, grade, where in grades]
    return "Audit done.\n\n```json\n" + json.dumps({"results": results}) + "\n```\n"


def audit(claude: ClaudeRunner, cc_hooks_exe: Path, *args: str) -> subprocess.CompletedProcess:
    argv = [str(cc_hooks_exe), "audit", "--project", str(claude.cwd), "--agent", "--claude", str(claude.cli),
            "--timeout", "120", *args]
    return subprocess.run(argv, env=claude.env(), capture_output=True, text=True, timeout=180)


def check(claude: ClaudeRunner, cc_hooks_exe: Path) -> dict:
    proc = subprocess.run([str(cc_hooks_exe), "check", "--only", "audit", "--json", "--project", str(claude.cwd)],
                          env=claude.env(), capture_output=True, text=True, timeout=60)
    return json.loads(proc.stdout)["checks"][0]


def newest_audit(repo: Path) -> dict:
    return json.loads(sorted((repo / ".git" / "cc-hooks" / "audits").glob("*.json"))[-1].read_text())


def test_agent_audit_flips_the_checklist_once_the_record_is_fixed(claude: ClaudeRunner, cc_hooks_exe: Path) -> None:
    repo, fake = claude.cwd, claude.fake
    (repo / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    (repo / "test_calc.py").write_text("from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n")
    (repo / "DECISIONS.md").write_text(DECISIONS)
    (repo / ".gitignore").write_text("CLAUDE.md\n")
    (repo / "CLAUDE.md").write_text("private notes: the add() bug came from a copy-paste\n")
    claude.link_on_path(cc_hooks_exe)  # cc-hooks wired into the project: the audit session must not run it
    subprocess.run([str(cc_hooks_exe), "install", "--project", str(repo)], check=True, capture_output=True, timeout=60)
    fix = commit(repo, f"Fix add() subtracting\n\nSymptom: {SYMPTOM}")
    trailer_id = f"trailer:{fix[:12]}"

    # Round 1: the fix is known only from its trailer. The agent calls it PASS; the program's WEAK wins.
    fake.queue_text(answer((trailer_id, "PASS", f"commit {fix[:12]}"), (DECISION_ID, "PASS", "DECISIONS.md")))
    first = audit(claude, cc_hooks_exe, "--json")
    assert first.returncode == 1, first.stderr
    [request] = fake.turns
    assert f"[{trailer_id}] What causes \"{SYMPTOM}\"" in request.text  # the questions reached the model
    assert f"[{DECISION_ID}] Why \"Keep integer-only arithmetic\", and what was rejected?" in request.text
    assert "You audit whether this repository's durable record" in request.text  # the cold-start-auditor prompt
    assert "`CLAUDE.md`" in request.last_user_text  # told which paths a clone lacks
    assert "/cc-hooks-audit-" in request.text and str(repo) not in request.text  # it ran in the fresh-clone view
    assert "SessionStart hook additional context" not in request.text  # no hook ran in the audit session
    assert not list((claude.home / ".claude" / "projects").glob("*/*.jsonl"))  # no session saved
    result = json.loads(first.stdout)
    grades = {r["id"]: r for r in result["results"]}
    assert grades[trailer_id]["grade"] == "WEAK"
    assert grades[trailer_id]["deterministic"] == "WEAK" and grades[trailer_id]["agent"]["grade"] == "PASS"
    assert grades[DECISION_ID]["grade"] == "PASS" and result["agent"]["questions_sent"] == 2
    assert check(claude, cc_hooks_exe)["status"] == "FAIL"

    # Round 2: the record gets its entry; both graders agree on PASS.
    (repo / "SYMPTOMS.md").write_text(ENTRY.format(sha=fix[:10]))
    commit(repo, "Record the add() fix")
    symptom_id = "symptom:symptom-add2-3-returns--1"
    fake.queue_text(answer((symptom_id, "PASS", f"SYMPTOMS.md#{symptom_id.split(':')[1]}"),
                           (DECISION_ID, "PASS", f"DECISIONS.md#{DECISION_ID.split(':')[1]}")))
    second = audit(claude, cc_hooks_exe, "--write-report")
    assert second.returncode == 0, second.stdout + second.stderr
    assert f"[{symptom_id}]" in fake.turns[-1].text and trailer_id not in fake.turns[-1].text
    assert "Score: 2/2  (weak: 0, fail: 0)" in (repo / "COLDSTART_AUDIT.md").read_text()
    stored = newest_audit(repo)
    assert stored["all_pass"] and stored["head"] == git(repo, "rev-parse", "HEAD")
    assert check(claude, cc_hooks_exe)["status"] == "PASS"
    assert fake.unscripted == 0 and fake.pending == 0


def test_a_malformed_agent_answer_is_rejected(claude: ClaudeRunner, cc_hooks_exe: Path) -> None:
    repo, fake = claude.cwd, claude.fake
    (repo / "DECISIONS.md").write_text(DECISIONS)
    commit(repo, "Decide")
    fake.queue_text("Everything checks out, all PASS.")  # no JSON block

    proc = audit(claude, cc_hooks_exe)

    assert proc.returncode == 2
    assert "malformed" in proc.stderr and "nothing was stored as PASS" in proc.stderr
    assert f"[{DECISION_ID}]" in fake.turns[0].text
    stored = newest_audit(repo)
    assert stored["error"] and stored["results"] == [] and not stored["all_pass"]
    assert check(claude, cc_hooks_exe)["status"] == "FAIL"
    assert git(repo, "worktree", "list").count("\n") == 0  # the view is gone


def test_the_agent_sets_aside_a_mined_question_it_judges_not_worth_asking(claude: ClaudeRunner, cc_hooks_exe: Path) -> None:
    repo, fake = claude.cwd, claude.fake
    (repo / "DECISIONS.md").write_text(DECISIONS)
    (repo / "net.py").write_text("def connect():\n    import socket  # HACK\n    return socket\n")
    commit(repo, "Decide; add net")
    oddity_id = "oddity:net.py:2"
    why = "A local import: an ordinary idiom, nothing that can expire."
    results = [{"id": DECISION_ID, "grade": "PASS", "where": "DECISIONS.md"},
               {"id": oddity_id, "grade": "FAIL", "where": "", "worth_asking": False, "why_not": why}]
    fake.queue_text("Audit done.\n\n```json\n" + json.dumps({"results": results}) + "\n```\n")

    proc = audit(claude, cc_hooks_exe, "--write-report")

    assert proc.returncode == 0, proc.stdout + proc.stderr  # the one graded question passes
    [request] = fake.turns
    assert f"[{oddity_id}] (mined) Why does the hack comment at net.py:2 exist?" in request.text
    assert "Set it aside (\"worth_asking\": false" in request.text  # the rule reached the model
    report = (repo / "COLDSTART_AUDIT.md").read_text()
    assert "Score: 1/1  (weak: 0, fail: 0)" in report
    assert f"- Why does the hack comment at net.py:2 exist? (`import socket  # HACK`) — {why}" in report
    stored = newest_audit(repo)
    assert [item["id"] for item in stored["set_aside"]] == [oddity_id] and stored["agent"]["set_aside"] == 1
    assert fake.unscripted == 0 and fake.pending == 0
