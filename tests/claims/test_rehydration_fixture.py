"""The acceptance fixture: one planted dashboard, every kind of claim, each with its verdict."""

import sys

import tomli_w

from cc_hooks import git as gitmod
from cc_hooks import trust
from cc_hooks.claims.extract import claim_from_line
from cc_hooks.claims.model import CONTRADICTED, UNVERIFIED, VERIFIED
from cc_hooks.claims.rehydration import build_rehydration
from cc_hooks.claims.verify import verify_claims
from cc_hooks.runtime import Deadline

LEDGER = """# Decision Ledger

## 2026-11-30 — Token lifetime is 30 minutes
**Decision**: access tokens live 30 minutes.
**Context**: x
**Rejected alternatives**:
- 1 hour — rejected because risk
**Consequences**: y
"""


def plant(repo):
    repo.commit("Add calc", {"calc.py": "def add(a, b):\n    return a + b\n", "gone.py": "x\n"}, date="2026-11-20")
    repo.git("checkout", "-q", "-b", "fix/refresh")
    old_tip = repo.commit("Refresh tokens early", date="2026-11-21")
    repo.commit("Refresh tokens on 401", date="2026-11-22")
    repo.git("checkout", "-q", "-b", "side", "main")
    side = repo.commit("Experiment on the side", date="2026-11-22")
    repo.git("checkout", "-q", "main")
    repo.git("rm", "-q", "gone.py")
    repo.git("commit", "-q", "-m", "Drop gone.py", date="2026-11-28")
    repo.commit("Add regression test for negative numbers in add()", {"test_calc.py": "x\n"}, date="2026-11-30")
    probes = {
        "staging": {"argv": [sys.executable, "-c", "print('v1.4.2')"], "expect": "v1.4.2"},
    }
    repo.write(".cc-hooks.toml", tomli_w.dumps({"probes": probes}))
    trust.trust(repo.path, repo.config())
    repo.write("DECISIONS.md", LEDGER)
    repo.write(
        "next_steps.md",
        f"""# Next steps

## CURRENT STATE — 2026-11-29
Resume point: finishing the refresh-token fix on `fix/refresh`.
- Fix for "login loops after 30 min" landed in `9b1d2e0`.
- The experiment landed on main in `{side[:7]}`.
- Branch `fix/refresh` at `{old_tip[:7]}`, not merged into `main`.
- Staging runs v1.4.2. (probe: staging)
- Production runs v1.4.2. (probe: production)
- Awaiting the user's ruling on token lifetime.
- Helper code lives in `gone.py`.
- The team prefers small commits.

## QUEUED
- 2026-11-28 — Add a regression test for negative numbers in `add()`.
- DONE 2026-11-27 — Release v1.4.2.
""",
    )
    return old_tip, side


def test_every_planted_claim_gets_its_verdict(repo):
    plant(repo)
    config = repo.config()
    result = build_rehydration(repo.path, "compact", config, Deadline(20), capture_debt=["FAIL dashboard-fresh"])
    by_line = {c.line: c for c in result.claims}
    expect = {
        4: (VERIFIED, "fix/refresh exists"),  # resume point
        5: (CONTRADICTED, "no commit 9b1d2e0"),  # sha that does not exist
        6: (CONTRADICTED, "not reachable from branch main; it is on side"),  # exists, not on the branch it names
        7: (CONTRADICTED, "moved on"),  # branch tip moved
        8: (VERIFIED, "output contains 'v1.4.2'"),  # trusted probe passes
        9: (UNVERIFIED, "no probe named production"),  # a probe that cannot run
        10: (CONTRADICTED, "Token lifetime is 30 minutes"),  # ruling already recorded
        11: (CONTRADICTED, "gone.py does not exist at HEAD"),  # deleted path
        12: (UNVERIFIED, "no checkable address"),  # claim with no address
        15: (CONTRADICTED, "landed: matched by"),  # queued work landed
        16: (UNVERIFIED, "no commit on HEAD references it"),  # DONE with no commit
    }
    for line, (verdict, evidence) in expect.items():
        claim = by_line[line]
        assert (claim.verdict, evidence in claim.evidence) == (verdict, True), (line, claim.text, claim.evidence)
    assert result.counts == {VERIFIED: 2, CONTRADICTED: 6, UNVERIFIED: 3}
    assert result.exit_code == 1
    assert result.system_message == "cc-hooks: 2 verified, 6 contradicted, 3 unverified"
    text = result.markdown
    assert text.index("### CONTRADICTED") < text.index("### UNVERIFIED") < text.index("other claim(s) verified")
    assert "The harness summary above was written from the conversation and was not checked" in text
    assert "FAIL dashboard-fresh" in text
    assert "### Resume point (verified)" in text


def test_untrusted_probe_in_the_fixture(repo):
    plant(repo)
    repo.write(".cc-hooks.toml", tomli_w.dumps({"probes": {"staging": {"argv": ["true"]}}}))
    config = repo.config()  # the table differs from the one trusted in plant()
    result = build_rehydration(repo.path, "resume", config, Deadline(20))
    staging = next(c for c in result.claims if "Staging" in c.text)
    assert staging.verdict == UNVERIFIED and "probe not trusted" in staging.evidence


def test_git_processes_do_not_grow_with_the_number_of_claims(repo, monkeypatch):
    plant(repo)
    calls = []
    real = gitmod.run_git

    def counting(root, *args, **kwargs):
        calls.append(args[0] if args[0] != "--literal-pathspecs" else args[1])
        return real(root, *args, **kwargs)

    monkeypatch.setattr(gitmod, "run_git", counting)
    shas = repo.git("rev-list", "--all").split()
    lines = [
        "Fix landed in `{sha}`.",
        "Branch `fix/refresh` at `{sha}`.",
        "See `calc.py:2` and `gone.py`.",
        "Working tree clean.",
    ]

    def run(n):
        claims = [claim_from_line(lines[i % 4].format(sha=shas[i % len(shas)][:8]), "next_steps.md", i) for i in range(n)]
        claims += [claim_from_line(f"Add thing number {i} to the widget", "next_steps.md", i, "queue", "2026-11-20") for i in range(n)]
        calls.clear()
        verify_claims(repo.path, claims, repo.config(), Deadline(30), state_date="2026-11-29")
        return list(calls)

    few, many = run(8), run(400)
    assert len(few) == len(many), (few, many)
    assert len(many) <= 12, many
    print("git processes per verification:", len(many), many)


def test_time_budget_leaves_everything_unverified(repo):
    plant(repo)

    class Expired:
        def remaining(self):
            return 0.0

    result = build_rehydration(repo.path, "compact", repo.config(), Expired())
    assert result.counts[VERIFIED] == 0 and result.counts[CONTRADICTED] == 0
    reasons = {c.evidence for c in result.claims}
    assert "time budget" in reasons


def test_no_dashboard_means_record_not_initialized(repo):
    result = build_rehydration(repo.path, "startup", repo.config(), Deadline(5), notes=["missing SYMPTOMS.md"])
    assert not result.initialized and result.exit_code == 2
    assert result.system_message == "cc-hooks: record not initialized"
    assert "The record is not initialized" in result.markdown
    assert f"Git: HEAD `main` at `{repo.sha('HEAD')[:12]}`." in result.markdown
    assert "- missing SYMPTOMS.md" in result.markdown
