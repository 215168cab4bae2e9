"""The session sweep (methodology §2 item 1, the part a program can do): read the
live part of the transcript (helper E's reader) and find

- outcomes: a command that failed and later succeeded with a file edit in between
  (a problem and its solution), a failing test that then passes;
- the commits the session made, and the files it edited but did not commit;
- the user's corrections of the agent (in real user prompts only).

Git and the structured tool results are the evidence; prompt wording is used
only for corrections. This module reads; `checks.session` judges.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Optional

TEST_RE = re.compile(r"\b(pytest|py\.test|unittest|tox|nox|go test|cargo test|npm (run )?test|yarn test|pnpm test|jest|vitest|mocha|rspec|phpunit|ctest|make (check|test))\b")
EDIT_TOOLS = {"Edit", "Write", "MultiEdit", "NotebookEdit"}
CORRECTION_RE = re.compile(
    r"^\s*(no|nope|stop|wrong|actually|wait)\b|\b(don'?t|do not|never|we decided|i said|i told you|that'?s (not|wrong)|"
    r"not what i|instead of|you should(n'?t| not)|please don'?t)\b",
    re.IGNORECASE,
)
_NOISE_RE = re.compile(r"\s+(2>&1|2>/dev/null|>/dev/null|1>&2)")
_ERROR_LINE_RE = re.compile(r"(FAILED|FAIL\b|Error|error:|ERROR|Traceback|AssertionError|exception|panic:|not found|No such file)", re.IGNORECASE)


@dataclass
class Call:
    """One tool call and its result, as the sweep needs it."""

    index: int
    name: str
    command: Optional[str]  # Bash
    file: Optional[str]  # Edit/Write
    ok: bool
    output: str
    timestamp: Optional[str] = None


@dataclass
class Outcome:
    command: str
    error: str  # the telling line of the failure
    failed_at: Optional[str]
    passed_at: Optional[str]
    is_test: bool
    edits: list[str] = field(default_factory=list)  # files edited between failure and success
    recorded_by: Optional[str] = None

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class Correction:
    text: str
    timestamp: Optional[str]
    recorded_by: Optional[str] = None

    def to_dict(self) -> dict:
        return asdict(self)


def command_key(command: str) -> str:
    """What makes two commands "the same": the first pipeline stage, redirections dropped."""
    first = re.split(r"\s*(?:\|\|?|&&|;)\s*", command.strip(), maxsplit=1)[0]
    first = _NOISE_RE.sub("", first)
    first = re.sub(r"^(cd \S+\s*&&\s*)", "", first)
    return " ".join(first.split())


def error_line(output: str) -> str:
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    headed = [line for line in lines if line.startswith(("FAILED ", "ERROR ", "E   "))]  # test runners' verdict lines
    telling = [line for line in lines if _ERROR_LINE_RE.search(line) and not line.startswith("Exit code")]
    line = headed[0] if headed else (telling[-1] if telling else (lines[0] if lines else ""))
    return line[:200]


def find_outcomes(calls: list[Call]) -> list[Outcome]:
    """Fail → (edit) → success of the same command; the latest success closes the earliest open failure."""
    outcomes: list[Outcome] = []
    open_failures: dict[str, Call] = {}
    edits_since: dict[str, list[str]] = {}
    for call in calls:
        if call.name in EDIT_TOOLS and call.file:
            for key in edits_since:
                if call.file not in edits_since[key]:
                    edits_since[key].append(call.file)
            continue
        if call.name != "Bash" or not call.command:
            continue
        key = command_key(call.command)
        if not key:
            continue
        if not call.ok:
            if key not in open_failures:
                open_failures[key] = call
                edits_since[key] = []
            continue
        failure = open_failures.pop(key, None)
        edits = edits_since.pop(key, [])
        if failure is not None and edits:  # no change in between: a flake or a retry, not a solution
            outcomes.append(Outcome(key, error_line(failure.output), failure.timestamp, call.timestamp,
                                    bool(TEST_RE.search(key)), edits))
    return outcomes


def is_correction(prompt: str) -> bool:
    text = prompt.strip()
    if not text or text.startswith(("<", "/", "[")) or len(text) > 2000:
        return False  # command tags, slash commands, pasted blobs
    return bool(CORRECTION_RE.search(text))


# --- reading the transcript (adapter over helper E's reader) ----------------------


@dataclass
class Sweep:
    calls: list[Call]
    prompts: list[tuple[str, Optional[str]]]  # (text, timestamp) of real user prompts
    edits: list[str]  # repo-relative paths edited in the session
    commit_hints: list[str]  # sha prefixes the session printed for its commits
    started: Optional[str]  # timestamp of the first live line


def sweep(ctx) -> Optional[Sweep]:
    """The live part of the transcript, or None when there is none to read (cached per context)."""
    if "sweep" not in ctx.cache:
        ctx.cache["sweep"] = _read(ctx)
    return ctx.cache["sweep"]


def _read(ctx) -> Optional[Sweep]:
    live = ctx.live
    if live is None:
        return None
    from cc_hooks.checks.transcript_adapter import to_sweep

    return to_sweep(live, ctx.root)


def session_edits(ctx) -> list[str]:
    found = sweep(ctx)
    return list(found.edits) if found else []


def session_commits(ctx) -> list[str]:
    """Full shas of the commits this session made: the transcript's commit hints
    resolved by git, plus commits on HEAD committed since the live part began."""
    found = sweep(ctx)
    if found is None or ctx.head.sha is None:
        return []
    shas = []
    if found.started:
        out = ctx.git("log", f"--since={found.started}", "--format=%H", "-n", "200", "HEAD", check=False)
        shas += out.split()
    if found.commit_hints:
        from cc_hooks.git import object_types

        types = object_types(ctx.root, [f"{hint}^{{commit}}" for hint in found.commit_hints], timeout=ctx.timeout())
        shas += [value.split()[0] for value in types.values() if value]
    return list(dict.fromkeys(shas))
