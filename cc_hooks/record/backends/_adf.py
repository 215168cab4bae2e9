"""Atlassian Document Format, as much of it as a dashboard needs (Jira Cloud REST v3 descriptions).

``to_adf`` writes the dashboard markdown (``## heading``, ``- bullet``, paragraphs) as an
ADF ``doc``; ``to_text`` reads any ADF back as that markdown, keeping the text of nodes
it does not know (a description edited by hand in Jira still reads).
"""

from __future__ import annotations

import re

_HEADING_RE = re.compile(r"^(#{1,6})\s+(.*)$")
_BULLET_RE = re.compile(r"^\s*[-*+]\s+(.*)$")


def _text_node(text: str) -> dict:
    return {"type": "text", "text": text}


def to_adf(markdown: str) -> dict:
    content: list[dict] = []
    bullets: list[dict] = []

    def flush():
        if bullets:
            content.append({"type": "bulletList", "content": list(bullets)})
            bullets.clear()

    for line in markdown.splitlines():
        if not line.strip():
            flush()
            continue
        heading, bullet = _HEADING_RE.match(line), _BULLET_RE.match(line)
        if bullet:
            bullets.append({"type": "listItem", "content": [{"type": "paragraph", "content": [_text_node(bullet.group(1))]}]})
            continue
        flush()
        if heading:
            content.append({"type": "heading", "attrs": {"level": len(heading.group(1))}, "content": [_text_node(heading.group(2))]})
        else:
            content.append({"type": "paragraph", "content": [_text_node(line)]})
    flush()
    return {"type": "doc", "version": 1, "content": content}


def to_text(node) -> str:
    """The markdown an ADF document says (an empty string for anything that is not one)."""
    if not isinstance(node, dict):
        return node if isinstance(node, str) else ""  # a v2-style plain description
    return "\n".join(_blocks(node.get("content"), depth=0)).strip("\n") + "\n"


def _blocks(nodes, depth: int) -> list[str]:
    lines: list[str] = []
    for node in nodes if isinstance(nodes, list) else []:
        if not isinstance(node, dict):
            continue
        kind = node.get("type")
        if kind == "heading":
            level = node.get("attrs", {}).get("level", 2) if isinstance(node.get("attrs"), dict) else 2
            level = level if isinstance(level, int) and 1 <= level <= 6 else 2
            lines.append("#" * level + " " + _inline(node))
        elif kind in ("bulletList", "orderedList"):
            for item in node.get("content") or []:
                inner = _blocks(item.get("content") if isinstance(item, dict) else None, depth + 1)
                if inner:
                    lines.append("  " * depth + "- " + inner[0].lstrip())
                    lines.extend(inner[1:])
        elif kind == "paragraph":
            lines.append(_inline(node))
        else:
            lines.extend(_blocks(node.get("content"), depth) or ([_inline(node)] if _inline(node) else []))
    return lines


def _inline(node: dict) -> str:
    parts = []
    for child in node.get("content") or []:
        if not isinstance(child, dict):
            continue
        if child.get("type") == "text" and isinstance(child.get("text"), str):
            text = child["text"]
            if any(isinstance(m, dict) and m.get("type") == "code" for m in child.get("marks") or []):
                text = f"`{text}`"
            parts.append(text)
        elif child.get("type") == "hardBreak":
            parts.append(" ")
        else:
            parts.append(_inline(child))
    return " ".join("".join(parts).split())
