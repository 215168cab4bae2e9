"""Move an existing TODO.md / ROADMAP.md-style queue into the dashboard (one dashboard, not two).

The method keeps one mutable-state file: the dashboard's QUEUED section. A repository that already
has a ``TODO.md`` (``ROADMAP.md``, ``TASKS.md``, ``BACKLOG.md``; ``.md``, ``.txt`` or no suffix, at
the top of the work tree) has a second one. ``cc-hooks init`` lists its open items (a dry run);
``cc-hooks init --migrate`` queues each as ``- YYYY-MM-DD — <item>`` in a file dashboard and
removes it from the old file, which keeps whatever else it held plus one line saying where the
queue went. Checked items (``- [x]``) are done: history, not queue; they stay where they are.
"""

from __future__ import annotations

import datetime
import re
from pathlib import Path
from typing import Optional

STEMS = frozenset({"todo", "roadmap", "tasks", "backlog"})
SUFFIXES = frozenset({"", ".md", ".markdown", ".txt"})
MAX_ITEMS = 200
_ITEM_RE = re.compile(r"^(?:[-*+]|\d+[.)])\s+(?:\[(?P<box>[ xX])\]\s+)?(?P<text>\S.*)$")
_QUEUED_RE = re.compile(r"^##\s+QUEUED\b", re.IGNORECASE)
_HEADING_RE = re.compile(r"^(#{1,2})\s")


class Item:
    __slots__ = ("line", "end", "text")

    def __init__(self, line: int, end: int, text: str):
        self.line, self.end, self.text = line, end, text  # 0-based first and last line


def candidates(root: Path, dashboard: Optional[str]) -> list[Path]:
    found = []
    for path in sorted(root.iterdir()):
        if path.is_file() and not path.is_symlink() and path.name != dashboard:
            stem, suffix = (path.stem, path.suffix) if path.suffix.lower() in SUFFIXES else (path.name, "")
            if stem.lower() in STEMS and suffix.lower() in SUFFIXES:
                found.append(path)
    return found


def open_items(lines: list[str]) -> list[Item]:
    """Top-level list items not checked off; an item's indented continuation lines join it."""
    items: list[Item] = []
    in_fence = False
    index = 0
    while index < len(lines) and len(items) < MAX_ITEMS:
        line = lines[index]
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
        match = None if in_fence or line[:1].isspace() else _ITEM_RE.match(line.rstrip())
        if match is None:
            index += 1
            continue
        parts, end = [match.group("text").strip()], index
        while end + 1 < len(lines) and lines[end + 1][:1].isspace() and lines[end + 1].strip():
            end += 1
            parts.append(re.sub(r"^(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?", "", lines[end].strip()))
        if (match.group("box") or " ") == " ":
            items.append(Item(index, end, "; ".join(parts)))
        index = end + 1
    return items


def migrate(root: Path, execute: bool, today: Optional[str] = None) -> list:
    """One Action per queue file found (and the dashboard, when items moved)."""
    from cc_hooks.actions import Action, write_text
    from cc_hooks.config import ConfigError, load_config
    from cc_hooks.record.dashboard import find_declaration

    try:
        config = load_config(root)
    except ConfigError:
        return []
    declaration, _ = find_declaration(root, config)
    dashboard = declaration.locator if declaration.backend == "file" else None
    today = today or datetime.date.today().isoformat()
    actions = []
    for path in candidates(root, dashboard):
        text = path.read_bytes().decode("utf-8", errors="surrogateescape")
        newline = "\r\n" if "\r\n" in text else "\n"
        lines = text.split(newline)
        items = open_items(lines)
        if not items:
            continue
        where = dashboard or f"the {declaration.backend} dashboard"
        preview = [f"- {item.text}" for item in items[:5]] + ([f"... and {len(items) - 5} more"] if len(items) > 5 else [])
        if not execute or dashboard is None:
            how = ("`cc-hooks init --migrate` moves them there" if dashboard
                   else f"move them by hand: the dashboard backend is `{declaration.backend}`")
            actions.append(Action("found", path.name, f"{len(items)} open item(s), a second queue beside {where}; {how}",
                                  more=preview))
            continue
        _queue(root, dashboard, [f"- {today} — {item.text} (from {path.name})" for item in items])
        write_text(root, path.name, newline.join(_without(lines, items, dashboard, today)))
        actions.append(Action("migrated", path.name, f"{len(items)} open item(s) moved to {dashboard}; it now says so"))
        actions.append(Action("updated", dashboard, f"{len(items)} item(s) queued from {path.name}"))
    return actions


def _queue(root: Path, dashboard: str, new: list[str]) -> None:
    from cc_hooks.actions import write_text

    path = root / dashboard
    text = path.read_bytes().decode("utf-8", errors="surrogateescape")
    newline = "\r\n" if "\r\n" in text else "\n"
    lines = text.split(newline)
    start = next((i for i, line in enumerate(lines) if _QUEUED_RE.match(line)), None)
    if start is None:
        while lines and not lines[-1].strip():
            lines.pop()
        lines += ["", "## QUEUED", *new, ""]
    else:
        end = next((i for i in range(start + 1, len(lines)) if _HEADING_RE.match(lines[i])), len(lines))
        last = end
        while last > start + 1 and not lines[last - 1].strip():
            last -= 1
        lines[last:last] = new
    write_text(root, dashboard, newline.join(lines))


def _without(lines: list[str], items: list[Item], dashboard: str, today: str) -> list[str]:
    gone = {n for item in items for n in range(item.line, item.end + 1)}
    kept = [line for n, line in enumerate(lines) if n not in gone]
    note = f"The open items moved to `{dashboard}` (its QUEUED section) on {today}: one dashboard, not two."
    at = next((i + 1 for i, line in enumerate(kept[:20]) if line.startswith("# ")), 0)
    following_blank = at < len(kept) and not kept[at].strip()
    kept[at:at] = (["", note] if following_blank else ["", note, ""]) if at else [note, ""]
    return kept
