"""Turn dashboard lines and free text into classified claims.

``claim_from_line`` is the one place a sentence becomes a ``Claim``: its
addresses, its git-state assertions ("working tree clean", "pushed",
"merged into `main`", "branch `x` at `abc1234`") and its kind:

queue     a QUEUED item (or a "next steps" line of a summary)
external  carries ``(probe: NAME)``, or speaks of deploys, CI, releases, tests
position  "awaiting the user's ruling on X", "at step 3"
git       names a commit or branch, or asserts a git state
path      names files only

``extract_from_text`` does the same for the harness's compaction summary:
every line with an address or a status statement ("fixed", "merged",
"pushed", "deployed", "tests pass") is a claim; lines under a "next steps" /
"pending tasks" heading are queue claims.
"""

from __future__ import annotations

import re
from typing import Iterable, Optional

from cc_hooks.claims import addresses as addr
from cc_hooks.claims.addresses import Address, extract_addresses
from cc_hooks.claims.model import DEFAULT_BRANCH, EXTERNAL, GIT, PATH, POSITION, QUEUE, Assertion, Claim
from cc_hooks.claims.history_statements import history_statements
from cc_hooks.claims.sentence import JUDGMENT, asserted, unmodeled_parts
from cc_hooks.claims.statements import named_branch_tips, statements
from cc_hooks.claims.words import is_external_statement

MAX_CLAIM_CHARS = 500

_POSITION_RE = re.compile(
    r"\b(?:awaiting|waiting\s+(?:for|on)|blocked\s+on|pending\s+(?:the\s+)?(?:user'?s?\s+|owner'?s?\s+)?"
    r"(?:ruling|decision|answer|approval|review|input|confirmation|go-ahead|sign-off)|"
    r"(?:at|on)\s+step\s+\d+|step\s+\d+\s+of)\b",
    re.IGNORECASE,
)
_STATUS_RE = re.compile(
    r"\b(?:fixed|fix(?:es)?\s+(?:is\s+)?(?:in|landed)|merged|pushed|deployed|committed|landed|released|"
    r"tests?\s+(?:all\s+)?pass(?:es|ed|ing)?|all\s+\d*\s*tests?\s+pass(?:ed)?|working\s+tree\s+(?:is\s+)?clean|"
    r"not\s+(?:yet\s+)?committed|uncommitted|unstaged|staged)\b",
    re.IGNORECASE,
)
_INTENT_RE = re.compile(
    r"^(?:next(?:\s+steps?)?\s*:|todo\b|to\s+do\s*:|then\s*:)|"
    r"\b(?:will|should|must|need(?:s|ed)?\s+to|plan(?:s|ned)?\s+to|going\s+to|wants?|asked\s+(?:for|to|me|us)|asks\s+for|requested|"
    r"(?:I|we|you)'ll|"
    r"to\s+be\s+(?:written|created|added|moved|renamed))\b",
    re.IGNORECASE,
)
_CONSEQUENCE_RE = re.compile(r",\s+so\b|;\s|\s[—–]\s|,\s+(?:which|and\s+so|hence|therefore)\b|\.\s", re.IGNORECASE)
_NEXT_HEADING_RE = re.compile(
    r"\b(?:next\s+steps?|pending\s+tasks?|still\s+need(?:s)?\s+to|remaining\s+(?:tasks?|work)|to\s*do|todo|"
    r"open\s+(?:items|questions)|queued?|not\s+yet\s+done)\b",
    re.IGNORECASE,
)
# In a document (not a summary or the dashboard) "queue" is a topic ("Queue example", "Priority
# queues"), not the plan section it is in a dashboard, and the plan words open the heading: a
# sentence introducing an example ("For example, to do a total of 3 retries:") is no plan.
DOC_PLAN_HEADING_RE = re.compile(
    r"^\W*(?:next\s+steps?|pending\s+tasks?|still\s+need(?:s)?\s+to|remaining\s+(?:tasks?|work)|to\s*do(?!\s+(?:so|this|that|it)\b)|todo|"
    r"open\s+(?:items|questions)|queued|not\s+yet\s+done)\b"
    # a heading, not a sentence ending in a colon: "To do so, the server manages two loggers:", "To do that you need:"
    r"(?:\s*[:,\u2013\u2014-])?(?:\s*\([^)]*\))?(?:\s+[^\s,]+){0,4}\W*$",
    re.IGNORECASE,
)
_NAME = r"(`?)([A-Za-z0-9][\w./+-]*[\w/+-]|[A-Za-z0-9])`?"  # (tick, name)
# "merged into `main`", "merged `fix/x` into `main`": (verb, tick, target)
_MERGED_RE = re.compile(
    rf"\b(not\s+(?:yet\s+|been\s+)*(?:merged|landed)|never\s+(?:been\s+)?(?:merged|landed)|unmerged|merged|landed)\s+(?:`[^`\s]+`\s+)?(?:(?:in)?to|on)\s+{_NAME}", re.IGNORECASE
)
_LANDED_IN_SHA_RE = re.compile(r"\blanded\s+(?:on|in)\s+`?[\w./-]+`?\s+(?:in|as|with|via)\s+`?[0-9a-fA-F]{7,40}", re.IGNORECASE)
_MERGED_HERE_RE = re.compile(r"`(?P<name>[^`\s]+)`\s+(?:is|was|has\s+been|got)\s+(?P<how>(?:still\s+|already\s+|fully\s+|not\s+(?:yet\s+)?|never\s+(?:been\s+)?)?"
                             r"(?:merged|unmerged))\b(?!\s+(?:in)?to\b|\s+(?:as|in|by|with)\s+`)", re.IGNORECASE)
_BRANCH_AT_RE = re.compile(
    rf"\b(?:branch|tag)\s+{_NAME}\s+(?:is\s+(?:now\s+|still\s+)?)?(?:at|@|points\s+(?:to|at))\s+(?:commit\s+)?`?([0-9a-fA-F]{{4,40}})`?", re.IGNORECASE
)
_CLEAN_RE = re.compile(
    r"\b(?:(?:working|work)\s*tree\s+(?:is\s+)?clean|clean\s+(?:working|work)\s*tree|(?<!\w\s)tree\s+is\s+clean|nothing\s+to\s+commit|"
    r"everything\s+(?:is\s+)?committed|all\s+changes\s+(?:are\s+)?committed)\b",
    re.IGNORECASE,
)
_DIRTY_RE = re.compile(
    r"(?<!\bno\s)(?<!\bnot\sany\s)(?<!\bnothing\s)\b(?:uncommitted|unstaged|not\s+(?:yet\s+)?committed|dirty\s+(?:working\s+)?tree|(?:working|work)\s*tree\s+(?:is\s+)?dirty|"
    r"local\s+(?:un\w+\s+)?changes)\b",
    re.IGNORECASE,
)
_DENIED_BEFORE_RE = re.compile(r"\b(?:no|nothing|without|not\s+any|zero)\b[^,;:.—–]*$", re.IGNORECASE)


def _dirty(text: str) -> bool:
    """A dirty-tree word not inside a denial: "no staged or unstaged changes" is a clean tree."""
    return any(_DENIED_BEFORE_RE.search(text[max(0, m.start() - 60):m.start()]) is None for m in _DIRTY_RE.finditer(text))


_UNPUSHED_RE = re.compile(r"\b(?:(?:not|never)\s+(?:yet\s+|been\s+)?pushed|(?<!\bno\s)(?:unpushed|un-pushed))\b", re.IGNORECASE)
_NO_UNPUSHED_RE = re.compile(r"\bno\s+(?:unpushed|un-pushed|local-only)\s+commits?\b|\bnothing\s+(?:left\s+)?to\s+push\b", re.IGNORECASE)
_NO_DIRT_RE = re.compile(r"\bno\s+(?:uncommitted|unstaged|local)\s+(?:changes|modifications|edits)\b|\bnothing\s+(?:is\s+)?(?:uncommitted|unstaged|modified)\b", re.IGNORECASE)
_PUSHED_RE = re.compile(r"\bpushed\b(?!\s+(?:only\s+)?(?:the\s+first|the\s+earlier|one\s+of|some\s+of|part\s+of|\w+\s+of\s+them))", re.IGNORECASE)
_STAGED_RE = re.compile(
    r"\b(?:(?:changes|files?|everything|diff)\s+(?:is\s+|are\s+)?staged|staged\s+(?:changes|files?)|in\s+the\s+index)\b",
    re.IGNORECASE,
)
_NOT_STAGED_RE = re.compile(r"\b(?:nothing\s+(?:is\s+)?staged|not\s+staged)\b", re.IGNORECASE)
_BULLET_RE = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_HEADING_RE = re.compile(r"^\s*(?:#{1,6}\s+|\d+\.\s+\*\*)?(.{1,80}?)(?:\*\*)?\s*:?\s*$")
_FENCE_RE = re.compile(r"^\s*(```|~~~)")
_SENTENCE_SPLIT_RE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`]|#\d)")  # "… `S`. #1738 was authored by …"


def claim_from_line(
    text: str,
    source: str,
    line: Optional[int] = None,
    section: str = "state",
    date: Optional[str] = None,
    done: bool = False,
    addresses: Optional[Iterable[Address]] = None,
) -> Claim:
    """One classified claim. ``addresses`` may come from a dashboard reader;
    by default they are extracted from ``text`` with the same rules."""
    text = " ".join(text.split())[:MAX_CLAIM_CHARS]
    found = list(addresses) if addresses is not None else extract_addresses(text)
    claim = Claim(text=text, kind=QUEUE, source=source, line=line, section=section, date=date, done=done)
    claim.addresses = found
    intent = _INTENT_RE.search(text)
    afterthought = intent is not None and _CONSEQUENCE_RE.search(text[: intent.start()]) is not None
    claim.intent = section == "queue" or (intent is not None and not afterthought)  # "…, so it should apply": a fact first
    # Future work ("will push", "the user wants it merged") asserts nothing about the git state now.
    claim.assertions = [] if claim.intent else git_assertions(text) + statements(text, found) + history_statements(text, found)
    claim.addresses = [a for a in found if not _said_by_a_file(a, claim.assertions)]
    claim.kind = classify(claim)
    if not claim.intent and claim.kind != QUEUE:
        looked_up = {"exists"} if claim.addresses_of(addr.PATH, addr.BRANCH) else set()  # every named path is looked up
        modeled = frozenset(a.what for a in claim.assertions) | looked_up | ({"probe"} if claim.addresses_of(addr.PROBE) else set())
        claim.unmodeled = [p.name for p in unmodeled_parts(text, modeled, found)]
        if afterthought and JUDGMENT not in claim.unmodeled:
            claim.unmodeled.append(JUDGMENT)
        parts = asserted(text, found)
        claim.past = any(p.past for p in parts)
        claim.says_exists = any("exists" in p.modeled_by for p in parts)
    elif claim.intent and claim.kind != QUEUE:
        claim.unmodeled = [JUDGMENT]  # what it intends is not a fact of the repository
    return claim


def _said_by_a_file(address: Address, assertions: list[Assertion]) -> bool:
    """A backticked name that is what a file says ("the `Style/HashSyntax` cop is enabled in `.rubocop.yml`")
    or what code imports or calls ("no file imports `io/ioutil`"): text of the code, not a path of the repository."""
    return address.kind in (addr.PATH, addr.NAME) and any(
        a.what == "mentions" and a.target != address.value and f"`{address.value}`" in (a.detail or "") or
        a.what.startswith("code_") and a.detail == address.value for a in assertions)  # "imports `io/ioutil`": code


def classify(claim: Claim) -> str:
    if claim.section == "queue":
        return QUEUE
    if claim.addresses_of(addr.PROBE):
        return EXTERNAL
    if _POSITION_RE.search(claim.text):
        return POSITION
    if claim.addresses_of(addr.SHA, addr.BRANCH, addr.NAME) or claim.assertions:
        return GIT
    if is_external_statement(claim.text):
        return EXTERNAL
    if claim.addresses_of(addr.PATH):
        return PATH
    return EXTERNAL


def git_assertions(text: str) -> list[Assertion]:
    found: list[Assertion] = []
    for match in _BRANCH_AT_RE.finditer(text):
        if addr.looks_like_branch(match.group(2), quoted=bool(match.group(1))):
            found.append(Assertion("branch_at", target=match.group(2), sha=match.group(3).lower()))
    for name, sha in named_branch_tips(text):
        if addr.looks_like_branch(name, quoted=True) and not any(a.what == "branch_at" and a.sha == sha for a in found):
            found.append(Assertion("branch_at", target=name, sha=sha))
    for match in _MERGED_RE.finditer(text):
        negated = not match.group(1).lower().startswith(("merged", "landed"))
        target = match.group(3).rstrip(".,;:")
        if "landed" in match.group(1).lower() and _LANDED_IN_SHA_RE.search(text):
            continue  # "landed on `main` in `S`": where the commit is, judged with the commit (verify_git)
        if addr.looks_like_branch(target, quoted=bool(match.group(2))):
            found.append(Assertion("merged", negated=negated, target=target))
    if not any(a.what == "merged" for a in found):
        for match in _MERGED_HERE_RE.finditer(text):  # "Branch `b` is merged.", "`b` is still unmerged": into the current branch
            negated = bool(re.search(r"not|never|unmerged", match.group("how"), re.I))
            found.append(Assertion("merged", negated=negated, target=DEFAULT_BRANCH, detail=match.group("name")))
    if _dirty(text):
        found.append(Assertion("clean", negated=True))
    elif _CLEAN_RE.search(text) or _NO_DIRT_RE.search(text):
        found.append(Assertion("clean"))
    if _UNPUSHED_RE.search(text):
        found.append(Assertion("pushed", negated=True))
    elif _PUSHED_RE.search(text) or _NO_UNPUSHED_RE.search(text):
        found.append(Assertion("pushed"))
    if _NOT_STAGED_RE.search(text):
        found.append(Assertion("staged", negated=True))
    elif _STAGED_RE.search(text):
        found.append(Assertion("staged"))
    return found


def extract_from_text(text: str, source: str = "summary", date: Optional[str] = None,
                      plan_headings: "re.Pattern[str]" = _NEXT_HEADING_RE) -> list[Claim]:
    """Claims in free text such as the harness's compaction summary.

    ``date`` (ISO) bounds the commit search for its "next steps" items; without
    it they stay UNVERIFIED ("undated"). ``plan_headings``: the headings whose
    lines are queue items.
    """
    claims: list[Claim] = []
    in_fence = False
    in_next = False
    previous = ""
    for number, raw in enumerate(text.splitlines(), start=1):
        if _FENCE_RE.match(raw):
            in_fence = not in_fence
            continue
        stripped = _strip_controls(raw).strip()
        continues = _wraps(previous) and not _BULLET_RE.match(stripped)  # the next line of a wrapped sentence
        previous = stripped
        if in_fence or not stripped:
            continue
        heading = None if continues and not stripped.startswith("#") else _heading(stripped)
        if heading is not None:
            in_next = bool(plan_headings.search(heading))
            continue
        body = _BULLET_RE.sub("", stripped)
        for sentence in _SENTENCE_SPLIT_RE.split(body):
            sentence = sentence.strip()
            if len(sentence) < 4:
                continue
            if in_next:
                claims.append(claim_from_line(sentence, source, number, section="queue", date=date))
                continue
            found = [a for a in extract_addresses(sentence) if a.kind != addr.REF]
            if found or _STATUS_RE.search(sentence):
                claims.append(claim_from_line(sentence, source, number, section="summary"))
    return claims


def _wraps(previous: str) -> bool:
    """The line before ends mid-sentence: the next one continues it (and so is no heading)."""
    if not previous or previous.startswith(("#", "<")) or _BULLET_RE.match(previous):
        return False
    return not previous.endswith((".", "!", "?", ":", ">", "*", ")", "`"))


def _heading(line: str) -> Optional[str]:
    """The heading text if ``line`` looks like one ("## Next Steps", "9. Optional Next Step:", "Still need to:")."""
    if line.startswith("#"):
        return line.lstrip("#").strip()
    numbered = re.match(r"^\d+[.)]\s+", line)
    if line.endswith(":") and len(line) <= 80 and (numbered or not _BULLET_RE.match(line)):
        return line[numbered.end() if numbered else 0 :].rstrip(":").strip("* ").strip()
    if _BULLET_RE.match(line) and not re.match(r"^\s*\d+\.\s+\*\*", line):
        return None
    match = re.match(r"^\d+\.\s+\*\*(.{1,80}?)\*\*:?\s*$", line)
    return match.group(1) if match else None


def _strip_controls(text: str) -> str:
    from cc_hooks.printable import printable  # the one sanitizer (issue 16, item 8)

    return printable(text)
