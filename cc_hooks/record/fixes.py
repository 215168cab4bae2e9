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
  lines the fix removed: likely a regression.

A recorded guard (``tests/x.py::test_y``) is checked too: whether it is still in HEAD.
Git processes: one ``cat-file --batch`` for every file of every fix (HEAD and the fix's
own version), plus, only for a fix whose lines are not all there, a rename lookup, a
``git grep`` for moved lines, and a ``log -S`` and a ``show`` naming S.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

INTACT, REWRITTEN, GONE = "intact", "rewritten", "gone"

_PREFIX_RE = re.compile(r"(?<![\w\"'])[fFrRbBuU]{1,2}(?=[\"'])")
_SPACE_RE = re.compile(r"\s+")
_TRAILING_COMMA_RE = re.compile(r",(?=[)\]}])")
_PLACEHOLDER_RE = re.compile(r"%[-#0 +]*\d*(?:\.\d+)?[sdrifxXeEgGc]|\{[^{}\w]*\}")
_TOKEN_RE = re.compile(r"[A-Za-z_]\w*|\d+")
_FORMATTING_TOKENS = frozenset({"f", "r", "b", "u", "rb", "br", "str", "format", "repr"})
_DOC_RE = re.compile(r"(^|/)(docs?|changes?|changelog|news|history|releases?)(/|\.|$)|\.(md|rst|txt|adoc)$", re.I)
_TEST_RE = re.compile(r"(^|/)(tests?|testing|spec)/|(^|/)test_[^/]*$|_test\.\w+$", re.I)
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


def judge(root, sha: str, patch: bytes, guard: Optional[str] = None, timeout: float = 30.0,
          blobs: Optional[dict] = None) -> Judgement:
    """The outcome for one fix commit ``sha`` whose first-parent patch is ``patch``. ``blobs``:
    contents already read (``prefetch_names``), so a batch of fixes costs one cat-file."""
    from cc_hooks.git import cat_blobs

    changes = judged_files(parse_patch(patch))
    if not changes:
        return Judgement("empty", "the commit changes no file")
    if blobs is None:
        blobs = cat_blobs(root, prefetch_names(sha, patch), timeout=timeout)
    paths = {c.path: c.path for c in changes}
    vanished = [c.path for c in changes if blobs.get(f"HEAD:{c.path}") is None and (c.added or c.binary)]
    if vanished:
        renamed = _renames(root, sha, vanished, timeout)
        paths.update(renamed)
        extra = cat_blobs(root, [f"HEAD:{p}" for p in renamed.values()], timeout=timeout) if renamed else {}
        blobs = {**blobs, **extra}
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
    if not missing and not back:
        if unjudged == len(changes) and not any(c.binary for c in changes):
            return Judgement("empty", "the commit changes no line that can be compared" + notes, paths=paths)
        return Judgement(INTACT, "its added lines are in HEAD and its removed lines are not (modulo formatting)" + notes, paths=paths)
    moved = _moved(root, missing, timeout) if missing and not back else {}
    if moved and len(moved) == len(missing):
        where = ", ".join(sorted(set(moved.values())))
        return Judgement(REWRITTEN, f"its lines moved to {where}" + notes, missing=missing, paths=paths)
    probe = back[0] if back else next(line for line in missing if line not in moved)
    by = _last_change(root, sha, probe, [paths[c.path] for c in changes] + [c.path for c in changes], timeout)
    if by is None:
        # No commit since the fix touched that line: what HEAD holds grew out of it unrecognizably.
        # Without a commit to name there is no evidence of a removal, so no alarm.
        what = f"{len(missing)} added line(s) not found verbatim in HEAD" if missing else f"{len(back)} removed line(s) in HEAD"
        return Judgement(REWRITTEN, f"{what} (first: {probe!r}), but no commit since the fix changed that line" + notes,
                         missing=missing, back=back, paths=paths)
    by_sha, by_subject, added_by_s = by
    removed_by_fix = {canonical(line) for c in changes for line in c.removed}
    replacement = [line for line in added_by_s if significant(line) and canonical(line) not in removed_by_fix]
    if back or not replacement:
        what = (f"brought back {back[0]!r}, which the fix removed" if back
                else f"removed {len(missing)} of the fix's lines (first: {probe!r}) and added nothing in their place")
        return Judgement(GONE, f"{by_sha[:12]} \"{by_subject}\" {what}: likely a regression" + notes, by_sha, missing, back, paths)
    return Judgement(REWRITTEN, f"rewritten by {by_sha[:12]} \"{by_subject}\": {probe!r} became {replacement[0].strip()!r}" + notes,
                     by_sha, missing, back, paths)


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


def _last_change(root, sha: str, line: str, paths: list[str], timeout: float) -> Optional[tuple[str, str, list[str]]]:
    """(sha, subject, lines it added to those paths) of the newest commit after ``sha`` whose
    diff adds or removes a line holding ``line`` (``log -G``), or None."""
    from cc_hooks.git import run_git

    paths = list(dict.fromkeys(paths))
    out = run_git(root, "log", "-1", "--no-ext-diff", "--no-textconv", "-M", "--format=%H%x1f%s", f"-G{_basic_regex(line)}",
                  f"{sha}..HEAD", "--", *paths, check=False, timeout=timeout).strip()
    if "\x1f" not in out:
        return None
    by_sha, subject = out.splitlines()[0].split("\x1f", 1)
    shown = run_git(root, "show", "--no-ext-diff", "--no-textconv", "-M", "--format=", "--first-parent", "-m", by_sha, "--", *paths,
                    check=False, timeout=timeout)
    added = [raw[1:] for raw in shown.splitlines() if raw.startswith("+") and not raw.startswith("+++")]
    return by_sha, subject, added


def _basic_regex(text: str) -> str:
    """``text`` as a POSIX basic regular expression matching itself (what ``log -G`` takes)."""
    return re.sub(r"([.\[\]*^$\\])", r"\\\1", text)
