"""The deterministic audit on real repositories, each rule both ways."""

from __future__ import annotations

from cc_hooks.audit.result import FAIL, PASS, STALE, UNCOMMITTED, UNTRACKED_HOME, WEAK

from .conftest import TODAY, audit, by_kind, one


def test_the_complete_project_passes(project):
    result = audit(project)
    assert result.all_pass and result.exit_code() == 0, [(g.question.text, g.grade, g.remediation) for g in result.gaps]
    symptom = one(result, "symptom")
    assert symptom.level == 1 and "guard tests/test_calc.py::test_add" in symptom.where
    assert result.head == project.git("rev-parse", "HEAD").strip()


# --- symptoms ---------------------------------------------------------------------------


def test_a_full_symptom_entry_passes_and_an_incomplete_one_fails(project):
    assert one(audit(project), "symptom").grade == PASS
    text = project.read("SYMPTOMS.md")
    text = text.replace("- **Discriminator**: add(2, 0) == 2 but add(2, 3) == -1.\n", "")
    text = text.split("**Ruled out**")[0]
    project.write("SYMPTOMS.md", text)
    project.commit("Lose the discriminator")
    symptom = one(audit(project), "symptom")
    assert symptom.grade == FAIL
    assert "**Discriminator**" in symptom.remediation and "**Ruled out**" in symptom.remediation


def test_a_fix_known_only_from_its_trailer_is_weak_until_indexed(project):
    project.write("src/calc.py", "def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n")
    sha = project.commit("Fix mul rounding\n\nSymptom: mul(2, 0.5) returns 0", "src/calc.py")
    trailer = one(audit(project), "trailer")
    assert trailer.grade == WEAK and trailer.level == 4
    assert "trailer of " + sha[:12] in trailer.where and "## Symptom: mul(2, 0.5) returns 0" in trailer.remediation
    assert "new cause of" not in trailer.remediation  # no entry looks like it

    project.write("SYMPTOMS.md", project.read("SYMPTOMS.md") + f"""
## Symptom: mul(2, 0.5) returns 0

### Cause 1: mul() truncated to int — fixed in {sha[:10]}
- **Mechanism**: int() on the product.
- **Discriminator**: mul(2, 2) == 4 but mul(2, 0.5) == 0.
- **Fix**: drop int() ({sha[:10]})
- **Guard**: none — the suite has no float test yet

**Ruled out**: none
""")
    project.commit("Record the mul fix")
    result = audit(project)
    assert by_kind(result, "trailer") == []
    assert [g.grade for g in by_kind(result, "symptom")] == [PASS, PASS]


# --- the untracked-home rule -------------------------------------------------------------

PIN = "Why is the frobnicator pinned to version 3?"
ANSWER = "# Notes\n\n## Frobnicator\nThe frobnicator is pinned to version 3 because version 4 drops the legacy socket.\n"


def test_an_answer_only_in_an_ignored_claude_md_is_flagged_untracked_home(project):
    project.write("CLAUDE.md", ANSWER)  # gitignored
    caller = one(audit(project, [PIN]), "caller")
    assert caller.grade == WEAK and caller.flags == [UNTRACKED_HOME]
    assert "CLAUDE.md" in caller.where and "tracked echo" in caller.remediation


def test_the_same_answer_in_a_tracked_doc_passes(project):
    project.write("CLAUDE.md", ANSWER)
    project.write("docs/frobnicator.md", ANSWER)
    project.commit("Echo the pin in a tracked doc")
    caller = one(audit(project, [PIN]), "caller")
    assert caller.grade == PASS and caller.flags == [] and caller.where == "docs/frobnicator.md#frobnicator"


def test_a_question_nobody_answers_fails_and_git_log_only_is_weak(project):
    assert one(audit(project, [PIN]), "caller").grade == FAIL
    project.write("pins.txt", "frob==3\n")
    project.commit("Pin the frobnicator to version 3\n\nVersion 4 of the frobnicator drops the legacy socket.")
    caller = one(audit(project, [PIN]), "caller")
    assert caller.grade == WEAK and caller.level == 4 and caller.where.startswith("commit ")


def test_an_answer_only_in_an_uncommitted_file_is_flagged(project):
    project.write("docs/frobnicator.md", ANSWER)  # written, never committed
    caller = one(audit(project, [PIN]), "caller")
    assert caller.grade == WEAK and caller.flags == [UNCOMMITTED]


def test_a_questions_file_pointer_into_an_ignored_file(project):
    project.write("COLDSTART_QUESTIONS.md", project.read("COLDSTART_QUESTIONS.md") + f"- {PIN} → CLAUDE.md\n")
    project.commit("Ask about the pin")
    missing = [g for g in by_kind(audit(project), "coldstart") if g.question.text == PIN][0]
    assert missing.grade == FAIL and missing.flags == [UNTRACKED_HOME]  # ignored and absent
    project.write("CLAUDE.md", ANSWER)
    present = [g for g in by_kind(audit(project), "coldstart") if g.question.text == PIN][0]
    assert present.grade == WEAK and present.flags == [UNTRACKED_HOME]  # ignored: at best WEAK


# --- pointers ------------------------------------------------------------------------------


def test_a_pointer_to_a_deleted_file_fails(project):
    project.write("docs/retry.md", "# Retry\n\nSeven retries.\n")
    project.write("COLDSTART_QUESTIONS.md", project.read("COLDSTART_QUESTIONS.md") + "- Why seven retries? → docs/retry.md\n")
    project.commit("Document retries")
    retry = [g for g in by_kind(audit(project), "coldstart") if "retries" in g.question.text][0]
    assert retry.grade == PASS and retry.where == "docs/retry.md"
    project.git("rm", "-q", "docs/retry.md")
    project.commit("Drop the retry doc")
    retry = [g for g in by_kind(audit(project), "coldstart") if "retries" in g.question.text][0]
    assert retry.grade == FAIL and "no such file at HEAD" in retry.where and "docs/retry.md" in retry.remediation


def test_a_guard_pointer_to_a_deleted_test_fails_the_symptom(project):
    project.git("rm", "-q", "tests/test_calc.py")
    project.commit("Drop the tests")
    symptom = one(audit(project), "symptom")
    assert symptom.grade == FAIL and "tests/test_calc.py::test_add" in symptom.remediation


def test_a_commit_pointer_alone_is_weak(project):
    project.write("COLDSTART_QUESTIONS.md", project.read("COLDSTART_QUESTIONS.md") + f"- What fixed add? → {project.fix[:10]}\n")
    project.commit("Point at the fix commit")
    fixed = [g for g in by_kind(audit(project), "coldstart") if "fixed add" in g.question.text][0]
    assert fixed.grade == WEAK and fixed.level == 4


# --- decisions and oddities ------------------------------------------------------------------


def test_a_decision_without_rejected_alternatives_fails(project):
    project.write("DECISIONS.md", project.read("DECISIONS.md") + f"""
## {TODAY} — Ship as a single module

**Decision**: one file.
**Context**: it is small.
**Consequences**: none.
""")
    project.commit("Decide the layout")
    grades = {g.question.text: g for g in by_kind(audit(project), "decision")}
    assert grades['Why "Keep integer-only arithmetic", and what was rejected?'].grade == PASS
    layout = grades['Why "Ship as a single module", and what was rejected?']
    assert layout.grade == FAIL and "Rejected alternatives" in layout.remediation


def test_oddities_explained_at_the_danger_point_pass(project):
    project.write("src/net.py", "RETRIES = 7  # workaround: the server drops the first six requests after a deploy\n")
    project.commit("Retry seven times")
    oddity = one(audit(project), "oddity")
    assert oddity.grade == PASS and oddity.level == 2 and oddity.where == "comment at src/net.py:1"


def test_an_unexplained_oddity_is_weak_with_a_telling_commit_and_fails_without(project):
    project.write("src/net.py", "RETRIES = 7  # HACK\n")
    project.commit("Retry seven times")
    oddity = one(audit(project), "oddity")
    assert oddity.grade == FAIL and "src/net.py:1" in oddity.remediation
    project.write("src/net.py", "RETRIES = 8  # HACK\n")
    project.commit("Retry eight times\n\nThe server drops the first seven requests after a deploy, so eight is the least that works.")
    oddity = one(audit(project), "oddity")
    assert oddity.grade == WEAK and "git blame" in oddity.where


# --- stale distractors ---------------------------------------------------------------------


def test_a_dashboard_claim_head_contradicts_is_found(project):
    assert by_kind(audit(project), STALE) == []  # the true claims stay out of the report
    text = project.read("next_steps.md").replace(
        "\n## QUEUED\n", "- Work is on branch `main`.\n- Landed the parser in `abcdef1234`.\n\n## QUEUED\n")
    project.write("next_steps.md", text)
    project.commit("Update the dashboard")
    stale = by_kind(audit(project), STALE)
    assert [s.question.source for s in stale] == ["next_steps.md:7"]  # the true line 6 is not reported
    assert stale[0].grade == FAIL and "abcdef1234" in stale[0].question.text and stale[0].flags == [STALE]


def test_a_queued_item_whose_work_landed_is_stale(project):
    project.write("src/calc.py", project.read("src/calc.py") + "\n\ndef test_negative():\n    assert add(-1, -2) == -3\n")
    project.commit("Add a regression test for negative numbers in add()")
    [stale] = by_kind(audit(project), STALE)
    assert "regression test for negative numbers" in stale.question.text and "landed" in stale.remediation


def test_docs_pointing_at_a_deleted_file_are_stale_but_machine_paths_are_not(project):
    project.write("docs/old.md", "# Old\n")
    project.write("docs/guide.md", "# Guide\n\nSettings live in `~/.claude/settings.json` and `.venv/`.\n\n"
                  "The retry policy is described in `docs/old.md`.\n")
    project.commit("Add the guide")
    assert by_kind(audit(project), STALE) == []
    project.git("rm", "-q", "docs/old.md")
    project.commit("Remove the old doc")
    [stale] = by_kind(audit(project), STALE)
    assert stale.question.source == "docs/guide.md:5" and "docs/old.md" in stale.remediation


def test_a_doc_saying_a_deleted_file_was_replaced_is_not_stale(project):
    project.write("setup.py", "from setuptools import setup\nsetup()\n")
    project.commit("Add setup.py")
    project.git("rm", "-q", "setup.py")
    project.write("pyproject.toml", "[project]\nname = 'x'\n")
    project.write("docs/development/build.md", "# Build\n\nThe project now uses `pyproject.toml` in place of `setup.py`.\n\n"
                  "`setup.py` was removed.\n\nThe version is read from `setup.py`.\n")
    project.commit("Move to pyproject.toml")
    stale = by_kind(audit(project), STALE)
    assert [s.question.source for s in stale] == ["docs/development/build.md:7"]  # only the line that says it is still there


# --- the ladder for free questions ---------------------------------------------------------

TWO_DIGIT = "Why does parse_date reject two-digit years?"


def test_a_free_question_is_answered_at_the_highest_rung_found(project):
    project.write("src/dates.py", "def parse_date(text):\n    # Two-digit years are rejected: 24 could mean 1924 or 2024.\n"
                  "    return text\n")
    project.commit("Add parse_date")
    comment = one(audit(project, [TWO_DIGIT]), "caller")
    assert comment.grade == PASS and comment.level == 2 and comment.where == "src/dates.py:2"
    project.write("tests/test_dates.py", "def test_parse_date_rejects_two_digit_years():\n    pass\n")
    project.commit("Guard parse_date")
    guard = one(audit(project, [TWO_DIGIT]), "caller")
    assert guard.grade == PASS and guard.level == 1 and guard.where == "tests/test_dates.py::test_parse_date_rejects_two_digit_years"


def test_a_question_without_searchable_words_fails_with_advice(project):
    caller = one(audit(project, ["Why is it so?"]), "caller")
    assert caller.grade == FAIL and "rephrase" in caller.remediation


def test_a_helper_in_a_test_file_is_not_a_guard(project):
    project.write("tests/helpers.py", "def make_dates():\n    return 'parse_date rejects two-digit years'\n")
    project.commit("Add a helper")
    assert one(audit(project, [TWO_DIGIT]), "caller").grade == FAIL


def test_an_oddity_is_explained_by_a_doc_only_when_the_doc_is_about_it(project):
    project.write("src/net.py", "import time\n\n\ndef wait():\n    time.sleep(0.5)\n")
    project.write("docs/net.md", "# Net\n\n`src/net.py` holds the client.\n")
    project.commit("Add the client")
    assert one(audit(project), "oddity").grade == FAIL  # the doc names the file, not the sleep
    project.write("docs/net.md", "# Net\n\n`src/net.py` holds the client.\n\n## Run under a time budget\n")
    project.commit("Add a heading two lines below")
    assert one(audit(project), "oddity").grade == FAIL  # "time" two lines away is about something else
    project.write("docs/net.md", "# Net\n\n`src/net.py` holds the client.\nIt must sleep half a second between calls: "
                  "the server rate-limits bursts.\n")
    project.commit("Explain the pause")
    oddity = one(audit(project), "oddity")
    assert oddity.grade == PASS and oddity.where == "docs/net.md:3 (about `src/net.py`)"


def test_a_record_file_a_clone_lacks_fails(project):
    assert by_kind(audit(project), "record") == []
    project.git("rm", "-q", "--cached", "DECISIONS.md")
    project.write(".gitignore", project.read(".gitignore") + "DECISIONS.md\n")
    project.commit("Ignore the decisions")
    project.git("rm", "-q", "--cached", "next_steps.md")
    project.git("commit", "-q", "-m", "Untrack the dashboard")  # the file stays in the work tree
    grades = {g.question.source: g for g in by_kind(audit(project), "record")}
    assert set(grades) == {"DECISIONS.md", "next_steps.md"}
    assert grades["DECISIONS.md"].grade == FAIL and grades["DECISIONS.md"].flags == [UNTRACKED_HOME]
    assert grades["next_steps.md"].grade == FAIL and grades["next_steps.md"].flags == [UNCOMMITTED]
    assert by_kind(audit(project), "decision") == []  # a clone has no decisions to ask about


def test_a_trailer_like_an_entry_is_pointed_at_that_entry(project):
    project.write("src/calc.py", "def add(a, b):\n    return int(a) + int(b)\n")
    sha = project.commit("Fix add() on strings\n\nSymptom: add('2', '3') returns '23'", "src/calc.py")
    trailer = one(audit(project), "trailer")
    assert trailer.grade == WEAK  # a look-alike entry does not index it
    assert f"new cause of SYMPTOMS.md#symptom-add2-3-returns--1, a `### Cause N: ... — fixed in {sha[:10]}`" in trailer.remediation


def test_a_plan_doc_item_whose_work_landed_is_stale(project):
    project.write("docs/plan.md", f"# Plan\n\n## Next steps\n- {TODAY} — Add a multiply function `mul()` to the calculator.\n")
    project.commit("Plan the multiply function")
    assert by_kind(audit(project), STALE) == []  # still pending: not a distractor
    project.write("src/calc.py", project.read("src/calc.py") + "\n\ndef mul(a, b):\n    return a * b\n")
    project.commit("Add a multiply function mul() to the calculator")
    [stale] = by_kind(audit(project), STALE)
    assert stale.question.source == "docs/plan.md:4" and "landed" in stale.remediation


def test_quoted_examples_in_docs_are_not_claims(project):
    project.write("docs/claims.md", '# Claims\n\nA claim can assert a git state ("branch `x` at `abc1234`", "merged into `main`").\n')
    project.commit("Document claims")
    assert by_kind(audit(project), STALE) == []
    project.write("docs/claims.md", "# Claims\n\nThe branch `x` is at `abc1234`.\n")
    project.commit("State a branch")
    [stale] = by_kind(audit(project), STALE)
    assert stale.question.source == "docs/claims.md:3"


def test_a_doc_citing_another_repositorys_commits_is_not_stale(project):
    project.write("docs/validation.md", "# Validation\n\nChecked against a fresh clone of encode/httpx at `ae1b9f66`.\n\n"
                  "The fix is `deadbeef12` upstream.\n")
    project.commit("Add the validation notes")
    assert by_kind(audit(project), STALE) == []


def test_templates_and_test_data_are_not_this_projects_record(project):
    plan = f"# Next steps\n\n## QUEUED\n- {TODAY} — Add a multiply function `mul()` to the calculator.\n"
    for rel in ("pkg/templates/next_steps.md", "tests/cases/plan.md", "tests/README.md"):
        project.write(rel, plan)
    project.commit("Add a template, a test case and the tests' README")
    project.write("src/calc.py", project.read("src/calc.py") + "\n\ndef mul(a, b):\n    return a * b\n")
    project.commit("Add a multiply function mul() to the calculator")
    stale = by_kind(audit(project), STALE)
    assert [s.question.source for s in stale] == ["tests/README.md:4"]  # a test directory's README is a doc
