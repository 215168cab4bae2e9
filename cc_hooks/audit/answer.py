"""The deterministic audit: answer each question from the fresh-clone view, in ladder order.

Ladder (methodology §1.3, §5 step 2): 1 guard (a test) → 2 comment at the danger point →
3 SYMPTOMS.md / DECISIONS.md / indexed docs → 4 git log. PASS when the answer is found at
levels 1-3, WEAK when only in git-log prose, FAIL when not at all. Then:

- untracked-home: an answer found only in an ignored file of the work tree (``CLAUDE.md``,
  ``.claude/``) is at best WEAK and flagged ``untracked-home``; one only in an uncommitted file
  is at best WEAK and flagged ``uncommitted`` (a fresh clone has neither);
- pointers (COLDSTART_QUESTIONS.md lines, a symptom's **Guard**) must resolve at HEAD: a pointer
  to a deleted file is a FAIL;
- stale distractors (``stale``): claims in the dashboard and the tracked docs that HEAD
  contradicts are FAILs of their own;
- the gitignore trap for the record itself: a record file the work tree has and a clone lacks is a
  FAIL of its own.

Structured questions (symptom, decision entries) are judged by the entry's fields; free questions
(``--question``) by where their significant words occur together.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Optional

from cc_hooks.audit.freshclone import View
from cc_hooks.audit.report import REPORT_NAME
from cc_hooks.audit.questions import (
    CODE_SUFFIXES,
    is_code_path,
    is_test_path,
    terms_of,
)
from cc_hooks.audit.result import (
    COMMENT,
    FAIL,
    GUARD,
    INDEX,
    LOG,
    PASS,
    UNCOMMITTED,
    UNTRACKED_HOME,
    WEAK,
    Graded,
    Question,
)

DOC_SUFFIXES = (".md", ".markdown", ".mdx", ".rst", ".txt")
MAX_DOC_BYTES = 256 * 1024
MAX_DOCS = 200


@dataclass
class Unit:
    """A searchable piece of the record: a test, a comment block, a doc section, a commit message."""

    level: int
    where: str
    terms: frozenset
    flag: str = ""  # UNTRACKED_HOME / UNCOMMITTED for work-tree-only homes


class Auditor:
    """Answers questions about one view; the corpus is read once, lazily, and git is asked in
    batches: HEAD's tree is read once, and every pointer of the cold-start questions and of the
    symptom entries is resolved in one call, whatever the number of questions."""

    def __init__(self, view: View, config, timeout: float = 30.0):
        self.view, self.config, self.timeout = view, config, timeout
        self.excluded_docs = {config.record.questions, REPORT_NAME}

    # --- what the view holds --------------------------------------------------------------

    @cached_property
    def tracked(self) -> list[str]:
        from cc_hooks.git import run_git

        from cc_hooks.deptrees import sweepable

        out = run_git(self.view.path, "ls-files", "-z", timeout=self.timeout)
        listed = [p for p in out.split("\0") if p]
        return sorted(sweepable(self.view.path, listed, listed=listed))  # a committed venv or node_modules is not the project

    @cached_property
    def symptoms(self):
        from cc_hooks.record.symptoms import load_symptoms

        return load_symptoms(self.view.path, self.config.record.symptoms)

    @cached_property
    def decisions(self):
        from cc_hooks.record.decisions import load_decisions

        return load_decisions(self.view.path, self.config.record.decisions)

    def units(self, level: int) -> list[Unit]:
        """The searchable units of one ladder level, read the first time a search needs them."""
        if level in (GUARD, COMMENT):
            return self._code_units[level]
        return self._doc_units if level == INDEX else self._commit_units

    @cached_property
    def _code_units(self) -> dict[int, list[Unit]]:
        units: dict[int, list[Unit]] = {GUARD: [], COMMENT: []}
        for rel in self.tracked:
            if is_code_path(rel):
                lines = read_lines(self.view.path / rel)
                if is_test_path(rel):
                    units[GUARD] += _test_units(rel, lines)
                units[COMMENT] += _comment_units(rel, lines)
        return units

    @cached_property
    def _doc_units(self) -> list[Unit]:
        docs = [rel for rel in self.tracked if rel.lower().endswith(DOC_SUFFIXES) and rel not in self.excluded_docs]
        return [unit for rel in docs[:MAX_DOCS] for unit in _doc_units(rel, read_lines(self.view.path / rel), INDEX)]

    @cached_property
    def _commit_units(self) -> list[Unit]:
        from cc_hooks.record.trailers import read_commits

        return [Unit(LOG, f"commit {c.sha[:12]} \"{c.subject}\"", frozenset(terms_of(c.body or c.subject)))
                for c in read_commits(self.view.path, ["HEAD"], with_body=True, timeout=self.timeout)]

    @cached_property
    def local_units(self) -> list[Unit]:
        """Sections of the work tree's ignored and uncommitted text files: homes a clone lacks."""
        from cc_hooks.deptrees import DependencyTrees

        units: list[Unit] = []
        root = self.view.root
        trees = DependencyTrees(root)
        for rel, flag in [*((p, UNTRACKED_HOME) for p in _expand(root, self.view.ignored)),
                          *((p, UNCOMMITTED) for p in self.view.uncommitted)]:
            if trees.contains(rel):
                continue  # an installed package's docs are no home of this project's knowledge
            if rel.lower().endswith(DOC_SUFFIXES) or Path(rel).name in ("CLAUDE.md", "CLAUDE.local.md"):
                for unit in _doc_units(rel, read_lines(root / rel), INDEX):
                    unit.flag = flag
                    units.append(unit)
        return units

    # --- answering ------------------------------------------------------------------------

    def answer(self, question: Question) -> Graded:
        handler = getattr(self, f"_answer_{question.kind}", self._answer_free)
        graded = handler(question)
        graded.deterministic = graded.grade
        return graded

    def search(self, terms, levels=(GUARD, COMMENT, INDEX, LOG)) -> Optional[Unit]:
        """The first unit, in ladder order, that holds enough of ``terms`` (best match per level)."""
        for level in levels:
            best = _best(self.units(level), terms)
            if best is not None:
                return best
        return None

    def _answer_free(self, question: Question) -> Graded:
        terms = question.terms
        if not terms:
            return Graded(question, FAIL, "", "rephrase the question with the words an investigator would search for")
        found = self.search(terms)
        if found is not None and found.level <= INDEX:
            return Graded(question, PASS, found.where, level=found.level)
        local = _best(self.local_units, terms)
        if local is not None:
            where = f"{local.where} ({'ignored' if local.flag == UNTRACKED_HOME else 'not committed'})"
            if found is not None:
                where += f"; {found.where}"
            return Graded(question, WEAK, where, _home_remedy(local), level=found.level if found else None, flags=[local.flag])
        if found is not None:
            return Graded(question, WEAK, found.where, "only git-log prose answers it: move the answer up the ladder "
                          "(a guard test, a comment at the danger point, or a SYMPTOMS.md / DECISIONS.md entry)", level=LOG)
        return Graded(question, FAIL, "", "not answerable from the repository: write the answer down (guard, comment "
                      "at the danger point, SYMPTOMS.md or DECISIONS.md entry) and point COLDSTART_QUESTIONS.md at it")

    _answer_caller = _answer_free

    def _answer_symptom(self, question: Question) -> Graded:
        ledger = self.symptoms
        path = self.config.record.symptoms
        entry = ledger.entry(question.data["slug"]) if ledger else None
        if entry is None:
            return Graded(question, FAIL, "", f"the entry vanished from {path}")
        anchor = f"{path}#{entry.slug}"
        missing = []
        if not entry.causes:
            missing.append("a `### Cause N:` with **Mechanism**, **Discriminator**, **Fix**")
        for number, cause in enumerate(entry.causes, 1):
            lacks = [name for name in ("mechanism", "discriminator", "fix") if not getattr(cause, name)]
            if lacks:
                missing.append(f"cause {cause.number or number}: " + ", ".join(f"**{n.capitalize()}**" for n in lacks))
        if not entry.ruled_out and not entry.ruled_out_note:
            missing.append("a **Ruled out** list (write `none` if nothing was)")
        broken, guards = self._check_entry_pointers(entry)
        if broken:
            return Graded(question, FAIL, anchor, "fix the dead pointers: " + "; ".join(broken), level=INDEX)
        if missing:
            return Graded(question, FAIL, anchor, f"complete {anchor}: add " + "; ".join(missing), level=INDEX)
        where = "; ".join([*(f"guard {g}" for g in guards), anchor])
        return Graded(question, PASS, where, level=GUARD if guards else INDEX)

    def _check_entry_pointers(self, entry) -> tuple[list[str], list[str]]:
        """(broken pointers, resolved guard pointers) of a symptom entry: guards and cited commits."""
        guards = [p for cause in entry.causes for p in _pointers_in(cause.guard or "")]
        results, commits = self._entry_pointers
        broken = [f"**Guard** `{p}`: {results[p].reason}" for p in guards if results[p].grade == FAIL]
        shas = [sha for cause in entry.causes for sha in cause.shas]
        broken += [f"commit `{sha}` is not in the repository" for sha in shas if sha in commits and commits[sha] is None]
        return broken, [p for p in guards if results[p].grade == PASS]

    @cached_property
    def _entry_pointers(self) -> tuple[dict, dict]:
        """Every symptom entry's guard pointers and cited commits, resolved in two batches."""
        from cc_hooks.git import GitError, object_types
        from cc_hooks.record.questions import resolve_pointers

        entries = self.symptoms.entries if self.symptoms else []
        guards = [p for entry in entries for cause in entry.causes for p in _pointers_in(cause.guard or "")]
        shas = [sha for entry in entries for cause in entry.causes for sha in cause.shas]
        results = resolve_pointers(self.view.path, guards, timeout=self.timeout, tree=self._tree) if guards else {}
        try:
            commits = object_types(self.view.path, shas, timeout=self.timeout) if shas else {}
        except GitError:
            commits = {}
        return results, commits

    @cached_property
    def _tree(self):
        """HEAD's tree, read once for every batch of pointers (``record.questions.head_tree``); when it
        cannot be read, each batch reads it and reports the failure its own way."""
        from cc_hooks.git import GitError
        from cc_hooks.record.questions import READ_TREE, head_tree

        try:
            return head_tree(self.view.path, self.timeout)
        except GitError:
            return READ_TREE

    @cached_property
    def _coldstart_results(self) -> dict:
        """Every pointer of the cold-start questions file, resolved in one batch."""
        from cc_hooks.audit.questions import coldstart_questions
        from cc_hooks.record.questions import resolve_pointers

        pointers = [p for q in coldstart_questions(self.view.path, self.config.record.questions)
                    for p in q.data.get("pointers") or []]
        return resolve_pointers(self.view.path, pointers, timeout=self.timeout, tree=self._tree) if pointers else {}

    def _resolved(self, pointers: list[str]) -> dict:
        from cc_hooks.record.questions import resolve_pointers

        known = self._coldstart_results
        missing = [p for p in pointers if p not in known]
        if missing:
            known.update(resolve_pointers(self.view.path, missing, timeout=self.timeout, tree=self._tree))
        return known

    def _answer_trailer(self, question: Question) -> Graded:
        """Asked only for a trailer no SYMPTOMS.md entry covers (``questions.trailer_questions``):
        the answer is git-log prose at best."""
        symptom, shas = question.data["symptom"], question.data["shas"]
        short = ", ".join(s[:12] for s in shas)
        path = self.config.record.symptoms
        remedy = f"add a {path} entry `## Symptom: {symptom}` (cause, discriminator, fix {short}, guard, ruled out)"
        if question.data.get("closest"):
            remedy += (f", or, if it is a new cause of {path}#{question.data['closest']}, a `### Cause N: ... — fixed in "
                       f"{shas[0][:10]}` there")
        local = _best(self.local_units, question.terms)
        flags = [local.flag] if local is not None else []
        where = f"`Symptom:` trailer of {short} only" + (f"; {local.where} (not in a clone)" if local else "")
        return Graded(question, WEAK, where, remedy, level=LOG, flags=flags)

    def _answer_decision(self, question: Question) -> Graded:
        ledger = self.decisions
        path = self.config.record.decisions
        entry = ledger.entry(question.data["slug"]) if ledger else None
        if entry is None:
            return Graded(question, FAIL, "", f"the entry vanished from {path}")
        anchor = f"{path}#{entry.slug}"
        missing = [f"**{name.capitalize()}**" for name in ("decision", "context") if not getattr(entry, name)]
        if not entry.rejected and not entry.rejected_note:
            missing.append("**Rejected alternatives** (`- X — rejected because Y`, or `none considered`)")
        if missing:
            return Graded(question, FAIL, anchor, f"append a dated entry amending {anchor} with " + ", ".join(missing),
                          level=INDEX)
        return Graded(question, PASS, anchor, level=INDEX)

    def _answer_oddity(self, question: Question) -> Graded:
        data = question.data
        location = f"{data['path']}:{data['line']}"
        if data.get("explained"):
            return Graded(question, PASS, f"comment at {location}", level=COMMENT)
        mention = self._doc_mentioning(data["path"], data["line"], question.terms)
        if mention:
            return Graded(question, PASS, mention, level=INDEX)
        remedy = f"say why at the danger point: a comment at {location} (or a DECISIONS.md / SYMPTOMS.md entry)"
        commit = self._blame(data["path"], data["line"])
        if commit is not None:
            return Graded(question, WEAK, commit, remedy, level=LOG)
        return Graded(question, FAIL, "", remedy)

    @cached_property
    def _doc_texts(self) -> dict[str, str]:
        texts = {}
        for rel in self.tracked:
            if rel.lower().endswith(DOC_SUFFIXES) and rel not in self.excluded_docs:
                texts[rel] = "\n".join(read_lines(self.view.path / rel))
        return texts

    def _doc_mentioning(self, path: str, line: int, terms) -> Optional[str]:
        """A doc line that points at ``path:line``, or names ``path`` next to (the line before, the same
        line, the line after) a word of the odd line: a doc that names the file for another reason
        does not explain the oddity."""
        wanted = set(terms) - set(terms_of(path))
        for rel, text in self._doc_texts.items():
            lines = text.splitlines()
            for index, doc_line in enumerate(lines):
                if path not in doc_line:
                    continue
                near = set(terms_of(" ".join(lines[max(0, index - 1) : index + 2])))
                if f"{path}:{line}" in doc_line or wanted & near:
                    return f"{rel}:{index + 1} (about `{path}`)"
        return None

    def _blame(self, path: str, line: int) -> Optional[str]:
        """The commit that wrote ``path:line``, if its message explains more than its subject."""
        from cc_hooks.git import run_git

        out = run_git(self.view.path, "blame", "--porcelain", "-L", f"{line},{line}", "HEAD", "--", path,
                      timeout=self.timeout, check=False)
        sha = out.split(" ", 1)[0] if out else ""
        if not re.fullmatch(r"[0-9a-f]{40}", sha) or set(sha) == {"0"}:
            return None
        message = run_git(self.view.path, "log", "-1", "--format=%s%x00%b", sha, timeout=self.timeout, check=False)
        subject, _, body = message.partition("\0")
        if len(re.findall(r"[A-Za-z]{2,}", body)) < 6:
            return None
        return f"commit {sha[:12]} \"{subject.strip()}\" (git blame)"

    def _answer_coldstart(self, question: Question) -> Graded:
        pointers = question.data.get("pointers") or []
        if not pointers:
            return Graded(question, FAIL, "", f"add `→ <tracked path>` to the line in {self.config.record.questions}")
        results = self._resolved(pointers)
        grades, wheres, remedies, flags, levels = [], [], [], [], []
        for pointer in pointers:
            result = results[pointer]
            grade, level, flag = result.grade, _pointer_level(result), ""
            if result.grade == FAIL and result.kind != "commit":
                grade, flag = self._local_pointer(result)
            grades.append(grade)
            if flag:
                flags.append(flag)
            if grade == PASS:
                wheres.append(pointer)
                levels.append(level)
            else:
                wheres.append(f"{pointer} ({result.reason})")
                remedies.append(_pointer_remedy(pointer, result.reason, flag))
        grade = FAIL if FAIL in grades else PASS if PASS in grades else WEAK
        if grade == PASS and WEAK in grades:
            remedies = []  # a tracked home answers it; the commit pointer is extra
        return Graded(question, grade, "; ".join(wheres), "; ".join(remedies),
                      level=min(levels) if levels else (LOG if grade == WEAK else None), flags=list(dict.fromkeys(flags)))

    def _local_pointer(self, result) -> tuple[str, str]:
        """A pointer that does not resolve at HEAD: WEAK if the file is in the work tree but ignored or
        uncommitted (flagged), else FAIL (deleted, never written, or the line/heading is gone)."""
        if result.path is not None:
            return FAIL, ""  # the file is at HEAD; its line, heading or test is not
        raw = re.split(r"::|#|:(?=\d)", result.pointer, maxsplit=1)[0]
        exists = (self.view.root / raw).exists()
        if "ignored by .gitignore" in result.reason:
            return (WEAK if exists else FAIL), UNTRACKED_HOME
        if exists:
            return WEAK, UNCOMMITTED
        return FAIL, ""


# --- the gitignore trap, for the record itself ------------------------------------------------


def absent_record(view: View, paths: list[str]) -> list[Graded]:
    """A record file the work tree has and a fresh clone lacks (ignored, or never committed): every
    question it would answer is lost to a stranger, so it is a FAIL of its own."""
    from cc_hooks.git import ignored

    absent = [p for p in paths if (view.root / p).is_file() and not (view.path / p).exists()]
    if not absent:
        return []
    ignored_paths = ignored(view.root, absent)
    graded = []
    for path in absent:
        flag = UNTRACKED_HOME if path in ignored_paths else UNCOMMITTED
        why = "gitignored" if flag == UNTRACKED_HOME else "not committed"
        question = Question(f"record:{path}", f"Where is {path}? (it is in the work tree but {why})", "record", path)
        remedy = f"track {path} (remove it from .gitignore) and commit it" if flag == UNTRACKED_HOME else f"commit {path}"
        graded.append(Graded(question, FAIL, f"{path} ({why}: absent from a fresh clone)", remedy, flags=[flag],
                             deterministic=FAIL))
    return graded


# --- helpers ------------------------------------------------------------------------------


def read_lines(path: Path, limit: int = MAX_DOC_BYTES * 2) -> list[str]:
    try:
        if not path.is_file() or path.is_symlink():
            return []
        with open(path, "rb") as handle:
            data = handle.read(limit)
    except OSError:
        return []
    if b"\0" in data[:4096]:
        return []
    return data.decode("utf-8", errors="replace").splitlines()


_DEF_RE = re.compile(r"^\s*(?:async\s+)?(?:def|class|func|fn|function)\s+(\w+)|^\s*(?:it|test|describe)\s*\(\s*['\"`]([^'\"`]+)")
_COMMENT_RE = re.compile(r"^\s*(?:#(?![!\[])|//|/\*|\*|--)\s?(.*)$")


def _test_units(rel: str, lines: list[str]) -> list[Unit]:
    """One unit per test (``def test_*``, ``class Test*``, ``it(...)``/``test(...)``), not per helper."""
    units, start, name = [], 0, None
    for number, line in enumerate([*lines, "def __end__"], 0):
        match = _DEF_RE.match(line)
        if match or number == len(lines):
            if name is not None:
                units.append(Unit(GUARD, f"{rel}::{name}", frozenset(terms_of(" ".join(lines[start:number])))))
            name = None
            if match:
                start = number
                if match.group(2) or match.group(1).lower().startswith("test"):
                    name = match.group(1) or match.group(2)
    return units


def _comment_units(rel: str, lines: list[str]) -> list[Unit]:
    """Comment blocks and trailing comments, each read in its context: the code line it sits on
    or above, and the definition (def/class/function) it is inside, as a reader at the danger
    point sees them."""
    units, block, first, definition = [], [], 0, ""
    for number, line in enumerate([*lines, ""], 1):
        match = _COMMENT_RE.match(line)
        if match:
            if not block:
                first = number
            block.append(match.group(1))
            continue
        if _DEF_RE.match(line):
            definition = line
        inline = re.search(r"\s(?:#|//)\s+(.+)$", line)
        if block:
            units.append(Unit(COMMENT, f"{rel}:{first}", frozenset(terms_of(" ".join([definition, *block, line])))))
            block = []
        if inline and number <= len(lines):
            units.append(Unit(COMMENT, f"{rel}:{number}", frozenset(terms_of(f"{definition} {line}"))))
    return units


def _doc_units(rel: str, lines: list[str], level: int) -> list[Unit]:
    """One unit per section (any heading level) of a markdown file; paragraphs for other text."""
    from cc_hooks.record.markdown import Document

    if not lines:
        return []
    document = Document.parse("\n".join(lines))
    cuts = [(h.line, h.slug) for h in document.headings]
    units = []
    bounds = [(1, None), *cuts]
    for index, (start, slug) in enumerate(bounds):
        end = bounds[index + 1][0] - 1 if index + 1 < len(bounds) else len(lines)
        text = " ".join(lines[start - 1 : end])
        if text.strip():
            units.append(Unit(level, f"{rel}#{slug}" if slug else f"{rel}:{start}", frozenset(terms_of(text))))
    return units


def _needed(count: int) -> int:
    """All the significant words, or all but one from three on (as ``cc-hooks triage`` matches)."""
    return count if count <= 2 else count - 1


def _best(units: list[Unit], terms) -> Optional[Unit]:
    wanted = set(terms)
    if not wanted:
        return None
    need = _needed(len(wanted))
    best, best_hits = None, 0
    for unit in units:
        hits = len(wanted & unit.terms)
        if hits >= need and hits > best_hits:
            best, best_hits = unit, hits
    return best


def _expand(root: Path, ignored: list[str]) -> list[str]:
    """Ignored files; of ignored directories only ``.claude/`` is opened (the rest is build output)."""
    files = []
    for rel in ignored:
        if not rel.endswith("/"):
            files.append(rel)
        elif rel.rstrip("/").split("/")[-1] == ".claude":
            base = root / rel
            files += [str(p.relative_to(root)) for p in sorted(base.rglob("*")) if p.is_file()][:200]
    return files


_POINTER_RE = re.compile(r"`([^`\s]+)`|((?:[\w.-]+/)*[\w.-]+\.\w+(?:::[\w\[\].-]+)*(?::\d+(?:-\d+)?)?)")


def _pointers_in(text: str) -> list[str]:
    """Path-like pointers in a **Guard** text (``tests/x.py::test_y``, ``scripts/check.sh``)."""
    found = []
    for match in _POINTER_RE.finditer(text):
        token = (match.group(1) or match.group(2) or "").rstrip(".,;:)")
        path = re.split(r"::|:(?=\d)", token, maxsplit=1)[0]
        has_extension = "." in Path(path).name
        if has_extension and ("/" in path or Path(path).suffix in CODE_SUFFIXES) and not token.startswith(("http", "-")):
            found.append(token)
    return list(dict.fromkeys(found))


def _pointer_level(result) -> Optional[int]:
    if result.kind == "commit":
        return LOG
    path = result.path or ""
    if result.kind == "test" or is_test_path(path):
        return GUARD
    if is_code_path(path):
        return COMMENT
    return INDEX


def _pointer_remedy(pointer: str, reason: str, flag: str) -> str:
    if flag == UNTRACKED_HOME:
        return f"`{pointer}` is gitignored: add a tracked echo of the answer and point there"
    if flag == UNCOMMITTED:
        return f"commit `{pointer}`"
    if "commit only" in reason:
        return f"`{pointer}` is git-log prose: record the answer in a tracked file and point there"
    return f"repoint or restore `{pointer}` ({reason})"


def _home_remedy(unit: Unit) -> str:
    path = unit.where.split("#")[0].split(":")[0]
    if unit.flag == UNTRACKED_HOME:
        return f"the answer lives only in ignored `{path}`: add a tracked echo (SYMPTOMS.md / DECISIONS.md / a comment)"
    return f"the answer lives only in uncommitted `{path}`: commit it"

