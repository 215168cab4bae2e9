"""The questions a stranger with a fresh clone would ask (methodology §5 step 1).

Generated from the view (HEAD as a clone shows it):

- per SYMPTOMS.md entry: what causes it, how are the causes told apart, what was ruled out?
- per ``Symptom:`` trailer on HEAD's history that no entry covers: is it indexed, or only a trailer?
  (a trailer an entry covers is asked through that entry, not twice)
- per DECISIONS.md entry: why this, and what was rejected?
- per code oddity: why does it exist? The heuristic is deliberately small: a comment marking a
  workaround / do-not-remove / hack, a disabled test, a ``sleep(<literal>)`` outside tests;
- every COLDSTART_QUESTIONS.md line, verbatim;
- every ``--question``, verbatim.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Optional

from cc_hooks.audit.result import Question

# Documents of the past: changelogs, release notes, what's-new pages, generated GitHub statistics,
# design proposals, a docs folder of deprecated or archived pages. They name what was true then
# (files deleted since, commits of that time); HEAD does not contradict them.
HISTORY_DOCS = re.compile(
    r"(?:^|/)(?:[\w.]+[-_])?(?:CHANGELOG|CHANGES|HISTORY|NEWS|RELEASE[-_ ]?NOTES?|whats-?new|github[-_]stats)[^/]*$|"
    r"(?:^|/)\.?(?:changelogs?|changes|history|news|releases?|release[-_]?notes|whats-?new|proposals|peps|seps|neps|rfcs|adrs?)/|"  # changie's ``.changes/``
    r"(?:^|/)docs?/(?:.+/)?(?:deprecated|archived?|legacy)/|"  # the archived pages of a removed feature (setuptools' distutils docs)
    r"(?:^|/)(?:[a-z]?ep|rfc|adr)[-_]?\d+[^/]*$|"
    r"(?:^|/)(?:19|20)\d\d-[01]\d(?:-[0-3]\d)?[-_][^/]*\.(?:md|markdown|rst|txt)$",  # a post of its date: ``roadmap/2024-12-play-on.md``
    re.IGNORECASE,
)

CODE_SUFFIXES = frozenset(
    ".py .pyi .js .mjs .cjs .ts .tsx .jsx .go .rs .java .kt .kts .c .h .cc .cpp .hpp .cs .rb .sh .bash .zsh "
    ".ex .exs .erl .swift .php .scala .lua .pl .r .jl .dart .m .mm .sql .ps1 .groovy".split()
)
MAX_FILE_BYTES = 512 * 1024
MAX_ODDITIES = 40

# A marker inside a comment: the comment opener must be followed by whitespace, so code and
# regex sources that merely contain the words do not count.
_COMMENT_MARKER_RE = re.compile(
    r"(?:^\s*(?:\*|--|;)|(?:^|\s)(?:#|//|/\*))\s+(?P<before>.*?)\b(?P<marker>work-?around|do\s+not\s+(?:remove|delete|touch|change)|"
    r"don'?t\s+(?:remove|delete|touch|change)|hack|kludge)\b(?P<after>.*)$",
    re.IGNORECASE,
)
_DISABLED_TEST_RE = re.compile(
    r"^\s*(?:@pytest\.mark\.skip\b(?!if)|@unittest\.skip\b(?![A-Z])|@Disabled\b|@Ignore\b|#\[ignore\])|"
    r"\b(?:it|test|describe)\.skip\s*\(|(?:^|[^\w.])x(?:it|describe|test)\s*\(|\bt\.Skip(?:Now)?\s*\("
)
_NUMBER = r"\d+(?:\.\d+)?"
# ``sleep(0.5)``, and a choice between literals: ``sleep(5.0 if count > 5 else 0.5)``
_SLEEP_RE = re.compile(rf"\bsleep\s*\(\s*{_NUMBER}(?:\s+if\s+[^()]+?\s+else\s+{_NUMBER})?\s*\)")
# ``t/`` at the top: the test tree of Perl's, git's and celery's conventions; ``integration/`` at the top: invoke's;
# ``FSTests.py``, ``msvsTests.py``, ``ParameterErrorsTest.py``: SCons' and Java's way of naming a test module
_TEST_PATH_RE = re.compile(r"(?:^|/)(?:[\w-]+[ _-])?(?:tests?|spec|__tests__)/|^t/|^(?:integration|e2e)(?:[-_]tests?)?/|(?:^|/)test_[^/]*$|_test\.[^/]+$|\.(?:test|spec)\.[^/]+$"
                           r"|(?:^|/|[A-Za-z0-9])Tests?\.[^/.]+$")


def is_test_path(path: str) -> bool:
    return bool(_TEST_PATH_RE.search(path))


def is_code_path(path: str) -> bool:
    return Path(path).suffix.lower() in CODE_SUFFIXES


@dataclass
class Oddity:
    path: str
    line: int
    what: str  # what kind of oddity, in words (see ``_oddity``)
    text: str  # the line, stripped
    explained: str = ""  # the explanation written at the danger point, if any
    copies: list = field(default_factory=list)  # "path:line" of the same code elsewhere (one question for all)


def generate(view: Path, config, caller: Iterable[str] = (), timeout: float = 30.0) -> list[Question]:
    """Every question for the view, in report order."""
    questions: list[Question] = []
    from cc_hooks.record.symptoms import load_symptoms

    ledger = load_symptoms(view, config.record.symptoms)
    questions += symptom_questions(ledger)
    questions += trailer_questions(view, ledger, timeout)
    questions += decision_questions(view, config.record.decisions)
    questions += oddity_questions(scan_oddities(view, timeout))
    questions += coldstart_questions(view, config.record.questions)
    questions += [Question(f"caller:{n}", text.strip(), "caller", "--question", terms=terms_of(text))
                  for n, text in enumerate(caller, 1) if text.strip()]
    return questions


# --- the ledgers -------------------------------------------------------------------------


def symptom_questions(ledger) -> list[Question]:
    if ledger is None:
        return []
    return [
        Question(f"symptom:{entry.slug}",
                 f"What causes \"{entry.observable}\", how are its causes told apart, and what has been ruled out?",
                 "symptom", f"{ledger.path}:{entry.start}", terms_of(entry.observable), {"slug": entry.slug})
        for entry in ledger.entries
    ]


def trailer_questions(view: Path, ledger, timeout: float) -> list[Question]:
    by_symptom: dict[str, tuple[str, list[str]]] = {}
    for symptom, sha in symptom_trailers(view, timeout):
        key = normalize(symptom)
        by_symptom.setdefault(key, (symptom, []))[1].append(sha)
    index = SymptomIndex(ledger)
    questions = []
    for symptom, shas in by_symptom.values():
        terms = terms_of(symptom)
        if index.covering(symptom, shas, terms) is not None:
            continue  # asked through that entry
        short = ", ".join(sha[:12] for sha in shas)
        closest = index.closest(terms)
        data = {"symptom": symptom, "shas": shas, "closest": closest.slug if closest is not None else None}
        questions.append(Question(f"trailer:{shas[-1][:12]}",
                                  f"What causes \"{symptom}\" (the `Symptom:` trailer of {short}), and where is it indexed?",
                                  "trailer", f"commit {short}", terms, data))
    return questions


def symptom_trailers(view: Path, timeout: float) -> list[list[str]]:
    """[symptom, sha] of every ``Symptom:`` trailer in HEAD's history, newest first: remembered up to
    the HEAD last audited (the view is a worktree of the audited repository: it shares its state
    directory), so a new audit reads only the commits since."""
    from cc_hooks.memo import remember_log
    from cc_hooks.record.trailers import read_commits

    def derive(revs, previous):
        found = [[symptom, c.sha] for c in read_commits(view, revs, timeout=timeout) for symptom in c.symptoms]
        return found + (previous or [])

    return remember_log(view, "audit-trailers", [], derive, timeout=timeout)


class SymptomIndex:
    """Finds the SYMPTOMS.md entry that covers a trailer: the same observable (loosely: every
    significant word of the trailer is in the entry's), or a cause citing one of its commits."""

    def __init__(self, ledger):
        entries = ledger.entries if ledger is not None else []
        self.by_text = {normalize(e.observable): e for e in reversed(entries)}
        self.by_terms = [(frozenset(terms_of(e.observable)), e) for e in entries]
        self.by_sha: dict[str, list[tuple[str, object]]] = {}
        for entry in entries:
            for cause in entry.causes:
                for short in cause.shas:
                    self.by_sha.setdefault(short[:7], []).append((short, entry))

    def covering(self, symptom: str, shas: Iterable[str], terms: Iterable[str]):
        found = self.by_text.get(normalize(symptom))
        if found is not None:
            return found
        for full in shas:
            for short, entry in self.by_sha.get(full[:7], []):
                if full.startswith(short):
                    return entry
        wanted = set(terms)
        if wanted:
            for have, entry in self.by_terms:
                if wanted <= have:
                    return entry
        return None

    def closest(self, terms: Iterable[str]):
        """The entry sharing most of a trailer's words ``terms`` (at least half of them), if any: the
        trailer may be a new cause of that entry's symptom."""
        wanted = set(terms)
        best, best_hits = None, 0
        for have, entry in self.by_terms:
            hits = len(wanted & have)
            if hits * 2 >= len(wanted) and hits > best_hits:
                best, best_hits = entry, hits
        return best


def decision_questions(view: Path, rel: str) -> list[Question]:
    from cc_hooks.record.decisions import load_decisions

    ledger = load_decisions(view, rel)
    if ledger is None:
        return []
    return [
        Question(f"decision:{entry.slug}", f"Why \"{entry.title}\", and what was rejected?", "decision",
                 f"{rel}:{entry.start}", terms_of(entry.title), {"slug": entry.slug})
        for entry in ledger.entries
    ]


def coldstart_questions(view: Path, rel: str) -> list[Question]:
    from cc_hooks.record.ledger import read_text
    from cc_hooks.record.questions import parse_questions

    text = read_text(view / rel)
    if text is None:
        return []
    parsed, _ = parse_questions(text, rel)
    return [Question(f"coldstart:{q.line}", q.question, "coldstart", f"{rel}:{q.line}", terms_of(q.question),
                     {"pointers": list(q.pointers)}) for q in parsed]


# --- oddities in the code ------------------------------------------------------------------


MAX_SCANNED = 400  # oddities found before ranking; the questions keep the best ``limit``
PER_FILE = 2  # of each kind: a file with many sleeps or hacks is two questions, not twenty
_DEMO_PATH_RE = re.compile(r"(?:^|/)(?:(?:examples?|demos?|samples?)(?:[-_][\w-]+)?|docs?|docs_src|doctests?|benchmarks?)/"  # django-silk's ``example_app/``
                           # test data: a formatter's cases, fixtures, snapshots (their comments are the input, not notes)
                           r"|(?:^|/)(?:tests?|testing)/(?:.+/)?(?:data|fixtures?|cases|resources|snapshots|roots|examplefiles|samples?)/"
                           r"|(?:^|/)(?:fixtures?|testdata|test_data|__snapshots__|test[ _-]cases)/", re.IGNORECASE)  # meson's ``test cases/``; CPython's ``Doc/includes``


def scan_oddities(view: Path, timeout: float = 30.0, limit: int = MAX_ODDITIES) -> list[Oddity]:
    """Workaround / do-not-remove / hack comments, disabled tests, literal sleeps outside tests:
    ranked (an unexplained marker in product code first) and capped at ``limit``, at most
    ``PER_FILE`` per file, so a first audit of a large project asks a short list worth answering."""
    from cc_hooks.git import run_git

    from cc_hooks.deptrees import DependencyTrees

    listed = [p for p in run_git(view, "ls-files", "-z", timeout=timeout).split("\0") if p]
    trees = DependencyTrees(view, listed)
    found: list[Oddity] = []
    copies: dict[tuple, Oddity] = {}
    psf_project = trees.psf_licensed()
    for rel in sorted(p for p in listed if is_code_path(p) and not trees.contains(p) and not _DEMO_PATH_RE.search(p)):
        lines = _code_lines(view / rel)
        if copied_from_elsewhere(lines, psf_project) or _bundled(rel, lines) or _generated(lines):
            continue
        test = is_test_path(rel)
        regions = _python_regions(lines) if rel.endswith((".py", ".pyi")) else None
        per_kind: dict[str, int] = {}
        for number, line in enumerate(lines, 1):
            oddity = _oddity(rel, number, line, lines, test, regions)
            if oddity is None or _same_comment_block(found, oddity, lines):
                continue
            previous = found[-1] if found and found[-1].path == oddity.path else None
            if previous is not None and _same_as_previous(previous, oddity, lines):
                previous.copies.append(f"{oddity.path}:{oddity.line}")
                continue
            keys = _copy_keys(oddity, lines)
            original = next((copies[key] for key in keys if key in copies), None) or _applied(found, oddity) or oddity
            for key in keys:
                copies.setdefault(key, original)
            if original is not oddity:
                original.copies.append(f"{oddity.path}:{oddity.line}")
                continue
            kind = "comment" if oddity.what.endswith("comment") else oddity.what
            if per_kind.get(kind, 0) < PER_FILE:
                per_kind[kind] = per_kind.get(kind, 0) + 1
                found.append(oddity)
        if len(found) >= MAX_SCANNED:
            break
    return sorted(_without_documented_features(view, found, timeout), key=_priority)[:limit]


# Words that qualify a marker without naming anything ("an ugly hack", "the temporary workaround")
_GENERIC_MODIFIERS = frozenset("""a an the this that these those our my your its their his her some any one another other
    same such ugly dirty quick gross nasty terrible horrible awful evil bad cheap clever stupid silly crude big huge small
    little minor major temporary temp special usual old new current previous known necessary simple second first last final
    above below following performance compatibility compat""".split())
_DOC_PAGES = ("*.md", "*.markdown", "*.rst", "*.txt", "*.rst.inc")


def _without_documented_features(view: Path, found: list[Oddity], timeout: float) -> list[Oddity]:
    """``found`` without the markers that name a feature the project's docs describe by that name:
    borg's "detect slashdot hack" is the rsync-like ``/./`` its FAQ teaches as "the slashdot hack", not a
    workaround to question. One ``git grep`` over the docs (not the changelogs) for every such name."""
    from cc_hooks.git import run_git

    names = {}
    for oddity in found:
        marker = _COMMENT_MARKER_RE.search(oddity.text) if oddity.what.endswith("comment") else None
        modifier = marker.group("before").split()[-1:] if marker else []
        if modifier and re.fullmatch(r"[A-Za-z][\w-]*", modifier[0]) and modifier[0].lower() not in _GENERIC_MODIFIERS:
            names[id(oddity)] = f"the {modifier[0]} {marker.group('marker')}".lower()
    if not names:
        return found
    patterns = [arg for name in sorted(set(names.values())) for arg in ("-e", name)]
    out = run_git(view, "grep", "-I", "-i", "-F", "-o", *patterns, "--", *_DOC_PAGES, timeout=timeout, check=False)
    documented = {match.lower() for path, _, match in (line.partition(":") for line in out.splitlines()) if not HISTORY_DOCS.search(path)}
    return [oddity for oddity in found if names.get(id(oddity)) not in documented]


# A file whose header says it is another project's code: "This is part of Python source code with
# Eventlet-specific modifications", the PSF license, "Copied from Django's ...". Its hacks are upstream's;
# a file holding "portions" of another's code is still this project's, and so is a project under the PSF
# license itself.
_COPIED_HEADER_RE = re.compile(
    r"\b(?P<psf>Python\s+Software\s+Foundation)\b|\b(?:part|a\s+copy)\s+of\s+(?:the\s+)?C?Python(?:'s)?\s+(?:source|standard\s+library|stdlib)\b"
    # the whole file: "Copied from ...", "This module was taken from ..." (not "Portions of this code taken from"),
    # "This file is copied/adapted from the imcompress.c file in CFITSIO"
    r"|^\W*(?:this\s+(?:file|module)\s+(?:is|was)\s+)?(?:copied|taken|vendored|borrowed)(?:\s*(?:/|and)\s*(?:adapted|modified))?"
    r"\s+(?:verbatim\s+)?from\b"
    # "This is a modified version of the cloudpickle module."
    r"|^\W*this\s+(?:file\s+|module\s+)?is\s+a\s+(?:lightly\s+)?(?:modified|patched|vendored)\s+(?:version|copy)\s+of\b",
    re.IGNORECASE | re.MULTILINE,
)
HEADER_LINES = 15
_DOCSTRING_START_RE = re.compile(r"""^\s*[rRbBuU]?("{3}|'{3})""")


def copied_from_elsewhere(lines: list[str], psf_project: bool = False) -> bool:
    """Whether a file's header (its leading comments and docstring, within ``HEADER_LINES``) says it
    is a copy of another project's code; ``psf_project``: the project's own license is the PSF's."""
    found = _COPIED_HEADER_RE.search("\n".join(_header(lines)))
    return found is not None and not (psf_project and found.group("psf"))


BUNDLE_LINE = 400  # characters: a line this long in a script's first lines is a bundler's or minifier's output
_BUNDLE_SUFFIXES = (".js", ".mjs", ".cjs", ".css")


# "/*! jQuery v3.7.1 | (c) OpenJS Foundation": a released library's banner, kept by minifiers
_LIBRARY_BANNER_RE = re.compile(r"\bv?\d+\.\d+\.\d+\b|\bhttps?://")  # "v3.7.1", "http://github.com/janl/mustache.js"


# A web app's folder of third-party scripts: ``static/js/lib/jquery/``, ``static/visualiser/lib/mustache.js``
_STATIC_LIBRARY_RE = re.compile(r"(?:^|/)static/(?:[^/]+/)*(?:libs?|vendors?|third[-_]party)/", re.IGNORECASE)


def _bundled(rel: str, lines: list[str]) -> bool:
    """A generated bundle (a browserify prelude, minified JavaScript or CSS), a released library
    copied in (a ``/*!`` banner, kept by minifiers, naming its version or its home), or a script in a
    web app's static library folder: its comments are its sources'."""
    if not rel.endswith(_BUNDLE_SUFFIXES):
        return False
    if _STATIC_LIBRARY_RE.search(rel):
        return True
    if any(len(line) > BUNDLE_LINE for line in lines[:3]):
        return True
    return bool(lines) and lines[0].lstrip().startswith("/*!") and any(_LIBRARY_BANNER_RE.search(line) for line in lines[:5])


# "This file is automatically generated ... do not edit": a generator's output; its notes are the generator's
_GENERATED_RE = re.compile(r"\b(?:auto-?)?generated\b.*\bdo\s+not\s+(?:edit|change|modify)\b", re.IGNORECASE | re.DOTALL)


def _generated(lines: list[str]) -> bool:
    """Whether the file's header says a generator wrote it and nobody should edit it."""
    return _GENERATED_RE.search("\n".join(_header(lines))) is not None


def _header(lines: list[str]) -> list[str]:
    """The comment and docstring lines before the first statement (a shebang and blank lines aside)."""
    header, quote = [], None
    for line in lines[:HEADER_LINES]:
        if quote is not None:
            header.append(line)
            quote = None if quote in line else quote
            continue
        opened = _DOCSTRING_START_RE.match(line)
        if opened:
            header.append(line)
            rest = line[opened.end():]
            quote = None if opened.group(1) in rest else opened.group(1)
        elif not line.strip() or _COMMENT_LINE_RE.match(line):
            header.append(line)
        else:
            break
    return header


def _applied(found: list[Oddity], oddity: Oddity) -> Optional[Oddity]:
    """The marker a few lines above in the same file whose workaround ``oddity`` says it applies
    ("# Apply the work-around, if necessary..." under the comment that explains it): one question."""
    before = found[-1] if found else None
    if before is None or before.path != oddity.path or before.what != oddity.what or oddity.line - before.line > NEARBY:
        return None
    marker = _COMMENT_MARKER_RE.search(oddity.text)
    if marker is None or not _APPLIED_RE.search(marker.group("before")) or _names_a_problem(marker.group("after")):
        return None  # "Apply the workaround for bug 991: macOS sockets ...": its own question
    return before


def _names_a_problem(after: str) -> bool:
    """"workaround: the server drops ...", "workaround for the docs 'more than one target' problem"."""
    return bool(re.match(r"(?::|\s*-+|\s*for\b)\s*\S", after.strip())) and _word_count(after) >= 5


def _copy_keys(oddity: Oddity, lines: list[str]) -> list[tuple]:
    """What makes two oddities one (any key in common): the same kind on the same code, with the
    same two lines above and one below (a function copied across modules asks its question once);
    a marker's whole comment block and the code line it is about (the block pasted under other
    imports); the same skip reason in one file (sibling tests disabled together: one answer
    covers them all); the same marker line twice in one file; the same note (five words, or a
    link) in any file."""
    around = [" ".join(text.split()) for text in lines[max(0, oddity.line - 3) : oddity.line + 1]]
    keys = [(oddity.what, *around)]
    if oddity.what == "disabled test":
        reason = _skip_reason(lines, oddity.line)
        if reason:
            reason = " ".join(reason.lower().split())
            keys.append((oddity.what, oddity.path, reason))
            if _word_count(reason) >= 6 or _CITES_RE.search(reason.upper()):  # the sync copy of a test skipped for one ticket
                keys.append((oddity.what, reason))
    if oddity.what.endswith("comment"):
        block = _block_around(lines, oddity.line)
        if block is not None:
            keys.append((oddity.what, *block))
        if _word_count(oddity.text) >= 6:  # the same note twice in one file (a bare marker line alone is not one note)
            keys.append((oddity.what, oddity.path, " ".join(oddity.text.split())))
        marker = _COMMENT_MARKER_RE.search(oddity.text)
        note = " ".join(marker.group(0).split()) if marker else ""
        if _word_count(note) >= 5 or _CITES_RE.search(note):  # the same note in another file (the sync copy of an async test)
            keys.append((oddity.what, note))
        if marker is not None:
            sentence = _marker_sentence(marker)
            if _word_count(sentence) >= 4:  # "As a hack, just skip." under two reasons a test cannot run
                keys.append((oddity.what, oddity.path, sentence.lower()))
            named = _NAMED_MARKER_RE.search(marker.group("before"))
            if named:  # "due to `multi_video` workaround" and "we need a `multi_video` workaround": one workaround
                keys.append((oddity.what, oddity.path, "named", named.group(1)))
        code = _code_below(lines, oddity.line)
        if len(code) >= SAME_CODE:  # "// hack to hide calendar" and "// hack - hide calendar + range inputs" over the same statement
            keys.append((oddity.what, oddity.path, "over", code))
    return keys


SAME_CODE = 20  # characters: a statement this long under two markers of one file is one trick applied twice


def _code_below(lines: list[str], number: int) -> str:
    """The first code line under the comment block that holds line ``number`` (1-based), spaces
    collapsed; "" when the marker trails code of its own line or no code follows."""
    index = number - 1
    if index >= len(lines) or not _COMMENT_LINE_RE.match(lines[index]):
        return ""
    while index < len(lines) and (not lines[index].strip() or _COMMENT_LINE_RE.match(lines[index])):
        index += 1
    return " ".join(lines[index].split()) if index < len(lines) else ""


# A workaround named by the code it is: "the `multi_video` workaround", "'legacy_pickle' hack"
_NAMED_MARKER_RE = re.compile(r"[`'\"]([A-Za-z_][\w.-]*)[`'\"]\s*$")
_SENTENCE_SPLIT_RE = re.compile(r"(?<=[.!?;])\s+")


def _marker_sentence(marker: "re.Match[str]") -> str:
    """The sentence of the comment line holding the marker, normalized."""
    before = _SENTENCE_SPLIT_RE.split(marker.group("before"))[-1]
    after = _SENTENCE_SPLIT_RE.split(marker.group("after"))[0]
    return " ".join(f"{before}{marker.group('marker')}{after}".split())


_CITES_RE = re.compile(r"https?://\S|#\d+|\b[A-Z]{2,}[A-Z0-9]*-\d{3,}\b")  # a link, an issue, a JIRA ticket (PYTHON-1234)


def _block_around(lines: list[str], number: int) -> Optional[tuple]:
    """The comment block holding line ``number`` (1-based) and the first line after it, normalized;
    None when the marker trails code (its line is the code)."""
    if not _COMMENT_LINE_RE.match(lines[number - 1]):
        return None
    first = last = number - 1
    while first > 0 and _COMMENT_LINE_RE.match(lines[first - 1]):
        first -= 1
    while last + 1 < len(lines) and _COMMENT_LINE_RE.match(lines[last + 1]):
        last += 1
    return tuple(" ".join(text.split()) for text in lines[first : last + 2])


def _priority(oddity: Oddity) -> tuple:
    """Unexplained before explained, markers before disabled tests before sleeps, product code before tests."""
    kind = 0 if oddity.what.endswith("comment") else 1 if oddity.what == "disabled test" else 2
    return (bool(oddity.explained), kind, is_test_path(oddity.path), oddity.path, oddity.line)


def _same_comment_block(found: list[Oddity], oddity: Oddity, lines: list[str]) -> bool:
    """A second marker in the comment block of the previous one ("the workaround ... for the workaround to work")."""
    if not found or found[-1].path != oddity.path or not oddity.what.endswith("comment"):
        return False
    between = lines[found[-1].line - 1 : oddity.line]
    return all(_COMMENT_LINE_RE.match(text) for text in between)


REPEATED_WITHIN = 8  # lines: the same short note again this close is the same oddity


def _same_as_previous(before: Oddity, oddity: Oddity, lines: list[str]) -> bool:
    """Whether ``oddity`` is the question ``before``, the one asked just above it in its file (``lines``)."""
    return _repeated_nearby(before, oddity) or _explained_by_previous(before, oddity) or _names_previous_function(before, oddity, lines)


def _explained_by_previous(before: Oddity, oddity: Oddity) -> bool:
    """A sleep whose explanation is the workaround comment just asked about a few lines up ("# Workaround
    for file not found error: We wait until tempfile is written" over the loop that waits), or a
    marker pointing back at one asked above ("Gross hack: ... See giant comment above."): that question's."""
    if not before.what.endswith("comment"):
        return False
    if oddity.what == "sleep with a literal":
        marker = _COMMENT_MARKER_RE.search(before.text)
        if marker is None or not 0 < oddity.line - before.line <= REPEATED_WITHIN:
            return False
        opening = " ".join(f"{marker.group('marker')} {marker.group('after')}".split()[:6]).lower()
        return opening in " ".join(oddity.explained.split()).lower()
    return oddity.what.endswith("comment") and _POINTS_ABOVE_RE.search(oddity.explained or oddity.text) is not None


def _names_previous_function(before: Oddity, oddity: Oddity, lines: list[str]) -> bool:
    """A marker whose comment names the function holding the marker asked just above ("HACK: undo
    status code change from rebuild_method" under yt-dlp's hack in ``rebuild_method``): the other
    half of that workaround, one question."""
    if not (before.what.endswith("comment") and oddity.what.endswith("comment")):
        return False
    holder = _enclosing_def(lines, before.line)
    if holder is None or holder == _enclosing_def(lines, oddity.line) or len(holder) < 4:
        return False
    words = f"{oddity.text} {_comment_after(lines, oddity.line)}"
    return re.search(rf"(?<![\w.]){re.escape(holder)}(?!\w)", words) is not None


def _enclosing_def(lines: list[str], number: int) -> Optional[str]:
    """The name of the nearest ``def`` at or above line ``number`` (1-based), or None."""
    for index in range(number - 1, -1, -1):
        found = _DEF_RE.match(lines[index])
        if found and found.group(1) == "def" and found.group(2):
            return found.group(2)
    return None


_POINTS_ABOVE_RE = re.compile(r"\bsee\s+(?:the\s+)?(?:\w+\s+)?(?:comments?\s+|note\s+)?above\b", re.IGNORECASE)


def _repeated_nearby(before: Oddity, oddity: Oddity) -> bool:
    """The previous marker's comment again a few lines below, on the sibling statement or branch
    (``descr = ... # hack`` then ``descr += ... # hack``), or the same sleep between the next two
    steps (kinto's ``time.sleep(0.001)`` between three writes): one question."""
    if before.what != oddity.what or oddity.line - before.line > REPEATED_WITHIN:
        return False
    if oddity.what == "sleep with a literal":
        return " ".join(oddity.text.split()) == " ".join(before.text.split())
    if not oddity.what.endswith("comment"):
        return False
    mine, theirs = _COMMENT_MARKER_RE.search(oddity.text), _COMMENT_MARKER_RE.search(before.text)
    return mine is not None and theirs is not None and " ".join(mine.group(0).lower().split()) == " ".join(theirs.group(0).lower().split())


@dataclass
class _Regions:
    """What Python's tokenizer and parser say about a file's lines."""

    comments: dict  # line -> the comment text on it
    in_string: set  # lines inside a multi-line string (docstrings, test data)
    demo: set  # lines under ``if __name__ == "__main__":``
    nested: set = field(default_factory=set)  # decorator lines of a def/class defined inside a function
    empty: set = field(default_factory=set)  # decorator lines of a method whose body is only ``pass``/``...``
    helpers: set = field(default_factory=set)  # decorator lines of a function the file calls, not named ``test*``
    polling: set = field(default_factory=set)  # lines whose innermost loop polls (see ``_polling_loops``)
    deliberate: set = field(default_factory=set)  # sleeps that are their function's job (see ``_deliberate_sleeps``)


def _python_regions(lines: list[str]) -> Optional[_Regions]:
    import ast
    import io
    import tokenize

    source = "\n".join(lines) + "\n"
    comments, in_string = {}, set()
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT:
                comments[token.start[0]] = token.string
            elif token.type == tokenize.STRING and token.start[0] != token.end[0]:
                first = token.start[0] if not token.line[: token.start[1]].strip() else token.start[0] + 1
                in_string.update(range(first, token.end[0] + 1))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return None
    demo = set()
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        tree = None
    for node in getattr(tree, "body", []):
        if isinstance(node, ast.If) and "__name__" in ast.dump(node.test) and "__main__" in ast.dump(node.test):
            demo.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    regions = _Regions(comments, in_string, demo)
    if tree is not None:
        skipped: dict[str, set] = {}
        _decorated(tree, regions, in_function=False, in_class=False, skipped_helpers=skipped)
        if skipped:  # rare: only then is the file searched for the calls that make them helpers
            called = {n.func.id if isinstance(n.func, ast.Name) else n.func.attr for n in ast.walk(tree)
                      if isinstance(n, ast.Call) and isinstance(n.func, (ast.Name, ast.Attribute))}
            regions.helpers.update(line for name, lines in skipped.items() if name in called for line in lines)
        _polling_loops(tree, regions.polling, polling=False, comments=comments)
        _deliberate_sleeps(tree, regions.deliberate)
    return regions


def _is_sleep(statement) -> bool:
    """``sleep(...)``, ``time.sleep(...)``, ``await asyncio.sleep(...)`` as a statement."""
    import ast

    value = statement.value if isinstance(statement, ast.Expr) else None
    value = value.value if isinstance(value, ast.Await) else value
    if not isinstance(value, ast.Call):
        return False
    func = value.func
    return (func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")) == "sleep"


def _deliberate_sleeps(tree, lines: set) -> None:
    """Add to ``lines`` the sleeps that are what their function is for, not a delay in its way:
    a sleep in a loop over the function's own duration argument (``for _ in range(seconds): sleep(1)``: the
    caller chose the delay; a pause in ``for _ in range(count)`` is still a question),
    and the last statement of a thread class's loop-body method (its base's ``run`` calls it
    again and again: the sleep is the poll interval)."""
    import ast

    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            arguments = {a.arg for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs] if _DURATION_NAME_RE.search(a.arg)}
            for loop in ast.walk(node):
                if isinstance(loop, (ast.For, ast.AsyncFor)) and arguments & {n.id for n in ast.walk(loop.iter) if isinstance(n, ast.Name)}:
                    lines.update(s.lineno for s in loop.body if _is_sleep(s))
        elif isinstance(node, ast.ClassDef) and any(_base_name(b).endswith("Thread") for b in node.bases):
            for method in node.body:
                if isinstance(method, ast.FunctionDef) and method.name not in ("run", "__init__") and method.body and _is_sleep(method.body[-1]):
                    lines.add(method.body[-1].lineno)


_DURATION_NAME_RE = re.compile(r"(?:^|_)(?:seconds?|secs?|duration|delay|wait|interval|timeout|time|ms|millis|minutes?|mins?)(?:_|$)", re.IGNORECASE)


def _base_name(node) -> str:
    import ast

    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""


def _polling_loops(node, lines: set, polling: bool, comments: dict, waits: bool = False) -> None:
    """Add to ``lines`` the statements whose innermost loop waits for something: a ``while`` loop,
    a ``for`` loop that ``break``s (a bounded retry), or one that ``return``s where the code says it
    waits ("Wait for a change to be propagated", "# wait for yellow status": its function's docstring
    or a comment just above the loop). A sleep there paces the loop. A ``for`` that returns with no
    such words is a retry whose sleep is still a question (why retry, on what?)."""
    import ast

    for child in ast.iter_child_nodes(node):
        inner, says = polling, waits
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            inner = False
            docstring = ast.get_docstring(child) if not isinstance(child, ast.Lambda) else None
            says = bool(docstring and _WAITS_RE.search(docstring))
        elif isinstance(child, ast.While):
            inner = True
        elif isinstance(child, (ast.For, ast.AsyncFor)):
            above = " ".join(comments.get(n, "") for n in range(child.lineno - 2, child.lineno))
            inner = _exits(child, ast.Break) or ((says or bool(_WAITS_RE.search(above))) and _exits(child, ast.Return))
        if inner and isinstance(child, ast.stmt) and not isinstance(child, (ast.While, ast.For, ast.AsyncFor)):
            lines.update(range(child.lineno, (child.end_lineno or child.lineno) + 1))
        _polling_loops(child, lines, inner, comments, says)


_WAITS_RE = re.compile(r"\bwait(?:s|ing)?\s+(?:for|until)\b|\bblock(?:s|ing)?\s+until\b|\bpoll(?:s|ing)?\s+(?:for|until)\b", re.IGNORECASE)


def _exits(loop, kind) -> bool:
    """Whether ``loop`` has a statement of ``kind`` (``break``, ``return``) of its own (not one of a nested loop)."""
    import ast

    pending = list(loop.body)
    while pending:
        node = pending.pop()
        if isinstance(node, kind):
            return True
        if not isinstance(node, (ast.For, ast.AsyncFor, ast.While, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            pending.extend(ast.iter_child_nodes(node))
    return False


# A skip reason saying where the test applies rather than what is broken.
_OUT_OF_SCOPE_RE = re.compile(r"(?:only\s+(?:relevant|applies|applicable|meaningful|makes\s+sense|needed)\s+(?:for|to|on|in|when|with)"
                              r"|not\s+(?:relevant|applicable)\s+(?:for|to|on|in|here)|does\s*n[o']?t\s+apply\s+(?:to|here))\b", re.I)


def _decorated(node, regions: _Regions, in_function: bool, in_class: bool, skipped_helpers: Optional[dict] = None) -> None:
    """Record the decorator lines of defs and classes that are test fixtures (defined inside a
    function: a test of the skip machinery), empty overrides (a method that only ``pass``es: an
    inherited test declared not applicable); and, in ``skipped_helpers`` (name -> lines), the skip
    marks on functions not named ``test*``: those the file calls are helpers (``text_in_fig()``), whose
    mark disables no test; an uncalled ``pty_size_is_realistic`` is a test of pytest-relaxed's."""
    import ast

    for child in ast.iter_child_nodes(node):
        is_def = isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
        if is_def or isinstance(child, ast.ClassDef):
            lines = {d.lineno for d in child.decorator_list}
            if in_function or (is_def and "skip" in child.name.lower() and _always_fails(child.body)):
                regions.nested.update(lines)  # a fixture of a test of the skip machinery (tortoise's ``test_skip``: ``assertTrue(False)``)
            elif is_def and in_class and all(_is_filler(statement) for statement in child.body):
                regions.empty.update(lines)
            elif is_def and not child.name.startswith("test") and skipped_helpers is not None:
                marks = {d.lineno for d in child.decorator_list if "skip" in ast.unparse(d)}
                if marks:
                    skipped_helpers.setdefault(child.name, set()).update(marks)
        _decorated(child, regions, in_function or is_def, isinstance(child, ast.ClassDef) or (in_class and not is_def), skipped_helpers)


def _always_fails(body) -> bool:
    """A body that only fails: ``assert False``, ``self.assertTrue(False)``, ``self.fail(...)``, ``raise ...``
    (a docstring aside): it runs only if the skip under test did not work."""
    import ast

    statements = [s for s in body if not _is_filler(s)]
    if len(statements) != 1:
        return False
    statement = statements[0]
    if isinstance(statement, ast.Raise) or (isinstance(statement, ast.Assert) and _is_false(statement.test)):
        return True
    call = statement.value if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call) else None
    name = getattr(call.func, "attr", getattr(call.func, "id", "")) if call is not None else ""
    return name == "fail" or (name == "assertTrue" and bool(call.args) and _is_false(call.args[0]))


def _is_false(node) -> bool:
    import ast

    return isinstance(node, ast.Constant) and node.value in (False, 0, None)


def _is_filler(statement) -> bool:
    import ast

    return isinstance(statement, ast.Pass) or (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant))


def _code_lines(path: Path) -> list[str]:
    from cc_hooks.fsutil import read_repo_bytes

    try:
        if path.is_symlink():
            return []
        data = read_repo_bytes(path, limit=MAX_FILE_BYTES)
    except OSError:
        return []
    if b"\0" in data[:4096]:
        return []
    return data.decode("utf-8", errors="replace").splitlines()


def _in_string(line: str, position: int) -> bool:
    """Whether ``position`` is inside a quoted string literal that opens on this line."""
    quote, escaped = "", False
    for char in line[:position]:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif quote:
            quote = "" if char == quote else quote
        elif char in "\"'`":
            quote = char
    return bool(quote)


def _found(regex: "re.Pattern[str]", line: str) -> Optional["re.Match[str]"]:
    """The first match of ``regex`` in ``line`` that is code or a comment, not text inside a string."""
    for match in regex.finditer(line):
        if not _in_string(line, match.start()):
            return match
    return None


def _oddity(rel: str, number: int, line: str, lines: list[str], test: bool, regions: Optional[_Regions] = None) -> Optional[Oddity]:
    if regions is not None and number in regions.in_string:
        return None  # test data, a docstring's example: not code
    marker = _marker(line, regions.comments.get(number, "") if regions is not None else None)
    if marker:
        words = " ".join(f"{marker.group('before')} {marker.group('marker')} {marker.group('after')}".replace("*/", " ").split())
        block = " ".join(filter(None, [_comment_block(lines, number), words, _comment_after(lines, number)]))
        after = marker.group("after").strip()
        named = _names_a_problem(after)
        if (_USERS_WORKAROUND_RE.search(block) or _OTHERS_WORKAROUND_RE.search(block) or _QUOTED_SOURCE_RE.search(block) or _ELSEWHERE_RE.match(f"{after} {_comment_after(lines, number)}")
                or _DECLINED_RE.search(marker.group("before"))
                or (re.search(r"\bno\s+$", marker.group("before"), re.IGNORECASE) and _NONE_NEEDED_RE.match(after))):
            return None  # what users or another library do, a pointer to the oddity's own place, or one the code declines: not an oddity here
        if test and _TESTED_WORKAROUND_RE.search(block):
            return None  # the test exercises a workaround users apply: no oddity of this code
        if _CHECKER_RE.search(block) and marker.group("marker").lower().startswith(("work", "hack")):
            return None  # a cast or annotation that quiets a type checker: no behaviour to ask about
        if marker.group("marker").lower().startswith(("do", "don")) and _narrates(marker, lines, number, test):
            return None
        return Oddity(rel, number, f"{marker.group('marker').lower()} comment", line.strip(),
                      block if named or states_a_reason(block) else "")
    if _found(_DISABLED_TEST_RE, line):
        text = _skip_reason(lines, number)
        helper = regions is not None and number in regions.helpers and "pytest.mark." in line  # ``unittest.skip`` raises when called
        if regions is not None and (number in regions.nested or helper or (number in regions.empty and _word_count(text) >= 2)):
            return None  # a skip that is the test's fixture, on a helper no runner collects, or an inherited test declared not applicable
        if _OUT_OF_SCOPE_RE.match(text.strip(" \"'()")):
            return None  # "Only relevant for `poetry install`": a test that does not apply here, not one disabled
        return Oddity(rel, number, "disabled test", line.strip(), text if _word_count(text) >= 3 else _comment_block(lines, number))
    support = test or _TEST_SERVER_PATH_RE.search(rel)  # a test server's delays are what it simulates
    code = line[: line.rfind(regions.comments[number])] if regions is not None and number in regions.comments else line
    sleep = None if support or (regions is not None and number in regions.demo) else _found(_SLEEP_RE, code)
    if sleep and not _ZERO_SLEEP_RE.search(sleep.group(0)):  # sleep(0) yields to the event loop: an idiom, not a delay
        if regions is not None and number in regions.deliberate:
            return None  # the function's job (a task that takes time, a thread's poll interval)
        return _sleep_oddity(rel, number, line, lines, polling=regions is not None and number in regions.polling)
    return None


def _skip_reason(lines: list[str], number: int) -> str:
    """The reason a skip decorator or call at line ``number`` (1-based) gives, or ""."""
    line = lines[number - 1]
    call = line if line.rstrip().endswith(")") else " ".join([line, *lines[number : number + 3]])  # reason= on the next lines
    reason = re.search(r"""reason\s*=\s*["'](.+?)["']|skip\w*\(\s*["'](.+?)["']""", call)
    return (reason.group(1) or reason.group(2)) if reason else ""


_TEST_SERVER_PATH_RE = re.compile(r"(?:^|/)(?:dummy|mock|fake|test)_?servers?(?:/|\.py$)", re.IGNORECASE)


# "users employ a workaround", "you can use this hack": what others do, not this code
_USERS_WORKAROUND_RE = re.compile(
    r"\b(?:users?|people|you|callers?|clients?)(?:-\w+)?\s+(?:\w+\s+){0,3}?(?:an?\s+|the\s+|this\s+|that\s+)?(?:work-?around|hack|kludge)\b"
    # "If a leading slash is needed, it can be worked around by prefixing the pattern": a way offered to users
    r"|\bcan\s+be\s+worked\s+around\s+by\b",
    re.IGNORECASE,
)
# "From refs/files-backend.c in git-source:" over the marker: a comment quoted from another project's source
# "test code taken from autoconf: this is a pretty clever hack": the trick of the project the code came from
_QUOTED_SOURCE_RE = re.compile(r"(?:^|\s)(?:(?:copied|taken|quoted)\s+)?from\s+[\w./-]+\.(?:c|h|cc|cpp|py|js|go|rs|java)\s+in\s+[\w.-]+\s*:"
                               r"|\b(?:taken|copied|borrowed|lifted)\s+(?:verbatim\s+)?from\s+(?!(?:the|this|our|here|above|below)\b)[\w.-]+\s*:",
                               re.IGNORECASE)
# "the workaround tarfile uses if symlinking is disabled": another library's, not this code's
_OTHERS_WORKAROUND_RE = re.compile(
    r"\b(?:work-?around|hack|kludge)\s+(?!(?:that|which|this|it|to|for|in|is|was|here|we|i)\b)[A-Za-z_][\w.]*\s+"
    r"(?:uses|applies|employs|implements|performs)\b(?!\s+not\b)",
    re.IGNORECASE,
)
# Static checkers: a workaround for their complaint changes no behaviour
_CHECKER_RE = re.compile(r"\b(?:mypy|pyright|pyre|pytype|type[- ]checkers?|linters?|pylint|flake8|ruff|eslint|tsc)\b", re.IGNORECASE)
# A comment line that stops mid-clause ("... when agents run in tasks they", "... so that"): the next line goes on with it
_UNFINISHED_RE = re.compile(r"(?:,|\b(?:they|we|it|he|she|that|which|who|and|or|but|so|to|will|would|should|can|must|may|might|does|do))\s*$",
                            re.IGNORECASE)
# "Don't remove headers and footers if breaks are avoided", "Don't delete across lines": the
# marker's object (not "the lock", "this", "anything": code) goes on with the case it describes, and
# the sentence ends there (no ": the worker deadlocks otherwise", ", requests hang"): the behaviour's rule
_BEHAVIOUR_RE = re.compile(r"\s*(?!(?:the|a|an|this|these|that|those|it|them|any|anything|everything|all)\b)(?:[\w-]+\s+){0,4}?"
                           r"(?:if|when|unless|from|across|between|outside|beyond)\b[^.:;,!]*(?:[.!]|$)(?!\s*(?:\w+\s+){0,3}otherwise)",
                           re.IGNORECASE)
# "don't change self.options" over ``conf = dict(self.options)``: the object a do-not marker names, as code
_CODE_OBJECT_RE = re.compile(r"[`'\"]?([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+|[A-Za-z_]\w*_\w*)\b")


def _narrates(marker: "re.Match[str]", lines: list[str], number: int, test: bool = False) -> bool:
    """Whether a "don't change/touch" marker describes what the code does rather than warning
    maintainers: it goes on a sentence the comment line above began ("... when agents run in tasks
    they / don't touch each other's scopes", "... an alias-macro line — comments / don't change
    either decision"), it labels the setting it sits on ("Unstripped mode: Do not remove debug
    symbols." over ``unstripped_mode = ...``), it names a step of a test ("# Do not change the
    timestamp." over the update under test; not "this line"), or its object is a name the next code
    line reads ("don't change self.options" over ``conf = dict(self.options)``: the copy it explains)."""
    above = lines[number - 2] if number >= 2 else ""
    continued = _COMMENT_LINE_RE.match(above)
    if not marker.group("before").strip() and continued and (_UNFINISHED_RE.search(continued.group(1))
                                                                    or (_runs_on(continued.group(1)) and _word_count(marker.group("after"))
                                                                        and not _COMMENT_MARKER_RE.search(above))):
        return True
    if _BEHAVIOUR_RE.match(marker.group("after")):
        return True  # "Don't delete across lines", "Don't remove hidden files from the directory": what the code does
    in_test = test or (_enclosing_def(lines, number) or "").startswith("test")  # kinto's ``testing.py``: test methods of a suite mixin
    if in_test and _TEST_STEP_RE.match(marker.group("after")) and not _comment_after(lines, number):
        return True  # "do not delete archive1!", "Do not change the timestamp.": what the test does next
    following = next((text for text in lines[number:] if text.strip() and not _COMMENT_LINE_RE.match(text)), "")
    if _labels_the_code(marker, following):
        return True
    if not re.search(r"(?:change|touch)$", marker.group("marker"), re.IGNORECASE):
        # "don't remove self._lock": a thing to keep, whatever reads it; "Do not remove parameter
        # variables of ours." over ``assert not variable.isParameterVariable() ...``: what the code checks
        return _PLAIN_OBJECT_RE.match(marker.group("after")) is not None and _names_what_the_code_keeps(marker, lines, number, following)
    if _names_what_the_code_keeps(marker, lines, number, following):
        return True
    obj = _CODE_OBJECT_RE.match(marker.group("after").strip())
    if obj is None:
        return False
    name = re.escape(obj.group(1))
    if re.match(rf"\s*{name}\s*(?::[^=]*)?=(?!=)", following):
        return False  # "DO NOT CHANGE MAX_RETRIES" over its assignment: a warning about that value
    return re.search(rf"(?<![\w.]){name}(?!\w)", following) is not None


# In a test, "do not delete archive1!", "Do not change the timestamp.": a few words, not "this line" or "it"
_TEST_STEP_RE = re.compile(r"\s*(?!(?:this|these|that|those|it|them)\b)[\w'-]+(?:\s+[\w'-]+){0,5}\s*[.!]*\s*$", re.IGNORECASE)
_SENTENCE_ENDS_RE = re.compile(r"[.!?:;)]\s*$|^\W*$")


def _runs_on(text: str) -> bool:
    """A comment line of four or more words with no stop at its end: the line below may go on with its
    sentence (when it goes on with an object: "... line — comments / don't change either decision";
    "This is needed by the plugin system / do not remove" is a warning)."""
    return _word_count(text) >= 4 and not _SENTENCE_ENDS_RE.search(text)


def _labels_the_code(marker: "re.Match[str]", following: str) -> bool:
    """"Unstripped mode: Do not remove debug symbols." over ``unstripped_mode = ...``: the words before
    the colon name the code below, and the rest says what that setting means."""
    label = re.fullmatch(r"\s*([A-Za-z][\w\s-]{0,40}?):\s*", marker.group("before"))
    if label is None:
        return False
    names = {name.lower() for name in re.findall(r"[A-Za-z]+", following)}
    words = [word.lower() for word in re.findall(r"[A-Za-z]+", label.group(1)) if word.lower() not in _FILLER]
    return bool(words) and all(any(_same_word(word, name) for name in names) for word in words)


# "don't change positions of fixed nodes", "Do not change coordinates": a few plain words ending the comment
_PLAIN_OBJECT_RE = re.compile(r"\s*(?!(?:this|these|that|those|it|them|anything|everything)\b)((?:[A-Za-z]+\s+){0,4}[A-Za-z]+)\s*[.!]?\s*$",
                              re.IGNORECASE)
_FILLER = frozenset("the a an any all of its their our".split())


def _names_what_the_code_keeps(marker: "re.Match[str]", lines: list[str], number: int, following: str) -> bool:
    """Whether "don't change X" names, in plain words that end the comment, what the code it sits on
    leaves alone: "# don't change positions of fixed nodes" over ``delta_pos[fixed] = 0.0``, ``if k in
    coord_names:  # Do not change coordinates``. A warning names code ("this", ``MAX_RETRIES``), gives
    a reason, or names what the code does not mention ("Do not change the order")."""
    obj = _PLAIN_OBJECT_RE.match(marker.group("after"))
    if obj is None or _comment_after(lines, number):
        return False
    line = lines[number - 1]
    code = line[: line.find(marker.group(0))] if not _COMMENT_LINE_RE.match(line) else following
    code = re.sub(r"^\s*[\w.]+\s*(?::[^=]*)?=(?!=)", "", code)  # "Do not change the defaults" over ``defaults = ...``: a warning about that value
    names = {name.lower() for name in re.findall(r"[A-Za-z]+", code)}
    words = [word.lower() for word in obj.group(1).split() if word.lower() not in _FILLER]
    return any(_same_word(word, name) for word in words for name in names)


def _same_word(word: str, name: str) -> bool:
    """A comment's word and a name in code, abbreviated either way: "z" is ``z``, "coordinates" is
    ``coord_names``' "coord", "positions" is not "pos" (three letters abbreviate too much)."""
    if name == word:
        return True
    return len(word) >= 4 and (name.startswith(word[:5]) or (len(name) >= 4 and word.startswith(name)))


# "we include a hack in `process_block`. See the comments there.": the oddity is in that other place
# "our fake PyTrace_RETURN hack in tracer.c works": the oddity is in that file
_ELSEWHERE_RE = re.compile(r"^\s*(?:in|at|inside)\s+(?:`[^`]+`|\w+(?:\.\w+)*\(\)|(?-i:[a-z_][\w/.-]*)\.(?:c|h|cc|cpp|py|pyx|js|ts|go|rs|java|rb)\b)",
                           re.IGNORECASE)
# A workaround the code does not have: "instead of trying to work-around that, tell the user", "there is
# no workaround", "instead of doing silly workaround", "didn't hack the original table" ("instead of this
# hack" still points at one)
_DECLINED_RE = re.compile(r"\b(?:(?:instead\s+of|rather\s+than)\s+(?:trying|attempting)\s+to\s+"
                          r"|(?:(?:there\s+is|there'?s|there\s+are|and|but|with|has|have)\s+no"
                          r"|instead\s+of\s+(?:doing\s+|using\s+|adding\s+)?(?:(?:a|an|any|some)\s+)?(?:(?!this\b|that\b|the\b)\w+\s+)?"
                          r"|(?:did|does|do|will|would)\s*n[o']?t)\s*)$", re.IGNORECASE)
# "no workaround required for these": the marker itself says none is needed
_NONE_NEEDED_RE = re.compile(r"^\s*(?:is\s+)?(?:required|needed|necessary)\b", re.IGNORECASE)
# In a test: "test the ... workaround", "this was the workaround for #6285", "previous workaround for ...",
# "the FastAPI compatibility hack makes it work": the test exercises a workaround users apply (or
# applied), or the code's own, asked about where it is; it is not one
_TESTED_WORKAROUND_RE = re.compile(r"\b(?:test(?:s|ing)?\s+(?:that\s+)?(?:the|our|users'?|this)\s+(?:[\w'-]+\s+)?"
                                   r"|(?:was|would\s+have\s+been)\s+(?:a|the)\s+|(?:previous|old|former|expected|documented|historical|legacy)\s+)"
                                   r"(?:work-?arounds?|hacks?)\b|\bwork-?arounds?\s+for\s+(?:people|users)\b"
                                   r"|\bthe\s+(?:[\w'-]+\s+){0,3}(?:work-?around|hack)\s+(?:makes|keeps|lets|ensures|allows)\b", re.IGNORECASE)
# "Apply the work-around, if necessary...": the workaround a marker above explained, applied again
_APPLIED_RE = re.compile(r"\bappl(?:y|ies|ying)(?:\s+(?:the|this|that|our|same))?\s*$", re.IGNORECASE)
NEARBY = 40  # lines: an applied workaround this far below its marker is that marker's
# Words by which a sleep's comment names a bug it works around: still worth asking about, explained or not
_WORKAROUND_WORDS_RE = re.compile(
    r"\b(?:bug|work-?around|hack|kludge|unfortunately|instead\s+of|issue|broken|race)\b|https?://|#\d+", re.IGNORECASE
)
_SLEEP_WORDS_RE = re.compile(r"\b(?:sleep|wait|delay|pause|idle|poll|cpu|throttl\w*|back\s*off|grace|responsive)", re.IGNORECASE)
_SIGNAL_RE = re.compile(r"\.(?:send_signal|terminate|kill)\s*\(|\bos\.kill(?:pg)?\s*\(")
_WAITED_RE = re.compile(r"\.(?:wait|join|communicate)\s*\(")
_DEF_RE = re.compile(r"^\s*(?:async\s+)?(def|class)\s+(\w*)")  # (keyword, name)


def _sleep_oddity(rel: str, number: int, line: str, lines: list[str], polling: bool = False) -> Optional[Oddity]:
    """A literal sleep is a question unless the code around it answers it: a comment explaining
    the delay (a poll interval, an idle back-off), the loop it paces (``polling``: a ``while`` or a
    retry ``for`` that breaks), or a grace period after signalling a process that nothing has
    waited for yet. A comment that calls it a workaround for a bug keeps it."""
    if any(_USERS_PAUSE_RE.search(text) for text in _above_in_function(lines, number, 3)):
        return None  # "Think about it for 5 seconds, I'll wait (press Ctrl+C to abort)": the user's time to stop it
    comment = _trailing_comment(line)
    explained = comment if _word_count(comment) >= 3 else _comment_block(lines, number) or _sleep_comment_above(lines, number)
    if explained and not _WORKAROUND_WORDS_RE.search(explained):
        return None
    if not explained and (polling or _grace_period(lines, number)):
        return None
    return Oddity(rel, number, "sleep with a literal", line.strip(), explained)


# A message the sleep gives its reader time to act on
_USERS_PAUSE_RE = re.compile(r"\b(?:press(?:ing)?\s+)?(?:ctrl\s*[-+]?\s*c|\^c)\b|\bI'?ll\s+wait\b", re.IGNORECASE)


def _above_in_function(lines: list[str], number: int, limit: int) -> list[str]:
    """Up to ``limit`` lines above ``number`` (1-based), nearest first, not past the enclosing def."""
    found = []
    for index in range(number - 2, max(-1, number - 2 - limit), -1):
        if _DEF_RE.match(lines[index]):
            break
        found.append(lines[index])
    return found


def _sleep_comment_above(lines: list[str], number: int) -> str:
    """The comment a few lines up in the same function that speaks of the delay ("sleep ... to keep
    the idle CPU load low"), joined with the rest of its block."""
    above = _above_in_function(lines, number, 10)
    for offset, text in enumerate(above):
        if _COMMENT_LINE_RE.match(text) and _SLEEP_WORDS_RE.search(text):
            index = number - 2 - offset
            block = [text]
            while index - 1 >= 0 and _COMMENT_LINE_RE.match(lines[index - 1]):
                index -= 1
                block.insert(0, lines[index])
            words = " ".join(_COMMENT_LINE_RE.match(t).group(1).strip() for t in block)
            if _word_count(words) >= 6:
                return words
    return ""


def _grace_period(lines: list[str], number: int) -> bool:
    """A sleep right after a process was signalled and before anything waited for it: the time it
    is given to exit before the next, harder signal."""
    for text in _above_in_function(lines, number, 8):
        if _WAITED_RE.search(text):
            return False
        if _SIGNAL_RE.search(text):
            return True
    return False


_ZERO_SLEEP_RE = re.compile(r"\(\s*0+(?:\.0+)?\s*\)")
# A reason, in the words people use for one: a cause, a purpose, a condition, a reference.
_REASON_RE = re.compile(
    r"\b(?:because|since|otherwise|so\s+that|so\s+we|in\s+order\s+to|to\s+(?:avoid|prevent|keep|get|make|allow|work\s+around|"
    r"circumvent|support|handle|ensure)|due\s+to|caused\s+by|for\s+the\s+fact|needed|required|requires|until|unless|"
    r"when|if|as|issue|bug|see|fails?|crash(?:es)?|breaks?|broken|used\s+(?:for|by|to|in)|prevents?|avoids?|without|"
    r"can'?t|cannot|doesn'?t|won'?t|not\s+(?:supported|available|work))\b|https?://|#\d+|\b[A-Z]+-\d+\b",
    re.IGNORECASE,
)


def states_a_reason(text: str) -> bool:
    """Whether a comment says why, not only that something is a workaround ("# HACK", "# workaround")."""
    return _word_count(text) >= 4 and bool(_REASON_RE.search(text))


def _marker(line: str, comment: Optional[str]) -> Optional["re.Match[str]"]:
    """A marker in a comment: in Python the tokenizer's comment on the line (``comment``, "" for none),
    elsewhere the line's. "don't change" counts as an instruction (a comment's first words, or after
    punctuation), not as prose ("by default we don't change the title")."""
    match = _COMMENT_MARKER_RE.search(comment) if comment is not None else _found(_COMMENT_MARKER_RE, line)
    if match is None:
        return None
    if match.group("marker").lower().startswith(("do", "don")) and re.search(r"[\w,)]\s*$", match.group("before")):
        return None
    if re.search(r"[\"'`]$", match.group("before")):
        return None  # '"workaround: ..." names the problem': the word quoted, mentioned rather than used
    if _COMMENTED_OUT_RE.match(match.string):
        return None  # "#     # HACK: ..." inside a commented-out block: dead code asks nothing
    if _HYPOTHETICAL_RE.search(match.group("before")):
        return None  # "we could workaround this by ...": a workaround the code does not have
    if re.search(r"\bend(?:\s+of)?(?:\s+(?:the|this))?\s*$", match.group("before"), re.IGNORECASE):
        return None  # "XXX END HACK HACK HACK": the close of a block whose opening marker asks the question
    if _THROWAWAY_TOOL_RE.match(match.group("after")) and match.group("marker").lower() in ("hack", "kludge"):
        return None  # "Quick hack script to build a release": the word rates the whole file, no oddity in it
    return match


# A comment whose text opens another comment: the line of a commented-out block ("#     # HACK: ...")
_COMMENTED_OUT_RE = re.compile(r"^\s*(?:#|//)\s+(?:#(?!\d)|//)")
# "we could workaround this", "it might be hacked around": a modal before the marker
# "if we ever find we need them, we need to workaround that": a condition that has not come
_HYPOTHETICAL_RE = re.compile(r"\b(?:could|would|might|may)\s+(?:\w+ly\s+)?(?:(?:have|need|try|use|add|write)\s+(?:to\s+|an?\s+)?)?$"
                              r"|\bif\s+(?:we|you|it|this|that|they|anyone)\s+ever\b[^.;]*$", re.IGNORECASE)
_THROWAWAY_TOOL_RE = re.compile(r"\s+(?:scripts?|tools?|utility|utilities|programs?)\b")


def _comment_after(lines: list[str], number: int) -> str:
    """The comment lines right below ``number`` (1-based): a marker's sentence often goes on there."""
    texts, index = [], number
    while index < len(lines) and len(texts) < 6:
        match = _COMMENT_LINE_RE.match(lines[index])
        if not match:
            break
        texts.append(match.group(1).strip())
        index += 1
    return " ".join(" ".join(texts).split())


_COMMENT_LINE_RE = re.compile(r"^\s*(?:#|//|/\*|\*|--)\s?(.*)$")


def _comment_block(lines: list[str], number: int) -> str:
    """The comment lines right above ``number`` (1-based), joined, if they say enough (6+ words)."""
    texts = []
    index = number - 2
    while index >= 0 and len(texts) < 12:
        match = _COMMENT_LINE_RE.match(lines[index])
        if not match or lines[index].lstrip().startswith(("#!", "#[")):
            break
        texts.insert(0, match.group(1).strip())
        index -= 1
    text = " ".join(" ".join(texts).split())
    return text if _word_count(text) >= 6 else ""


def _trailing_comment(line: str) -> str:
    match = re.search(r"\s(?:#|//)\s+(.*)$", line)
    return match.group(1).strip() if match else ""


def _word_count(text: str) -> int:
    return len(re.findall(r"[A-Za-z]{2,}", text or ""))


def oddity_questions(oddities: list[Oddity]) -> list[Question]:
    return [
        Question(f"oddity:{o.path}:{o.line}",
                 f"Why does the {o.what} at {o.path}:{o.line}{_copies(o)} exist? (`{_short(o.text)}`)",
                 "oddity", f"{o.path}:{o.line}", terms_of(o.text),
                 {"path": o.path, "line": o.line, "explained": o.explained, "what": o.what, "copies": list(o.copies)})
        for o in oddities
    ]


def _copies(oddity: Oddity) -> str:
    if not oddity.copies:
        return ""
    return f" (and its copy at {oddity.copies[0]})" if len(oddity.copies) == 1 else f" (and {len(oddity.copies)} copies)"


def _short(text: str, limit: int = 80) -> str:
    text = text.replace("`", "'")
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --- words -----------------------------------------------------------------------------------

STOPWORDS = frozenset(
    "a an the and or but of on in at to for from by with without into onto after before when while is are was were be "
    "been being it its this that these those there then than so as not no yes do does did has have had i we you they "
    "he she my our your their me us them again some any all very just only also can could should would will shall may "
    "might must why what how where which who whom whose is does did cause causes caused causing exist exists happen "
    "happens happened mean means get gets got use used using one two way ways thing things here".split()
)
_WORD_RE = re.compile(r"[A-Za-z][A-Za-z0-9_]*|\d+(?:\.\d+)*")


def normalize(text: str) -> str:
    return " ".join(re.sub(r"[^\w]+", " ", text.lower()).split())


def stem(word: str) -> str:
    word = word.lower()
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            word = word[: -len(suffix)]
            if len(word) >= 4 and word[-1] == word[-2] and word[-1] not in "aeiousl":
                word = word[:-1]  # pinned -> pin, stopped -> stop
            break
    return word


def terms_of(text: str) -> tuple[str, ...]:
    """The significant, stemmed words of ``text`` (identifiers split at underscores too)."""
    terms = []
    for raw in _WORD_RE.findall(text or ""):
        parts = [raw, *raw.split("_")] if "_" in raw else [raw]
        for part in parts:
            word = part.lower()
            if word in STOPWORDS or (len(word) < 3 and not word.isdigit()):
                continue
            terms.append(stem(word))
    return tuple(dict.fromkeys(terms))
