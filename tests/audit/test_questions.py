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


def test_markers_in_multiline_strings_and_docstrings_are_data(project):
    """Issue 20: `@pytest.mark.skip` inside a triple-quoted test fixture is data, not a disabled test;
    a docstring's example `time.sleep(2)` is not a delay; `sleep(0)` yields; a `__main__` demo is no product code."""
    project.write("src/lib.py", "\n".join([
        "import time",
        "def run():",
        '    """Example::',
        "",
        "        >>> time.sleep(2)  # HACK",
        '    """',
        "    time.sleep(0)",
        "",
        "",
        'if __name__ == "__main__":',
        "    time.sleep(3)",
        "",
    ]))
    project.write("tests/test_data.py", "\n".join([
        "SOURCE = '''",
        "import pytest",
        "@pytest.mark.skip",
        "def test_x():",
        "    pass",
        "'''",
        "",
    ]))
    project.commit("Add data")
    assert scan_oddities(project.root) == []


def test_a_workaround_is_explained_only_by_a_reason(project):
    project.write("src/a.py", "x = 1  # workaround\n\n# HACK\ny = 2\n")
    project.write("src/b.py", "# This is a workaround: the upstream parser drops the last byte,\n# so we pad the buffer.\nz = 3\n\n\n"
                  "# Ugly kludge, but calling initscr() crashes in emacs\nw = 4\n")
    project.commit("Add w")
    found = {(o.path, o.line): o.explained for o in scan_oddities(project.root)}
    assert found[("src/a.py", 1)] == "" and found[("src/a.py", 3)] == ""
    assert "drops the last byte" in found[("src/b.py", 1)] and "crashes" in found[("src/b.py", 6)]


def test_prose_is_not_a_do_not_remove_marker(project):
    project.write("src/p.py", "# Ensure we don't delete formerly documented aliases.\n# by default we don't change the title\n"
                  "a = 1\n\n\n# don't remove: the plugin loader imports it by name\nb = 2\n")
    project.commit("Add p")
    assert [o.line for o in scan_oddities(project.root)] == [6]


def test_a_first_audit_gets_a_short_ranked_list(project):
    body = "".join(f"def f{i}():\n    time.sleep(1)\n\n\n" for i in range(10))
    for n in range(30):
        project.write(f"src/m{n}.py", "import time\n\n\n" + body)
    project.write("src/zz.py", "# HACK\nx = 1\n")
    project.commit("Add many")
    found = scan_oddities(project.root)
    assert len(found) == 40 and found[0].path == "src/zz.py"  # the unexplained hack first
    assert max(sum(o.path == p for o in found) for p in {o.path for o in found}) == 2  # two per file and kind
