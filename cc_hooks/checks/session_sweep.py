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

from cc_hooks.checks.sweep_record import COMMITTING_RE, EDIT_TOOLS, Call, Sweep  # noqa: F401 (part of this API)

TEST_RE = re.compile(r"\b(pytest|py\.test|unittest|tox|nox|go test|cargo test|mix test|npm (run )?test|yarn test|pnpm test|bun test|"
                     r"deno test|dotnet test|mvn test|gradlew? test|jest|vitest|mocha|rspec|phpunit|ctest|bats|make (check|test))\b")
# A correction of the agent or a constraint the user set: "No, …", "we decided …", a sentence that
# starts "Don't …". Not a correction: "don't forget …", "no problem", "I don't know", "wait for CI".
CORRECTION_RE = re.compile(
    r"^\s*(no|nope|wrong|stop|wait)\s*([,.!;:\u2014-]|$)|^\s*actually\b"
    r"|\b(we (decided|agreed)|i (said|told you|asked you)|that'?s (not (what|right|correct)|wrong)|not what i (asked|meant|wanted)"
    r"|you should(n'?t| not)|why did you|revert (that|this|it)\b|undo (that|this)\b)"
    r"|(^|[.!?;]\s+)(please\s+)?(don'?t|do not|never)\s+(?!forget|worry|mind|hesitate|bother)\w",
    re.IGNORECASE,
)
_NOISE_RE = re.compile(r"\s+(2>&1|2>/dev/null|>/dev/null|1>&2)")
_CD_RE = re.compile(r"^cd\s+(\"[^\"]*\"|'[^']*'|\S+)\s*&&\s*")
# Read-only look-ups ("ls x" failing until a file is written) and version control: not problems solved.
QUERY_PROGRAMS = {"ls", "cat", "head", "tail", "grep", "rg", "find", "which", "type", "command", "test", "[", "stat",
                  "wc", "echo", "pwd", "file", "diff", "readlink", "realpath", "tree", "less", "gh", "git"}
# Telling lines of a failure, strongest first; within a kind, the first occurrence wins.
_ERROR_KINDS = [re.compile(p, re.IGNORECASE if i >= 3 else 0) for i, p in enumerate((
    r"^(FAILED|ERROR) ",  # pytest's short summary
    r"^E {3}",  # pytest's assertion detail
    r"^\*\* \(\w",  # an Elixir exception
    r"^(error|fatal|panic)(\[\w+\])?:",  # compilers, git, go
    r"^[\w.]*(Error|Exception)\b:?",  # a Python exception's last line
    r"^--- FAIL|^not ok\b|assertion|\bassert\b",  # go test, TAP, assertion messages
    r"\b(error|failed|failure|not found|no such file|cannot|could not|denied)\b",
))]
_NOT_ERROR_RE = re.compile(r"^Exit code -?\d+$|\bwarn(ing)?\b|\b0 (failed|failures|errors)\b", re.IGNORECASE)


@dataclass
class Outcome:
    command: str
    error: str  # the telling line of the failure
    failed_at: Optional[str]
    passed_at: Optional[str]
    is_test: bool
    edits: list[str] = field(default_factory=list)  # files edited between failure and success
    recorded_by: Optional[str] = None
    fixed_in: Optional[str] = None  # the session commit that holds the fix, when there is one
    later_errors: list[str] = field(default_factory=list)  # different errors of the retries before it passed

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
    """What makes two commands "the same": the first pipeline stage after a leading
    ``cd DIR &&``, redirections dropped."""
    text = _CD_RE.sub("", command.strip())
    first = re.split(r"\s*(?:\|\|?|&&|;)\s*", text, maxsplit=1)[0]
    first = _NOISE_RE.sub("", first)
    return " ".join(first.split())


def can_be_outcome(key: str) -> bool:
    """Look-ups and version control failing then working is workflow, not a problem solved:
    a push without upstream, an ignored path to add, a commit refused by a lint gate."""
    words = key.split()
    return bool(words) and words[0].rsplit("/", 1)[-1] not in QUERY_PROGRAMS


ERROR_SCAN_CHARS = 8_000


def error_line(output: str) -> str:
    """The line that says what went wrong, by the kinds above; else the first line that is not the exit code."""
    if len(output) > 2 * ERROR_SCAN_CHARS:  # a huge log: the telling line is near its start or its end
        output = output[:ERROR_SCAN_CHARS] + "\n" + output[-ERROR_SCAN_CHARS:]
    lines = [line.strip() for line in output.replace("\\n", "\n").splitlines() if line.strip()]  # some hooks escape newlines
    candidates = [line for line in lines if not _NOT_ERROR_RE.search(line)]
    for kind in _ERROR_KINDS:
        hit = next((line for line in candidates if kind.search(line)), None)
        if hit is not None:
            return hit[:200]
    return (candidates[0] if candidates else (lines[0] if lines else ""))[:200]


MAX_ERRORS = 4


def find_outcomes(calls: list[Call]) -> list[Outcome]:
    """Fail → (edit) → success of the same command: one outcome per streak of failures, with the
    first error and the different errors of the retries (one fix often uncovers the next problem).
    A passing test run also closes the failing runs it covers: `pytest` passing closes
    `pytest tests/test_x.py`."""
    outcomes: list[Outcome] = []
    open_failures: dict[str, list[Call]] = {}
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
        if not can_be_outcome(key):
            continue
        if not call.ok:
            if key not in open_failures:
                open_failures[key] = []
                edits_since[key] = []
            open_failures[key].append(call)
            continue
        is_test = bool(TEST_RE.search(key))
        closed = [k for k in open_failures if k == key or (is_test and k.startswith((key + " ", key + "::")))]
        for failed_key in closed:
            failures = open_failures.pop(failed_key)
            edits = edits_since.pop(failed_key, [])
            if edits:  # no change in between: a flake or a retry, not a solution
                errors = list(dict.fromkeys(error_line(f.output) for f in failures))
                outcomes.append(Outcome(failed_key, errors[0], failures[0].timestamp, call.timestamp,
                                        bool(TEST_RE.search(failed_key)), edits, later_errors=errors[1:MAX_ERRORS]))
    return outcomes


def is_correction(prompt: str) -> bool:
    text = prompt.strip()
    if not text or text.startswith(("<", "/", "[")) or len(text) > 2000:
        return False  # command tags, slash commands, pasted blobs
    return bool(CORRECTION_RE.search(text))


# --- reading the transcript (adapter over helper E's reader) ----------------------


def sweep(ctx) -> Optional[Sweep]:
    """The live part of the transcript, or None when there is none to read (cached per context)."""
    if "sweep" not in ctx.cache:
        ctx.cache["sweep"] = _read(ctx)
    return ctx.cache["sweep"]


def _read(ctx) -> Optional[Sweep]:
    """Helper E's reader on the part after the last compact boundary, turned into a Sweep at once
    (the parsed transcript is not kept: it is the biggest thing the checklist holds)."""
    from pathlib import Path

    if ctx.transcript_path is None or not Path(ctx.transcript_path).is_file():
        return None
    from cc_hooks.checks.transcript_adapter import to_sweep
    from cc_hooks.harness import for_transcript

    return to_sweep(for_transcript(ctx.transcript_path).read_live(ctx.transcript_path), ctx.root)  # a Codex rollout too


def _commits_since(ctx, since: str) -> list[str]:
    """The commits on HEAD since ``since``, remembered by HEAD's commit id (``CheckContext.history``)."""
    args = ("log", f"--since={since}", "--format=%H", "-n", "200", "HEAD")
    if ctx.history is None:
        return ctx.git(*args, check=False).split()
    from cc_hooks.git import GitError, GitTimeout
    from cc_hooks.memo import remember

    try:
        return remember(ctx.state, "session-log", [ctx.history, since], lambda: ctx.git(*args).split())
    except GitTimeout:
        raise
    except GitError:
        return ctx.git(*args, check=False).split()  # as before; a failure is not remembered


def session_edits(ctx) -> list[str]:
    found = sweep(ctx)
    return list(found.edits) if found else []


def session_commits(ctx) -> list[str]:
    """Full shas of the commits this session made: the transcript's commit hints
    resolved by git (when still on HEAD), plus the commits on HEAD made since the
    session first ran a commit-making command. A commit from before that (the
    user's, just before the session asked for work) is not the session's."""
    if "session_commits" in ctx.cache:
        return ctx.cache["session_commits"]
    found = sweep(ctx)
    if found is None or ctx.head.sha is None:
        return []
    shas = []
    if found.first_commit_at:
        shas += _commits_since(ctx, found.first_commit_at)
    if found.commit_hints:
        from cc_hooks.git import object_types

        types = object_types(ctx.root, [f"{hint}^{{commit}}" for hint in found.commit_hints], timeout=ctx.timeout())
        hinted = [value.split()[0] for value in types.values() if value]
        if hinted:  # an amended or rebased-away commit still exists, but it is no longer the session's work
            gone = set(ctx.git("rev-list", *hinted, "--not", "HEAD", check=False).split())
            shas += [sha for sha in hinted if sha not in gone]
    ctx.cache["session_commits"] = list(dict.fromkeys(shas))
    return ctx.cache["session_commits"]
