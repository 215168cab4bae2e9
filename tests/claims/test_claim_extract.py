import json
from pathlib import Path

import pytest

from cc_hooks.claims.extract import claim_from_line, extract_from_text, git_assertions
from cc_hooks.claims.model import EXTERNAL, GIT, PATH, POSITION, QUEUE

SUMMARY = """Summary:
1. Primary Request: fix the add() bug.
2. Key work:
   - Fixed `calc.py` in commit 3f2a9c1e; tests pass.
   - Branch `fix/add` merged into `main` and pushed.
   - Discussed the weather at length.
   ```
   git commit -m "deadbeef0 in a fence is code"
   ```
Code is NOT committed - changes are still unstaged.

9. Optional Next Step:
   - Add float support to `calc.py`.
"""


@pytest.mark.parametrize(
    "text, kind",
    [
        ("Fix landed in `9b1d2e0`.", GIT),
        ("Working tree clean.", GIT),
        ("Staging runs v1.4.2. (probe: staging)", EXTERNAL),
        ("Deployed to production.", EXTERNAL),
        ("Awaiting the user's ruling on token lifetime.", POSITION),
        ("At step 3 of the plan.", POSITION),
        ("The parser lives in `src/parse.py`.", PATH),
    ],
)
def test_classification(text, kind):
    assert claim_from_line(text, "next_steps.md").kind == kind


def test_queue_section_is_always_queue():
    claim = claim_from_line("Fix landed in `9b1d2e0`.", "next_steps.md", section="queue")
    assert claim.kind == QUEUE and claim.intent


def test_assertions_both_polarities():
    assert [(a.what, a.negated) for a in git_assertions("Working tree clean and pushed.")] == [("clean", False), ("pushed", False)]
    assert [(a.what, a.negated) for a in git_assertions("Uncommitted changes, not pushed yet.")] == [("clean", True), ("pushed", True)]
    merged = git_assertions("Branch `x` at `abc1234`, not merged into `main`.")
    assert [(a.what, a.target, a.negated) for a in merged] == [("branch_at", "x", False), ("merged", "main", True)]
    assert git_assertions("Change set X is staged for deploy.") == []


def test_free_text_claims():
    claims = extract_from_text(SUMMARY, date="2026-11-29")
    texts = [c.text for c in claims]
    assert "Fixed `calc.py` in commit 3f2a9c1e; tests pass." in texts
    assert "Branch `fix/add` merged into `main` and pushed." in texts
    assert not any("weather" in t or "fence" in t for t in texts)
    dirty = next(c for c in claims if c.text.startswith("Code is NOT committed"))
    assert (dirty.assertions[0].what, dirty.assertions[0].negated) == ("clean", True)
    nxt = next(c for c in claims if "float" in c.text)
    assert nxt.kind == QUEUE and nxt.date == "2026-11-29" and nxt.source == "summary" and nxt.line == 13


def test_real_compaction_summaries_extract_without_noise(shared_dir):
    paths = sorted((shared_dir / "corpus" / "transcripts" / "spotter-2.1.39").glob("*.jsonl"))
    assert paths
    for path in paths:
        summary = next(
            json.loads(line)
            for line in path.read_text(encoding="utf-8").splitlines()
            if '"isCompactSummary":true' in line.replace(" ", "")
        )
        content = summary["message"]["content"]
        text = content if isinstance(content, str) else content[0]["text"]
        claims = extract_from_text(text)
        assert claims, path.name
        for claim in claims:
            for address in claim.addresses:
                assert not address.value.endswith(("/1", "/2")), (path.name, claim.text)  # arities are not paths


def test_merge_and_tip_assertions_need_a_branch_shaped_name():
    """A plain English word after "merged into" / "branch ... at" is not a ref (it would be a false contradiction)."""
    assert git_assertions("The fix was merged to the main branch.") == []
    assert git_assertions("Merged into production yesterday.") == []
    assert git_assertions("The branch is at abc1234f now.") == []
    assert [(a.what, a.target) for a in git_assertions("merged into main")] == [("merged", "main")]
    assert [(a.what, a.target) for a in git_assertions("merged into `production`")] == [("merged", "production")]
    assert [(a.what, a.target, a.sha) for a in git_assertions("Branch fix-x at 1a2b3c4d.")] == [("branch_at", "fix-x", "1a2b3c4d")]


def test_a_wrapped_paragraph_line_ending_in_a_colon_is_not_a_heading():
    from cc_hooks.claims.extract import extract_from_text

    text = ("This report comes from a repository with a deleted\nfile and a queued item whose work had landed:\n\n"
            "The user sees one line.\n\nPending Tasks:\n- Add the parser for `src/x.py`.\n")
    claims = extract_from_text(text)
    queue = [c.text for c in claims if c.section == "queue"]
    assert queue == ["Add the parser for `src/x.py`."]  # only the item under the real "Pending Tasks:" heading
