"""The sweep's judgement on tool calls and prompts (the reading is helper E's)."""

from __future__ import annotations

import pytest

from cc_hooks.checks.session_sweep import Call, command_key, find_outcomes, is_correction


def bash(i, command, ok, output=""):
    return Call(i, "Bash", command, None, ok, output, f"2026-11-29T10:00:{i:02d}Z")


def edit(i, path):
    return Call(i, "Edit", None, path, True, "", f"2026-11-29T10:00:{i:02d}Z")


def test_command_key_ignores_pipes_and_redirections():
    assert command_key("python3 -m pytest -q test_calc.py 2>&1 | tail -5; exit ${PIPESTATUS[0]}") == "python3 -m pytest -q test_calc.py"
    assert command_key("python3 -m pytest -q test_calc.py 2>&1 | tail -3") == "python3 -m pytest -q test_calc.py"


def test_fail_edit_pass_is_an_outcome_with_its_error_line():
    calls = [
        bash(1, "python3 -m pytest -q test_calc.py 2>&1 | tail -5", False, "Exit code 1\nFAILED test_calc.py::test_add - assert -1 == 5\n1 failed"),
        edit(2, "calc.py"),
        bash(3, "python3 -m pytest -q test_calc.py 2>&1 | tail -3", True, "1 passed"),
    ]
    [outcome] = find_outcomes(calls)
    assert outcome.is_test and outcome.edits == ["calc.py"]
    assert outcome.error == "FAILED test_calc.py::test_add - assert -1 == 5"


def test_retry_without_an_edit_is_not_an_outcome():
    calls = [bash(1, "curl -s localhost:8000", False, "Connection refused"), bash(2, "curl -s localhost:8000", True, "ok")]
    assert find_outcomes(calls) == []


def test_failure_never_fixed_is_not_an_outcome():
    assert find_outcomes([bash(1, "make", False, "error: x"), edit(2, "a.c")]) == []


@pytest.mark.parametrize("prompt", [
    "No, don't add float support; we decided to keep integer-only arithmetic.",
    "actually use the v2 endpoint",
    "Wait, that's the wrong file",
    "no",
    "Don't push to main.",
    "Looks good. Please don't add a dependency for this.",
    "I told you to keep the API stable",
    "that's not what I asked for",
    "Why did you delete the test?",
])
def test_a_correction_or_a_constraint_is_a_correction(prompt):
    assert is_correction(prompt)


@pytest.mark.parametrize("prompt", [
    "What is next?",
    "Implement spotter-gqc; don't forget to run the tests",
    "No problem, continue",
    "I don't know, pick one",
    "Wait for CI to finish, then merge",
    "Use a list instead of the dict",
    "never mind, continue",
    "Stop the dev server and restart it",
    "did you push?",
])
def test_an_ordinary_prompt_is_not_a_correction(prompt):
    assert not is_correction(prompt)


def test_corrections_in_real_prompts_only():
    assert not is_correction("<command-name>/compact</command-name>")
    assert not is_correction("/compact keep the decisions")


def test_a_passing_full_suite_closes_the_targeted_failure():
    calls = [
        bash(1, "cd /repo && mix test test/a_test.exs 2>&1", False, "Exit code 2\n  1) test x\n     Assertion with == failed\n1 failure"),
        edit(2, "lib/a.ex"),
        bash(3, "mix test 2>&1", True, "10 tests, 0 failures"),
    ]
    [outcome] = find_outcomes(calls)
    assert outcome.command == "mix test test/a_test.exs" and outcome.error == "Assertion with == failed"


def test_a_passing_targeted_run_does_not_close_the_full_suite():
    calls = [bash(1, "pytest", False, "FAILED tests/test_b.py::test_b"), edit(2, "b.py"), bash(3, "pytest tests/test_a.py", True, "1 passed")]
    assert find_outcomes(calls) == []


def test_version_control_and_look_ups_are_not_outcomes():
    for command, error in (("git push", "fatal: The current branch x has no upstream branch."), ("ls build/out.txt", "No such file")):
        calls = [bash(1, command, False, f"Exit code 1\n{error}"), edit(2, "x.py"), bash(3, command, True, "")]
        assert find_outcomes(calls) == [], command
    hooked = [bash(1, "git add -A && git commit -m 'first try'", False, "Pre-commit validation failed:\\n\\n[CREDO] x"),
              edit(2, "x.py"), bash(3, "git add -A && git commit -m 'first try'", True, "[main 1a2b3c4] first try")]
    assert find_outcomes(hooked) == []  # a commit refused by a lint gate, then accepted: routine, not a symptom


def test_error_line_prefers_the_telling_line_over_warnings_and_the_exit_code():
    from cc_hooks.checks.session_sweep import error_line

    assert error_line("Exit code 128\nfatal: pathspec 'x' did not match any files") == "fatal: pathspec 'x' did not match any files"
    assert error_line("Exit code 2\n12:00 [warning] Failed to parse x\n  1) test y\n     Assertion with == failed") == "Assertion with == failed"
    assert error_line("Pre-commit validation failed:\\n\\n[CREDO] x") == "Pre-commit validation failed:"
    assert error_line("Exit code 1\nTraceback (most recent call last):\n  File \"a.py\", line 1\nKeyError: 'k'") == "KeyError: 'k'"


def test_each_new_error_of_a_failing_streak_is_kept():
    calls = [
        bash(1, "mix test test/a_test.exs", False, "Exit code 1\n** (CompileError) test/a_test.exs: cannot compile"),
        edit(2, "test/a_test.exs"),
        bash(3, "mix test test/a_test.exs", False, "Exit code 2\n     ** (RuntimeError) no :secret_key_base configuration found"),
        edit(4, "config/test.exs"),
        bash(5, "mix test test/a_test.exs", False, "Exit code 2\n     ** (RuntimeError) no :secret_key_base configuration found"),
        edit(6, "config/test.exs"),
        bash(7, "mix test test/a_test.exs", True, "5 tests, 0 failures"),
    ]
    [outcome] = find_outcomes(calls)
    assert outcome.error.startswith("** (CompileError)")
    assert outcome.later_errors == ["** (RuntimeError) no :secret_key_base configuration found"]
    assert outcome.edits == ["test/a_test.exs", "config/test.exs"]


def test_a_passing_file_run_closes_the_failing_test_id_in_that_file():
    calls = [
        bash(1, "pytest -q test_calc.py::test_add", False, "FAILED test_calc.py::test_add - assert -1 == 5"),
        edit(2, "calc.py"),
        bash(3, "pytest -q test_calc.py", True, "2 passed"),
    ]
    [outcome] = find_outcomes(calls)
    assert outcome.command == "pytest -q test_calc.py::test_add" and outcome.edits == ["calc.py"]
