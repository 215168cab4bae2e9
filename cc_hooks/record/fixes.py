"""Is a past fix still there? Decided by what the fix did, not by whether its patch reverse-applies.

A fix's patch stops reverse-applying as soon as any context line moves (a formatting
commit, a neighbour's edit), which is no evidence at all that the fix is gone. So the
question is asked of the fix's own lines: are the lines it added still in HEAD, and are
the lines it removed still absent, compared modulo formatting (whitespace, quote style,
string prefixes, line wrapping, trailing commas, and the way a string is formatted:
``"x %s" % y``, ``"x {}".format(y)`` and ``f"x {y}"`` are one line), in the file as HEAD
names it after renames. Three outcomes:

- ``intact``: every line the fix added is in HEAD and no line it removed is back;
- ``rewritten``: some added lines are no longer there, but the commit S that removed them
  put other code in their place, or the lines moved to another file: the fix was reworked,
  not undone (which S and what changed is said);
- ``gone``: S removed the fix's lines and put nothing in their place, or brought back the
  lines the fix removed, or S is a revert of the fix that no later revert undid
  (``record.reverts``): likely a regression.

A recorded guard (``tests/x.py::test_y``) is checked too: whether it is still in HEAD.
Git processes: one ``cat-file --batch`` for every file of every fix (HEAD and the fix's
own version); when some fix's lines are not all there, one ``git grep`` for moved lines and
one ``git log -p`` over those fixes' files naming S (and a rename lookup per fix whose
file vanished).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

INTACT, REWRITTEN, GONE = "intact", "rewritten", "gone"
REVERTED = "reverted by"  # how a gone fix's detail begins when a revert took it out

_PREFIX_RE = re.compile(r"(?<![\w\"'])[fFrRbBuU]{1,2}(?=[\"'])")
_SPACE_RE = re.compile(r"\s+")
_TRAILING_COMMA_RE = re.compile(r",(?=[)\]}])")
_PLACEHOLDER_RE = re.compile(r"%[-#0 +]*\d*(?:\.\d+)?[sdrifxXeEgGc]|\{[^{}\w]*\}")
_TOKEN_RE = re.compile(r"[A-Za-z_]\w*|\d+")
_FORMATTING_TOKENS = frozenset({"f", "r", "b", "u", "rb", "br", "str", "format", "repr"})
_DOC_RE = re.compile(r"(^|/)(docs?|changes?|changelog|news|history|releases?)(/|\.|$)|\.(md|rst|txt|adoc)$", re.I)
_TEST_RE = re.compile(r"(^|/)(tests?|testing|spec)/|(^|/)test_[^/]*$|_test\.\w+$", re.I)
_MANIFEST_RE = re.compile(r"(^|/)(composer|package|package-lock|tsconfig)\.json$|(^|/)(Cargo|pyproject)\.toml$|(^|/)go\.(mod|sum)$|"
                          r"\.(lock|ya?ml|gemspec)$|(^|/)Gemfile$", re.I)
_BARE_KEYWORDS = frozenset("else try finally pass return break continue end fi done do then begin".split())
_GUARD_RE = re.compile(r"([\w./-]+\.\w+)(?:::(\w+))?")


def canonical(line: str, keep_end: bool = False) -> str:
    """A line with its formatting removed: what two formattings of one statement share.
    ``keep_end``: keep a trailing comma (a wrapped line's, which the next line may need)."""
    text = _TRAILING_COMMA_RE.sub("", _SPACE_RE.sub("", _PREFIX_RE.sub("", line.strip()).replace("'", '"')))
    return text if keep_end else text.rstrip(",;\\")


def tokens(line: str) -> list[str]:
    """The names and numbers of a line, in order, without the ones that only format a string."""
    return [t for t in _TOKEN_RE.findall(_PLACEHOLDER_RE.sub(" ", line)) if t not in _FORMATTING_TOKENS]


def significant(line: str) -> bool:
    """A line whose presence says something: not blank, not a lone bracket, keyword or comment marker."""
    text, names = canonical(line), tokens(line)
    return len(text) >= 3 and not set(names) <= _BARE_KEYWORDS and not text.startswith(("#", "//", "/*", "*"))


@dataclass
class FileChange:
    path: str  # in the fix's own tree
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    binary: bool = False


def parse_patch(patch: bytes) -> list[FileChange]:
    """The files of a unified patch (``diff-tree -p``) with their added and removed lines."""
    changes: list[FileChange] = []
    current: Optional[FileChange] = None
    for raw in patch.decode("utf-8", "replace").splitlines():
        if raw.startswith("diff --git "):
            current = FileChange(raw.split(" b/", 1)[-1])
            changes.append(current)
        elif current is None:
            continue
        elif raw.startswith("+++ "):
            current.path = raw[6:] if raw.startswith("+++ b/") else current.path
        elif raw.startswith("--- ") or raw.startswith("@@"):
            continue
        elif raw.startswith("Binary files") or raw.startswith("GIT binary patch"):
            current.binary = True
        elif raw.startswith("+"):
            current.added.append(raw[1:])
        elif raw.startswith("-"):
            current.removed.append(raw[1:])
    return changes


def judged_files(changes: list[FileChange]) -> list[FileChange]:
    """The files that say whether the fix is there: its code, else its tests, else everything."""
    code = [c for c in changes if not _DOC_RE.search(c.path) and not _TEST_RE.search(c.path)]
    tests = [c for c in changes if _TEST_RE.search(c.path)]
    return code or tests or changes


class FileText:
    """A file's lines, searchable modulo formatting and line wrapping."""

    def __init__(self, text: str):
        raw = text.splitlines()
        self.lines = {canonical(line) for line in raw}
        canon = [canonical(line, keep_end=True) for line in raw]
        for i in range(len(canon) - 1):  # `b,` before `)`: the comma a wrapped call adds
            if canon[i].endswith(",") and canon[i + 1][:1] in (")", "]", "}"):
                canon[i] = canon[i][:-1]
        self.joined = "".join(canon)
        self.starts, self.ends, offset = set(), set(), 0
        for line in canon:
            self.starts.add(offset)
            offset += len(line)
            self.ends.add(offset)
        self.token_lines = {tuple(tokens(line)) for line in text.splitlines()}

    def has(self, line: str) -> bool:
        text = canonical(line)
        if text in self.lines or (len(text) >= 12 and text in self.joined) or self._spans_lines(text):
            return True
        names = tuple(tokens(line))
        return len(names) >= 2 and names in self.token_lines

    def _spans_lines(self, text: str) -> bool:
        """``text`` is a run of whole consecutive lines (a statement HEAD wraps)."""
        start = self.joined.find(text)
        while start >= 0:
            if start in self.starts and start + len(text) in self.ends:
                return True
            start = self.joined.find(text, start + 1)
        return False


@dataclass
class Judgement:
    outcome: str  # intact | rewritten | gone | empty
    detail: str
    by: Optional[str] = None  # the commit that rewrote or removed it
    missing: list[str] = field(default_factory=list)  # added lines not in HEAD
    back: list[str] = field(default_factory=list)  # removed lines that are in HEAD again
    paths: dict = field(default_factory=dict)  # fix path -> HEAD path


@dataclass
class _Pending:
    """A fix whose lines are not all in HEAD: who changed them is still to be found."""

    sha: str
    changes: list[FileChange]
    missing: list[str]
    back: list[str]
    paths: dict
    notes: str
    in_head: bool

    @property
    def probe(self) -> str:
        return self.back[0] if self.back else self.missing[0]

    def all_paths(self) -> list[str]:
        return list(dict.fromkeys([*self.paths.values(), *self.paths]))


def judge(root, sha: str, patch: bytes, guard: Optional[str] = None, timeout: float = 30.0,
          blobs: Optional[dict] = None) -> Judgement:
    """The outcome for one fix commit ``sha`` whose first-parent patch is ``patch``."""
    return judge_many(root, [(sha, patch, guard, True)], timeout, blobs)[sha]


def judge_many(root, fixes: list[tuple], timeout: float = 30.0, blobs: Optional[dict] = None) -> dict[str, Judgement]:
    """sha -> Judgement for every ``(sha, patch, guard, in_head)``. ``blobs``: contents already
    read (``prefetch_names``). However many fixes, the moved-line search and the search for the
    commit that changed a fix's lines are one process each."""
    from cc_hooks.git import cat_blobs

    if blobs is None:
        names = [n for sha, patch, guard, _ in fixes for n in (*prefetch_names(sha, patch), *guard_names(guard))]
        blobs = cat_blobs(root, names, timeout=timeout)
    results: dict[str, Judgement] = {}
    pending: list[_Pending] = []
    for sha, patch, guard, in_head in fixes:
        found = _compare(root, sha, patch, guard, blobs, in_head, timeout)
        if isinstance(found, Judgement):
            results[sha] = found
        else:
            pending.append(found)
    movable = [p for p in pending if not p.back]
    moved = _moved(root, [line for p in movable for line in p.missing], timeout) if movable else {}
    searched = []
    for item in pending:
        if not item.back and 2 * sum(line in moved for line in item.missing) >= len(item.missing):
            where = ", ".join(sorted({moved[line] for line in item.missing if line in moved}))
            results[item.sha] = Judgement(REWRITTEN, f"its lines moved to {where}" + item.notes, missing=item.missing, paths=item.paths)
        else:
            item.missing.sort(key=lambda line: line in moved)  # probe a line that did not move
            searched.append(item)
    changed_by = last_changes(root, [p for p in searched if p.in_head], timeout)
    for item in searched:
        results[item.sha] = _verdict(item, changed_by.get(item.sha))
    _moved_by_remover(root, searched, results, timeout)
    _apply_reverts(root, fixes, results, timeout)
    return results


def _apply_reverts(root, fixes: list[tuple], results: dict, timeout: float) -> None:
    """A fix that HEAD's history reverted (and did not restore) is gone, whatever else was rewritten
    around it; one whose lines are all back in HEAD anyway stays intact, saying so."""
    from cc_hooks.record.reverts import reverted

    undone = reverted(root, [sha for sha, _, _, in_head in fixes if in_head and results.get(sha) and results[sha].outcome != "empty"], timeout)
    for sha, (by_sha, by_subject) in undone.items():
        found = results[sha]
        if found.outcome == INTACT:
            found.detail += f"; {by_sha[:12]} \"{by_subject}\" reverted it, but its lines are in HEAD again"
            continue
        results[sha] = Judgement(GONE, f"{REVERTED} {by_sha[:12]} \"{by_subject}\": likely a regression", by_sha,
                                 found.missing, found.back, found.paths)


def brought_names(changes: list[FileChange]) -> set[str]:
    """The names a change's code brought in: its added lines' names that its removed lines lack."""
    return names_of(line for c in changes for line in c.added) - names_of(line for c in changes for line in c.removed)


def carried(brought: set[str], found: set[str]) -> bool:
    """Whether the names ``found`` hold most of the names in ``brought``."""
    return bool(brought) and len(brought & found) * 2 > len(brought)


def names_of(lines) -> set[str]:
    """The names (and words) of the significant ``lines``, longer than two characters."""
    return {t for line in lines if significant(line) for t in tokens(line) if len(t) > 2 and not t.isdigit()}


_DEFINES_RE = re.compile(r"^\s*(?:async\s+)?(?:def|class|function|fn|func)\s+([A-Za-z_]\w*)")
# A name only this code would write: snake_case, camelCase or UPPER_CASE, not a dunder (``stashed_nodes``,
# ``INLINE_PLACEHOLDER``; not ``self``, ``None``, ``close``)
_DISTINCTIVE_RE = re.compile(r"[A-Za-z]\w*_\w+|[a-z]+[A-Z]\w*|[A-Z][A-Z0-9]+(?:_[A-Z0-9]+)*")


def _distinctive(names: set[str]) -> set[str]:
    return {n for n in names if _DISTINCTIVE_RE.fullmatch(n)}


def _defined(lines) -> set[str]:
    """The functions and classes ``lines`` define."""
    return {m.group(1) for line in lines for m in [_DEFINES_RE.match(line)] if m}


def _moved_by_remover(root, searched: list[_Pending], results: dict, timeout: float) -> None:
    """A fix judged gone because a commit removed its lines and added nothing in their place there,
    when that commit's code in other files brings in the fix's distinctive names (snake_case,
    camelCase, UPPER_CASE): most of them, or, when it defines the fix's functions again, one besides
    them. The fix moved (a method taken from a postprocessor into the pattern that feeds it); it is
    rewritten, not gone. ``def close(self)`` in another class, or ``self`` and ``None`` in unrelated
    code, moves nothing. One ``diff-tree --stdin`` for those commits, which only a gone verdict costs."""
    from cc_hooks.git import run_git_bytes

    gone = [item for item in searched if results[item.sha].outcome == GONE and not item.back and results[item.sha].by]
    if not gone:
        return
    shas = list(dict.fromkeys(results[item.sha].by for item in gone))
    proc = run_git_bytes(root, "diff-tree", "--stdin", "-p", "-U0", "--no-color", "--no-ext-diff", "--no-textconv", "--root",
                         "--format=%x1e%H", input="\n".join(shas).encode() + b"\n", timeout=timeout)
    patches = {}
    for record in proc.stdout.split(b"\x1e")[1:]:
        sha, _, patch = record.partition(b"\n")
        patches[sha.decode().strip()] = parse_patch(patch)
    for item in gone:
        judgement = results[item.sha]
        own = set(item.all_paths())
        elsewhere = [c for c in patches.get(judgement.by, []) if c.path not in own and not _TEST_RE.search(c.path) and not _DOC_RE.search(c.path)]
        new_there = brought_names(elsewhere)
        fix_names = _distinctive(brought_names(item.changes))
        defined = {n for n in _defined(line for c in item.changes for line in c.added) if not n.startswith("__")}
        again = bool(defined) and defined <= _defined(line for c in elsewhere for line in c.added) and bool((fix_names - defined) & new_there)
        if again or (len(fix_names) >= 2 and carried(fix_names, new_there)):
            where = ", ".join(sorted({c.path for c in elsewhere if c.added})[:3])
            what = f"defined {', '.join(f'`{name}`' for name in sorted(defined))} again" if again else "wrote most of its names"
            results[item.sha] = Judgement(REWRITTEN, f"moved by {judgement.by[:12]}: it took the fix's lines out of "
                                          f"{', '.join(c.path for c in item.changes)} and {what} in {where}" + item.notes,
                                          judgement.by, item.missing, item.back, item.paths)


def _compare(root, sha: str, patch: bytes, guard: Optional[str], blobs: dict, in_head: bool, timeout: float):
    """A Judgement when the fix's lines settle it, else a _Pending."""
    from cc_hooks.git import cat_blobs

    changes = judged_files(parse_patch(patch))
    if not changes:
        return Judgement("empty", "the commit changes no file")
    paths = {c.path: c.path for c in changes}
    vanished = [c.path for c in changes if blobs.get(f"HEAD:{c.path}") is None and (c.added or c.binary)]
    if vanished and in_head:
        renamed = _renames(root, sha, vanished, timeout)
        paths.update(renamed)
        if renamed:
            blobs = {**blobs, **cat_blobs(root, [f"HEAD:{p}" for p in renamed.values()], timeout=timeout)}
    missing, back, unjudged = [], [], 0
    for change in changes:
        head_blob = blobs.get(f"HEAD:{paths[change.path]}")
        if change.binary:
            if head_blob != blobs.get(f"{sha}:{change.path}"):
                missing.append(f"(binary {change.path})")
            continue
        head_text = FileText(head_blob.decode("utf-8", "replace")) if head_blob is not None else FileText("")
        fix_text = FileText((blobs.get(f"{sha}:{change.path}") or b"").decode("utf-8", "replace"))
        added = [line for line in change.added if significant(line)]
        removed = [line for line in change.removed if significant(line) and not fix_text.has(line)]
        unjudged += not (added or removed)
        missing += [line.strip() for line in added if not head_text.has(line)]
        back += [line.strip() for line in removed if canonical(line) in head_text.lines]
    renamed_note = "; ".join(f"{a} is now {b}" for a, b in paths.items() if a != b)
    guard_note = _guard_note(guard, blobs, root, timeout)
    notes = "".join(f"; {n}" for n in (renamed_note, guard_note) if n)
    absent = [c.path for c in changes if c.added and blobs.get(f"HEAD:{paths[c.path]}") is None]
    code = [c.path for c in changes if c.added and not _MANIFEST_RE.search(c.path)]  # a version bump beside it is no code
    if in_head and absent and (len(absent) == len([c for c in changes if c.added]) or code and set(code) <= set(absent)):
        # Every file the fix added lines to is gone from HEAD under any name git can follow: unless its
        # lines are elsewhere in HEAD (moved), the commit that deleted the file took the fix with it.
        return _deleted(root, changes, absent, paths, notes, timeout)
    if not missing and not back:
        if unjudged == len(changes) and not any(c.binary for c in changes):
            return Judgement("empty", "the commit changes no line that can be compared" + notes, paths=paths)
        return Judgement(INTACT, "its added lines are in HEAD and its removed lines are not (modulo formatting)" + notes, paths=paths)
    return _Pending(sha, changes, missing, back, paths, notes, in_head)


def _deleted(root, changes: list[FileChange], absent: list[str], paths: dict, notes: str, timeout: float) -> Judgement:
    """The fix's files are not in HEAD: moved (its added lines are in other files) or deleted with it."""
    from cc_hooks.git import run_git

    added = [line.strip() for c in changes for line in c.added if significant(line)]
    out = run_git(root, "log", "-1", "--diff-filter=D", "--format=%H%x1f%s", "HEAD", "--", *absent, check=False, timeout=timeout).strip()
    by_sha, _, by_subject = out.partition("\x1f")
    # moved: the commit that deleted the file wrote its lines elsewhere (a line that another file happens to hold is no move)
    written = set(run_git(root, "diff-tree", "--no-commit-id", "--name-only", "-r", by_sha, check=False, timeout=timeout).split()) if by_sha else set()
    same_name = sorted(w for w in written for a in absent if w != a and w.rsplit("/", 1)[-1] == a.rsplit("/", 1)[-1])
    if same_name:  # "move to src directory": the file went on under its name, beyond rename detection; its later rewrites are no removal
        return Judgement(REWRITTEN, f"{by_sha[:12]} \"{by_subject}\" moved {', '.join(absent)} to {', '.join(same_name)}, "
                         f"which no longer has its lines verbatim (rewritten since)" + notes, paths=paths)
    moved = {line: where for line, where in _moved(root, added, timeout).items() if not by_sha or where in written}
    if added and 2 * sum(line in moved for line in added) >= len(added):
        where = ", ".join(sorted(set(moved.values())))
        return Judgement(REWRITTEN, f"{', '.join(absent)} no longer in HEAD; its lines moved to {where}" + notes, paths=paths)
    if not by_sha:
        return Judgement(REWRITTEN, f"{', '.join(absent)} no longer in HEAD (no rename, no deletion found): the code it fixed "
                         f"was moved or removed" + notes, paths=paths)
    return Judgement(GONE, f"{by_sha[:12]} \"{by_subject}\" deleted {', '.join(absent)}, and its lines are nowhere else in HEAD: "
                     f"likely a regression if that code still runs" + notes, by_sha, added, [], paths)


def _verdict(item: _Pending, by: Optional[tuple]) -> Judgement:
    probe, missing, back, notes = item.probe, item.missing, item.back, item.notes
    if by is None:
        # No commit since the fix touched that line: what HEAD holds grew out of it unrecognizably.
        # Without a commit to name there is no evidence of a removal, so no alarm.
        what = f"{len(missing)} added line(s) not found verbatim in HEAD" if missing else f"{len(back)} removed line(s) in HEAD"
        return Judgement(REWRITTEN, f"{what} (first: {probe!r}), but no commit since the fix changed that line" + notes,
                         missing=missing, back=back, paths=item.paths)
    by_sha, by_subject, added_by_s, removed_by_s = by
    removed_by_fix = {canonical(line) for c in item.changes for line in c.removed}
    added_by_fix = {canonical(line) for c in item.changes for line in c.added}
    replacement = [line for line in added_by_s if significant(line) and canonical(line) not in removed_by_fix]
    fix_lines_removed = [line for line in removed_by_s if canonical(line) in added_by_fix]
    around = [line for line in removed_by_s if significant(line) and canonical(line) not in added_by_fix]
    if all(_TEST_RE.search(c.path) for c in item.changes):  # a fix that is only tests: their rework undoes no fix
        return Judgement(REWRITTEN, f"its tests were reworked by {by_sha[:12]} \"{by_subject}\"" + notes, by_sha, missing, back, item.paths)
    if back and not missing and added_by_fix:
        # Everything the fix added still stands; a line it removed exists again somewhere in the file
        # (a common line such as `with ctx:` written anew by later work). That is no undoing of the fix.
        return Judgement(REWRITTEN, f"its added lines are all in HEAD; {by_sha[:12]} \"{by_subject}\" wrote {back[0]!r} "
                         f"again, a line the fix removed: look there if the symptom is back" + notes,
                         by_sha, missing, back, item.paths)
    if not back and not replacement and 2 * len(around) >= len(fix_lines_removed):
        # S deleted the code the fix lived in, not just the fix: the path it fixed is gone, not the fix.
        return Judgement(REWRITTEN, f"{by_sha[:12]} \"{by_subject}\" removed the code around it ({around[0].strip()!r} too): "
                         f"the code path it fixed no longer exists" + notes, by_sha, missing, back, item.paths)
    taken = sum(canonical(line) in {canonical(r) for r in removed_by_s} for line in missing)
    if not back and 2 * taken < len(missing):
        # S took out a few of the missing lines: the rest left in other commits, the fix was reworked over time.
        return Judgement(REWRITTEN, f"{len(missing)} of its lines are not in HEAD; the last commit to touch {probe!r}, {by_sha[:12]} "
                         f"\"{by_subject}\", took out {taken} of them: the rest were rewritten over time" + notes,
                         by_sha, missing, back, item.paths)
    restored = [line for line in added_by_s if significant(line) and canonical(line) in removed_by_fix]
    if back and len(replacement) > len(restored):
        # S wrote more new code there than it restored: a rework that happens to contain a line the
        # fix removed (a refactor's `with ctx:`), not an undoing.
        return Judgement(REWRITTEN, f"rewritten by {by_sha[:12]} \"{by_subject}\": {probe!r} became {replacement[0].strip()!r} "
                         f"(it also wrote {back[0]!r} again, which the fix removed)" + notes, by_sha, missing, back, item.paths)
    if back or not replacement:
        what = (f"brought back {back[0]!r}, which the fix removed" if back
                else f"removed {len(missing)} of the fix's lines (first: {probe!r}) and added nothing in their place")
        return Judgement(GONE, f"{by_sha[:12]} \"{by_subject}\" {what}: likely a regression" + notes, by_sha, missing, back, item.paths)
    return Judgement(REWRITTEN, f"rewritten by {by_sha[:12]} \"{by_subject}\": {probe!r} became {replacement[0].strip()!r}" + notes,
                     by_sha, missing, back, item.paths)


def prefetch_names(sha: str, patch: bytes) -> list[str]:
    """The blob names ``judge`` reads for this fix: each judged file in HEAD and in the fix."""
    changes = judged_files(parse_patch(patch))
    return [name for c in changes for name in (f"HEAD:{c.path}", f"{sha}:{c.path}")]


def guard_names(guard: Optional[str]) -> list[str]:
    match = _GUARD_RE.search(guard or "")
    return [f"HEAD:{match.group(1)}"] if match else []


def _guard_note(guard: Optional[str], blobs: dict, root, timeout: float) -> str:
    from cc_hooks.git import cat_blobs

    match = _GUARD_RE.search(guard or "")
    if not match:
        return ""
    name = f"HEAD:{match.group(1)}"
    content = blobs[name] if name in blobs else cat_blobs(root, [name], timeout=timeout).get(name)
    if content is None:
        return f"its guard {match.group(0)} is not in HEAD"
    if match.group(2) and not re.search(rf"\b{re.escape(match.group(2))}\b", content.decode("utf-8", "replace")):
        return f"its guard {match.group(0)} is not in HEAD"
    return f"its guard {match.group(0)} is in HEAD"


def _renames(root, sha: str, paths: list[str], timeout: float) -> dict[str, str]:
    """fix path -> its name in HEAD, from one rename-detecting diff of the fix's tree against HEAD."""
    from cc_hooks.git import run_git

    out = run_git(root, "diff", "--no-ext-diff", "--no-textconv", "-M", "--name-status", "-z", sha, "HEAD", check=False, timeout=timeout)
    fields, found, i = out.split("\0"), {}, 0
    while i < len(fields) - 1:
        status = fields[i]
        if status.startswith(("R", "C")) and i + 2 < len(fields):
            if fields[i + 1] in paths:
                found[fields[i + 1]] = fields[i + 2]
            i += 3
        else:
            i += 2
    return found


def _moved(root, lines: list[str], timeout: float) -> dict[str, str]:
    """line -> a HEAD file holding it verbatim (modulo leading space), from one ``git grep``."""
    from cc_hooks.git import run_git

    probes = [line for line in lines if len(line) >= 8][:20]
    if not probes:
        return {}
    args = ["grep", "-F", "-I", "--no-color", "-z", "-H"]
    for line in probes:
        args += ["-e", line]
    out = run_git(root, *args, "HEAD", "--", check=False, timeout=timeout)
    found = {}
    for record in out.splitlines():
        name, _, text = record.partition("\0")
        name = name.split(":", 1)[-1] if name.startswith("HEAD:") else name
        for line in probes:
            if line in text and line not in found:
                found[line] = name
    return found


def last_changes(root, items: list[_Pending], timeout: float) -> dict[str, tuple]:
    """``_last_changes``, remembered (``cc_hooks.memo.remember_log``) for this set of fixes and
    probes: at a new HEAD only the commits since the last tip are searched, and a change found
    there is newer than any found before. The walk over the fixes' files since the oldest fix
    is the costly part of a triage (seconds on 50k commits); the history it read does not change."""
    from cc_hooks.memo import remember_log

    if not items:
        return {}
    keys = {item.sha: f"{item.sha}\0{item.probe}\0" + "\0".join(sorted(item.all_paths())) for item in items}

    def derive(revs, previous):
        if previous is None or ".." not in revs[0]:
            found = _last_changes(root, items, timeout)
        else:
            found = {sha: tuple(v) for sha, v in previous.items()}
            found.update(_last_changes(root, items, timeout, since=revs[0].split("..")[0]))
        return {sha: list(v) for sha, v in found.items()}

    remembered = remember_log(root, "fix-last-changes", sorted(keys.values()), derive, timeout=timeout)
    return {sha: tuple(v) for sha, v in remembered.items()}


def _last_changes(root, items: list[_Pending], timeout: float, since: Optional[str] = None) -> dict[str, tuple[str, str, list[str], list[str]]]:
    """sha -> (sha, subject, the lines it added to and removed from the fix's files) of the newest commit after
    the fix whose diff adds or removes a line holding the fix's probe line. One ``git log -p``
    over the fixes' files since the oldest of them, newest first (descendants before ancestors);
    ``since``: only the commits after that one (every fix is its ancestor)."""
    from cc_hooks.git import run_git

    if not items:
        return {}
    paths = list(dict.fromkeys(p for item in items for p in item.all_paths()))
    excluded = [f"^{sha}" for sha in ([since] if since else _oldest(root, [item.sha for item in items], timeout))]
    out = run_git(root, "log", "--topo-order", "-M", "--no-ext-diff", "--no-textconv", "-p", "-U0", "--no-color",
                  f"--format=\x1e%H\x1f%s", "HEAD", *excluded, "--", *paths, check=False, timeout=timeout)
    entries = []  # (sha, subject, {path: (added, removed)})
    for record in out.split("\x1e")[1:]:
        header, _, diff = record.partition("\n")
        sha, _, subject = header.partition("\x1f")
        files: dict[str, tuple[list[str], list[str]]] = {}
        for change in parse_patch(diff.encode("utf-8")):
            files[change.path] = (change.added, change.removed)
        entries.append((sha, subject, files))
    position = {sha: i for i, (sha, _, _) in enumerate(entries)}
    found = {}
    for item in items:
        probe, wanted = item.probe, set(item.all_paths())
        for sha, subject, files in entries[: position.get(item.sha, len(entries))]:
            touched = [files[p] for p in wanted if p in files]
            if any(probe in line for added, removed in touched for line in (*added, *removed)):
                found[item.sha] = (sha, subject, [line for added, _ in touched for line in added],
                                   [line for _, removed in touched for line in removed])
                break
    return found


def _oldest(root, shas: list[str], timeout: float) -> list[str]:
    """The fixes no other fix descends from: the log since them covers every fix's later history."""
    from cc_hooks.git import run_git

    if len(shas) == 1:
        return shas
    out = run_git(root, "rev-list", "--no-walk", *shas, check=False, timeout=timeout).split()
    return out[-1:] if out else []


def _basic_regex(text: str) -> str:
    """``text`` as a POSIX basic regular expression matching itself (what ``log -G`` takes)."""
    return re.sub(r"([.\[\]*^$\\])", r"\\\1", text)
