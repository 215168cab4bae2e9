"""What the reader of a compaction summary sees: the model's scratch work (``<analysis>``) and the
``<summary>`` wrapper taken out, in time linear in the summary (a summary is the model's text,
and a lazy ``<analysis>.*?</analysis>`` pattern retried at every unclosed opening is quadratic:
9 s on 100 kB of ``<analysis>``)."""

from __future__ import annotations

import re

_ANALYSIS_TAG_RE = re.compile(r"<(/?)analysis>", re.IGNORECASE)
_SUMMARY_TAG_RE = re.compile(r"</?summary>", re.IGNORECASE)


def without_analysis(text: str) -> str:
    """``text`` without each ``<analysis>`` … ``</analysis>`` block (an unclosed one stays)."""
    parts, kept, opened = [], 0, None
    for tag in _ANALYSIS_TAG_RE.finditer(text):
        if not tag.group(1) and opened is None:
            opened = tag.start()
        elif tag.group(1) and opened is not None:
            parts.append(text[kept:opened])
            kept, opened = tag.end(), None
    parts.append(text[kept:])
    return "".join(parts)


def visible_summary(summary: str) -> str:
    return _SUMMARY_TAG_RE.sub("", without_analysis(summary))
