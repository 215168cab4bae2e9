"""``summaries show``: a summary with each claim's verdict under its line, then the report injected after it.

The verdicts are the audit PostCompact made at the compaction (stored with the capture); for a
compaction without one (cc-hooks not installed yet, or ``--now``) the same extraction and verifier
run now against the repository (``cc_hooks.claims``). Every text from a transcript, the state
directory or the repository passes through ``printable`` and reaches rich only as ``Text``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

VERDICT_STYLE = {"CONTRADICTED": "bold red", "UNVERIFIED": "yellow", "VERIFIED": "green"}
AT_COMPACTION = "the audit made at the compaction"
NOW = "verified now against the repository"


@dataclass
class Verdicts:
    claims: list = field(default_factory=list)  # Claim.to_dict() records
    how: str = AT_COMPACTION
    counts: dict = field(default_factory=dict)
    missing: list = field(default_factory=list)  # must-keep items the summary lost (audit only)
    preserve_total: int = 0


def verdicts(compaction, root=None, config=None, seconds: float = 20.0, now: bool = False) -> Verdicts:
    """The claims of a compaction's summary with their verdicts: the stored audit, else checked now."""
    audit = compaction.audit
    if audit and not now and isinstance(audit.get("claims"), list):
        return Verdicts([c for c in audit["claims"] if isinstance(c, dict)], AT_COMPACTION,
                        dict(audit.get("counts") or {}), list(audit.get("missing") or []),
                        int(audit.get("preserve_total") or 0))
    from cc_hooks.claims.extract import extract_from_text
    from cc_hooks.claims.model import counts
    from cc_hooks.claims.verify import verify_claims
    from cc_hooks.runtime import Deadline

    claims = extract_from_text(compaction.summary, source="summary")
    if root is not None and config is not None:
        verify_claims(root, claims, config, Deadline(seconds))
    return Verdicts([c.to_dict() for c in claims], NOW if root is not None else "not verified", counts(claims))


def counts_line(counts: dict) -> str:
    if not counts:
        return "no audit"
    return (f"{counts.get('VERIFIED', 0)} verified, {counts.get('CONTRADICTED', 0)} contradicted, "
            f"{counts.get('UNVERIFIED', 0)} unverified")


def annotated(text: str, claims: list) -> list[tuple[str, list]]:
    """Each line of ``text`` with the claims extracted from it (claims carry their 1-based line)."""
    by_line: dict = {}
    for claim in claims:
        by_line.setdefault(claim.get("line"), []).append(claim)
    lines = text.splitlines() or [""]
    rows = [(line, by_line.pop(number, [])) for number, line in enumerate(lines, start=1)]
    leftover = [c for found in by_line.values() for c in found]  # a line number past the text: still shown
    if leftover:
        rows.append(("", leftover))
    return rows


def verdict_line(claim: dict) -> str:
    from cc_hooks.printable import clean

    return f"↳ {claim.get('verdict', 'UNVERIFIED')}: {clean(claim.get('evidence', ''))}"


def header(session, compaction, found: Verdicts) -> list[str]:
    from cc_hooks.printable import clean

    total = len(session.compactions)
    lines = [f"Session {clean(session.session_id)}, compaction {compaction.number} of {total}",
             f"time: {compaction.time or 'unknown'}  trigger: {clean(compaction.trigger or 'unknown')}  "
             f"tokens before: {compaction.pre_tokens if compaction.pre_tokens is not None else 'unknown'}  "
             f"summary: {len(compaction.summary)} chars",
             f"from: {', '.join(compaction.sources)}"]
    if session.transcript:
        lines.append(f"transcript: {clean(session.transcript)}")
    audit = f"claims ({found.how}): {counts_line(found.counts)}"
    if found.preserve_total:
        audit += f"; {len(found.missing)} of {found.preserve_total} must-keep item(s) missing from the summary"
    lines.append(audit)
    return lines


def report_heading(compaction) -> str:
    from datetime import datetime, timezone

    report = compaction.report
    if not report:
        return "No rehydration report kept for this compaction (cc-hooks was not installed, or SessionStart did not run)."
    when = datetime.fromtimestamp(report["epoch"], timezone.utc).strftime("%Y-%m-%d %H:%M:%SZ")
    cut = " (cut: longer than what cc-hooks keeps)" if report.get("cut") else ""
    return f"Rehydration report the model received after it ({when}){cut}:"


def render_plain(session, compaction, found: Verdicts) -> str:
    from cc_hooks.printable import clean, printable

    out = header(session, compaction, found)
    out.append("")
    out.append("Summary:")
    for line, claims in annotated(compaction.summary, found.claims):
        out.append(f"  {printable(line).rstrip()}".rstrip())
        out += [f"      {verdict_line(c)}" for c in claims]
    if found.missing:
        out.append("Lost in the summary (must-keep items of the checkpoint it does not mention):")
        out += [f"  - {clean(item.get('text', ''))}" for item in found.missing if isinstance(item, dict)]
    out.append("")
    out.append(report_heading(compaction))
    if compaction.report:
        out += [f"  {line}".rstrip() for line in printable(compaction.report["report"]).splitlines()]
    return "\n".join(out) + "\n"


def print_rich(session, compaction, found: Verdicts, console=None) -> None:
    from rich.console import Console
    from rich.panel import Panel
    from rich.text import Text

    from cc_hooks.printable import printable

    console = console or Console()
    head = header(session, compaction, found)
    console.print(Text(head[0], style="bold"))
    for line in head[1:]:
        console.print(Text(line, style="dim" if not line.startswith("claims") else ""))
    body = Text()
    for line, claims in annotated(compaction.summary, found.claims):
        body.append(printable(line).rstrip() + "\n")
        for claim in claims:
            body.append("    " + verdict_line(claim) + "\n", style=VERDICT_STYLE.get(claim.get("verdict"), ""))
    console.print(Panel(body, title="Summary", title_align="left"))
    if found.missing:
        from cc_hooks.printable import clean

        console.print(Text("Lost in the summary (must-keep items it does not mention):", style="bold red"))
        for item in found.missing:
            if isinstance(item, dict):
                console.print(Text(f"  - {clean(item.get('text', ''))}"))
    console.print(Text(report_heading(compaction), style="bold"))
    if compaction.report:
        console.print(Panel(Text(printable(compaction.report["report"])), title="Rehydration report", title_align="left"))
