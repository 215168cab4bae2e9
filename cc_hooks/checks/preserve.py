"""The "preserve verbatim" items PreCompact hands the summarizer, and the test
PostCompact applies: did each item's key tokens (sha prefixes, commands, paths)
survive into the summary?"""

from __future__ import annotations

import re

from cc_hooks.checks.result import FAIL, CheckResult

MAX_ITEMS = 25
SHA_PREFIX = 7
_SHA_RE = re.compile(r"(?<![\w/.-])(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}(?![\w/-])")
_TICKED_RE = re.compile(r"`([^`\n]{2,200})`")


def preserve_items(results: list[CheckResult]) -> list[dict]:
    """One item per preservable finding of a FAILed check, deduplicated, in checklist order."""
    items, seen = [], set()
    for result in results:
        if result.status != FAIL:
            continue
        for finding in result.findings:
            text = str(finding)
            if not finding.preserve or text in seen:
                continue
            seen.add(text)
            items.append({"check": result.id, "text": text, "tokens": key_tokens(finding)})
    return items


def key_tokens(finding) -> dict:
    """{"shas": [...], "others": [...]}: what must appear in a summary that kept the item."""
    text = finding.message
    shas = {s[:SHA_PREFIX] for s in _SHA_RE.findall(text)}
    if finding.commit:
        shas.add(finding.commit[:SHA_PREFIX])
    others = []
    if finding.command:
        others.append(finding.command)
    if finding.file:
        others.append(finding.file)
    if not shas and not others:  # nothing structured: the quoted names are the keys
        others += [t for t in _TICKED_RE.findall(text) if not _SHA_RE.fullmatch(t)]
    return {"shas": sorted(shas), "others": list(dict.fromkeys(others))}


def survived(item: dict, summary: str) -> bool:
    """Every sha prefix is in the summary, and (if the item names any) one of its commands/paths."""
    tokens = item.get("tokens") or {}
    lowered = summary.lower()
    if any(sha.lower() not in lowered for sha in tokens.get("shas", [])):
        return False
    others = tokens.get("others") or []
    if not others:
        return bool(tokens.get("shas")) or _words_survived(item.get("text", ""), lowered)
    squashed = _squash(summary)
    return any(_squash(token) in squashed or _basename(token) in lowered for token in others)


def missing_items(items: list[dict], summary: str) -> list[dict]:
    return [item for item in items if isinstance(item, dict) and not survived(item, summary)]


def _squash(text: str) -> str:
    return " ".join(text.lower().split())


def _basename(token: str) -> str:
    base = token.strip().rsplit("/", 1)[-1].lower()
    return base if "." in base and len(base) > 3 else "\0never"


def _words_survived(text: str, lowered: str) -> bool:
    words = [w for w in re.findall(r"[a-z0-9_]{5,}", text.lower())]
    return bool(words) and sum(w in lowered for w in words) >= max(1, len(words) // 2)
