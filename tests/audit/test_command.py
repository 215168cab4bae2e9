"""`cc-hooks audit` end to end in-process: exit codes, output shapes, the stored result, the report
file, and the checklist's `audit` check reading what was stored."""

from __future__ import annotations

import json
import os
import shutil
import sys

from cc_hooks.cli import main

from .conftest import git


def run(project, *args, capsys=None):
    code = main(["audit", "--project", str(project.root), *args])
    out = capsys.readouterr() if capsys else None
    return code, out


def check_audit(project):
    from cc_hooks.checks import run_check
    from cc_hooks.checks.context import make_context
    from cc_hooks.runtime import Deadline

    return run_check(make_context(project.root, Deadline(30)), "audit")


def stored(project) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted((project.state / "audits").glob("*.json"))]


def test_all_pass_exits_0_stores_the_result_and_passes_the_check(project, capsys):
    code, out = run(project, capsys=capsys)
    assert code == 0
    assert "## Cold-Start Audit — " in out.out and "Score: 4/4  (weak: 0, fail: 0)" in out.out
    assert "| Question | Grade | Where the answer lives | Remediation |" in out.out
    assert "**Lossy knowledge detected**: none" in out.out
    [result] = stored(project)
    assert result["head"] == project.git("rev-parse", "HEAD").strip() and result["all_pass"]
    assert set(result["record"]) == {"COLDSTART_QUESTIONS.md", "DECISIONS.md", "SYMPTOMS.md", "next_steps.md"}
    assert all(r["grade"] == "PASS" for r in result["results"])
    assert check_audit(project).status == "PASS"


def test_a_gap_exits_1_lists_the_lossy_knowledge_and_fails_the_check(project, capsys):
    code, out = run(project, "--question", "Why is the frobnicator pinned to version 3?", capsys=capsys)
    assert code == 1
    assert "**Lossy knowledge detected** (FAIL/WEAK items):\n- **FAIL** Why is the frobnicator pinned" in out.out
    result = check_audit(project)
    assert result.status == "FAIL"
    assert "audit question graded FAIL: Why is the frobnicator pinned to version 3?" in [f.message for f in result.findings]


def test_json_output(project, capsys):
    code, out = run(project, "--json", capsys=capsys)
    data = json.loads(out.out)
    assert code == 0 and data["score"] == {"PASS": 4, "WEAK": 0, "FAIL": 0, "total": 4}
    assert {r["kind"] for r in data["results"]} == {"symptom", "decision", "coldstart"}
    assert data["error"] is None and data["agent"] is None


def test_write_report_rewrites_coldstart_audit_md(project, capsys):
    run(project, "--write-report", capsys=capsys)
    first = project.read("COLDSTART_AUDIT.md")
    run(project, "--write-report", "--question", "Why is the frobnicator pinned to version 3?", capsys=capsys)
    second = project.read("COLDSTART_AUDIT.md")
    assert first.count("## Cold-Start Audit") == second.count("## Cold-Start Audit") == 1  # rewritten, not appended
    assert "Score: 4/4" in first and "Score: 4/5  (weak: 0, fail: 1)" in second
    project.commit("Add the audit report")
    assert run(project, capsys=capsys)[0] == 0  # the report itself is neither a question nor a claim source


def test_the_check_fails_once_the_record_changes_after_the_audit(project, capsys):
    run(project, capsys=capsys)
    assert check_audit(project).status == "PASS"
    project.write("DECISIONS.md", project.read("DECISIONS.md") + "\n")  # uncommitted edit
    result = check_audit(project)
    assert result.status == "FAIL" and "the record changed after the newest audit (DECISIONS.md)" in result.findings[-1].message
    project.commit("Touch the ledger")
    assert check_audit(project).status == "FAIL"  # committed: still newer than the audit
    run(project, capsys=capsys)
    assert check_audit(project).status == "PASS"


def test_a_commit_that_leaves_the_record_alone_keeps_the_audit_valid(project, capsys):
    run(project, capsys=capsys)
    project.write("README.md", "# calc\n\nAdds numbers, fast.\n")
    project.commit("Reword the README")
    assert check_audit(project).status == "PASS"


def test_could_not_run_exits_2(tmp_path, capsys):
    assert main(["audit", "--project", str(tmp_path)]) == 2
    assert "not a git repository" in capsys.readouterr().err
    git(tmp_path, "init", "-q", "-b", "main")
    assert main(["audit", "--project", str(tmp_path)]) == 2
    assert "no commits yet" in capsys.readouterr().err


def test_agent_without_a_cli_exits_2(project, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PATH", os.pathsep.join([str(tmp_path), os.path.dirname(shutil.which("git"))]))
    code, out = run(project, "--agent", capsys=capsys)
    assert code == 2 and "not on PATH" in out.err
    assert not (project.state / "audits").exists()


MALFORMED = """#!{python}
import json
print(json.dumps({{"type": "result", "subtype": "success", "is_error": False, "result": "All good, trust me."}}))
"""


def test_a_rejected_agent_answer_exits_2_and_is_stored_as_an_error_never_a_pass(project, tmp_path, capsys):
    run(project, capsys=capsys)
    assert check_audit(project).status == "PASS"
    claude = tmp_path / "claude"
    claude.write_text(MALFORMED.format(python=sys.executable))
    claude.chmod(0o755)
    code, out = run(project, "--agent", "--claude", str(claude), "--json", capsys=capsys)
    assert code == 2 and "malformed" in out.err and "nothing was stored as PASS" in out.err
    assert json.loads(out.out)["error"].startswith("agent audit rejected: the agent's answer is malformed")
    newest = stored(project)[-1]
    assert newest["error"].startswith("agent audit rejected") and newest["results"] == [] and not newest["all_pass"]
    result = check_audit(project)
    assert result.status == "FAIL" and "could not run" in result.summary


def test_an_empty_record_is_not_a_pass(tmp_path, capsys):
    git(tmp_path, "init", "-q", "-b", "main")
    (tmp_path / "a.txt").write_text("a\n")
    git(tmp_path, "add", "a.txt")
    git(tmp_path, "-c", "user.name=T", "-c", "user.email=t@e", "commit", "-qm", "init")
    assert main(["audit", "--project", str(tmp_path)]) == 1
    assert "an empty audit is not a PASS" in capsys.readouterr().out


def test_rich_output_on_a_terminal(project, capsys):
    from rich.console import Console

    from cc_hooks.audit.report import print_rich

    from .conftest import audit

    console = Console(record=True, width=160, force_terminal=True)
    print_rich(audit(project, ["Why is the frobnicator pinned to version 3?"]), console)
    text = console.export_text()
    assert "Cold-Start Audit" in text and "Score: 4/5  (weak: 0, fail: 1)" in text
    assert "Where the answer lives" in text and "Lossy knowledge detected" in text and "frobnicator" in text


def test_a_new_symptom_trailer_after_the_audit_makes_it_stale(project, capsys):
    run(project, capsys=capsys)
    project.write("src/calc.py", "def add(a, b):\n    return int(a) + int(b)\n")
    sha = project.commit("Fix add() on strings\n\nSymptom: add('2', '3') returns '23'")
    result = check_audit(project)
    assert result.status == "FAIL" and f"commit {sha[:12]} has a Symptom: trailer" in result.findings[-1].message
    assert run(project, capsys=capsys)[0] == 1  # the re-audit asks about it: only a trailer, WEAK


def test_a_result_that_cannot_be_stored_is_said_and_exits_2(project, capsys):
    (project.root / ".git" / "cc-hooks").write_text("not a directory\n")
    code, out = run(project, capsys=capsys)
    assert code == 2 and "Score: 4/4" in out.out  # the report is still shown
    assert "could not be stored for `cc-hooks check`" in out.err
