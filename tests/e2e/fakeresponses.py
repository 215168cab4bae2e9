"""A loopback fake of the OpenAI Responses API for driving the real Codex CLI.

Codex (a custom provider with ``wire_api = "responses"`` and ``base_url = fake.base_url``) sends
``POST /v1/responses`` with ``stream: true`` and answers come back as server-sent events:
``response.created``, ``response.output_item.added``, ``response.output_text.delta``,
``response.output_item.done``, ``response.completed`` (with ``usage``). Two kinds of request:

- *turns*: answered from a script queue (``queue_text``, ``queue_command``); an empty queue
  answers a plain "ok" and counts it in ``unscripted``;
- *compactions* (the CLI's local summary with a non-OpenAI provider): the header
  ``x-codex-turn-metadata`` says ``"request_kind":"compaction"`` (or, failing that, the last user
  input asks for a "CONTEXT CHECKPOINT COMPACTION"); answered with ``summary_text``, never from
  the queue.

A scripted turn may report more tokens than the CLI's ``model_auto_compact_token_limit``
(``Turn.total_tokens``): that is how a test forces an auto compaction, mid-turn when the turn is
a tool call. Every request is logged in order (``requests``) with its headers, parsed body and
kind, so a test can assert what reached the model. Any other path is logged and answered 404.
The server binds 127.0.0.1 only and shuts itself down after ``max_lifetime`` seconds.
"""

from __future__ import annotations

import itertools
import json
import threading
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Optional
from urllib.parse import urlsplit

DEFAULT_SUMMARY = "FAKE-SUMMARY: the user fixed a failing test and committed the fix."
COMPACTION_MARKER = "CONTEXT CHECKPOINT COMPACTION"
TURN_METADATA = "x-codex-turn-metadata"
DEFAULT_TOKENS = 500


@dataclass
class Turn:
    """One scripted response: an optional text message, then function calls (if any)."""

    text: str = ""
    calls: list[tuple[str, Any]] = field(default_factory=list)  # arguments: a dict (function) or a str (freeform tool)
    total_tokens: int = DEFAULT_TOKENS  # what ``usage`` reports; above the auto-compact limit forces one


def text_turn(text: str, total_tokens: int = DEFAULT_TOKENS) -> Turn:
    return Turn(text=text, total_tokens=total_tokens)


def command(cmd: str, total_tokens: int = DEFAULT_TOKENS) -> Turn:
    """Codex's shell tool (``exec_command``) running ``cmd``."""
    return Turn(calls=[("exec_command", {"cmd": cmd})], total_tokens=total_tokens)


def patch(text: str, total_tokens: int = DEFAULT_TOKENS) -> Turn:
    """Codex's freeform ``apply_patch`` tool with ``text`` (``*** Begin Patch`` ... ``*** End Patch``).
    The CLI offers it for a model it knows (``gpt-5.5``), not for an unknown one."""
    return Turn(calls=[("apply_patch", text)], total_tokens=total_tokens)


def update_file(path: str, old: str, new: str, total_tokens: int = DEFAULT_TOKENS) -> Turn:
    """A one-hunk ``apply_patch`` that replaces line ``old`` with ``new`` in ``path``."""
    return patch(f"*** Begin Patch\n*** Update File: {path}\n@@\n-{old}\n+{new}\n*** End Patch\n", total_tokens)


@dataclass
class LoggedRequest:
    method: str
    path: str
    headers: dict
    body: Any
    kind: str  # turn | compaction | unknown
    answer: str = ""

    @property
    def metadata(self) -> dict:
        try:
            value = json.loads(self.headers.get(TURN_METADATA, "") or "{}")
        except ValueError:
            return {}
        return value if isinstance(value, dict) else {}

    @property
    def inputs(self) -> list:
        items = self.body.get("input") if isinstance(self.body, dict) else None
        return items if isinstance(items, list) else []

    @property
    def text(self) -> str:
        """The instructions and every text of the input items, joined."""
        if not isinstance(self.body, dict):
            return str(self.body or "")
        return "\n".join(_strings([self.body.get("instructions"), self.inputs]))

    def messages(self, role: str) -> list[str]:
        """The texts of the input messages of ``role`` (``developer``, ``user``, ``assistant``), in order."""
        return ["\n".join(_strings(item.get("content"))) for item in self.inputs
                if isinstance(item, dict) and item.get("type", "message") == "message" and item.get("role") == role]

    @property
    def last_user_text(self) -> str:
        users = self.messages("user")
        return users[-1] if users else ""

    def outputs_of_calls(self) -> list[str]:
        """The ``function_call_output`` texts sent back (what the CLI's tools returned)."""
        return ["\n".join(_strings(item.get("output"))) for item in self.inputs
                if isinstance(item, dict) and item.get("type") in ("function_call_output", "custom_tool_call_output")]


NOT_TEXT = frozenset({"type", "role", "id", "call_id", "name"})


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


class FakeResponses:
    """Start with ``with FakeResponses() as fake:``; point the provider's ``base_url`` at ``fake.base_url``."""

    def __init__(self, summary_text: str = DEFAULT_SUMMARY, max_lifetime: float = 900.0):
        self.summary_text = summary_text
        self.unscripted_text = "ok"
        self.max_lifetime = max_lifetime
        self.requests: list[LoggedRequest] = []
        self.unscripted = 0
        self._script: deque[Turn] = deque()
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._server: Optional[ThreadingHTTPServer] = None
        self._watchdog: Optional[threading.Timer] = None

    def queue(self, *turns: Turn) -> "FakeResponses":
        with self._lock:
            self._script.extend(turns)
        return self

    def queue_text(self, text: str, total_tokens: int = DEFAULT_TOKENS) -> "FakeResponses":
        return self.queue(text_turn(text, total_tokens))

    @property
    def pending(self) -> int:
        return len(self._script)

    def of_kind(self, kind: str) -> list[LoggedRequest]:
        return [r for r in self.requests if r.kind == kind]

    @property
    def turns(self) -> list[LoggedRequest]:
        return self.of_kind("turn")

    @property
    def compactions(self) -> list[LoggedRequest]:
        return self.of_kind("compaction")

    def containing(self, needle: str, kind: Optional[str] = None) -> list[LoggedRequest]:
        return [r for r in self.requests if (kind is None or r.kind == kind) and needle in r.text]

    @property
    def base_url(self) -> str:
        assert self._server is not None, "FakeResponses not started"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def start(self) -> "FakeResponses":
        fake = self

        class Handler(_Handler):
            owner = fake

        self._server = _Server(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, args=(0.05,), name="fake-responses", daemon=True).start()
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

    def __enter__(self) -> "FakeResponses":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def _log(self, entry: LoggedRequest) -> None:
        with self._lock:
            self.requests.append(entry)

    def _next_turn(self) -> Turn:
        with self._lock:
            if self._script:
                return self._script.popleft()
            self.unscripted += 1
            return text_turn(self.unscripted_text)

    def answer(self, entry: LoggedRequest) -> Turn:
        if is_compaction(entry):
            entry.kind, turn = "compaction", text_turn(self.summary_text)
        else:
            entry.kind, turn = "turn", self._next_turn()
        entry.answer = turn.text[:80] + "".join(f" [{name}]" for name, _ in turn.calls)
        return turn

    def new_id(self, prefix: str) -> str:
        return f"{prefix}_fake{next(self._ids):06d}"


def is_compaction(entry: LoggedRequest) -> bool:
    kind = entry.metadata.get("request_kind")
    if kind:
        return kind == "compaction"
    return COMPACTION_MARKER in entry.last_user_text


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # the CLI drops idle keep-alive connections when it exits


class _Handler(BaseHTTPRequestHandler):
    owner: FakeResponses
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
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
        self.end_headers()
        self.wfile.write(payload)

    def do_GET(self) -> None:
        self._unknown(None)

    def do_POST(self) -> None:
        parts = urlsplit(self.path)
        body = self._read_body()
        entry = LoggedRequest("POST", parts.path, {k.lower(): v for k, v in self.headers.items()}, body, "unknown")
        self.owner._log(entry)
        if parts.path.rstrip("/").endswith("/responses"):
            turn = self.owner.answer(entry)
            model = body.get("model", "fake-model") if isinstance(body, dict) else "fake-model"
            self._send(200, "text/event-stream", _sse(self.owner, turn, model))
        else:
            self._unknown(body)

    def _unknown(self, body: Any) -> None:
        parts = urlsplit(self.path)
        if self.command == "GET":
            self.owner._log(LoggedRequest("GET", parts.path, dict(self.headers.items()), body, "unknown"))
        payload = json.dumps({"error": {"type": "not_found", "message": "fake: unknown path"}}).encode()
        self._send(404, "application/json", payload)


def _items(owner: FakeResponses, turn: Turn) -> list[dict]:
    items = []
    if turn.text or not turn.calls:
        items.append({"type": "message", "id": owner.new_id("msg"), "role": "assistant", "status": "completed",
                      "content": [{"type": "output_text", "text": turn.text, "annotations": []}]})
    for name, arguments in turn.calls:
        if isinstance(arguments, str):  # a freeform tool (apply_patch): its input is the text itself
            items.append({"type": "custom_tool_call", "id": owner.new_id("ctc"), "call_id": owner.new_id("call"),
                          "name": name, "input": arguments, "status": "completed"})
            continue
        items.append({"type": "function_call", "id": owner.new_id("fc"), "call_id": owner.new_id("call"),
                      "name": name, "arguments": json.dumps(arguments), "status": "completed"})
    return items


def _sse(owner: FakeResponses, turn: Turn, model: str) -> bytes:
    response_id = owner.new_id("resp")
    base = {"id": response_id, "object": "response", "model": model, "status": "in_progress", "output": []}
    events: list[dict] = [{"type": "response.created", "response": base}]
    items = _items(owner, turn)
    for index, item in enumerate(items):
        if item["type"] == "message":
            events.append({"type": "response.output_item.added", "output_index": index,
                           "item": {**item, "status": "in_progress", "content": []}})
            events.append({"type": "response.output_text.delta", "item_id": item["id"], "output_index": index,
                           "content_index": 0, "delta": item["content"][0]["text"]})
        else:
            events.append({"type": "response.output_item.added", "output_index": index, "item": item})
        events.append({"type": "response.output_item.done", "output_index": index, "item": item})
    output_tokens = 10
    usage = {"input_tokens": max(1, turn.total_tokens - output_tokens), "input_tokens_details": {"cached_tokens": 0},
             "output_tokens": output_tokens, "output_tokens_details": {"reasoning_tokens": 0},
             "total_tokens": turn.total_tokens}
    events.append({"type": "response.completed",
                   "response": {**base, "status": "completed", "output": items, "usage": usage}})
    return "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events).encode()
