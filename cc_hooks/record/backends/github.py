"""``Dashboard: github OWNER/REPO``: the dashboard in GitHub Issues (REST API, version 2022-11-28).

- CURRENT STATE: the body of the oldest open issue labelled ``cc-hooks-state``, in the
  file dashboard's markdown; the first ``update`` opens it, later ones rewrite it.
- QUEUED: the open issues labelled ``cc-hooks-queue``, oldest first; ``queue`` opens one,
  ``close`` comments the landing commit(s) and closes it as completed.
- Pull requests (which the issues endpoint lists too) never count, nor do issues whose
  ``author_association`` is outside ``trusted_associations`` (anyone can open an issue
  on a public repository). Comments are never read.
- Pagination follows the ``Link: rel="next"`` header (at most ``MAX_PAGES`` pages).

Configuration: ``[dashboard.github]`` in ``.cc-hooks.toml`` (``cc_hooks.config``).
"""

from __future__ import annotations

import re
from typing import Optional, Sequence

from cc_hooks.record.backends._http import Client, NotFound, TrackerError
from cc_hooks.record.backends._tracker import Item, Snapshot, TrackerBackend, landing_comment, queued_on
from cc_hooks.record.dashboard import DashboardError

NAME = "github"
API_VERSION = "2022-11-28"
MAX_PAGES = 10
PER_PAGE = 100
STATE_TITLE = "cc-hooks: current state"
_LOCATOR_RE = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}$")


class Backend(TrackerBackend):
    name = NAME

    def __init__(self, root, locator: str):
        super().__init__(root, locator)
        self._token: Optional[str] = None
        self._token_read = False

    @property
    def credential_hint(self) -> str:
        return f"set {self.settings.token_env} to a token that can read and write issues of {self.locator}"

    def origin(self) -> str:
        return self.settings.api_url

    @property
    def repo_path(self) -> str:
        if not _LOCATOR_RE.match(self.locator):
            raise DashboardError(f"`Dashboard: github {self.locator}`: the locator must be OWNER/REPO")
        return f"/repos/{self.locator}"

    # --- credentials ------------------------------------------------------------------------

    def token(self) -> Optional[str]:
        """The token from ``token_env``, else ``gh auth token``; None when neither has one."""
        self.check_endpoint()
        if not self._token_read:
            import os

            self._token_read = True
            self._token = os.environ.get(self.settings.token_env, "").strip() or (self._gh_token() if self.settings.use_gh_cli else None)
        return self._token

    def _gh_token(self) -> Optional[str]:
        import shutil
        import subprocess

        from cc_hooks.record.backends._http import host_of

        gh = shutil.which("gh")
        if gh is None:
            return None
        host = host_of(self.settings.api_url) or "github.com"
        host = "github.com" if host == "api.github.com" else host
        try:
            done = subprocess.run([gh, "auth", "token", "--hostname", host], capture_output=True, text=True, timeout=2, stdin=subprocess.DEVNULL)
        except (OSError, subprocess.SubprocessError):
            return None
        token = done.stdout.strip()
        return token if done.returncode == 0 and token and "\n" not in token else None

    def client(self, timeout: float, write: bool = False) -> Client:
        import time

        self.check_endpoint()
        headers = {"Accept": "application/vnd.github+json", "X-GitHub-Api-Version": API_VERSION}
        token = self.token()
        if token:
            headers["Authorization"] = f"Bearer {token}"
        elif write:
            raise DashboardError(f"no GitHub token: {self.credential_hint} (or log in with `gh auth login`)")
        return Client(self.settings.api_url, headers, time.monotonic() + timeout, self.display, secrets=[token] if token else [])

    # --- reading ------------------------------------------------------------------------------

    def fetch(self, client: Client) -> Snapshot:
        trusted = {a.upper() for a in self.settings.trusted_associations}
        states, ignored_states = self._issues(client, self.settings.state_label, trusted)
        queue, ignored_queue = self._issues(client, self.settings.queue_label, trusted)
        snapshot = Snapshot(None, "", ignored=ignored_states + ignored_queue)
        if states:
            first = states[0]
            snapshot.state_key, snapshot.state_body = f"#{first['number']}", _text(first.get("body"))
            if len(states) > 1:
                others = ", ".join(f"#{i['number']}" for i in states[1:])
                snapshot.findings.append(("dashboard-multiple-states", f"{len(states)} open state issues; the oldest, {snapshot.state_key}, counts (close {others})", "warning"))
        state_numbers = {i["number"] for i in states}
        for issue in queue:
            if issue["number"] in state_numbers:
                continue
            created = _text(issue.get("created_at"))[:10] or None
            snapshot.items.append(Item(f"#{issue['number']}", _text(issue.get("title")), queued_on(_text(issue.get("body"))) or created))
        return snapshot

    def _issues(self, client: Client, label: str, trusted: set) -> tuple[list[dict], int]:
        """The open issues with ``label``, oldest first, pull requests out; (trusted ones, how many ignored)."""
        from cc_hooks.record.backends._http import next_link

        query = {"state": "open", "labels": label, "sort": "created", "direction": "asc", "per_page": PER_PAGE}
        try:
            response = client.request("GET", f"{self.repo_path}/issues", query)
        except NotFound:
            raise NotFound(f"repository {self.locator} not found, or the token cannot see it ({self.credential_hint})", 404) from None
        kept, ignored, pages = [], 0, 1
        while True:
            if not isinstance(response.data, list):
                raise _malformed("the issue list is not a JSON array")
            for issue in response.data:
                if not isinstance(issue, dict) or not isinstance(issue.get("number"), int):
                    raise _malformed("an issue without a number")
                if "pull_request" in issue:
                    continue
                if str(issue.get("author_association", "")).upper() not in trusted:
                    ignored += 1
                    continue
                kept.append(issue)
            following = next_link(response.header("link"))
            if following is None or pages >= MAX_PAGES:
                return kept, ignored
            response, pages = client.request_url("GET", following), pages + 1

    # --- writing -------------------------------------------------------------------------------

    def write_state(self, client: Client, key: Optional[str], body: str) -> str:
        try:
            if key is None:
                response = client.request("POST", f"{self.repo_path}/issues", body={"title": STATE_TITLE, "body": body, "labels": [self.settings.state_label]})
                return f"#{response.data['number']}"
            client.request("PATCH", f"{self.repo_path}/issues/{key.lstrip('#')}", body={"body": body})
            return key
        except TrackerError as exc:
            self.raise_write_error(exc)
        except (TypeError, KeyError):
            raise DashboardError(f"{self.display}: the created issue came back without a number") from None

    def open_item(self, client: Client, title: str, date: str) -> Item:
        body = f"Queued: {date}\n\nQueued with `cc-hooks dashboard queue`; `cc-hooks dashboard close` closes it when its work lands."
        try:
            response = client.request("POST", f"{self.repo_path}/issues", body={"title": title, "body": body, "labels": [self.settings.queue_label]})
            return Item(f"#{response.data['number']}", title, date)
        except TrackerError as exc:
            self.raise_write_error(exc)
        except (TypeError, KeyError):
            raise DashboardError(f"{self.display}: the created issue came back without a number") from None

    def close_item(self, client: Client, item: Item, commits: Sequence[str]) -> None:
        number = item.key.lstrip("#")
        try:
            client.request("POST", f"{self.repo_path}/issues/{number}/comments", body={"body": landing_comment(commits)})
            client.request("PATCH", f"{self.repo_path}/issues/{number}", body={"state": "closed", "state_reason": "completed"})
        except TrackerError as exc:
            self.raise_write_error(exc)


def _text(value) -> str:
    return value if isinstance(value, str) else ""


def _malformed(what: str) -> TrackerError:
    from cc_hooks.record.backends._http import Unreachable

    return Unreachable(f"malformed answer: {what}")
