from __future__ import annotations

from pathlib import Path

import pytest

from cc_hooks.record.decisions import RULES, parse_decisions, validate_decisions

GOOD = """\
# Decision Ledger

Append-only, dated. Records WHY. Never edited — amend by appending a new dated entry that
references the old one.

---

## 2026-11-27 — Keep integer-only arithmetic

**Decision**: `add()` and friends accept integers only.
**Context**: a user asked for float support; rounding semantics
differ per caller and we were bitten before.
**Rejected alternatives**:
- Float support — rejected because every caller would need its own rounding rule.
- `Decimal` everywhere — rejected because it is 10x slower
  on the hot path.
**Consequences**: callers convert before calling.
**Amends**: none

## 2026-11-28 — Write the config with tomli-w

**Decision:** `.cc-hooks.toml` is written with tomli-w, comments added around its output.
**Context:** the stack is fixed; tomli-w cannot write comments.
**Rejected alternatives:**
* tomlkit — rejected because it is not in the stack.
**Consequences:** comments are generated from the field descriptions.
**Amends:** 2026-11-27 (see #2026-11-27--keep-integer-only-arithmetic)
"""


def line_at(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def test_round_trip_of_a_real_looking_ledger():
    ledger = parse_decisions(GOOD)
    assert ledger.findings == []
    assert ledger.title == "Decision Ledger"
    first, second = ledger.entries
    assert (first.date, first.title, first.slug) == ("2026-11-27", "Keep integer-only arithmetic", "2026-11-27--keep-integer-only-arithmetic")
    assert (first.start, first.end) == (8, 18)
    assert first.decision == "`add()` and friends accept integers only."
    assert first.context == "a user asked for float support; rounding semantics\ndiffer per caller and we were bitten before."
    assert [(r.alternative, r.reason, r.line) for r in first.rejected] == [
        ("Float support", "every caller would need its own rounding rule.", 14),
        ("`Decimal` everywhere", "it is 10x slower on the hot path.", 15),
    ]
    assert first.consequences == "callers convert before calling."
    assert first.amends == "none"
    assert second.amends == "2026-11-27 (see #2026-11-27--keep-integer-only-arithmetic)"
    assert second.field_lines["amends"] == line_at(GOOD, "**Amends:** 2026")
    assert second.end == len(GOOD.splitlines())
    assert ledger.entry("2026-11-28--write-the-config-with-tomli-w") is second


def test_tolerates_crlf_bom_dash_variants_and_unknown_sections():
    text = (
        "\ufeff# D\r\n\r\n## 2026-01-02 - Use X   \r\n"
        "**Decision**: x\r\n**Context**: c\r\n**Rejected alternatives**: Y -- rejected because z\r\n"
        "**Consequences**: q\r\n**Reviewed by**: ops\r\n\r\n### Follow-up\r\nnotes\r\n"
        "## 2026-01-03 – Use W\r\n**Decision**: w\r\n**Context**: c\r\n**Rejected alternatives**:\r\n"
        "- V – rejected because u\r\n**Consequences**: q\r\n"
    )
    ledger = parse_decisions(text)
    assert ledger.findings == []
    first, second = ledger.entries
    assert (first.date, first.title) == ("2026-01-02", "Use X")
    assert [(r.alternative, r.reason) for r in first.rejected] == [("Y", "z")]
    assert [(x.title, x.text) for x in first.extra] == [("Reviewed by", "ops"), ("Follow-up", "notes")]
    assert [(r.alternative, r.reason) for r in second.rejected] == [("V", "u")]


# (rule, old text, new text, text on the line that holds the problem)
BREAKERS = [
    ("decision-heading", "## 2026-11-28 — Write the config", "## Write the config", "## Write the config"),
    ("decision-no-title", "## 2026-11-28 — Write the config with tomli-w", "## 2026-11-28", "## 2026-11-28\n"),
    ("date-invalid", "## 2026-11-28 — Write", "## 2026-11-31 — Write", "## 2026-11-31"),
    ("date-invalid", "## 2026-11-28 — Write", "## 2026-11-2 — Write", "## 2026-11-2 "),
    ("decision-no-decision", "**Decision:** `.cc-hooks.toml` is written with tomli-w, comments added around its output.\n", "", "## 2026-11-28"),
    ("decision-no-decision", "**Decision:** `.cc-hooks.toml` is written with tomli-w, comments added around its output.", "**Decision:**", "**Decision:**\n"),
    ("decision-no-context", "**Context:** the stack is fixed; tomli-w cannot write comments.\n", "", "## 2026-11-28"),
    ("decision-no-consequences", "**Consequences:** comments are generated from the field descriptions.\n", "", "## 2026-11-28"),
    ("decision-no-rejected", "**Rejected alternatives:**\n* tomlkit — rejected because it is not in the stack.\n", "", "## 2026-11-28"),
    ("decision-no-rejected", "**Rejected alternatives:**\n* tomlkit — rejected because it is not in the stack.", "**Rejected alternatives:** none", "**Rejected alternatives:** none"),
    ("rejected-no-reason", "* tomlkit — rejected because it is not in the stack.", "* tomlkit", "* tomlkit"),
    ("rejected-no-reason", "* tomlkit — rejected because it is not in the stack.", "* tomlkit — rejected because", "* tomlkit"),
    ("decision-order", "## 2026-11-28 — Write", "## 2026-11-26 — Write", "## 2026-11-26"),
    ("amends-unresolved", "**Amends:** 2026-11-27 (see #2026-11-27--keep-integer-only-arithmetic)", "**Amends:** 2026-10-01", "**Amends:** 2026-10-01"),
    ("amends-unresolved", "**Amends:** 2026-11-27 (see #2026-11-27--keep-integer-only-arithmetic)", "**Amends:** #no-such-entry", "**Amends:** #no"),
    ("amends-unresolved", "**Amends:** 2026-11-27 (see #2026-11-27--keep-integer-only-arithmetic)", "**Amends:** the integer decision", "**Amends:** the"),
    ("duplicate-heading", "## 2026-11-28 — Write the config with tomli-w", "## 2026-11-27 — Keep integer-only arithmetic", "## 2026-11-27 — Keep integer-only arithmetic\n\n**Decision:**"),
]


@pytest.mark.parametrize("rule, old, new, where", BREAKERS, ids=[f"{b[0]}-{i}" for i, b in enumerate(BREAKERS)])
def test_each_rule_fires_on_its_breaking_fixture(rule, old, new, where):
    assert old in GOOD
    text = GOOD.replace(old, new)
    findings = parse_decisions(text).findings
    hits = [f for f in findings if f.rule == rule]
    assert hits, f"{rule} not reported; got {[str(f) for f in findings]}"
    assert line_at(text, where) in [f.line for f in hits]
    assert all(f.entry for f in hits)
    assert not [f for f in parse_decisions(GOOD).findings if f.rule == rule]


def test_every_content_rule_has_a_breaking_fixture():
    assert {b[0] for b in BREAKERS} | {"file-missing", "file-unreadable"} == set(RULES)


def test_amends_by_anchor_only_and_by_date_only_resolve():
    for amends in ("#2026-11-27--keep-integer-only-arithmetic", "2026-11-27", "DECISIONS.md#2026-11-27--keep-integer-only-arithmetic"):
        text = GOOD.replace("**Amends:** 2026-11-27 (see #2026-11-27--keep-integer-only-arithmetic)", f"**Amends:** {amends}")
        assert parse_decisions(text).findings == []


def test_amends_must_point_backwards():
    text = GOOD.replace("**Amends**: none", "**Amends**: 2026-11-28")
    assert [f.rule for f in parse_decisions(text).findings] == ["amends-unresolved"]


def test_validate_reads_the_file_and_reports_a_missing_one(tmp_path):
    assert [f.rule for f in validate_decisions(tmp_path)] == ["file-missing"]
    (tmp_path / "DECISIONS.md").write_text(GOOD.replace("**Context**: a user", "**Contxt**: a user"), encoding="utf-8")
    findings = validate_decisions(tmp_path)
    assert [(f.rule, f.line, f.entry) for f in findings] == [("decision-no-context", 8, "2026-11-27--keep-integer-only-arithmetic")]


def test_the_projects_own_ledger_parses_cleanly():
    own = Path(__file__).resolve().parents[2] / "DECISIONS.md"
    if not own.is_file():
        pytest.skip("the project's DECISIONS.md is not present")
    ledger = parse_decisions(own.read_text(encoding="utf-8"))
    assert ledger.entries and ledger.findings == []
    assert all(e.rejected and e.date for e in ledger.entries)
