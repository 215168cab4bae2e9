"""Each check PASSes on the healthy record repo and FAILs when its artifact is stripped or broken."""

from __future__ import annotations

import json
import os
import shutil
import time

import pytest

from cc_hooks.checks import CHECK_IDS, COULD_NOT_CHECK, FAIL, PASS, exit_code, run_checks
from cc_hooks.checks.context import make_context
from cc_hooks.runtime import Deadline

from .conftest import TODAY, check

REPO_CHECKS = [c for c in CHECK_IDS if c != "session"]


@pytest.mark.parametrize("check_id", REPO_CHECKS)
def test_healthy_repo_passes(record_repo, check_id):
    result = check(record_repo, check_id)
    assert result.status == PASS, (result.summary, [str(f) for f in result.findings])


def test_session_without_a_transcript_could_not_check(record_repo):
    result = check(record_repo, "session")
    assert result.status == COULD_NOT_CHECK and "transcript" in result.summary


def messages(result) -> str:
    return "\n".join(str(f) for f in result.findings)


# --- ledgers -------------------------------------------------------------------


def test_ledgers_missing_file_fails(record_repo):
    (record_repo.root / "DECISIONS.md").unlink()
    result = check(record_repo, "ledgers")
    assert result.status == FAIL and "DECISIONS.md" in messages(result)


def test_ledgers_untracked_fails(record_repo):
    record_repo.git("rm", "-q", "--cached", "SYMPTOMS.md")
    result = check(record_repo, "ledgers")
    assert result.status == FAIL and "not tracked" in messages(result)


def test_ledgers_edited_entry_fails_but_appending_passes(record_repo):
    text = record_repo.read("DECISIONS.md")
    record_repo.write("DECISIONS.md", text + f"\n## {TODAY} — Also keep names short\n\n**Decision**: short names.\n"
                      "**Context**: readability.\n**Rejected alternatives**:\n- long names — rejected because noise\n"
                      "**Consequences**: none.\n")
    assert check(record_repo, "ledgers").status == PASS
    record_repo.write("DECISIONS.md", text.replace("accepts integers only", "accepts floats too"))
    result = check(record_repo, "ledgers")
    assert result.status == FAIL and "DECISIONS.md" in messages(result) and "append-only" in messages(result)


def test_ledgers_invalid_entry_fails(record_repo):
    record_repo.write("SYMPTOMS.md", record_repo.read("SYMPTOMS.md").replace("- **Mechanism**:", "- **Notes**:"))
    result = check(record_repo, "ledgers")
    assert result.status == FAIL and "Mechanism" in messages(result)


def test_ledgers_append_only_since_the_checkpoint(record_repo):
    """An edit committed after the checkpoint is still an edit of history."""
    write_checkpoint(record_repo)
    record_repo.write("DECISIONS.md", record_repo.read("DECISIONS.md").replace("accepts integers only", "accepts floats"))
    record_repo.commit("Rewrite a decision", "DECISIONS.md")
    result = check(record_repo, "ledgers")
    assert result.status == FAIL and "since" in messages(result)


def write_checkpoint(repo, head: str | None = None, session: str = "s1") -> None:
    from cc_hooks.checkpoint import write_checkpoint as write

    write(repo.state, session, "p-1", {"head": head or repo.git("rev-parse", "HEAD").strip(), "compacted": True})


# --- tracked-homes -------------------------------------------------------------


def test_ignored_claude_md_without_echo_fails_and_a_tracked_echo_fixes_it(record_repo):
    record_repo.write(".gitignore", record_repo.read(".gitignore") + "CLAUDE.md\n")
    record_repo.git("rm", "-q", "--cached", "CLAUDE.md")
    result = check(record_repo, "tracked-homes")
    assert result.status == FAIL and "CLAUDE.md" in messages(result)
    record_repo.write("README.md", "Dashboard: file next_steps.md\n")
    record_repo.commit("Echo the dashboard declaration", "README.md", ".gitignore")
    assert check(record_repo, "tracked-homes").status == PASS


def test_ignored_record_file_fails(record_repo):
    record_repo.write(".gitignore", record_repo.read(".gitignore") + "COLDSTART_QUESTIONS.md\n")
    record_repo.git("rm", "-q", "--cached", "COLDSTART_QUESTIONS.md")
    result = check(record_repo, "tracked-homes")
    assert result.status == FAIL and "gitignore trap" in messages(result)


def test_record_pointing_into_an_ignored_file_fails(record_repo):
    record_repo.write("local/findings.md", "the real root cause\n")
    record_repo.write("next_steps.md", record_repo.read("next_steps.md") + "- Details in `local/findings.md`.\n")
    result = check(record_repo, "tracked-homes")
    assert result.status == FAIL and "local/findings.md" in messages(result) and "gitignored" in messages(result)


def test_pointer_scan_is_cached_by_content_and_redone_when_the_file_changes(record_repo):
    record_repo.write("local/findings.md", "the real root cause\n")
    record_repo.write("next_steps.md", record_repo.read("next_steps.md") + "- Details in `local/findings.md`.\n")
    (record_repo.root / ".git" / "cc-hooks").mkdir(exist_ok=True)
    first = check(record_repo, "tracked-homes")
    cache = list((record_repo.root / ".git" / "cc-hooks" / "cache").glob("paths-*.json"))
    assert cache and first.status == FAIL
    again = check(record_repo, "tracked-homes")
    assert (again.status, messages(again)) == (first.status, messages(first))
    record_repo.write("next_steps.md", record_repo.read("next_steps.md").replace("- Details in `local/findings.md`.\n", ""))
    assert check(record_repo, "tracked-homes").status == PASS


# --- questions -----------------------------------------------------------------


def test_question_pointing_nowhere_fails(record_repo):
    record_repo.write("COLDSTART_QUESTIONS.md", record_repo.read("COLDSTART_QUESTIONS.md") + "- Where are the docs? → docs/missing.md\n")
    result = check(record_repo, "questions")
    assert result.status == FAIL and "docs/missing.md" in messages(result)


def test_weak_question_counts_as_a_gap(record_repo):
    record_repo.write("COLDSTART_QUESTIONS.md", record_repo.read("COLDSTART_QUESTIONS.md") + f"- When was add fixed? → {record_repo.fix[:10]}\n")
    result = check(record_repo, "questions")
    assert result.status == FAIL and "WEAK" in messages(result)


def test_missing_questions_file_fails(record_repo):
    (record_repo.root / "COLDSTART_QUESTIONS.md").unlink()
    assert check(record_repo, "questions").status == FAIL


# --- stale-claims ----------------------------------------------------------------


def test_touched_doc_naming_a_missing_file_fails(record_repo):
    record_repo.write("docs/guide.md", "# Guide\n\nThe parser lives in `src/parser.py`.\n")
    record_repo.commit("Add a guide", "docs/guide.md")
    write_checkpoint(record_repo, head=record_repo.git("rev-parse", "HEAD~1").strip())
    result = check(record_repo, "stale-claims")
    assert result.status == FAIL and "src/parser.py" in messages(result) and "docs/guide.md" in messages(result)
    record_repo.write("docs/guide.md", "# Guide\n\nThe calculator lives in `src/calc.py`.\n")
    assert check(record_repo, "stale-claims").status == PASS


def test_dashboard_path_claim_contradicted_is_a_stale_claim(record_repo):
    record_repo.write("next_steps.md", record_repo.read("next_steps.md").replace(
        "- Work is on branch `main`.", "- Work is on branch `main`.\n- The notes are in `docs/notes.md`."))
    result = check(record_repo, "stale-claims")
    assert result.status == FAIL and "docs/notes.md" in messages(result)


# --- dashboard -------------------------------------------------------------------


def test_dashboard_older_than_the_last_work_commit_fails(record_repo):
    record_repo.write("next_steps.md", record_repo.read("next_steps.md").replace(f"CURRENT STATE — {TODAY}", "CURRENT STATE — 2020-01-01"))
    record_repo.commit("Backdate the state", "next_steps.md")
    result = check(record_repo, "dashboard")
    assert result.status == FAIL and "2020-01-01" in messages(result)


def test_dashboard_citing_a_missing_sha_fails(record_repo):
    record_repo.write("next_steps.md", record_repo.read("next_steps.md").replace(record_repo.fix[:10], "0badc0de12"))
    result = check(record_repo, "dashboard")
    assert result.status == FAIL and "0badc0de12" in messages(result)


def test_dashboard_missing_fails(record_repo):
    (record_repo.root / "next_steps.md").unlink()
    assert check(record_repo, "dashboard").status == FAIL


def test_dashboard_undated_state_fails(record_repo):
    record_repo.write("next_steps.md", record_repo.read("next_steps.md").replace(f"CURRENT STATE — {TODAY}", "CURRENT STATE"))
    result = check(record_repo, "dashboard")
    assert result.status == FAIL and "dated" in messages(result)


# --- trailers --------------------------------------------------------------------


def test_fix_without_trailer_fails_and_a_checkpoint_after_it_passes(record_repo):
    record_repo.write("src/calc.py", "def add(a, b):\n    return int(a) + int(b)\n")
    sha = record_repo.commit("fix: coerce inputs", "src/calc.py")
    result = check(record_repo, "trailers")
    assert result.status == FAIL and sha[:12] in messages(result)
    write_checkpoint(record_repo)
    assert check(record_repo, "trailers").status == PASS


def test_non_fix_commit_needs_no_trailer(record_repo):
    record_repo.write("src/extra.py", "X = 1\n")
    record_repo.commit("Add a constant", "src/extra.py")
    assert check(record_repo, "trailers").status == PASS


# --- committed -------------------------------------------------------------------


def test_uncommitted_record_change_fails(record_repo):
    record_repo.write("next_steps.md", record_repo.read("next_steps.md") + "- one more\n")
    result = check(record_repo, "committed")
    assert result.status == FAIL and "next_steps.md" in messages(result) and "modified" in messages(result)


def test_unpushed_commit_fails_and_pushing_fixes_it(record_repo):
    record_repo.write("src/extra.py", "X = 1\n")
    record_repo.commit("Add a constant", "src/extra.py")
    result = check(record_repo, "committed")
    assert result.status == FAIL and "ahead of `origin/main`" in messages(result)
    record_repo.push()
    assert check(record_repo, "committed").status == PASS


def test_untracked_record_file_fails(record_repo):
    record_repo.git("rm", "-q", "--cached", "next_steps.md")
    record_repo.git("commit", "-q", "-m", "Untrack the dashboard")
    record_repo.push()
    result = check(record_repo, "committed")
    assert result.status == FAIL and "untracked" in messages(result)


# --- audit ------------------------------------------------------------------------


def test_no_audit_fails(record_repo):
    shutil.rmtree(record_repo.state / "audits")
    result = check(record_repo, "audit")
    assert result.status == FAIL and "no cold-start audit has been run (cc-hooks audit)" in result.summary
    assert not any(f.preserve for f in result.findings)


def test_weak_audit_fails(record_repo):
    shutil.rmtree(record_repo.state / "audits")
    record_repo.write_audit(("PASS", "WEAK"))
    result = check(record_repo, "audit")
    assert result.status == FAIL and "WEAK" in messages(result)


def test_audit_older_than_the_record_fails(record_repo):
    shutil.rmtree(record_repo.state / "audits")
    record_repo.write_audit(created=time.time() - 3600)
    record_repo.write("DECISIONS.md", record_repo.read("DECISIONS.md") + "\n")
    record_repo.commit("Touch the ledger", "DECISIONS.md")
    result = check(record_repo, "audit")
    assert result.status == FAIL and "re-run" in messages(result)


# --- the runner ---------------------------------------------------------------------


def test_expired_budget_is_could_not_check_never_pass(record_repo):
    ctx = make_context(record_repo.root, Deadline(0.0))
    results = run_checks(ctx)
    assert {r.status for r in results} == {COULD_NOT_CHECK}
    assert all(r.summary == "time budget" for r in results)
    assert exit_code(results) == 2


def test_git_missing_is_could_not_check(record_repo, tmp_path, monkeypatch):
    empty = tmp_path / "nobin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    # Named, not derived from CHECK_IDS: the guard of a SYMPTOMS.md entry must fail when the
    # guards check turns a git failure into FAIL, even if the check is dropped from the list.
    ids = ["ledgers", "tracked-homes", "questions", "stale-claims", "dashboard", "trailers", "guards", "committed"]
    results = run_checks(make_context(record_repo.root, Deadline(10)), ids)
    assert all(r.status == COULD_NOT_CHECK for r in results), [(r.id, r.status, r.summary) for r in results]


def test_the_commit_that_adopts_the_ledger_needs_no_trailer(tmp_path):
    from checks.conftest import git as run

    repo = tmp_path / "r"
    repo.mkdir()
    run(repo, "init", "-q", "-b", "main")
    for key, value in (("user.name", "T"), ("user.email", "t@example.com"), ("commit.gpgsign", "false")):
        run(repo, "config", key, value)
    (repo / "a.py").write_text("A = 1\n")
    run(repo, "add", "-A")
    run(repo, "commit", "-q", "-m", "fix: an old fix from before the record")
    (repo / "SYMPTOMS.md").write_text("# Symptom Index\n\nAppend-only.\n")
    run(repo, "add", "-A")
    run(repo, "commit", "-q", "-m", "Adopt cc-hooks: add the ledgers")  # touches SYMPTOMS.md, no trailer
    holder = type("Repo", (), {"root": repo})
    result = check(holder, "trailers")
    assert result.status == PASS and "since SYMPTOMS.md was added" in result.summary
    (repo / "a.py").write_text("A = 2\n")
    run(repo, "add", "-A")
    run(repo, "commit", "-q", "-m", "fix: a fix after adoption")
    assert check(holder, "trailers").status == FAIL


def test_a_fix_commit_recorded_under_record_gaps_found_is_not_a_finding(record_repo):
    from cc_hooks.checks import run_check
    from cc_hooks.checks.context import make_context
    from cc_hooks.runtime import Deadline

    ledger = record_repo.root / "SYMPTOMS.md"
    ledger.write_text(ledger.read_text() + "\n## Symptom: tidy\n")
    sha = record_repo.commit("SYMPTOMS.md: a tidy-up with no trailer", "SYMPTOMS.md")
    result = run_check(make_context(record_repo.root, Deadline(30)), "trailers")
    assert any(f.commit == sha for f in result.findings)
    ledger.write_text(ledger.read_text() + f"\n## Record gaps found\n- `{sha[:9]}` records shas only; no fix, no trailer.\n")
    record_repo.commit("SYMPTOMS.md: record the gap\n\nSymptom: a record-keeping commit is reported as a fix without a trailer", "SYMPTOMS.md")
    result = run_check(make_context(record_repo.root, Deadline(30)), "trailers")
    assert not any(f.commit == sha for f in result.findings)
