"""The state directory's side of the summaries: PostCompact's captures and SessionStart's reports.

``reports/<session>/<stamp>.json`` holds the rehydration report exactly as the model received it
(the ``additionalContext`` of SessionStart's output), with its source and its one-line message.
Bounded: a report's text is cut at ``MAX_REPORT_CHARS`` and a session keeps its newest
``KEEP_REPORTS``. Standard library only: ``save_report`` runs on the hook path.
"""

from __future__ import annotations

import json
import os
import re
import time
from typing import Optional

KEEP_REPORTS = 20
MAX_REPORT_CHARS = 200_000
_STAMP_RE = re.compile(r"^(\d{8}T\d{6})(\d{6})Z")


def report_dir(directory, session_id: str):
    from pathlib import Path

    from cc_hooks.state import state_key

    return Path(directory) / "reports" / state_key(session_id)


def save_report(directory, session_id: str, source: str, hook_stdout: str) -> None:
    """Keep the report a SessionStart output carries (atomically; the oldest beyond the bound go)."""
    from cc_hooks.state import stamp, write_json

    try:
        output = json.loads(hook_stdout)
    except ValueError:
        return
    specific = output.get("hookSpecificOutput") if isinstance(output, dict) else None
    text = specific.get("additionalContext") if isinstance(specific, dict) else None
    if not isinstance(text, str):
        return
    folder = report_dir(directory, session_id)
    record = {"session_id": session_id, "source": source, "report": text[:MAX_REPORT_CHARS],
              "cut": len(text) > MAX_REPORT_CHARS, "system_message": output.get("systemMessage")}
    write_json(folder / f"{stamp()}.json", record)
    _prune(folder)


def _prune(folder) -> None:
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith(".json") and not n.startswith("."))
    except OSError:
        return
    for name in names[:-KEEP_REPORTS]:
        try:
            os.unlink(os.path.join(folder, name))
        except OSError:
            pass


def stamp_seconds(stem: str) -> Optional[float]:
    """``cc_hooks.state.stamp`` (``20261201T080059123456Z``) as epoch seconds."""
    import calendar

    match = _STAMP_RE.match(stem)
    if not match:
        return None
    try:
        whole = calendar.timegm(time.strptime(match.group(1), "%Y%m%dT%H%M%S"))
    except ValueError:
        return None
    return whole + int(match.group(2)) / 1e6


def _records(folder) -> list[tuple[float, str, dict]]:
    from pathlib import Path

    from cc_hooks.state import read_json

    found = []
    try:
        paths = sorted(Path(folder).glob("*.json"))
    except OSError:
        return found
    for path in paths:
        when = stamp_seconds(path.stem)
        data = read_json(path)
        if when is not None and isinstance(data, dict):
            found.append((when, str(path), data))
    return found


def captures(directory, session_id: str) -> list[tuple[float, str, dict]]:
    """(time, path, capture) of PostCompact's captures of a session, oldest first."""
    from cc_hooks.state import state_key

    return [c for c in _records(directory / "summaries" / state_key(session_id)) if isinstance(c[2].get("summary"), str)]


def reports(directory, session_id: str) -> list[tuple[float, str, dict]]:
    """(time, path, record) of the reports SessionStart injected in a session, oldest first."""
    return [r for r in _records(report_dir(directory, session_id)) if isinstance(r[2].get("report"), str)]


def state_sessions(directory) -> list[str]:
    """Session keys that have captures or reports."""
    names: set = set()
    for kind in ("summaries", "reports"):
        try:
            names.update(n for n in os.listdir(directory / kind) if not n.startswith("."))
        except OSError:
            continue
    return sorted(names)
