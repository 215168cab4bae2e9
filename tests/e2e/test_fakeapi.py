"""The fake Messages API on its own (no CLI): wire format, classification, log, lifetime."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request

import pytest

from .fakeapi import FakeAnthropic, bash

OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback only, never a proxy
TOOLS = [{"name": "Bash", "input_schema": {"type": "object"}}]
SUMMARY_PROMPT = "Your task is to create a detailed summary of the conversation so far, paying close attention"


def post(fake: FakeAnthropic, path: str, body: dict) -> tuple[int, str]:
    request = urllib.request.Request(fake.base_url + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with OPENER.open(request, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def sse_events(payload: str) -> list[dict]:
    return [json.loads(line[len("data: "):]) for line in payload.splitlines() if line.startswith("data: ")]


def user(text: str) -> dict:
    return {"role": "user", "content": [{"type": "text", "text": text}]}


@pytest.fixture
def fake():
    with FakeAnthropic() as server:
        yield server


def test_streams_a_scripted_tool_use_turn(fake: FakeAnthropic) -> None:
    fake.queue(bash("pytest -q"))
    status, payload = post(fake, "/v1/messages?beta=true", {"stream": True, "tools": TOOLS, "messages": [user("go")]})

    events = sse_events(payload)
    assert status == 200
    assert [e["type"] for e in events] == ["message_start", "content_block_start", "content_block_delta",
                                           "content_block_stop", "message_delta", "message_stop"]
    assert events[1]["content_block"]["name"] == "Bash"
    assert json.loads(events[2]["delta"]["partial_json"])["command"] == "pytest -q"
    assert events[4]["delta"]["stop_reason"] == "tool_use"
    assert [(r.kind, r.query) for r in fake.requests] == [("turn", "beta=true")]


def test_summary_and_side_requests_leave_the_script_alone(fake: FakeAnthropic) -> None:
    fake.queue_text("scripted")
    fake.summary_text = "<summary>S</summary>"
    _, summary = post(fake, "/v1/messages", {"stream": True, "tools": TOOLS, "messages": [user(SUMMARY_PROMPT)]})
    _, side = post(fake, "/v1/messages", {"messages": [user("title for this chat")]})

    assert sse_events(summary)[2]["delta"]["text"] == "<summary>S</summary>"
    assert json.loads(side)["content"][0]["text"] == fake.side_text
    assert [r.kind for r in fake.requests] == ["summary", "side"]
    assert fake.pending == 1


def test_empty_script_answers_ok_and_counts_it(fake: FakeAnthropic) -> None:
    _, payload = post(fake, "/v1/messages", {"stream": True, "tools": TOOLS, "messages": [user("hi")]})
    assert sse_events(payload)[2]["delta"]["text"] == "ok"
    assert fake.unscripted == 1


def test_count_tokens_and_unknown_paths(fake: FakeAnthropic) -> None:
    status, payload = post(fake, "/v1/messages/count_tokens", {"messages": [user("x" * 400)]})
    assert status == 200 and json.loads(payload)["input_tokens"] > 100
    status, _ = post(fake, "/v1/other", {"a": 1})
    assert status == 404
    assert [(r.path, r.kind, r.body) for r in fake.requests][-1] == ("/v1/other", "unknown", {"a": 1})


def test_request_log_queries(fake: FakeAnthropic) -> None:
    post(fake, "/v1/messages", {"tools": TOOLS, "messages": [user("alpha")]})
    post(fake, "/v1/messages", {"tools": TOOLS, "messages": [user("beta")]})
    assert [r.last_user_text for r in fake.containing("beta")] == ["beta"]
    assert fake.first_index("beta", kind="turn") == 1 and fake.first_index("gamma") == -1


def test_stops_by_itself() -> None:
    fake = FakeAnthropic(max_lifetime=0.2).start()
    url = fake.base_url
    time.sleep(0.6)
    with pytest.raises(urllib.error.URLError):
        OPENER.open(url + "/v1/messages", data=b"{}", timeout=2)
