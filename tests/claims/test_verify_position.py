from cc_hooks.claims.model import CONTRADICTED, POSITION, UNVERIFIED, VERIFIED

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


def test_ruling_recorded_before_the_state_block_does_not_settle_it(repo):
    repo.write("DECISIONS.md", LEDGER.format(date="2026-11-21"))
    claim = repo.check("Awaiting the user's ruling on token lifetime.", date="2026-11-29", state_date="2026-11-29")
    assert claim.verdict == VERIFIED
    assert "no DECISIONS.md entry dated 2026-11-29 or later settles it" in claim.evidence


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
