"""Guard references, resolved against HEAD.

Every SYMPTOMS.md cause carries a **Guard** field. Its forms:

- a pytest id: ``tests/test_x.py::test_y`` (``::Class::method``, ``[param]``);
  a leading ``pytest`` / ``python -m pytest`` is accepted; no other arguments;
- a tracked script with arguments: ``scripts/check.sh --frames 10``, or one
  behind an interpreter (``python scripts/check.py``; ``python``/``python3``
  run as the project's Python: ``cc_hooks.guards.environment``);
- the name of a guard declared in ``.cc-hooks.toml`` (``[guards.NAME]``);
- ``none — <gap>``: explicitly no guard, and why.

When the field holds prose, its first code span is the reference; several
references are separated by ``;``. A reference resolves when its file is
tracked at HEAD (what a fresh clone, and the proof worktree, sees) and, for a
test id, the file defines the test. Guards declared in ``.cc-hooks.toml`` that
no cause names are listed too (linked to an entry by their ``symptom``).
"""

from __future__ import annotations

import os
import posixpath
import re
import shlex
import sys
from dataclasses import MISSING, asdict, dataclass, field
from pathlib import Path
from typing import Iterable, Optional

from cc_hooks.record.questions import READ_TREE

NONE, PYTEST, SCRIPT, CONFIG = "none", "pytest", "script", "config"
DEFAULT_TIMEOUT = 300.0  # SYMPTOMS.md guards; configured guards carry their own
CONFIG_FILE = ".cc-hooks.toml"
PYTHONS = frozenset({"python", "python3"})
INTERPRETERS = PYTHONS | {"sh", "bash", "zsh", "node", "ruby", "perl"}
_PYTEST_PREFIXES = (("python", "-m", "pytest"), ("python3", "-m", "pytest"), ("pytest",), ("py.test",))
_CODE_RE = re.compile(r"`([^`]+)`")
_NONE_RE = re.compile(r"^none\b[\s—–:;,.-]*(.*)$", re.IGNORECASE | re.DOTALL)
_TEST_FILE_RE = re.compile(r"(?:^|/)(?:test_[^/]*|[^/]*_test)\.py$")
_PATHISH_RE = re.compile(r"/|\.[A-Za-z0-9]+$")


@dataclass
class Record:
    """Where a guard's cause is recorded: what an anomaly points the reader at."""

    file: str
    observable: str
    symptom_slug: str
    symptom_line: int
    cause: Optional[str] = None  # "Cause 1: <root cause>"
    cause_line: Optional[int] = None
    fixes: list[str] = field(default_factory=list)


@dataclass
class Guard:
    name: str  # the cause's heading slug (or the configured name)
    kind: str  # pytest | script | config | none
    ref: str  # the reference as written, cleaned
    source: str  # the file that declares it
    line: Optional[int] = None  # of the **Guard** bullet
    argv: list[str] = field(default_factory=list)
    timeout: float = DEFAULT_TIMEOUT
    record: Optional[Record] = None
    config_name: Optional[str] = None
    pointer: Optional[str] = None  # what must resolve at HEAD (test id or script path)
    paths: list[str] = field(default_factory=list)  # repo files that make up the guard
    problem: Optional[str] = None  # why it does not resolve
    gap: Optional[str] = None  # the reason given with "none"
    symptom_text: Optional[str] = None  # a configured guard's `symptom`

    @property
    def runnable(self) -> bool:
        return self.kind != NONE and self.problem is None

    @property
    def needs_trust(self) -> bool:
        """Configured argv can name any program; a test id or tracked script is the repo's own code."""
        return self.kind == CONFIG

    @property
    def fixes(self) -> list[str]:
        return self.record.fixes if self.record else []

    @property
    def where(self) -> str:
        return f"{self.source}:{self.line}" if self.line else self.source

    def to_dict(self) -> dict:
        data = asdict(self)
        data["where"] = self.where
        return data


@dataclass
class Resolution:
    symptoms_file: str
    guards: list[Guard] = field(default_factory=list)
    problem: Optional[str] = None  # the ledger could not be read (missing is not a problem)
    ledger_exists: bool = True

    @property
    def unresolved(self) -> list[Guard]:
        return [g for g in self.guards if g.problem]

    @property
    def runnable(self) -> list[Guard]:
        return [g for g in self.guards if g.runnable]

    def select(self, wanted: Iterable[str]) -> tuple[list[Guard], list[str]]:
        """Guards matching any of ``wanted`` (name, reference, symptom slug or words), and the words matching none."""
        chosen: dict[int, Guard] = {}
        unknown = []
        for word in wanted:
            hits = [g for g in self.guards if matches(g, word)]
            if not hits:
                unknown.append(word)
            chosen.update((id(g), g) for g in hits)
        return [g for g in self.guards if id(g) in chosen], unknown


def matches(guard: Guard, word: str) -> bool:
    if word in (guard.name, guard.ref, guard.pointer, guard.config_name):
        return True
    record = guard.record
    return record is not None and (word == record.symptom_slug or word.lower() in record.observable.lower())


# --- reading the record ---------------------------------------------------------


def resolve_guards(root: str | os.PathLike, config=None, timeout: float = 30.0, tree=READ_TREE,
                   state: Optional[Path] = None) -> Resolution:
    """Every guard of the repo, each resolved against HEAD (a handful of git processes).

    ``tree`` and ``state`` as for ``record.questions.resolve_pointers``; with ``state`` the guards a
    SYMPTOMS.md text declares are also remembered by that text (and the configured guards)."""
    from cc_hooks.record.ledger import read_ledger

    root = Path(root)
    if config is None:
        from cc_hooks.config import load_config

        config = load_config(root)
    path = config.record.symptoms
    resolution = Resolution(path)
    text, problems = read_ledger(root / path, path, root=root)
    if text is None:
        resolution.ledger_exists = not (problems and problems[0].rule == "file-missing")
        if resolution.ledger_exists:
            resolution.problem = problems[0].message if problems else f"cannot read {path}"
    resolution.guards = declared_guards(path, text, config, state)
    resolution.problem = resolution.problem or check_at_head(root, resolution.guards, timeout, tree, state)
    return resolution


def declared_guards(path: str, text: Optional[str], config, state: Optional[Path] = None) -> list[Guard]:
    """The guards of every cause of the SYMPTOMS.md ``text`` (None: unreadable), then the configured
    ones no cause names; not yet checked at HEAD. Remembered by the text and the configuration
    (deriving them splits every cause's Guard field: ~100 ms for 2,000 causes)."""
    import json

    if state is None:
        return _declared_guards(path, text, config)
    from cc_hooks.memo import remember

    configured = json.dumps({name: declared.model_dump(mode="json") for name, declared in config.guards.items()},
                            sort_keys=True)
    stored = remember(state, "guards", [path, "\0" if text is None else "\1" + text, configured, sys.executable, "argv: the project's python"],
                      lambda: _compact(_declared_guards(path, text, config)))
    return _expand(stored)


def _declared_guards(path: str, text: Optional[str], config) -> list[Guard]:
    from cc_hooks.record.markdown import split_lines
    from cc_hooks.record.symptoms import parse_symptoms

    guards: list[Guard] = []
    entries = []
    if text is not None:
        lines = split_lines(text)
        entries = parse_symptoms(text, path).entries
        for entry in entries:
            for index, cause in enumerate(entry.causes, 1):
                guards += cause_guards(path, entry, cause, index, lines, config)
    named = {g.config_name for g in guards if g.config_name}
    for name, declared in sorted(config.guards.items()):
        if name not in named:
            guards.append(configured_guard(name, declared, path, entries))
    return guards


_DEFAULTS = {name: f.default for name, f in Guard.__dataclass_fields__.items() if f.default is not MISSING}


def _compact(guards: list[Guard]) -> dict:
    """JSON for ``guards``: each guard's fields that differ from the defaults, its record by index
    (a cause's record is shared by its guards), a pytest argv by its test id (2,000 guards: ~0.2 MB)."""
    records: list[dict] = []
    index: dict[int, int] = {}
    rows = []
    for guard in guards:
        row = {k: v for k, v in vars(guard).items() if k != "record" and v != _DEFAULTS.get(k, [])}
        if guard.kind == PYTEST and guard.pointer and guard.argv == pytest_argv(guard.pointer):
            del row["argv"]
        if guard.record is not None:
            if id(guard.record) not in index:
                index[id(guard.record)] = len(records)
                records.append(asdict(guard.record))
            row["record"] = index[id(guard.record)]
        rows.append(row)
    return {"records": records, "guards": rows}


def _expand(stored: dict) -> list[Guard]:
    records = [Record(**row) for row in stored["records"]]
    guards = []
    for row in stored["guards"]:
        record = row.pop("record", None)
        guard = Guard(**row, record=records[record] if record is not None else None)
        if guard.kind == PYTEST and guard.pointer and "argv" not in row:
            guard.argv = pytest_argv(guard.pointer)
        guards.append(guard)
    return guards


def cause_guards(path: str, entry, cause, index: int, lines: list[str], config) -> list[Guard]:
    record = Record(
        path, entry.observable, entry.slug, entry.start,
        f"Cause {cause.number if cause.number is not None else index}: {cause.title}".rstrip(": "),
        cause.start, list(cause.shas),
    )
    base = cause.slug or f"{entry.slug}-cause-{index}"
    line = guard_line(lines, cause.start, cause.end)
    if not cause.guard:
        return [Guard(base, NONE, "", path, line or cause.start, record=record,
                      problem="the cause has no **Guard**: name a test or script, or write `none — <why>`")]
    gap, refs = split_references(cause.guard)
    if refs is None:
        problem = None if gap else "`none` without the gap: write `none — <what would detect it, and why it is missing>`"
        return [Guard(base, NONE, cause.guard.strip(), path, line, record=record, gap=gap or None, problem=problem)]
    guards = []
    for number, ref in enumerate(refs, 1):
        guard = classify(ref, config)
        guard.name = base if number == 1 else f"{base}-{number}"
        guard.source, guard.line, guard.record = path, line, record
        guards.append(guard)
    return guards


def guard_line(lines: list[str], start: int, end: int) -> Optional[int]:
    from cc_hooks.record.markdown import match_label

    for number in range(start, min(end, len(lines)) + 1):
        label = match_label(lines[number - 1])
        if label is not None and label.key == "guard":
            return number
    return None


_TEST_ID = r"`?[\w./-]+\.py::[\w\[\].:-]+`?"
_TEST_ID_LIST_RE = re.compile(rf"{_TEST_ID}(?:\s*,\s*{_TEST_ID})+")


def split_references(text: str) -> tuple[str, Optional[list[str]]]:
    """("", [reference, ...]) or (gap, None) for an explicit ``none``."""
    from cc_hooks.record.questions import clean_pointer

    flat = " ".join(text.split())
    none = _NONE_RE.match(flat.replace("`", "").strip())
    if none:
        return none.group(1).strip(), None
    refs = []
    pieces = flat.split(";")
    # "tests/a.py::test_x, tests/b.py::test_y": two test ids, not one with an argument
    pieces = [part for piece in pieces for part in (piece.split(",") if _TEST_ID_LIST_RE.fullmatch(piece.strip()) else [piece])]
    for piece in pieces:
        code = _CODE_RE.search(piece)
        ref = code.group(1).strip() if code else clean_pointer(piece)
        if ref:
            refs.append(ref)
    return "", refs


def classify(ref: str, config) -> Guard:
    """A Guard for one reference (name, source and line are the caller's)."""
    if ref in config.guards:
        declared = config.guards[ref]
        return Guard(ref, CONFIG, ref, "", argv=list(declared.argv), timeout=declared.timeout, config_name=ref)
    try:
        tokens = shlex.split(ref)
    except ValueError as exc:
        return Guard(ref, SCRIPT, ref, "", problem=f"cannot split into arguments ({exc})")
    tokens, said_pytest = drop_pytest_prefix(tokens)
    if not tokens:
        return Guard(ref, PYTEST, ref, "", problem="no test id after `pytest`")
    first = tokens[0]
    if said_pytest or "::" in first or (len(tokens) == 1 and _TEST_FILE_RE.search(first)):
        guard = Guard(ref, PYTEST, ref, "", argv=pytest_argv(first), pointer=first, paths=[first.split("::")[0]])
        if len(tokens) > 1:
            guard.problem = f"a test id takes no arguments (declare `[guards.NAME]` in {CONFIG_FILE} for a command)"
        return guard
    script = tokens[1] if first in INTERPRETERS and len(tokens) > 1 else first
    if not _PATHISH_RE.search(script) or script.startswith("-"):
        return Guard(ref, SCRIPT, ref, "", problem=f"not a test id, a tracked script, or a guard declared in {CONFIG_FILE}")
    argv = list(tokens)
    if argv[0] == script and "/" not in script:
        argv[0] = f"./{script}"  # run the repo's file, not a program of that name on PATH
    return Guard(ref, SCRIPT, ref, "", argv=argv, pointer=script, paths=[posixpath.normpath(script)])


def drop_pytest_prefix(tokens: list[str]) -> tuple[list[str], bool]:
    for prefix in _PYTEST_PREFIXES:
        if tuple(tokens[: len(prefix)]) == prefix:
            rest = [t for t in tokens[len(prefix):] if t not in ("-q", "-x", "-v")]
            return rest, True
    return tokens, False


def pytest_argv(test_id: str) -> list[str]:
    """``python`` is the project's Python, chosen when the guard runs (``guards.environment``)."""
    return ["python", "-m", "pytest", "-q", "-p", "no:cacheprovider", test_id]


def configured_guard(name: str, declared, path: str, entries) -> Guard:
    guard = Guard(name, CONFIG, name, CONFIG_FILE, argv=list(declared.argv), timeout=declared.timeout,
                  config_name=name, symptom_text=declared.symptom)
    wanted = (declared.symptom or "").strip()
    entry = next((e for e in entries if wanted and (wanted == e.slug or wanted.lower() == e.observable.lower())), None)
    if entry is not None:
        guard.record = Record(path, entry.observable, entry.slug, entry.start)
    return guard


def check_at_head(root: Path, guards: list[Guard], timeout: float, tree=READ_TREE, state: Optional[Path] = None) -> Optional[str]:
    """Set ``problem`` on every guard whose file is not tracked at HEAD (or lacks its test).
    Returns why HEAD could not be read, if it could not."""
    from cc_hooks.record.questions import resolve_pointers

    pending = [g for g in guards if g.problem is None and g.pointer]
    if not pending:
        return None
    results = resolve_pointers(root, [g.pointer for g in pending], timeout=timeout, tree=tree, state=state)
    unchecked = next((r.reason for r in results.values() if not r.checked), None)
    if unchecked:
        return unchecked
    for guard in pending:
        result = results.get(guard.pointer)
        if result is not None and result.grade == "FAIL":
            guard.problem = f"`{guard.pointer}`: {result.reason}"
    return None
