"""The one HTTP client the tracker backends share (standard library only, DECISIONS.md).

The only module of the package that imports a network module (docs/security.md, defence 7),
and only inside functions: nothing here runs unless a tracker dashboard is declared.

Rules every request follows:

- HTTPS only; plain HTTP only to a loopback address (the tests' fakes).
- One total deadline per operation: every request, and every chunk of a body, gets
  the time that is left, so a tracker that answers slowly cannot hold a hook past it.
- No redirects (urllib would forward the Authorization header to wherever a 3xx
  points) and no retries: a rate-limit answer is reported with when to try again.
- Errors are ``TrackerError``s whose message never contains a secret: every secret
  given to the client is scrubbed from it, and the tracker's own words are cut short.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional, Sequence

from cc_hooks.record.dashboard import DashboardError

MAX_BODY = 8 * 1024 * 1024
MAX_MESSAGE = 200
USER_AGENT = "cc-hooks-dashboard"


class TrackerError(DashboardError):
    """A tracker operation failed; ``reason`` is the short why (no secret in it)."""

    kind = "error"

    def __init__(self, reason: str, status: Optional[int] = None):
        super().__init__(reason)
        self.reason = reason
        self.status = status


class Unreachable(TrackerError):
    """No usable answer: refused, timed out, a 5xx, malformed JSON. A cached read may stand in."""

    kind = "unreachable"


class AuthError(TrackerError):
    """401, or a 403 that is not a rate limit: the credentials are missing, wrong or too weak."""

    kind = "auth"


class RateLimited(TrackerError):
    """403/429 with rate-limit headers; ``until`` is the epoch second to wait for."""

    kind = "rate-limited"

    def __init__(self, reason: str, status: Optional[int], until: float):
        super().__init__(reason, status)
        self.until = until


class NotFound(TrackerError):
    kind = "not-found"


class Gone(TrackerError):
    kind = "gone"


class Rejected(TrackerError):
    """A 4xx the tracker explained (bad JQL, a validation error)."""

    kind = "rejected"


@dataclass
class Response:
    status: int
    headers: Mapping[str, str]
    data: Any  # the decoded JSON (None for an empty body)

    def header(self, name: str) -> str:
        return self.headers.get(name.lower(), "")


@dataclass
class Client:
    """Requests to one tracker's API under one deadline (``time.monotonic()`` seconds)."""

    base_url: str
    headers: dict[str, str]
    deadline: float
    tracker: str  # "github o/r", for messages
    secrets: Sequence[str] = ()
    requests: list[str] = field(default_factory=list)  # "GET /path", for tests and the log

    def __post_init__(self):
        self.base_url = check_url(self.base_url).rstrip("/")

    def remaining(self) -> float:
        return self.deadline - time.monotonic()

    def request(self, method: str, path: str, query: Optional[Mapping[str, Any]] = None, body: Any = None) -> Response:
        url = path if path.startswith(("http://", "https://")) else self.base_url + path
        if query:
            from urllib.parse import urlencode

            url += ("&" if "?" in url else "?") + urlencode({k: v for k, v in query.items() if v is not None})
        return self.request_url(method, url, body)

    def request_url(self, method: str, url: str, body: Any = None) -> Response:
        """``url`` must be on the API's own origin (a ``Link: rel=next`` elsewhere is refused)."""
        if not _same_origin(url, self.base_url):
            raise Unreachable(f"{self.tracker} pointed at another site ({_origin(url)}); refused")
        left = self.remaining()
        if left <= 0.05:
            raise Unreachable(f"no time left within the {self.tracker} time budget")
        self.requests.append(f"{method} {_path_of(url)}")
        try:
            status, headers, raw = _send(method, url, self.headers, body, left, self.deadline)
        except TrackerError as exc:
            raise type(exc)(self.scrub(exc.reason), exc.status) from None
        return self._judge(method, url, status, headers, raw)

    def scrub(self, text: str) -> str:
        for secret in self.secrets:
            if secret:
                text = text.replace(secret, "***")
        return text

    def _judge(self, method: str, url: str, status: int, headers: dict[str, str], raw: bytes) -> Response:
        where = f"{method} {_path_of(url)}"
        if 200 <= status < 300:
            try:
                data = json.loads(raw.decode("utf-8")) if raw.strip() else None
            except (UnicodeDecodeError, ValueError):
                raise Unreachable(f"{where} answered {status} with malformed JSON", status) from None
            return Response(status, headers, data)
        said = self.scrub(_tracker_message(raw))
        detail = f": {said}" if said else ""
        limited = _rate_limit(status, headers, said)
        if limited is not None:
            until = time.time() + limited
            stamp = time.strftime("%H:%M:%SZ", time.gmtime(until))
            raise RateLimited(f"rate limited (HTTP {status}); not retrying before {stamp}", status, until)
        if status == 401:
            raise AuthError(f"HTTP 401 unauthorized{detail}", status)
        if status == 403:
            raise AuthError(f"HTTP 403 forbidden{detail}", status)
        if status == 404:
            raise NotFound(f"{where} answered 404 not found{detail}", status)
        if status == 410:
            raise Gone(f"{where} answered 410 gone{detail}", status)
        if 300 <= status < 400:
            raise Unreachable(f"{where} answered a {status} redirect (not followed)", status)
        if status >= 500:
            raise Unreachable(f"HTTP {status} from {where}{detail}", status)
        raise Rejected(f"{where} answered {status}{detail}", status)


def check_url(url: str) -> str:
    """``url`` when it is HTTPS, or HTTP to a loopback address; else DashboardError."""
    from urllib.parse import urlsplit

    parts = urlsplit(url or "")
    if parts.scheme == "https" and parts.hostname:
        return url
    if parts.scheme == "http" and parts.hostname and is_loopback(parts.hostname):
        return url
    raise DashboardError(f"tracker URL {url!r} must be https:// (plain http only to a loopback address)")


def host_of(url: str) -> str:
    from urllib.parse import urlsplit

    return urlsplit(url or "").hostname or ""


def is_loopback(host: str) -> bool:
    import ipaddress

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def next_link(link_header: str) -> Optional[str]:
    """The ``rel="next"`` URL of an RFC 8288 ``Link`` header (GitHub's pagination)."""
    for part in link_header.split(","):
        section = part.strip().split(";")
        if len(section) < 2:
            continue
        target = section[0].strip()
        params = [p.strip().replace(" ", "") for p in section[1:]]
        if target.startswith("<") and target.endswith(">") and ('rel="next"' in params or "rel=next" in params):
            return target[1:-1]
    return None


def _origin(url: str) -> str:
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _same_origin(url: str, base: str) -> bool:
    return _origin(url).lower() == _origin(base).lower()


def _path_of(url: str) -> str:
    from urllib.parse import urlsplit

    return urlsplit(url).path


def _tracker_message(raw: bytes) -> str:
    """What an error body says (GitHub ``message``, Jira ``errorMessages``/``errors``), one short line."""
    from cc_hooks.printable import printable

    text = raw[:4096].decode("utf-8", "replace")
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if isinstance(data, dict):
        parts = []
        if isinstance(data.get("message"), str):
            parts.append(data["message"])
        if isinstance(data.get("errorMessages"), list):
            parts += [str(m) for m in data["errorMessages"]]
        if isinstance(data.get("errors"), dict):
            parts += [f"{k}: {v}" for k, v in data["errors"].items()]
        text = "; ".join(parts)
    elif text.lstrip().startswith("<"):
        text = ""  # an HTML error page says nothing a line can carry
    text = " ".join(printable(text).split())
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 1] + "…"


def _rate_limit(status: int, headers: Mapping[str, str], said: str = "") -> Optional[float]:
    """Seconds to wait when the answer is a rate limit (GitHub: 403/429 with
    ``x-ratelimit-remaining: 0``, ``retry-after``, or a message naming a secondary rate limit,
    which asks for a minute; Jira: 429 with ``Retry-After``)."""
    if status not in (403, 429):
        return None
    if status == 403 and "rate limit" in said.lower() and not headers.get("retry-after") and headers.get("x-ratelimit-remaining", "").strip() != "0":
        return 60.0
    retry_after = headers.get("retry-after", "").strip()
    if retry_after.isdigit():
        return float(retry_after)
    if headers.get("x-ratelimit-remaining", "").strip() == "0":
        reset = headers.get("x-ratelimit-reset", "").strip()
        return max(0.0, float(reset) - time.time()) if reset.isdigit() else 60.0
    return 60.0 if status == 429 else None


def _send(method: str, url: str, headers: Mapping[str, str], body: Any, timeout: float, deadline: float) -> tuple[int, dict, bytes]:
    """(status, lower-cased headers, body bytes) of one request, within ``timeout`` in all.

    A socket timeout bounds each wait, not the whole answer (a tracker dripping a byte
    a second never trips it), so the request runs in a daemon thread the caller
    stops waiting for at the deadline."""
    import threading

    outcome: list = []

    def work():
        try:
            outcome.append((True, _send_now(method, url, headers, body, timeout, deadline)))
        except BaseException as exc:  # handed to the caller
            outcome.append((False, exc))

    worker = threading.Thread(target=work, name="cc-hooks-tracker", daemon=True)
    worker.start()
    worker.join(max(0.05, timeout))
    if not outcome:
        raise Unreachable(f"no answer within {timeout:.1f} s")
    ok, value = outcome[0]
    if not ok:
        raise value
    return value


def _send_now(method: str, url: str, headers: Mapping[str, str], body: Any, timeout: float, deadline: float) -> tuple[int, dict, bytes]:
    import socket
    import urllib.error
    import urllib.request
    from urllib.parse import urlsplit

    data = None
    all_headers = {"User-Agent": USER_AGENT, "Accept": "application/json", **headers}
    if body is not None:
        data = json.dumps(body).encode("utf-8")
        all_headers["Content-Type"] = "application/json"
    request = urllib.request.Request(url, data=data, method=method, headers=all_headers)
    handlers: list = [_NoRedirect()]
    if is_loopback(urlsplit(url).hostname or ""):
        handlers.append(urllib.request.ProxyHandler({}))  # a proxy must never see loopback traffic
    opener = urllib.request.build_opener(*handlers)
    try:
        try:
            response = opener.open(request, timeout=max(0.05, timeout))
        except urllib.error.HTTPError as error:
            response = error
        with response:
            raw = _read_body(response, deadline)
            return response.status if hasattr(response, "status") else response.code, {k.lower(): v for k, v in response.headers.items()}, raw
    except TrackerError:
        raise
    except (socket.timeout, TimeoutError):
        raise Unreachable(f"timed out after {timeout:.1f} s") from None
    except urllib.error.URLError as exc:
        reason = exc.reason
        if isinstance(reason, (socket.timeout, TimeoutError)):
            raise Unreachable(f"timed out after {timeout:.1f} s") from None
        raise Unreachable(f"cannot connect: {_os_reason(reason)}") from None
    except (OSError, ValueError) as exc:  # http.client errors are OSError or HTTPException (ValueError-free)
        raise Unreachable(f"connection failed: {_os_reason(exc)}") from None
    except Exception as exc:  # http.client.HTTPException (a malformed status line, a dropped connection)
        raise Unreachable(f"bad HTTP answer: {type(exc).__name__}") from None


def _read_body(response, deadline: float) -> bytes:
    chunks, size = [], 0
    while True:
        if time.monotonic() > deadline:
            raise Unreachable("the answer did not arrive within the time budget")
        chunk = _read1(response)
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > MAX_BODY:
            raise Unreachable(f"answer larger than {MAX_BODY // (1024 * 1024)} MiB")
        chunks.append(chunk)


def _read1(response) -> bytes:
    """What has arrived, up to 64 KiB (``read(n)`` would wait for all n bytes)."""
    reader = getattr(response, "read1", None) or getattr(getattr(response, "fp", None), "read1", None)
    return reader(65536) if reader is not None else response.read(65536)


def _os_reason(reason) -> str:
    if isinstance(reason, OSError) and reason.strerror:
        return reason.strerror.lower()
    return str(reason)[:MAX_MESSAGE] or type(reason).__name__


def _no_redirect_class():
    import urllib.request

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, req, fp, code, msg, headers, newurl):
            return None  # the 3xx comes back as an HTTPError, judged like any other answer

    return NoRedirect


def _NoRedirect():
    return _no_redirect_class()()
