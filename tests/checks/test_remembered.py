"""What the checklist remembers across runs (``cc_hooks.memo``) and what it reads once per run.

Each mechanism in both directions: an unchanged input is not derived again, a changed
one is (and changes the verdict); the git processes a run spawns are the ones it needs.
"""

from __future__ import annotations

import subprocess

import pytest

from cc_hooks.checks import FAIL, PASS, run_check, run_checks
from cc_hooks.checks.context import make_context
from cc_hooks.runtime import Deadline

from .conftest import TODAY, check


@pytest.fixture
def spawned(monkeypatch):
    """The argv of every process started while the test runs."""
    started: list[list[str]] = []
    real = subprocess.Popen.__init__

    def spy(self, args, *rest, **kwargs):
        started.append([str(a) for a in args])
        real(self, args, *rest, **kwargs)

    monkeypatch.setattr(subprocess.Popen, "__init__", spy)
    return started


@pytest.fixture
def parses(monkeypatch):
    """Calls of the ledger parsers (their in-process lru_cache cleared, so a call is a parse)."""
    from cc_hooks.record import decisions, symptoms

    calls: list[str] = []
    for module, name in ((symptoms, "parse_symptoms"), (decisions, "parse_decisions")):
        real = getattr(module, name)

        def counting(text, path, _real=real, _name=name):
            calls.append(_name)
            return _real(text, path)

        monkeypatch.setattr(module, name, counting)
    symptoms._parse_symptoms.cache_clear()
    decisions._parse_decisions.cache_clear()
    return calls


def git_runs(spawned, *words: str) -> int:
    return sum(1 for argv in spawned if argv[:1] == ["git"] and all(w in argv for w in words))


# --- ledgers -----------------------------------------------------------------------


def test_ledgers_remembers_the_validation_of_unchanged_ledgers(record_repo, parses):
    assert check(record_repo, "ledgers").status == PASS
    assert sorted(parses) == ["parse_decisions", "parse_symptoms"]
    parses.clear()
    assert check(record_repo, "ledgers").status == PASS
    assert parses == []  # both ledgers' findings came from the cache


def test_ledgers_an_appended_invalid_entry_is_parsed_and_fails(record_repo, parses):
    assert check(record_repo, "ledgers").status == PASS
    parses.clear()
    record_repo.write("SYMPTOMS.md", record_repo.read("SYMPTOMS.md") + "\n## Symptom: the build hangs\n\nno causes yet\n")
    result = check(record_repo, "ledgers")
    assert "parse_symptoms" in parses
    assert result.status == FAIL and any("cause" in f.message.lower() for f in result.findings)


def test_ledgers_an_edit_of_a_remembered_ledger_still_breaks_append_only(record_repo):
    assert check(record_repo, "ledgers").status == PASS
    record_repo.write("DECISIONS.md", record_repo.read("DECISIONS.md").replace("integers only", "any number"))
    result = check(record_repo, "ledgers")
    assert result.status == FAIL and any("append-only" in f.message for f in result.findings)
    record_repo.write("DECISIONS.md", record_repo.read("DECISIONS.md").replace("any number", "integers only"))
    assert check(record_repo, "ledgers").status == PASS


def test_ledgers_an_unchanged_ledger_is_not_compared_and_one_batch_checks_the_shas(record_repo, spawned):
    assert check(record_repo, "ledgers").status == PASS  # fill the cache
    spawned.clear()
    assert check(record_repo, "ledgers").status == PASS
    assert git_runs(spawned, "cat-file") == 1  # named shas and both bases: one --batch-check
    assert git_runs(spawned, "blob") == 0  # the work tree holds the base's bytes: nothing read, nothing compared


def test_ledgers_named_shas_are_checked_live_even_when_remembered(record_repo, tmp_path, parses):
    import shutil

    assert check(record_repo, "ledgers").status == PASS
    other = tmp_path / "other"  # the same ledger bytes in a repository without the fix commit
    other.mkdir()
    for args in (["init", "-q", "-b", "main"], ["config", "user.name", "T"], ["config", "user.email", "t@example.com"]):
        subprocess.run(["git", "-C", str(other), *args], check=True)
    for name in ("SYMPTOMS.md", "DECISIONS.md"):
        shutil.copy(record_repo.root / name, other / name)
    subprocess.run(["git", "-C", str(other), "add", "."], check=True)
    subprocess.run(["git", "-C", str(other), "commit", "-q", "-m", "Ledgers"], check=True)
    shutil.copytree(record_repo.state / "cache", other / ".git" / "cc-hooks" / "cache")
    parses.clear()
    result = run_check(make_context(other, Deadline(30)), "ledgers")
    assert parses == []  # the validation was remembered...
    assert result.status == FAIL and any(record_repo.fix[:10] in f.message for f in result.findings)  # ...the shas were not


def test_blob_id_is_the_object_id_git_gives_the_bytes(record_repo):
    from cc_hooks.record.append_only import blob_id

    data = record_repo.root.joinpath("SYMPTOMS.md").read_bytes()
    expected = record_repo.git("hash-object", "SYMPTOMS.md").strip()
    assert blob_id(data, expected) == expected
    assert blob_id(data + b"\n", expected) != expected


# --- guards ------------------------------------------------------------------------


def test_guards_remembers_the_declared_guards_and_the_test_file_verdicts(record_repo, parses, spawned):
    assert check(record_repo, "guards").status == PASS
    parses.clear()
    spawned.clear()
    ctx = make_context(record_repo.root, Deadline(30))
    ctx.head_tree  # the shared tree, as an earlier check of the run would have read it
    spawned.clear()
    assert run_check(ctx, "guards").status == PASS
    assert parses == []  # the guards came from the cache
    assert git_runs(spawned, "cat-file") == 0  # so did what the unchanged test file says


def test_guards_a_changed_test_file_is_read_again_and_changes_the_verdict(record_repo):
    assert check(record_repo, "guards").status == PASS
    record_repo.write("tests/test_calc.py", "from src.calc import add\n\n\ndef test_sum():\n    assert add(2, 3) == 5\n")
    record_repo.commit("Rename the test", "tests/test_calc.py")
    result = check(record_repo, "guards")
    assert result.status == FAIL and "test_add" in result.findings[0].message


def test_guards_an_appended_cause_is_resolved(record_repo):
    assert check(record_repo, "guards").status == PASS
    entry = (f"\n## Symptom: mul(2, 3) returns 5\n\n**Known causes**:\n\n"
             f"### Cause 1: mul() added — fixed in {record_repo.fix[:10]}\n"
             "- **Mechanism**: `+` for `*`.\n- **Discriminator**: mul(2, 2) == 4 hides it.\n"
             f"- **Fix**: use `*` ({record_repo.fix[:10]})\n- **Guard**: tests/test_calc.py::test_mul\n\n"
             f"**Ruled out**:\n- nothing — eliminated by reading it, {TODAY}\n")
    record_repo.write("SYMPTOMS.md", record_repo.read("SYMPTOMS.md") + entry)
    result = check(record_repo, "guards")
    assert result.status == FAIL and "test_mul" in result.findings[0].message


def test_load_proofs_opens_only_stored_proofs(record_repo, monkeypatch):
    from cc_hooks.guards import prove

    opened = []
    real = prove.load_proof
    monkeypatch.setattr(prove, "load_proof", lambda state, name: opened.append(name) or real(state, name))
    state = record_repo.state
    assert prove.load_proofs(state, ["a", "b"]) == {"a": None, "b": None} and opened == []
    (state / prove.PROOFS_DIR).mkdir(parents=True, exist_ok=True)
    (state / prove.PROOFS_DIR / "b.json").write_text('{"verdict": "PROVEN", "ref": "x"}')
    assert prove.load_proofs(state, ["a", "b"]) == {"a": None, "b": {"verdict": "PROVEN", "ref": "x"}}
    assert opened == ["b"]


# --- one read per run ----------------------------------------------------------------


def test_a_run_reads_head_and_its_tree_once(record_repo, spawned):
    ctx = make_context(record_repo.root, Deadline(60))
    run_checks(ctx)
    assert sum(argv[3:] == ["rev-parse", "HEAD", "--abbrev-ref", "HEAD"] for argv in spawned) == 1
    assert git_runs(spawned, "ls-tree") == 1  # questions and guards resolve against one tree
