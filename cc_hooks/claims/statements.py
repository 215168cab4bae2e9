"""What a sentence says about the things it names, beyond their existence.

``statements(text, addresses)`` returns the assertions the verifiers check:

gone      "`x.py` was removed (in `S`)", "is gone", "no longer exists", "dropped `x`",
          "`new` in place of `old`", "renamed `old` to `new`": the path or ref is absent at
          HEAD (and, when a commit is named, that commit removed it)
head_at   "HEAD is at `S`", "we are at `S` on `main`": HEAD *is* that commit (identity,
          not ancestry), on that branch when one is named
about     "the X fix landed in `S`", "`S` fixed X": the commit does the work the sentence
          describes (its message, paths or changed identifiers say so)
reachable "landed in `S` on main": the commit is on the branch the sentence names in plain
          words (backticked branch names are addresses of their own)

Everything else a sentence names is claimed to exist. A clause's polarity is local:
in "removed `a.py` and added `b.py`" only ``a.py`` is gone, and in "removed the
print from `app.py`" the file it was removed *from* is still there.
"""

from __future__ import annotations

import re
from typing import Optional

from cc_hooks.claims.address import BRANCH, NAME, PATH, SHA, Address
from cc_hooks.claims.model import DEFAULT_BRANCH, DETACHED, Assertion  # noqa: F401 - the targets, named here too
from cc_hooks.claims.history_statements import denied_before
from cc_hooks.claims.words import identifiers, significant_words, unhyphen  # noqa: F401 - used here, and named here too

_SHA = r"`?([0-9a-fA-F]{4,40})`?"
_REF = r"`?([A-Za-z0-9][\w./+-]*[\w/+-]|[A-Za-z0-9])`?"

_NEGATION = r"(?:not|n't|never|nothing)\s+(?:\w+\s+)?"
_GONE_RE = re.compile(
    r"\b(?:(?:was|were|is|are|been|got|get|gets|has\s+been|have\s+been)\s+)?"
    r"(?:went\s+away|go(?:es)?\s+away|(?:removed|deleted|dropped)(?!\s+(?:lines?|items?|rows?|entries|entry|elements?|nodes?|records?|keys?|values?|parts?|char(?:acter)?s?|bytes?|tokens?|words?|fields?|columns?|commits?|ones?|code|text)\b)|retired|gone|rm'?d|"
    r"no\s+longer\s+(?:exists?|there|present|tracked|in\s+(?:the\s+)?(?:repo(?:sitory)?|tree|codebase))|"
    r"(?:does|do|did)\s*(?:n[o']t|not)\s+exist(?:\s+any\s*more)?|(?:doesn't|don't)\s+exist(?:\s+any\s*more)?|"
    r"not\s+exist(?:ing)?\s+any\s*more|there\s+(?:is|are)\s+no|(?:is|are)\s+not\s+in\s+(?:this|the)\s+(?:checkout|work\s*tree|tree)|got\s+rid\s+of|removal\s+of|deletion\s+of|(?:is|are|was|were)\s+absent)\b",
    re.IGNORECASE,
)
_NOT_GONE_RE = re.compile(
    rf"\b{_NEGATION}(?:been\s+)?(?:removed|deleted|dropped|gone|retired)\b|\bstill\s+(?:exists?|there|present|tracked|in\s+place)\b",
    re.IGNORECASE,
)
# (old, new): "replaced `old` with `new`", "`new` in place of `old`", "renamed `old` to `new`" ...
_SWAP_RES = [
    (re.compile(r"\breplac(?:ed|es|ing)\s+(?P<old>`[^`]+`)(?:\s+\w+){0,3}?\s+(?:with|by)\s+(?P<new>`[^`]+`)", re.I), True),
    (re.compile(r"(?P<old>`[^`]+`)\s+(?:(?:was|were|is|are|has\s+been|have\s+been)\s+)?(?:replaced|superseded)\s+by\s+(?P<new>`[^`]+`)", re.I), True),
    (re.compile(r"(?P<new>`[^`]+`)\s+(?:now\s+)?(?:replaces|supersedes|replaced|superseded)\s+(?P<old>`[^`]+`)", re.I), True),
    (re.compile(r"(?P<new>`[^`]+`)\s+(?:in\s+place\s+of|instead\s+of)\s+(?P<old>`[^`]+`)", re.I), True),
    (re.compile(r"(?P<old>`[^`]+`)\s+(?:(?:was|were|is|are|has\s+been|have\s+been)\s+)?(?:removed|dropped|deleted|deprecated\s+and\s+removed)\s+in\s+favou?r\s+of\s+(?P<new>`[^`]+`)", re.I), True),
    (re.compile(r"\b(?:renamed|moved|migrated|git\s+mv)\s+(?P<old>`[^`]+`)\s+(?:to|into|as)\s+(?P<new>`[^`]+`)", re.I), True),
    (re.compile(r"(?P<old>`[^`]+`)\s+(?:(?:was|were|is|are|has\s+been|have\s+been)\s+)?(?:renamed|moved)\s+(?:to|into|as)\s+(?P<new>`[^`]+`)", re.I), True),
    (re.compile(r"\b(?:switched|migrated|moved)\s+from\s+(?P<old>`[^`]+`)\s+to\s+(?P<new>`[^`]+`)", re.I), True),
    (re.compile(r"(?P<old>`[^`]+`)\s*(?:->|→|=>)\s*(?P<new>`[^`]+`)", re.I), True),
    (re.compile(r"(?P<new>`[^`]+`)\s*\(?(?:was\s+)?(?:renamed|moved|split\s+out)\s+from\s+(?P<old>`[^`]+`)", re.I), True),
    (re.compile(r"\b(?:dropped|removed|deleted|replaced|retired)\s+(?P<old>`[^`]+`)\s+(?:in\s+favou?r\s+of|for)\s+(?P<new>`[^`]+`)", re.I), True),
]
_SWAP_RES.append((re.compile(r"\b(?:turned|converted|split)\s+(?P<old>`[^`]+`)\s+(?:up\s+)?into\b", re.I), True))
# "`a` and `b` were folded into `c`", "`new/` was moved out of `old/`"
_SWAP_RES.append((re.compile(r"(?P<old>`[^`]+`)\s+(?:(?:was|were|got|have\s+been|has\s+been)\s+)?(?:folded|combined|consolidated|absorbed|inlined)\s+into\s+(?P<new>`[^`]+`)", re.I), True))
_SWAP_RES.append((re.compile(r"(?P<new>`[^`]+`)\s+(?:(?:was|were)\s+)?moved\s+out\s+of\s+(?P<old>`[^`]+`)", re.I), True))
_ALSO_OLD_RE = re.compile(r"(`[^`]+`)\s*(?:,|\band\b)\s*$")  # "`a` and `b` were folded into": `a` too
# "(moved to `y`)": ``y`` is where it is now
_NOW_AT_RE = re.compile(r"\b(?:moved|renamed|relocated)\s+(?:to|into|as)\s+(`[^`]+`)", re.I)
_ABSENT_ONLY_RE = re.compile(
    r"\b(?:(?:does|do)\s*(?:n[o']t|not)\s+exist|(?:doesn't|don't)\s+exist|(?:is|are)\s+absent|there\s+is\s+no|(?:is|are)\s+not\s+in\s+(?:this|the)\s+(?:checkout|work\s*tree|tree))\b(?!\s+any\s*more)", re.I
)
_REF_PLACE_RE = re.compile(r"\b(?:on|in|from|of)\s+(?:the\s+)?(?:branch\s+)?$", re.IGNORECASE)
_CONTAINER_RE = re.compile(r"\b(?:from|in|inside|within|out\s+of)\s+(?:the\s+(?:file\s+)?)?$", re.IGNORECASE)
_CLAUSE_SPLIT_RE = re.compile(
    r";|\s[—–]\s|:\s|,\s+(?:and|but|while|whereas|so|then)\s|\s(?:but|while|whereas|(?:even\s+)?though|although|because|unless)\s|"
    r",?\s+and\s+(?=(?:now\s+)?(?:\w+ed|added|kept|wrote|made|built|put|is|are|was|were|now|still|left|its|their)\b)|"
    r",\s+(?=(?:\w+ed|added|kept|wrote|made|built|still|now)\b)",
    re.IGNORECASE,
)

_HEAD_AT_RES = [
    re.compile(rf"\bHEAD(?:\s+is(?:\s+now|\s+still)?)?(?:\s+(?:at|on|points?\s+(?:to|at))\s+|\s*[@=:]\s*)(?:commit\s+)?{_SHA}(?:\s+on\s+(?:branch\s+)?{_REF})?", re.I),
    re.compile(rf"\b(?:we(?:'re|\s+are)|I(?:'m|\s+am)|(?:we're|we\s+are|I'm)\s+(?:now|currently)|currently|the\s+checkout\s+is)\s+(?:now\s+|currently\s+|still\s+)?(?:at|on)\s+(?:commit\s+)?{_SHA}(?:\s+on\s+(?:branch\s+)?{_REF})?", re.I),
    re.compile(rf"\b(?:checked\s+out\s+at)\s+(?:commit\s+)?{_SHA}()", re.I),
    re.compile(rf"\bHEAD\s+is\s+(?:now\s+|still\s+)?{_SHA}()", re.I),
]
_HEAD_ON_RE = re.compile(
    r"\b(?:we(?:'re|\s+are)|I(?:'m|\s+am)|HEAD\s+is|the\s+checkout\s+is)\s+(?:now\s+|currently\s+|still\s+)?on\s+(?:branch\s+)?`([A-Za-z0-9][\w./+-]*)`(?!\s+at\b)", re.I
)
_DETACHED_RE = re.compile(rf"\b(?:HEAD\s+is\s+)?detached\s+(?:HEAD\s+)?(?:at|@)\s+(?:commit\s+)?{_SHA}", re.I)
_HEAD_ON_AT_RE = re.compile(
    rf"\b(?:we(?:'re|\s+are)|I(?:'m|\s+am)|currently|HEAD\s+is)\s+(?:now\s+|currently\s+|still\s+)?on\s+(?:branch\s+)?{_REF}\s+at\s+(?:commit\s+)?{_SHA}", re.I
)
_NAMED_BRANCH_AT_RE = re.compile(
    rf"(?:^|[\s(])(?:the\s+tip\s+of\s+)?`([A-Za-z0-9][\w./+-]*)`(?:'s\s+tip)?\s+(?:is\s+(?:now\s+|still\s+)?(?:at\s+)?|@\s*|points\s+(?:to|at)\s+|at\s+)(?:commit\s+)?{_SHA}", re.I
)
_REFNAME = r"`?([A-Za-z0-9][\w./+-]*[\w+-])`?"
_NOT_ON_RES = (
    re.compile(rf"\bnot\s+(?:yet\s+|been\s+|in\s+|on\s+)*(?:pulled|merged|landed|cherry-picked|backported|in|on|part\s+of)\s+(?:in(?:to)?\s+|to\s+|on\s+)?(?:the\s+|our\s+)?(?:local\s+)?{_REFNAME}", re.I),
    re.compile(rf"{_REFNAME}\s+(?:exists\s+(?:but\s+|and\s+)?|still\s+)?(?:still\s+)?(?:lacks|doesn't\s+have|does\s+not\s+have|is\s+missing|misses)\b", re.I),
)
_ONLY_ON_RE = re.compile(rf"\bonly\s+(?:on|in)\s+(?:the\s+)?{_REFNAME}", re.I)
_UP_TO_DATE_RE = re.compile(
    rf"{_REFNAME}\s+(?:is\s+)?(?:up\s+to\s+date|in\s+sync|even|identical|level)\s+(?:with|to)\s+{_REFNAME}", re.I
)
_PLAIN_REACH_RE = re.compile(
    r"\b(?:on|in|into|to)\s+(?:the\s+|our\s+)?(?:local\s+)?`?(main|master|trunk|develop|HEAD|this\s+branch|the\s+current\s+branch)\b`?(?!\s*[/.-]\w)", re.I
)
# A sha after these is a point of reference, not the commit that did the work.
_NOT_AUTHOR_RE = re.compile(
    r"\b(?:revert(?:ed|s|ing)?|rebased?\s+(?:on(?:to)?)?|based\s+on|on\s+top\s+of|since|after|before|until|up\s+to|"
    r"compared?\s+(?:with|to|against)|diff(?:ed)?\s+against|bisect(?:ed)?|between|(?<!came\s)(?<!comes\s)from|parent|ancestor|at|@|"
    r"cherry-?pick(?:ed)?|squash(?:ed)?|amend(?:ed)?|reset\s+(?:to|--hard)?|checkout|checked\s+out|"
    r"older\s+than|newer\s+than|descendant\s+of|introduced\s+(?:the\s+)?(?:bug|regression)|broke|broken\s+(?:by|in)|regressed\s+in|caused\s+by)\s*(?:commit\s+)?$",
    re.I,
)
# Words that say something landed, not what: they are no evidence a commit is about the topic.
_GENERIC = frozenset(
    significant_words(
        """landed land lands committed commit commits sha revision merged merge push pushed branch head main master
        fix fixes fixed fixing bug bugs issue issues change changes changed patch patches work done finished completed
        implemented implement implementation introduced introduce include included includes contain contains containing
        code repo repository tree file files line lines test tests testing part first last final earlier later previous
        go went gone see look now there thing things our my its current currently today yesterday finally already
        real actual proper properly simple small big one two three check checked verify verified confirm confirmed
        resume resumed continue continued start started came come comes went since lack lacks lacked pull pulled
        yet only still local ago june july august september october november
        december january february march april may week month year everybody everyone cites cited claimed
        claim first reads read copied copies points point tag tags detached bisecting bisect took"""
    )
) | {"fix", "landed", "land"}
_TOPIC_SPLIT_RE = re.compile(r";|\.\s|\s[—–]\s|,\s+(?:and|but|while|so|then|which|since|after)\s|\s(?:but|while|whereas|because|although|though)\s|"
                             r"(?<=[0-9a-fA-F]{4}`),\s+", re.I)  # "… in `S1`, back to 1.61 in `S2`": a clause per commit


def statements(text: str, addresses: list[Address]) -> list[Assertion]:
    """The gone / head_at / about / reachable assertions of one sentence."""
    found: list[Assertion] = []
    head_shas = set()
    for sha, branch in head_positions(text):
        found.append(Assertion("head_at", target=branch, sha=sha))
        if sha:
            head_shas.add(sha)
    found.extend(_gone(text, addresses))
    found.extend(changes(text, addresses))
    tip_shas = {a.sha for a in found if a.sha} | {sha for _, sha in named_branch_tips(text)}
    shas = [a.value for a in addresses if a.kind == SHA and a.value not in tip_shas]
    for sha in shas:
        if _is_authored(text, sha):
            topic = topic_of(text, addresses, sha)
            if topic:
                found.append(Assertion("about", target=topic, sha=sha))
    if shas:
        for match in _NOT_ON_RES[0].finditer(text):
            found.append(Assertion("reachable", negated=True, target=match.group(1)))
        for match in _NOT_ON_RES[1].finditer(text):
            found.append(Assertion("reachable", negated=True, target=match.group(1)))
        for match in _ONLY_ON_RE.finditer(text):
            found.append(Assertion("reachable", target=match.group(1)))
            found.append(Assertion("reachable", negated=True, target=DEFAULT_BRANCH, detail=match.group(1)))
    for match in _UP_TO_DATE_RE.finditer(text):
        if all(_ref_like(match.group(0), match.start(n) - match.start(), name) for n, name in ((1, match.group(1)), (2, match.group(2)))):
            found.append(Assertion("same_tip", target=match.group(1), sha=match.group(2)))
    found.extend(contents(text, addresses))
    if shas and not any(a.what == "reachable" for a in found):
        for match in _PLAIN_REACH_RE.finditer(text):
            name = " ".join(match.group(1).split())
            target = "HEAD" if name.lower() in ("head", "this branch", "the current branch") else name
            found.append(Assertion("reachable", target=target))
            break
    return found


_CHANGE_VERBS = r"(?:added|adds|created|creates|introduced|introduces|changed|changes|touched|touches|modified|modifies|edited|edits|updated|updates|rewrote|rewrites)"
_SHA_CHANGED_RE = re.compile(rf"`([0-9a-fA-F]{{4,40}})`\s+(?:also\s+|only\s+|just\s+)?{_CHANGE_VERBS}\b(?P<rest>(?:[^;.]|\.(?!\s|$))*)", re.I)
_PATH_CHANGED_IN_RE = re.compile(rf"(?P<paths>(?:`[^`]+`(?:,\s*|\s+and\s+)?)+)(?:\s+(?:was|were)|[^.;`]{{0,40}},)\s+(?:added|created|introduced|changed|touched|modified|edited|updated)\s+(?:only\s+)?in\s+`([0-9a-fA-F]{{4,40}})`", re.I)


def changes(text: str, addresses: list[Address]) -> list[Assertion]:
    """"`S` added `path`", "`path` was changed in `S`": the commit changed the path ("only": and nothing else)."""
    paths = [a for a in addresses if a.kind == PATH]
    found = []
    for match in _SHA_CHANGED_RE.finditer(text):
        rest = match.group("rest")
        only = re.search(r"\bonly\b", match.group(0), re.I) is not None
        for address in paths:
            if f"`{address}`" in rest or f"`{address.value}`" in rest:
                found.append(Assertion("touched", negated=only, target=address.value, sha=match.group(1).lower()))
    for match in _PATH_CHANGED_IN_RE.finditer(text):
        for address in paths:
            if f"`{address}`" in match.group("paths") or f"`{address.value}`" in match.group("paths"):
                found.append(Assertion("touched", target=address.value, sha=match.group(2).lower()))
    return found


_CONTAINS_RE = re.compile(
    r"`(?P<path>[^`\s]+)`\s+(?P<neg>no\s+longer\s+|(?:does\s*n[o']t|doesn't|does\s+not|never)\s+|still\s+|now\s+|also\s+)?"
    r"(?P<verb>sets?|defines?|calls?|uses?|imports?|contains?|mentions?|has|have|exports?|references?|declares?|raises?|returns?|"
    r"says?|reads?|lists?|shows?|pins?|requires?|prints?)\s+"
    r"(?:the\s+|a\s+|an\s+)?`(?P<name>[^`\n]{2,80})`",
    re.I,
)


def contents(text: str, addresses: list[Address]) -> list[Assertion]:
    """"`settings.py` no longer sets `CURRENCY`": whether the file at HEAD has the text."""
    paths = {a.value for a in addresses if a.kind == PATH and a.line is None}
    found = []
    for match in _CONTAINS_RE.finditer(text):
        if match.group("path") in paths:
            neg = (match.group("neg") or "").strip().lower()
            negated = bool(neg) and not neg.startswith(("still", "now", "also")) or denied_before(text[: match.start()])
            name = re.sub(r"\(.*\)$", "", match.group("name")).strip()  # `open()` -> open
            if len(name) >= 2:
                found.append(Assertion("contains", negated=negated, target=match.group("path"), detail=name))
    return found


def head_positions(text: str) -> list[tuple[Optional[str], Optional[str]]]:
    """(sha or None, branch or None) of each "HEAD is at S [on B]" / "we are on B" statement."""
    found = []
    for pattern in _HEAD_AT_RES:
        for match in pattern.finditer(text):
            found.append((match.group(1).lower(), (match.group(2) or None) if match.lastindex and match.lastindex >= 2 else None))
    for match in _HEAD_ON_AT_RE.finditer(text):
        found.append((match.group(2).lower(), match.group(1)))
    for match in _HEAD_ON_RE.finditer(text):
        if not any(branch == match.group(1) for _, branch in found):
            found.append((None, match.group(1)))
    for match in _DETACHED_RE.finditer(text):
        found = [f for f in found if f[0] != match.group(1).lower()]
        found.append((match.group(1).lower(), DETACHED))
    return list(dict.fromkeys(found))


_KNOWN_REF_WORDS = frozenset("main master trunk develop development head upstream origin".split())


def _ref_like(span: str, at: int, name: str) -> bool:
    """A name of "X is in sync with Y" is a ref when backticked, shaped like one (``origin/main``)
    or a usual branch name: "the environment is in sync with the lock file" names no branch."""
    return span[at - 1 : at] == "`" or "/" in name or name.lower() in _KNOWN_REF_WORDS


def named_branch_tips(text: str) -> list[tuple[str, str]]:
    """(branch, sha) of "`main` is at `S`" statements (the name in backticks)."""
    return [(m.group(1), m.group(2).lower()) for m in _NAMED_BRANCH_AT_RE.finditer(text) if m.group(1).upper() != "HEAD"]


def _gone(text: str, addresses: list[Address]) -> list[Assertion]:
    names = [a for a in addresses if a.kind in (PATH, NAME, BRANCH)]
    if not names:
        return []
    found: dict[str, Assertion] = {}
    present: set[str] = set()
    swap_sha = _sha_in(text)
    for pattern, _ in _SWAP_RES:
        for match in pattern.finditer(text):
            old = _address_in(match.group("old"), names)
            new = _address_in(match.group("new"), names) if "new" in pattern.groupindex else None
            olds = [old] + [_address_in(m.group(1), names) for m in [_ALSO_OLD_RE.search(text[: match.start()])] if m]
            for old in (o for o in olds if o is not None):  # removed by the commit the sentence names, if any
                found.setdefault(old.value, Assertion("gone", target=old.value, sha=swap_sha if re.search(r"\b(?:in|by)\s+`?[0-9a-fA-F]{4,40}", text) else None))
            if new is not None:
                present.add(new.value)
    for match in _NOW_AT_RE.finditer(text):
        new = _address_in(match.group(1), names)
        if new is not None:
            present.add(new.value)
    gone_clauses = [c for c in _clauses(text) if _GONE_RE.search(c) and not _NOT_GONE_RE.search(c)]
    sentence_sha = next((s for s in map(_sha_in, gone_clauses) if s), None)
    for clause in gone_clauses:
        sha = _sha_in(clause) or sentence_sha
        for address in names:
            position = _position_in(clause, address)
            if position is None or address.value in present or address.value in found:
                continue
            if address.kind == PATH and _CONTAINER_RE.search(clause[:position]):
                continue  # removed something *from* this file
            if address.kind != PATH and _REF_PLACE_RE.search(clause[:position]):
                continue  # "does not exist on `main`": the branch is where, not what
            absent_only = _ABSENT_ONLY_RE.search(clause) is not None and sha is None
            found[address.value] = Assertion("gone", negated=absent_only, target=address.value, sha=sha.lower() if sha else None)
    for value in present:
        found.pop(value, None)
    return list(found.values())


def _sha_in(clause: str) -> Optional[str]:
    match = re.search(r"`([0-9a-fA-F]{4,40})`|\b([0-9a-f]{7,40})\b", clause)
    return (match.group(1) or match.group(2)).lower() if match else None


def _clauses(text: str) -> list[str]:
    return [part for part in _CLAUSE_SPLIT_RE.split(text) if part and part.strip()]


def _address_in(span: str, names: list[Address]) -> Optional[Address]:
    token = span.strip("`").strip()
    return next((a for a in names if a.value == token or str(a) == token or token.rstrip("/") == a.value.rstrip("/")), None)


def _position_in(clause: str, address: Address) -> Optional[int]:
    for token in (f"`{address}`", f"`{address.value}`", str(address), address.value):
        index = clause.find(token)
        if index >= 0:
            return index
    return None


_AUTHOR_BEFORE_RE = re.compile(
    r"(?:\b(?:landed|fixed|added|introduced|implemented|came|went|done|committed|shipped|resolved|addressed|handled|"
    r"made|changed|removed|deleted|dropped|split|moved|renamed|replaced|superseded|refactored|rewritten|rewrote|merged|solved|closed|"
    r"enabled|disabled|switched|bumped|deprecated|restored|reworked|updated|optimi[sz]ed|applied|pinned|"
    r"(?!(?:based|pushed|tagged|reverted|rebased|detached|checked|passed|failed|deployed|released|published|tested|verified|built|authored|"
    r"committed|created|reported|discussed|mentioned|described|explained|noted|cited|reviewed|approved|blamed|bisected)\b)[a-z]{3,}ed)"
    r"\s+(?:[\w.'-]+\s+){0,4}?(?:in|as|with|by|via)(?:\s+(?:the|a|an)\s+[\w-]+)?|"
    r"\b(?:is|was|are|were)|\bfix(?:es)?\s*(?:is|was|:)|\bcommit|\b(?:came|comes|originated)\s+from)\s*(?:commit\s+)?$",
    re.I,
)
_AUTHOR_AFTER_RE = re.compile(
    r"^\s*(?:\([^)]*\)\s*)?(?:also\s+|first\s+|finally\s+)?(?:fixed|fixes|adds|added|introduced|introduces|implements|implemented|"
    r"removes|removed|deletes|deleted|drops|dropped|makes|made|does|did|changed|changes|moved|moves|renamed|renames|"
    r"refactored|refactors|enables|enabled|disables|disabled|deprecates|deprecated|is\s+the|was\s+the|has\s+the|"
    r"(?:is|was)\s+where|(?:is|was)\s+(?:a|an|our|my)\b(?!\s+(?:ancestor|descendant|parent|child)\b)|"
    r"brings|brought|lands|landed|solves|solved|closes|closed|replaces|replaced|updates|updated|"
    r"(?:is|was)\s+for|(?!(?:based|pushed|tagged|reverted|merged|rebased|detached|checked|passed|failed|deployed|released|published|shipped|tested|verified|built|red|authored|committed|created|introduced)\b)[a-z]{3,}ed)\b",  # "`S` shipped the X", "`S` was for the Y"
    re.I,
)


def _is_authored(text: str, sha: str) -> bool:
    """The sentence says ``sha`` did the work it describes ("landed in S", "the X fix is S", "S fixed X"),
    not that S is a point of reference ("reverted S", "rebased onto S", "marking S good", "blamed S")."""
    index = text.lower().find(sha)
    if index < 0:
        return False
    before = text[:index].rstrip("` ")
    after = text[index + len(sha):].lstrip("`")
    if re.search(r"\bnot\s+(?:the\s+)?(?:\w+\s+)?$", before, re.I):
        return False  # "..., not the reformat `S`"
    if _NOT_AUTHOR_RE.search(before) is not None:
        return False
    return _AUTHOR_BEFORE_RE.search(before) is not None or _AUTHOR_AFTER_RE.match(after) is not None


def clause_of(text: str, sha: str) -> str:
    """The clause of the sentence that names ``sha`` (the whole sentence when none does)."""
    return next((c for c in _TOPIC_SPLIT_RE.split(text) if sha.lower() in c.lower()), text)


def topic_of(text: str, addresses: list[Address], sha: Optional[str] = None) -> str:
    """The words of the sentence that describe the work (addresses and generic words removed), as text:
    those of the clause naming ``sha`` when that clause has any."""
    plain = text
    if sha:
        clause = clause_of(text, sha)
        if clause is not text and topic_of(clause, addresses):
            plain = clause
    for address in addresses:
        plain = plain.replace(f"`{address}`", " ").replace(f"`{address.value}`", " ")
    plain = re.sub(r"`[0-9a-fA-F]{4,40}`|\b[0-9a-f]{7,40}\b", " ", plain)
    plain = re.sub(r"\b\d{4}-\d{2}-\d{2}\b", " ", plain)
    plain = unhyphen(plain)
    words = [w for w in significant_words(plain) if w not in _GENERIC]
    return " ".join(words)


def _spans_blanked(text: str) -> str:
    return re.sub(r"`[^`]*`", lambda m: " " * len(m.group(0)), text)
