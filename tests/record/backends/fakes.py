"""Loopback fakes of the GitHub REST API (2022-11-28) and Jira Cloud REST API v3.

Written from the public references, for the endpoints the backends use:

GitHub
- ``GET /repos/{owner}/{repo}/issues`` (state, labels = comma-separated, all required;
  sort, direction, per_page, page): issues and pull requests (the latter carry a
  ``pull_request`` key), each with ``author_association``; pagination in the ``Link``
  header (``rel="next"``, ``rel="last"``); ``x-ratelimit-*`` headers on every answer.
- ``POST /repos/{o}/{r}/issues`` (201), ``PATCH /repos/{o}/{r}/issues/{n}`` (200; ``state``,
  ``state_reason``, ``body``), ``POST /repos/{o}/{r}/issues/{n}/comments`` (201).
- 401 ``{"message": "Bad credentials"}``; 404 ``{"message": "Not Found"}`` for an unknown repo;
  the primary rate limit: 403 with ``x-ratelimit-remaining: 0``; the secondary: 429 + ``retry-after``.

Jira Cloud
- ``POST /rest/api/3/search/jql`` (jql, fields, maxResults, nextPageToken) → ``issues``,
  ``nextPageToken`` (absent on the last page), ``isLast``; only the requested fields.
- ``GET|POST /rest/api/3/search`` → 410 Gone (removed in 2025, CHANGE-2046).
- ``POST /rest/api/3/issue`` (201 ``{id, key, self}``), ``PUT /rest/api/3/issue/{key}`` (204),
  ``GET /rest/api/3/issue/{key}/transitions``, ``POST .../transitions`` (204),
  ``POST .../comment`` (201). Descriptions and comment bodies are ADF documents.
- 401 for missing/wrong basic auth; an unknown project in JQL answers 400 with
  ``errorMessages``; 429 with ``Retry-After``.

Failure injection for every fake: ``fail_with(status, body, headers, times)``, ``delay``
(seconds before answering), ``drip`` (seconds between body bytes), ``malformed`` (a 200
whose body is not JSON).
"""

from __future__ import annotations

import base64
import json
import re
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Optional
from urllib.parse import parse_qs, urlsplit


@dataclass
class Seen:
    method: str
    path: str
    query: dict
    headers: dict
    body: object


class FakeServer:
    """A threaded HTTP server on 127.0.0.1; subclasses implement ``route``."""

    def __init__(self):
        self.requests: list[Seen] = []
        self.failures: list[list] = []  # [status, body, headers, times left]
        self.delay = 0.0
        self.drip = 0.0
        self.malformed = False
        self.lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _serve(self):
                fake._handle(self)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _serve

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def fail_with(self, status: int, body: object = None, headers: Optional[dict] = None, times: int = 10**6) -> None:
        self.failures.append([status, body, headers or {}, times])

    def seen(self, method: Optional[str] = None, path_re: str = "") -> list[Seen]:
        return [r for r in self.requests if (method is None or r.method == method) and re.search(path_re, r.path)]

    # --- plumbing ---------------------------------------------------------------------

    def _handle(self, handler: BaseHTTPRequestHandler) -> None:
        parts = urlsplit(handler.path)
        length = int(handler.headers.get("Content-Length") or 0)
        raw = handler.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = raw
        seen = Seen(handler.command, parts.path, {k: v[-1] for k, v in parse_qs(parts.query).items()}, {k.lower(): v for k, v in handler.headers.items()}, body)
        with self.lock:
            self.requests.append(seen)
            failure = next((f for f in self.failures if f[3] > 0), None)
            if failure is not None:
                failure[3] -= 1
        if self.delay:
            time.sleep(self.delay)
        if failure is not None:
            status, payload, headers = failure[0], failure[1], failure[2]
        else:
            with self.lock:
                status, payload, headers = self.route(seen)
        if self.malformed and 200 <= status < 300:
            payload = b'{"issues": [ {"key": "BROKEN'  # cut short
        data = payload if isinstance(payload, bytes) else (b"" if payload is None else json.dumps(payload).encode())
        try:
            handler.send_response(status)
            for name, value in {**self.common_headers(), **headers}.items():
                handler.send_header(name, str(value))
            handler.send_header("Content-Type", "application/json; charset=utf-8")
            handler.send_header("Content-Length", str(len(data)))
            handler.end_headers()
            if self.drip:
                for index in range(len(data)):
                    handler.wfile.write(data[index : index + 1])
                    handler.wfile.flush()
                    time.sleep(self.drip)
            else:
                handler.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def common_headers(self) -> dict:
        return {}

    def route(self, seen: Seen) -> tuple[int, object, dict]:
        raise NotImplementedError


# --- GitHub ---------------------------------------------------------------------------------


class FakeGitHub(FakeServer):
    def __init__(self, repo: str = "o/r", token: str = "ghp_fake", per_page_cap: int = 100):
        super().__init__()
        self.repo, self.token, self.per_page_cap = repo, token, per_page_cap
        self.issues: dict[int, dict] = {}
        self.comments: dict[int, list[dict]] = {}
        self.next_number = 1
        self.remaining = 4999

    def add_issue(self, title: str, labels=(), body: str = "", association: str = "OWNER", created: str = "2026-11-20T10:00:00Z", pull: bool = False, state: str = "open") -> int:
        number = self.next_number
        self.next_number += 1
        issue = {
            "id": 1000 + number,
            "number": number,
            "title": title,
            "body": body,
            "state": state,
            "state_reason": None,
            "labels": [{"name": name} for name in labels],
            "user": {"login": "someone"},
            "author_association": association,
            "created_at": created,
            "html_url": f"https://github.com/{self.repo}/issues/{number}",
        }
        if pull:
            issue["pull_request"] = {"url": f"https://api.github.com/repos/{self.repo}/pulls/{number}"}
        self.issues[number] = issue
        return number

    def common_headers(self) -> dict:
        return {
            "x-ratelimit-limit": 5000,
            "x-ratelimit-remaining": self.remaining,
            "x-ratelimit-reset": int(time.time()) + 3600,
            "x-ratelimit-used": 5000 - self.remaining,
            "x-ratelimit-resource": "core",
            "x-github-media-type": "github.v3; format=json",
        }

    def rate_limit_primary(self, times: int = 10**6) -> None:
        self.fail_with(403, {"message": "API rate limit exceeded for user ID 1.", "documentation_url": "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api"},
                       {"x-ratelimit-remaining": 0, "x-ratelimit-reset": int(time.time()) + 1800}, times)

    def rate_limit_secondary(self, seconds: int = 60, times: int = 10**6) -> None:
        self.fail_with(429, {"message": "You have exceeded a secondary rate limit."}, {"retry-after": seconds}, times)

    def route(self, seen: Seen):
        auth = seen.headers.get("authorization", "")
        if self.token and auth not in (f"Bearer {self.token}", f"token {self.token}"):
            return 401, {"message": "Bad credentials", "documentation_url": "https://docs.github.com/rest"}, {}
        if seen.headers.get("x-github-api-version") not in (None, "2022-11-28", "2026-03-10"):
            return 400, {"message": "Unsupported API version"}, {}
        match = re.fullmatch(r"/repos/([^/]+/[^/]+)/issues(?:/(\d+))?(/comments)?", seen.path)
        if not match or match.group(1) != self.repo:
            return 404, {"message": "Not Found", "documentation_url": "https://docs.github.com/rest"}, {}
        number = int(match.group(2)) if match.group(2) else None
        if number is None and seen.method == "GET":
            return self._list(seen)
        if number is None and seen.method == "POST":
            body = seen.body or {}
            new = self.add_issue(body["title"], body.get("labels", []), body.get("body") or "", "OWNER", time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
            return 201, self.issues[new], {}
        if number not in self.issues:
            return 404, {"message": "Not Found"}, {}
        if match.group(3) and seen.method == "POST":
            comment = {"id": len(self.comments.get(number, [])) + 1, "body": seen.body["body"], "author_association": "OWNER"}
            self.comments.setdefault(number, []).append(comment)
            return 201, comment, {}
        if seen.method == "PATCH":
            issue = self.issues[number]
            for key in ("title", "body", "state", "state_reason"):
                if key in (seen.body or {}):
                    issue[key] = seen.body[key]
            return 200, issue, {}
        if seen.method == "GET":
            return 200, self.issues[number], {}
        return 404, {"message": "Not Found"}, {}

    def _list(self, seen: Seen):
        query = seen.query
        wanted = [name for name in query.get("labels", "").split(",") if name]
        state = query.get("state", "open")
        chosen = [
            issue for issue in self.issues.values()
            if (state == "all" or issue["state"] == state) and all(name in [l["name"] for l in issue["labels"]] for name in wanted)
        ]
        chosen.sort(key=lambda i: (i["created_at"], i["number"]), reverse=query.get("direction", "desc") == "desc")
        per_page = min(int(query.get("per_page", 30)), self.per_page_cap)
        page = int(query.get("page", 1))
        pages = max(1, -(-len(chosen) // per_page))
        links = []

        def link(n: int, rel: str) -> str:
            params = {**query, "page": str(n)}
            return f'<{self.url}{seen.path}?{"&".join(f"{k}={v}" for k, v in params.items())}>; rel="{rel}"'

        if page < pages:
            links += [link(page + 1, "next"), link(pages, "last")]
        if page > 1:
            links += [link(page - 1, "prev"), link(1, "first")]
        headers = {"Link": ", ".join(links)} if links else {}
        return 200, chosen[(page - 1) * per_page : page * per_page], headers


# --- Jira Cloud -------------------------------------------------------------------------------

REMOVED = {
    "errorMessages": [
        "The requested API has been removed. Please migrate to the /rest/api/3/search/jql API. "
        "A full migration guideline is available at https://developer.atlassian.com/changelog/#CHANGE-2046"
    ],
    "errors": {},
}


class FakeJira(FakeServer):
    def __init__(self, project: str = "PROJ", email: str = "dev@example.com", token: str = "jira-fake-token", page_cap: int = 100):
        super().__init__()
        self.project, self.email, self.token, self.page_cap = project, email, token, page_cap
        self.issues: dict[str, dict] = {}  # key -> issue (fields inside)
        self.comments: dict[str, list] = {}
        self.counter = 0
        self.tokens: dict[str, int] = {}

    def add_issue(self, summary: str, labels=(), description=None, created: str = "2026-11-20T10:00:00.000+0000", done: bool = False) -> str:
        self.counter += 1
        key = f"{self.project}-{self.counter}"
        self.issues[key] = {
            "id": str(10000 + self.counter),
            "key": key,
            "self": f"{self.url}/rest/api/3/issue/{10000 + self.counter}",
            "fields": {
                "summary": summary,
                "labels": list(labels),
                "created": created,
                "description": description,
                "status": _status(done),
            },
        }
        return key

    def route(self, seen: Seen):
        if not self._authorized(seen.headers.get("authorization", "")):
            return 401, b"Client must be authenticated to access this resource.", {}
        path = seen.path
        if path == "/rest/api/3/search" or path == "/rest/api/2/search":
            return 410, REMOVED, {}
        if path == "/rest/api/3/search/jql" and seen.method in ("POST", "GET"):
            return self._search(seen.body if seen.method == "POST" else seen.query)
        if path == "/rest/api/3/issue" and seen.method == "POST":
            fields = seen.body["fields"]
            if fields.get("project", {}).get("key") != self.project:
                return 400, {"errorMessages": [], "errors": {"project": "valid project is required"}}, {}
            if not isinstance(fields.get("description"), (dict, type(None))) or (fields.get("description") or {}).get("type", "doc") != "doc":
                return 400, {"errorMessages": [], "errors": {"description": "Operation value must be an Atlassian Document"}}, {}
            key = self.add_issue(fields["summary"], fields.get("labels", []), fields.get("description"), time.strftime("%Y-%m-%dT%H:%M:%S.000+0000", time.gmtime()))
            issue = self.issues[key]
            return 201, {"id": issue["id"], "key": key, "self": issue["self"]}, {}
        match = re.fullmatch(r"/rest/api/3/issue/([A-Z][A-Z0-9_]*-\d+)(?:/(transitions|comment))?", path)
        if not match or match.group(1) not in self.issues:
            return 404, {"errorMessages": ["Issue does not exist or you do not have permission to see it."], "errors": {}}, {}
        key, sub = match.group(1), match.group(2)
        issue = self.issues[key]
        if sub is None and seen.method == "PUT":
            description = seen.body["fields"].get("description")
            if not isinstance(description, dict) or description.get("type") != "doc":
                return 400, {"errorMessages": [], "errors": {"description": "Operation value must be an Atlassian Document"}}, {}
            issue["fields"]["description"] = description
            return 204, None, {}
        if sub == "transitions" and seen.method == "GET":
            return 200, {"expand": "transitions", "transitions": TRANSITIONS}, {}
        if sub == "transitions" and seen.method == "POST":
            chosen = next((t for t in TRANSITIONS if t["id"] == seen.body["transition"]["id"]), None)
            if chosen is None:
                return 400, {"errorMessages": ["Transition id is not valid."], "errors": {}}, {}
            issue["fields"]["status"] = _status(chosen["to"]["statusCategory"]["key"] == "done", chosen["to"]["name"])
            return 204, None, {}
        if sub == "comment" and seen.method == "POST":
            body = seen.body.get("body")
            if not isinstance(body, dict) or body.get("type") != "doc":
                return 400, {"errorMessages": ["Comment body is not valid ADF."], "errors": {}}, {}
            self.comments.setdefault(key, []).append(body)
            return 201, {"id": str(len(self.comments[key])), "body": body}, {}
        return 405, {"errorMessages": ["Method not allowed"]}, {}

    def _authorized(self, header: str) -> bool:
        expected = base64.b64encode(f"{self.email}:{self.token}".encode()).decode()
        return header == f"Basic {expected}"

    def _search(self, body: dict):
        jql = body.get("jql") or ""
        project = re.search(r'project\s*=\s*"?([A-Za-z0-9_]+)"?', jql)
        if project is None:
            return 400, {"errorMessages": ["Unbounded JQL queries are not allowed here. Please add a search restriction to your query."], "errors": {}}, {}
        if project.group(1) != self.project:
            return 400, {"errorMessages": [f"The value '{project.group(1)}' does not exist for the field 'project'."], "errors": {}}, {}
        labels = re.search(r"labels\s+in\s*\(([^)]*)\)", jql)
        wanted = [l.strip().strip('"') for l in labels.group(1).split(",")] if labels else None
        not_done = re.search(r"statusCategory\s*!=\s*Done", jql, re.IGNORECASE) is not None
        chosen = [
            i for i in self.issues.values()
            if (wanted is None or set(wanted) & set(i["fields"]["labels"])) and not (not_done and i["fields"]["status"]["statusCategory"]["key"] == "done")
        ]
        chosen.sort(key=lambda i: i["fields"]["created"] + f"{int(i['id']):09d}")
        size = min(int(body.get("maxResults") or 50), self.page_cap)
        start = 0
        token = body.get("nextPageToken")
        if token:
            if token not in self.tokens:
                return 400, {"errorMessages": ["Invalid nextPageToken."], "errors": {}}, {}
            start = self.tokens[token]
        page = chosen[start : start + size]
        fields = body.get("fields") or []
        issues = [{"id": i["id"], "key": i["key"], "self": i["self"], "fields": {f: i["fields"].get(f) for f in fields}} if fields else {"id": i["id"]} for i in page]
        answer = {"issues": issues, "isLast": start + size >= len(chosen)}
        if not answer["isLast"]:
            new_token = f"tok-{len(self.tokens) + 1}"
            self.tokens[new_token] = start + size
            answer["nextPageToken"] = new_token
        return 200, answer, {}


def _status(done: bool, name: Optional[str] = None) -> dict:
    key = "done" if done else "new"
    return {"name": name or ("Done" if done else "To Do"), "statusCategory": {"key": key, "name": "Done" if done else "To Do"}}


TRANSITIONS = [
    {"id": "11", "name": "Back to do", "to": {"name": "To Do", "statusCategory": {"key": "new"}}},
    {"id": "21", "name": "Start", "to": {"name": "In Progress", "statusCategory": {"key": "indeterminate"}}},
    {"id": "31", "name": "Finish", "to": {"name": "Done", "statusCategory": {"key": "done"}}},
]


def adf(*paragraphs: str) -> dict:
    return {"type": "doc", "version": 1, "content": [{"type": "paragraph", "content": [{"type": "text", "text": p}]} for p in paragraphs]}
