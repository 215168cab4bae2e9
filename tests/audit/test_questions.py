"""Question generation: one per symptom entry, uncovered trailer, decision, oddity, questions-file
line and --question; the oddity heuristic flags what it should and nothing else."""

from __future__ import annotations

from cc_hooks.audit.questions import generate, scan_oddities, terms_of
from cc_hooks.config import load_config


def questions(project, caller=()):
    return generate(project.root, load_config(project.root), caller)


def test_every_source_yields_its_questions(project):
    project.write("src/mul.py", "def mul(a, b):\n    return a * b\n")
    project.commit("Fix rounding in mul\n\nSymptom: mul(2, 0.5) returns 0")
    found = questions(project, ["Why integers only?"])
    kinds = [(q.kind, q.text) for q in found]
    assert ("symptom", 'What causes "add(2, 3) returns -1", how are its causes told apart, and what has been ruled out?') in kinds
    assert ("decision", 'Why "Keep integer-only arithmetic", and what was rejected?') in kinds
    assert ("coldstart", "Why did add(2, 3) return -1?") in kinds and ("coldstart", "Where is add() tested?") in kinds
    assert ("caller", "Why integers only?") in kinds
    [trailer] = [q for q in found if q.kind == "trailer"]
    assert "mul(2, 0.5) returns 0" in trailer.text and trailer.data["symptom"] == "mul(2, 0.5) returns 0"


def test_a_trailer_its_entry_covers_is_asked_once(project):
    found = questions(project)
    assert [q for q in found if q.kind == "trailer"] == []  # "add(2, 3) returns -1" is asked through its entry
    assert len([q for q in found if q.kind == "symptom"]) == 1


def test_oddities_are_flagged_precisely(project):
    project.write("src/net.py", "\n".join([
        "import time",
        "RETRIES = 7  # workaround: the server drops the first six requests after a deploy",
        "# HACK",
        "PATTERN = r'(?:#|//)workaround'",  # code that merely contains the word: not an oddity
        "text = 'do not remove'",  # a string, not a comment
        "def wait():",
        "    time.sleep(0.5)",
        "",
    ]))
    project.write("tests/test_net.py", "import pytest, time\n\n\n@pytest.mark.skip\ndef test_retry():\n    time.sleep(1)\n\n\n"
                  "@pytest.mark.skipif(True, reason='windows')\ndef test_other():\n    pass\n")
    project.commit("Add net")
    found = {(o.path, o.line): o for o in scan_oddities(project.root)}
    assert set(found) == {("src/net.py", 2), ("src/net.py", 3), ("src/net.py", 7), ("tests/test_net.py", 4)}
    assert found[("src/net.py", 2)].explained and found[("src/net.py", 2)].what == "workaround comment"
    assert found[("src/net.py", 3)].explained == "" and found[("src/net.py", 3)].what == "hack comment"
    assert found[("src/net.py", 7)].what == "sleep with a literal"  # in code; the one in the test is not flagged
    assert found[("tests/test_net.py", 4)].what == "disabled test"  # skip, but not skipif


def test_uncommitted_oddities_are_not_asked_about(project):
    project.write("src/extra.py", "# do not remove\n")  # not committed: a clone would not have it
    generated = generate(project.root, load_config(project.root))
    assert [q for q in generated if q.kind == "oddity"] == []


def test_terms_drop_question_words_and_stem():
    assert terms_of("Why is the frobnicator pinned to version 3?") == ("frobnicator", "pin", "version", "3")
    assert terms_of("What causes retry_limit errors?") == ("retry_limit", "retry", "limit", "error")


def test_markers_inside_string_literals_are_not_oddities(project):
    project.write("src/fixtures.py", "\n".join([
        'SOURCE = "RETRIES = 7  # HACK"',
        "DECORATOR = '@pytest.mark.skip'",
        'PATTERN = r"@Disabled|xit\\\\("',
        "CALL = 'time.sleep(5)'",
        "x = 1  # HACK: the quote in 'a' closes before this comment, which is real",
        "",
    ]))
    project.commit("Add fixtures")
    assert [(o.line, o.what) for o in scan_oddities(project.root)] == [(5, "hack comment")]


def test_trailers_are_matched_to_entries_through_one_index(project, monkeypatch):
    """Guard for the 10 s audit: each entry's words are read once, not once per trailer."""
    import cc_hooks.audit.questions as questions_module

    entries = "".join(f"\n## Symptom: gadget {i} overheats\n\n### Cause 1: loop — fixed in {project.fix[:10]}\n"
                      for i in range(60))
    project.write("SYMPTOMS.md", project.read("SYMPTOMS.md") + entries)
    for i in range(20):
        project.write("src/calc.py", f"def add(a, b):\n    return a + b  # {i}\n")
        project.commit(f"Fix widget {i}\n\nSymptom: widget {i} flickers")
    calls = []
    real = questions_module.terms_of
    monkeypatch.setattr(questions_module, "terms_of", lambda text: calls.append(text) or real(text))
    from cc_hooks.record.symptoms import load_symptoms

    ledger = load_symptoms(project.root, "SYMPTOMS.md")
    found = questions_module.trailer_questions(project.root, ledger, 30.0)
    assert len(found) == 20  # no entry covers a widget
    assert len(calls) <= len(ledger.entries) + 2 * len(found) + 5, len(calls)  # was entries x trailers
