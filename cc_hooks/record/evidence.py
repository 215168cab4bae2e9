"""Which past commits fixed this symptom? Ranked by evidence, not by the word "fix".

A project that has just adopted the method has a long history and no ``Symptom:``
trailers: its fixes say what they changed ("Close the pager temp file before unlinking
it"), not what the user saw ("PermissionError when the pager exits on Windows"). So
every commit is scored by what links it to the symptom's words:

- issue numbers the symptom names (``#123``) in the message;
- identifiers the symptom names (``delete_where``, ``Client.get``, ``KeyError``,
  ``--no-color``): a commit whose diff adds or removes a line holding one (one ``git log -G``
  for all of them, at most four), and its message naming one;
- strings the symptom quotes (an input, an output: ``"--A;\n--B;"``): a commit whose diff adds or
  removes a line holding one (the same ``git log -G``), less for a string many commits changed;
- paths and modules the symptom names, among the files the commit touched;
- the symptom's words in the subject and body, weighted by how rare each word is in
  this history (a word every commit uses says nothing);
- the commit changed code: a merge, a release or changelog-only commit loses to the
  commit whose diff is the fix, a subject announcing a feature ("Add X", "feat:") to a subject saying
  nothing of a fix; and of two commits linked alike, the smaller change (lines of code
  and tests, ``--numstat``) is more likely the fix than a feature that rewrote the module;
- the release the report says brought the bug ("since 3.5.0"): a commit new in it shipped with the
  bug and loses (``cc_hooks.record.releases``);
- among the best, the symptom's words in the lines a commit changed (its test feeds the input the
  user reported), less for a large diff.

Git processes: the history is the caller's index (``cc_hooks.record.history_index``, remembered);
then one ``git log -G`` for the identifiers (and one ``diff-tree -U0`` of its hits to tell them
apart), one ``git grep`` and one ``git log`` for the files defining them, one
``diff-tree --stdin --numstat`` for the files and sizes of the best candidates, and one ``diff-tree -p`` for the lines
the best ``DIFF_CANDIDATES`` changed; when the report names a version, one ``for-each-ref``, one
``describe`` and one ``rev-list`` (``releases``).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Optional

_WORD_RE = re.compile(r"[^\W_]+")  # letters and digits of any script: "πριν", "Mäßig"
_ISSUE_RE = re.compile(r"(?:#|\bissues?\s+|\bgh-|\bpr\s+)(\d{1,6})\b", re.I)
_BACKTICK_RE = re.compile(r"`([^`]{2,80})`")
_IDENT_RE = re.compile(
    r"--[a-z][\w-]+"  # an option
    r"|\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:\(\))?"  # dotted
    r"|\b[a-z]\w*_\w+\b(?:\(\))?"  # snake_case
    r"|\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+\b"  # PascalCase: KeyError, UnicodeDecodeError
    r"|\b[a-z]+[A-Z]\w*\b"  # camelCase
    r"|\b\w+\(\)"  # call()
    r"|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b"  # UPPER_SNAKE: SERVER_NAME, NO_PROXY
)
# What a user quotes ("--A;\n--B;", '(UTC+01:00) Amsterdam', `from(`): the input or output itself,
# which the fix's regression test repeats; a bare word or name is no literal (words and ``_IDENT_RE`` have
# those), unless it is in another script than the report ("Μαϊ": an output of the program, not prose)
_LITERAL_RE = re.compile(r'"([^"\n]{3,80})"|(?<![\w\'])\'([^\'\n]{3,80})\'(?![\w\'])|`([^`\n]{3,80})`')
_NAME_ONLY_RE = re.compile(r"[\w.]+(?:\(\))?|[\w\s]+")
# A traceback's ``File "/home/u/venv/.../parser.py"`` and ``"<stdin>"``: the user's paths, not the input
_NOT_INPUT_RE = re.compile(r"^<[\w\s-]+>$|^(?:[A-Za-z]:)?[\w.~-]*[/\\][^\s\"']*\.(?:py|pyx|js|ts|rb|go|rs|java|c|h|cpp)$")
MAX_LITERALS = 3
# A name quoted in an error message ("has no attribute '_pin'") when it looks like code.
_QUOTED_NAME_RE = re.compile(r"""['"]([A-Za-z_][\w.]*[_.][\w.]*\w|_[a-z]\w+)['"]""")
_CAMEL_RE = re.compile(r"\b[A-Za-z][a-z0-9]*[A-Z]\w*")
_CAMEL_PART_RE = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_PATH_RE = re.compile(r"\b[\w./-]+\.(?:py|js|ts|go|rs|c|h|cpp|java|rb|toml|cfg|ini|json|ya?ml|md|rst|txt|sh)\b")
_MERGE_RE = re.compile(r"^Merge (pull request|branch|remote-tracking branch|tag)\b")
_RELEASE_RE = re.compile(r"^(release|bump|version|prepare|changelog|update (the )?(changelog|changes|news)|v?\d+\.\d+(\.\d+)?$)", re.I)
_FIXISH_RE = re.compile(r"\b(fix(es|ed)?|bug|crash(es)?|regression|correct(ly)?|handle[sd]?|prevent|broken|wrong|don'?t|do not|"
                        r"no longer|avoid|preserve|restore|respect|ensure)\b", re.I)
_DOC_RE = re.compile(r"(^|/)(docs?|changes?|changelog|news|history|releases?|authors|contributors)(/|\.|$)|\.(md|rst|txt|adoc)$", re.I)
_TEST_PATH_RE = re.compile(r"(^|/)(tests?|testing)/|(^|/)test_[^/]*$|_test\.\w+$", re.I)
_STOP = frozenset(
    "a an the and or but of on in at to for from by with without into onto after before when while is are was were be been "
    "being it its this that these those there then than so as not no yes do does did has have had i we you they he she my our "
    "your their me us them again some any all very just only also get gets got can cannot can't doesn't don't isn't instead "
    "should would will now new one use used using".split()
)
_CHORE_RE = re.compile(r"^(refactor|clean ?up|tidy|reformat|typing|type hints?|lint|rename|move|tests?\b)", re.I)


def is_chore(subject: str) -> bool:
    """A subject saying the commit refactors, renames, reformats or only touches tests."""
    return bool(_CHORE_RE.search(subject))


# A subject announcing a feature; "Add missing f-string", "Add check for ..." are fixes
_FEATURE_RE = re.compile(r"^(?:feat(?:ure)?(?:\(.*?\))?!?:\s*|(?:add(?:s|ed)?|implement(?:s|ed)?|introduc\w*|new)\b)"
                         r"(?!.*\b(?:missing|check)\b)", re.I)
_DOCS_SUBJECT_RE = re.compile(r"^(docs?|chore|ci|style|test)(\(.*?\))?!?:", re.I)
# A changelog line naming the identifier is not a change to it.
_NOT_CODE = [f":(exclude,glob,icase){g}" for g in ("**/*.md", "**/*.rst", "**/*.txt", "**/*.adoc", "**/CHANGES*", "**/HISTORY*",
                                                   "**/NEWS*", "**/CHANGELOG*", "docs/**", "doc/**")]
# ``_NOT_CODE`` as one pattern over a path: what a diff's size leaves out
_NOT_CODE_RE = re.compile(r"\.(md|rst|txt|adoc)$|(^|/)(CHANGES|HISTORY|NEWS|CHANGELOG)[^/]*$|^docs?/", re.I)
CANDIDATES = 5  # shown
DIFF_CANDIDATES = 20  # the best candidates whose changed lines are read
MAX_DIFF_LINES = 2000  # of one candidate's changed lines, the words of the first are read
STRONG = 10.0  # a candidate this strong is a prior cause; below it, a mention
SMALL_DIFF = 10  # lines: a change this small loses little of its score for its size


@dataclass(frozen=True)
class Weights:
    """What each kind of evidence adds to (or takes from) a candidate's score, in one place. The
    values are ``bench/triage_tune.py --search``'s on the 199 labeled symptoms of rounds 1-4
    (DECISIONS.md), but the penalty of a docs-only commit (the fix is the commit that changed code) and
    ``diff_size``, chosen on rounds 1-12 with every other weight kept (DECISIONS.md, 2026-12-04)."""

    issue: float = 40.0  # the message names an issue the symptom names
    changed_identifier: float = 6.0  # a diff changing a line with a named identifier (the rarest; less for common ones)
    introduced: float = 0.0  # the commit that introduced the identifier (found by the same walk; no gain measured)
    named_identifier: float = 4.0  # the message names it (less for a name hundreds of messages name)
    literal: float = 12.0  # a diff changing a line holding what the user quoted (less for a common string)
    shipped: float = -20.0  # new in the release the report says brought the bug: it shipped with the bug
    text: float = 30.0  # all of a phrasing's rarest words in the subject or a changelog entry credited to it
    text_floor: float = 0.1  # below this share, the words count for nothing
    body: float = 0.6  # what the whole message's share is worth against the subject's
    tests: float = 1.0  # what the new tests' names' share is worth
    fixish: float = 5.625  # the subject or its changelog entry says it fixed something
    merge: float = 0.0  # its branch's commit keeps the better score of the two (``_fold_merges``)
    release: float = -12.0
    chore: float = -3.0
    docs_subject: float = -12.0
    defining_file: float = 6.0  # touches the file defining a named identifier
    named_module: float = 0.0  # touches a named path or module (a named path is a defining file already)
    broad: float = -2.5  # more than 12 files
    only_tests: float = -4.0
    only_docs: float = -15.0
    diff_size: float = -3.0  # per log(1 + lines / SMALL_DIFF) of code and tests changed: of two commits linked alike, the small one is the fix
    changed_lines: float = 10.0  # a small diff holding all of a phrasing's rarest words
    changed_lines_size: float = 37.5  # the diff size (lines) at which that is worth 1 / (1 + log 2)
    feature: float = -4.0  # the subject announces a feature ("Add X", "Implement Y") and says nothing of a fix


WEIGHTS = Weights()


def _stem(word: str) -> str:
    """delete, deletes, deleted, deleting -> delet; eggs -> egg (not status, axis): crude, but the same
    for the symptom and the commits."""
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + (2 if suffix == "s" else 3) and word.endswith(suffix) and not word.endswith(("ss", "us", "is")):
            word = word[: -len(suffix)]
            if suffix in ("ing", "ed") and len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls":
                word = word[:-1]  # wrapped -> wrap
            break
    return word[:-1] if len(word) > 4 and word.endswith("e") else word


def _with_camel_parts(text: str) -> str:
    """``text`` and the words of its CamelCase names: ASGITransport -> asgi transport, DigestAuth -> digest auth."""
    parts = [" ".join(_CAMEL_PART_RE.findall(name)) for name in _CAMEL_RE.findall(text)
             if not name.endswith(("Error", "Exception", "Warning"))]  # "value error" says nothing ValueError does not
    return f"{text} {' '.join(parts)}" if parts else text


_ERROR_NAME_RE = re.compile(r"\b([A-Z][A-Za-z0-9]*?)(?:Error|Exception)\b")
# Builtin errors whose first word says nothing a fix would say ("value", "type", "key").
_GENERIC_ERRORS = frozenset("Value Type Key Index Attribute Runtime OS IO Name Lookup Assertion System Environment Base "
                            "Standard Reference Arithmetic Buffer Exception Import Module Not Implemented Syntax".lower().split())


def report_words(text: str) -> set[str]:
    """``words_of`` a report, and the words an error's name is made of: a report says
    ``RecursionError`` where its fix says "recursion" (the index keeps names whole)."""
    bases = " ".join(_CAMEL_PART_RE.findall(" ".join(b for b in _ERROR_NAME_RE.findall(text) if b.lower() not in _GENERIC_ERRORS)))
    return words_of(text) | words_of(bases)


def _surface(text: str) -> dict[str, str]:
    """stem -> the shortest word of the report that has it ("window" for "windows", "airbrake" for "airbrak")."""
    found: dict[str, str] = {}
    for word in _WORD_RE.findall(_with_camel_parts(text).lower()):
        if word in _STOP or len(word) <= 1:
            continue
        stem = _stem(word)
        if stem not in found or len(word) < len(found[stem]):
            found[stem] = word
    return found


def words_of(text: str) -> set[str]:
    return {_stem(w) for w in _WORD_RE.findall(_with_camel_parts(text).lower()) if w not in _STOP and len(w) > 1}


def word_stemmer():
    """``words_of`` with a memory of the stems it computed: for indexing many messages."""
    stems: dict[str, str] = {}

    def words(text: str) -> set[str]:
        found = set()
        for word in _WORD_RE.findall(_with_camel_parts(text).lower()):
            stem = stems.get(word)
            if stem is None:
                stem = stems[word] = _stem(word) if word not in _STOP and len(word) > 1 else ""
            if stem:
                found.add(stem)
        return found

    return words


@dataclass
class Query:
    words: set[str]
    phrasings: list[set[str]]  # each phrasing's words: the share of the best one counts
    identifiers: list[str]
    paths: list[str]
    issues: set[str]
    literals: list[str] = field(default_factory=list)  # quoted inputs and outputs (``_LITERAL_RE``)
    weights: dict = field(default_factory=dict)  # identifier or literal -> what a diff changing it is worth (rarer: more)
    named_weights: dict = field(default_factory=dict)  # identifier -> what a message naming it is worth
    versions: list[str] = field(default_factory=list)  # releases the report says have the bug (``releases``)
    surface: dict = field(default_factory=dict)  # stem -> the word as the report wrote it: what a person is shown

    @classmethod
    def of(cls, phrasings: list[str]) -> "Query":
        text = " ".join(phrasings)
        quoted = [m for m in _BACKTICK_RE.findall(text)]
        found = [*quoted, *_QUOTED_NAME_RE.findall(text), *_IDENT_RE.findall(text)]
        idents = list(dict.fromkeys(i.rstrip("()") for i in found if len(i.rstrip("()")) >= 4))
        paths = list(dict.fromkeys(_PATH_RE.findall(text)))
        idents = [i for i in idents if i not in paths and " " not in i]
        each = [w for w in (report_words(p) for p in phrasings) if w]
        literals = [m.group(m.lastindex).strip() for m in _LITERAL_RE.finditer(text)]
        literals = [l for l in dict.fromkeys(literals) if l not in idents[:4] and not _NOT_INPUT_RE.search(l)
                    and (len(l) >= 4 and not _NAME_ONLY_RE.fullmatch(l) if l.isascii() else len(l) >= 3)]
        from cc_hooks.record.releases import named_versions

        return cls(report_words(text), each, idents[:4], paths, set(_ISSUE_RE.findall(text)), literals[:MAX_LITERALS],
                   versions=named_versions(text), surface=_surface(text))


@dataclass
class Candidate:
    sha: str
    date: str
    subject: str
    score: float = 0.0
    reasons: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)

    @property
    def why(self) -> str:
        return "; ".join(self.reasons)


def rank(root, phrasings: list[str], index, timeout: float = 30.0, limit: int = CANDIDATES,
         record_files: tuple[str, ...] = (), exclude: tuple[str, ...] = (), weights: Weights = WEIGHTS) -> list[Candidate]:
    """The commits of ``index`` (``cc_hooks.record.history_index``: HEAD's history) that evidence
    links to the symptom, best first; ``exclude``: (abbreviated) shas the record already names.
    ``record_files``: the ledgers; a commit that only edits them records a symptom, fixes nothing."""
    query = Query.of(phrasings)
    if not (query.words or query.identifiers or query.issues or query.literals) or not len(index):
        return []
    found = _word_hits(index, query)
    idf = _idf(query.words, found, len(index))
    by_diff = _identifier_hits(root, query.identifiers, timeout, query.literals)
    query.weights = diff_weights(query, by_diff, len(index), weights)
    scale = math.log(max(len(index), 2))
    homes = _defining_files(root, query.identifiers, timeout)
    for path in query.paths:
        homes.setdefault(path, [])
    near = _commits_touching(root, homes, timeout)
    named = {i: index.naming(i) for i in query.identifiers}
    # A message naming a name hundreds of messages name (``TypeError``) says little.
    query.named_weights = {i: weights.named_identifier * max(0.1, 1 - math.log(max(len(at), 1)) / scale) for i, at in named.items()}
    issues = {n: set(index.postings("names", f"#{n}")) for n in query.issues}
    positions = set(found) | set().union(*named.values(), *issues.values())
    fix_noted = index.fix_noted()
    positions |= {p for p in (index.position(sha) for sha in (*by_diff, *near)) if p is not None}
    scored: dict[str, Candidate] = {}
    for position in positions:
        sha, date, subject = index.rows[position][:3]
        if exclude and sha.startswith(exclude):
            continue
        text_words = found.get(position, (set(), set(), set(), set()))
        evidence = Evidence(sorted(n for n, at in issues.items() if position in at),
                            [i for i in query.identifiers if position in named[i]], by_diff.get(sha, []), position in fix_noted)
        candidate = _score_text(sha, date, subject, text_words, query, idf, evidence, weights)
        if sha in near:
            candidate = candidate or Candidate(sha, date, subject)
            defines = homes[near[sha]]
            candidate.score += weights.defining_file
            candidate.reasons.append(f"touches {near[sha]}" + (", which defines " + ", ".join(f"`{i}`" for i in defines) if defines else ""))
        if candidate is not None:
            scored[sha] = candidate
    _fold_merges(index, scored)
    best = sorted(scored.values(), key=lambda c: -c.score)[:60]
    _score_shipped(root, best, query, timeout, weights)
    _score_files(root, best, query, timeout, set(record_files), weights)
    best.sort(key=lambda c: (-c.score, c.date))
    _score_diffs(root, best[:DIFF_CANDIDATES], query, idf, timeout, weights)
    best.sort(key=lambda c: (-c.score, c.date))
    return best[:limit]


def diff_weights(query: Query, by_diff: dict[str, list[str]], commits: int, weights: Weights = WEIGHTS) -> dict[str, float]:
    """identifier or literal -> what a commit whose diff changes it is worth: less the more of the
    ``commits`` changed it (``by_diff``: ``_identifier_hits``)."""
    hits: dict[str, int] = {}
    for found in by_diff.values():
        for ident in found:
            key = ident if ident in query.literals else ident.lstrip("+")  # "+x": introduced x; a literal may begin with "+"
            hits[key] = hits.get(key, 0) + 1
    scale = math.log(max(commits, 2))
    return {i: (weights.literal if i in query.literals else weights.changed_identifier) * max(0.0, 1 - math.log(max(n, 1)) / scale)
            for i, n in hits.items()}


def _fold_merges(index, scored: dict) -> None:
    """A merge and the commit it merged (its second parent) are one change found twice: the
    commit keeps the better score of the two, the merge leaves the list."""
    for sha in list(scored):
        candidate = scored.get(sha)
        position = index.position(sha)
        merged = index.rows[position][4] if position is not None else ""
        if candidate is None or not merged or merged not in scored:
            continue
        tip = scored[merged]
        if candidate.score > tip.score:
            tip.score = candidate.score
            tip.reasons = [r for r in candidate.reasons if not r.startswith("a merge")]
        tip.reasons.append(f"merged by {sha[:10]}")
        del scored[sha]


@dataclass
class Evidence:
    issues: list[str]  # issue numbers the message names
    named: list[str]  # identifiers the message names
    diff: list[str]  # identifiers its diff changes ("+x": the commit that introduced x)
    fix_noted: bool = False  # a changelog entry credited to it says it fixed something


def _word_hits(index, query: Query) -> dict[int, tuple[set[str], set[str], set[str], set[str]]]:
    """position -> the query's words in its subject, those only in the rest of its message, those
    in the changelog entries credited to it and in the names of the tests it added (``history_index``)."""
    found: dict[int, tuple[set[str], set[str], set[str], set[str]]] = {}
    for word in query.words:
        places = (index.postings("subject", word), index.postings("body", word), index.noted(word), index.postings("tests", word))
        for slot, positions in enumerate(places):
            for position in positions:
                found.setdefault(position, (set(), set(), set(), set()))[slot].add(word)
    return found


def _idf(words: set[str], found: dict, count: int) -> dict[str, float]:
    df = dict.fromkeys(words, 0)
    for subject_words, body_words, noted_words, test_words in found.values():
        for word in subject_words | body_words | noted_words | test_words:
            df[word] += 1
    return {w: math.log((max(count, 1) + 1) / (n + 0.5)) for w, n in df.items()}


def _whole(words: set[str], idf: dict) -> float:
    """What all of a phrasing is worth: a long report holds more words than any subject, so its
    rarest half (at least four words) is the whole."""
    rarities = sorted((idf[w] for w in words), reverse=True)
    return sum(rarities[: max(4, (len(rarities) + 1) // 2)]) or 1.0


def _share(words: set[str], subject_words: set[str], body_words: set[str], noted_words: set[str], test_words: set[str],
           idf: dict, weights: Weights = WEIGHTS) -> tuple[float, set[str], set[str], set[str], set[str]]:
    """How much of one phrasing's rarity the commit's subject holds, or a changelog entry credited to
    it, or (at ``weights.body``) its whole message, or (at ``weights.tests``) the names of the tests it added: a fix's body often
    describes the symptom its subject does not, and its regression test is named after it."""
    in_subject, in_body = words & subject_words, (words & body_words) - subject_words
    in_noted, in_tests = words & noted_words, words & test_words
    total = _whole(words, idf)
    subject_share = sum(idf[w] for w in in_subject) / total
    noted_share = sum(idf[w] for w in in_noted) / total
    tests_share = sum(idf[w] for w in in_tests) / total
    message_share = (sum(idf[w] for w in in_subject) + sum(idf[w] for w in in_body)) / total
    share = max(subject_share, noted_share, weights.body * message_share, weights.tests * tests_share)
    return min(1.0, share), in_subject, in_body, in_noted, in_tests


def _score_text(sha: str, date: str, subject: str, text_words: tuple[set[str], set[str], set[str], set[str]], query: Query, idf: dict,
                evidence: Evidence, weights: Weights = WEIGHTS) -> Optional[Candidate]:
    reasons, score = [], 0.0
    if evidence.issues:
        score += weights.issue
        reasons.append("names " + ", ".join(f"#{n}" for n in evidence.issues))
    quoted = [i for i in evidence.diff if i in query.literals]
    changed = [i for i in evidence.diff if not i.startswith("+") and i not in query.literals]
    introduced = [i[1:] for i in evidence.diff if i.startswith("+") and i not in query.literals]
    if changed:
        score += sum(query.weights.get(i, weights.changed_identifier) for i in changed)
        reasons.append("its diff changes lines with " + ", ".join(f"`{i}`" for i in changed))
    if quoted:
        score += sum(query.weights.get(i, weights.literal) for i in quoted)
        reasons.append("its diff changes lines holding " + ", ".join(f'"{i}"' for i in quoted))
    if introduced:
        score += weights.introduced * len(introduced)
        reasons.append("introduced " + ", ".join(f"`{i}`" for i in introduced))
    if evidence.named:
        score += sum(query.named_weights.get(i, weights.named_identifier) for i in evidence.named)
        reasons.append("message names " + ", ".join(f"`{i}`" for i in evidence.named))
    share, in_subject, in_body, in_noted, in_tests = max((_share(words, *text_words, idf, weights) for words in query.phrasings),
                                                         key=lambda found: found[0], default=(0.0, set(), set(), set(), set()))
    if share >= weights.text_floor:
        score += weights.text * share
        said = lambda stems, most: " ".join(query.surface.get(w, w) for w in sorted(stems, key=lambda w: -idf[w])[:most])  # noqa: E731
        if in_subject:
            reasons.append("subject shares " + said(in_subject, 5))
        if in_body:
            reasons.append("body shares " + said(in_body, 4))
        if in_noted - in_subject:
            reasons.append("changelog entry shares " + said(in_noted - in_subject, 5))
        if in_tests - in_subject - in_noted:
            reasons.append("its new tests' names share " + said(in_tests - in_subject - in_noted, 4))
    if not reasons:
        return None
    if _FIXISH_RE.search(subject) or evidence.fix_noted:
        score += weights.fixish
    elif _FEATURE_RE.search(subject):
        score += weights.feature
        reasons.append("its subject announces a feature")
    if _MERGE_RE.search(subject):
        score += weights.merge
        reasons.append("a merge (the change is its branch's)")
    elif _RELEASE_RE.search(subject):
        score += weights.release
        reasons.append("a release commit")
    elif _CHORE_RE.search(subject):
        score += weights.chore
        reasons.append("a refactor/cleanup")
    elif _DOCS_SUBJECT_RE.search(subject):
        score += weights.docs_subject
        reasons.append("a docs/chore commit")
    return Candidate(sha, date, subject, score, reasons)


def _identifier_hits(root, identifiers: list[str], timeout: float, literals: list[str] = ()) -> dict[str, list[str]]:
    """sha -> the identifiers (and ``literals``) whose lines its diff adds or removes; the oldest
    commit of each identifier is marked ``+x`` (it introduced ``x``, which it fixed nothing about yet;
    the oldest holding a literal is often the fix, whose test added the input).

    One ``git log -G`` for all of them (a history walk computes every commit's diff: one walk,
    not one per identifier), then, when there are several, one ``diff-tree -U0`` of the commits
    it found says which identifiers each one's lines hold."""
    from cc_hooks.git import run_git

    literals = [i for i in literals if i not in identifiers]
    identifiers = [*identifiers, *literals]
    if not identifiers:
        return {}
    pattern = "|".join(f"({_extended(i)})" for i in identifiers)
    shas = run_git(root, "log", "HEAD", "--full-history", "--no-ext-diff", "--no-textconv", "--format=%H", f"-G{pattern}",
                   "--", ".", *_NOT_CODE, check=False, timeout=timeout).split()
    if len(identifiers) == 1:
        per_ident = {identifiers[0]: shas}
    else:
        per_ident = _attribute(root, identifiers, shas, timeout)
    hits: dict[str, list[str]] = {}
    for ident in identifiers:
        found = [sha for sha in shas if sha in per_ident.get(ident, ())]  # newest first, as git listed them
        for sha in found[:-1] if ident not in literals else found:
            hits.setdefault(sha, []).append(ident)
        if found and ident not in literals:
            hits.setdefault(found[-1], []).append(f"+{ident}")
    return hits


def _attribute(root, identifiers: list[str], shas: list[str], timeout: float) -> dict[str, set[str]]:
    """identifier -> the shas whose added or removed code lines hold it (one ``diff-tree -U0``)."""
    found: dict[str, set[str]] = {i: set() for i in identifiers}
    for sha, lines in _changed_code(root, shas, timeout).items():
        changed = "\n".join(lines)
        for ident in identifiers:
            if ident in changed:
                found[ident].add(sha)
    return found


def _changed_code(root, shas: list[str], timeout: float, merges: bool = False) -> dict[str, list[str]]:
    """sha -> the code and test lines it added or removed, docs and changelogs left out (one
    ``diff-tree --stdin -U0``); ``merges``: a merge's lines are its whole branch's (``-m``, the diff against its first parent)."""
    from cc_hooks.git import run_git_bytes

    if not shas:
        return {}
    proc = run_git_bytes(root, "diff-tree", "--stdin", "-p", "-U0", "--no-color", "--no-ext-diff", "--no-textconv", "--no-renames",
                         "--root", *(("-m", "--first-parent") if merges else ()), "--format=%x1e%H", "--", ".", *_NOT_CODE,
                         input="\n".join(shas).encode() + b"\n", timeout=timeout)
    changed: dict[str, list[str]] = {}
    for record in proc.stdout.decode("utf-8", "replace").split("\x1e")[1:]:
        sha, _, patch = record.partition("\n")
        if sha.strip() in changed:  # a merge's diff against its second parent (diff-tree ignores --first-parent)
            continue
        changed[sha.strip()] = [line[1:] for line in patch.split("\n") if line[:1] in ("+", "-") and not line.startswith(("+++ ", "--- "))]
    return changed


def _defining_files(root, identifiers: list[str], timeout: float) -> dict[str, list[str]]:
    """HEAD file -> the identifiers it defines (``def``/``class``/``function``/assignment), one ``git grep``;
    an identifier defined in more than three files names no place."""
    from cc_hooks.git import run_git

    names = [i.rsplit(".", 1)[-1] for i in identifiers if not i.startswith("-")]
    names = [n for n in dict.fromkeys(names) if re.fullmatch(r"[A-Za-z_]\w{3,}", n)]
    if not names:
        return {}
    args = ["grep", "-I", "-E", "-o", "--no-color", "-z"]
    for name in names:
        args += ["-e", rf"(def|class|function|fn|func)[[:space:]]+{name}\b|^{name}[[:space:]]*="]
    out = run_git(root, *args, "HEAD", "--", check=False, timeout=timeout)
    found: dict[str, set[str]] = {}
    for record in out.splitlines():
        path, _, text = record.partition("\0")
        path = path.split(":", 1)[-1]
        for name in names:
            if re.search(rf"\b{name}\b", text):
                found.setdefault(name, set()).add(path)
    homes: dict[str, list[str]] = {}
    for name, paths in found.items():
        if len(paths) <= 3:
            for path in paths:
                homes.setdefault(path, []).append(name)
    return homes


def _commits_touching(root, homes: dict[str, list[str]], timeout: float) -> dict[str, str]:
    """sha -> the defining file it touches, for every commit touching one (one ``git log``)."""
    from cc_hooks.git import run_git

    if not homes:
        return {}
    out = run_git(root, "log", "HEAD", "--full-history", "--format=\x1e%H", "--name-only", "--", *[f":(literal){p}" for p in homes],
                  check=False, timeout=timeout)
    touching = {}
    for record in out.split("\x1e")[1:]:
        sha, _, names = record.partition("\n")
        hit = next((n for n in names.split("\n") if n in homes), None)
        if hit:
            touching[sha.strip()] = hit
    return touching


def _extended(text: str) -> str:
    """``text`` as a POSIX extended regular expression matching itself (``log -G`` takes one)."""
    return re.sub(r"([.\[\]()*+?{}|^$\\])", r"\\\1", text)


def _score_shipped(root, candidates: list[Candidate], query: Query, timeout: float, weights: Weights = WEIGHTS) -> None:
    """A candidate new in the release the report says brought the bug ("since 3.5.0") shipped with it:
    more likely its cause than its fix (``cc_hooks.record.releases``)."""
    from cc_hooks.record.releases import new_in, newest, tags_of

    version = newest(query.versions) if query.versions and candidates else None
    tags = tags_of(root, [version], timeout) if version else []
    if not tags:
        return
    shipped = set().union(*(new_in(root, tag, timeout) for tag in tags[:2]))  # "v3.5.0" and "3.5.0"; not every package's of a monorepo
    for candidate in candidates:
        if candidate.sha in shipped:
            candidate.score += weights.shipped
            candidate.reasons.append(f"new in {version}, which the report says has the bug: more likely its cause")


def _score_files(root, candidates: list[Candidate], query: Query, timeout: float, record_files: set[str],
                 weights: Weights = WEIGHTS) -> None:
    """Files of each candidate (one ``diff-tree --stdin --numstat``): a named path or module touched counts;
    a commit that changed only documentation and changelogs is not the fix; a large change loses to a
    small one (``Weights.diff_size``)."""
    from cc_hooks.git import run_git

    if not candidates:
        return
    # diff-tree ignores --first-parent: a merge's block against each parent follows the first one
    out = run_git(root, "-c", "core.quotepath=false", "diff-tree", "--stdin", "-r", "--numstat", "--no-renames", "--root", "-m",
                  input="\n".join(c.sha for c in candidates) + "\n", check=False, timeout=timeout)
    files: dict[str, list[str]] = {}
    sizes: dict[str, int] = {}  # sha -> lines its code and tests added or removed (not docs, not binaries)
    current = None
    for line in out.splitlines():
        if re.fullmatch(r"[0-9a-f]{40}", line):
            current = None if line in files else line
            files.setdefault(line, [])
            sizes.setdefault(line, 0)
        elif line and current is not None:
            added, _, rest = line.partition("\t")
            removed, _, path = rest.partition("\t")
            files[current].append(path)
            if added.isdigit() and removed.isdigit() and not _NOT_CODE_RE.search(path):
                sizes[current] += int(added) + int(removed)
    modules = {p.rsplit("/", 1)[-1].rsplit(".", 1)[0].lower() for p in query.paths}
    modules |= {part.lower() for i in query.identifiers for part in i.split(".")[:-1] if len(part) > 2}
    for candidate in candidates:
        candidate.files = files.get(candidate.sha, [])
        if not candidate.files:
            if not _MERGE_RE.search(candidate.subject):
                candidate.score -= 40
                candidate.reasons.append("changes no file")
            continue
        if set(candidate.files) <= record_files:
            candidate.score -= 40
            candidate.reasons.append("only records it")
            continue
        touched = [f for f in candidate.files if f.rsplit("/", 1)[-1].rsplit(".", 1)[0].lower() in modules
                   or any(f.endswith(p) for p in query.paths)]
        if touched and weights.named_module and not any(r.startswith("touches") for r in candidate.reasons):
            candidate.score += weights.named_module
            candidate.reasons.append("touches " + ", ".join(touched[:3]))
        if sizes.get(candidate.sha) and weights.diff_size:
            candidate.score += weights.diff_size * math.log1p(sizes[candidate.sha] / SMALL_DIFF)
        if len(candidate.files) > 12:
            candidate.score += weights.broad
            candidate.reasons.append(f"a broad change ({len(candidate.files)} files)")
        if all(_TEST_PATH_RE.search(f) or _DOC_RE.search(f) for f in candidate.files) and not all(_DOC_RE.search(f) for f in candidate.files):
            candidate.score += weights.only_tests
            candidate.reasons.append("changes only tests")
        if all(_DOC_RE.search(f) for f in candidate.files):
            candidate.score += weights.only_docs
            candidate.reasons.append("changes only docs/changelog")



def _score_diffs(root, candidates: list[Candidate], query: Query, idf: dict, timeout: float, weights: Weights = WEIGHTS) -> None:
    """The lines each of the best candidates added or removed (one ``diff-tree --stdin -U0``, code
    and tests, not docs): a fix's test feeds the input the user reported (``.egg``, ``%25``) and its
    code names what broke, words its subject may lack. The share of a phrasing's rarity they hold
    counts, less for a large diff: a feature's diff holds every word of its area."""
    changed = _changed_code(root, [c.sha for c in candidates], timeout, merges=True)
    for candidate in candidates:
        lines = changed.get(candidate.sha)
        if not lines:
            continue
        words = words_of("\n".join(lines[:MAX_DIFF_LINES]))
        share, shared = max(((sum(idf[w] for w in phrasing & words) / _whole(phrasing, idf), phrasing & words)
                             for phrasing in query.phrasings), key=lambda found: found[0], default=(0.0, set()))
        gain = weights.changed_lines * min(1.0, share) / (1 + math.log(1 + len(lines) / weights.changed_lines_size))
        if gain >= 1:
            candidate.score += gain
            candidate.reasons.append("its changed lines share " + " ".join(query.surface.get(w, w) for w in sorted(shared, key=lambda w: -idf[w])[:4]))
