"""The report, in the methodology's shape (§5 step 4): markdown, rich for a terminal, JSON.

```
## Cold-Start Audit — <date>

Score: <passes>/<total>  (weak: N, fail: N)

| Question | Grade | Where the answer lives | Remediation |
|---|---|---|---|

**Lossy knowledge detected** (FAIL/WEAK items):
- ...
```
"""

from __future__ import annotations

import json
import time

from cc_hooks.audit.result import FAIL, PASS, WEAK, AuditResult, Graded

REPORT_NAME = "COLDSTART_AUDIT.md"
NOTHING_ASKED = ("no questions: the record is empty (add SYMPTOMS.md, DECISIONS.md or COLDSTART_QUESTIONS.md "
                 "entries, or pass --question); an empty audit is not a PASS")


def _cell(text: str) -> str:
    return " ".join(str(text or "").split()).replace("|", "\\|") or "—"


def _flags(item: Graded) -> str:
    return "".join(f" [{flag}]" for flag in item.flags)


def _date(result: AuditResult) -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(result.created))


def header(result: AuditResult) -> str:
    head = (result.head or "?")[:12]
    how = "the program and the cold-start agent" if result.agent else "the program (no agent: run with --agent for a cold read)"
    return f"Audited `{head}` from a fresh-clone view (ignored and uncommitted files absent), graded by {how}."


def lossy_lines(result: AuditResult) -> list[str]:
    lines = []
    for item in result.gaps:
        remedy = item.remediation or "record the answer on the highest rung that fits"
        lines.append(f"- **{item.grade}**{_flags(item)} {item.question.text} — {remedy}")
    return lines


def set_aside_lines(result: AuditResult) -> list[str]:
    """The mined questions the agent set aside, each with its reason: shown, so a wrong call can be seen."""
    return [f"- {item['question']} — {item['why_not']}" for item in result.set_aside]


def render_markdown(result: AuditResult) -> str:
    out = [f"## Cold-Start Audit — {_date(result)}", "", header(result), "", result.score_line, "",
           "| Question | Grade | Where the answer lives | Remediation |", "|---|---|---|---|"]
    for item in result.graded:
        remedy = item.remediation if item.grade != PASS else ""
        out.append(f"| {_cell(item.question.text)} | {item.grade}{_flags(item)} | {_cell(item.where)} | {_cell(remedy)} |")
    out.append("")
    lossy = lossy_lines(result)
    if not result.graded:
        out.append(f"**Lossy knowledge detected**: unknown — {NOTHING_ASKED}")
    elif lossy:
        out += ["**Lossy knowledge detected** (FAIL/WEAK items):", *lossy]
    else:
        out.append("**Lossy knowledge detected**: none — every question is answered at ladder levels 1-3.")
    if result.set_aside:
        out += ["", f"**Set aside by the agent** ({len(result.set_aside)} mined question(s) it judged not worth asking; "
                    "not graded):", *set_aside_lines(result)]
    for note in result.notes:
        out += ["", f"_Note: {note}_"]
    return "\n".join(out) + "\n"


def report_file_text(result: AuditResult) -> str:
    """COLDSTART_AUDIT.md: the newest report only (rewritten by every ``--write-report``)."""
    return ("# Cold-start audit\n\n<!-- written by `cc-hooks audit --write-report`; rewritten, not appended, "
            "on every run -->\n\n" + render_markdown(result))


def render_json(result: AuditResult) -> str:
    return json.dumps(result.to_dict(), indent=2, ensure_ascii=False)


def print_rich(result: AuditResult, console=None) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    console = console or Console()
    style = {PASS: "green", WEAK: "yellow", FAIL: "bold red"}
    table = Table(title=f"Cold-Start Audit — {_date(result)}", show_lines=False)
    table.add_column("Question", overflow="fold", ratio=3)
    table.add_column("Grade", no_wrap=True)
    table.add_column("Where the answer lives", overflow="fold", ratio=2)
    table.add_column("Remediation", overflow="fold", ratio=2)
    for item in result.graded:
        grade = f"[{style[item.grade]}]{item.grade}[/]{escape(_flags(item))}"
        table.add_row(escape(item.question.text), grade, escape(item.where or "—"),
                      escape(item.remediation if item.grade != PASS else ""))
    console.print(escape(header(result)))
    console.print(table)
    console.print(f"[bold]{escape(result.score_line)}[/]")
    lossy = lossy_lines(result)
    if not result.graded:
        console.print(f"[yellow]{escape(NOTHING_ASKED)}[/]")
    elif lossy:
        console.print("[bold]Lossy knowledge detected[/] (FAIL/WEAK items):")
        for line in lossy:
            console.print(escape(line.replace("**", "")))
    else:
        console.print("[green]Lossy knowledge detected: none.[/]")
    if result.set_aside:
        console.print(f"[bold]Set aside by the agent[/] ({len(result.set_aside)} mined question(s) it judged not worth asking; not graded):")
        for line in set_aside_lines(result):
            console.print(escape(line))
    for note in result.notes:
        console.print(f"[dim]{escape(note)}[/]")
