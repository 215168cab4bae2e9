"""The `guards` checklist item: resolvable guards, and no failing last proof."""

from __future__ import annotations

from cc_hooks.checks import COULD_NOT_CHECK, FAIL, PASS, run_check
from cc_hooks.checks.context import make_context
from cc_hooks.guards.prove import prove_guards
from cc_hooks.guards.resolve import resolve_guards
from cc_hooks.runtime import Deadline
from cc_hooks.state import state_dir

from .conftest import MUL_SYMPTOM, commit, symptom_entry


def check(repo):
    return run_check(make_context(repo, Deadline(30)), "guards")


def test_passes_when_every_guard_resolves_and_none_was_proven_bad(calc_repo, isolated):
    result = check(calc_repo)
    assert result.status == PASS, result.findings
    assert result.data["guards"] == 3 and result.data["unproven"] == 3
    add = resolve_guards(calc_repo).select(["returns -1"])[0]
    prove_guards(calc_repo, add, trusted=False)
    result = check(calc_repo)
    assert result.status == PASS and result.data["proven"] == 1 and "1 PROVEN" in result.summary


def test_fails_on_a_guard_last_proven_does_not_detect_and_passes_once_reproven(calc_repo, isolated):
    mul = resolve_guards(calc_repo).select([MUL_SYMPTOM])[0]
    prove_guards(calc_repo, mul, trusted=False)
    result = check(calc_repo)
    assert result.status == FAIL
    [finding] = result.findings
    assert "DOES-NOT-DETECT" in finding.message and f"cc-hooks guards prove {mul[0].name}" in finding.message
    assert (finding.file, finding.line) == ("SYMPTOMS.md", mul[0].line)
    # the guard is rewritten to really detect the bug: the old proof no longer counts
    better = "from calc_mul import mul\n\n\nclass TestMul:\n    def test_returns_an_int(self):\n        assert mul(2, 3) == 6\n"
    commit(calc_repo, "Make the mul guard detect the bug", {"tests/test_mul.py": better})
    prove_guards(calc_repo, resolve_guards(calc_repo).select([MUL_SYMPTOM])[0], trusted=False)
    assert check(calc_repo).status == PASS


def test_fails_on_an_unresolved_guard_or_a_bare_none(calc_repo):
    text = (calc_repo / "SYMPTOMS.md").read_text(encoding="utf-8")
    text += symptom_entry("div(1, 0) hangs", "div() looped", "abc1234", "`tests/test_div.py::test_div`")
    text += symptom_entry("the LED blinks", "timer race", "abc1234", "none")
    text += symptom_entry("the fan spins", "no hysteresis", "abc1234", "none — needs a tachometer")
    commit(calc_repo, "Record three more", {"SYMPTOMS.md": text})
    result = check(calc_repo)
    assert result.status == FAIL
    messages = [f.message for f in result.findings]
    assert len(messages) == 2
    assert any("div(1, 0) hangs" in m and "no such file at HEAD" in m for m in messages)
    assert any("the LED blinks" in m and "without the gap" in m for m in messages)
    assert all(f.line for f in result.findings)
    assert result.data["gaps"] == 1


def test_an_unreadable_ledger_is_could_not_check_and_a_missing_one_passes(calc_repo):
    (calc_repo / "SYMPTOMS.md").unlink()
    assert check(calc_repo).status == PASS  # no recorded fix; the ledgers check reports the missing file
    (calc_repo / "SYMPTOMS.md").mkdir()
    result = check(calc_repo)
    assert result.status == COULD_NOT_CHECK and "cannot read" in result.summary
    assert state_dir(calc_repo) is not None
