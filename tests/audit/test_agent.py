"""The agent half: its answer is validated strictly, merged with the stricter grade winning,
and an agent that hangs is stopped at the timeout."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from cc_hooks.audit.agent import (AgentError, agent_argv, build_prompt, find_claude, merge, parse_answer, parse_output,
                                  run_agent, write_history)
from cc_hooks.audit.result import FAIL, PASS, UNTRACKED_HOME, WEAK, Graded, Question

SENT = ["symptom:a", "coldstart:3"]


def block(results, extra=None) -> str:
    data = {"results": results, **({"extra": extra} if extra is not None else {})}
    return f"Here is the audit.\n\n```json\n{json.dumps(data)}\n```\n"


def good(**overrides):
    results = [{"id": "symptom:a", "grade": "PASS", "where": "SYMPTOMS.md#a"},
               {"id": "coldstart:3", "grade": "weak", "where": "commit abc", "remediation": "add an entry"}]
    for item in results:
        item.update(overrides.get(item["id"], {}))
    return results


def test_a_well_formed_answer_is_accepted():
    answer = parse_answer(block(good(), [{"question": "Why sleep(2)?", "grade": "FAIL", "where": ""}]), SENT)
    assert answer.answers["symptom:a"]["grade"] == PASS and answer.answers["coldstart:3"]["grade"] == WEAK
    assert answer.extra == [{"question": "Why sleep(2)?", "grade": "FAIL", "where": "", "remediation": "", "untracked_home": False}]


@pytest.mark.parametrize("text, reason", [
    ("I could not finish.", "no ```json block"),
    ("```json\n{\"results\": [\n```", "does not parse"),
    (block([{"id": "symptom:a", "grade": "PASS"}]), "1 question(s) not graded (coldstart:3)"),
    (block(good(**{"symptom:a": {"grade": "GOOD"}})), "grade 'GOOD'"),
    (block([*good(), {"id": "symptom:a", "grade": "FAIL"}]), "graded twice"),
    (block([*good(), {"id": "nope", "grade": "FAIL"}]), "names no question id"),
    ("```json\n[1, 2]\n```", 'expected {"results"'),
    (block(good(), [{"grade": "PASS"}]), "extra item 1 has no question"),
])
def test_a_malformed_answer_is_rejected_with_the_reason(text, reason):
    with pytest.raises(AgentError, match="malformed") as info:
        parse_answer(text, SENT)
    assert reason in str(info.value)


def test_cli_errors_are_rejected():
    with pytest.raises(AgentError, match="claude exited 1: boom"):
        parse_output("", "boom\n", 1, SENT)
    with pytest.raises(AgentError, match="reported an error"):
        parse_output(json.dumps({"type": "result", "subtype": "error_max_turns", "is_error": True}), "", 0, SENT)
    with pytest.raises(AgentError, match="no JSON result"):
        parse_output("plain text\n", "", 0, SENT)
    ok = parse_output(json.dumps({"type": "result", "subtype": "success", "result": block(good())}), "", 0, SENT)
    assert set(ok.answers) == set(SENT)


def graded(qid: str, grade: str, where: str = "x") -> Graded:
    return Graded(Question(qid, f"question {qid}", "coldstart"), grade, where, deterministic=grade)


def test_merge_keeps_the_stricter_grade_and_adds_the_agents_questions():
    answer = parse_answer(block(good(**{"symptom:a": {"grade": "FAIL", "remediation": "write it"}}),
                                [{"question": "Why sleep(2)?", "grade": "PASS", "untracked_home": True}]), SENT)
    merged, aside = merge([graded("symptom:a", PASS), graded("coldstart:3", FAIL), graded("other", PASS)], answer)
    assert aside == []
    grades = {g.question.id: g for g in merged}
    assert grades["symptom:a"].grade == FAIL and grades["symptom:a"].deterministic == PASS  # the agent is stricter
    assert "write it" in grades["symptom:a"].remediation
    assert grades["coldstart:3"].grade == FAIL  # the program is stricter than the agent's WEAK
    assert grades["other"].grade == PASS and grades["other"].agent is None  # not sent
    extra = grades["agent:1"]
    assert extra.grade == WEAK and extra.flags == [UNTRACKED_HOME]  # an ignored home is at best WEAK


def test_an_untracked_home_answer_caps_a_pass_at_weak():
    answer = parse_answer(block(good(**{"symptom:a": {"untracked_home": True}})), SENT)
    [item, _], _ = merge([graded("symptom:a", PASS), graded("coldstart:3", PASS)], answer)
    assert item.grade == WEAK and UNTRACKED_HOME in item.flags


def test_the_prompt_lists_every_question_with_its_id_and_the_absent_paths():
    questions = [Question("symptom:a", "What causes A?", "symptom"), Question("caller:1", "Why B?", "caller")]
    prompt = build_prompt(questions, "0123456789abcdef", ["CLAUDE.md", ".claude/"])
    assert "- [symptom:a] What causes A?" in prompt and "- [caller:1] Why B?" in prompt
    assert "`CLAUDE.md`, `.claude/`" in prompt and "0123456789ab" in prompt and "```json" in prompt


MINED_SENT = ["oddity:src/net.py:3", "symptom:a"]


def test_a_mined_question_the_agent_judges_not_worth_asking_is_set_aside_with_its_reason_and_the_records_are_kept():
    why = "The comment says the local import breaks an import cycle: an ordinary idiom."
    answer = parse_answer(block([{"id": "oddity:src/net.py:3", "grade": "FAIL", "worth_asking": False, "why_not": why},
                                 {"id": "symptom:a", "grade": "FAIL", "worth_asking": False, "why_not": "Asked before."}]), MINED_SENT)
    oddity = Graded(Question("oddity:src/net.py:3", "Why does the hack comment at src/net.py:3 exist?", "oddity"), FAIL, "", deterministic=FAIL)
    merged, aside = merge([oddity, graded("symptom:a", PASS)], answer)
    assert aside == [{"id": "oddity:src/net.py:3", "question": "Why does the hack comment at src/net.py:3 exist?", "why_not": why}]
    assert [(g.question.id, g.grade) for g in merged] == [("symptom:a", FAIL)]  # the record's own question is always graded


@pytest.mark.parametrize("item, reason", [
    ({"worth_asking": "no", "why_not": "idiom"}, "worth_asking 'no' (expected true or false)"),
    ({"worth_asking": False}, "sets a question aside without saying why"),
    ({"worth_asking": False, "why_not": "  "}, "sets a question aside without saying why"),
])
def test_a_question_set_aside_without_a_reason_or_with_an_unclear_flag_is_rejected(item, reason):
    with pytest.raises(AgentError, match="malformed") as info:
        parse_answer(block([{"id": "oddity:src/net.py:3", "grade": "FAIL", **item}, {"id": "symptom:a", "grade": "PASS"}]), MINED_SENT)
    assert reason in str(info.value)


def test_the_prompt_marks_mined_questions_and_says_when_one_is_not_worth_asking_only_when_one_is_sent():
    record = [Question("symptom:a", "What causes A?", "symptom")]
    mined = [Question("oddity:src/net.py:3", "Why does the hack comment at src/net.py:3 exist?", "oddity")]
    assert "(mined)" not in build_prompt(record, "0" * 40, []) and "worth_asking\": false" not in build_prompt(record, "0" * 40, [])
    prompt = build_prompt(record + mined, "0" * 40, [])
    assert "- [symptom:a] What causes A?" in prompt and "- [oddity:src/net.py:3] (mined) Why does the hack" in prompt
    assert "Set it aside (\"worth_asking\": false" in prompt and "When in doubt, keep it" in prompt


def test_the_report_lists_what_the_agent_set_aside_with_each_reason():
    from rich.console import Console

    from cc_hooks.audit.report import print_rich, render_json, render_markdown
    from cc_hooks.audit.result import AuditResult

    result = AuditResult("0" * 40, "proj", [graded("symptom:a", PASS)], agent={"cli": "claude", "questions_sent": 2},
                         set_aside=[{"id": "oddity:x.py:1", "question": "Why does the hack comment at x.py:1 exist?",
                                     "why_not": "A test's own double."}])
    markdown = render_markdown(result)
    assert "**Set aside by the agent** (1 mined question(s) it judged not worth asking; not graded):" in markdown
    assert "- Why does the hack comment at x.py:1 exist? — A test's own double." in markdown
    assert "Score: 1/1" in markdown  # not graded: not in the score
    assert json.loads(render_json(result))["set_aside"] == result.set_aside
    console = Console(record=True, width=200)
    print_rich(result, console)
    assert "Why does the hack comment at x.py:1 exist? — A test's own double." in console.export_text()


def test_find_claude(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(AgentError, match="not on PATH"):
        find_claude()
    with pytest.raises(AgentError, match="not an executable"):
        find_claude(str(tmp_path / "missing"))
    exe = tmp_path / "claude"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    assert find_claude() == exe and find_claude(str(exe)) == exe


def test_an_agent_that_hangs_is_stopped_at_the_timeout(tmp_path, git_repo):
    exe = tmp_path / "claude"
    exe.write_text(f"#!{sys.executable}\nimport time\ntime.sleep(60)\n")
    exe.chmod(0o755)
    with pytest.raises(AgentError, match=r"did not answer within 0.5s"):
        run_agent(exe, git_repo, [Question("q", "Why?", "caller")], "0" * 40, [], timeout=0.5)


def test_an_agent_pointer_that_is_not_in_the_clone_is_a_fail(project):
    from cc_hooks.audit.agent import check_pointers

    answer = parse_answer(block(good(**{"symptom:a": {"where": "SYMPTOMS.md#symptom-add2-3-returns--1"},
                                        "coldstart:3": {"where": "docs/gone.md", "grade": "PASS"}}),
                                [{"question": "Why?", "grade": "PASS", "where": "CLAUDE.md"},
                                 {"question": "Where?", "grade": "PASS", "where": "the README, second paragraph"}]), SENT)
    check_pointers(answer, project.root)
    assert answer.answers["symptom:a"]["grade"] == PASS  # resolves at HEAD
    gone = answer.answers["coldstart:3"]
    assert gone["grade"] == FAIL and "not in the fresh clone: no such file at HEAD" in gone["where"]
    assert [e["grade"] for e in answer.extra] == [FAIL, PASS]  # an ignored file is not in a clone; free text is kept


ASIDE_CLAUDE = """#!{python}
import json, re, sys
ids = re.findall(r"^- \\[([^\\]]+)\\]( \\(mined\\))?", sys.argv[-1], re.M)
results = [{{"id": i, "grade": "PASS", "where": "", "worth_asking": not mined, "why_not": "an ordinary idiom" if mined else ""}}
           for i, mined in ids]
text = "```json\\n" + json.dumps({{"results": results}}) + "\\n```"
print(json.dumps({{"type": "result", "subtype": "success", "is_error": False, "result": text}}))
"""


def test_an_audit_with_the_agent_sets_aside_the_mined_questions_it_judges_not_worth_asking(project, tmp_path):
    from .conftest import audit

    project.write("src/net.py", "import os\n\n\ndef connect():\n    import socket  # HACK\n    return socket\n")
    project.commit("Add net", "src/net.py")
    claude = tmp_path / "claude"
    claude.write_text(ASIDE_CLAUDE.format(python=sys.executable))
    claude.chmod(0o755)
    without = audit(project)
    assert "oddity:src/net.py:5" in {g.question.id for g in without.graded}  # the program asks it
    result = audit(project, claude=claude)
    assert [item["id"] for item in result.set_aside] == ["oddity:src/net.py:5"]
    assert result.set_aside[0]["why_not"] == "an ordinary idiom" and result.agent["set_aside"] == 1
    assert "oddity:src/net.py:5" not in {g.question.id for g in result.graded}
    assert {g.question.kind for g in result.graded} >= {"symptom", "coldstart"}  # the record's questions are all still graded
    assert len(result.graded) == len(without.graded) - 1


ECHO_CLAUDE = """#!{python}
import json, os, re, sys
prompt = sys.argv[-1]
folder = sys.argv[sys.argv.index("--add-dir") + 1]
with open(os.path.join(folder, "git-log.txt"), encoding="utf-8") as handle:
    history = handle.read()
with open({record!r}, "w") as handle:
    json.dump({{"argv": sys.argv[1:], "cwd": os.getcwd(), "marker": os.environ.get("AUDIT_TEST_MARKER"), "history": history}}, handle)
ids = re.findall(r"^- \\[([^\\]]+)\\]", prompt, re.M)
results = [{{"id": i, "grade": "PASS", "where": ""}} for i in ids]
text = "```json\\n" + json.dumps({{"results": results}}) + "\\n```"
print(json.dumps({{"type": "result", "subtype": "success", "is_error": False, "result": text}}))
"""


def test_the_cli_contract_and_the_question_limit(project, tmp_path, monkeypatch):
    from .conftest import audit

    record = tmp_path / "argv.json"
    claude = tmp_path / "claude"
    claude.write_text(ECHO_CLAUDE.format(python=sys.executable, record=str(record)))
    claude.chmod(0o755)
    monkeypatch.setenv("AUDIT_TEST_MARKER", "passed-through")
    result = audit(project, ["Why A?", "Why B?", "Why C?"], claude=claude, max_questions=3)
    seen = json.loads(record.read_text())
    argv = seen["argv"]
    assert argv[:3] == ["-p", "--output-format", "json"] and argv[-2] == "--"
    assert json.loads(argv[argv.index("--settings") + 1]) == {"disableAllHooks": True, "includeGitInstructions": False}
    assert "--no-session-persistence" in argv and "--strict-mcp-config" in argv
    assert argv[argv.index("--tools") + 1] == "Read,Grep,Glob" and not any("Bash" in arg for arg in argv)
    assert "You audit whether this repository's durable record" in argv[argv.index("--append-system-prompt") + 1]
    assert seen["marker"] == "passed-through" and "cc-hooks-audit-" in seen["cwd"]  # env passed, cwd = the view
    folder = Path(argv[argv.index("--add-dir") + 1])
    assert f"is in {folder / 'git-log.txt'}: grep or read it" in argv[-1]  # the prompt names the history file
    assert f"commit {project.fix}" in seen["history"] and "Symptom: add(2, 3) returns -1" in seen["history"]
    assert not folder.exists()  # removed with the run
    sent = re.findall(r"^- \[([^\]]+)\]", argv[-1], re.M)
    assert sent == ["coldstart:3", "coldstart:4", "caller:1"]  # verbatim questions first, then cut at the limit
    assert result.agent["questions_sent"] == 3
    assert result.notes == ["4 question(s) beyond --max-questions 3 were graded by the program only"]
    graded = {g.question.id: g for g in result.graded}
    assert graded["caller:1"].agent is not None and graded["caller:2"].agent is None


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(
                         ["results", "extra", "id", "grade", "where", "question", "untracked_home", "worth_asking", "why_not"]), inner, max_size=5),
                     max_leaves=20)


@settings(max_examples=200, deadline=None)
@given(_JSON)
@example({"results": [], "extra": True})  # found by this property: TypeError, not AgentError
def test_any_answer_is_accepted_or_rejected_with_a_reason_never_crashes(data):
    text = "```json\n" + json.dumps(data) + "\n```"
    try:
        answer = parse_answer(text, SENT)
    except AgentError as exc:
        assert "malformed" in str(exc)
    else:
        assert set(answer.answers) == set(SENT)
        assert all(a["grade"] in ("PASS", "WEAK", "FAIL") for a in [*answer.answers.values(), *answer.extra])


def test_a_stale_doc_question_is_sent_marked_mined_and_may_be_set_aside_with_its_reason():
    """Issue 20: 26 of the 63 stale-doc questions of the labeled sets are noise (an example's branch, a
    placeholder, another project's PR); the agent reads the doc line as it reads the code around an oddity."""
    from cc_hooks.audit import AGENT_ORDER

    stale = Question("stale:docs/how-to.rst:198", 'Is "PR #794 from user ``contributor``" (docs/how-to.rst:198) still true?', "stale")
    assert "stale" in AGENT_ORDER
    prompt = build_prompt([stale], "0" * 40, [])
    assert "- [stale:docs/how-to.rst:198] (mined) Is" in prompt and "an example, a placeholder or a template" in prompt
    answer = parse_answer(block([{"id": stale.id, "grade": "FAIL", "worth_asking": False, "why_not": "An example of a PR, not this repository's."}]),
                          [stale.id])
    graded, set_aside = merge([Graded(stale, FAIL, "docs/how-to.rst:198")], answer, 40)
    assert graded == [] and set_aside == [{"id": stale.id, "question": stale.text, "why_not": "An example of a PR, not this repository's."}]


def test_the_agent_gets_read_grep_and_glob_in_its_working_directories_and_no_shell(tmp_path):
    """Issue 42, finding 7: a pre-approved `Bash(git grep:*)` ran `git grep --open-files-in-pager='touch …;'` and
    `Bash(git log:*)` wrote `--output=FILE`; a bare `Read` rule read any file. No shell, no pre-approval at all."""
    argv = agent_argv(Path("/opt/claude"), "Grade these.", tmp_path)

    def value(option: str) -> str:
        assert argv.count(option) == 1, option
        return argv[argv.index(option) + 1]

    assert argv[:4] == ["/opt/claude", "-p", "--output-format", "json"] and argv[-2:] == ["--", "Grade these."]
    assert value("--tools") == "Read,Grep,Glob" and not any("Bash" in arg for arg in argv)
    assert value("--add-dir") == str(tmp_path)  # the history's folder: the only working directory besides the cwd
    assert value("--setting-sources") == ""  # no settings file: neither the clone's nor the user's rules apply
    assert value("--permission-mode") == "dontAsk"  # whatever would be asked is refused
    assert json.loads(value("--settings")) == {"disableAllHooks": True, "includeGitInstructions": False}
    options = {arg for arg in argv[:-2] if arg.startswith("--")}
    assert not options & {"--allowedTools", "--allowed-tools", "--dangerously-skip-permissions", "--permission-prompt-tool",
                          "--mcp-config", "--plugin-dir", "--agents"}
    assert "no shell, no git, no cc-hooks" in value("--append-system-prompt")


def test_the_history_file_holds_heads_commits_with_their_messages_and_files(project, tmp_path):
    project.write("notes.txt", "n\n")
    hidden = project.commit("Note \x1b[31mred\x1b[0m things\n\nWhy: the \U000e0041\U000e0042 tags hide text", "notes.txt")
    path, complete = write_history(project.root, tmp_path)
    text = path.read_text(encoding="utf-8")
    assert path == tmp_path / "git-log.txt" and complete
    assert text.index(f"commit {hidden}") < text.index(f"commit {project.fix}")  # newest first
    assert "    Symptom: add(2, 3) returns -1" in text and "\nsrc/calc.py\n" in text  # trailers and changed files
    assert "    Note red things" in text and "\x1b" not in text and "\U000e0041" not in text  # sanitized
    assert text.count("\ncommit ") + text.startswith("commit ") == 4  # every commit of HEAD

    newest, complete = write_history(project.root, tmp_path, limit=1)
    assert not complete and newest.read_text(encoding="utf-8").count("commit ") == 1


def test_the_prompt_names_the_history_file_and_says_when_it_is_cut():
    questions = [Question("symptom:a", "What causes A?", "symptom")]
    assert "history" not in build_prompt(questions, "0" * 40, [])
    whole = build_prompt(questions, "0" * 40, [], Path("/tmp/h/git-log.txt"))
    assert "is in /tmp/h/git-log.txt: grep or read it where you would run git." in whole and "newest 5000" not in whole
    assert "the newest 5000 commits only" in build_prompt(questions, "0" * 40, [], Path("/tmp/h/git-log.txt"), complete=False)
