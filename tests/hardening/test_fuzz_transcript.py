"""Fuzz the transcript reader: random bytes, torn and truncated lines, invalid UTF-8, NUL bytes,
deep nesting, a 50 MB single line. read_live and the line scanner return, they never raise."""

from __future__ import annotations

import json
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cc_hooks.transcript import read_live
from cc_hooks.transcript.lines import plan_keep, scan

from .conftest import fuzz

BOUNDARY = {"type": "system", "subtype": "compact_boundary", "uuid": "b1", "parentUuid": None,
            "compactMetadata": {"trigger": "auto", "preTokens": 5, "preservedMessages": {"uuids": ["u1", 5, None]}}}
SUMMARY = {"type": "user", "uuid": "s1", "parentUuid": "b1", "isCompactSummary": True,
           "message": {"role": "user", "content": "This session is being continued from a previous conversation. x"}}
TOOL = {"type": "assistant", "uuid": "a1", "message": {"id": "m1", "content": [
    {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "git commit -m x"}}]}}
RESULT = {"type": "user", "uuid": "r1", "message": {"content": [{"type": "tool_result", "tool_use_id": "t1",
          "content": "[main abc1234] x"}]}, "toolUseResult": {"stdout": "[main abc1234] x"}}
EDIT = {"type": "assistant", "uuid": "a2", "message": {"content": [{"type": "tool_use", "id": "t2", "name": "Edit",
        "input": {"file_path": 5}}]}}
GOOD = [json.dumps(r).encode() for r in (BOUNDARY, SUMMARY, TOOL, RESULT, EDIT)]
ODD = [b"", b"{", b"[]", b"null", b'"compact_boundary"', b'{"type": "system", "subtype": "compact_boundary"',
       b"\x00\x00", b"\xff\xfe\xed\xa0\x80", b'{"type": 5, "message": []}', b'{"type": "user", "message": {"content": 7}}',
       b"[" * 500, b'{"a":' * 300, b'{"type":"assistant","message":{"content":[1,"x",null,{"type":"tool_use"}]}}']
line = st.one_of(st.sampled_from(GOOD + ODD), st.binary(max_size=200),
                 st.sampled_from(GOOD).flatmap(lambda raw: st.integers(0, len(raw)).map(lambda n: raw[:n])))  # torn
transcript = st.lists(line, max_size=40).flatmap(
    lambda lines: st.sampled_from([b"\n", b"\r\n"]).flatmap(
        lambda nl: st.booleans().map(lambda end: nl.join(lines) + (nl if end else b""))))


@fuzz(300)
@given(st.one_of(transcript, st.binary(max_size=3000)))
def test_read_live_takes_any_bytes(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("t") / "t.jsonl"
    path.write_bytes(data)
    live = read_live(path)
    assert 0 <= live.live_offset <= live.size == len(data)
    capped = read_live(path, max_bytes=100)
    assert capped.live_offset == live.live_offset


@fuzz(300)
@given(st.one_of(transcript, st.binary(max_size=3000)))
def test_line_scanner_and_keep_plan_take_any_bytes(data):
    chunks = [data[i : i + 7] for i in range(0, len(data), 7)]  # lines split across chunks
    infos = scan(chunks)
    assert sum(i.size for i in infos) == len(data)
    plan = plan_keep(infos, len(data))
    assert all(0 <= a < b <= len(data) for a, b in plan.ranges)


def test_a_50_mb_single_line_is_read_in_bounded_time(tmp_path):
    path = tmp_path / "big.jsonl"
    with open(path, "wb") as handle:
        handle.write(GOOD[0] + b"\n" + GOOD[1] + b"\n")
        handle.write(b'{"type":"user","uuid":"big","message":{"content":"' + b"x" * (50 * 1024 * 1024) + b'"}}')  # no newline
    started = time.monotonic()
    live = read_live(path, max_bytes=1024 * 1024)
    assert time.monotonic() - started < 10
    assert live.truncated and live.live_offset == 0
    started = time.monotonic()
    live = read_live(path)
    assert time.monotonic() - started < 20
    assert live.summary is not None


@pytest.mark.parametrize("garbage", [b"\x00" * 1000, b"\xff" * 1000, b"\n" * 1000, b"\r" * 1000])
def test_nul_invalid_utf8_and_blank_transcripts(tmp_path, garbage):
    path = tmp_path / "t.jsonl"
    path.write_bytes(garbage + b"\n" + GOOD[0] + b"\n" + garbage)
    live = read_live(path)
    assert live.summary is None or live.live_offset > 0


DEEP = [b"[" * 100_000, b'{"type":"user","message":' * 5000, GOOD[0] + b"\n" + b"[" * 100_000 + b"\n" + GOOD[1]]


@pytest.mark.parametrize("data", DEEP, ids=["brackets", "objects", "between-good-lines"])
def test_read_live_survives_a_line_nested_past_the_recursion_limit(tmp_path, data):
    path = tmp_path / "t.jsonl"
    path.write_bytes(data)
    read_live(path)


def test_scan_survives_a_line_nested_past_the_recursion_limit():
    scan([b"[" * 100_000 + b"\n"])


def test_a_deeply_nested_transcript_line_does_not_break_the_hooks(tmp_path, monkeypatch):
    """Whatever the reader does with it, the hook answers (checks fail open to COULD_NOT_CHECK)."""
    from .conftest import BUDGET, assert_sane, event, hook_in_process, make_repo

    repo = make_repo(tmp_path / "repo")
    transcript = tmp_path / "t.jsonl"
    transcript.write_bytes(DEEP[2])
    monkeypatch.chdir(repo)
    for name, extra in (("PreCompact", {"trigger": "auto"}), ("SessionStart", {"source": "compact"})):
        answer = hook_in_process(json.dumps(event(name, repo, transcript_path=str(transcript), **extra)).encode())
        assert_sane(answer, BUDGET[name])
        assert answer.stdout.strip()
