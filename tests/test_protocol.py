"""The hook I/O models: tolerant of the harness, strict about what we emit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cc_hooks import protocol

CORPUS_PAYLOADS = (
    Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "transcripts" / "cc-2.1.197-demo" / "hook-payloads.jsonl"
)


def corpus_payloads() -> list[dict]:
    if not CORPUS_PAYLOADS.is_file():
        pytest.skip(f"../shared/corpus not present ({CORPUS_PAYLOADS}); corpus tests need the shared folder beside the checkout")
    return [json.loads(line) for line in CORPUS_PAYLOADS.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_every_corpus_payload_parses_and_keeps_unknown_fields():
    payloads = corpus_payloads()
    assert len(payloads) >= 20
    events = set()
    for data in payloads:
        model = protocol.parse_input(data)
        events.add(model.hook_event_name)
        dumped = model.model_dump(exclude_unset=True)
        assert dumped == data, f"round trip lost or changed fields of {data['hook_event_name']}"
    assert {"SessionStart", "UserPromptSubmit", "PreCompact", "PostCompact", "Stop", "SessionEnd"} <= events


def test_corpus_payload_fields_are_typed():
    by_event = {}
    for data in corpus_payloads():
        by_event.setdefault(data["hook_event_name"], []).append(protocol.parse_input(data))
    pre = by_event["PreCompact"][0]
    assert isinstance(pre, protocol.PreCompactInput)
    assert pre.trigger == "manual" and pre.custom_instructions == "keep the decisions"
    post = by_event["PostCompact"][0]
    assert isinstance(post, protocol.PostCompactInput) and "scripted summary" in post.compact_summary
    compact_start = [m for m in by_event["SessionStart"] if m.source == "compact"][0]
    assert compact_start.model == "claude-opus-4-8"


@pytest.mark.parametrize(
    "data",
    [
        {"hook_event_name": "SessionStart", "session_id": "s", "source": "fork"},
        {"hook_event_name": "SessionStart", "session_id": "s", "source": "teleport", "brand_new": {"x": 1}},
        {"hook_event_name": "PreCompact", "session_id": "s", "trigger": "precomputed", "custom_instructions": None},
        {"hook_event_name": "PostCompact", "session_id": "s", "trigger": "auto"},
        {"hook_event_name": "UserPromptSubmit", "session_id": "s"},
        {
            "hook_event_name": "SessionStart",
            "session_id": "s",
            "source": "resume",
            "context_tokens": 51234,
            "estimated_cache_write_usd": 0.42,
            "prompt_cache_likely_expired": True,
            "seconds_since_last_response": 3600.5,
        },
    ],
)
def test_open_enums_and_new_fields_are_accepted(data):
    model = protocol.parse_input(data)
    assert model.model_dump(exclude_unset=True) == data


def test_wrong_types_are_rejected_not_coerced_silently():
    with pytest.raises(Exception):
        protocol.parse_input({"hook_event_name": "SessionStart", "session_id": {"not": "a string"}})


def test_session_start_output_shape_and_budget():
    result = protocol.session_start_output("x" * 20_000, "hello", budget=6_000)
    data = json.loads(result.stdout)
    assert set(data) == {"hookSpecificOutput", "systemMessage"}
    assert data["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    context = data["hookSpecificOutput"]["additionalContext"]
    assert len(context) <= 6_000 and "cc-hooks rehydrate" in context
    assert result.exit_code == 0


def test_pre_compact_output_is_plain_text_never_json():
    result = protocol.pre_compact_output('{"decision": "block"}', budget=6_000)
    assert not result.stdout.lstrip().startswith("{") or result.stdout.startswith(" ")
    assert "hookSpecificOutput" not in protocol.pre_compact_output("keep this", 6_000).stdout
    with pytest.raises(ValueError):
        json.loads(protocol.pre_compact_output("keep this", 6_000).stdout)


def test_pre_compact_block_exits_2_with_reason_on_stderr():
    result = protocol.pre_compact_block("record the fix first")
    assert result.exit_code == 2 and result.stderr.startswith("record the fix first") and result.stdout == ""


def test_truncate_cuts_at_a_line_and_stays_under_the_cap():
    text = "\n".join(f"line {i} " + "y" * 50 for i in range(1_000))
    cut = protocol.truncate(text, 6_000)
    assert len(cut) <= 6_000
    assert cut.splitlines()[-2].startswith("line ")  # whole lines kept before the note
    assert protocol.truncate("short", 6_000) == "short"
    assert len(protocol.truncate(text, 50_000)) < protocol.OUTPUT_CAP_CHARS


HOSTILE_TEXTS = ["", "plain", "é ü 中文 🙂", "line\nline\ttab", "quote \" backslash \\ slash /", "\x00\x1b[31mred\x1b[0m\x7f",
                 "\u2028\u2029 separators", "\ud800 lone surrogate", "{\"json\": true}", "x" * 12_000, "\u200b\u202e bidi"]


@pytest.mark.parametrize("text", HOSTILE_TEXTS)
@pytest.mark.parametrize("system_message", [None, "", "cc-hooks: 3 verified", "é\n\x1b]8;;x\x07"])
def test_context_outputs_are_the_bytes_the_models_serialize(text, system_message):
    """The answers are written without building the output models' serializer; the bytes must be
    those of validating and serializing through the models."""
    budget = protocol.DEFAULT_BUDGET_CHARS
    expected = protocol.ContextOutput(
        hookSpecificOutput=protocol.SessionStartSpecific(additionalContext=protocol.truncate(protocol.printable(text), budget)),
        systemMessage=protocol.visible_line(system_message) if system_message else None,
    ).model_dump_json(exclude_none=True)
    assert protocol.session_start_output(text, system_message, budget).stdout == expected
    expected_prompt = protocol.ContextOutput(
        hookSpecificOutput=protocol.UserPromptSubmitSpecific(additionalContext=protocol.truncate(protocol.printable(text), budget)),
    ).model_dump_json(exclude_none=True)
    assert protocol.user_prompt_submit_output(text, budget).stdout == expected_prompt


def test_writing_a_context_output_builds_no_schema():
    import subprocess
    import sys

    code = ("from cc_hooks import protocol as p; p.session_start_output('x', 'm', 6000); p.user_prompt_submit_output('y', 6000); "
            "print(p.ContextOutput.__pydantic_complete__, p.SessionStartSpecific.__pydantic_complete__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]
