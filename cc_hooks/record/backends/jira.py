"""``Dashboard: jira PROJ``: the dashboard in a Jira Cloud project (REST API v3).

- CURRENT STATE: the description (Atlassian Document Format) of the oldest unresolved
  issue labelled ``cc-hooks-state``, in the file dashboard's markdown.
- QUEUED: the unresolved issues labelled ``cc-hooks-queue``, oldest first; ``queue``
  creates one, ``close`` comments the landing commit(s) and moves it through the
  first transition into a status of the Done category.
- One search reads both: ``POST /rest/api/3/search/jql`` with ``nextPageToken`` paging
  (the old ``/rest/api/3/search`` answers 410 Gone since 2025; it is never called).
- Basic auth with an email and an API token, from ``email_env`` and ``token_env``.

Configuration: ``[dashboard.jira]`` in ``.cc-hooks.toml``; ``url`` is required.
"""

from __future__ import annotations

import re
from typing import Optional, Sequence

from cc_hooks.record.backends._http import Client, NotFound, Rejected, TrackerError
from cc_hooks.record.backends._tracker import Item, Snapshot, TrackerBackend, landing_comment, queued_on
from cc_hooks.record.dashboard import DashboardError

NAME = "jira"
SEARCH = "/rest/api/3/search/jql"
MAX_PAGES = 10
PAGE_SIZE = 100
FIELDS = ["summary", "labels", "created", "description", "status"]
STATE_TITLE = "cc-hooks: current state"
_PROJECT_RE = re.compile(r"^[A-Z][A-Z0-9_]{0,254}$")


class Backend(TrackerBackend):
    name = NAME

    @property
    def credential_hint(self) -> str:
        return f"set {self.settings.email_env} and {self.settings.token_env} (an Atlassian API token) for an account that can edit {self.locator}"

    def origin(self) -> str:
        return self.settings.url or ""

    @property
    def project(self) -> str:
        if not _PROJECT_RE.match(self.locator):
            raise DashboardError(f"`Dashboard: jira {self.locator}`: the locator must be a project key such as PROJ")
        return self.locator

    def client(self, timeout: float, write: bool = False) -> Client:
        import base64
        import os
        import time

        self.check_endpoint()
        if not self.settings.url:
            raise DashboardError("`Dashboard: jira` needs `url` in `[dashboard.jira]` of .cc-hooks.toml (https://<site>.atlassian.net)")
        email = os.environ.get(self.settings.email_env, "").strip()
        token = os.environ.get(self.settings.token_env, "").strip()
        if not email or not token:
            raise DashboardError(f"no Jira credentials: {self.credential_hint}")
        basic = base64.b64encode(f"{email}:{token}".encode()).decode("ascii")
        headers = {"Authorization": f"Basic {basic}", "Accept": "application/json"}
        return Client(self.settings.url, headers, time.monotonic() + timeout, self.display, secrets=[token, basic])

    # --- reading ------------------------------------------------------------------------------

    def jql(self) -> str:
        labels = ", ".join(_quoted(label) for label in (self.settings.state_label, self.settings.queue_label))
        return f"project = {_quoted(self.project)} AND labels in ({labels}) AND statusCategory != Done ORDER BY created ASC"

    def fetch(self, client: Client) -> Snapshot:
        from cc_hooks.record.backends._adf import to_text

        states, queue = [], []
        for issue in self._search(client):
            fields = issue.get("fields") if isinstance(issue.get("fields"), dict) else {}
            labels = fields.get("labels") if isinstance(fields.get("labels"), list) else []
            if self.settings.state_label in labels:
                states.append((issue, fields))
            elif self.settings.queue_label in labels:
                queue.append((issue, fields))
        snapshot = Snapshot(None, "")
        if states:
            issue, fields = states[0]
            snapshot.state_key, snapshot.state_body = issue["key"], to_text(fields.get("description"))
            if len(states) > 1:
                others = ", ".join(i["key"] for i, _ in states[1:])
                snapshot.findings.append(("dashboard-multiple-states", f"{len(states)} open state issues; the oldest, {issue['key']}, counts (close {others})", "warning"))
        for issue, fields in queue:
            created = _text(fields.get("created"))[:10] or None
            summary = _text(fields.get("summary"))
            snapshot.items.append(Item(issue["key"], summary, queued_on(to_text(fields.get("description"))) or created))
        return snapshot

    def _search(self, client: Client) -> list[dict]:
        issues, token = [], None
        for _ in range(MAX_PAGES):
            body = {"jql": self.jql(), "fields": FIELDS, "maxResults": PAGE_SIZE}
            if token:
                body["nextPageToken"] = token
            try:
                response = client.request("POST", SEARCH, body=body)
            except (NotFound, Rejected) as exc:
                if exc.status == 404 or "project" in exc.reason.lower():
                    raise NotFound(f"project {self.locator} not found at {self.settings.url}, or the account cannot browse it", exc.status) from None
                raise
            page = response.data
            if not isinstance(page, dict) or not isinstance(page.get("issues"), list):
                raise _malformed("the search answer has no `issues` list")
            for issue in page["issues"]:
                if not isinstance(issue, dict) or not isinstance(issue.get("key"), str):
                    raise _malformed("an issue without a key")
                issues.append(issue)
            token = page.get("nextPageToken")
            if page.get("isLast") is True or not token or not page["issues"]:
                break
        return issues

    # --- writing -------------------------------------------------------------------------------

    def _create(self, client: Client, summary: str, label: str, description: str) -> str:
        from cc_hooks.record.backends._adf import to_adf

        fields = {
            "project": {"key": self.project},
            "summary": summary,
            "issuetype": {"name": self.settings.issue_type},
            "labels": [label],
            "description": to_adf(description),
        }
        try:
            response = client.request("POST", "/rest/api/3/issue", body={"fields": fields})
            return response.data["key"]
        except TrackerError as exc:
            self.raise_write_error(exc)
        except (TypeError, KeyError):
            raise DashboardError(f"{self.display}: the created issue came back without a key") from None

    def write_state(self, client: Client, key: Optional[str], body: str) -> str:
        from cc_hooks.record.backends._adf import to_adf

        if key is None:
            return self._create(client, STATE_TITLE, self.settings.state_label, body)
        try:
            client.request("PUT", f"/rest/api/3/issue/{key}", body={"fields": {"description": to_adf(body)}})
        except TrackerError as exc:
            self.raise_write_error(exc)
        return key

    def open_item(self, client: Client, title: str, date: str) -> Item:
        key = self._create(client, title, self.settings.queue_label, f"Queued: {date}\n\nQueued with `cc-hooks dashboard queue`.")
        return Item(key, title, date)

    def close_item(self, client: Client, item: Item, commits: Sequence[str]) -> None:
        from cc_hooks.record.backends._adf import to_adf

        path = f"/rest/api/3/issue/{item.key}"
        try:
            answer = client.request("GET", f"{path}/transitions").data
            transitions = answer.get("transitions") if isinstance(answer, dict) else None
            done = next((t for t in transitions or [] if _category(t) == "done"), None)
            if done is None:
                names = ", ".join(str(t.get("name")) for t in transitions or [] if isinstance(t, dict)) or "none"
                raise DashboardError(f"{item.key} has no transition into a Done-category status (available: {names})")
            client.request("POST", f"{path}/comment", body={"body": to_adf(landing_comment(commits))})
            client.request("POST", f"{path}/transitions", body={"transition": {"id": str(done.get("id"))}})
        except TrackerError as exc:
            self.raise_write_error(exc)


def _category(transition) -> str:
    if not isinstance(transition, dict):
        return ""
    to = transition.get("to") if isinstance(transition.get("to"), dict) else {}
    category = to.get("statusCategory") if isinstance(to.get("statusCategory"), dict) else {}
    return str(category.get("key", "")).lower()


def _quoted(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _text(value) -> str:
    return value if isinstance(value, str) else ""


def _malformed(what: str) -> TrackerError:
    from cc_hooks.record.backends._http import Unreachable

    return Unreachable(f"malformed answer: {what}")
