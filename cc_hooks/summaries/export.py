"""``summaries export``: one self-contained document of a session, its summaries, audits and reports.

Markdown: every transcript text sits in a fenced block whose fence is longer than any backtick run
inside it, and inline values are code spans nothing inside can close (``printable.quote``), so no
transcript text renders as markup. HTML: one file, no script, no external resource (a
Content-Security-Policy of ``default-src 'none'`` says so to the browser too), and every text is
passed through ``printable`` and then ``html.escape``.
"""

from __future__ import annotations

import html
import json
import os
import re
from dataclasses import dataclass
from typing import Iterator, Optional

MAX_BLOCK = 20_000  # characters of one tool input or result kept in the document
CSS = """
body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222;background:#fff}
pre{white-space:pre-wrap;word-break:break-word;background:#f6f6f6;padding:.6rem;border-radius:4px;margin:.3rem 0}
.turn{border-left:3px solid #ccc;padding-left:.8rem;margin:1rem 0}.user{border-color:#4a7}.assistant{border-color:#47a}
.tool{border-color:#aaa;font-size:90%}.compaction{border:2px solid #a74;padding:.8rem;margin:1.5rem 0;border-radius:6px}
.v-CONTRADICTED{color:#b00;font-weight:bold}.v-UNVERIFIED{color:#a60}.v-VERIFIED{color:#070}
.meta{color:#666;font-size:90%}
""".strip()


@dataclass
class Entry:
    kind: str  # "user" | "assistant" | "tool_use" | "tool_result" | "compaction"
    text: str = ""
    name: str = ""  # tool name
    timestamp: Optional[str] = None
    number: int = 0  # compaction number


def conversation(path, compactions) -> Iterator[Entry]:
    """The person-readable turns of a transcript in file order, a compaction where its boundary is."""
    from cc_hooks.transcript.lines import file_chunks, iter_raw_lines
    from cc_hooks.transcript.reader import content_blocks, is_boundary, parse_line, result_text

    numbers = {c.boundary_uuid: c.number for c in compactions if c.boundary_uuid}
    summaries = {c.summary_uuid: c.number for c in compactions if c.summary_uuid}
    with open(path, "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        for _, raw in iter_raw_lines(file_chunks(handle, size)):
            if b'"user"' not in raw and b'"assistant"' not in raw and b'"compact_boundary"' not in raw:
                continue
            record = parse_line(raw)
            if record is None:
                continue
            when = record.get("timestamp") if isinstance(record.get("timestamp"), str) else None
            if is_boundary(record):
                yield Entry("compaction", timestamp=when, number=numbers.get(record.get("uuid"), 0))
                continue
            kind = record.get("type")
            if kind not in ("user", "assistant") or record.get("isMeta") or record.get("isSidechain"):
                continue
            if record.get("isCompactSummary"):
                if record.get("uuid") in summaries and not any(n == summaries[record["uuid"]] for n in numbers.values()):
                    yield Entry("compaction", timestamp=when, number=summaries[record["uuid"]])
                continue
            for block in content_blocks(record):
                btype = block.get("type")
                if btype == "text" and str(block.get("text", "")).strip():
                    yield Entry(kind, str(block.get("text")), timestamp=when)
                elif btype == "tool_use":
                    text = json.dumps(block.get("input"), ensure_ascii=False, indent=1)
                    yield Entry("tool_use", _cap(text), str(block.get("name", "")), when)
                elif btype == "tool_result":
                    yield Entry("tool_result", _cap(result_text(block)), timestamp=when)


def _cap(text: str) -> str:
    return text if len(text) <= MAX_BLOCK else text[:MAX_BLOCK] + f"\n… ({len(text) - MAX_BLOCK} more characters)"


def _fence(text: str) -> str:
    from cc_hooks.printable import printable

    body = printable(text).rstrip("\n")
    longest = max((len(run) for run in re.findall(r"`+", body)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{body}\n{fence}"


def _entries(session, verdicts_of) -> list:
    """(entry, compaction or None) in document order; compactions never reached in the file at the end."""
    by_number = {c.number: c for c in session.compactions}
    shown, out = set(), []
    if session.transcript:
        try:
            for entry in conversation(session.transcript, session.compactions):
                compaction = by_number.get(entry.number) if entry.kind == "compaction" else None
                if compaction is not None:
                    shown.add(compaction.number)
                out.append((entry, compaction))
        except OSError:
            pass
    for compaction in session.compactions:
        if compaction.number not in shown:
            out.append((Entry("compaction", number=compaction.number), compaction))
    return out


def render_markdown(session, verdicts_of) -> str:
    from cc_hooks.printable import quote
    from cc_hooks.summaries.render import annotated, counts_line, report_heading, verdict_line

    out = [f"# Claude Code session {quote(session.session_id)}", ""]
    if session.transcript:
        out.append(f"- transcript: {quote(session.transcript, 1000)}")
    if session.cwd:
        out.append(f"- directory: {quote(session.cwd, 1000)}")
    out += [f"- compactions: {len(session.compactions)}", ""]
    for entry, compaction in _entries(session, verdicts_of):
        if entry.kind == "compaction":
            if compaction is None:
                out += ["## Compaction (not matched)", ""]
                continue
            found = verdicts_of(compaction)
            out += [f"## Compaction {compaction.number}: {compaction.time or 'time unknown'}", "",
                    f"- trigger: {quote(compaction.trigger or 'unknown')}; tokens before: {compaction.pre_tokens}",
                    f"- summary: {len(compaction.summary)} characters; from {', '.join(compaction.sources)}",
                    f"- claims ({found.how}): {counts_line(found.counts)}", "", "### Summary, with each claim's verdict", ""]
            lines = []
            for line, claims in annotated(compaction.summary, found.claims):
                lines.append(line)
                lines += [f"    {verdict_line(c)}" for c in claims]
            out += [_fence("\n".join(lines)), ""]
            if found.missing:
                out += ["Lost in the summary:", ""]
                out += [f"- {quote(i.get('text', ''), 600)}" for i in found.missing if isinstance(i, dict)]
                out.append("")
            out += ["### Rehydration report", "", report_heading(compaction), ""]
            if compaction.report:
                out += [_fence(compaction.report["report"]), ""]
            continue
        title = {"user": "**User**", "assistant": "**Assistant**", "tool_result": "*Tool result*"}.get(entry.kind)
        if entry.kind == "tool_use":
            title = f"*Tool call* {quote(entry.name)}"
        when = f" {quote(entry.timestamp)}" if entry.timestamp else ""
        out += [f"{title}{when}", "", _fence(entry.text), ""]
    return "\n".join(out).rstrip() + "\n"


def _esc(text) -> str:
    from cc_hooks.printable import printable

    return html.escape(printable(str(text)), quote=True)


def render_html(session, verdicts_of) -> str:
    from cc_hooks.summaries.render import annotated, counts_line, report_heading, verdict_line

    title = f"Claude Code session {_esc(session.session_id)}"
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">",
           '<meta name="referrer" content="no-referrer">', f"<title>{title}</title>", f"<style>{CSS}</style>",
           "</head><body>", f"<h1>{title}</h1>", '<ul class="meta">']
    if session.transcript:
        out.append(f"<li>transcript: <code>{_esc(session.transcript)}</code></li>")
    if session.cwd:
        out.append(f"<li>directory: <code>{_esc(session.cwd)}</code></li>")
    out += [f"<li>compactions: {len(session.compactions)}</li>", "</ul>"]
    for entry, compaction in _entries(session, verdicts_of):
        if entry.kind == "compaction":
            if compaction is None:
                continue
            found = verdicts_of(compaction)
            out += ['<section class="compaction">',
                    f"<h2>Compaction {compaction.number}: {_esc(compaction.time or 'time unknown')}</h2>",
                    f'<p class="meta">trigger: {_esc(compaction.trigger or "unknown")}; tokens before: '
                    f"{_esc(compaction.pre_tokens)}; summary: {len(compaction.summary)} characters; from "
                    f"{_esc(', '.join(compaction.sources))}</p>",
                    f"<p>claims ({_esc(found.how)}): {_esc(counts_line(found.counts))}</p>",
                    "<h3>Summary, with each claim's verdict</h3>", "<pre>"]
            for line, claims in annotated(compaction.summary, found.claims):
                out.append(_esc(line))
                for claim in claims:
                    verdict = claim.get("verdict") if claim.get("verdict") in ("CONTRADICTED", "UNVERIFIED", "VERIFIED") else "UNVERIFIED"
                    out.append(f'<span class="v-{verdict}">    {_esc(verdict_line(claim))}</span>')
            out.append("</pre>")
            if found.missing:
                out.append("<p>Lost in the summary:</p><ul>")
                out += [f"<li>{_esc(i.get('text', ''))}</li>" for i in found.missing if isinstance(i, dict)]
                out.append("</ul>")
            out += ["<h3>Rehydration report</h3>", f"<p>{_esc(report_heading(compaction))}</p>"]
            if compaction.report:
                out.append(f"<pre>{_esc(compaction.report['report'])}</pre>")
            out.append("</section>")
            continue
        css = {"user": "user", "assistant": "assistant"}.get(entry.kind, "tool")
        label = {"user": "User", "assistant": "Assistant", "tool_result": "Tool result"}.get(entry.kind)
        if entry.kind == "tool_use":
            label = f"Tool call {_esc(entry.name)}"
        out += [f'<div class="turn {css}"><div class="meta">{label} {_esc(entry.timestamp or "")}</div>',
                f"<pre>{_esc(entry.text)}</pre></div>"]
    out.append("</body></html>")
    return "\n".join(out) + "\n"
