"""What every tracker backend shares: credentials, the time budget, the last good read.

A tracker backend (``github``, ``jira``, a future ``linear``) subclasses
``TrackerBackend`` and implements four methods against its API:
``fetch(client) -> Snapshot``, ``create_state``/``write_state``, ``open_item`` and
``close_item``. Everything else is here:

- ``read()`` never raises for the network: the last good read is kept in the
  state directory (``dashboard/<backend>-<hash>.json``, with its time, never a
  credential) and stands in, with a finding that says "dashboard as read at
  <time>; <tracker> unreachable: <reason>". A rate-limit answer is remembered
  too, so no read touches the tracker again before the time it named.
- The state is the file dashboard's markdown (``## CURRENT STATE — date``,
  ``Resume point:``, bullets), parsed by the file backend's parser.
- Queue items carry their tracker key first ("#12 …", "PROJ-12 …"), so the queue
  verifier's reference matching ties a commit naming the key to the item.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Optional, Sequence, Union

from cc_hooks.record.backends._http import AuthError, Client, RateLimited, TrackerError
from cc_hooks.record.dashboard import DashboardError

if TYPE_CHECKING:  # pragma: no cover
    from cc_hooks.record.dashboard_read import DashboardRead, QueueItem, StateBlock

CACHE_DIR = "dashboard"
PROCESS_MEMO_SECONDS = 30.0
_PROCESS_READS: dict = {}  # (backend, root, locator, origin) -> (monotonic time, the failed read)
STALE_RULE = "dashboard-tracker-unreachable"
UNREAD_RULE = "dashboard-tracker-unread"
QUEUED_ON_RE = r"^\s*Queued:\s*(\d{4}-\d{2}-\d{2})\s*$"  # the date a migrated item was first queued


@dataclass
class Item:
    """One open queue issue as a tracker reports it."""

    key: str  # "#12", "PROJ-12"
    title: str
    date: Optional[str]  # when it was queued, YYYY-MM-DD
    done: bool = False

    @property
    def text(self) -> str:
        return f"{self.key} {self.title}"


@dataclass
class Snapshot:
    """What one read of a tracker found."""

    state_key: Optional[str]  # the key of the state issue, None when there is none yet
    state_body: str
    items: list[Item] = field(default_factory=list)
    ignored: int = 0  # issues left out because of who wrote them
    findings: list[tuple[str, str, str]] = field(default_factory=list)  # (rule, message, severity)


class TrackerBackend:
    """The shared half of a tracker backend; ``name`` and the four API methods are the module's."""

    name = "tracker"
    credential_hint = ""  # "set GITHUB_TOKEN", said with every authentication error

    def __init__(self, root: Path, locator: str):
        self.root = Path(root)
        self.locator = (locator or "").strip()
        self._config = None
        self._endpoint: Optional[tuple] = None

    @property
    def settings(self):
        """This tracker's section of the config, with the user's own credential keys in force
        (``_endpoint``): where a request goes and which variable it sends are never the
        repository's alone."""
        return self._resolved()[0]

    def check_endpoint(self) -> None:
        """Raise ``EndpointRefused`` (nothing sent) unless the user allowed where the credential goes;
        every ``client`` asks this before it reads a credential."""
        from cc_hooks.record.backends._endpoint import EndpointRefused

        refusal = self._resolved()[1]
        if refusal:
            raise EndpointRefused(refusal)

    def _resolved(self) -> tuple:
        if self._endpoint is None:
            from cc_hooks.record.backends._endpoint import resolve

            self._endpoint = resolve(self.name, self.root, getattr(self.config.dashboard, self.name))
        return self._endpoint

    # --- what a module implements --------------------------------------------------

    def client(self, timeout: float, write: bool = False) -> Client:
        raise NotImplementedError

    def fetch(self, client: Client) -> Snapshot:
        raise NotImplementedError

    def write_state(self, client: Client, key: Optional[str], body: str) -> str:
        """Create (key None) or rewrite the state issue; its key."""
        raise NotImplementedError

    def open_item(self, client: Client, title: str, date: str) -> Item:
        raise NotImplementedError

    def close_item(self, client: Client, item: Item, commits: Sequence[str]) -> None:
        raise NotImplementedError

    # --- configuration ----------------------------------------------------------------

    @property
    def config(self):
        if self._config is None:
            from cc_hooks.config import load_config_or_default

            self._config = load_config_or_default(self.root)[0]
        return self._config

    @property
    def display(self) -> str:
        return f"{self.name} {self.locator}"

    def timeout(self, timeout: Optional[float] = None) -> float:
        configured = self.config.dashboard.timeout_seconds
        return configured if timeout is None else max(0.05, min(configured, timeout))

    # --- the contract ---------------------------------------------------------------------

    def read(self, timeout: Optional[float] = None) -> "DashboardRead":
        """The tracker's dashboard, or the last good read with why it stands in (never raises
        for the network or the credentials). A failed read is remembered in the process for
        ``PROCESS_MEMO_SECONDS``: a hook that runs the checklist and then the report waits for
        a hanging tracker once, not twice."""
        import copy

        key = (self.name, str(self.root), self.locator, self.origin())
        remembered = _PROCESS_READS.get(key)
        if remembered is not None and time.monotonic() - remembered[0] < PROCESS_MEMO_SECONDS:
            return copy.deepcopy(remembered[1])
        read = self._read_once(timeout)
        if any(f.rule in (STALE_RULE, UNREAD_RULE) for f in read.findings):
            _PROCESS_READS[key] = (time.monotonic(), copy.deepcopy(read))
        return read

    def _read_once(self, timeout: Optional[float]) -> "DashboardRead":
        cached = self._load_cache()
        until = (cached or {}).get("retry_after") or 0
        if until > time.time():
            stamp = time.strftime("%H:%M:%SZ", time.gmtime(until))
            return self._fallback(cached, f"rate limited; not retrying before {stamp}")
        try:
            snapshot = self.fetch(self.client(self.timeout(timeout)))
        except RateLimited as exc:
            self._save_cache(cached, retry_after=exc.until)
            return self._fallback(cached, self.reason(exc))
        except TrackerError as exc:
            return self._fallback(cached, self.reason(exc))
        except DashboardError as exc:  # no credentials, a bad URL: nothing was sent
            return self._fallback(cached, str(exc))
        read = self.to_read(snapshot)
        self._save_cache({"read": _read_to_dict(read)})
        return read

    def read_live(self, timeout: Optional[float] = None) -> tuple["DashboardRead", Snapshot]:
        """One read that raises ``TrackerError`` (the CLI's, and every write's first step), with
        the CLI's time budget by default; a remembered rate limit is respected here too."""
        _PROCESS_READS.clear()
        until = (self._load_cache() or {}).get("retry_after") or 0
        if until > time.time():
            stamp = time.strftime("%H:%M:%SZ", time.gmtime(until))
            raise RateLimited(f"rate limited; not retrying before {stamp}", None, until)
        try:
            snapshot = self.fetch(self.client(self.timeout_for_cli() if timeout is None else timeout))
        except RateLimited as exc:
            self._save_cache(self._load_cache(), retry_after=exc.until)
            raise
        read = self.to_read(snapshot)
        self._save_cache({"read": _read_to_dict(read)})
        return read, snapshot

    def last_good_read(self, reason: str) -> "DashboardRead":
        """The cached read with the finding that says when it is from and why it stands in."""
        return self._fallback(self._load_cache(), reason)

    def update(self, resume_point: str, claims: Sequence[str], date: Optional[str] = None) -> "StateBlock":
        from cc_hooks.record.backends.file import _checked_date, _one_line, _strip_bullet

        date = _checked_date(date)
        texts = [_one_line(resume_point, "resume point")] + [_one_line(_strip_bullet(c), "claim") for c in claims]
        body = "\n".join([f"## CURRENT STATE — {date}", f"Resume point: {texts[0]}"] + [f"- {c}" for c in texts[1:]]) + "\n"
        _, snapshot = self._live_for_write()
        client = self._write_client()
        self.write_state(client, snapshot.state_key, body)
        return self._live_for_write()[0].state

    def queue(self, text: str, date: Optional[str] = None) -> "QueueItem":
        from cc_hooks.record.backends.file import _checked_date, _one_line, _strip_bullet

        date = _checked_date(date)
        title = _one_line(_strip_bullet(text), "item")
        item = self.open_item(self._write_client(), title, date)
        from cc_hooks.record.dashboard_read import QueueItem

        return QueueItem(0, item.date or date, item.text, False)

    def close(self, item: Union[int, str], date: Optional[str] = None, commits: Sequence[str] = ()) -> "QueueItem":
        _, snapshot = self._live_for_write()
        target = select_item(snapshot.items, str(item))
        self.close_item(self._write_client(), target, list(commits))
        from cc_hooks.record.dashboard_read import QueueItem

        return QueueItem(0, target.date, target.text, True)

    def has_content(self) -> bool:
        """Whether the tracker already holds a state or queued items (``migrate`` wants it empty)."""
        _, snapshot = self._live_for_write()
        return snapshot.state_key is not None or bool(snapshot.items)

    # --- helpers -----------------------------------------------------------------------------

    def _live_for_write(self):
        try:
            return self.read_live()
        except TrackerError as exc:
            raise DashboardError(f"{self.display}: {self.reason(exc)}") from None

    def _write_client(self) -> Client:
        return self.client(self.timeout_for_cli(), write=True)

    def timeout_for_cli(self) -> float:
        """A person waits longer than a hook: the CLI gives each operation ten times the hook budget."""
        return max(10.0, self.config.dashboard.timeout_seconds * 10)

    def reason(self, exc: TrackerError) -> str:
        if isinstance(exc, AuthError) and self.credential_hint:
            return f"{exc.reason} ({self.credential_hint})"
        return exc.reason

    def to_read(self, snapshot: Snapshot) -> "DashboardRead":
        from cc_hooks.record.backends.file import parse
        from cc_hooks.record.dashboard_read import DashboardRead, QueueItem
        from cc_hooks.record.findings import finding

        where = self.display
        if snapshot.state_key is None:
            read = DashboardRead(self.name, where, True)
            read.findings.append(finding(where, None, "dashboard-no-state", f"no open state issue yet (`cc-hooks dashboard update` creates it)"))
        else:
            read = parse(snapshot.state_body, f"{where} {snapshot.state_key}")
            read.backend, read.locator = self.name, where
            for claim in read.state.claims if read.state else []:
                claim.line = 0  # a line of the issue body names no place a reader can open
            read.findings = [f for f in read.findings if f.rule not in ("dashboard-multiple-queues",)]
        read.queued = [QueueItem(0, item.date, item.text, item.done) for item in snapshot.items]
        read.findings = [f for f in read.findings if not f.rule.startswith("queue-item-")]
        for rule, message, severity in snapshot.findings:
            read.findings.append(finding(where, None, rule, message, severity=severity))
        if snapshot.ignored:
            read.findings.append(finding(where, None, "dashboard-untrusted-authors",
                                         f"{snapshot.ignored} issue(s) by authors outside the trusted associations ignored", severity="info"))
        return read

    def raise_write_error(self, exc: TrackerError):
        raise DashboardError(f"{self.display}: {self.reason(exc)}") from None

    # --- the last good read ---------------------------------------------------------------------

    def _cache_path(self) -> Optional[Path]:
        import hashlib

        from cc_hooks.state import state_dir

        directory = state_dir(self.root)
        if directory is None:
            return None
        digest = hashlib.sha256(f"{self.name}\0{self.locator}\0{self.origin()}".encode()).hexdigest()[:16]
        return directory / CACHE_DIR / f"{self.name}-{digest}.json"

    def origin(self) -> str:
        """Where the tracker is (a cached read of one site never stands in for another)."""
        return ""

    def _load_cache(self) -> Optional[dict]:
        from cc_hooks.state import read_json

        path = self._cache_path()
        data = read_json(path) if path is not None else None
        return data if isinstance(data, dict) and data.get("locator") == self.locator else None

    def _save_cache(self, cached: Optional[dict], retry_after: Optional[float] = None) -> None:
        from cc_hooks.state import write_json

        path = self._cache_path()
        if path is None:
            return
        data = dict(cached or {})
        data.update(backend=self.name, locator=self.locator, retry_after=retry_after)
        if retry_after is None:
            data["read_at"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        elif "read" not in data:
            data["read"] = None
        try:
            write_json(path, data)
        except OSError:
            pass  # the cache is best effort

    def _fallback(self, cached: Optional[dict], reason: str) -> "DashboardRead":
        from cc_hooks.record.dashboard_read import DashboardRead
        from cc_hooks.record.findings import finding

        where = self.display
        if cached and cached.get("read") and cached.get("read_at"):
            read = _read_from_dict(cached["read"])
            read.findings.append(finding(where, None, STALE_RULE, f"dashboard as read at {cached['read_at']}; {where} unreachable: {reason}", severity="warning"))
            return read
        read = DashboardRead(self.name, where, False)
        read.findings.append(finding(where, None, UNREAD_RULE, f"the dashboard could not be read; {where} unreachable: {reason}"))
        return read


def select_item(items: Sequence[Item], selector: str) -> Item:
    """The open item a key ("#12", "12", "PROJ-12") or a unique piece of its title names."""
    wanted = selector.strip()
    by_key = [i for i in items if i.key.lower() in (wanted.lower(), f"#{wanted}".lower())]
    if by_key:
        return by_key[0]
    needle = " ".join(wanted.lower().split())
    matches = [i for i in items if needle and needle in " ".join(i.title.lower().split())]
    if not matches:
        raise DashboardError(f"no open queued issue is {selector!r} (give its key, e.g. {items[0].key if items else '#12'})")
    if len(matches) > 1:
        raise DashboardError(f"{len(matches)} queued issues match {selector!r} ({', '.join(i.key for i in matches)}); give a key")
    return matches[0]


def queued_on(body: str) -> Optional[str]:
    """The ``Queued: YYYY-MM-DD`` line of an item's description, if any."""
    import re

    match = re.search(QUEUED_ON_RE, body or "", re.MULTILINE)
    return match.group(1) if match else None


def landing_comment(commits: Sequence[str]) -> str:
    if not commits:
        return "Closed by `cc-hooks dashboard close`."
    return "Landed in " + ", ".join(f"`{c}`" for c in commits) + " (closed by `cc-hooks dashboard close`)."


def _read_to_dict(read: "DashboardRead") -> dict:
    from dataclasses import asdict

    data = asdict(read)
    data["findings"] = [[f.file, f.line, f.rule, f.message, f.severity] for f in read.findings]
    return data


def _read_from_dict(data: dict) -> "DashboardRead":
    from cc_hooks.record.dashboard_read import Claim, DashboardRead, QueueItem, StateBlock
    from cc_hooks.record.findings import finding

    state = None
    if data.get("state"):
        s = data["state"]
        resume = Claim(**s["resume_point"]) if s.get("resume_point") else None
        state = StateBlock(s["line"], s["end_line"], s["date"], s["date_text"], resume, [Claim(**c) for c in s["claims"]])
    read = DashboardRead(data["backend"], data["locator"], data["exists"], state, [QueueItem(**q) for q in data.get("queued", [])])
    read.findings = [finding(f[0], f[1], f[2], f[3], severity=f[4]) for f in data.get("findings", [])]
    return read
