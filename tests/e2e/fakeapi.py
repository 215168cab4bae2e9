"""A loopback fake of the Anthropic Messages API for driving the real Claude Code CLI.

The CLI (``ANTHROPIC_BASE_URL=fake.base_url``) sends three kinds of ``POST /v1/messages``:

- *turns* of the main conversation: answered from a script queue (``queue_text``,
  ``queue_tool_use``); an empty queue answers a plain "ok" and counts it in ``unscripted``;
- *summaries* (compaction): recognised by the summary prompt in the last user message and
  answered with ``summary_text`` (never taken from the queue);
- *side requests* (title generation, quota probes, ...): recognised as requests without tools
  that are not summaries, answered with a short text, never from the queue; but a session run with
  no tools at all (``claude -p --tools ""``) is a turn when its system prompt holds ``toolless_marker``.

Every request is logged in order (``requests``) with its parsed body and its kind, so a test
can assert what reached the model. ``POST /v1/messages/count_tokens`` answers an estimate; any
other path is logged and answered 404. The server binds 127.0.0.1 only, answers only what it is
sent, and shuts itself down after ``max_lifetime`` seconds if nobody stops it.
"""

from __future__ import annotations

import itertools
import json
import threading
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Optional
from urllib.parse import urlsplit

DEFAULT_SUMMARY = (
    "<analysis>fake analysis</analysis>\n"
    "<summary>FAKE-SUMMARY: the user fixed a failing test and committed the fix.</summary>"
)
# The built-in summary prompt of the CLI (2.1.197 and 2.1.332) starts its last user message so.
SUMMARY_MARKERS = (
    "Your task is to create a detailed summary of the conversation so far",
    "create a detailed summary of the conversation",
)
FIXED_PREFIX_TOKENS = 15_000  # what the CLI's system prompt + tool schemas weigh, roughly


# --- scripted turns -----------------------------------------------------------------------------


@dataclass
class Turn:
    """One scripted assistant response: optional text, then tool_use blocks (if any)."""

    text: str = ""
    tool_uses: list[tuple[str, dict]] = field(default_factory=list)

    @property
    def stop_reason(self) -> str:
        return "tool_use" if self.tool_uses else "end_turn"


def text_turn(text: str) -> Turn:
    return Turn(text=text)


def tool_turn(name: str, tool_input: dict, text: str = "") -> Turn:
    return Turn(text=text, tool_uses=[(name, tool_input)])


def bash(command: str, description: str = "run a command") -> Turn:
    return tool_turn("Bash", {"command": command, "description": description})


def write(file_path: str, content: str) -> Turn:
    return tool_turn("Write", {"file_path": file_path, "content": content})


def edit(file_path: str, old_string: str, new_string: str) -> Turn:
    return tool_turn("Edit", {"file_path": file_path, "old_string": old_string, "new_string": new_string})


def read(file_path: str) -> Turn:
    return tool_turn("Read", {"file_path": file_path})


# --- request log -------------------------------------------------------------------------------


@dataclass
class LoggedRequest:
    method: str
    path: str
    query: str
    body: Any  # parsed JSON, or the raw text when it is not JSON
    kind: str  # turn | summary | side | count_tokens | preconnect | unknown
    answer: str = ""  # what the fake replied, in short

    @property
    def text(self) -> str:
        """Every text of the system prompt and the messages (incl. tool results), joined."""
        if not isinstance(self.body, dict):
            return str(self.body or "")
        return "\n".join(_strings([self.body.get("system"), self.body.get("messages")]))

    @property
    def tool_results(self) -> list[dict]:
        """The ``tool_result`` blocks of the last user message (what the CLI's tools returned)."""
        messages = self.body.get("messages", []) if isinstance(self.body, dict) else []
        if not messages or not isinstance(messages[-1].get("content"), list):
            return []
        return [b for b in messages[-1]["content"] if isinstance(b, dict) and b.get("type") == "tool_result"]

    @property
    def last_user_text(self) -> str:
        messages = self.body.get("messages", []) if isinstance(self.body, dict) else []
        for message in reversed(messages):
            if message.get("role") == "user":
                return "\n".join(_strings(message.get("content")))
        return ""


NOT_TEXT = frozenset({"type", "role", "id", "tool_use_id", "cache_control", "signature"})


def _strings(value: Any):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in NOT_TEXT:
                yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def is_summary_request(body: Any) -> bool:
    if not isinstance(body, dict):
        return False
    last = LoggedRequest("POST", "", "", body, "").last_user_text
    return any(marker in last for marker in SUMMARY_MARKERS)


def estimate_tokens(body: Any) -> int:
    """About what the real API would count: message characters / 4 plus the fixed prefix."""
    if not isinstance(body, dict):
        return 1
    chars = sum(len(s) for s in _strings(body.get("messages", [])))
    return FIXED_PREFIX_TOKENS + chars // 4


# --- the server ---------------------------------------------------------------------------------


class FakeAnthropic:
    """Start with ``with FakeAnthropic() as fake:``; point the CLI at ``fake.base_url``."""

    def __init__(self, summary_text: str = DEFAULT_SUMMARY, max_lifetime: float = 900.0):
        self.summary_text = summary_text
        self.side_text = "Fake side answer"
        self.unscripted_text = "ok"
        self.toolless_marker: Optional[str] = None  # in the system prompt of a tool-less session's turns
        # How many input tokens a turn reports; a realistic estimate lets auto compaction fire.
        self.usage_input_tokens: Callable[[Any], int] = lambda body: 100
        self.max_lifetime = max_lifetime
        self.requests: list[LoggedRequest] = []
        self.unscripted = 0
        self._script: deque[Turn] = deque()
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._server: Optional[ThreadingHTTPServer] = None
        self._thread: Optional[threading.Thread] = None
        self._watchdog: Optional[threading.Timer] = None

    # scripting
    def queue(self, *turns: Turn) -> "FakeAnthropic":
        with self._lock:
            self._script.extend(turns)
        return self

    def queue_text(self, text: str) -> "FakeAnthropic":
        return self.queue(text_turn(text))

    def queue_tool_use(self, name: str, tool_input: dict, text: str = "") -> "FakeAnthropic":
        return self.queue(tool_turn(name, tool_input, text))

    @property
    def pending(self) -> int:
        return len(self._script)

    def realistic_usage(self) -> None:
        """Report input tokens as the real API would (needed to drive auto compaction)."""
        self.usage_input_tokens = estimate_tokens

    # log queries
    def of_kind(self, kind: str) -> list[LoggedRequest]:
        return [r for r in self.requests if r.kind == kind]

    @property
    def turns(self) -> list[LoggedRequest]:
        return self.of_kind("turn")

    @property
    def summaries(self) -> list[LoggedRequest]:
        return self.of_kind("summary")

    def tool_results(self) -> list[dict]:
        """Every tool result sent back to the model, in order."""
        return [result for r in self.turns for result in r.tool_results]

    def containing(self, needle: str, kind: Optional[str] = None) -> list[LoggedRequest]:
        return [r for r in self.requests if (kind is None or r.kind == kind) and needle in r.text]

    def first_index(self, needle: str, kind: Optional[str] = None) -> int:
        for i, r in enumerate(self.requests):
            if (kind is None or r.kind == kind) and needle in r.text:
                return i
        return -1

    def clear_log(self) -> None:
        with self._lock:
            self.requests.clear()

    # lifecycle
    @property
    def base_url(self) -> str:
        assert self._server is not None, "FakeAnthropic not started"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> "FakeAnthropic":
        fake = self

        class Handler(_Handler):
            owner = fake

        self._server = _Server(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), name="fake-anthropic", daemon=True)
        self._thread.start()
        self._watchdog = threading.Timer(self.max_lifetime, self.stop)
        self._watchdog.daemon = True
        self._watchdog.start()
        return self

    def stop(self) -> None:
        server, self._server = self._server, None
        if self._watchdog is not None and self._watchdog is not threading.current_thread():
            self._watchdog.cancel()
        if server is not None:
            server.shutdown()
            server.server_close()

    def __enter__(self) -> "FakeAnthropic":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    # answering
    def _log(self, entry: LoggedRequest) -> None:
        with self._lock:
            self.requests.append(entry)

    def _next_turn(self) -> Turn:
        with self._lock:
            if self._script:
                return self._script.popleft()
            self.unscripted += 1
            return text_turn(self.unscripted_text)

    def answer_messages(self, body: Any, entry: LoggedRequest) -> tuple[Turn, int]:
        if is_summary_request(body):
            entry.kind, turn = "summary", text_turn(self.summary_text)
        elif isinstance(body, dict) and (body.get("tools") or self._toolless_turn(body)):
            entry.kind, turn = "turn", self._next_turn()
        else:
            entry.kind, turn = "side", text_turn(self.side_text)
        entry.answer = turn.text[:80] + "".join(f" [{name}]" for name, _ in turn.tool_uses)
        return turn, self.usage_input_tokens(body)

    def _toolless_turn(self, body: dict) -> bool:
        return bool(self.toolless_marker) and any(self.toolless_marker in s for s in _strings(body.get("system")))

    def new_id(self, prefix: str) -> str:
        return f"{prefix}_fake{next(self._ids):06d}"


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # the CLI drops idle keep-alive connections when it exits; nothing to report


class _Handler(BaseHTTPRequestHandler):
    owner: FakeAnthropic
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
        pass

    def _read_body(self) -> Any:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length).decode("utf-8", errors="replace") if length else ""
        try:
            return json.loads(raw) if raw else None
        except ValueError:
            return raw

    def _send(self, status: int, content_type: str, payload: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(payload)))
        self.send_header("request-id", self.owner.new_id("req"))
        self.end_headers()
        self.wfile.write(payload)

    def _send_json(self, status: int, obj: Any) -> None:
        self._send(status, "application/json", json.dumps(obj).encode())

    def do_GET(self) -> None:
        self._unknown(None)

    def do_HEAD(self) -> None:
        # CLI 2.1.197 sends ``HEAD /`` at start-up to warm the connection.
        parts = urlsplit(self.path)
        self.owner._log(LoggedRequest("HEAD", parts.path, parts.query, None, "preconnect" if parts.path == "/" else "unknown"))
        self.send_response(200 if parts.path == "/" else 404)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self) -> None:
        parts = urlsplit(self.path)
        body = self._read_body()
        entry = LoggedRequest("POST", parts.path, parts.query, body, "unknown")
        self.owner._log(entry)
        if parts.path == "/v1/messages/count_tokens":
            entry.kind = "count_tokens"
            self._send_json(200, {"input_tokens": estimate_tokens(body)})
        elif parts.path == "/v1/messages":
            turn, input_tokens = self.owner.answer_messages(body, entry)
            model = body.get("model", "claude-fake") if isinstance(body, dict) else "claude-fake"
            if isinstance(body, dict) and body.get("stream"):
                self._send(200, "text/event-stream", _sse(self.owner, turn, model, input_tokens))
            else:
                self._send_json(200, _message(self.owner, turn, model, input_tokens))
        else:
            self._unknown(body)

    def _unknown(self, body: Any) -> None:
        parts = urlsplit(self.path)
        if self.command == "GET":
            self.owner._log(LoggedRequest("GET", parts.path, parts.query, body, "unknown"))
        self._send_json(404, {"type": "error", "error": {"type": "not_found_error", "message": "fake: unknown path"}})


def _blocks(owner: FakeAnthropic, turn: Turn) -> list[dict]:
    blocks = [{"type": "text", "text": turn.text}] if turn.text or not turn.tool_uses else []
    for name, tool_input in turn.tool_uses:
        blocks.append({"type": "tool_use", "id": owner.new_id("toolu"), "name": name, "input": tool_input})
    return blocks


def _usage(input_tokens: int, output_tokens: int) -> dict:
    return {
        "input_tokens": input_tokens,
        "output_tokens": output_tokens,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
    }


def _message(owner: FakeAnthropic, turn: Turn, model: str, input_tokens: int) -> dict:
    return {
        "id": owner.new_id("msg"),
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": _blocks(owner, turn),
        "stop_reason": turn.stop_reason,
        "stop_sequence": None,
        "usage": _usage(input_tokens, 10),
    }


def _sse(owner: FakeAnthropic, turn: Turn, model: str, input_tokens: int) -> bytes:
    message = _message(owner, turn, model, input_tokens)
    events: list[tuple[str, dict]] = [
        ("message_start", {"type": "message_start", "message": {**message, "content": [], "stop_reason": None,
                                                              "usage": _usage(input_tokens, 1)}}),
    ]
    for index, block in enumerate(message["content"]):
        if block["type"] == "text":
            start = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        else:
            start = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        events += [
            ("content_block_start", {"type": "content_block_start", "index": index, "content_block": start}),
            ("content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}),
            ("content_block_stop", {"type": "content_block_stop", "index": index}),
        ]
    events += [
        ("message_delta", {"type": "message_delta", "delta": {"stop_reason": turn.stop_reason, "stop_sequence": None},
                           "usage": {"output_tokens": 10}}),
        ("message_stop", {"type": "message_stop"}),
    ]
    return "".join(f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in events).encode()
