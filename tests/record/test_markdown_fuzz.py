"""Property tests: the parsers take any text without raising, and what is missing is reported."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cc_hooks.record.append_only import compare_versions
from cc_hooks.record.decisions import parse_decisions
from cc_hooks.record.markdown import Document, Slugger, slugify, split_lines
from cc_hooks.record.symptoms import parse_symptoms

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Lines that exercise the grammar: headings, labels, bullets, fences, comments, dashes, arrows.
PIECES = [
    "# Symptom Index", "## Symptom: login loops", "## Symptom:", "## 2026-11-27 — Keep ints", "## 2026-13-45 - bad",
    "## 2026-11-28", "## plain heading", "### Cause 1: race — fixed in 9b1d2e0", "### Cause: x", "### Cause 2 – fixed in",
    "### Notes", "#### deep", "**Known causes**:", "**Ruled out**:", "**Ruled out**: none", "- x — eliminated by y, 2026-01-02",
    "- x -- eliminated by y", "* z", "  continued", "- **Mechanism**: m", "- **Discriminator:** d", "* **Fix**: f (abc1234)",
    "- **Guard**:", "**Decision**: d", "**Decision:** d", "**Context**: c", "**Rejected alternatives**:",
    "- A — rejected because B", "- A", "**Consequences**: q", "**Amends**: 2026-11-27", "**Amends**: #nowhere",
    "**Owner**: me", "**bold** text", "```", "~~~", "<!--", "-->", "<!-- one -->", "---", "", "   ", "a -> b → c",
    "\ufeff", "\r", "\t- tabbed", "[link](http://x) text", "## [Symptom: linked](x)", "## Symptom: `code` & <b>tags</b>",
]

line = st.one_of(st.sampled_from(PIECES), st.text(max_size=40))
markdownish = st.lists(line, max_size=60).flatmap(
    lambda lines: st.sampled_from(["\n", "\r\n", "\r"]).map(lambda nl: nl.join(lines))
)
anything = st.one_of(st.text(max_size=2000), markdownish)


def _within(text: str, value) -> bool:
    return value is None or 1 <= value <= max(len(split_lines(text)), 1)


@FUZZ
@given(anything)
def test_document_parse_never_raises_and_sections_partition_the_lines(text):
    document = Document.parse(text)
    preamble, sections = document.sections(2)
    covered = preamble.end - preamble.start + 1 + sum(s.end - s.start + 1 for s in sections)
    assert covered == len(document.lines)
    assert all(h.line not in document.hidden for h in document.headings)


@FUZZ
@given(anything)
def test_symptoms_parser_takes_anything_and_reports_what_is_missing(text):
    ledger = parse_symptoms(text)
    assert all(_within(text, f.line) for f in ledger.findings)
    by_entry = {}
    for f in ledger.findings:
        by_entry.setdefault(f.entry, set()).add(f.rule)
    for entry in ledger.entries:
        assert entry.start <= entry.end and _within(text, entry.start) and _within(text, entry.end)
        rules = by_entry.get(entry.slug, set())
        if not entry.causes:
            assert "symptom-no-cause" in rules
        for cause in entry.causes:
            assert entry.start <= cause.start <= cause.end <= entry.end
            for key in ("mechanism", "discriminator", "fix", "guard"):
                if getattr(cause, key) is None:
                    assert f"cause-no-{key}" in rules
            if not cause.fixed_in:  # a cause without its own heading is reported as such
                assert "cause-no-fixed-in" in rules or (cause.slug is None and "cause-heading" in rules)
        for item in entry.ruled_out:
            if item.date is None:
                assert "ruled-out-no-date" in rules
            if item.evidence is None:
                assert "ruled-out-no-evidence" in rules


@FUZZ
@given(anything)
def test_decisions_parser_takes_anything_and_reports_what_is_missing(text):
    ledger = parse_decisions(text)
    assert all(_within(text, f.line) for f in ledger.findings)
    by_entry = {}
    for f in ledger.findings:
        by_entry.setdefault(f.entry, set()).add(f.rule)
    for entry in ledger.entries:
        rules = by_entry.get(entry.slug, set())
        if entry.date is None:
            assert "decision-heading" in rules
        for key in ("decision", "context", "consequences"):
            if getattr(entry, key) is None:
                assert f"decision-no-{key}" in rules
        if not entry.rejected:
            assert "decision-no-rejected" in rules
        if any(r.reason is None for r in entry.rejected):
            assert "rejected-no-reason" in rules


@FUZZ
@given(st.lists(st.text(max_size=30), max_size=30))
def test_slugs_are_github_shaped_and_unique(headings):
    slugger = Slugger()
    slugs = [slugger.slug(h) for h in headings]
    assert len(set(slugs)) == len(slugs)
    for heading in headings:
        slug = slugify(heading)
        assert " " not in slug and slug == slug.lower()
        assert all(c.isalnum() or c in "-_" or not c.isascii() for c in slug)


@FUZZ
@given(anything, st.sampled_from(["\r\n", "\n"]))
def test_append_only_accepts_identity_whitespace_changes_and_appends(text, newline):
    assert compare_versions(text, text, "X.md") == []
    respaced = newline.join(f"{line}   " for line in split_lines(text))
    assert compare_versions(text, "\ufeff" + respaced, "X.md") == []
    appended = text + "\n\n## 2099-01-01 — appended entry\n**Decision**: new\n"
    if len(Document.parse(appended).sections(2)[1]) == len(Document.parse(text).sections(2)[1]) + 1:
        assert compare_versions(text, appended, "X.md") == []  # (after an unclosed fence it would be text)


def test_known_github_slugs():
    assert slugify("2025-01-10 — Use X") == "2025-01-10--use-x"
    assert slugify("Symptom: `add(2, 3)` returns -1") == "symptom-add2-3-returns--1"
    assert slugify("The tool's state lives in the git common dir") == "the-tools-state-lives-in-the-git-common-dir"
    assert slugify("Ünïcode — déjà vu_ok") == "ünïcode--déjà-vu_ok"
    assert slugify("[Linked](http://example.com) <em>heading</em>") == "linked-heading"
    slugger = Slugger()
    assert [slugger.slug(h) for h in ["x", "x", "x-1", "x"]] == ["x", "x-1", "x-1-1", "x-2"]
