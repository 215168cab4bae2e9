"""Guard references resolve against HEAD, or say where and why not."""

from __future__ import annotations

import json
import sys

import pytest

from cc_hooks.config import load_config
from cc_hooks.guards.resolve import CONFIG, NONE, PYTEST, SCRIPT, classify, resolve_guards, split_references

from .conftest import ADD_SYMPTOM, cc_hooks, commit, git, symptom_entry


def append_entry(repo, entry: str, commit_it: bool = True, extra: dict | None = None) -> None:
    text = (repo / "SYMPTOMS.md").read_text(encoding="utf-8") + entry
    files = {"SYMPTOMS.md": text, **(extra or {})}
    if commit_it:
        commit(repo, "Record another cause", files)
    else:
        for name, body in files.items():
            (repo / name).write_text(body, encoding="utf-8")


def by_observable(resolution, words: str):
    return [g for g in resolution.guards if g.record and words in g.record.observable]


def test_the_three_recorded_guards_resolve_with_their_record(calc_repo, fix_shas):
    resolution = resolve_guards(calc_repo)
    assert [g.kind for g in resolution.guards] == [PYTEST, PYTEST, PYTEST]
    assert resolution.unresolved == []
    lines = (calc_repo / "SYMPTOMS.md").read_text(encoding="utf-8").splitlines()
    add = by_observable(resolution, ADD_SYMPTOM)[0]
    assert add.ref == "tests/test_add.py::test_add"
    assert "**Guard**" in lines[add.line - 1] and "test_add" in lines[add.line - 1]
    assert lines[add.record.symptom_line - 1] == f"## Symptom: {ADD_SYMPTOM}"
    assert add.fixes == [fix_shas["add"][:12]]
    assert add.name.startswith("cause-1-add-subtracted")
    assert add.argv == ["python", "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_add.py::test_add"]
    mul = by_observable(resolution, "mul")[0]
    assert mul.ref == "tests/test_mul.py::TestMul::test_returns_an_int"  # the code span, not the prose after it
    assert len({g.name for g in resolution.guards}) == 3


@pytest.mark.parametrize(
    "guard, problem",
    [
        ("`tests/test_add.py::test_missing`", "no definition of `test_missing`"),
        ("`tests/test_add.py::TestNope::test_add`", "no definition of `TestNope`"),
        ("`tests/test_gone.py::test_x`", "no such file at HEAD"),
        ("`/etc/passwd`", "absolute path"),
        ("`../outside/check.sh`", "escapes the repository"),
        ("careful manual inspection", "not a test id, a tracked script"),
        ("none", "`none` without the gap"),
        ("`tests/test_add.py::test_add -x --pdb`", "a test id takes no arguments"),
    ],
)
def test_a_reference_that_does_not_resolve_is_reported_at_its_line(calc_repo, guard, problem):
    append_entry(calc_repo, symptom_entry("div(1, 0) hangs", "div() looped", "abc1234", guard))
    resolution = resolve_guards(calc_repo)
    [bad] = by_observable(resolution, "div(1, 0)")
    assert bad.problem and problem in bad.problem
    assert bad in resolution.unresolved
    line = (calc_repo / "SYMPTOMS.md").read_text(encoding="utf-8").splitlines()[bad.line - 1]
    assert line.startswith("- **Guard**:")


def test_an_untracked_test_file_does_not_resolve_until_committed(calc_repo):
    test = "tests/test_div.py"
    entry = symptom_entry("div(1, 0) hangs", "div() looped", "abc1234", f"`{test}::test_div`")
    append_entry(calc_repo, entry, commit_it=False, extra={test: "def test_div():\n    pass\n"})
    [guard] = by_observable(resolve_guards(calc_repo), "div(1, 0)")
    assert "not committed at HEAD" in guard.problem
    git(calc_repo, "add", "SYMPTOMS.md", test)
    git(calc_repo, "commit", "-q", "-m", "Add the div test")
    [guard] = by_observable(resolve_guards(calc_repo), "div(1, 0)")
    assert guard.problem is None and guard.runnable


def test_an_explicit_none_with_its_gap_is_not_a_problem_but_a_bare_none_and_a_missing_field_are(calc_repo):
    append_entry(calc_repo, symptom_entry("the LED blinks twice", "timer race", "abc1234",
                                          "none — needs a photodiode rig we do not have"))
    entry = symptom_entry("the fan never stops", "no hysteresis", "abc1234", "x").replace("- **Guard**: x\n", "")
    append_entry(calc_repo, entry)
    resolution = resolve_guards(calc_repo)
    [led] = by_observable(resolution, "LED")
    assert led.kind == NONE and led.problem is None and led.gap == "needs a photodiode rig we do not have"
    [fan] = by_observable(resolution, "fan")
    assert fan.kind == NONE and "has no **Guard**" in fan.problem
    lines = (calc_repo / "SYMPTOMS.md").read_text(encoding="utf-8").splitlines()
    assert lines[fan.line - 1].startswith("### Cause 1: no hysteresis")


def test_scripts_resolve_when_tracked_and_run_the_repo_file(calc_repo):
    append_entry(calc_repo, symptom_entry("render is black", "uninitialized buffer", "abc1234",
                                          "`scripts/check_render.sh --frames 3`; `python scripts/probe.py`"),
                 extra={"scripts/check_render.sh": "#!/bin/sh\nexit 0\n", "scripts/probe.py": "print('ok')\n"})
    first, second = by_observable(resolve_guards(calc_repo), "render")
    assert (first.kind, first.problem, first.argv) == (SCRIPT, None, ["scripts/check_render.sh", "--frames", "3"])
    assert second.argv == ["python", "scripts/probe.py"] and second.problem is None
    assert second.name == first.name + "-2"
    assert classify("check.sh", load_config(calc_repo)).argv == ["./check.sh"]  # never a program found on PATH
    git(calc_repo, "rm", "-q", "scripts/probe.py")
    git(calc_repo, "commit", "-q", "-m", "Drop the probe")
    first, second = by_observable(resolve_guards(calc_repo), "render")
    assert first.problem is None and "no such file at HEAD" in second.problem


def test_configured_guards_are_named_by_causes_or_listed_on_their_own(calc_repo):
    (calc_repo / ".cc-hooks.toml").write_text(
        '[guards.render]\nargv = ["./scripts/render_check", "--strict"]\ntimeout = 5\n\n'
        f'[guards.lonely]\nargv = ["true"]\nsymptom = "{ADD_SYMPTOM}"\n', encoding="utf-8")
    append_entry(calc_repo, symptom_entry("render is black", "uninitialized buffer", "abc1234", "`render`"))
    resolution = resolve_guards(calc_repo)
    [render] = by_observable(resolution, "render is black")
    assert (render.kind, render.config_name, render.argv, render.timeout) == (CONFIG, "render", ["./scripts/render_check", "--strict"], 5)
    assert render.needs_trust and render.fixes == ["abc1234"]
    [lonely] = [g for g in resolution.guards if g.config_name == "lonely"]
    assert lonely.source == ".cc-hooks.toml" and lonely.record.observable == ADD_SYMPTOM and lonely.fixes == []
    assert [g.name for g in resolution.select(["lonely"])[0]] == ["lonely"]


def test_split_references():
    assert split_references("none: no rig") == ("no rig", None)
    assert split_references("`None` — see the gap below") == ("see the gap below", None)
    assert split_references("`a.py::t` (slow); scripts/x.sh") == ("", ["a.py::t", "scripts/x.sh"])
    assert split_references("nonexistent.py::test") == ("", ["nonexistent.py::test"])
    config = load_config(None)
    assert classify("python -m pytest -q tests/t.py::test_a", config).pointer == "tests/t.py::test_a"
    assert classify("tests/test_whole.py", config).kind == PYTEST


def test_select_by_symptom_words_slug_and_name(calc_repo):
    resolution = resolve_guards(calc_repo)
    add = by_observable(resolution, ADD_SYMPTOM)[0]
    for word in ("returns -1", "ADD(2, 3)", add.record.symptom_slug, add.name, add.ref):
        assert resolution.select([word]) == ([add], [])
    assert resolution.select(["no such thing"]) == ([], ["no such thing"])


def test_guards_list_command_exit_codes_both_ways(calc_repo):
    ok = cc_hooks("guards", "list", "--json", cwd=calc_repo)
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["unresolved"] == 0
    append_entry(calc_repo, symptom_entry("div(1, 0) hangs", "div() looped", "abc1234", "`tests/test_add.py::test_nope`"))
    bad = cc_hooks("guards", "list", cwd=calc_repo)
    assert bad.returncode == 1
    assert "SYMPTOMS.md:" in bad.stdout and "UNRESOLVED" in bad.stdout and "test_nope" in bad.stdout


def test_two_test_ids_separated_by_a_comma_are_two_guards():
    assert split_references("tests/a.py::test_x, tests/b.py::test_y") == ("", ["tests/a.py::test_x", "tests/b.py::test_y"])
    assert split_references("`tests/a.py::test_x`, `tests/b.py::test_y[1]`") == ("", ["tests/a.py::test_x", "tests/b.py::test_y[1]"])
    assert split_references("python tools/check.py --a, --b") == ("", ["python tools/check.py --a, --b"])  # a command's arguments
