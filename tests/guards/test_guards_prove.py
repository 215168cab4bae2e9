"""`guards prove`: both directions in a throwaway worktree; the user's tree is never touched."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from cc_hooks import trust
from cc_hooks.config import load_config
from cc_hooks.guards.prove import BROKEN, DOES_NOT_DETECT, PROVEN, UNPROVABLE, load_proof, prove_guards
from cc_hooks.guards.resolve import resolve_guards
from cc_hooks.state import state_dir

from .conftest import ADD_SYMPTOM, SUB_SYMPTOM, cc_hooks, commit, git, snapshot, symptom_entry


def verdicts(payload: dict) -> dict[str, tuple[str, str]]:
    return {p["ref"]: (p["verdict"], p["reason"]) for p in payload["proofs"]}


def dirty(repo) -> None:
    """Uncommitted work of every kind: modified, staged, untracked, and a modified guard."""
    (repo / "calc_add.py").write_text("def add(a, b):\n    return a + b  # tidy later\n", encoding="utf-8")
    (repo / "calc_mul.py").write_text("def mul(a, b):\n    return b * a\n", encoding="utf-8")
    git(repo, "add", "calc_mul.py")
    (repo / "notes.txt").write_text("half a thought\n", encoding="utf-8")
    (repo / "tests/test_sub.py").write_text("def test_sub():\n    assert False\n", encoding="utf-8")


def test_three_fixes_three_verdicts_and_the_users_tree_untouched(calc_repo, isolated, fix_shas):
    dirty(calc_repo)
    before = snapshot(calc_repo)
    result = cc_hooks("guards", "prove", "--json", cwd=calc_repo)
    assert result.returncode == 1, result.stdout + result.stderr  # a DOES-NOT-DETECT is a failure
    found = verdicts(json.loads(result.stdout))
    assert found["tests/test_add.py::test_add"] == (PROVEN, "healthy on HEAD, anomaly with the fix reverted")
    verdict, reason = found["tests/test_mul.py::TestMul::test_returns_an_int"]
    assert verdict == DOES_NOT_DETECT and "does not detect" in reason
    verdict, reason = found["tests/test_sub.py::test_sub"]
    assert verdict == UNPROVABLE and "does not revert cleanly" in reason and "calc_sub.py" in reason
    # the user's work tree, index and worktree list are exactly as they were; no temp dir is left
    assert snapshot(calc_repo) == before
    assert len(git(calc_repo, "worktree", "list").splitlines()) == 1
    assert list(isolated["tmp"].iterdir()) == []
    assert not (git_dir := calc_repo / ".git" / "worktrees").exists() or list(git_dir.iterdir()) == []


def test_each_proof_is_stored_for_the_checklist(calc_repo, isolated):
    resolution = resolve_guards(calc_repo)
    add = resolution.select([ADD_SYMPTOM])[0][0]
    [proof] = prove_guards(calc_repo, [add], trusted=False)
    assert proof.verdict == PROVEN
    stored = load_proof(state_dir(calc_repo), add.name)
    head = git(calc_repo, "rev-parse", "HEAD").strip()
    assert stored["verdict"] == PROVEN and stored["head"] == head and stored["time"].endswith("Z")
    assert stored["on_head"]["state"] == 0 and stored["fix_stripped"]["state"] == 1
    assert stored["ref"] == add.ref and stored["symptom"] == add.record.symptom_slug


def test_selection_and_exit_codes(calc_repo, isolated):
    proven = cc_hooks("guards", "prove", "returns -1", cwd=calc_repo)
    assert proven.returncode == 0, proven.stdout + proven.stderr
    assert "PROVEN" in proven.stdout and "1 PROVEN" in proven.stdout
    unprovable = cc_hooks("guards", "prove", "--json", SUB_SYMPTOM, cwd=calc_repo)
    assert unprovable.returncode == 2
    assert [p["verdict"] for p in json.loads(unprovable.stdout)["proofs"]] == [UNPROVABLE]


def test_a_guard_that_fails_on_head_is_broken(calc_repo, isolated):
    commit(calc_repo, "Make add() off by one", {"calc_add.py": "def add(a, b):\n    return a + b + 1\n"})
    result = cc_hooks("guards", "prove", "--json", ADD_SYMPTOM, cwd=calc_repo)
    assert result.returncode == 1
    [(verdict, reason)] = verdicts(json.loads(result.stdout)).values()
    assert verdict == BROKEN and "fails on HEAD" in reason


def _script_guard_repo(repo, script: str) -> None:
    text = (repo / "SYMPTOMS.md").read_text(encoding="utf-8")
    fix = git(repo, "log", "-1", "--format=%h", "--grep", "Fix add")
    text += symptom_entry("the add check is blind", "add() subtracted", fix.strip(), "`python scripts/check_add.py`")
    commit(repo, "Add a script guard", {"SYMPTOMS.md": text, "scripts/check_add.py": script})


def test_exit_2_is_never_a_pass_in_either_direction(calc_repo, isolated):
    # healthy on HEAD, 2 (could not observe) with the fix reverted: UNPROVABLE, not PROVEN
    _script_guard_repo(calc_repo, "import sys\nsys.path.insert(0, '.')\nfrom calc_add import add\n"
                                  "sys.exit(0 if add(2, 3) == 5 else 2)\n")
    result = cc_hooks("guards", "prove", "--json", "the add check is blind", cwd=calc_repo)
    [(verdict, reason)] = verdicts(json.loads(result.stdout)).values()
    assert (result.returncode, verdict) == (2, UNPROVABLE) and "could not observe with the fix reverted" in reason
    # 2 on HEAD: UNPROVABLE (never healthy), and the fix is not even stripped
    _script_guard_repo(calc_repo, "import sys\nsys.exit(2)\n")
    result = cc_hooks("guards", "prove", "--json", "the add check is blind", cwd=calc_repo)
    [(verdict, reason)] = verdicts(json.loads(result.stdout)).values()
    assert (result.returncode, verdict) == (2, UNPROVABLE) and reason.startswith("could not observe on HEAD")
    # the same script, observing properly (1 when the fix is gone): PROVEN
    _script_guard_repo(calc_repo, "import sys\nsys.path.insert(0, '.')\nfrom calc_add import add\n"
                                  "sys.exit(0 if add(2, 3) == 5 else 1)\n")
    result = cc_hooks("guards", "prove", "--json", "the add check is blind", cwd=calc_repo)
    assert result.returncode == 0 and [v for v, _ in verdicts(json.loads(result.stdout)).values()] == [PROVEN]


def test_unprovable_reasons_before_any_worktree(calc_repo, isolated):
    text = (calc_repo / "SYMPTOMS.md").read_text(encoding="utf-8")
    text += symptom_entry("div(1, 0) hangs", "div() looped", "0123456789ab", "`tests/test_add.py::test_add`")
    text += symptom_entry("the LED blinks", "timer race", "0123456789ab", "none — no photodiode rig")
    commit(calc_repo, "Record two more", {"SYMPTOMS.md": text})
    resolution = resolve_guards(calc_repo)
    div = resolution.select(["div(1, 0)"])[0]
    [proof] = prove_guards(calc_repo, div, trusted=False)
    assert proof.verdict == UNPROVABLE and proof.reason == "fix commit 0123456789ab does not exist in the repository"
    led = resolution.select(["LED"])[0]
    [proof] = prove_guards(calc_repo, led, trusted=False)
    assert proof.verdict == UNPROVABLE and "no photodiode rig" in proof.reason
    assert list(isolated["tmp"].iterdir()) == []


def _slow_guard_repo(repo, tmp_path) -> tuple:
    """A configured guard that announces itself (its pid in a marker file) and then sleeps."""
    marker = tmp_path / "guard.pid"
    code = f"import os, time; open({str(marker)!r}, 'w').write(str(os.getpid())); time.sleep(120)"
    import tomli_w

    (repo / ".cc-hooks.toml").write_text(tomli_w.dumps({"guards": {"slow": {"argv": [sys.executable, "-c", code]}}}),
                                         encoding="utf-8")
    text = (repo / "SYMPTOMS.md").read_text(encoding="utf-8")
    fix = git(repo, "log", "-1", "--format=%h", "--grep", "Fix add").strip()
    text += symptom_entry("the slow check hangs", "add() subtracted", fix, "`slow`")
    commit(repo, "Add a slow guard", {"SYMPTOMS.md": text, ".cc-hooks.toml": (repo / ".cc-hooks.toml").read_text()})
    trust.trust(repo, load_config(repo))
    return marker


@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 128 + signal.SIGTERM)])
def test_an_interrupt_while_the_guard_runs_still_removes_the_worktree(calc_repo, isolated, tmp_path, sig, code):
    marker = _slow_guard_repo(calc_repo, tmp_path)
    (calc_repo / "notes.txt").write_text("uncommitted\n", encoding="utf-8")
    before = snapshot(calc_repo)
    proc = subprocess.Popen([sys.executable, "-m", "cc_hooks", "guards", "prove", "slow"], cwd=calc_repo,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not (marker.exists() and marker.read_text()) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert marker.exists(), proc.communicate(timeout=5)
        assert len(git(calc_repo, "worktree", "list").splitlines()) == 2  # it is really running in a worktree
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == code, err
    assert len(git(calc_repo, "worktree", "list").splitlines()) == 1
    assert list(isolated["tmp"].iterdir()) == []
    assert snapshot(calc_repo) == before
    guard_pid = int(marker.read_text())
    with pytest.raises(ProcessLookupError):
        os.kill(guard_pid, 0)  # the guard went down with the prove


def test_no_commits_and_nothing_to_prove(tmp_path, isolated):
    repo = tmp_path / "empty"
    repo.mkdir()
    git(repo, "init", "-q")
    result = cc_hooks("guards", "prove", cwd=repo)
    assert result.returncode == 2 and "nothing to prove" in result.stdout


def test_a_cause_fixed_in_two_commits_is_stripped_newest_first(calc_repo, isolated):
    commit(calc_repo, "Add neg()", {"calc_neg.py": "def neg(x):\n    return x\n"})
    first = commit(calc_repo, "Fix neg() halfway", {
        "calc_neg.py": "def neg(x):\n    return -x + 1\n",
        "tests/test_neg.py": "from calc_neg import neg\n\n\ndef test_neg():\n    assert neg(2) == -2\n",
    })
    second = commit(calc_repo, "Fix neg() for good", {"calc_neg.py": "def neg(x):\n    return -x\n"})
    text = (calc_repo / "SYMPTOMS.md").read_text(encoding="utf-8")
    entry = symptom_entry("neg(2) returns 2", "neg() forgot the sign", first, "`tests/test_neg.py::test_neg`")
    entry = entry.replace(f"fixed in {first[:12]}", f"fixed in {first[:12]}, {second[:12]}")
    commit(calc_repo, "Record neg", {"SYMPTOMS.md": text + entry})
    [guard] = resolve_guards(calc_repo).select(["neg(2)"])[0]
    assert guard.fixes == [first[:12], second[:12]]  # oldest first as written: reverting in that order would conflict
    [proof] = prove_guards(calc_repo, [guard], trusted=False)
    assert proof.verdict == PROVEN, proof.reason


def test_a_fix_whose_doc_and_test_helper_changed_later_is_still_provable(calc_repo, isolated):
    """Only the code of a fix is stripped: its docs and test helpers stay as HEAD has them,
    so later rewrites of them do not make the proof UNPROVABLE."""
    commit(calc_repo, "Add div()", {"calc_div.py": "def div(a, b):\n    return a // b\n"})
    fix = commit(calc_repo, "Fix div() truncating\n\nSymptom: div(7, 2) returns 3", {
        "calc_div.py": "def div(a, b):\n    return a / b\n",
        "tests/helpers.py": "EXPECTED = 3.5\n",
        "tests/test_div.py": "from calc_div import div\nfrom tests.helpers import EXPECTED\n\n\n"
                             "def test_div():\n    assert div(7, 2) == EXPECTED\n",
        "docs/div.md": "div() divides.\n",
    })
    commit(calc_repo, "Reword the docs and the helper", {"docs/div.md": "div() returns a float.\n",
                                                         "tests/helpers.py": "EXPECTED = 7 / 2\n"})
    ledger = (calc_repo / "SYMPTOMS.md").read_text() + symptom_entry("div(7, 2) returns 3", "div() truncated", fix,
                                                                     "tests/test_div.py::test_div")
    commit(calc_repo, "Record the div fix", {"SYMPTOMS.md": ledger, "tests/__init__.py": ""})
    guard = resolve_guards(calc_repo).select(["div(7, 2) returns 3"])[0][0]
    [proof] = prove_guards(calc_repo, [guard], trusted=False)
    assert (proof.verdict, proof.reason) == (PROVEN, "healthy on HEAD, anomaly with the fix reverted")
