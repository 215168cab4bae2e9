"""COLDSTART_QUESTIONS.md: each question's pointers resolved against the repo at HEAD.

Line form (DESIGN.md): ``- <question> → <pointer>[; <pointer>...]`` (``->``
accepted). A pointer is ``path``, ``path:line`` (or ``path:a-b``),
``path#heading-slug``, ``path::test_name`` (``path::Class::test``) or a commit
sha. What a fresh clone would see decides: the file must be in HEAD's tree
(so neither ignored nor uncommitted), inside the repo (no absolute paths, no
``..``, no symlink leading out), and the line, heading or test must exist. A
commit alone is WEAK: the answer is only git-log prose.

Grades per question: FAIL if any pointer fails (a missing artifact), else PASS
if any pointer passes, else WEAK. Git work is batched: a handful of processes
whatever the number of lines.
"""

from __future__ import annotations

import os
import posixpath
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Optional

if TYPE_CHECKING:  # pragma: no cover
    from cc_hooks.record.findings import Finding

PASS, WEAK, FAIL = "PASS", "WEAK", "FAIL"
MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdx", ".mkd", ".mdown")
_SYMLINK_MODE = "120000"
READ_TREE = object()  # the default ``tree`` of resolve_pointers: read HEAD's tree
_SHA_RE = re.compile(r"^[0-9a-f]{7,40}$")
_LINE_RE = re.compile(r"^(.*?):(\d+)(?:-(\d+))?$")
_LINK_RE = re.compile(r"^\[[^\]]*\]\(([^)\s]+)[^)]*\)$")
_ANNOTATION_RE = re.compile(r"\s+\([^()]*\)$")
_BULLET_RE = re.compile(r"^\s*[-*+]\s+(.*)$")


@dataclass
class PointerResult:
    pointer: str
    kind: str  # "path", "line", "heading", "test", "commit" or "invalid"
    grade: str
    reason: str
    path: Optional[str] = None  # the repo path it resolved to, when it did
    checked: bool = True  # False when git failed: the FAIL grade then means "could not look"


@dataclass
class Question:
    line: int
    question: str
    pointers: list[str]
    results: list[PointerResult] = field(default_factory=list)
    grade: str = FAIL
    reason: str = ""


@dataclass
class QuestionsReport:
    file: str
    exists: bool
    questions: list[Question] = field(default_factory=list)
    findings: list["Finding"] = field(default_factory=list)

    @property
    def counts(self) -> dict[str, int]:
        counts = {PASS: 0, WEAK: 0, FAIL: 0}
        for question in self.questions:
            counts[question.grade] += 1
        return counts

    @property
    def all_pass(self) -> bool:
        return self.exists and bool(self.questions) and all(q.grade == PASS for q in self.questions)

    def to_dict(self) -> dict:
        data = asdict(self)
        data["findings"] = [f.model_dump() for f in self.findings]
        data["counts"] = self.counts
        return data


# --- parsing -----------------------------------------------------------------------


def parse_questions(text: str, file: str = "COLDSTART_QUESTIONS.md") -> tuple[list[Question], list["Finding"]]:
    """Every list item is a question; one without an arrow or pointer is a finding (never raises)."""
    from cc_hooks.record.findings import finding
    from cc_hooks.record.markdown import Document

    doc = Document.parse(text)
    questions, findings = [], []
    for number, line in enumerate(doc.lines, 1):
        if number in doc.hidden:
            continue
        bullet = _BULLET_RE.match(line)
        if not bullet or line[:1].isspace():
            continue
        body = bullet.group(1)
        arrow = "→" if "→" in body else "->" if "->" in body else None
        if arrow is None:
            findings.append(finding(file, number, "question-no-arrow", "no `→ pointer` on this question"))
            questions.append(Question(number, body.strip(), [], grade=FAIL, reason="no pointer (`→ path`)"))
            continue
        question, _, rest = body.partition(arrow)
        pointers = [p for p in (clean_pointer(raw) for raw in rest.split(";")) if p]
        if not pointers:
            findings.append(finding(file, number, "question-no-pointer", "the arrow points at nothing"))
        questions.append(Question(number, question.strip(), pointers, reason="" if pointers else "no pointer after the arrow"))
    return questions, findings


def clean_pointer(raw: str) -> str:
    """Drop a trailing ``(note)``, backticks and a markdown link's text."""
    pointer = raw.strip()
    link = _LINK_RE.match(pointer)
    if link:
        pointer = link.group(1)
    pointer = _ANNOTATION_RE.sub("", pointer).strip().strip("`").strip()
    if pointer.lower().startswith("commit "):
        pointer = pointer[len("commit ") :].strip()
    return pointer


# --- resolving ----------------------------------------------------------------------


@dataclass
class _Target:
    pointer: str
    kind: str
    path: str = ""
    line: Optional[int] = None
    end_line: Optional[int] = None
    anchor: str = ""
    names: tuple[str, ...] = ()


def split_pointer(pointer: str) -> _Target:
    if _SHA_RE.match(pointer):
        return _Target(pointer, "commit", path=pointer)
    if "::" in pointer:
        path, *names = pointer.split("::")
        return _Target(pointer, "test", path, names=tuple(re.sub(r"\[.*\]$", "", n).strip() for n in names))
    if "#" in pointer:
        path, _, anchor = pointer.partition("#")
        return _Target(pointer, "heading", path, anchor=anchor.strip())
    match = _LINE_RE.match(pointer)
    if match:
        end = int(match.group(3)) if match.group(3) else None
        return _Target(pointer, "line", match.group(1), int(match.group(2)), end)
    return _Target(pointer, "path", pointer)


def path_problem(path: str) -> Optional[str]:
    """Why ``path`` cannot be a repo path, or None."""
    if not path:
        return "no path"
    if re.match(r"^[a-z][a-z0-9+.-]*://", path, re.IGNORECASE):
        return "a URL, not a file in the repository"
    if path.startswith(("/", "~", "\\")) or re.match(r"^[A-Za-z]:[\\/]", path):
        return "absolute path (pointers are relative to the repository root)"
    normalized = posixpath.normpath(path.replace("\\", "/"))
    if normalized == ".." or normalized.startswith("../"):
        return "escapes the repository (`..`)"
    return None


class _Tree:
    """HEAD's tree: one ``ls-tree``, plus the targets of its symlinks (one ``cat-file``)."""

    def __init__(self, root: Path, timeout: float):
        from cc_hooks.git import run_git
        from cc_hooks.git import cat_blobs

        import hashlib

        self.entries: dict[str, tuple[str, str]] = {}  # path -> (mode, sha)
        self.dirs: set[str] = set()
        out = run_git(root, "ls-tree", "-r", "-z", "--full-tree", "HEAD", timeout=timeout)
        # Every path, mode and blob id at HEAD: what anything resolved against this tree depends on.
        self.digest = hashlib.sha256(out.encode("utf-8", "surrogateescape")).hexdigest()
        for record in out.split("\0"):
            meta, tab, path = record.partition("\t")
            if not tab:
                continue
            mode, _, sha = meta.split(" ", 2)
            self.entries[path] = (mode, sha)
            parts = path.split("/")
            self.dirs.update("/".join(parts[:i]) for i in range(1, len(parts)))
        links = [sha for mode, sha in self.entries.values() if mode == _SYMLINK_MODE]
        blobs = cat_blobs(root, links, timeout=timeout) if links else {}
        self.links = {sha: (data or b"").decode("utf-8", "surrogateescape") for sha, data in blobs.items()}

    def resolve(self, path: str) -> tuple[Optional[str], str]:
        """(resolved path, "") or (None, reason); symlinks followed inside the tree only."""
        path = posixpath.normpath(path.replace("\\", "/")).lstrip("/")
        for _ in range(40):
            parts = path.split("/")
            for i in range(1, len(parts) + 1):
                prefix = "/".join(parts[:i])
                entry = self.entries.get(prefix)
                if entry and entry[0] == _SYMLINK_MODE:
                    target = self.links.get(entry[1], "")
                    if target.startswith("/"):
                        return None, f"symlink `{prefix}` points outside the repository ({target})"
                    joined = posixpath.normpath(posixpath.join(posixpath.dirname(prefix), target, *parts[i:]))
                    if joined == ".." or joined.startswith("../"):
                        return None, f"symlink `{prefix}` points outside the repository ({target})"
                    path = joined
                    break
            else:
                if path in self.entries or path in self.dirs:
                    return path, ""
                return None, ""
        return None, "symlink loop"


def check_questions(
    root: str | os.PathLike,
    path: Optional[str] = None,
    config=None,
    timeout: float = 30.0,
    tree=READ_TREE,
    state: Optional[Path] = None,
) -> QuestionsReport:
    """Parse the questions file (work tree) and grade every question against HEAD
    (``tree`` and ``state`` as for ``resolve_pointers``)."""
    from cc_hooks.record.findings import finding

    root = Path(root)
    if path is None:
        from cc_hooks.config import load_config

        path = (config or load_config(root)).record.questions
    report = QuestionsReport(path, exists=False)
    real_root, real = os.path.realpath(root), os.path.realpath(root / path)
    if os.path.commonpath([real_root, real]) != real_root:
        report.findings.append(finding(path, None, "questions-outside-repo", f"{path} resolves outside the repository (symlink to {real}); not read"))
        return report
    from cc_hooks.fsutil import read_repo_text

    try:
        text = read_repo_text(root / path, root)
    except FileNotFoundError:
        report.findings.append(finding(path, None, "questions-missing", "the cold-start questions file does not exist"))
        return report
    except OSError as exc:
        report.findings.append(finding(path, None, "questions-unreadable", f"cannot read: {exc}"))
        return report
    report.exists = True
    report.questions, report.findings = _parsed_questions(text, path, state)
    results = resolve_pointers(root, [p for q in report.questions for p in q.pointers], timeout=timeout, tree=tree, state=state)
    for question in report.questions:
        if question.pointers:
            question.results = [results[p] for p in question.pointers]
            question.grade, question.reason = grade(question.results)
    return report


def _parsed_questions(text: str, path: str, state: Optional[Path]) -> tuple[list[Question], list["Finding"]]:
    """``parse_questions``, remembered by the text when there is a state directory."""
    if state is None:
        return parse_questions(text, path)
    from cc_hooks.memo import remember

    def parse() -> dict:
        questions, findings = parse_questions(text, path)
        return {"questions": [[q.line, q.question, q.pointers, q.grade, q.reason] for q in questions],
                "findings": [[f.line, f.rule, f.message] for f in findings]}

    stored = remember(state, "questions", [path, text], parse)
    questions = [Question(line, question, pointers, grade=grade_, reason=reason)
                 for line, question, pointers, grade_, reason in stored["questions"]]
    if not stored["findings"]:
        return questions, []
    from cc_hooks.record.findings import finding

    return questions, [finding(path, line, rule, message) for line, rule, message in stored["findings"]]


def grade(results: list[PointerResult]) -> tuple[str, str]:
    failed = [r for r in results if r.grade == FAIL]
    if failed:
        return FAIL, "; ".join(f"{r.pointer}: {r.reason}" for r in failed)
    if any(r.grade == PASS for r in results):
        return PASS, ""
    if results:
        return WEAK, "; ".join(f"{r.pointer}: {r.reason}" for r in results)
    return FAIL, "no pointer"


def head_tree(root: str | os.PathLike, timeout: float = 30.0, has_commits: Optional[bool] = None) -> "Optional[_Tree]":
    """HEAD's tree (one ``ls-tree``, plus one ``cat-file`` when it holds symlinks), None before the
    first commit (``has_commits``: whether HEAD has one, when the caller knows). Callers that resolve
    several batches against HEAD read it once and pass it on."""
    if has_commits is None:
        from cc_hooks.git import head

        has_commits = head(root, timeout=timeout).sha is not None
    return _Tree(Path(root), timeout) if has_commits else None


def resolve_pointers(
    root: str | os.PathLike, pointers: Iterable[str], timeout: float = 30.0, tree=READ_TREE, state: Optional[Path] = None,
) -> dict[str, PointerResult]:
    """Every pointer's result; at most five git processes in all.

    ``tree``: HEAD's tree as ``head_tree`` read it (None: no commits yet), when the caller has it.
    ``state``: the state directory, to remember what a file's content says about a pointer by the
    file's blob id (an unchanged test file is then not read again).
    """
    from cc_hooks.git import GitError

    root = Path(root)
    targets = {p: split_pointer(p) for p in dict.fromkeys(pointers)}
    results: dict[str, PointerResult] = {}
    if not targets:
        return results
    commits = [t for t in targets.values() if t.kind == "commit"]
    files = [t for t in targets.values() if t.kind != "commit"]
    if tree is READ_TREE:
        try:
            tree = head_tree(root, timeout)
        except GitError as exc:
            return {p: PointerResult(p, t.kind, FAIL, f"could not check: {exc}", checked=False) for p, t in targets.items()}
    resolved: dict[str, str] = {}
    missing: list[_Target] = []
    for target in list(files):
        problem = path_problem(target.path)
        if problem is None and tree is None:
            problem = "no commits yet: nothing is tracked at HEAD"
        if problem:
            results[target.pointer] = PointerResult(target.pointer, target.kind, FAIL, problem)
            continue
        where, reason = tree.resolve(target.path)
        if where is None:
            if reason:
                results[target.pointer] = PointerResult(target.pointer, target.kind, FAIL, reason)
            else:
                missing.append(target)
            continue
        resolved[target.pointer] = where
    _explain_missing(root, missing, results, timeout)
    _check_contents(root, tree, [t for t in files if t.pointer in resolved], resolved, results, timeout, state)
    _check_commits(root, commits, tree, results, timeout)
    return results


def _explain_missing(root: Path, missing: list[_Target], results: dict, timeout: float) -> None:
    from cc_hooks.git import GitError, ignored

    if not missing:
        return
    paths = [posixpath.normpath(t.path) for t in missing]
    try:
        ignored_paths = ignored(root, paths, timeout=timeout)
    except GitError:
        ignored_paths = set()
    for target, path in zip(missing, paths):
        if path in ignored_paths:
            reason = "ignored by .gitignore: absent from a fresh clone (untracked-home)"
        elif (root / path).exists():
            reason = "exists in the work tree but is not committed at HEAD"
        else:
            reason = "no such file at HEAD"
        results[target.pointer] = PointerResult(target.pointer, target.kind, FAIL, reason)


def _check_contents(root: Path, tree: "_Tree", targets: list[_Target], resolved: dict, results: dict, timeout: float,
                    state: Optional[Path] = None) -> None:
    jobs = [(t, resolved[t.pointer], tree.entries[resolved[t.pointer]][1])
            for t in targets if t.kind != "path" and resolved[t.pointer] in tree.entries]
    grades = {}
    if jobs:
        from cc_hooks.memo import remember

        keys = [f"{t.pointer}\0{where}\0{blob}" for t, where, blob in jobs]
        try:
            grades = remember(state, "pointer-contents", keys, lambda: _grade_contents(root, jobs, timeout))
        except _Unread as exc:
            grades = exc.grades  # partial: not remembered, the next run reads again
    for target in targets:
        where = resolved[target.pointer]
        if target.kind == "path":
            results[target.pointer] = PointerResult(target.pointer, "path", PASS, "tracked at HEAD", where)
        elif where not in tree.entries:
            results[target.pointer] = PointerResult(target.pointer, target.kind, FAIL, f"`{where}` is a directory", where)
        else:
            grade_, reason = grades[target.pointer]
            results[target.pointer] = PointerResult(target.pointer, target.kind, grade_, reason, where)


class _Unread(Exception):
    """Some blob could not be read: the grades so far, with that said for the rest."""

    def __init__(self, grades: dict):
        super().__init__("blobs not read")
        self.grades = grades


def _grade_contents(root: Path, jobs: list, timeout: float) -> dict[str, list[str]]:
    """pointer -> [grade, reason] for every (target, path, blob) job: one ``cat-file --batch``."""
    from cc_hooks.git import GitError, cat_blobs

    try:
        blobs, error = cat_blobs(root, {blob for _, _, blob in jobs}, timeout=timeout), ""
    except GitError as exc:
        blobs, error = {}, str(exc)
    texts: dict[str, str] = {}  # blob id -> text, decoded once however many pointers name it
    grades, complete = {}, True
    for target, where, blob in jobs:
        data = blobs.get(blob)
        if data is None:
            grades[target.pointer] = [FAIL, f"could not read the file at HEAD {error}".strip()]
            complete = False
            continue
        if blob not in texts:
            texts[blob] = data.decode("utf-8", "replace")
        grades[target.pointer] = list(_check_content(target, where, texts[blob]))
    if not complete:
        raise _Unread(grades)
    return grades


def _check_content(target: _Target, where: str, text: str) -> tuple[str, str]:
    if target.kind == "line":
        count = text.count("\n") + (1 if text and not text.endswith("\n") else 0)
        last = target.end_line or target.line
        if target.line < 1 or last < target.line or last > count:
            return FAIL, f"line {target.line if last <= count else last} is out of range ({where} has {count} lines)"
        return PASS, "line exists at HEAD"
    if target.kind == "heading":
        if not where.lower().endswith(MARKDOWN_SUFFIXES):
            from cc_hooks.record import doc_anchors

            if not doc_anchors.supported(where):
                return FAIL, "heading anchors resolve only in markdown, reStructuredText and AsciiDoc files"
            found, anchors = doc_anchors.resolves(where, text, target.anchor)
            if found:
                return PASS, "heading exists at HEAD"
            near = [a for a in anchors if a.lstrip("_").startswith(target.anchor.lower().lstrip("_"))] if target.anchor else []
            return FAIL, f"no heading with the anchor `#{target.anchor}`" + (f" (did you mean `#{near[0]}`?)" if near else "")
        from cc_hooks.record.markdown import Document

        slugs = [h.slug for h in Document.parse(text).headings]
        anchor = target.anchor.lower()
        if anchor in slugs:
            return PASS, "heading exists at HEAD"
        near = [s for s in slugs if s.startswith(anchor)] if anchor else []
        hint = f" (did you mean `#{near[0]}`?)" if near else ""
        return FAIL, f"no heading with the anchor `#{target.anchor}`{hint}"
    if target.kind == "test":
        if not target.names or not all(target.names):
            return FAIL, "no test name after `::`"
        position = 0
        for name in target.names:
            end = _definition_end(text, name, position)
            if end is None:
                return FAIL, f"no definition of `{name}` in {where}"
            position = end
        return PASS, "test defined at HEAD"
    return FAIL, "unknown pointer kind"


_DEF_PREFIX_RE = re.compile(r"\s*(?:(?:async\s+)?def|class|(?:async\s+)?function|fn|func|sub)\s+")
_BOUNDARY_RE = re.compile(r"\b")
_PREFIX_CHARS_RE = re.compile(r"[A-Za-z\s('\"`]*")


def _definition_end(text: str, name: str, position: int) -> Optional[int]:
    """Where ``_definition_re(name).search(text, position)`` ends, or None; the usual case without the regex.

    Compiling and running a regex per name is quadratic over a ledger of many guards (each search
    scans the file). The fast path: the first occurrence of the name is a ``def``-style definition
    on its own line. That is the regex's first match whenever the name holds a character no match
    can have before the name (anything but letters, spaces, ``(`` and quotes): no earlier match can
    then reach a later occurrence. Anything else falls back to the regex.
    """
    at = text.find(name, position)
    if at < 0:
        return None  # the pattern needs the name literally
    line_start = text.rfind("\n", 0, at) + 1
    if (line_start >= position and _PREFIX_CHARS_RE.fullmatch(name) is None
            and _DEF_PREFIX_RE.fullmatch(text, line_start, at) and _BOUNDARY_RE.match(text, at + len(name))):
        return at + len(name)
    match = _definition_re(name).search(text, position)
    return match.end() if match else None


def _definition_re(name: str) -> "re.Pattern[str]":
    quoted = re.escape(name)
    return re.compile(
        rf"^\s*(?:(?:async\s+)?def|class|(?:async\s+)?function|fn|func|sub)\s+{quoted}\b"
        rf"|\b(?:it|test|describe)\s*\(\s*['\"`]{quoted}['\"`]",
        re.MULTILINE,
    )


def _check_commits(root: Path, commits: list[_Target], tree: Optional["_Tree"], results: dict, timeout: float) -> None:
    from cc_hooks.git import GitError, object_types

    if not commits:
        return
    try:
        types = object_types(root, [t.pointer for t in commits], timeout=timeout)
    except GitError as exc:
        for target in commits:
            results[target.pointer] = PointerResult(target.pointer, "commit", FAIL, f"could not check: {exc}", checked=False)
        return
    for target in commits:
        found = types.get(target.pointer)
        if found is None:
            results[target.pointer] = PointerResult(target.pointer, "commit", FAIL, "no such commit")
        elif found.split()[1] != "commit":
            results[target.pointer] = PointerResult(target.pointer, "commit", FAIL, f"names a {found.split()[1]}, not a commit")
        else:
            results[target.pointer] = PointerResult(target.pointer, "commit", WEAK, "commit only: the answer is git-log prose (add a tracked home)")
