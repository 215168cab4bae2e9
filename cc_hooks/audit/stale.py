"""The stale-distractor scan (methodology §1.4, §5 step 1): claims in the dashboard and the tracked
docs that HEAD contradicts. A stranger reads them as true, so each is a FAIL with the contradicting
evidence. Claims are extracted and verified by ``cc_hooks.claims`` (one batch)."""

from __future__ import annotations

import posixpath
import re
from dataclasses import replace
from pathlib import Path

from cc_hooks.audit.answer import DOC_SUFFIXES, MAX_DOC_BYTES, MAX_DOCS, read_lines
from cc_hooks.audit.freshclone import View
from cc_hooks.audit.questions import HISTORY_DOCS
from cc_hooks.audit.report import REPORT_NAME
from cc_hooks.audit.result import FAIL, STALE, Graded, Question

# Text the code reads or the tests feed it: a template a command copies into other projects, a
# test corpus's cases and fixtures. Its dates, shas and plan items are examples, not this
# project's record; a test directory's README is still the project's own doc. A pull request's or
# an issue's template is a form to fill: "[ ] GitHub Actions have all passed" is a box, not a plan item.
DATA_DOCS = re.compile(r"(?:^|/)(?:_?templates?|fixtures?|testdata|test_data|__snapshots__)/"
                       r"|(?:^|/)(?:tests?|testing)/(?!README[^/]*$)"
                       r"|(?:^|/)(?:pull_request|issue)_template(?:/|\.[^/]+$)|(?:^|/)[\w-]*_template\.(?:md|rst|txt)$", re.IGNORECASE)


def stale_claims(view: View, config, deadline, max_docs: int = MAX_DOCS) -> list[Graded]:
    """Claims in the dashboard and the view's tracked docs that HEAD contradicts: one FAIL each.

    The texts are HEAD's (what a stranger reads); the claims are verified against the repository
    itself. The ledgers and the questions file are history and pointers, not claims; changelogs
    are history too; a dependency tree's docs are somebody else's (``cc_hooks.deptrees``);
    templates and test data are inputs of the code (``DATA_DOCS``).
    """
    from cc_hooks.claims.extract import DOC_PLAN_HEADING_RE, claim_from_line, extract_from_text
    from cc_hooks.claims.model import CONTRADICTED
    from cc_hooks.claims.verify import verify_claims
    from cc_hooks.git import run_git
    from cc_hooks.record.dashboard import DashboardError, find_declaration, get_backend

    claims, state_date = [], None
    declaration, _ = find_declaration(view.path, config)
    try:
        read = get_backend(declaration.backend, view.path, declaration.locator).read()
    except DashboardError:
        read = None
    if read is not None:
        if read.state is not None:
            state_date = read.state.date
            for claim in read.state.claims:
                section = "resume" if claim.kind == "resume" else "state"
                claims.append(claim_from_line(claim.text, declaration.locator, claim.line or None, section=section, date=state_date))
        for item in read.queued:
            claims.append(claim_from_line(item.text, declaration.locator, item.line or None, section="queue", date=item.date, done=item.done))
    skip = {config.record.symptoms, config.record.decisions, config.record.questions, REPORT_NAME, declaration.locator}
    from cc_hooks.deptrees import sweepable

    tracked = [p for p in run_git(view.path, "ls-files", "-z", timeout=deadline.timeout()).split("\0") if p]
    docs = [p for p in sweepable(view.path, tracked, listed=tracked) if p.lower().endswith(DOC_SUFFIXES) and p not in skip and not HISTORY_DOCS.search(p)
            and not DATA_DOCS.search(p)]
    deleted = _deleted_paths(view.path, deadline.timeout())
    pages = DocPages(tracked, deleted)
    doc_claims = []
    for rel in docs[:max_docs]:
        raw = "\n".join(read_lines(view.path / rel, MAX_DOC_BYTES))
        if rel.lower().endswith(".txt") and _is_data(raw):
            continue
        text, created = _unquoted(raw), readers_branches(raw)
        if rel.lower().endswith(".rst"):
            text = rst_prose(text)
        lines = text.split("\n")
        extracted = extract_from_text(text, source=rel, plan_headings=DOC_PLAN_HEADING_RE)
        extracted += pages.link_claims(rel, lines, {c.line for c in extracted})
        found = [c for c in extracted if _doc_claim(c, rel, deleted, _sentence_before(lines, c), pages, created)]
        _date_plan_items(view.path, rel, found, deadline.timeout())
        doc_claims += found
    claims += _without_product_file_names(view.path, doc_claims, deadline.timeout())
    if claims:
        verify_claims(view.root, claims, config, deadline, state_date=state_date)
    graded, asked, gone_folders = [], {}, {}
    for claim in claims:
        if claim.verdict != CONTRADICTED or (claim.source != declaration.locator and _foreign_revisions_only(claim)):
            continue
        # a doc citing the same missing file again in one passage ("the apt packages of .travis.yml ...
        # installed by .travis.yml") is one question; in another section of it, another
        evidence = [c.evidence for c in claim.checks if c.verdict == CONTRADICTED]
        against = (claim.source, tuple(sorted(evidence)))
        first = asked.get(against)
        if first is not None and 0 <= (claim.line or 0) - first <= SAME_PASSAGE:
            continue
        # a doc whose every missing file here sits in a folder one of its questions already named
        # (dbt's API-CONTRACTS.md: nine sentences on ``src/handlers/*.rs``, all gone with the folder): that question
        folders = _missing_folders(evidence)
        if folders and folders <= gone_folders.get(claim.source, set()):
            continue
        gone_folders.setdefault(claim.source, set()).update(folders)
        asked[against] = claim.line or 0
        question = Question(f"stale:{claim.location}", f"Is \"{claim.text}\" ({claim.location}) still true?", STALE,
                            claim.location)
        graded.append(Graded(question, FAIL, claim.location, f"HEAD contradicts it ({claim.evidence}): correct or delete it",
                             flags=[STALE], deterministic=FAIL))
    return graded


SAME_PASSAGE = 10  # lines: a claim repeating one this close is the same question
_MISSING_RE = re.compile(r"^(\S+) does not exist at HEAD\b")


def _missing_folders(evidence: list[str]) -> set[str]:
    """The folders of the missing files a claim's contradicting evidence names, when that is all it says."""
    missing = [_MISSING_RE.match(text) for text in evidence]
    if not missing or not all(missing):
        return set()
    folders = {posixpath.dirname(m.group(1).rstrip("/")) for m in missing}
    return set() if "" in folders else folders


def _is_data(text: str) -> bool:
    """A ``.txt`` of patterns, names or pins (numba's stubtest ``allowlist.txt``, requirements) is data,
    not a doc: most of its lines, comments and blanks aside, hold no space."""
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return bool(lines) and 2 * sum(" " not in line for line in lines) > len(lines)


# ``git checkout -b topic``, ``git switch -c topic origin/main``, ``git branch topic``, ``git worktree add -b topic ../x``
_CREATES_BRANCH_RE = re.compile(r"\bgit\s+(?:checkout\s+-[bB]|switch\s+(?:-c|-C|--create)|branch(?:\s+-[fc])?|worktree\s+add\s+(?:\S+\s+)*?-[bB])\s+"
                                r"[`'\"]?([\w][\w./-]*)[`'\"]?(?:[ \t]+([\w][\w./-]*))?")


# what precedes a command on its line: nothing, a list item's mark, a virtualenv's name, a prompt, a chaining
# operator, or inline code's opening backticks; "the git branch `maintenance-1.x`" in a sentence creates none
_COMMAND_START_RE = re.compile(r"^[ \t]*(?:(?:\d+[.)]|[-*+])[ \t]+)?(?:\([\w.-]+\)[ \t]*)?(?:[$>%#][ \t]*)?\Z"
                               r"|(?:&&|;|\|\|)[ \t]*\Z|(?:^|\s)`{1,2}\Z")


def readers_branches(text: str) -> frozenset:
    """The branches a doc has its reader create (its commands): a sentence of that doc naming one is
    about the reader's clone, which this repository never holds. A branch started from the remote's
    branch of the same name (``git checkout -b develop origin/develop``) is the repository's own."""
    created = set()
    for m in _CREATES_BRANCH_RE.finditer(text):
        name, start = m.group(1).rstrip("."), m.group(2) or ""
        line_before = text[text.rfind("\n", 0, m.start()) + 1 : m.start()]
        if _COMMAND_START_RE.search(line_before) and not start.endswith("/" + name):
            created.add(name)
    return frozenset(created)
_POINT_IN_TIME = frozenset({"clean", "pushed", "staged"})
_LINK_ITEM_RE = re.compile(r"^(?:\[[^\]]+\]\([^)]+\)|`[^`<]+<[^>]+>`_|:(?:doc|ref):`[^`]+`)")
_PLACEHOLDER_RE = re.compile(r"(?:^|[-_/.])(?:[Xx]\.[Yy](?:\.[Zz])?|[Nn]\.[Nn](?:\.[Nn])?|X{3,}|<[^>]*>|\{[^}]*\})(?:$|[-_/.])")
_GIT_WORDS_RE = re.compile(
    r"\b(?:git|commits?|branch(?:es)?|merged?|rebased?|checkout|check\s+out|push(?:ed)?|pull|clone[ds]?|releases?|released|"
    r"versions?|HEAD|upstream|origin|annotated|signed)\b",
    re.IGNORECASE,
)


def _prose_tag(text: str, name: str) -> bool:
    """``name`` follows "tag" in a sentence with no other word of git ("ask on Stack Overflow and use
    the tag ``python-requests``"): a label somewhere else, not a tag of this repository."""
    cue = re.search(r"\btag(?:s|ged)?\s+(?:as\s+)?[`'\"]*" + re.escape(name), text, re.IGNORECASE)
    return cue is not None and not _GIT_WORDS_RE.search(text)
# A path owned by the reader's project, not this one: "your ``setup.py``", "the library's ``conf.py``"
_OTHER_PROJECTS_RE = re.compile(
    r"\b(?:your|their|the\s+user'?s|(?:the|a|an|any|each|external|third-party|user)\s+(?:\w+\s+)?"
    r"(?:library|libraries|project|package|application|app|repository)(?:'s)?)\s+(?:own\s+)?[`'\"*]*$",
    re.IGNORECASE,
)


def _foreign_revisions_only(claim) -> bool:
    """A doc citing commits this repository never had ("checked against a clone of encode/httpx at
    `ae1b9f66`") speaks of another repository's history: nothing here to be stale against."""
    from cc_hooks.claims.model import CONTRADICTED

    against = [c for c in claim.checks if c.verdict == CONTRADICTED]
    return bool(against) and all(c.evidence.startswith("no commit ") and c.evidence.endswith(" in this repository") for c in against)


_QUOTED_RE = re.compile(r'"[^"\n]*"|“[^”\n]*”')


def _unquoted(text: str) -> str:
    """A doc's text without its double-quoted spans: in a doc, quoted words are examples and
    citations ("branch `x` at `abc1234`"), not claims about this repository."""
    return _QUOTED_RE.sub('""', text)


_RST_CODE_DIRECTIVES = frozenset(
    "code code-block sourcecode literalinclude highlight ipython doctest testcode testoutput testsetup "
    "jupyter-execute program-output command-output math raw parsed-literal".split()
)
# Directives whose body lists pages, names or files ("API Reference <api/nltk>" in a toctree): no prose
_RST_LISTING_DIRECTIVES = frozenset(
    "toctree autosummary automodule autoclass autofunction automethod autodata autoattribute autoexception "
    "autoprogram include csv-table".split()
)
_RST_DIRECTIVE_RE = re.compile(r"^(\s*)\.\.(?:\s+(?:([\w:-]+)::|\S)|\s*$)")  # ".. note::", ".. _label:", ".. a comment", ".." over one
_RST_UNDERLINE_RE = re.compile(r"^([=\-~^\"'`#*+<>:._])\1{2,}\s*$")


def rst_prose(text: str) -> str:
    """A reStructuredText document's prose, line for line: code and literal blocks, doctests,
    directive and target lines and comments blanked, and underlined titles written as "# title",
    so that ``extract_from_text`` reads sections as they are (a ``.. _priority-queue:`` target
    is no "queue" heading; ``def f(q: Queue) -> None:`` in a code block is no heading either)."""
    lines = text.split("\n")
    out = list(lines)
    literal_indent = None  # inside an indented block to blank: the indentation it must exceed
    for index, line in enumerate(lines):
        indent = len(line) - len(line.lstrip())
        if literal_indent is not None:
            if not line.strip() or indent > literal_indent:
                out[index] = ""
                continue
            literal_indent = None
        directive = _RST_DIRECTIVE_RE.match(line)
        if directive:
            out[index] = ""
            name = directive.group(2)
            if name is None or name.split(":")[-1] in _RST_CODE_DIRECTIVES | _RST_LISTING_DIRECTIVES:
                literal_indent = indent  # a comment or target, code, a list of pages: skip its body
            continue
        if line.lstrip().startswith(">>>"):
            out[index] = ""
            continue
        if line.rstrip().endswith("::"):
            out[index] = line.rstrip()[:-1].rstrip(":") + (":" if line.strip() != "::" else "")
            literal_indent = indent
            continue
        following = lines[index + 1] if index + 1 < len(lines) else ""
        if line.strip() and not _RST_UNDERLINE_RE.match(line) and _RST_UNDERLINE_RE.match(following) and len(following.strip()) >= len(line.strip()) - 1:
            out[index] = "# " + line.strip()
        elif _RST_UNDERLINE_RE.match(line):
            out[index] = ""
    return "\n".join(out)


_LEADING_DATE_RE = re.compile(r"^(?:DONE\s+)?(\d{4}-\d{2}-\d{2})\b")


def _date_plan_items(view: Path, rel: str, claims: list, timeout: float) -> None:
    """A plan item is checked against the commits since it was written: the date it starts with,
    else the day its doc was added (without a date it could only be UNVERIFIED)."""
    from cc_hooks.git import run_git

    undated = [c for c in claims if c.kind == "queue" and not c.date]
    if not undated:
        return
    added = None
    for claim in undated:
        match = _LEADING_DATE_RE.match(claim.text)
        if match:
            claim.date = match.group(1)
            continue
        if added is None:
            out = run_git(view, "log", "--diff-filter=A", "--format=%as", "HEAD", "--", rel, timeout=timeout, check=False)
            added = (out.split() or [""])[-1]
        claim.date = added or None


RECYCLED = 3  # deletions: a file the workflow keeps adding and consuming (a release's ``RELEASE.md``)


def _deleted_paths(view: Path, timeout: float) -> set[str]:
    """Every path some commit of HEAD's history deleted (one git process, over the commits since
    the last audit: ``cc_hooks.memo.remember_log``), but those deleted ``RECYCLED`` times or more:
    pelican's ``RELEASE.md`` and hypothesis's ``RELEASE.rst`` are written for each release and
    consumed by it, so "Add a ``RELEASE.md`` file" is an instruction, not a pointer to a deleted file."""
    from collections import Counter

    from cc_hooks.git import run_git
    from cc_hooks.memo import remember_log

    def derive(revs, previous):
        out = run_git(view, "log", "--diff-filter=D", "--name-only", "--format=", *revs, timeout=timeout, check=False)
        counts = Counter(p for p in out.splitlines() if p)
        counts.update(dict(previous or {}))
        return dict(counts)

    counts = remember_log(view, "audit-deleted-path-counts", [], derive, timeout=timeout)
    return {path for path, count in counts.items() if count < RECYCLED}


_SENTENCE_END_RE = re.compile(r"[.!?:]\s*$")


def _sentence_before(lines: list[str], claim) -> str:
    """The words of the claim's sentence before the claim, on its line and the lines above it in
    the paragraph (a doc wraps its sentences: "..., for example, use / the ``2.4`` branch")."""
    if not claim.line or claim.line > len(lines):
        return ""
    line = lines[claim.line - 1]
    start = " ".join(line.split()).find(claim.text[:40])
    parts = [" ".join(line.split())[: max(0, start)]]
    index = claim.line - 2
    while start <= 0 and index >= 0 and lines[index].strip() and not _SENTENCE_END_RE.search(lines[index]) and len(parts) < 6:
        parts.insert(0, lines[index].strip())
        index -= 1
    return " ".join(" ".join(parts).split())


# A cross-reference or link: a plan item points at work, a reading list at pages
_CROSS_REF_RE = re.compile(r":[\w:]*(?:doc|ref)\s*:`|\{(?:doc|ref)\}`")
# Words addressed to the reader: "See the ... page", "It is recommended to learn about ...", "you"
_READER_RE = re.compile(
    r"^\W*(?:see|read|learn|check\s+out|visit|refer\s+to|go\s+to|head\s+(?:over\s+)?to|take\s+a\s+look)\b|"
    r"\b(?:you|your|recommended\s+to\s+(?:learn|read))\b",
    re.IGNORECASE,
)
# "for example, use the ``2.4`` branch", "e.g. ``release-1.0``": an example, not this repository's
_EXAMPLE_WORDS = r"\bfor\s+(?:example|instance)|\be\.\s?g\.|\bsuch\s+as"
_EXAMPLE_RE = re.compile(rf"(?:{_EXAMPLE_WORDS})[^.;]*$", re.IGNORECASE)
# "When the HTML is merged into `main`, the dashboard updates": a condition (often in another repository), not a state
_CONDITION_RE = re.compile(r"^\W*(?:\d+[.)]\s+)?(?:when|whenever|once|if|after|until|before)\b[^,;.]*$", re.IGNORECASE)
# "usually in ``setup.py``", "can replace the need for ``setup.py``", "instead of ``setup.cfg``": a file
# in general, or one the sentence says is not needed, not a pointer to this repository's file
# (a bare file name only: "Scripts such as ``tools/old.py``" still points at this repository's file)
_GENERAL_FILE_RE = re.compile(rf"(?:\b(?:usually|typically|normally|generally|commonly|often)|{_EXAMPLE_WORDS})\b(?:[^.;]|\.(?!\s))*$",
                              re.IGNORECASE)  # (a file name's dot ends no sentence)
_NOT_NEEDED_RE = re.compile(
    r"\b(?:need\s+for|instead\s+of|rather\s+than|in\s+place\s+of|without(?:\s+(?:a|an|the|any))?)\s+"
    r"(?:[`'\"*]*[\w./-]+[`'\"*]*(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+))*[`'\"*]*$", re.IGNORECASE)
# A patch pasted into a doc ("index b0e4d79..b3bd82a 100644"): another tree's objects, not claims
_PATCH_LINE_RE = re.compile(r"^\s*(?:index\s+[0-9a-f]{7,}\.\.[0-9a-f]{7,}|diff\s+--git\s|---\s+a/|\+\+\+\s+b/|@@\s+-\d)")
_KIND_OF_RE = re.compile(r"\b(?:a|an|any|each|every|some|one)\s+[`'\"*]*\Z", re.IGNORECASE)
# "your local main branch", "your ``origin`` branch", "updates the local ``gh-pages`` branch", "to a
# repository's ``gh-pages`` branch": the reader's clone or site, not this repository
# "This pushes the ``my-new-feature`` branch": a name the reader makes up
_READERS_NAME_RE = re.compile(r"^(?:my|your)[-_]", re.IGNORECASE)
# "``src/_skimage2`` will be merged into ``src/skimage2``": a merge to come, into what may not exist yet
_FUTURE_MERGE_RE = re.compile(r"\bwill\s+(?:\w+ly\s+|then\s+|later\s+)?(?:be\s+)?merged?\s+(?:in)?to\s+[`'\"*]*$", re.IGNORECASE)
# "git rm doc/source/release_notes/release_dev.rst": a step that deletes the file, which is then absent
_REMOVES_RE = re.compile(r"(?:^|[\s`$])(?:git\s+rm|rm|del|unlink)\s+(?:-\S+\s+)*[`'\"]*$", re.IGNORECASE)
_READERS_REF_RE = re.compile(r"\b(?:your\s+(?:[\w-]+\s+){0,3}|(?:the|a)\s+local\s+|an?\s+(?:[\w-]+\s+)?(?:repository|repo|project|site)'s\s+)"
                             r"(?:branch(?:es)?\s+)?[`'\"]*$", re.IGNORECASE)


def _doc_claim(claim, rel: str, deleted: set[str], before: str = "", pages: "DocPages | None" = None,
               created: frozenset = frozenset()) -> bool:
    """Keep only what in a doc is a claim about this repository's state, and trim the rest.

    Docs name paths of the user's machine and of other projects (``~/.claude``, ``.venv``,
    ``.cc-hooks.toml``) and give instructions ("commit and push"); those are not stale
    distractors. What is: a cited commit or branch, a plan item, a position, and a path this
    repository once had and deleted (a pointer to a deleted file). ``created``: the branches the
    doc has the reader create (``readers_branches``), the reader's, not this repository's."""
    from cc_hooks.claims import addresses as addr
    from cc_hooks.claims.extract import classify

    sentence = f"{before} {claim.text}".strip()
    if _PATCH_LINE_RE.match(claim.text):
        return False
    if claim.kind == "queue":
        # "Next Steps: [Configure](configure.md)", "See the :doc:`Extending <extending>` page": where to read next;
        # "Tried out Black?": a question to the reader, not a plan item
        return not (_LINK_ITEM_RE.match(claim.text) or _CROSS_REF_RE.search(sentence) or _READER_RE.search(sentence)
                    or claim.text.rstrip(" *_").endswith("?"))
    base = posixpath.dirname(rel)
    kept = []
    linked = pages.deleted_links(rel, claim.text) if pages is not None else []
    roles = _ROLE_TARGET_RE.findall(claim.text)
    for address in claim.addresses:
        if address.kind in (addr.BRANCH, addr.NAME) and address.value.startswith("upstream/"):
            # "if the ``upstream/master`` branch changed": the remote a contributor adds for this repository
            address = replace(address, value=address.value.split("/", 1)[1])
        if any(address.value in target for target in roles):
            continue  # a cross-reference's target: judged as a page of the docs (``DocPages``)
        if address.kind in (addr.BRANCH, addr.NAME) and address.value in created:
            continue  # "This changes your working directory to the ``shiny-new-feature`` branch" after ``git checkout -b shiny-new-feature``
        if address.kind in (addr.BRANCH, addr.NAME) and (_PLACEHOLDER_RE.search(address.value) or _prose_tag(claim.text, address.value)):
            continue  # "a ``release-X.Y.Z`` branch", "use the tag ``python-requests``" on Stack Overflow
        prefix = f"{before} {claim.text[: max(0, claim.text.find(address.value))]}"
        if (address.kind in (addr.BRANCH, addr.NAME) and (_EXAMPLE_RE.search(prefix) or _CONDITION_RE.search(prefix))) or _READERS_REF_RE.search(prefix):
            continue  # "for example, use the ``2.4`` branch", "when it is merged into `main`, ...", "your ``origin`` branch"
        if address.kind in (addr.BRANCH, addr.NAME) and (_READERS_NAME_RE.match(address.value) or _FUTURE_MERGE_RE.search(prefix)):
            continue  # "the ``my-new-feature`` branch", "will be merged into ``src/skimage2``"
        if address.kind in (addr.PATH, addr.NAME) and _REMOVES_RE.search(prefix):
            continue  # "git rm doc/.../release_dev.rst": the release step that consumes it
        if address.kind in (addr.BRANCH, addr.NAME) and _KIND_OF_RE.search(prefix):
            continue  # "cherry picked to a `release` branch": a kind of branch (a summary's "created a `x` branch" is one)
        if address.kind in (addr.BRANCH, addr.NAME) and _REPO_URL_RE.search(sentence):
            continue  # "maintained in https://github.com/pypa/distutils, and merged into ``setuptools``": that repository's
        if address.kind in (addr.PATH, addr.NAME) and (_FRAGMENT_PATH_RE.search(address.value) or
                                                       ("/" not in address.value and f":file:`{address.value}`" in claim.text)):
            continue  # "``CHANGES/1284.bugfix.rst`` for a fix": a fragment's name, consumed at release; ":file:`Makefile`": a kind of file
        if address.kind in (addr.PATH, addr.NAME):
            value = address.value.rstrip("/")
            if not ({value, posixpath.join(base, value)} & deleted or any(d.startswith(value + "/") for d in deleted)):
                continue
            if _OTHER_PROJECTS_RE.search(claim.text[: max(0, claim.text.find(address.value))]):
                continue  # "the entry points of the library ``setup.py``": a file of the reader's project
            ours = _OURS_RE.search(prefix) or _RUNS_IT_RE.search(prefix)
            readers = (_READERS_PROJECT_RE.search(sentence) or not for_contributors(rel)) and not ours
            if _NOT_NEEDED_RE.search(prefix) or ("/" not in value and (_GENERAL_FILE_RE.search(prefix) or readers)):
                continue  # "usually in ``setup.py``", "replace the need for ``setup.py``", a user guide's ``tox.ini``
        kept.append(address)
    claim.addresses = kept + linked
    claim.assertions = [a for a in claim.assertions if a.what not in _POINT_IN_TIME]
    if not (claim.addresses or claim.assertions) and claim.kind not in ("position",):
        return False
    claim.kind = classify(claim)
    return True


# Who a document is for. A user guide naming a bare ``tox.ini`` or ``setup.cfg`` means the reader's
# (tox's "Given a tox.ini with ...", dask's entry-point recipes); the pages for the people who work
# on this repository (contributing, development, internals, release, agents' instructions, a
# README beside the code it describes) name this repository's files.
_CONTRIBUTOR_DOC_RE = re.compile(
    r"(?:^|/)(?:[\w-]*(?:contribut|develop|hacking|maintain|internals|releas|dev[-_]?guide|dev[-_]?process|onboarding)[\w.-]*"
    r"|AGENTS|CLAUDE|GEMINI|CODING[-_]?STANDARDS?)(?:/|\.\w+$|$)",
    re.IGNORECASE,
)
_DOCS_FOLDER_RE = re.compile(r"^(?:docs?|sites?|website|documentation)/", re.IGNORECASE)


def for_contributors(rel: str) -> bool:
    """Whether the doc at ``rel`` is written for this repository's contributors: a contributor page,
    or a README that is not a page of the user docs (the top one, ``tests/README.md``)."""
    name = posixpath.basename(rel)
    return bool(_CONTRIBUTOR_DOC_RE.search(rel)) or (name.upper().startswith("README") and not _DOCS_FOLDER_RE.match(rel))


# "If your project already uses a ``setup.cfg``", "in your root project directory", "for a fictitious
# library": a bare file name in a sentence about the reader's project is the reader's file
_READERS_PROJECT_RE = re.compile(r"\byour\s+(?:own\s+)?(?:[\w-]+\s+){0,2}(?:project|package|library|application|app|repository|repo|codebase)\b"
                                 r"|\b(?:fictitious|hypothetical|imaginary)\b", re.IGNORECASE)
# "Copy our ``setup.cfg`` into your project": this repository's file, whoever the sentence is for
_OURS_RE = re.compile(r"\b(?:our|this\s+(?:repository|project|repo)'?s?)\s+(?:own\s+)?[`'\"*]*$", re.IGNORECASE)
# "Run python setup.py install", "then ./configure": a command run in this repository's checkout runs its file
_RUNS_IT_RE = re.compile(r"(?:(?:\bpython[\d.]*|\bsh|\bbash|\bsource|\bmake\s+-f|\bpip\s+install\s+-r)\s+|(?<![\w.])\./)[`'\"*]*$", re.IGNORECASE)
_REPO_URL_RE = re.compile(r"\bhttps?://(?:www\.)?(?:github\.com|gitlab\.com|bitbucket\.org|codeberg\.org)/[\w.-]+/[\w.-]+", re.IGNORECASE)
# A towncrier news fragment (``CHANGES/1284.bugfix.rst``, ``changelog.d/+fix.md``): named after its issue, gone at release
_FRAGMENT_PATH_RE = re.compile(r"(?:^|/)(?:changes|changelog\.d|changelog|newsfragments|news|changes\.d)/(?:\d+|\+[\w-]+)\.[A-Za-z]\w*(?:\.\w+)?$",
                               re.IGNORECASE)
# ``:doc:``, ``:std:doc:``, MyST's ``{doc}``; not intersphinx's ``:external+dask:doc:``, another project's page
_ROLE_TARGET_RE = re.compile(r"(?<![\w+:-])(?::(?!external[+:])(?:[\w-]+:)?doc:|\{doc\})`([^`]+)`")
_PAGE_SUFFIXES = (".rst", ".md", ".txt", ".ipynb", ".rest", ".markdown")
_TEMPLATE_SUFFIXES = (".jinja2", ".jinja", ".j2", ".in", ".tmpl", ".template", ".mako")


class DocPages:
    """Sphinx ``:doc:`` (and MyST ``{doc}``) cross-references as Sphinx resolves them: relative to
    the doc's folder, or absolute (``/x``) from the docs root (the folder of the nearest
    ``conf.py``), written without the suffix. ``prefix:page`` is an intersphinx page of another
    project: nothing to check here. A page that resolves is no claim; one this repository deleted
    is a pointer to a deleted file (its path becomes the claim's address)."""

    def __init__(self, tracked: list[str], deleted: set[str]):
        self.tracked = set(tracked)
        self.deleted = deleted
        self.conf_dirs = {posixpath.dirname(p) for p in tracked if posixpath.basename(p) == "conf.py"}
        # xonsh's ``docs/envvars.rst.jinja2``: the page ``envvars.rst`` is written by the docs' build
        self.generated = {p.rsplit(".", 1)[0] for p in tracked if p.endswith(_TEMPLATE_SUFFIXES)}

    def link_claims(self, rel: str, lines: list[str], claimed: set) -> list:
        """A claim for each line (without one yet) whose cross-reference names a deleted page: the
        sentence has no other address, so ``extract_from_text`` made none."""
        from cc_hooks.claims.extract import claim_from_line

        return [claim_from_line(line, rel, number, section="summary") for number, line in enumerate(lines, 1)
                if number not in claimed and "doc" in line and self.deleted_links(rel, line)]

    def deleted_links(self, rel: str, text: str) -> list:
        from cc_hooks.claims.addresses import Address, PATH

        found = []
        for target in _ROLE_TARGET_RE.findall(text):
            page = self._page(rel, target)
            if page is None or any(page + suffix in self.tracked or page + suffix in self.generated for suffix in ("", *_PAGE_SUFFIXES)):
                continue
            gone = [page + suffix for suffix in _PAGE_SUFFIXES if page + suffix in self.deleted]
            if gone:
                found.append(Address(PATH, gone[0], quoted=True))
        return found

    def _page(self, rel: str, target: str):
        """The page ``target`` names (repo-relative, no suffix), or None for another project's."""
        match = re.fullmatch(r"[^<]*<([^>]+)>\s*", target)
        name = (match.group(1) if match else target).strip()
        if not name or re.match(r"^[\w.-]+:(?!/)", name):
            return None  # "pypug:tutorials/installing-packages": intersphinx
        folder = posixpath.dirname(rel)
        if name.startswith("/"):
            root = next((d for d in sorted(self.conf_dirs, key=len, reverse=True) if folder == d or folder.startswith(d + "/") or d == ""), folder)
            return posixpath.normpath(posixpath.join(root, name.lstrip("/")))
        return posixpath.normpath(posixpath.join(folder, name))


def _without_product_file_names(view: Path, claims: list, timeout: float) -> list:
    """The doc claims without the bare file names the product's own code names as strings: a doc
    naming ``tox.ini`` where the code reads ``"tox.ini"`` speaks of the reader's file in that
    format, not of this repository's (deleted) one. One ``git grep`` for all the names."""
    from cc_hooks.audit.questions import is_code_path, is_test_path
    from cc_hooks.claims import addresses as addr
    from cc_hooks.claims.extract import classify
    from cc_hooks.git import run_git

    names = sorted({a.value for c in claims for a in c.addresses if a.kind == addr.PATH and "/" not in a.value and a.line is None})
    if not names:
        return claims
    patterns = [arg for name in names for quote in "\"'" for arg in ("-e", f"{quote}{name}{quote}")]
    out = run_git(view, "grep", "-l", "-F", "-I", *patterns, "HEAD", "--", timeout=timeout, check=False)
    files = [line.split(":", 1)[1] for line in out.splitlines() if ":" in line]
    code = [f for f in files if is_code_path(f) and not is_test_path(f)]
    if not code:
        return claims
    named = set()
    out = run_git(view, "grep", "-h", "-o", "-F", "-I", *patterns, "HEAD", "--", *code, timeout=timeout, check=False)
    for line in out.splitlines():
        named.add(line.split(":", 1)[-1].strip("\"'"))
    kept = []
    for claim in claims:
        before = len(claim.addresses)
        claim.addresses = [a for a in claim.addresses if not (a.kind == addr.PATH and a.value in named)]
        if len(claim.addresses) == before:
            kept.append(claim)
        elif claim.addresses or claim.assertions or claim.kind in ("position", "queue"):
            claim.kind = classify(claim)
            kept.append(claim)
    return kept
