"""Triage's index of HEAD's history: each commit's row and the commits each word appears in.

Triage ranks every commit HEAD shipped by the symptom's words (``cc_hooks.record.evidence``).
Reading and splitting 50,000 messages costs seconds, and history is immutable, so the index is
remembered (``cc_hooks.memo.remember_log``) and extended with ``<last>..HEAD`` alone; a rewrite
(the last tip no longer an ancestor of HEAD) derives it again. Facts, never verdicts.

A row is ``[sha, date, subject, symptoms, second parent]``, oldest first, so a new commit only
appends. Postings map a word to the positions of the commits holding it, as one string of
comma-separated positions (decoded only for the words a query asks about):

- ``subject``: the stemmed words of the subject (``evidence.words_of``);
- ``body``: those of the rest of the message, minus the subject's;
- ``names``: code-like tokens of the message, lowercased (``get_pager_file``, ``click.echo``,
  ``--no-color``, ``KeyError``, ``#123``): what "the message names `x`" is looked up in;
- ``noted``: the stemmed words of the changelog entries a commit added (``CHANGES.rst``,
  ``CHANGELOG.md``, ``docs/news.rst``, towncrier fragments, ...). A changelog entry says what the
  user saw ("Fixed infinite loop with `cells.split_graphemes`") where the subject says what changed
  ("Merge pull request #4006 from fix-grapheme-stuck"). An entry is credited to the commit that added
  it when that commit added at most ``DIRECT_ENTRIES`` (a fix; a release adds dozens), and to every
  commit its issue or PR numbers name (``#7805``, ``:issue:`2994```, ``pull/3953``), stored as
  ``#N`` and resolved through ``names`` when asked: a release note points at the fix it lists;
- ``tests``: the words of the test functions a commit added (``def test_recursive_exception``), when it
  added at most ``DIRECT_TESTS``: a regression test is named after what broke.
"""

from __future__ import annotations

import re
from typing import Optional

_REC, _FIELD, _ITEM = "\x1e", "\x1f", "\x1d"
_FORMAT = f"{_REC}%H{_FIELD}%aI{_FIELD}%P{_FIELD}%(trailers:key=Symptom,valueonly,unfold,separator=%x1d){_FIELD}%B"
_TOKEN_RE = re.compile(r"#\d{1,7}\b|-{1,2}[A-Za-z][\w-]*|[A-Za-z_][\w.]*\w")
VERSION = "14"  # change when the rows or the postings change shape or meaning


_CODE_TOKEN_RE = re.compile(r"^[#-]|[_.]|.[A-Z]")
_KINDS = ("subject", "body", "names", "noted", "tests")
# Where projects write what each change fixed, for the people who use it: files, and folders of fragments.
_CHANGELOG_FILE_RE = re.compile(r"^(?:CHANGES|CHANGELOG|HISTORY|NEWS|RELEASE[-_ ]?NOTES)(?:\.(?:md|rst|txt|adoc|markdown|asciidoc))?$", re.I)
_CHANGELOG_DIRS = frozenset("whatsnew releases changelog changelog.d changes newsfragments news".split())
# The names a changelog had before its rename (click's ``CHANGES`` became ``CHANGES.rst``): a walk
# limited to HEAD's literal paths would lose the entries written under the old name.
_CHANGELOG_NAMES = tuple(f"{stem}{ext}" for stem in ("CHANGES", "CHANGELOG", "HISTORY", "NEWS") for ext in ("", ".md", ".rst", ".txt"))
_TEST_DIRS = frozenset(("tests", "test", "testing"))
_TEST_FILE_RE = re.compile(r"^(?:test_.+|.+_tests?)\.\w+$")
MAX_PATHSPECS = 400
DIRECT_ENTRIES = 3
DIRECT_TESTS = 5
_TEST_DEF_RE = re.compile(r"^\+\s*(?:async\s+)?(?:def|fn|func)\s+[Tt]est_?(\w+)", re.M)
_REF_RE = re.compile(r"(?:#|\bgh-|:(?:issue|pr|pull|bug|gh):`|/(?:pull|issues)/|\b(?:issue|pr|pull request)\s+#?)(\d{1,7})\b", re.I)
# towncrier: changes/1234.bugfix.rst; not a release's own file (CHANGELOG/2.3.1.md, releases/3.rst, whatsnew/1.x.rst)
_FRAGMENT_RE = re.compile(r"(?:^|/)(\d{1,7})\.(?!(?:md|rst|txt|adoc|markdown)$|x\.)([A-Za-z][\w.]*)$")
_FIX_WORD_RE = re.compile(r"\bfix|\bbug", re.I)
_SECTION_RE = re.compile(r"^\s*(?:#{1,6}\s+)?[A-Z][\w -]{2,30}:?\s*$")  # "### Fixed", "Bug fixes" (not a version line)
_FIX_ENTRY_RE = re.compile(r"^\W*(?:\[\w+\]\s*)?(?:fix(?:e[sd])?|bug\s*fix(?:es)?|resolved?|correct(?:ed|s)?)\b", re.I)
SHARED_ISSUE = 5  # an issue number more commits name than this (a tracking issue) points at no one fix
FIX_MARK = "!fix"  # the ``noted`` key of the commits a fix entry is credited to
_ENTRY_START_RE = re.compile(r"^\s{0,3}(?:[-*+\u2022]\s|\d{1,3}[.)]\s)")
_HEADING_RE = re.compile(r"^\s*(?:#{1,6}\s|[=~^`'\-*+]{3,}\s*$|\.\.\s|v?\d+(?:\.\d+)+\b.{0,40}$|\[[\w.-]+\]:\s)")


class HistoryIndex:
    def __init__(self, value: dict):
        self.rows: list[list] = value["rows"]
        self._postings = {kind: value[kind] for kind in _KINDS}
        self._positions: Optional[dict[str, int]] = None

    def __len__(self) -> int:
        return len(self.rows)

    def postings(self, kind: str, word: str) -> list[int]:
        found = self._postings[kind].get(word)
        return [int(p) for p in found.split(",")] if found else []

    def noted(self, word: str) -> set[int]:
        """Positions of the commits a changelog entry holding ``word`` is credited to; an issue number
        more than ``SHARED_ISSUE`` commits name (a tracking issue) credits none of them."""
        found = self._postings["noted"].get(word)
        positions: set[int] = set()
        for item in found.split(",") if found else ():
            if not item.startswith("#"):
                positions.add(int(item))
                continue
            naming = self.postings("names", item)
            if len(naming) <= SHARED_ISSUE:
                positions.update(naming)
        return positions

    def fix_noted(self) -> set[int]:
        """Positions of the commits a changelog entry saying it fixed something is credited to."""
        return self.noted(FIX_MARK)

    def naming(self, identifier: str) -> set[int]:
        """Positions of the commits whose message names ``identifier`` (as part of a token, any case)."""
        wanted = identifier.lower()
        found: set[int] = set()
        for token, positions in self._postings["names"].items():
            if wanted in token:
                found.update(int(p) for p in positions.split(","))
        return found

    def position(self, sha: str) -> Optional[int]:
        if self._positions is None:
            self._positions = {row[0]: i for i, row in enumerate(self.rows)}
        return self._positions.get(sha)


def load(root, timeout: float = 30.0, head: Optional[str] = None) -> HistoryIndex:
    """The index of HEAD's history, remembered and extended from the last tip (one ``git log``
    of the commits since)."""
    from cc_hooks.memo import remember_log

    def derive(revs, previous):
        return extend(previous, _read(root, revs, timeout))

    return HistoryIndex(remember_log(root, "triage-history", [VERSION], derive, timeout=timeout, head=head))


def extend(previous: Optional[dict], commits: list[tuple]) -> dict:
    """``previous`` (or an empty index) with ``commits`` (oldest first) appended."""
    from cc_hooks.record.evidence import word_stemmer

    words_of = word_stemmer()
    value = previous or {"rows": [], **{kind: {} for kind in _KINDS}}
    added: dict[str, dict[str, list[str]]] = {kind: {} for kind in _KINDS}
    start = len(value["rows"])
    for offset, (sha, date, parents, symptoms, message, entries, tests) in enumerate(commits):
        subject = message.split("\n", 1)[0].strip()
        position = str(start + offset)
        value["rows"].append([sha, date, subject, symptoms, parents[1] if len(parents) > 1 else ""])
        subject_words = words_of(subject)
        names = {t.rstrip(".").lower() for t in _TOKEN_RE.findall(message) if _CODE_TOKEN_RE.search(t)}
        for kind, words in (("subject", subject_words), ("body", words_of(message) - subject_words), ("names", names)):
            for word in words:
                added[kind].setdefault(word, []).append(position)
        for text, refs, fix in entries:
            credited = ([position] if len(entries) <= DIRECT_ENTRIES else []) + [f"#{n}" for n in refs]
            for word in words_of(text) | ({FIX_MARK} if fix else set()):
                added["noted"].setdefault(word, []).extend(credited)
        if len(tests) <= DIRECT_TESTS:
            for word in set().union(*(words_of(name.replace("_", " ")) for name in tests)):
                added["tests"].setdefault(word, []).append(position)
    for kind, found in added.items():
        postings = value[kind]
        for word, positions in found.items():
            joined = ",".join(positions)
            postings[word] = f"{postings[word]},{joined}" if word in postings else joined
    return value


def _read(root, revs: list, timeout: float) -> list[tuple]:
    """(sha, date, parents, symptoms, message, changelog entries, new tests) of ``revs``' commits, oldest
    first (one ``git log``, one ``ls-tree`` of HEAD, one ``git log -p`` of the changelogs and one of the tests)."""
    from cc_hooks.git import run_git

    out = run_git(root, "log", f"--format={_FORMAT}", *revs, "--", timeout=timeout, check=revs != ["HEAD"])  # unborn: none
    changelogs, test_paths = _places(root, revs[-1].split("..")[-1], timeout) if out else ([], [])
    notes = _changelog_entries(root, revs, changelogs, timeout) if changelogs else {}
    tests = _new_tests(root, revs, test_paths, timeout) if test_paths else {}
    commits = []
    for record in out.split(_REC)[1:]:
        parts = record.split(_FIELD, 4)
        if len(parts) < 5:
            continue
        sha, date, parents, trailers, message = parts
        symptoms = [v.strip() for v in trailers.split(_ITEM) if v.strip()]
        commits.append((sha, date, parents.split(), symptoms, message.rstrip("\n"), notes.get(sha, []), tests.get(sha, [])))
    commits.reverse()
    return commits


def _places(root, head: str, timeout: float) -> tuple[list[str], list[str]]:
    """HEAD's changelog files and fragment folders, and its test folders and files, as literal
    pathspecs: a walk limited to literal paths prunes whole trees (a glob pathspec over 50,000
    commits costs half a minute); beside each changelog file, and at the top, the conventional
    names it may have had before a rename."""
    from cc_hooks.git import run_git

    changelogs: set[str] = set()
    tests: set[str] = set()
    for path in run_git(root, "ls-tree", "-r", "-z", "--name-only", head, timeout=timeout, check=False).split("\0"):
        parts = path.split("/")
        folder = next((i for i, part in enumerate(parts[:-1]) if part.lower() in _CHANGELOG_DIRS), None)
        if folder is not None:
            changelogs.add("/".join(parts[: folder + 1]) + "/")
        elif _CHANGELOG_FILE_RE.match(parts[-1]):
            changelogs.add(path)
        folder = next((i for i, part in enumerate(parts[:-1]) if part in _TEST_DIRS), None)
        if folder is not None:
            tests.add("/".join(parts[: folder + 1]) + "/")
        elif _TEST_FILE_RE.match(parts[-1]):
            tests.add(path)
    files = [p for p in changelogs if not p.endswith("/")]
    former = {folder + name for folder in {p.rsplit("/", 1)[0] + "/" if "/" in p else "" for p in files} | ({""} if files else set())
              for name in _CHANGELOG_NAMES} - changelogs
    if len(tests) > MAX_PATHSPECS:  # tests beside every module (``x_test.go``): their folders
        tests = {t.rsplit("/", 1)[0] + "/" if "/" in t else t for t in tests}
    kept = sorted(changelogs)[:MAX_PATHSPECS]  # HEAD's own first; the former names while there is room
    kept += sorted(former)[: MAX_PATHSPECS - len(kept)]
    return [f":(literal){p}" for p in kept], [f":(literal){p}" for p in sorted(tests)[:MAX_PATHSPECS]]


def _patches(root, revs: list, paths: list[str], timeout: float):
    """(sha, patch) of every commit of ``revs`` that changed ``paths``: one ``git log -p -U0`` (merges
    show no diff: their branch's commits added the lines)."""
    from cc_hooks.git import run_git

    out = run_git(root, "log", "--format=%x1e%H", "-p", "-U0", "--no-color", "--no-ext-diff", "--no-textconv", "--no-renames",
                  *revs, "--", *paths, timeout=timeout, check=False)
    for record in out.split(_REC)[1:]:
        sha, _, patch = record.partition("\n")
        yield sha.strip(), patch


def _changelog_entries(root, revs: list, paths: list[str], timeout: float) -> dict[str, list[tuple[str, list[str], bool]]]:
    """sha -> the changelog entries it added: (text, issue or PR numbers, a fix?)."""
    found = {sha: _entries(patch) for sha, patch in _patches(root, revs, paths, timeout)}
    return {sha: entries for sha, entries in found.items() if entries}


def _new_tests(root, revs: list, paths: list[str], timeout: float) -> dict[str, list[str]]:
    """sha -> the names of the test functions it added, less their ``test``."""
    found = {sha: list(dict.fromkeys(_TEST_DEF_RE.findall(patch))) for sha, patch in _patches(root, revs, paths, timeout)}
    return {sha: names for sha, names in found.items() if names}


def _entries(patch: str) -> list[tuple[str, list[str], bool]]:
    """The entries of the lines a patch adds, and whether each is a fix (its text says "Fixed", it sits
    under a "Fixed"/"Bug fixes" heading the patch adds, or it is a towncrier ``N.bugfix`` fragment): a
    bullet starts one, a heading or a blank line ends one."""
    import html  # here: only an index being extended reads patches

    entries: list[tuple[str, list[str], bool]] = []
    current: list[str] = []
    fragment: list[str] = []
    fixes = False  # the file or the heading above says these entries are fixes

    def close():
        # ``&#39;`` is a rendered changelog's apostrophe, not issue 39
        text = html.unescape(" ".join(current).strip())
        if text:
            refs = list(dict.fromkeys(_REF_RE.findall(text) + fragment))
            entries.append((text, refs, fixes or bool(_FIX_ENTRY_RE.match(text))))
        current.clear()

    for line in patch.split("\n"):
        if line.startswith("+++ "):
            close()
            match = _FRAGMENT_RE.search(line[4:].strip())
            fragment = [match.group(1)] if match else []
            fixes = bool(match and _FIX_WORD_RE.search(match.group(2)))
        elif line.startswith("+"):
            text = line[1:]
            if not text.strip() or _HEADING_RE.match(text):
                close()
                if _SECTION_RE.match(text):
                    fixes = bool(_FIX_WORD_RE.search(text))
            else:
                if _ENTRY_START_RE.match(text):
                    close()
                current.append(text.strip())
        elif line.startswith(("@@", "diff ")):
            close()
    close()
    return entries
