"""What the checklist remembers across runs (``cc_hooks.memo``) and what it reads once per run.

Each mechanism in both directions: an unchanged input is not derived again, a changed
one is (and changes the verdict); the git processes a run spawns are the ones it needs.
"""

from __future__ import annotations

import subprocess

import pytest

from cc_hooks.checks import FAIL, PASS, run_check, run_checks
from cc_hooks.checks.context import make_context
from cc_hooks.git import asked
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
    from cc_hooks.guards import proofs

    opened = []
    real = proofs.load_proof
    monkeypatch.setattr(proofs, "load_proof", lambda state, name: opened.append(name) or real(state, name))
    state = record_repo.state
    assert proofs.load_proofs(state, ["a", "b"]) == {"a": None, "b": None} and opened == []
    (state / proofs.PROOFS_DIR).mkdir(parents=True, exist_ok=True)
    (state / proofs.PROOFS_DIR / "b.json").write_text('{"verdict": "PROVEN", "ref": "x"}')
    assert proofs.load_proofs(state, ["a", "b"]) == {"a": None, "b": {"verdict": "PROVEN", "ref": "x"}}
    assert opened == ["b"]


# --- one read per run ----------------------------------------------------------------


def test_a_run_reads_head_and_its_tree_once(record_repo, spawned):
    ctx = make_context(record_repo.root, Deadline(60))
    run_checks(ctx)
    assert sum(asked(argv) == ["rev-parse", "HEAD", "--abbrev-ref", "HEAD"] for argv in spawned if argv[:1] == ["git"]) == 1
    assert git_runs(spawned, "ls-tree") == 1  # questions and guards resolve against one tree


def test_one_status_answers_the_changed_files_and_the_upstream(record_repo, spawned):
    """The checklist's own status (session, stale-claims, committed, audit) is one process: the
    changed record files, the upstream and how far HEAD is ahead of it come from the same answer."""
    record_repo.write("next_steps.md", record_repo.read("next_steps.md") + "- one more\n")
    record_repo.write("src/extra.py", "X = 1\n")
    record_repo.commit("Add a constant", "src/extra.py")
    ctx = make_context(record_repo.root, Deadline(60))
    results = {r.id: r for r in run_checks(ctx, ["session", "stale-claims", "committed", "audit"])}
    findings = results["committed"].findings
    assert (findings[0].file, findings[0].message.split(";")[0]) == ("next_steps.md", "modified")
    assert "ahead of `origin/main`" in findings[1].message
    statuses = [asked(argv) for argv in spawned if argv[:1] == ["git"] and asked(argv)[:1] == ["status"]]
    assert statuses.count(["status", "--porcelain=v2", "--branch", "--untracked-files=all", "-z"]) == 1
    assert not [argv for argv in statuses if "--porcelain=v1" in argv or "--porcelain" in argv or "--" in argv]
    assert not [argv for argv in spawned if "@{upstream}" in argv or ("rev-list" in argv and "--count" in argv)]


def test_a_gone_upstream_is_no_upstream(record_repo):
    record_repo.git("branch", "-u", "origin/main")
    record_repo.git("update-ref", "-d", "refs/remotes/origin/main")  # configured, but nothing to compare with
    result = check(record_repo, "committed")
    assert result.status == PASS and "no upstream configured" in result.summary


# --- facts read from the history behind HEAD ------------------------------------------


def test_trailers_remembers_the_history_behind_head_and_rereads_a_new_head(record_repo, spawned):
    assert check(record_repo, "trailers").status == PASS
    spawned.clear()
    assert check(record_repo, "trailers").status == PASS
    assert git_runs(spawned, "log") == 0  # HEAD did not move: its history was remembered
    record_repo.write("src/calc.py", "def add(a, b):\n    return int(a) + int(b)\n")
    sha = record_repo.commit("fix: coerce inputs", "src/calc.py")
    result = check(record_repo, "trailers")
    assert result.status == FAIL and result.findings[0].commit == sha


def test_trailers_rereads_the_history_when_any_git_configuration_changes(record_repo, spawned, monkeypatch, tmp_path):
    user_config = tmp_path / "global.gitconfig"
    user_config.write_text("[user]\n\tname = A\n")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(user_config))
    check(record_repo, "trailers")
    spawned.clear()
    check(record_repo, "trailers")
    assert git_runs(spawned, "log") == 0
    user_config.write_text("[trailer]\n\tseparators = \":#\"\n")  # how git reads trailers, set outside the repository
    check(record_repo, "trailers")
    assert git_runs(spawned, "log") >= 1


def test_dashboard_remembers_the_last_work_commit_by_head(record_repo, spawned):
    record_repo.write("next_steps.md", record_repo.read("next_steps.md").replace(f"CURRENT STATE — {TODAY}", "CURRENT STATE — 2020-01-01"))
    record_repo.commit("Backdate the state", "next_steps.md")
    first = check(record_repo, "dashboard")
    assert first.status == FAIL and first.findings[0].commit == record_repo.fix
    spawned.clear()
    assert check(record_repo, "dashboard").findings[0].commit == record_repo.fix
    assert git_runs(spawned, "log", "-1") == 0
    record_repo.write("src/extra.py", "X = 1\n")
    work = record_repo.commit("Add a constant", "src/extra.py")
    assert check(record_repo, "dashboard").findings[0].commit == work


def test_history_is_not_remembered_when_replace_refs_rewrite_it(record_repo, spawned):
    ctx = make_context(record_repo.root, Deadline(30))
    assert ctx.history == ctx.head.sha
    record_repo.git("replace", "--graft", "HEAD")  # HEAD now shows as a root commit: a different history
    ctx = make_context(record_repo.root, Deadline(30))
    assert ctx.history is None
    spawned.clear()
    check(record_repo, "trailers")
    assert git_runs(spawned, "log") >= 1  # read live


# --- questions -------------------------------------------------------------------------


def test_questions_remembers_the_parse_and_the_pointed_file_contents(record_repo, monkeypatch, spawned):
    from cc_hooks.record import questions

    assert check(record_repo, "questions").status == PASS
    calls = []
    real = questions.parse_questions
    monkeypatch.setattr(questions, "parse_questions", lambda text, file: calls.append(file) or real(text, file))
    spawned.clear()
    assert check(record_repo, "questions").status == PASS
    assert calls == [] and git_runs(spawned, "cat-file") == 0  # neither the file nor what it points at was re-read
    record_repo.write("COLDSTART_QUESTIONS.md", record_repo.read("COLDSTART_QUESTIONS.md") + "- Where is sub()? → src/calc.py:9\n")
    result = check(record_repo, "questions")
    assert calls == ["COLDSTART_QUESTIONS.md"]
    assert result.status == FAIL and "out of range" in result.findings[0].message


def test_the_warm_ledger_check_does_not_import_the_markdown_parser(record_repo):
    import sys

    script = ("import sys; from pathlib import Path; from cc_hooks.checks import run_check; "
              "from cc_hooks.checks.context import make_context; from cc_hooks.runtime import Deadline; "
              f"r = run_check(make_context(Path({str(record_repo.root)!r}), Deadline(30)), 'ledgers'); "
              "print(r.status, 'cc_hooks.record.markdown' in sys.modules, 'cc_hooks.record.symptoms' in sys.modules)")
    first = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout.split()
    again = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout.split()
    assert first == ["PASS", "True", "True"]  # the first run parses
    assert again == ["PASS", "False", "False"]  # the second remembers: no parser loaded


def test_the_dashboard_is_extracted_once_per_content_and_verified_every_run(record_repo):
    import sys

    script = ("import sys; from pathlib import Path; from cc_hooks.checks import run_checks; "
              "from cc_hooks.checks.context import make_context; from cc_hooks.runtime import Deadline; "
              f"r = run_checks(make_context(Path({str(record_repo.root)!r}), Deadline(30)), ['stale-claims', 'dashboard']); "
              "print(*[x.status for x in r], 'cc_hooks.claims.extract' in sys.modules)")

    def run() -> list[str]:
        return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout.split()

    assert run() == ["PASS", "PASS", "True"]  # the first run extracts the claims
    assert run() == ["PASS", "PASS", "False"]  # the same bytes: remembered, no extractor loaded
    record_repo.git("branch", "-m", "main", "trunk")  # the dashboard's `main` is gone: same bytes, new verdict
    record_repo.git("update-ref", "-d", "refs/remotes/origin/main")  # (origin/main would still be a `main`)
    assert run()[1:] == ["FAIL", "False"]
    record_repo.write("next_steps.md", record_repo.read("next_steps.md").replace("`main`", "`trunk`"))
    assert run() == ["PASS", "PASS", "True"]  # new bytes: extracted again


def test_guards_check_remembers_the_resolution_by_head_tree_but_reads_proofs_live(record_repo, monkeypatch):
    import json

    from cc_hooks.guards import proofs, resolve

    assert check(record_repo, "guards").status == PASS
    calls = []
    real = resolve.resolve_guards
    monkeypatch.setattr(resolve, "resolve_guards", lambda *a, **k: calls.append(1) or real(*a, **k))
    assert check(record_repo, "guards").data["unproven"] == 1
    assert calls == []  # same SYMPTOMS.md, configuration and HEAD tree: nothing resolved again
    name = real(record_repo.root).guards[0].name
    proof = {"verdict": proofs.BROKEN, "ref": "tests/test_calc.py::test_add", "reason": "fails at HEAD", "time": "t"}
    (record_repo.state / proofs.PROOFS_DIR).mkdir(parents=True, exist_ok=True)
    (record_repo.state / proofs.PROOFS_DIR / f"{name}.json").write_text(json.dumps(proof))
    result = check(record_repo, "guards")
    assert calls == [] and result.status == FAIL and "BROKEN" in result.findings[0].message
    record_repo.write("README.md", "# calc\n")
    record_repo.commit("Add a readme", "README.md")  # a new HEAD tree: resolved again
    check(record_repo, "guards")
    assert calls == [1]


def test_the_last_compacted_checkpoint_is_found_without_parsing_the_others(tmp_path, monkeypatch):
    import json

    from cc_hooks import checkpoint

    for key, data in (("a", {"created": 1.0, "compacted": 5.0, "head": "old"}), ("b", {"created": 2.0, "head": "new"}),
                      ("c", {"created": 3.0, "compacted": 6.0, "head": "newest"}), ("d", {"created": 4.0, "head": "none"})):
        checkpoint.write_json(tmp_path / "checkpoints" / "s" / f"{key}.json", data)
    parsed = []
    real = json.loads
    monkeypatch.setattr(checkpoint.json, "loads", lambda text, *a, **k: parsed.append(text) or real(text, *a, **k))
    assert checkpoint.latest_checkpoint(tmp_path, "s", compacted_only=True)["head"] == "newest"
    assert len(parsed) == 2  # b and d hold no "compacted" key: read, never parsed
    assert checkpoint.latest_checkpoint(tmp_path, "s")["head"] == "none"  # without the filter all count


def test_session_commits_since_the_first_commit_command_are_remembered_by_head(record_repo, spawned):
    from cc_hooks.checks.session_sweep import _commits_since

    since = "2000-01-01T00:00:00Z"
    ctx = make_context(record_repo.root, Deadline(30))
    first = _commits_since(ctx, since)
    assert record_repo.fix in first
    spawned.clear()
    assert _commits_since(make_context(record_repo.root, Deadline(30)), since) == first
    assert git_runs(spawned, "log") == 0
    record_repo.write("src/extra.py", "X = 1\n")
    new = record_repo.commit("Add a constant", "src/extra.py")
    assert _commits_since(make_context(record_repo.root, Deadline(30)), since)[0] == new
