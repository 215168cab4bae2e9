"""Rehydration remembers what it derives from bytes (the dashboard's claims, the ledger's entries), never verdicts."""

from __future__ import annotations

import subprocess
import sys

import pytest

from cc_hooks.claims.extract import claim_from_line
from cc_hooks.claims.model import CONTRADICTED, UNVERIFIED, VERIFIED, Claim
from cc_hooks.claims.rehydration import build_rehydration
from cc_hooks.record.backends import file as file_backend
from cc_hooks.runtime import Deadline


def dashboard(*bullets: str) -> str:
    return "# Next steps\n\n## CURRENT STATE — 2026-11-20\nResume point: keep going on `main`.\n" + "".join(f"- {b}\n" for b in bullets) + (
        "\n## QUEUED\n- 2026-11-20 — Write the release notes\n"
    )


@pytest.fixture
def record(repo):
    (repo.path / ".git" / "cc-hooks").mkdir()
    repo.commit("record", {"CLAUDE.md": "Dashboard: file next_steps.md\n", "DECISIONS.md": "# Decision Ledger\n"})
    return repo


@pytest.fixture
def parses(monkeypatch):
    calls = []
    real = file_backend.parse
    monkeypatch.setattr(file_backend, "parse", lambda data, locator="next_steps.md": calls.append(locator) or real(data, locator))
    return calls


def rehydrate(repo):
    return build_rehydration(repo.path, "startup", repo.config(), Deadline(20))


def test_an_unchanged_dashboard_is_parsed_once(record, parses):
    head = record.sha("HEAD")
    record.write("next_steps.md", dashboard(f"Landed in `{head[:8]}`.", "Docs in `README.md:1`.", "Missing `abc0007` commit."))
    first, second = rehydrate(record), rehydrate(record)
    assert parses == ["next_steps.md"]
    without_calls = lambda r: {k: v for k, v in r.to_dict().items() if k != "git_calls"}  # noqa: E731
    assert second.markdown == first.markdown and without_calls(second) == without_calls(first)
    assert second.git_calls < first.git_calls  # the history of HEAD is remembered too, not read again
    assert first.counts == {VERIFIED: 3, CONTRADICTED: 1, UNVERIFIED: 1}  # the queued item: no landing, not VERIFIED


def test_a_changed_dashboard_is_parsed_again(record, parses):
    head = record.sha("HEAD")
    record.write("next_steps.md", dashboard(f"Landed in `{head[:8]}`."))
    assert rehydrate(record).counts[CONTRADICTED] == 0
    record.write("next_steps.md", dashboard(f"Landed in `{head[:8]}`.", "Missing `abc0007` commit."))
    assert rehydrate(record).counts[CONTRADICTED] == 1
    assert parses == ["next_steps.md", "next_steps.md"]


def test_verdicts_are_not_remembered(record):
    """The same dashboard bytes, a dirtied work tree: the claims are verified again."""
    record.commit("dashboard", {"next_steps.md": dashboard("Working tree clean.")})
    assert rehydrate(record).counts[CONTRADICTED] == 0
    record.write("scratch.txt", "dirty\n")
    assert rehydrate(record).counts[CONTRADICTED] == 1


def test_a_remembered_dashboard_needs_neither_its_parser_nor_the_extractor(record):
    """Nor does opening the default backend scan the backends package (pkgutil)."""
    record.write("next_steps.md", dashboard("Working tree clean.", "Awaiting the user's ruling on token lifetime."))
    script = (
        "import sys\n"
        "from cc_hooks.claims.rehydration import build_rehydration\n"
        "from cc_hooks.config import load_config\n"
        "from cc_hooks.runtime import Deadline\n"
        "r = build_rehydration(sys.argv[1], 'startup', load_config(sys.argv[1]), Deadline(20))\n"
        "loaded = [m for m in ('cc_hooks.record.markdown', 'cc_hooks.claims.extract', 'cc_hooks.record.decisions', 'cc_hooks.record.dashboard_read', 'pkgutil') if m in sys.modules]\n"
        "print(sorted(r.counts.items()), loaded)\n"
    )
    runs = [subprocess.run([sys.executable, "-c", script, str(record.path)], capture_output=True, text=True, check=True).stdout for _ in range(2)]
    assert "'cc_hooks.record.markdown', 'cc_hooks.claims.extract', 'cc_hooks.record.decisions', 'cc_hooks.record.dashboard_read'" in runs[0]
    assert runs[1] == runs[0].split(" [")[0] + " []\n"


@pytest.mark.parametrize(
    "text, section, date, done",
    [
        ("Branch `fix/x` at `abc1234`, merged into `main`; see `src/a.py:3-9` and #12 (probe: ci).", "state", "2026-11-20", False),
        ("2026-11-20 — Deploy v2 to staging, will push after `README.md` review", "queue", "2026-11-20", True),
        ("Working tree is dirty, not pushed, nothing staged.", "resume", None, False),
    ],
)
def test_an_extracted_claim_comes_back_whole(text, section, date, done):
    claim = claim_from_line(text, "next_steps.md", 7, section, date, done)
    back = Claim.from_extracted(claim.extracted())
    assert back == claim
    assert [a.quoted for a in back.addresses] == [a.quoted for a in claim.addresses]


def test_the_report_and_the_checklist_share_one_extraction_and_date_undated_items_their_own_way(record, parses):
    from cc_hooks.checks.claims_adapter import dashboard_claims
    from cc_hooks.checks.context import make_context

    text = dashboard("Keep going.").replace("- 2026-11-20 — Write the release notes", "- Write the release notes")
    record.write("next_steps.md", text)
    report = rehydrate(record)
    claims, state_date = dashboard_claims(make_context(record.path, Deadline(20)))
    assert parses == ["next_steps.md"]  # the checklist took the report's extraction
    assert len(list((record.path / ".git" / "cc-hooks" / "cache").glob("dashboard-*.json"))) == 1
    [queued] = [c for c in claims if c.section == "queue"]
    assert queued.date is None and state_date == "2026-11-20"  # the checklist: undated, so unverified
    [reported] = [c for c in report.claims if c.section == "queue"]
    assert reported.date == "2026-11-20"  # the report: dated by the state block


def test_a_remembered_dashboard_does_not_import_the_sentence_rules(record):
    """`claims.statements` compiles ~60 regexes at import (~20 ms of a hook's start): verifying remembered
    claims needs only its targets and two word helpers, which live in `claims.model` and `claims.words`."""
    head = record.sha("HEAD")
    record.write("next_steps.md", dashboard(f"Landed in `{head[:8]}` on `main`.", "HEAD is detached.", "Working tree clean."))
    script = (
        "import sys\n"
        "from cc_hooks.claims.rehydration import build_rehydration\n"
        "from cc_hooks.config import load_config\n"
        "from cc_hooks.runtime import Deadline\n"
        "r = build_rehydration(sys.argv[1], 'startup', load_config(sys.argv[1]), Deadline(20))\n"
        "print(sorted(r.counts.items()), 'cc_hooks.claims.statements' in sys.modules)\n"
    )
    runs = [subprocess.run([sys.executable, "-c", script, str(record.path)], capture_output=True, text=True, check=True).stdout.split("] ")
            for _ in range(2)]
    assert [run[1].strip() for run in runs] == ["True", "False"] and runs[0][0] == runs[1][0]
