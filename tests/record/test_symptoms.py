from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from cc_hooks.record.symptoms import RULES, find_shas, parse_symptoms, validate_symptoms

GOOD = """\
# Symptom Index

Append-only. Keyed by observable. Search this file BEFORE theorizing about any bug.

---

## Symptom: login loops after 30 min

**Known causes** (a recurring symptom may gain new causes — list all):

### Cause 1: refresh token read from the stale cookie — fixed in {sha}
- **Mechanism**: the refresh handler read the cookie set before rotation,
  so the server rejected it and redirected to login.
- **Discriminator**: clear only the old cookie; the loop stops.
- **Fix**: read the rotated token from the response ({sha})
- **Guard**: tests/test_auth.py::test_refresh_uses_rotated_token

### Cause 2: clock skew beyond the token leeway — fixed in `{sha}`
- **Mechanism**: tokens looked expired on arrival.
- **Discriminator**: compare `date` on client and server.
- **Fix**: 60 s leeway ({sha})
- **Guard**: none — needs a fake clock (gap)

**Ruled out**:
- Session store eviction — eliminated by the store's hit rate staying at 100%, 2026-11-20
- CDN caching the login page — eliminated by `Cache-Control: no-store` in every response, 2026-11-21

## Symptom: `add(2, 3)` returns -1

### Cause 1: `add()` subtracted — fixed in {sha}
- **Mechanism**: a typo: `a - b`.
- **Discriminator**: `add(0, 1)` gives -1.
- **Fix**: `a + b` ({sha})
- **Guard**: tests/test_calc.py::test_add

**Ruled out**:
- Float rounding — eliminated by integer inputs, 2026-11-27
"""


ADD_CAUSE = """\
### Cause 1: `add()` subtracted — fixed in {sha}
- **Mechanism**: a typo: `a - b`.
- **Discriminator**: `add(0, 1)` gives -1.
- **Fix**: `a + b` ({sha})
- **Guard**: tests/test_calc.py::test_add
"""


def head_sha(repo: Path) -> str:
    return subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def line_at(text: str, needle: str) -> int:
    """The line on which the first occurrence of ``needle`` (which may span lines) starts."""
    return text[: text.index(needle)].count("\n") + 1


# --- parsing: the same facts come back ---------------------------------------------------------


def test_round_trip_of_a_real_looking_ledger():
    text = GOOD.format(sha="9b1d2e0")
    ledger = parse_symptoms(text)
    assert ledger.findings == []
    assert ledger.title == "Symptom Index"
    assert ledger.preamble_end == 6
    first, second = ledger.entries
    assert first.observable == "login loops after 30 min"
    assert first.slug == "symptom-login-loops-after-30-min"
    assert (first.start, first.end) == (7, 26)
    assert [c.number for c in first.causes] == [1, 2]
    cause = first.causes[0]
    assert cause.title == "refresh token read from the stale cookie"
    assert cause.fixed_in == ["9b1d2e0"] and cause.fix_shas == ["9b1d2e0"]
    assert cause.mechanism == "the refresh handler read the cookie set before rotation,\nso the server rejected it and redirected to login."
    assert cause.discriminator == "clear only the old cookie; the loop stops."
    assert cause.guard == "tests/test_auth.py::test_refresh_uses_rotated_token"
    assert (cause.start, cause.end) == (11, 16)
    assert cause.field_lines == {"mechanism": 12, "discriminator": 14, "fix": 15, "guard": 16}
    assert cause.slug == "cause-1-refresh-token-read-from-the-stale-cookie--fixed-in-9b1d2e0"
    assert first.causes[1].guard == "none — needs a fake clock (gap)"
    assert first.causes[1].end == 22  # the Ruled out list is the entry's, not the last cause's
    assert [(r.hypothesis, r.evidence, r.date, r.line) for r in first.ruled_out] == [
        ("Session store eviction", "the store's hit rate staying at 100%", "2026-11-20", 25),
        ("CDN caching the login page", "`Cache-Control: no-store` in every response", "2026-11-21", 26),
    ]
    assert second.observable == "`add(2, 3)` returns -1"
    assert second.slug == "symptom-add2-3-returns--1"
    assert second.end == len(text.splitlines())
    assert ledger.entry("symptom-add2-3-returns--1") is second


def test_tolerates_crlf_bom_trailing_spaces_arrows_dashes_and_label_styles():
    text = (
        "\ufeff# Symptoms\r\n\r\n## Symptom: a -> b   \r\n\r\n"
        "### Cause 1: wrong map – fixed in 9b1d2e0  \r\n"
        "* **Mechanism:** m\r\n* **Discriminator** : d\r\n- **Fix**: f (9b1d2e0)\r\n+ **Guard:** g\r\n\r\n"
        "**Ruled out:**\r\n* x -- eliminated by y, 2026-01-02\r\n* z - eliminated by w, 2026-01-03\r\n"
    )
    ledger = parse_symptoms(text)
    assert ledger.findings == []
    (entry,) = ledger.entries
    assert entry.observable == "a -> b"
    cause = entry.causes[0]
    assert (cause.title, cause.mechanism, cause.discriminator, cause.fix, cause.guard) == ("wrong map", "m", "d", "f (9b1d2e0)", "g")
    assert [(r.hypothesis, r.evidence) for r in entry.ruled_out] == [("x", "y"), ("z", "w")]


def test_unknown_sections_and_labels_are_kept_not_errors():
    text = GOOD.format(sha="9b1d2e0").replace(
        "**Ruled out**:\n- Session",
        "**Owner**: auth team\n\n### Open gap\nNo guard for skew.\n\n**Ruled out**:\n- Session",
        1,
    ).replace("- **Guard**: tests/test_auth.py", "- **Seen on**: Firefox only\n- **Guard**: tests/test_auth.py", 1)
    ledger = parse_symptoms(text)
    assert ledger.findings == []
    entry = ledger.entries[0]
    assert [(x.title, x.text) for x in entry.extra] == [("Owner", "auth team"), ("Open gap", "No guard for skew.")]
    assert entry.causes[0].extra == {"Seen on": "Firefox only"}
    assert len(entry.ruled_out) == 2


def test_a_paragraph_after_a_list_item_is_not_part_of_it():
    text = GOOD.format(sha="9b1d2e0").replace(
        "- **Guard**: none — needs a fake clock (gap)\n",
        "- **Guard**: none — needs a fake clock (gap)\n  still the guard\n\nThe gap: nobody owns the clock.\n",
    )
    entry = parse_symptoms(text).entries[0]
    assert entry.causes[1].guard == "none — needs a fake clock (gap)\nstill the guard"
    assert [(x.title, x.text) for x in entry.extra] == [("", "The gap: nobody owns the clock.")]


def test_headings_inside_fences_and_comments_are_text():
    text = GOOD.format(sha="9b1d2e0").replace(
        "Append-only.", "<!--\n## Symptom: example\n-->\n```\n## Symptom: in a fence\n```\nAppend-only."
    )
    assert [e.observable for e in parse_symptoms(text).entries] == ["login loops after 30 min", "`add(2, 3)` returns -1"]


def test_find_shas_needs_a_digit_unless_backticked():
    assert find_shas("fixed in 9b1d2e0 and `deadbee`, not in defaced or 12345") == ["9b1d2e0", "deadbee"]


def test_ruled_out_note_without_items():
    text = GOOD.format(sha="9b1d2e0").replace("- Float rounding — eliminated by integer inputs, 2026-11-27\n", "").replace(
        "**Ruled out**:\n\n", "**Ruled out**: nothing yet\n"
    )
    text = text.replace("**Ruled out**:\n", "**Ruled out**: nothing yet\n", 2)
    entry = parse_symptoms(text).entries[1]
    assert entry.ruled_out == [] and entry.ruled_out_note == "nothing yet"


# --- each rule, both directions ----------------------------------------------------------------

# (rule, old text, new text, line that holds the problem)
BREAKERS = [
    ("symptom-heading", "## Symptom: login loops after 30 min", "## Login loops after 30 min", "## Login loops"),
    ("symptom-heading", "## Symptom: login loops after 30 min", "## Symptom:", "## Symptom:\n"),
    ("symptom-no-cause", ADD_CAUSE, "", "## Symptom: `add"),
    ("symptom-no-ruled-out", "**Ruled out**:\n- Float", "- Float", "## Symptom: `add"),
    ("cause-heading", "### Cause 1: `add()` subtracted — fixed in {sha}", "### Cause 1: — fixed in {sha}", "### Cause 1: — fixed"),
    ("cause-heading", "### Cause 1: `add()` subtracted — fixed in {sha}\n", "", "- **Mechanism**: a typo"),
    ("cause-no-fixed-in", "### Cause 1: `add()` subtracted — fixed in {sha}", "### Cause 1: `add()` subtracted", "### Cause 1: `add()`"),
    ("cause-no-fixed-in", "### Cause 1: `add()` subtracted — fixed in {sha}", "### Cause 1: `add()` subtracted — fixed in the next release", "### Cause 1: `add()`"),
    ("cause-no-mechanism", "- **Mechanism**: a typo: `a - b`.\n", "", "### Cause 1: `add()`"),
    ("cause-no-mechanism", "- **Mechanism**: a typo: `a - b`.", "- **Mechanism**:", "- **Mechanism**:\n"),
    ("cause-no-discriminator", "- **Discriminator**: `add(0, 1)` gives -1.\n", "", "### Cause 1: `add()`"),
    ("cause-no-fix", "- **Fix**: `a + b` ({sha})\n", "", "### Cause 1: `add()`"),
    ("cause-no-guard", "- **Guard**: tests/test_calc.py::test_add\n", "", "### Cause 1: `add()`"),
    ("cause-fix-no-sha", "- **Fix**: `a + b` ({sha})", "- **Fix**: `a + b`", "- **Fix**: `a + b`"),
    ("ruled-out-no-evidence", "- Float rounding — eliminated by integer inputs, 2026-11-27", "- Float rounding, 2026-11-27", "- Float rounding"),
    ("ruled-out-no-evidence", "- Float rounding — eliminated by integer inputs, 2026-11-27", "- Float rounding — eliminated by 2026-11-27", "- Float rounding"),
    ("ruled-out-no-date", "- Float rounding — eliminated by integer inputs, 2026-11-27", "- Float rounding — eliminated by integer inputs", "- Float rounding"),
    ("date-invalid", "- Float rounding — eliminated by integer inputs, 2026-11-27", "- Float rounding — eliminated by integer inputs, 2026-02-30", "- Float rounding"),
    ("duplicate-heading", "## Symptom: `add(2, 3)` returns -1", "## Symptom: login loops after 30 min", "## Symptom: login loops after 30 min\n\n### Cause 1: `add"),
]


def test_the_good_ledger_passes_every_rule(git_repo):
    (git_repo / "SYMPTOMS.md").write_text(GOOD.format(sha=head_sha(git_repo)[:9]), encoding="utf-8")
    assert validate_symptoms(git_repo) == []


@pytest.mark.parametrize("rule, old, new, where", BREAKERS, ids=[f"{b[0]}-{i}" for i, b in enumerate(BREAKERS)])
def test_each_rule_fires_on_its_breaking_fixture(rule, old, new, where):
    good = GOOD.format(sha="9b1d2e0")
    old, new, where = (s.format(sha="9b1d2e0") for s in (old, new, where))
    assert old in good
    text = good.replace(old, new)
    findings = parse_symptoms(text).findings
    hits = [f for f in findings if f.rule == rule]
    assert hits, f"{rule} not reported; got {[str(f) for f in findings]}"
    assert line_at(text, where) in [f.line for f in hits]
    assert all(f.entry for f in hits)
    assert not [f for f in parse_symptoms(good).findings if f.rule == rule]


def test_every_content_rule_has_a_breaking_fixture():
    covered = {b[0] for b in BREAKERS} | {"sha-unknown", "sha-not-commit", "sha-unchecked", "file-missing", "file-unreadable"}
    assert covered == set(RULES)


def test_sha_that_does_not_exist_is_reported_at_its_cause(git_repo):
    text = GOOD.format(sha=head_sha(git_repo)[:9]).replace("fixed in `", "fixed in `1234567` and `", 1)
    (git_repo / "SYMPTOMS.md").write_text(text, encoding="utf-8")
    findings = validate_symptoms(git_repo)
    assert [(f.rule, f.line, f.entry) for f in findings] == [("sha-unknown", line_of(text, "### Cause 2"), "symptom-login-loops-after-30-min")]
    assert "1234567" in findings[0].message


def test_sha_of_a_blob_is_not_a_commit(git_repo):
    blob = subprocess.run(["git", "-C", str(git_repo), "rev-parse", "HEAD:README.md"], capture_output=True, text=True, check=True).stdout.strip()
    text = GOOD.format(sha=head_sha(git_repo)[:9]).replace("fixed in `", f"fixed in `{blob[:10]}` and `", 1)
    (git_repo / "SYMPTOMS.md").write_text(text, encoding="utf-8")
    assert [f.rule for f in validate_symptoms(git_repo)] == ["sha-not-commit"]


def test_shas_are_checked_in_one_git_process(git_repo, monkeypatch):
    import cc_hooks.git as git_module

    calls = []
    real = git_module.run_git
    monkeypatch.setattr(git_module, "run_git", lambda *a, **k: calls.append(a[1:3]) or real(*a, **k))
    text = GOOD.format(sha=head_sha(git_repo)[:9]).replace("fixed in `", "fixed in `1234567` and `", 1)
    assert [f.rule for f in validate_symptoms(git_repo, text=text)] == ["sha-unknown"]
    assert calls == [("cat-file", "--batch-check=%(objectname) %(objecttype)")]


def test_outside_a_repository_shas_are_unchecked_not_passed(tmp_path):
    (tmp_path / "SYMPTOMS.md").write_text(GOOD.format(sha="9b1d2e0"), encoding="utf-8")
    findings = validate_symptoms(tmp_path)
    assert [(f.rule, f.severity) for f in findings] == [("sha-unchecked", "warning")]


def test_missing_and_undecodable_files(tmp_path):
    assert [(f.rule, f.severity, f.line) for f in validate_symptoms(tmp_path)] == [("file-missing", "warning", None)]
    (tmp_path / "SYMPTOMS.md").write_bytes(b"# S\n\n## Symptom: caf\xe9\n")
    findings = validate_symptoms(tmp_path, check_commits=False)
    assert ("file-unreadable", 3) in [(f.rule, f.line) for f in findings]
    assert "symptom-no-cause" in [f.rule for f in findings]  # the rest is still checked


def test_the_projects_own_ledger_parses_cleanly(tmp_path):
    own = Path(__file__).resolve().parents[2] / "SYMPTOMS.md"
    if not own.is_file():
        pytest.skip("the project's SYMPTOMS.md is not present")
    ledger = parse_symptoms(own.read_text(encoding="utf-8"))
    pending = _recorded_by_the_newest_commit(own, ledger)
    assert ledger.entries and [f for f in ledger.findings if not (f.entry in pending and f.rule in _UNTIL_ITS_SHA)] == []
    assert all(c.shas for e in ledger.entries for c in e.causes if e.slug not in pending)


# A fix commit's entry says "fixed in this commit"; the record-keeping commit after it names the sha.
_UNTIL_ITS_SHA = {"cause-no-fixed-in", "cause-fix-no-sha"}


def _recorded_by_the_newest_commit(own: Path, ledger) -> set:
    """Slugs of the entries the ledger has and its version before HEAD's commit had not (none without git)."""
    proc = subprocess.run(["git", "-C", str(own.parent), "show", "HEAD~1:SYMPTOMS.md"], capture_output=True, text=True)
    if proc.returncode != 0:
        return set()
    before = {e.slug for e in parse_symptoms(proc.stdout).entries}
    return {e.slug for e in ledger.entries if e.slug not in before}


def test_the_record_gaps_section_is_not_an_entry():
    from cc_hooks.record.symptoms import parse_symptoms

    text = ("# Symptom Index\n\n## Record gaps found\n\n- `abc1234` SYMPTOMS.md: shas only (record keeping).\n")
    ledger = parse_symptoms(text, "SYMPTOMS.md")
    assert ledger.entries == [] and ledger.findings == []
