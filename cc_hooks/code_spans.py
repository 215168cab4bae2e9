"""Markdown code spans in one line, found in time linear in the line (CommonMark's rule).

A run of N backticks opens a span that the next run of exactly N backticks closes; a run with no
such partner is literal text. The obvious pattern, ``(`+)(.+?)\\1``, retries every shorter opening
at every position: on a line of 12,000 backticks it ran for minutes inside one ``re`` call, which
holds the interpreter's lock (issue 42). Here every run is visited once and every closing candidate
is skipped at most once.
"""

from __future__ import annotations

import re
from collections import defaultdict, deque
from typing import NamedTuple

_RUN_RE = re.compile(r"`+")


class Span(NamedTuple):
    start: int  # of the opening run
    end: int  # after the closing run
    inner: str  # the text between the runs, as written

    @property
    def token(self) -> str:
        return self.inner.strip()


def code_spans(line: str) -> list[Span]:
    """The code spans of ``line``, left to right."""
    if "`" not in line:
        return []
    runs = [match.span() for match in _RUN_RE.finditer(line)]
    later: dict[int, deque] = defaultdict(deque)  # run length -> indices of the runs of that length
    for index, (start, end) in enumerate(runs):
        later[end - start].append(index)
    spans, index = [], 0
    while index < len(runs):
        start, end = runs[index]
        partners = later[end - start]
        while partners and partners[0] <= index:
            partners.popleft()
        if not partners:
            index += 1
            continue
        closing = partners.popleft()
        spans.append(Span(start, runs[closing][1], line[end:runs[closing][0]]))
        index = closing + 1
    return spans


def blank_spans(line: str, spans: list[Span] | None = None) -> str:
    """``line`` with every code span replaced by spaces (offsets kept)."""
    spans = code_spans(line) if spans is None else spans
    if not spans:
        return line
    parts, last = [], 0
    for span in spans:
        parts += [line[last:span.start], " " * (span.end - span.start)]
        last = span.end
    parts.append(line[last:])
    return "".join(parts)
