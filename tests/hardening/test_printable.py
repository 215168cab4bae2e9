"""Regression: control characters from the summary, the transcript path or the repo never reach
Claude or the terminal (found by the stdin fuzzer: ``abc1234\\x80`` in a summary, a NUL in
``transcript_path``)."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cc_hooks import protocol, runtime
from cc_hooks.printable import printable

from .conftest import CONTROL_RE, assert_sane, event, fuzz, hook_in_process


@pytest.mark.parametrize(
    "dirty, clean",
    [
        ("\x1b[31mred\x1b[0m", "red"),
        ("\x1b]0;pwned\x07title", "title"),
        ("\x1b]8;;http://x\x1b\\link", "link"),
        ("\x9b2Jwiped", "wiped"),
        ("a\x00b\x7fc\x80d\x9fe", "abcde"),
        ("\u202eevil\u2066x\u200b", "evilx"),
        ("keep\nlines\tand tabs", "keep\nlines\tand tabs"),
        ("\r\nCRLF", "\nCRLF"),
        ("trailing escape \x1b", "trailing escape "),
        ("ünïcode ✓ 日本", "ünïcode ✓ 日本"),
    ],
)
def test_printable_strips_escapes_and_controls_and_keeps_layout(dirty, clean):
    assert printable(dirty) == clean


@fuzz(300)
@given(st.text())
def test_printable_leaves_nothing_unprintable(text):
    out = printable(text)
    assert not CONTROL_RE.search(out) and "\x1b" not in out
    assert printable(out) == out


@pytest.mark.parametrize(
    "build",
    [
        lambda t: json.loads(protocol.session_start_output(t, t, 6000).stdout)["hookSpecificOutput"]["additionalContext"],
        lambda t: json.loads(protocol.session_start_output(t, t, 6000).stdout)["systemMessage"],
        lambda t: json.loads(protocol.user_prompt_submit_output(t, 6000).stdout)["hookSpecificOutput"]["additionalContext"],
        lambda t: protocol.pre_compact_output(t, 6000).stdout,
        lambda t: protocol.pre_compact_block(t).stderr,
        lambda t: protocol.post_compact_output(t).stdout,
    ],
    ids=["session-start", "system-message", "user-prompt-submit", "pre-compact", "pre-compact-block", "post-compact"],
)
def test_every_hook_output_builder_strips_controls(build):
    text = build("abc1234\x80 \x1b[2J\x1b]0;t\x07cleared \x00 \u202eevil\nnext line")
    assert not CONTROL_RE.search(text) and "\x1b" not in text
    assert "cleared" in text and "next line" in text


def test_fail_open_line_is_clean(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    line = runtime._failed(str(tmp_path), "SessionStart", "boom \x1b[31m\x9b2J\x00").stderr
    assert line.startswith("cc-hooks: SessionStart hook skipped: boom")
    assert not CONTROL_RE.search(line) and "\x1b" not in line


def test_nul_in_transcript_path_is_not_echoed_to_the_summarizer(in_repo):
    answer = hook_in_process(json.dumps(event("PreCompact", in_repo, trigger="auto", transcript_path="/x\x00y")).encode())
    assert_sane(answer)
    assert "\x00" not in answer.stdout


def test_c1_in_summary_does_not_reach_the_next_prompt(in_repo):
    hook_in_process(json.dumps(event("PostCompact", in_repo, session_id="c1", compact_summary="done in abc1234\x80\x9b2J")).encode())
    answer = hook_in_process(json.dumps(event("UserPromptSubmit", in_repo, session_id="c1", prompt="go")).encode())
    assert_sane(answer)
    assert "abc1234" in answer.context()
    # The builders themselves strip C1 controls, whatever a handler passes them (the summary
    # audit quotes its text too, which alone would hide a builder that does not).
    from cc_hooks import protocol

    for result in (protocol.user_prompt_submit_output("done\x85\x9b2J", 6_000), protocol.session_start_output("done\x85\x9b2J", "x\x9b", 6_000)):
        context = json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]
        assert context.startswith("done") and not any(0x80 <= ord(c) <= 0x9F for c in context)
