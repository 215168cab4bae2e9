from cc_hooks.claims.model import CONTRADICTED, POSITION, UNVERIFIED, VERIFIED
from cc_hooks.runtime import Deadline

LEDGER = """# Decision Ledger

## 2026-11-20 — Keep integer-only arithmetic
**Decision**: no float support.
**Context**: x
**Rejected alternatives**:
- floats — rejected because precision
**Consequences**: y

## {date} — Token lifetime is 30 minutes
**Decision**: access tokens live 30 minutes.
**Context**: x
**Rejected alternatives**:
- 1 hour — rejected because risk
**Consequences**: y
"""


def test_awaiting_a_ruling_the_ledger_already_has_is_contradicted(repo):
    repo.write("DECISIONS.md", LEDGER.format(date="2026-11-30"))
    claim = repo.check("Awaiting the user's ruling on token lifetime.", date="2026-11-29", state_date="2026-11-29")
    assert claim.kind == POSITION
    assert claim.verdict == CONTRADICTED
    assert "DECISIONS.md:10 settled it: ## 2026-11-30 — Token lifetime is 30 minutes" in claim.evidence


def test_ruling_recorded_before_the_state_block_settles_it_only_when_it_names_every_key_word(repo):
    repo.write("DECISIONS.md", LEDGER.format(date="2026-11-21"))
    claim = repo.check("Awaiting the user's ruling on token lifetime.", date="2026-11-29", state_date="2026-11-29")
    assert claim.verdict == CONTRADICTED  # decided before the state block was written: nothing is awaited
    claim = repo.check("Awaiting the user's ruling on token lifetime for service accounts.", date="2026-11-29", state_date="2026-11-29")
    assert claim.verdict == VERIFIED  # an older, narrower ruling: a new question may be open
    assert "no DECISIONS.md entry settles it (0 dated 2026-11-29 or later, 2 earlier)" in claim.evidence


def test_unrelated_later_entry_does_not_settle_it(repo):
    repo.write("DECISIONS.md", LEDGER.format(date="2026-11-30"))
    claim = repo.check("Awaiting the user's ruling on the cache eviction policy.", date="2026-11-29")
    assert claim.verdict == VERIFIED


def test_without_a_ledger_or_a_date_it_is_unverified(repo):
    assert repo.check("Awaiting the user's ruling on token lifetime.", date="2026-11-29").verdict == UNVERIFIED
    repo.write("DECISIONS.md", LEDGER.format(date="2026-11-30"))
    claim = repo.check("Awaiting the user's ruling on token lifetime.")
    assert claim.verdict == UNVERIFIED and "undated" in claim.evidence


def test_position_with_nothing_to_match(repo):
    repo.write("DECISIONS.md", LEDGER.format(date="2026-11-30"))
    claim = repo.check("At step 3 of the plan.", date="2026-11-29")
    assert claim.kind == POSITION and claim.verdict == UNVERIFIED


def _count_parses(monkeypatch):
    from cc_hooks.record import decisions

    calls = []
    real = decisions.parse_decisions
    monkeypatch.setattr(decisions, "parse_decisions", lambda text, path="DECISIONS.md": calls.append(path) or real(text, path))
    return calls


def test_an_unchanged_ledger_is_parsed_once_across_runs(repo, monkeypatch):
    (repo.path / ".git" / "cc-hooks").mkdir()
    repo.write("DECISIONS.md", LEDGER.format(date="2026-11-30"))
    calls = _count_parses(monkeypatch)
    first = repo.check("Awaiting the user's ruling on token lifetime.", date="2026-11-29")
    second = repo.check("Awaiting the user's ruling on token lifetime.", date="2026-11-29")
    assert calls == ["DECISIONS.md"]
    assert first.verdict == second.verdict == CONTRADICTED
    assert first.evidence == second.evidence


def test_a_changed_ledger_is_parsed_again(repo, monkeypatch):
    (repo.path / ".git" / "cc-hooks").mkdir()
    repo.write("DECISIONS.md", LEDGER.format(date="2026-11-21").split("\n## 2026-11-21 — Token")[0])
    calls = _count_parses(monkeypatch)
    assert repo.check("Awaiting the user's ruling on token lifetime.", date="2026-11-29").verdict == VERIFIED
    repo.write("DECISIONS.md", LEDGER.format(date="2026-11-30"))
    assert repo.check("Awaiting the user's ruling on token lifetime.", date="2026-11-29").verdict == CONTRADICTED
    assert calls == ["DECISIONS.md", "DECISIONS.md"]


def test_a_remembered_ledger_does_not_import_its_parser(repo):
    """The point of the memo: a fresh process with a warm cache never loads record.decisions."""
    import subprocess
    import sys

    (repo.path / ".git" / "cc-hooks").mkdir()
    repo.write("DECISIONS.md", LEDGER.format(date="2026-11-30"))
    script = (
        "import sys\n"
        "from cc_hooks.claims.extract import claim_from_line\n"
        "from cc_hooks.claims.verify import verify_claims\n"
        "from cc_hooks.runtime import Deadline\n"
        "claim = claim_from_line(\"Awaiting the user's ruling on token lifetime.\", 'next_steps.md', 3, 'state', '2026-11-29')\n"
        "verify_claims(sys.argv[1], [claim], None, Deadline(20))\n"
        "print(claim.verdict, 'cc_hooks.record.decisions' in sys.modules)\n"
    )
    runs = [subprocess.run([sys.executable, "-c", script, str(repo.path)], capture_output=True, text=True, check=True).stdout.split() for _ in range(2)]
    assert runs == [[CONTRADICTED, "True"], [CONTRADICTED, "False"]]


def test_each_ledger_entry_is_split_into_words_once_whatever_the_number_of_claims(repo, monkeypatch):
    """A dashboard of many position claims costs one pass over the ledger, not one per claim (issue 22)."""
    from cc_hooks.claims import verify_position
    from cc_hooks.claims.extract import claim_from_line
    from cc_hooks.claims.verify import verify_claims

    repo.write("DECISIONS.md", LEDGER.format(date="2026-11-30"))
    calls = []
    real = verify_position._entry_words
    monkeypatch.setattr(verify_position, "_entry_words", lambda entry: calls.append(entry.title) or real(entry))
    claims = [claim_from_line(f"Awaiting the user's ruling on token lifetime {i}.", "next_steps.md", 3 + i, "state", "2026-11-29")
              for i in range(20)]
    verify_claims(repo.path, claims, repo.config(), Deadline(20))
    assert sorted(calls) == sorted(["Keep integer-only arithmetic", "Token lifetime is 30 minutes"])
    assert {c.verdict for c in claims} == {CONTRADICTED}
