"""Guards run without a shell and are read tri-state; could-not-observe is never healthy."""

from __future__ import annotations

import json
import os
import sys
import time

import pytest

from cc_hooks import trust
from cc_hooks.config import load_config
from cc_hooks.guards.resolve import resolve_guards
from cc_hooks.guards.run import ANOMALY, HEALTHY, UNOBSERVED, run_guard

from .conftest import ADD_SYMPTOM, cc_hooks, commit, git, symptom_entry


def configure(repo, guards: dict[str, dict]) -> None:
    """Declare guards in .cc-hooks.toml (untracked is fine: config is read from the work tree)."""
    import tomli_w

    (repo / ".cc-hooks.toml").write_text(tomli_w.dumps({"guards": guards}), encoding="utf-8")


def guard_named(repo, name):
    resolution = resolve_guards(repo)
    chosen, unknown = resolution.select([name])
    assert not unknown and len(chosen) == 1
    return chosen[0]


def exits(code: int) -> list[str]:
    return [sys.executable, "-c", f"import sys; sys.exit({code})"]


def test_a_passing_test_is_healthy_and_a_failing_one_an_anomaly(calc_repo):
    add = guard_named(calc_repo, "tests/test_add.py::test_add")
    healthy = run_guard(add, calc_repo, trusted=False)
    assert (healthy.state, healthy.returncode) == (HEALTHY, 0)
    (calc_repo / "calc_add.py").write_text("def add(a, b):\n    return a - b\n", encoding="utf-8")
    broken = run_guard(add, calc_repo, trusted=False)
    assert (broken.state, broken.returncode, broken.reason) == (ANOMALY, 1, "test failed")
    assert "assert -1 == 5" in broken.output


def test_pytest_codes_other_than_0_and_1_are_could_not_observe(calc_repo):
    add = guard_named(calc_repo, "tests/test_add.py::test_add")
    (calc_repo / "tests/test_add.py").write_text("def test_other():\n    pass\n", encoding="utf-8")
    outcome = run_guard(add, calc_repo, trusted=False)  # the test is gone from the work tree: pytest exit 4
    assert outcome.state == UNOBSERVED and outcome.returncode == 4 and "exit 4" in outcome.reason
    (calc_repo / "tests/test_add.py").write_text(
        "import pytest\n\n@pytest.fixture\ndef rig():\n    raise RuntimeError('no rig')\n\n\ndef test_add(rig):\n    pass\n",
        encoding="utf-8")
    errored = run_guard(add, calc_repo, trusted=False)  # pytest exit 1, but only an error in set-up
    assert errored.returncode == 1 and errored.state == UNOBSERVED and "errored" in errored.reason


@pytest.mark.parametrize(
    "argv, state, reason",
    [
        (exits(0), HEALTHY, "exit 0"),
        (exits(1), ANOMALY, "exit 1"),
        (exits(2), UNOBSERVED, "could not observe"),
        (exits(3), UNOBSERVED, "not a verifier code"),
        ([sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGKILL)"], UNOBSERVED, "signal 9"),
        (["./no-such-program"], UNOBSERVED, "cannot run ./no-such-program"),
    ],
)
def test_script_exit_codes_map_tri_state(calc_repo, isolated, argv, state, reason):
    configure(calc_repo, {"g": {"argv": argv}})
    guard = guard_named(calc_repo, "g")
    outcome = run_guard(guard, calc_repo, trusted=True)
    assert outcome.state == state and reason in outcome.reason


def test_a_guard_that_outlives_its_timeout_is_killed_with_its_children(calc_repo, tmp_path):
    pid_file = tmp_path / "child.pid"
    code = ("import subprocess, sys, time; child = subprocess.Popen(['sleep', '30']); "
            f"open({str(pid_file)!r}, 'w').write(str(child.pid)); time.sleep(30)")
    configure(calc_repo, {"slow": {"argv": [sys.executable, "-c", code], "timeout": 1}})
    started = time.monotonic()
    outcome = run_guard(guard_named(calc_repo, "slow"), calc_repo, trusted=True)
    assert outcome.state == UNOBSERVED and "timed out after 1s" in outcome.reason
    assert time.monotonic() - started < 10
    child = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(child)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (exited, not yet reaped by init) counts as gone
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def test_configured_guards_need_trust_and_test_ids_do_not(calc_repo, isolated):
    configure(calc_repo, {"ok": {"argv": exits(0)}})
    guard = guard_named(calc_repo, "ok")
    config = load_config(calc_repo)
    assert not trust.status(calc_repo, config).trusted
    untrusted = run_guard(guard, calc_repo, trusted=False)
    assert untrusted.state == UNOBSERVED and "cc-hooks trust" in untrusted.reason and untrusted.returncode is None
    assert run_guard(guard_named(calc_repo, "tests/test_add.py::test_add"), calc_repo, trusted=False).state == HEALTHY
    trust.trust(calc_repo, config)
    cli = cc_hooks("guards", "run", "ok", "--json", cwd=calc_repo)
    assert cli.returncode == 0, cli.stdout + cli.stderr
    assert json.loads(cli.stdout)["results"][0]["outcome"]["state"] == HEALTHY
    configure(calc_repo, {"ok": {"argv": exits(0), "timeout": 9}})  # a changed table is untrusted again
    again = cc_hooks("guards", "run", "ok", cwd=calc_repo)
    assert again.returncode == 2 and "not trusted" in again.stdout


def test_exit_2_is_never_reported_healthy_by_the_command(calc_repo, isolated):
    configure(calc_repo, {"blind": {"argv": exits(2)}, "fine": {"argv": exits(0)}})
    trust.trust(calc_repo, load_config(calc_repo))
    fine = cc_hooks("guards", "run", "fine", cwd=calc_repo)
    assert fine.returncode == 0 and "HEALTHY" in fine.stdout
    blind = cc_hooks("guards", "run", "blind", cwd=calc_repo)
    assert blind.returncode == 2 and "HEALTHY" not in blind.stdout and "COULD NOT OBSERVE" in blind.stdout
    both = cc_hooks("guards", "run", "fine", "blind", "--json", cwd=calc_repo)
    assert both.returncode == 2
    states = {r["name"]: r["outcome"]["state_name"] for r in json.loads(both.stdout)["results"]}
    assert states == {"fine": "healthy", "blind": "could not observe"}


def test_an_anomaly_names_the_symptom_its_entry_and_the_fix(calc_repo, fix_shas):
    (calc_repo / "calc_add.py").write_text("def add(a, b):\n    return a - b\n", encoding="utf-8")
    before = git(calc_repo, "status", "--porcelain")
    result = cc_hooks("guards", "run", "returns -1", cwd=calc_repo)
    assert result.returncode == 1
    lines = (calc_repo / "SYMPTOMS.md").read_text(encoding="utf-8").splitlines()
    line = lines.index(f"## Symptom: {ADD_SYMPTOM}") + 1
    assert f"symptom: {ADD_SYMPTOM}" in result.stdout
    assert f"SYMPTOMS.md:{line} (#symptom-add2-3-returns--1)" in result.stdout
    assert fix_shas["add"][:12] in result.stdout
    assert git(calc_repo, "status", "--porcelain") == before  # no bytecode, no cache left in the tree


def test_running_every_guard_and_unknown_names(calc_repo):
    everything = cc_hooks("guards", "run", "--json", cwd=calc_repo)
    assert everything.returncode == 0, everything.stdout
    assert len(json.loads(everything.stdout)["results"]) == 3
    unknown = cc_hooks("guards", "run", "nothing like this", cwd=calc_repo)
    assert unknown.returncode == 2 and "no guard matches" in unknown.stderr


def test_an_unresolved_guard_is_could_not_observe_when_run(calc_repo):
    text = (calc_repo / "SYMPTOMS.md").read_text(encoding="utf-8")
    text += symptom_entry("div(1, 0) hangs", "div() looped", "abc1234", "`tests/test_div.py::test_div`")
    commit(calc_repo, "Record div", {"SYMPTOMS.md": text})
    result = cc_hooks("guards", "run", "div(1, 0)", cwd=calc_repo)
    assert result.returncode == 2 and "COULD NOT OBSERVE" in result.stdout and "no such file at HEAD" in result.stdout
