"""Issue 42, findings 3-4: every function that reads repository, tracker or summary text runs in time
linear in it. A 12,000-backtick line stalled PreCompact for 40 s (a cubic code-span pattern);
a run of "<" or "[a](" was quadratic in the heading and link patterns.

The property: for adversarial lines (a long run of each character the patterns treat specially,
many short code spans, links, tags, cue words), each channel's reader takes at most a bound on
a 100 kB line, and four times the text costs at most about four times the time (a quadratic
reader costs sixteen). The bounds are loose (a loaded 2-core machine); a superlinear reader
overshoots them by orders of magnitude at this size.
"""

from __future__ import annotations

import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cc_hooks import printable
from cc_hooks.audit import stale
from cc_hooks.checks.preserve import missing_items
from cc_hooks.claims import addresses
from cc_hooks.claims.addresses import extract_addresses
from cc_hooks.claims.extract import extract_from_text
from cc_hooks.code_spans import blank_spans, code_spans
from cc_hooks.events.post_compact import visible_summary
from cc_hooks.record import markdown
from cc_hooks.record.backends.file import parse as parse_dashboard
from cc_hooks.record.decisions import parse_decisions
from cc_hooks.record.questions import parse_questions
from cc_hooks.record.symptoms import parse_symptoms

from .conftest import fuzz

SIZE = 100_000
BOUND_SECONDS = 3.0
GROWTH = 8.0  # x4 text: linear is ~4, quadratic ~16
SPECIAL = list("`*_[](){}<>#-|~:/.\\ !?,;'\"=+@$%^&\t") + ["a", "1", "f", "é"]
SHAPES = ["`a` ", "`a`, ", "a`", "`` ` ", "[a](", "<a", "a/", "a.b", "#1 ", "v1.", "commit ", "`a/b.py` ", "abc1234 ",
          "- ", "a_b ", "A-1 ", "on `x` ", "fixed in ", "a-", " -", "**a", "x.py:1 ", "not ", "in `main` ", "reverted ",
          "`a.py` was renamed to `b.py` ", "`a` is up to date ", "<analysis>", "<summary>", "http://a", "— ", "Symptom: "]


def line_of(piece: str, size: int) -> str:
    return (piece * (size // len(piece) + 1))[:size]


def ledger(heading: str):
    return lambda line: f"# Index\n\n## {heading}{line}\n\n{line}\n- {line}\n"


MUST_KEEP = [{"text": "fixed in `abc1234`", "tokens": {"shas": ["abc1234"], "others": []}},
             {"text": "the pager hangs on `less -R`", "tokens": {"shas": [], "others": ["less -R", "src/pager.py"]}},
             {"text": "the pager hangs when piped", "tokens": {}}]


CHANNELS = {
    "code spans": lambda line: blank_spans(line, code_spans(line)),
    "addresses": extract_addresses,
    "summary claims": lambda line: extract_from_text("Done. " + line, source="summary"),
    "visible summary": visible_summary,
    "must-keep items": lambda line: missing_items(MUST_KEEP, line),
    "SYMPTOMS.md": lambda line: parse_symptoms(ledger("Symptom: ")(line)),
    "DECISIONS.md": lambda line: parse_decisions(ledger("2026-12-07 — ")(line)),
    "COLDSTART_QUESTIONS.md": lambda line: parse_questions(ledger("Q: ")(line)),
    "dashboard": lambda line: parse_dashboard(f"# Next steps\n\n## CURRENT STATE — 2026-12-07\n- {line}\n\n## QUEUED\n- 2026-12-07 — {line}\n"),
    "heading anchors": markdown.slugify,
    "quoted for the model": lambda line: printable.quote(line, 600),
    "doc prose": lambda line: (stale.rst_prose(line), stale.readers_branches(line)),
}


def seconds(read, text: str, runs: int = 3) -> float:
    """The best of ``runs``: what the reader costs, not what a loaded machine adds."""
    best = float("inf")
    for _ in range(runs):
        addresses._addresses.cache_clear()  # a line read before must be read again, not remembered
        started = time.perf_counter()
        read(text)
        best = min(best, time.perf_counter() - started)
    return best


def assert_linear(channel: str, piece: str) -> None:
    read = CHANNELS[channel]
    small = seconds(read, line_of(piece, SIZE // 4))
    large = seconds(read, line_of(piece, SIZE), runs=2)
    assert large <= BOUND_SECONDS, f"{channel}: {large:.2f} s on 100 kB of {piece!r}"
    assert large <= GROWTH * small + 0.05, f"{channel}: {small:.3f} s -> {large:.3f} s on x4 of {piece!r}"


@pytest.mark.parametrize("channel", list(CHANNELS))
def test_each_channel_reads_a_run_of_each_special_piece_in_linear_time(channel):
    for piece in SPECIAL + SHAPES:
        assert_linear(channel, piece)


@pytest.mark.parametrize("channel", list(CHANNELS))
@fuzz(10)
@given(piece=st.lists(st.sampled_from(SPECIAL + SHAPES), min_size=2, max_size=4).map("".join))
def test_each_channel_reads_runs_of_mixed_pieces_in_linear_time(channel, piece):
    assert_linear(channel, piece)


@pytest.mark.parametrize("piece", ["`" * 3, "`a` ", "a`", "`` ` "])
def test_code_spans_follow_commonmark(piece):
    """A run closes only a run of the same length; an unmatched run is literal."""
    assert [s.token for s in code_spans("``a`b`` and `c`")] == ["a`b", "c"]
    assert code_spans("````") == [] and code_spans("`a") == [] and [s.token for s in code_spans("`` `a` ``")] == ["`a`"]
    text = line_of(piece, 4000)
    blanked = blank_spans(text)
    assert len(blanked) == len(text)
    assert all(blanked[s.start:s.end].strip() == "" for s in code_spans(text))
