"""The live-part reader: real transcripts, every tolerance rule both ways, and a small fuzz."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cc_hooks.transcript import read_live

from .conftest import Synth, history, line


def test_corpus_live_part_starts_at_the_last_boundary(corpus_copy: list[Path]) -> None:
    for path in corpus_copy:
        data = path.read_bytes()
        live = read_live(path)
        assert live.summary is not None and live.summary.detected_by == "boundary", path.name
        assert data.rfind(b'"compact_boundary"') > live.live_offset  # on the boundary line itself
        assert data[live.live_offset:].count(b'"compact_boundary"') == 1
        assert live.summary.text.startswith("This session is being continued")
        assert live.summary.trigger in ("auto", "manual") and live.summary.pre_tokens > 0
        assert live.bad_lines == 0 and live.messages


def test_corpus_332_summary_after_attachments_is_found_by_its_boundary(corpus_332_copy: list[Path]) -> None:
    for path in corpus_332_copy:
        data = path.read_bytes()
        live = read_live(path)
        assert live.summary is not None and live.summary.detected_by == "boundary", path.name
        assert data.rfind(b'"compact_boundary"') > live.live_offset
        assert live.summary.text.startswith("This session is being continued")
        assert live.summary.trigger == "auto" and live.summary.pre_tokens > 0
        assert live.summary.boundary_uuid and live.summary.summary_uuid
        kinds = [m.raw.get("attachment", {}).get("type") for m in live.messages[:3]]
        assert kinds == ["instructions", "session_context", "date"]  # kept: the summary did not restart the part
        summary_at = next(i for i, m in enumerate(live.messages) if m.uuid == live.summary.summary_uuid)
        preserved = [i for i, m in enumerate(live.messages) if m.preserved]
        assert preserved and preserved[0] == summary_at + 1  # relinked right after the summary
        assert live.bad_lines == 0


def test_demo_session_preserved_message_and_prompts(corpus_copy: list[Path]) -> None:
    demo = next(p for p in corpus_copy if p.name.startswith("5d2e4ca7"))
    live = read_live(demo)
    preserved = [m for m in live.messages if m.preserved]
    assert [m.text for m in preserved] == ["Next I would add a regression test for negative numbers."]
    assert live.messages.index(preserved[0]) == 1  # right after the summary, where the CLI relinks it
    assert [p.text for p in live.user_prompts] == ["continue"]  # not /compact wrappers, not the summary
    assert live.summary.trigger == "manual" and live.summary.pre_tokens == 15


def test_tool_calls_commits_and_edits(tmp_path: Path) -> None:
    s = Synth()
    s.boundary("old work")
    s.user("fix the bug")
    s.tool("Edit", {"file_path": "/r/a.py", "old_string": "-", "new_string": "+"}, "updated")
    s.tool("Write", {"file_path": "/r/failed.py", "content": ""}, "denied", is_error=True)
    s.tool("Bash", {"command": "pytest -q"}, "Exit code 1\nFAILED", is_error=True)
    s.tool("Bash", {"command": "git add a.py && git commit -qm 'Fix add'"}, "[main 1a2b3c4] Fix add\n 1 file changed")
    s.tool("Bash", {"command": "git commit -m 'nothing'"}, "Exit code 1\nnothing to commit", is_error=True)
    live = read_live(s.write(tmp_path / "t.jsonl"))
    bash = [c for c in live.tool_calls if c.name == "Bash"]
    assert [(c.command, c.exit_code) for c in bash] == [
        ("pytest -q", 1), ("git add a.py && git commit -qm 'Fix add'", 0), ("git commit -m 'nothing'", 1)]
    assert [(c.sha, c.ok) for c in live.commits] == [("1a2b3c4", True), (None, False)]
    assert live.files_edited == ["/r/a.py"]  # the failed Write is not an edit
    assert [p.text for p in live.user_prompts] == ["fix the bug"]
    assert all(c.result_text is not None for c in live.tool_calls)


def test_only_the_part_after_the_last_boundary_is_live(tmp_path: Path) -> None:
    s = Synth()
    history(s, 3)
    s.boundary("first")
    s.user("between")
    s.boundary("second")
    s.user("after")
    live = read_live(s.write(tmp_path / "t.jsonl"))
    assert "second" in live.summary.text
    assert [p.text for p in live.user_prompts] == ["after"]


def test_fallbacks_when_the_boundary_line_is_missing(tmp_path: Path) -> None:
    s = Synth()
    history(s, 2)
    s.boundary("flagged")
    text = "".join(l for l in s.lines if '"compact_boundary"' not in l) + line(
        {"type": "user", "uuid": "u-after", "message": {"role": "user", "content": "after"}})
    path = tmp_path / "flag.jsonl"
    path.write_text(text)
    live = read_live(path)
    assert live.summary.detected_by == "isCompactSummary" and [p.text for p in live.user_prompts] == ["after"]

    path.write_text(text.replace('"isCompactSummary":true', '"isCompactSummary":false'))
    live = read_live(path)
    assert live.summary.detected_by == "prefix" and [p.text for p in live.user_prompts] == ["after"]

    path.write_text("".join(l for l in text.splitlines(True) if "continued from a previous" not in l))
    live = read_live(path)
    assert live.summary is None and live.live_offset == 0 and len(live.user_prompts) == 3


def test_boundary_text_inside_a_message_is_not_a_boundary(tmp_path: Path) -> None:
    s = Synth()
    s.boundary("real")
    s.user('the word "compact_boundary" in a prompt')  # escaped quotes in JSON: no byte match
    s.tool("Read", {"file_path": "/t.jsonl"}, json.dumps({"type": "system", "subtype": "compact_boundary"}))
    live = read_live(s.write(tmp_path / "t.jsonl"))
    assert "real" in live.summary.text and len(live.user_prompts) == 1


def test_tolerates_torn_lines_bad_utf8_unknown_types_and_list_content(tmp_path: Path) -> None:
    s = Synth()
    s.boundary("sum")
    s.meta("marble-origami-commit", whatever=1)
    s.user([{"type": "text", "text": "list prompt"}])
    s.user("caf\u00e9 prompt")
    path = s.write(tmp_path / "t.jsonl")
    data = path.read_bytes().replace(b"caf\\u00e9", b"caf\xff") + b'{"type":"user","message":{"role":"us'
    path.write_bytes(data)
    live = read_live(path)
    assert [p.text for p in live.user_prompts] == ["list prompt", "caf\ufffd prompt"]
    assert live.bad_lines == 1 and live.skipped_lines == 1

    path.write_bytes(data.rsplit(b"\n", 1)[0] + b"\n")  # without the torn line: nothing bad
    assert read_live(path).bad_lines == 0


def test_split_assistant_message_is_one_message(tmp_path: Path) -> None:
    s = Synth()
    s.boundary("sum")
    s.assistant([{"type": "thinking", "thinking": "hm", "signature": "x"}], "msg_same")
    s.assistant([{"type": "text", "text": "part two"}], "msg_same")
    s.assistant([{"type": "tool_use", "id": "toolu_x", "name": "Read", "input": {"file_path": "/a"}}], "msg_same")
    live = read_live(s.write(tmp_path / "t.jsonl"))
    assistants = [m for m in live.messages if m.type == "assistant"]
    assert len(assistants) == 1
    assert [b["type"] for b in assistants[0].content] == ["thinking", "text", "tool_use"]
    assert [c.id for c in live.tool_calls] == ["toolu_x"] and live.tool_calls[0].result_text is None


def test_reads_only_up_to_the_size_seen_at_open_and_max_bytes(tmp_path: Path) -> None:
    s = Synth()
    s.boundary("sum")
    for i in range(50):
        s.user(f"prompt {i}")
    path = s.write(tmp_path / "t.jsonl")
    live = read_live(path, max_bytes=2000)
    assert live.truncated and 0 < len(live.user_prompts) < 50 and live.user_prompts[-1].text == "prompt 49"
    assert not read_live(path).truncated and len(read_live(path).user_prompts) == 50


def test_empty_and_missing_summary_files(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    live = read_live(empty)
    assert live.size == 0 and live.summary is None and live.messages == []


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(
    st.binary(max_size=80),
    st.sampled_from([b'{"type":"system","subtype":"compact_boundary","uuid":"b"}',
                     b'{"type":"user","isCompactSummary":true,"message":{"content":[1,null,{"type":"text"}]}}',
                     b'{"type":"assistant","message":{"id":"m","content":"str"}}',
                     b'{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":7}]}}',
                     b'{"type":"assistant","message":{"id":null,"content":[{"type":"tool_use","id":"t","input":3}]}}',
                     b'[1,2]', b'"compact_boundary"', b'{"type":"user","message":null}']),
), max_size=12))
def test_fuzz_random_lines_never_raise(tmp_path_factory, chunks: list) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "t.jsonl"
    path.write_bytes(b"\n".join(chunks))
    live = read_live(path)
    assert 0 <= live.live_offset <= live.size == path.stat().st_size


@pytest.mark.parametrize("block", [1, 7, 64, 1 << 20])
def test_records_are_split_the_same_whatever_the_block_size(tmp_path, block):
    """Lines longer than a block, blank lines, a torn last line: offsets and records as a plain split gives them."""
    from cc_hooks.transcript.reader import _FileView, iter_records, parse_line

    lines = [b'{"a": 1}', b"", b"   ", b'{"long": "' + b"x" * 300 + b'"}', b"not json", b'{"b": [1, 2]}', b'{"torn": ']
    data = b"\n".join(lines)
    path = tmp_path / "t.jsonl"
    path.write_bytes(data)
    expected, offset = [], 0
    for line in lines:
        if line.strip():
            expected.append((offset, parse_line(line)))
        offset += len(line) + 1
    with open(path, "rb") as handle, _FileView(handle, len(data)) as view:
        assert list(iter_records(view, 0, len(data), block=block)) == expected
        start = len(lines[0]) + 1  # from the middle of the file, as read_live starts at a boundary
        assert list(iter_records(view, start, len(data), block=block)) == [e for e in expected if e[0] >= start]
