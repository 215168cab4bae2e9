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
    for n in range(30):  # distinct code: copies of one function would be one question
        project.write(f"src/m{n}.py", "import time\n\n\n" + "".join(f"def f{n}_{i}():\n    time.sleep(1)\n\n\n" for i in range(10)))
    project.write("src/zz.py", "# HACK\nx = 1\n")
    project.commit("Add many")
    found = scan_oddities(project.root)
    assert len(found) == 40 and found[0].path == "src/zz.py"  # the unexplained marker first
    assert max(sum(o.path == p for o in found) for p in {o.path for o in found}) == 2  # two per file and kind


def test_a_sleep_its_comment_explains_is_answered_unless_the_comment_calls_it_a_workaround(project):
    """Issue 20: poll intervals with a comment right there (ipython's GUI input hooks) are answered,
    not questions; a comment naming a bug keeps the sleep a question (a workaround worth knowing)."""
    project.write("src/hooks.py", "\n".join([
        "import time",
        "def loop(ready, clock, t):",
        "    while not ready():",
        "        # We need to sleep at this point to keep the idle CPU load",
        "        # low. However, if we sleep too long, GUI response is poor.",
        "        used = clock() - t",
        "        if used > 10.0:",
        "            # print('Sleep for 1 s')  # dbg",
        "            time.sleep(1.0)",  # 9: explained five lines up
        "        else:",
        "            time.sleep(0.001)  # many events coming in, so sleep very little",  # 11: trailing comment
        "def run(p):",
        "    # Python has a bug where wait() is not interruptible, so poll in a loop",
        "    while p.poll() is None:",
        "        time.sleep(0.01)",  # 15: its comment names a bug
        "def bare():",
        "    time.sleep(0.2)",  # 17: nothing says why
        "",
    ]))
    project.commit("Add hooks")
    found = {o.line: o for o in scan_oddities(project.root) if o.path == "src/hooks.py"}
    assert sorted(found) == [15, 17]
    assert "bug" in found[15].explained and found[17].explained == ""


def test_a_grace_sleep_after_signalling_a_process_is_not_a_question(project):
    project.write("src/procs.py", "\n".join([
        "import signal, time",
        "def kill_all(procs):",
        "    for p in procs:",
        "        try:",
        "            p.send_signal(signal.SIGINT)",
        "        except OSError:",
        "            pass",
        "    time.sleep(0.1)",  # 8: the time they get to exit
        "def stop(proc):",
        "    proc.kill()",
        "    proc.wait()",
        "    time.sleep(0.2)",  # 12: the process is already gone: why wait more?
        "",
    ]))
    project.commit("Add procs")
    assert [o.line for o in scan_oddities(project.root) if o.path == "src/procs.py"] == [12]


def test_a_sleep_between_literals_is_mined(project):
    project.write("src/pin.py", "import time\ndef fail(count):\n    time.sleep(5.0 if count > 5 else 0.5)\n")
    project.commit("Add pin")
    [found] = [o for o in scan_oddities(project.root) if o.path == "src/pin.py"]
    assert found.line == 3 and found.what == "sleep with a literal"


def test_a_skip_under_test_or_declaring_an_inherited_test_not_applicable_is_no_disabled_test(project):
    project.write("tests/test_skips.py", "\n".join([
        "import unittest, pytest",
        "class TestRunner(unittest.TestCase):",
        "    def test_skipped_generator_is_not_an_error(self):",
        "        class Inner(unittest.TestCase):",
        "            @unittest.skip(\"don't run this\")",  # 5: the fixture of this test
        "            def test_gen(self):",
        "                yield",
        "class TestHttpx(Base):",
        "    @pytest.mark.skip(reason='The check is Twisted-specific')",  # 9: an inherited test, not applicable
        "    def test_verify_certs(self):",
        "        pass",
        "    @pytest.mark.skip(reason='needs fix')",  # 12: a real test turned off
        "    def test_lazy_user(self):",
        "        assert self.fetch('/')",
        "@pytest.mark.skip(reason='Proxy support is not implemented yet')",  # 15: a whole class off
        "class TestProxy(Base):",
        "    is_secure = True",
        "",
    ]))
    project.commit("Add skips")
    assert [o.line for o in scan_oddities(project.root) if o.path == "tests/test_skips.py"] == [12, 15]


def test_a_workaround_users_apply_or_a_hack_pointed_at_elsewhere_is_prose(project):
    project.write("src/filters.py", "\n".join([
        "# To avoid the delay users employ a workaround:",
        "# switching the emacs bindings off.",
        "#",
        "# For the workaround to work:",
        "# - the binding must be off",
        "a = 1",
        "",
        "",
        "# The difficulty is that process_input does not know, which requires that we include a hack in",
        "# `process_block`. See the comments there.",
        "b = 2",
        "",
        "",
        "def process_block():",
        "    # HACK: process_input cannot know if process_output runs",
        "    return 3",
        "",
    ]))
    project.commit("Add filters")
    assert [o.line for o in scan_oddities(project.root) if o.path == "src/filters.py"] == [15]


def test_copied_code_is_one_question_naming_its_copies(project):
    body = "def show(frame):\n    try:\n        # we likely want to fix stackdata at some point, but\n        # still need a workaround.\n        v = frame.vars\n    except Exception:\n        v = []\n    return v\n"
    project.write("src/doctb.py", body)
    project.write("src/ultratb.py", "import os\n\n\n" + body)
    project.write("docs/conf.py", "# Do NOT delete and re-generate.\n")  # docs tooling: not the product
    project.commit("Add copies")
    [found] = scan_oddities(project.root)
    assert (found.path, found.line, found.copies) == ("src/doctb.py", 4, ["src/ultratb.py:7"])
    [question] = [q for q in generate(project.root, load_config(project.root)) if q.kind == "oddity"]
    assert "src/doctb.py:4 (and its copy at src/ultratb.py:7)" in question.text and question.data["copies"] == ["src/ultratb.py:7"]


def test_a_sleep_pacing_a_polling_loop_is_answered_by_the_loop(project):
    """Issue 20 (gunicorn): heartbeat and retry loops' sleeps are their pace; a pause between
    spawning workers in a plain ``for`` is a question, and so is a polling sleep its comment calls a
    workaround for a bug."""
    project.write("src/arbiter.py", "\n".join([
        "import time",
        "def run(self):",
        "    while self.alive:",
        "        self.notify()",
        "        time.sleep(1.0)",  # 5: heartbeat
        "def bind(self, addr):",
        "    for i in range(5):",
        "        try:",
        "            return self.connect(addr)",
        "        except OSError:",
        "            if i < 5:",
        "                time.sleep(1)",  # 12: retry of a loop that breaks (returns) on success
        "        else:",
        "            break",
        "def spawn(self, count):",
        "    for _ in range(count):",
        "        self.spawn_worker()",
        "        time.sleep(0.1)",  # 18: why pause between spawns?
        "",
    ]))
    project.commit("Add arbiter")
    assert [o.line for o in scan_oddities(project.root) if o.path == "src/arbiter.py"] == [18]


def test_a_test_servers_sleeps_are_what_it_simulates(project):
    project.write("dummyserver/app.py", "import trio\nasync def slow():\n    await trio.sleep(10)\n    return 'TEN SECONDS LATER'\n")
    project.write("src/app.py", "import trio\nasync def slow():\n    await trio.sleep(10)\n")
    project.commit("Add servers")
    assert [(o.path, o.line) for o in scan_oddities(project.root)] == [("src/app.py", 3)]


def test_a_marker_or_a_sleep_quoted_in_a_comment_is_a_mention(project):
    """Issue 20 (this repository's own audit): a comment quoting the word or the call is no oddity."""
    project.write("src/rules.py", "\n".join([
        "import time",
        '# "workaround: the server drops ..." names the problem',
        "# ``sleep(0.5)``, and a choice between literals",
        "def f():",
        "    time.sleep(0.3)  # sleep(1) would be too slow",  # 5: the code's sleep, not the comment's
        "# workaround: the parser drops the last byte, so pad",  # 6: used, not quoted
        "x = 1",
        "",
    ]))
    project.commit("Add rules")
    assert [(o.line, o.what) for o in scan_oddities(project.root) if o.path == "src/rules.py"] == [
        (6, "workaround comment")]


def test_vendored_code_is_upstreams_not_a_question(project):
    """Issue 20 (pip): hacks in ``src/pip/_vendor`` (listed in its ``vendor.txt``) are upstream's
    code; a ``third_party`` folder without a manifest is still this project's."""
    hack = "# HACK: the parser drops the last byte, so pad it\nPAD = 1\n"
    project.write("src/calc/_vendor/vendor.txt", "six==1.16.0\n")
    project.write("src/calc/_vendor/six.py", hack)
    project.write("src/calc/third_party/mine.py", hack.replace("PAD", "PADDING"))
    project.commit("Vendor six")
    assert [o.path for o in scan_oddities(project.root)] == ["src/calc/third_party/mine.py"]


def test_a_marker_word_in_another_sense_is_no_oddity(project):
    """Issue 20 (celery, sentry, pip): "don't change self.options" over the copy it explains, "they /
    don't touch each other's scopes", "the user-discovered workaround", "the workaround tarfile uses",
    a cast that is "a workaround for the mypy error" describe code or others; a warning about the
    value on the next line is still one."""
    project.write("src/words.py", "\n".join([
        "def connect(self):",
        "    # don't change self.options",
        "    conf = dict(self.options)",
        "    # Isolate each run so that when agents run in tasks they",
        "    # don't touch each other's scopes",
        "    with scope():",
        "        pass",
        "    # We must NOT rely on",
        "    # the user-discovered workaround of disabling it.",
        "    self.reduce = True",
        "    # (This is not needed for hardlinks, nor for the workaround tarfile",
        "    # uses if symlinking is disabled.)",
        "    sep = '/'",
        "    # Explicitly cast as a workaround for the mypy error:",
        "    writer = cast('IO[str]', conf)",
        "    return writer",
        "# DO NOT CHANGE MAX_RETRIES: the server counts them",  # 17: a warning
        "MAX_RETRIES = 5",
        "# This is needed by the plugin system",
        "# do not remove",  # 20: a warning after a sentence without its full stop
        "PLUGIN = 1",
        "",
    ]))
    project.write("src/guard.py", "\n".join([  # a second file: two questions of a kind per file
        "def guard(self):",
        "    # Workaround Django does not support nested atomic blocks here",  # 2: this code's workaround
        "    self.atomic = False",
        "    # don't remove self._lock",  # 4: a thing to keep, whatever reads it
        "    with self._lock:",
        "        pass",
        "",
    ]))
    project.commit("Add words")
    assert [o.line for o in scan_oddities(project.root) if o.path == "src/words.py"] == [17, 20]
    assert [o.line for o in scan_oddities(project.root) if o.path == "src/guard.py"] == [2, 4]


def test_a_sleep_that_is_its_functions_job_is_no_question(project):
    """Issue 20 (celery): a background thread's loop-body method ending in its poll interval, a
    sleep counting out the caller's ``seconds``, and smoke-test tasks under the ``t/`` test tree."""
    project.write("src/scale.py", "\n".join([
        "from time import sleep",
        "class Autoscaler(bgThread):",
        "    def body(self):",
        "        self.maybe_scale()",
        "        sleep(1.0)",
        "def wait_for(seconds):",
        "    for _ in range(int(seconds)):",
        "        sleep(1)",
        "def spawn(count):",
        "    for _ in range(count):",
        "        start()",
        "        sleep(0.1)",  # 12: why pause between spawns?
        "",
    ]))
    project.write("t/smoke/tasks.py", "from time import sleep\n\n\ndef slow_task():\n    sleep(4)\n")
    project.commit("Add scaling")
    assert [(o.path, o.line) for o in scan_oddities(project.root)] == [("src/scale.py", 12)]


def test_sibling_skips_and_pasted_comment_blocks_are_one_question(project):
    """Issue 20 (aiohttp, celery, sentry): neighbouring tests skipped with the same reason, and one
    comment block pasted under other imports, are each one question naming the copy."""
    project.write("tests/test_proxy.py", "\n".join([
        "import pytest", "", "",
        '@pytest.mark.skip(reason="Broken test")', "def test_a():", "    pass", "", "",
        '@pytest.mark.skip(reason="Broken test")', "def test_b():", "    pass", "", "",
        '@pytest.mark.skip(reason="Flaky on CI since the pool change")', "def test_c():", "    pass", "",
    ]))
    block = "# Hack to get new Python features working in older versions\n# without a hard dependency\nif TYPE_CHECKING:\n    pass\n"
    project.write("src/one.py", "import os\n\n" + block)
    project.write("src/two.py", "import sys\nimport re\n\n" + block)
    project.commit("Add skips and hacks")
    found = {(o.path, o.line): o.copies for o in scan_oddities(project.root)}
    assert found == {("tests/test_proxy.py", 4): ["tests/test_proxy.py:9"], ("tests/test_proxy.py", 14): [],
                     ("src/one.py", 3): ["src/two.py:4"]}


def test_test_data_comments_are_input_not_notes(project):
    # A formatter's test cases hold the code it formats, comments and all; their "don't remove" is input.
    project.write("tests/data/cases/remove_parens.py", "with (open('f')) as f:  # don't remove the parens here\n    pass\n")
    project.write("tests/fixtures/legacy.py", "# HACK: old style\nx = 1\n")
    project.write("src/legacy.py", "# HACK: the C extension returns bytes on Windows\nx = 1\n")
    project.commit("Add format cases")
    found = {o.path for o in scan_oddities(project.root)}
    assert "src/legacy.py" in found
    assert "tests/data/cases/remove_parens.py" not in found and "tests/fixtures/legacy.py" not in found


def test_a_skip_saying_where_the_test_applies_is_no_disabled_test(project):
    project.write("tests/test_sync.py", "\n".join([
        "import pytest", "",
        '@pytest.mark.skip("Only relevant for `poetry install`")',
        "def test_option_is_passed_to_the_installer():", '    """Does not apply to sync."""', "",
        '@pytest.mark.skip("flaky on CI since the resolver rewrite")',
        "def test_resolves():", "    assert True", ""]))
    project.commit("Add sync tests")
    found = {(o.path, o.line) for o in scan_oddities(project.root)}
    assert ("tests/test_sync.py", 7) in found and ("tests/test_sync.py", 3) not in found


def test_a_comment_saying_there_is_no_workaround_asks_nothing(project):
    """Issue 20 (astropy, buildbot): "there is no workaround", "instead of doing silly workaround" and
    "didn't hack the original table" say the code has none; "Instead of this hack" points at one."""
    project.write("src/floats.py", "\n".join([
        "def write(column):",
        "    # PyArrow does not support float128 and there is no workaround (unlike float16).",
        "    if column.dtype == 'float128':",
        "        raise TypeError(column)",
        "    # We just suppress this warning instead of doing silly workaround.",
        "    warnings.simplefilter('ignore')",
        "",
        "",
        "def check(table, frame):",
        "    # Make sure writing to dataframe didn't hack the original table",
        "    assert table == frame.table",
        "    # TODO: Instead of this hack and the one below, we need to use outer contexts",  # 12: one
        "    return frame",
        "",
    ]))
    project.commit("Add floats")
    assert [o.line for o in scan_oddities(project.root) if o.path == "src/floats.py"] == [12]


def test_dont_change_naming_what_the_code_leaves_alone_is_no_warning(project):
    """Issue 20 (networkx, xarray, distributed): "don't change positions of fixed nodes" over
    ``delta_pos[fixed] = 0.0`` and "Do not change coordinates" on ``if k in coord_names:`` say what
    the code does; "Do not change the order" (the code does not name it), "Do not change the defaults"
    over their assignment and "Don't change the docstring, it's part of the tests" are warnings."""
    project.write("src/layout.py", "\n".join([
        "def step(pos, delta_pos, fixed, coord_names, variables):",
        "    if fixed is not None:",
        "        # don't change positions of fixed nodes",
        "        delta_pos[fixed] = 0.0",
        "    for k, v in variables.items():",
        "        if k in coord_names:  # Do not change coordinates",
        "            variables[k] = v",
        "    return pos",
        "",
    ]))
    project.write("src/order.py", "\n".join([
        "def handlers():",
        "    # Do not change the order",  # 2
        "    return [first, second]",
        "",
    ]))
    project.write("src/defaults.py", "\n".join([
        "# Do not change the defaults",  # 1
        "defaults = {'retries': 3}",
        "",
    ]))
    project.commit("Add layout")
    found = {(o.path, o.line) for o in scan_oddities(project.root)}
    assert not any(path == "src/layout.py" for path, _ in found)
    assert {("src/order.py", 2), ("src/defaults.py", 1)} <= found


def test_a_workaround_applied_here_declined_or_in_another_file_is_not_asked_here(project):
    """Issue 20 (PyInstaller, coverage.py): "Apply the work-around" below the comment explaining it is
    that question's copy; "instead of trying to work-around that" declines one; "the hack in
    tracer.c" lives there."""
    project.write("src/bundle.py", "\n".join([
        "def rename(path):",
        "    # Work-around for codesign: dots in directory names are replaced, because codesign rejects them.",
        "    return path.replace('.', '__dot__')",
        "",
        "",
        "def walk(paths):",
        "    for path in paths:",
        "        # Apply the work-around, if necessary...",
        "        if '.' in path:",
        "            rename(path)",
        "",
        "",
        "def check(version):",
        "    # the importer gets confused; instead of trying to work-around that, tell the user to upgrade.",
        "    if version == (60, 7, 0):",
        "        raise SystemExit('upgrade')",
        "",
        "",
        "def test_trace():",
        "    # This test checks that our fake PyTrace_RETURN hack in tracer.c works.",
        "    assert True",
        "",
    ]))
    project.write("src/collect.py", "\n".join([
        "def collect(binaries):",
        "    # Apply work-around for binaries collected from the pywin32 package...",
        "    return fix_pywin32(binaries)",
        "",
    ]))
    project.commit("Add bundle")
    found = {o.path: o for o in scan_oddities(project.root)}
    assert [o.line for o in scan_oddities(project.root) if o.path == "src/bundle.py"] == [2]
    assert found["src/bundle.py"].copies == ["src/bundle.py:8"]
    # applied where nothing above explains it: the call site is the place to ask
    assert found["src/collect.py"].line == 2


def test_a_library_copied_in_with_its_license_is_not_asked_about(project):
    """Issue 20 (PyInstaller's ``bootloader/zlib``, setuptools' ``_vendor``): upstream's comments."""
    project.write("LICENSE", "GPL, the project\n")
    project.write("bootloader/zlib/LICENSE", "zlib license\n")
    project.write("bootloader/zlib/inflate.c", "/* do not change: build code tables */\nint x;\n")
    project.write("pkg/_vendor/six-1.16.0.dist-info/METADATA", "Name: six\n")
    project.write("pkg/_vendor/six.py", "# HACK: py2 compat\nx = 1\n")
    project.write("bootloader/src/main.c", "/* HACK: the loader cannot see argv here */\nint y;\n")
    project.commit("Add the bootloader")
    assert {o.path for o in scan_oddities(project.root)} >= {"bootloader/src/main.c"}
    assert not {o.path for o in scan_oddities(project.root)} & {"bootloader/zlib/inflate.c", "pkg/_vendor/six.py"}


def test_a_note_repeated_in_a_file_a_tested_user_workaround_and_no_workaround_are_one_or_no_question(project):
    """Issue 20 round 5 (networkx, mypy, SQLAlchemy, dask): the same "Do not change" line at three spots of
    one function is one question; a test exercising the workaround users applied for a ticket is no
    oddity; "no workaround required for these" declines one. A real workaround in a test still is one."""
    project.write("src/search.py", "\n".join([
        "def extend(cands, new):",
        "    # Do not change the original set. So do not use |= operator",
        "    cands['a'] = cands['a'] | new",
        "    for key in cands:",
        "        # Do not change the original set. So do not use |= operator",
        "        cands[key] = cands[key] | new",
        "    if new:",
        "        # exclude sparse arrays, no workaround required for these in tensordot",
        "        return cands",
        "",
    ]))
    project.write("tests/test_scoping.py", "\n".join([
        "def test_style(style):",
        "    if style == 'old':",
        "        # this was the workaround for #6285, ensure it continues working as well",
        "        run(style)",
        "",
        "",
        "class _ArrayOfEnum(object):",
        "    # previous workaround for array of enum",
        "    impl = 'ARRAY'",
        "",
        "",
        "def test_pool():",
        "    # Work-around: the pool keeps a socket open on macOS, so close it by hand before the assert.",
        "    close_all()",
        "",
    ]))
    project.commit("Add search and its tests")
    found = {o.path: o for o in scan_oddities(project.root) if o.path in ("src/search.py", "tests/test_scoping.py")}
    assert [(o.path, o.line) for o in scan_oddities(project.root) if o.path in found] == [("src/search.py", 2), ("tests/test_scoping.py", 13)]
    assert found["src/search.py"].copies == ["src/search.py:5"]


def test_hacks_that_exist_stay_questions_beside_the_rules_that_drop_declined_applied_and_repeated_ones(project):
    """Review of the rules above: each of these comments is a workaround or hack of this code."""
    lines = [
        "# Work-around: the first socket never closes on macOS, so close it twice.",  # 1
        "a = 1",
        "# TODO: instead of this hack, use importlib.resources",  # 3
        "b = 2",
        "# No need for this workaround once Python 3.8 is dropped: 3.8 lacks removeprefix.",  # 5
        "c = 3",
        "# workaround in Node.js < 14: fs.rm is missing there",  # 7
        "d = 4",
        "# Apply the workaround for bug 991: macOS sockets stay open after close",  # 9
        "e = 5",
    ]
    project.write("src/a.py", "\n".join(lines[:4]) + "\n")
    project.write("src/b.py", "\n".join(lines[4:8]) + "\n")
    project.write("src/d.py", "\n".join(["# Work-around: the cache keeps stale entries on Windows, so clear it first.", "f = 6", *lines[8:]])
                  + "\n")  # at most two per file: a file of its own
    project.write("src/c.py", "# HACK:\nx = 1\n" + "y = 2\n" * 60 + "# HACK:\nz = 3\n")
    project.write("tests/test_up.py", "def test_up():\n    # HACK: make the test pass until the upstream workaround lands\n    assert True\n")
    project.commit("Add hacks")
    asked = {(o.path, o.line) for o in scan_oddities(project.root)}
    assert {("src/a.py", 1), ("src/a.py", 3), ("src/b.py", 1), ("src/b.py", 3), ("src/d.py", 1), ("src/d.py", 3), ("src/c.py", 1), ("src/c.py", 63),
            ("tests/test_up.py", 2)} <= asked


def test_a_file_whose_header_says_it_is_another_projects_copy_asks_nothing(project):
    """Issue 20 round 6 (eventlet, pygments): eventlet's ``green/http/client.py`` ("This is part of Python
    source code with Eventlet-specific modifications", the PSF license) carries CPython's hacks, and
    pygments' ``tests/examplefiles`` are lexer input; all were labeled noise. A file holding "portions"
    of another project's code (gevent's resolver) is this project's."""
    hack = "# hack to keep the old names importable\nx = 1\n"
    project.write("src/green/client.py", "# This is part of Python source code with Eventlet-specific modifications.\n#\n"
                  "# Copyright (c) 2001 Python Software Foundation; All Rights Reserved\n\n" + hack)
    project.write("src/green/profile.py", '"""Copied from the standard library, unchanged."""\n\n' + hack)
    project.write("tests/examplefiles/bash/ltmain.sh", "# hack around a BeOS sed bug\nsed -e x\n")
    project.write("src/resolver.py", "# Portions of this code taken from the gogreen project:\n# (c) 2005 Slide, Inc.\n\n" + hack)
    project.write("src/env.py", "import os\n\nHOME = os.environ.get('HOME')  # taken from the environment when unset\n"
                  "# hack: the home of a service account is empty\nHOME = HOME or '/'\n")
    project.commit("Add copies")
    assert [(o.path, o.line) for o in scan_oddities(project.root)] == [("src/env.py", 4), ("src/resolver.py", 4)]
    project.write("LICENSE", "PYTHON SOFTWARE FOUNDATION LICENSE VERSION 2\n\nCopyright (c) Python Software Foundation\n")
    project.write("src/own.py", "# Copyright (c) 2001 Python Software Foundation\n\n# hack: the locale is unset on CI\nLANG = 'C'\n")
    project.commit("The project is the PSF's")  # its own files carry its own license header
    assert ("src/own.py", 3) in [(o.path, o.line) for o in scan_oddities(project.root)]


def test_a_modified_version_or_an_adapted_copy_is_another_projects_code(project):
    """Issue 20 round 8 (numba, astropy): numba's ``cloudpickle/cloudpickle.py`` opens "This is a modified
    version of the cloudpickle module.", astropy's ``unquantize.c`` "This file is copied/adapted from the
    imcompress.c file in CFITSIO"; their hacks and DO NOT CHANGE notes are upstream's (labeled noise). A
    module "adapted from" an idea is still this project's."""
    hack = "# hack to intern the names\nx = 1\n"
    project.write("src/cloudpickle/cloudpickle.py", '"""\nThis is a modified version of the cloudpickle module.\nPatches:\n"""\n\n' + hack)
    project.write("src/unquantize.c", "// clang-format off\n// This file is copied/adapted from the imcompress.c file in CFITSIO, and\n"
                  "// includes the unquantize_* functions.\n\n#define N_RANDOM 10000  /* DO NOT CHANGE THIS */\n")
    project.write("src/own.py", "# Adapted from the retry recipe in the asyncio docs.\n\n" + hack)
    project.commit("Add copies")
    assert [(o.path, o.line) for o in scan_oddities(project.root)] == [("src/own.py", 3)]


def test_an_extern_folder_with_a_readme_holds_copied_in_code(project):
    """Issue 20 round 8 (astropy): ``astropy/extern`` holds configobj and ply, and its README says they are
    third-party packages; configobj's "Hack for pickle" is upstream's (labeled noise). An ``extern`` folder
    without a README, like any folder of the project, is its own."""
    hack = "# Hack for pickle\nx = 1\n"
    project.write("src/pkg/extern/README.rst", "pkg.extern\n==========\n\nThird-party packages required by pkg.\n")
    project.write("src/pkg/extern/configobj/configobj.py", hack)
    project.write("src/pkg/io/extern/reader.py", hack)
    project.commit("Add the extern packages")
    assert [(o.path, o.line) for o in scan_oddities(project.root)] == [("src/pkg/io/extern/reader.py", 1)]


def test_a_commented_out_hypothetical_closing_or_file_rating_marker_is_no_oddity(project):
    """Issue 20 rounds 6 and 7 (pygments, gevent, xarray, pyglet): a HACK inside a commented-out block,
    "we could workaround this by ...", "XXX END HACK" closing the block its opening marker asks about,
    and "Quick hack script to build a release" rating the whole file were labeled noise. The hack that
    opens the block, and a real hack after "could", are still questions."""
    project.write("src/debug.py", "\n".join([
        "def lexer(cls):",
        "    # if cls.debug:",
        "    #     # HACK: subclasses only partly work here.",  # 3: commented-out code
        "    #     cls.bases = ()",
        "    # We could workaround this by implementing watchers in pure Python.",  # 5: hypothetical
        "    # if self.ndim == 0: could possibly have a work-around here",  # 6: hypothetical
        "    raise TypeError('watchers are not supported')",
        "",
    ]))
    project.write("src/font.py", "\n".join([
        "def render(text):",
        "    # XXX HACK HACK HACK: GDI+ draws nothing for one glyph, so draw two and crop.",  # 2: the hack
        "    text = text * 2",
        "    # XXX END HACK HACK HACK",  # 4: its close
        "    return text",
        "",
    ]))
    project.write("scripts/release.sh", "#!/bin/sh\n#\n# Quick hack script to build a single release in a virtual env.\npython -m build\n")
    project.write("src/io.py", "# This could break on Windows, so hack: retry the rename once.\nos.rename(a, b)\n")
    project.commit("Add markers")
    asked = {(o.path, o.line) for o in scan_oddities(project.root)}
    assert not {p for p in asked if p[0] in ("src/debug.py", "scripts/release.sh")}
    assert {(p, n) for p, n in asked if p == "src/font.py"} == {("src/font.py", 2)}
    assert ("src/io.py", 1) in asked


def test_a_test_naming_the_codes_hack_and_a_sleep_in_integration_support_ask_nothing(project):
    """Issue 20 round 6 (pydantic, nox, invoke): "The FastAPI compatibility hack makes it so that it
    still works" in a test names the hack of ``fields.py``, asked there; "the historical workaround from
    #312" is what callers did; ``integration/_support/busywork.py`` paces the output of a helper program
    of invoke's integration tests. A test's own workaround is still a question."""
    project.write("tests/test_fields.py", "\n".join([
        "def test_default():",
        "    # The FastAPI compatibility hack makes it so that it still works.",
        "    field.default = 1",
        "",
        "def test_quoted():",
        "    # the historical workaround from #312: the caller quotes the constraint",
        "    run('\"urllib3<1.25\"')",
        "",
        "def test_socket():",
        "    # Workaround: the socket stays open on macOS, so close it twice before the assert.",
        "    close()",
        "",
    ]))
    project.write("integration/_support/busywork.py", "import time\nfor i in range(10):\n    print(i)\n    time.sleep(0.1)\n")
    project.commit("Add tests")
    asked = [(o.path, o.line) for o in scan_oddities(project.root) if o.path.startswith(("tests/test_fields", "integration/"))]
    assert asked == [("tests/test_fields.py", 10)]


def test_the_same_short_note_on_the_next_statements_is_one_question(project):
    """Issue 20 round 7 (nltk, xarray): ``descr = ... # hack`` then ``descr += ... # hack`` on the next
    line, and the same ``# hack?`` in the sibling branch four lines down, are one hack each; the same
    short note far below in the file is another question."""
    project.write("src/maxent.py", "\n".join([
        "def describe(descr, value):",
        "    descr = descr.split(' and label is ')[0]  # hack",
        "    descr += ' (%s)' % value  # hack",
        "    if value:",
        "        pat = Accessor(value)  # hack?",
        "    else:",
        "        pat = Accessor(descr)  # hack?",
        *["    pass"] * 20,
        "    descr = descr.strip()  # hack",  # 28: far below
        "    return descr",
        "",
    ]))
    project.commit("Add describe")
    found = [o for o in scan_oddities(project.root) if o.path == "src/maxent.py"]
    assert [(o.line, o.copies) for o in found] == [(2, ["src/maxent.py:3"]), (5, ["src/maxent.py:7"])]  # two per file: 28 is capped
    project.write("src/maxent.py", (project.root / "src/maxent.py").read_text().replace("  # hack?", ""))
    project.commit("Drop the second note")
    assert [(o.line, o.copies) for o in scan_oddities(project.root) if o.path == "src/maxent.py"] == [(2, ["src/maxent.py:3"]), (28, [])]


def test_a_do_not_marker_describing_the_cases_the_code_keeps_is_behaviour(project):
    """Issue 20 rounds 6 and 7 (prompt_toolkit, WeasyPrint, mkdocs): "Don't delete across lines." on
    the condition that stops at a newline, "Don't remove headers and footers if breaks are avoided",
    "Don't remove hidden files from the directory" say what the code does; "don't remove them" and
    "Don't remove en dist_path as it might already contain other languages" warn maintainers."""
    project.write("src/vi.py", "\n".join([
        "def backspace(text, p):",
        "    if p > 0 and text[p - 1] != '\\n':  # Don't delete across lines.",
        "        text = text[:p - 1] + text[p:]",
        "    # Don't remove headers and footers if breaks are avoided in line groups",
        "    keep = True",
        "    return text",
        "",
    ]))
    project.write("src/clean.py", "\n".join([
        "def clean(path):",
        "    # Don't remove hidden files from the directory. We never copy files",
        "    # that are hidden, so we shouldn't delete them either.",
        "    cycle = [path]",
        "    # these two lines create the cycle. don't remove them",
        "    cycle.append(cycle)",
        "",
    ]))
    project.write("scripts/docs.py", "def build(dist):\n    # Don't remove en dist_path as it might already contain other languages.\n    return dist\n")
    project.commit("Add rules")
    asked = {(o.path, o.line) for o in scan_oddities(project.root)}
    assert not {p for p in asked if p[0] == "src/vi.py"}
    assert {p for p in asked if p[0] in ("src/clean.py", "scripts/docs.py")} == {("src/clean.py", 5), ("scripts/docs.py", 2)}


def test_a_doc_examples_sleep_is_a_demo(project):
    """Issue 20 round 7 (redis-py): ``doctests/search_vss.py`` is a page's example; its
    ``time.sleep(2)`` waits for the index the example built."""
    project.write("doctests/search_vss.py", "import time\nr.ft('idx').create_index(schema)\ntime.sleep(2)\n")
    project.write("src/wait.py", "import time\ndef settle():\n    time.sleep(2)\n")
    project.commit("Add example")
    asked = {(o.path, o.line) for o in scan_oddities(project.root)}
    assert ("src/wait.py", 3) in asked and not {p for p in asked if p[0].startswith("doctests/")}


def test_the_same_note_in_another_file_and_a_bundles_comments_are_no_new_question(project):
    """Issue 20 round 7 (pyglet, redis-py, sanic): "Hack for compatibility with macOS > 11.0" in two
    modules, the same "FIXME: Workaround for <issue link>" in the sync copy of an async test, and a
    workaround inside a browserify bundle (its first line is the bundler's prelude) were noise. A
    different note in another file is its own question."""
    project.write("src/cocoalibs.py", "# Hack for compatibility with macOS > 11.0\nlib = find('Cocoa') or '/System/Cocoa'\n")
    project.write("src/lib.py", "def load(name):\n    # Hack for compatibility with macOS > 11.0\n    return find(name) or path(name)\n")
    project.write("tests/test_async_cluster.py", "def test_retry():\n    # FIXME: Workaround for https://example.org/issues/3030\n    retry(3)\n")
    project.write("tests/test_cluster.py", "def test_retry_sync():\n    # FIXME: Workaround for https://example.org/issues/3030\n    retry(2)\n")
    project.write("src/other.py", "# Hack for compatibility with Windows 7 consoles\nmode = 'legacy'\n")
    project.write("guide/livereload.js", "(function(){function r(e,n,t){" + "var a=1;" * 60 + "}})();\n"
                  "// WORKAROUND FOR WEBKIT: reload the stylesheet twice\nreload();\n")
    project.commit("Add copies")
    found = {o.path: o for o in scan_oddities(project.root)}
    assert set(found) == {"src/cocoalibs.py", "tests/test_async_cluster.py", "src/other.py"}
    assert found["src/cocoalibs.py"].copies == ["src/lib.py:2"] and found["tests/test_async_cluster.py"].copies == ["tests/test_cluster.py:2"]


def test_a_web_apps_static_library_and_the_same_trick_over_the_same_code_are_no_new_question(project):
    """Issue 20 round 12 (OctoPrint, luigi, flask-admin, scapy): a workaround in
    ``static/js/lib/jquery/jquery.fileupload.js`` (blueimp's plugin, its header a plain license) and in
    ``static/visualiser/lib/mustache.js`` was upstream's; "// hack to hide calendar ..." and "// hack -
    hide calendar + range inputs" over the same statement twenty lines apart were one trick. The app's
    own script is still asked, and so is a hack over other code in the same file."""
    project.write("web/static/js/lib/jquery/jquery.fileupload.js",
                  "/*\n * jQuery File Upload Plugin\n * Licensed under the MIT license\n */\n"
                  "// Workaround for Chrome bug: reset the input\nreset(input);\n")
    calendar = "$el.data('daterangepicker').container.find('.calendar-date').hide();"
    project.write("web/static/admin/js/form.js", "\n".join([
        "function time(el) {", "    // hack to hide calendar to create a time-only picker", f"    {calendar}", "}",
        "function range(el) {", "    // hack - hide calendar + range inputs", f"    {calendar}", "    hideInputs(el);", "}",
        "function other(el) {", "    // hack: the picker ignores its format option", "    el.format = 'HH:mm';", "}", ""]))
    project.commit("Add scripts")
    found = {(o.path, o.line): o for o in scan_oddities(project.root)}
    assert set(found) == {("web/static/admin/js/form.js", 2), ("web/static/admin/js/form.js", 11)}
    assert found["web/static/admin/js/form.js", 2].copies == ["web/static/admin/js/form.js:6"]


def test_a_skip_mark_on_a_helper_no_runner_collects_disables_nothing(project):
    """Issue 20 round 7 (xarray): ``@pytest.mark.skip(reason="maybe flaky")`` sits on ``text_in_fig()``, a
    helper many tests call: pytest never collects it, so the mark disables no test. The same mark on a
    ``test_*`` function or method is a disabled test, and so is one on an uncalled function of another
    name (invoke's pytest-relaxed specs: ``pty_size_is_realistic``)."""
    project.write("tests/test_plot.py", "\n".join([
        "import pytest",
        "",
        '@pytest.mark.skip(reason="maybe flaky")',
        "def text_in_fig():",
        "    return set()",
        "",
        '@pytest.mark.skip(reason="needs a display server to draw the figure")',
        "def test_draws():",
        "    assert text_in_fig() == set()",
        "",
        "class TestPlot:",
        '    @pytest.mark.skip(reason="the colorbar moved in matplotlib 3.9")',
        "    def test_colorbar(self):",
        "        assert True",
        "",
    ]))
    project.write("integration/main.py", "\n".join([
        "import pytest",
        "",
        "class Pty:",
        '    @pytest.mark.skip(reason="CircleCI env actually does have 0x0 stty")',
        "    def pty_size_is_realistic(self):",
        "        assert size() != (0, 0)",
        "",
    ]))
    project.commit("Add plot tests")
    assert [o.line for o in scan_oddities(project.root) if o.path == "tests/test_plot.py"] == [7, 12]
    assert [o.line for o in scan_oddities(project.root) if o.path == "integration/main.py"] == [4]


def test_the_review_of_the_round_7_rules_keeps_the_warnings_and_hacks_they_must_not_hide(project):
    """Review: a do-not marker on "the lock" with its consequence, "might be a hack, but", "# #1234:
    workaround", a Python file with a long first line, and ``@unittest.skip`` on a helper (calling it
    raises SkipTest: the tests that call it are skipped) are each still a question."""
    project.write("src/worker.py", "\n".join([
        "def stop(self):",
        "    # Don't remove the lock when closing: the worker thread deadlocks otherwise",  # 2
        "    self.lock.release()",
        "    # DO NOT REMOVE the flush when running under uwsgi, requests hang",  # 4: a third of its kind
        "    self.flush()",
        "",
    ]))
    project.write("src/capi.py", "# this might be a hack, but the C API gives us no other way to reach the buffer\nbuf = raw(obj)\n")
    project.write("src/crash.py", "# #1234: workaround for the segfault in libfoo 2.1, so copy the array first\ndata = list(data)\n")
    project.write("src/long.py", '"""' + "A module whose one-line docstring is long. " * 12 + '"""\n# HACK: the registry is global\nREGISTRY = {}\n')
    project.write("tests/test_core.py", "\n".join([
        "import unittest",
        "",
        '@unittest.skip("libfoo is not installed on CI")',
        "def needs_libfoo():",
        "    pass",
        "",
        "def test_read():",
        "    needs_libfoo()",
        "",
    ]))
    project.commit("Add warnings")
    asked = {(o.path, o.line) for o in scan_oddities(project.root)}
    assert {("src/worker.py", 2), ("src/capi.py", 1), ("src/crash.py", 1), ("src/long.py", 2), ("tests/test_core.py", 3)} <= asked


def test_a_released_librarys_banner_a_generators_header_and_a_vendoring_script_mark_others_code(project):
    """Issue 20 round 9 (beets, joblib): beets ships ``jquery.js`` whose ``/*!`` banner names its release
    ("jQuery JavaScript Library v1.7.1"); a module whose header says it is generated and not to be edited
    is a generator's output; joblib's ``externals`` holds loky with the ``vendor_loky.sh`` that copies it
    in. Their workarounds are upstream's (all labeled noise). A script of the project's own, a header that
    only mentions generating, and an ``externals`` folder with neither README nor vendoring script stay
    questions."""
    workaround = "// workaround for the IE8 getElementById bug: check the id again\nvar elem = find(id);\n"
    project.write("web/static/jquery.js", "/*!\n * jQuery JavaScript Library v1.7.1\n * http://jquery.com/\n */\n" + workaround)
    project.write("web/static/app.js", "/*!\n * Our app: the web UI\n */\n" + workaround)
    project.write("src/pkg/_parser.py", "# This file was automatically generated by tools/gen.py.\n# Do not edit it by hand.\n\n"
                  "# HACK: the generator cannot express this rule\nRULES = {}\n")
    project.write("src/pkg/gen_notes.py", "# Helpers that generated the tables; edit them freely.\n\n# HACK: the tables are global\nTABLES = {}\n")
    project.write("src/pkg/externals/vendor_loky.sh", "#!/bin/sh\npip download loky && cp -r loky .\n")
    project.write("src/pkg/externals/loky/process.py", "# Hack to avoid the fork bomb on Windows\nSPAWN = True\n")
    project.write("src/other/externals/shim.py", "# Hack to avoid the fork bomb on Windows, our own\nSPAWN = True\n")
    project.commit("Add copied-in code")
    asked = {o.path for o in scan_oddities(project.root)}
    assert asked == {"web/static/app.js", "src/pkg/gen_notes.py", "src/other/externals/shim.py"}


def test_tutorial_scripts_under_docs_src_are_demos(project):
    """Issue 20 round 9 (typer): ``docs_src/`` holds the tutorial's scripts; their ``time.sleep`` is the
    progress bar the page demonstrates (labeled noise). A sleep in the package stays a question."""
    project.write("docs_src/progressbar/tutorial001.py", "import time\nfor value in track(range(100)):\n    time.sleep(0.01)\n")
    project.write("src/pkg/wait.py", "import time\ndef settle():\n    time.sleep(2)\n")
    project.commit("Add tutorial")
    assert {o.path for o in scan_oddities(project.root)} == {"src/pkg/wait.py"}


def test_the_sync_copy_of_a_test_skipped_or_worked_around_for_one_ticket_is_no_new_question(project):
    """Issue 20 round 9 (mongo-python-driver): the synchronous tests are generated from the asynchronous
    ones, so "Workaround for PYTHON-5182" and ``@unittest.skip("PYTHON-5040: ... is flaky")`` appear in
    both (the copies labeled noise). A JIRA ticket cites as a link does, and the same long skip reason in
    another file is one question; a short generic reason ("flaky") in two files is two."""
    project.write("test/asynchronous/test_pool.py", "\n".join([
        "import unittest",
        "class TestPool(unittest.TestCase):",
        '    @unittest.skip("PYTHON-5040: the pool reaper is flaky on macOS")',
        "    def test_reaper(self):",
        "        assert reap()",
        '    @unittest.skip("flaky")',
        "    def test_checkout(self):",
        "        assert checkout()",
        "    def test_close(self):",
        "        # Workaround for PYTHON-5182",
        "        drain()",
        "",
    ]))
    project.write("test/test_pool.py", "\n".join([
        "import unittest",
        "class TestPoolSync(unittest.TestCase):",
        '    @unittest.skip("PYTHON-5040: the pool reaper is flaky on macOS")',
        "    def test_reaper_sync(self):",
        "        assert reap_sync()",
        '    @unittest.skip("flaky")',
        "    def test_checkout_sync(self):",
        "        assert checkout_sync()",
        "    def test_close_sync(self):",
        "        # Workaround for PYTHON-5182",
        "        drain_sync()",
        "",
    ]))
    project.commit("Add pool tests")
    found = {(o.path, o.line): o for o in scan_oddities(project.root)}
    assert set(found) == {("test/asynchronous/test_pool.py", 3), ("test/asynchronous/test_pool.py", 6),
                          ("test/asynchronous/test_pool.py", 10), ("test/test_pool.py", 6)}
    assert found["test/asynchronous/test_pool.py", 3].copies == ["test/test_pool.py:3"]
    assert found["test/asynchronous/test_pool.py", 10].copies == ["test/test_pool.py:10"]


def test_a_sleep_in_a_loop_that_says_it_waits_for_a_state_paces_the_wait(project):
    """Issue 20 round 9 (certbot, elasticsearch-py): "Wait and block until given url responds with status
    200", "Wait for a change to be propagated to all Route53 DNS servers" and "# wait for yellow status"
    over a ``for`` loop that returns once the state is reached: its sleep is the poll interval (labeled
    noise). A ``for`` loop retrying an operation that returns on success, with no such words, is a
    retry whose sleep is still a question (sqlalchemy's Oracle reconnect and hatch's
    ``wait_for_dir_removed``, labeled meaningful, have none)."""
    project.write("src/pkg/waiting.py", "\n".join([
        "import time",
        "def check_until_timeout(url, attempts=30):",
        '    """Wait and block until the url responds with status 200."""',
        "    for _ in range(attempts):",
        "        time.sleep(1)",  # 5: paces the wait
        "        if get(url).status_code == 200:",
        "            return",
        "    raise ValueError(url)",
        "def client(url):",
        "    c = connect(url)",
        "    # wait for yellow status",
        "    for tries_left in range(100, 0, -1):",
        "        try:",
        "            c.health(wait_for_status='yellow')",
        "            return c",
        "        except ConnectionError:",
        "            time.sleep(0.1)",  # 17: paces the wait
        "def connect_with_retry(dbapi):",
        "    for _ in range(5):",
        "        try:",
        "            return dbapi.connect()",
        "        except dbapi.OperationalError:",
        "            time.sleep(2)",  # 23: why retry, on what error?
        "def wait_for_dir_removed(path):",
        "    for _ in range(10):",
        "        if path.is_dir():",
        "            rmtree(path, ignore_errors=True)",
        "            time.sleep(0.5)",  # 28: why does the removal need retrying?
        "        else:",
        "            return",
        "",
    ]))
    project.commit("Add waiting helpers")
    assert [o.line for o in scan_oddities(project.root) if o.path == "src/pkg/waiting.py"] == [23, 28]


def test_vendored_folders_library_banners_and_capitalised_doc_examples_are_not_the_projects(project):
    """Issue 20 round 10 (botocore, luigi, billiard): ``botocore/vendored/six.py`` (no manifest, no README:
    the folder's name says it), luigi's ``lib/mustache.js`` (a ``/*!`` banner naming the library's home)
    and billiard's ``Doc/includes/mp_synchronize.py`` (CPython's layout: a documentation example) were
    labeled noise. A ``vendor/`` folder (chalice's is the user's) and a ``/*!`` comment of the project's
    own stay questions."""
    hack = "# Hack to keep the module importable on Python 2\nimport sys\n"
    project.write("src/pkg/vendored/__init__.py", "")
    project.write("src/pkg/vendored/requests/packages/urllib3/util.py", hack)
    project.write("src/pkg/vendored/six.py", hack)
    project.write("src/pkg/vendor/loader.py", hack)
    project.write("web/lib/mustache.js", "/*!\n * mustache.js - Logic-less templates\n * http://github.com/janl/mustache.js\n */\n"
                  "// workaround for the IE8 split bug: split again\nvar parts = split(s);\n")
    project.write("web/app.js", "/*!\n * The visualiser's own code\n */\n// workaround for the IE8 split bug: split again\nvar parts = split(s);\n")
    project.write("Doc/includes/mp_synchronize.py", "import time\ndef worker(q):\n    time.sleep(0.5)\n")
    project.commit("Add copied-in code")
    assert {o.path for o in scan_oddities(project.root)} == {"src/pkg/vendor/loader.py", "web/app.js"}


def test_a_sleep_or_a_marker_the_workaround_comment_above_explains_is_its_question(project):
    """Issue 20 round 10 (scapy, pyopenssl): the sleep of the loop under "# Workaround for file not found
    error: We wait until tempfile is written." and a "Gross hack: ... See giant comment above." were
    labeled duplicates of the workaround asked just above (noise). A sleep a workaround comment of its
    own explains, and a marker pointing above in a file with no question there, stay questions."""
    project.write("src/pkg/viewer.py", "\n".join([
        "import os, time",
        "def show(target):",
        "    # Workaround for file not found error: We wait until tempfile is written.",  # 3
        "    start = time.time()",
        "    while not os.path.exists(target):",
        "        time.sleep(0.1)",  # 6: the loop of the workaround of line 3
        "        if time.time() - start > 3:",
        "            break",
        "",
    ]))
    project.write("tests/test_dtls.py", "\n".join([
        "def test_handshake():",
        "    # HACK: OpenSSL hides the ClientHello from us, so we sniff it from the wire;",  # 2
        "    # the giant explanation goes on here.",
        "    data = sniff()",
        "    for chunk in data:",
        "        # Gross hack: if this is a ClientHello, save it so we can find it",  # 6: points at line 2
        "        # later. See giant comment above.",
        "        keep(chunk)",
        "",
    ]))
    project.write("src/pkg/poll.py", "\n".join([
        "import time",
        "def settle():",
        "    # Gross hack: the device needs a moment. See the comment above.",  # 3: nothing asked above
        "    reset()",
        "    time.sleep(0.1)  # workaround for the firmware's slow reset",  # 5: its own workaround
        "",
    ]))
    project.commit("Add workarounds")
    assert sorted((o.path, o.line) for o in scan_oddities(project.root)) == [
        ("src/pkg/poll.py", 3), ("src/pkg/poll.py", 5), ("src/pkg/viewer.py", 3), ("tests/test_dtls.py", 2)]


def test_a_skip_machinery_fixture_a_quoted_upstream_comment_and_a_users_workaround_ask_nothing(project):
    """Issue 20 round 10 (tortoise-orm, GitPython, pelican): ``@test.skip("Skip it")`` on ``test_skip``, whose
    body is ``self.assertTrue(False)``, tests the skip decorator; "From refs/files-backend.c in git-source:"
    quotes git's own "Special hack"; "it can be worked around by prefixing the pattern ... make the workaround
    impossible" is the users' workaround the code keeps possible (all labeled noise). A skipped test with a
    real body, a skip named so whose body tests something, and a hack of the code's own stay questions."""
    project.write("tests/test_tester.py", "\n".join([
        "from pkg import test",
        "class TestTester(test.TestCase):",
        '    @test.skip("Skip it")',
        "    def test_skip(self):",
        "        self.assertTrue(False)",
        '    @test.skip("the header parser is broken on CRLF input")',  # 6: a real test turned off
        "    def test_skip_header(self):",
        "        self.assertEqual(parse('a\\r\\n'), ['a'])",
        '    @test.skip("needs the network")',  # 9: a real test turned off
        "    def test_fetch(self):",
        "        self.fail()",
        "",
    ]))
    project.write("src/pkg/reference.py", "\n".join([
        "def set_object(self, oldbinsha):",
        "    if oldbinsha is not None:",
        "        # From refs/files-backend.c in git-source:",
        "        # /*",
        "        #  * Special hack: If a branch is updated directly and HEAD",
        "        #  * points to it then logically the HEAD reflog should be updated too.",
        "        #  */",
        "        self.log_append(oldbinsha)",
        "    # Special hack: the index is rewritten twice, or git sees a stale mtime",  # 9: our own
        "    self.index.write()",
        "",
    ]))
    project.write("src/pkg/paginator.py", "\n".join([
        "def url(ret):",
        "    # Remove a single leading slash. If one is needed, it can be worked around by prefixing the",
        "    # pattern by an additional slash. This code can't use lstrip() because that would",
        "    # make the workaround impossible.",
        "    return ret[1:] if ret.startswith('/') else ret",
        "",
    ]))
    project.commit("Add code")
    asked = sorted((o.path, o.line) for o in scan_oddities(project.root))
    assert asked == [("src/pkg/reference.py", 9), ("tests/test_tester.py", 6), ("tests/test_tester.py", 9)]


def test_a_marker_naming_a_feature_the_docs_describe_is_that_feature(project):
    """Issue 20 round 9 (borg): "# detect slashdot hack" and "the directory the slashdot hack points to"
    name the rsync-like ``/./`` path stripping that borg's FAQ and usage pages teach as "the slashdot hack"
    (labeled noise). A hack the docs name only in the changelog, or a generic "ugly hack" the docs also
    mention, stays a question."""
    project.write("docs/faq.rst", "FAQ\n===\n\nTo strip a prefix, use the slashdot hack: ``borg create /mnt/./docs``.\n"
                  "Never use an ugly hack in production.\n")
    project.write("docs/changes.rst", "Changes\n=======\n\n- fixed the tarfile hack on Windows\n")
    project.write("src/pkg/fs.py", "\n".join([
        "def strip(path):",
        '    pos = path.find("/./")  # detect slashdot hack',  # 2: the documented feature
        "    return path[pos + 3:]",
        "",
    ]))
    project.write("src/pkg/archive.py", "def add(path):\n    # this is the directory the slashdot hack points to\n    return '.'\n")
    project.write("src/pkg/tar.py", "def extract(t):\n    # tarfile hack: Windows paths need a second pass\n    return t\n")
    project.write("src/pkg/ugly.py", "def run():\n    # an ugly hack: the registry is global\n    return 1\n")
    project.commit("Add code and docs")
    assert sorted(o.path for o in scan_oddities(project.root)) == ["src/pkg/tar.py", "src/pkg/ugly.py"]


def test_a_test_module_named_the_scons_way_paces_its_steps(project):
    """Issue 20 round 11 (SCons): the sleeps of ``SCons/Node/FSTests.py``, ``SCons/Taskmaster/JobTests.py``
    and ``testing/framework/TestCmdTests.py`` (a new mtime, a simulated task, the test of ``sleep``
    itself) were asked as if product code's; all labeled noise. The same sleep in a product module
    named like a word ending in "tests" (``contests.py``) is still asked."""
    sleeper = "import time\ndef step():\n    time.sleep(2)\n"
    for rel in ("SCons/Node/FSTests.py", "SCons/Taskmaster/JobTests.py", "testing/framework/TestCmdTests.py",
                "tests/basics/ParameterErrorsTest.py", "src/app/contests.py"):
        project.write(rel, sleeper)
    project.commit("Add sleeps")
    assert [(o.path, o.line) for o in scan_oddities(project.root)] == [("src/app/contests.py", 3)]


def test_the_same_workaround_again_in_one_file_is_one_question(project):
    """Issue 20 round 11 (yt-dlp, SCons, kinto): "due to `multi_video` workaround" and "we need a
    `multi_video` workaround" 17 lines apart, "As a hack, just skip." under two reasons a package cannot
    be built, "HACK: undo status code change from rebuild_method" in the method after the hack of
    ``rebuild_method``, and the same ``time.sleep(0.001)`` between three writes of one test were labeled
    duplicates (noise). Two hacks of one function, a marker naming a function with no question, and the
    same sleep far apart stay questions."""
    project.write("src/pkg/bili.py", "\n".join([
        "def formats(info):",
        "    # Flv and mp4 are incompatible due to `multi_video` workaround, so drop one",  # 2
        "    drop_flv(info)",
        *["    step()"] * 14,
        "    # Binary concatenation corrupts their timestamps, so we need a `multi_video` workaround",  # 18: same workaround
        "    return split(info)",
        "",
    ]))
    project.write("src/pkg/package.py", "\n".join([
        "def build(env):",
        "    # bsdtar on Windows cannot write bzip2, so a test using it will fail. As a hack, just skip.",  # 2
        "    skip_bz2(env)",
        *["    step()"] * 12,
        "    # xz compression is missing too, so a test using it will fail. As a hack, just skip.",  # 16: same hack
        "    skip_xz(env)",
        "",
    ]))
    project.write("src/pkg/redirects.py", "\n".join([
        "class Session:",
        "    def rebuild_method(self, request, response):",
        "        # HACK: requests removes headers/body on redirect unless code was a 307/308.",  # 3
        "        response.status_code = 308",
        "",
        "    def rebuild_auth(self, request, response):",
        "        # HACK: undo status code change from rebuild_method, if applicable.",  # 7: the other half of line 3
        "        response.status_code = response.real",
        "",
    ]))
    project.write("src/pkg/repl.py", "\n".join([
        "def attach(stdin):",
        "    # others are picky about their streams, so here's a hack to keep them happy",  # 2
        "    stdin.encoding = 'utf-8'",
        "    # hack to make closing stdin a nop",  # 4: another hack of the same function
        "    stdin.close = lambda: None",
        "",
    ]))
    project.write("src/pkg/loader.py", "\n".join([
        "def rebuild_paths(paths):",
        "    return sorted(paths)",
        "",
        "def load(paths):",
        "    # HACK: the loader must not see rebuild_paths' output twice",  # 5: names a function with no question
        "    return set(paths)",
        "",
    ]))
    project.write("src/pkg/store.py", "\n".join([
        "import time",
        "def write_three(store):",
        "    store.create('a')",
        "    time.sleep(0.001)",  # 4
        "    store.create('b')",
        "    time.sleep(0.001)",  # 6: the same pause again
        "    store.create('c')",
        *["    step()"] * 10,
        "    time.sleep(0.001)",  # 18: far below: its own question
        "",
    ]))
    project.commit("Add workarounds")
    assert sorted((o.path, o.line, tuple(o.copies)) for o in scan_oddities(project.root)) == [
        ("src/pkg/bili.py", 2, ("src/pkg/bili.py:18",)), ("src/pkg/loader.py", 5, ()), ("src/pkg/package.py", 2, ("src/pkg/package.py:16",)),
        ("src/pkg/redirects.py", 3, ("src/pkg/redirects.py:7",)), ("src/pkg/repl.py", 2, ()), ("src/pkg/repl.py", 4, ()), ("src/pkg/store.py", 4, ("src/pkg/store.py:6",)), ("src/pkg/store.py", 18, ())]


def test_code_taken_from_another_project_and_a_workaround_if_ever_needed_ask_nothing(project):
    """Issue 20 round 11 (SCons, Nuitka): "test code taken from autoconf: this is a pretty clever hack" is
    autoconf's trick, and "if we ever find we need them, we need to workaround that" a workaround the code
    does not have; both labeled noise. "taken from the docs:" and a workaround the code has stay asked."""
    project.write("src/pkg/conftest_checks.py", "\n".join([
        "def check_sizeof(context):",
        "    # test code taken from autoconf: this is a pretty clever hack to find the size of a type",  # 2
        "    return compile_check(context)",
        "def literal(text):",
        "    # Sets are not supported; if we ever find we need them, we need to workaround that",  # 5
        "    return parse(text)",
        "def other(text):",
        "    # code taken from the docs: a hack to parse set literals on old Pythons",  # 8: still ours
        "    return parse(text)",
        "",
    ]))
    project.commit("Add checks")
    assert [(o.path, o.line) for o in scan_oddities(project.root)] == [("src/pkg/conftest_checks.py", 8)]


def test_a_do_not_marker_that_labels_a_setting_goes_on_a_sentence_or_names_a_test_step_narrates(project):
    """Issue 20 round 11 (Nuitka, xonsh, aws-cli, kinto): "Unstripped mode: Do not remove debug symbols." over
    ``unstripped_mode = ...``, "Do not remove parameter variables of ours." over the assert that checks
    it, "... an alias-macro line — comments / don't change either decision.", "... which means / don't
    change the existing values." and, in a test, "Do not change the timestamp." over the update under
    test were labeled noise. "Don't remove this line." (idna) and a test's "Don't remove this line!" are
    warnings, and stay questions."""
    project.write("src/pkg/settings.py", "\n".join([
        "def options(args):",
        "    # Unstripped mode: Do not remove debug symbols.",  # 2
        "    unstripped_mode = flag(args, 'unstripped_mode')",
        "    # Decide whether this statement is a subprocess command and/or an alias-macro line — comments",
        "    # don't change either decision.",  # 5
        "    return unstripped_mode",
        "def remove_closure_variable(self, variable):",
        "    # Do not remove parameter variables of ours.",  # 8
        "    assert not variable.isParameterVariable() or variable.getOwner() is not self",
        "    self.scope.unregister(variable)",
        "",
    ]))
    project.write("src/pkg/driver.py", "\n".join([
        "import encodings.idna",
        "# Don't remove this line.  The idna encoding is used by getaddrinfo with unicode hostnames.",  # 2: a warning
        "HISTORY = recorder()",
        "",
    ]))
    project.write("tests/test_storage.py", "\n".join([
        "def test_update_keeps_timestamp(storage):",
        "    stored = storage.create({'a': 1})",
        "    # Do not change the timestamp.",  # 3
        "    storage.update(stored)",
        "def test_prompt(prompter):",
        "    # If a user hits enter, this will result in a None value which means",
        "    # don't change the existing values.",  # 7
        "    prompter.answer(None)",
        "def test_locals(obj):",
        "    locals()[42] = 99  # Don't remove this line!",  # 10: a warning
        "",
    ]))
    project.commit("Add markers")
    assert sorted((o.path, o.line) for o in scan_oddities(project.root)) == [("src/pkg/driver.py", 2), ("tests/test_storage.py", 10)]


def test_test_folders_with_a_space_test_cases_an_example_app_and_a_pause_for_ctrl_c_ask_nothing(project):
    """Issue 20 round 12 (meson, django-silk, nikola): the sleeps and ``#[ignore]`` of meson's
    ``test cases/`` (projects its suite builds) and ``manual tests/``, a sleep in ``project/example_app/``,
    and "(press Ctrl+C to abort)" before ``time.sleep(5)`` were labeled noise. The same sleep in
    product code and an ``#[ignore]`` of the project's own tests stay questions."""
    sleeper = "import time\ndef step():\n    time.sleep(2)\n"
    project.write("test cases/wasm/2 threads/threads.py", sleeper)
    project.write("test cases/rust/9 unit tests/test.rs", "#[test]\n#[ignore]\nfn skipped() {}\n")
    project.write("manual tests/8 timeout/sleepprog.py", sleeper)
    project.write("project/example_app/views.py", sleeper)
    project.write("src/pkg/deploy.py", "\n".join([
        "import time",
        "def deploy(log):",
        "    log.warning('Think about it for 5 seconds, I will wait (press Ctrl+C to abort)')",
        "    time.sleep(5)",  # 4: the user's time to stop it
        "def push():",
        "    time.sleep(2)",  # 6: a question
        "",
    ]))
    project.write("crates/core/tests/decimals.rs", "#[test]\n#[ignore] // needs investigation\nfn decimals() {}\n")
    project.commit("Add sleeps")
    assert sorted((o.path, o.line) for o in scan_oddities(project.root)) == [("crates/core/tests/decimals.rs", 2), ("src/pkg/deploy.py", 6)]
