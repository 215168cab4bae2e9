"""What a sentence asserts beyond the things it names, and which of it is modeled.

A verdict may not say more than was checked (DESIGN.md, "Verdicts by coverage"). The
statements of ``statements.py`` and ``extract.git_assertions`` are the modeled predicates:
each maps to a check. This module is the registry of the predicates agents write about a
repository's history and contents, each with the cue that shows it in a sentence and the
statements that model it. A cue whose predicate the sentence's statements do not model is an
*unmodeled part*: the claim can then be CONTRADICTED by a check of a modeled part, but never
VERIFIED, and its UNVERIFIED line names the part and how to say it checkably.

Text that matches no cue (an activity, "I read `x.py`"; a description, "the csv crash fix")
asserts nothing this registry knows of; its nouns' checks decide.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True)
class Predicate:
    name: str  # how the report names the part: "whether it was reverted"
    cue: "re.Pattern[str]"
    modeled_by: frozenset  # the statement kinds (``Assertion.what``) that check it
    restate: str  # how to say it checkably
    subject: str = ""  # "path": the cue's ``subj`` group, when it matched, must be a path the sentence names
    past: bool = False  # it places the paths it names at a commit: whether they exist at HEAD proves nothing


def _p(name: str, cue: str, modeled_by: str, restate: str, subject: str = "", past: bool = False) -> Predicate:
    return Predicate(name, re.compile(cue, re.IGNORECASE), frozenset(modeled_by.split()), restate, subject, past)


_SHA = r"`?[0-9a-f]{7,40}`?"
JUDGMENT = "a judgment, proposal or reason"
WHAT_IT_SAYS = "what the sentence says of what it names"
# where a commit is, not what it did ("landed in `S`", "`S` was pushed"): position statements check these
_NOT_PLACE = r"(?!(?:landed|merged|pushed|committed|tagged|based|rebased|released|shipped|published|reverted|cherry-picked|backported|checked|detached)\b)"
_IRREGULAR = "put|made|set|cut|split|took|brought|wrote|rewrote|gave|left|kept|broke|ran|began|undid|redid|did|went|came|bumped|rode|got|led|meant|lost|won|found"
# every statement kind that says something of a commit: any of them models "what the commit did"
_COMMIT_KINDS = ("renamed created touched about merged gone code_added code_removed code_renamed reverted reverts authored before "
                 "in_release reached changed_since last_changed branch_at head_at exists_at never_existed reachable mentions")

PREDICATES = (
    _p("was reverted", r"\b(?:was|were|got|been|is|are|has\s+been)\s+(?:not\s+|never\s+|since\s+|later\s+)?reverted\b|"
       r"\b(?:not|never)\s+(?:been\s+)?reverted\b|\breverted\s+(?:by|in)\b|\brevert\s+of\b", "reverted reverts",
       "name the reverting commit: \"`S` reverted `R`\""),
    _p("reverts another commit", r"\breverts?\b|\breverted\b|\brestored\s+by\s+the\s+revert\b", "reverts reverted",
       "name both commits: \"`S` reverts `R`\""),
    _p("who authored it", r"\b(?:authored|written|signed(?:-off)?)\s+by\b|`\s+(?:\([^)]*\)\s+)?(?:is|was)\s+(?-i:[A-Z])[\w.-]*(?:\s+(?-i:[A-Z])[\w.-]*)*'s\b|\b(?:is|was)\s+(?-i:[A-Z])[\w.-]*'s\s+`[0-9a-fA-F]{7,40}`|\bcommitted\s+by\s+(?!the\b|an?\b|`)|\bauthor\s+(?:is|was)\b|\b(?:is|was)\s+by\s+[A-Z]", "authored",
       "\"`S` was authored by <name as in git log>\""),
    _p("the order of the commits", r"\b(?:came|comes|landed|was\s+committed)\s+(?:before|after)\s+`|\b(?:precedes|preceded|follows|followed)\s+`|"
       r"\b(?:older|newer|earlier|later)\s+than\s+`|\b(?:parent|child)\s+of\s+`|\b(?:predates|predated|postdates|postdated)\s+`", "before",
       "\"`A` came before `B`\" with both shas"),
    _p("whether it changed since then", r"\b(?:has|have|had)\s*(?:n[o']t|not|never)\s+(?:been\s+)?(?:changed|touched|modified|edited|updated)\b|"
       r"\b(?:not|never|nobody|no\s+one)\s+(?:been\s+)?(?:changed|touched|modified|edited)\b|\bunchanged\b|\buntouched\b|"
       r"\b(?:was|were)\s*(?:n[o']t|not|never)\s+(?:changed|touched|modified|edited|updated)\b|"
       r"\b(?:changed|modified|touched|edited|updated)\s+(?:again\s+)?(?:since|after)\b|\bsince\s+(?:then|it\s+was)\b", "changed_since",
       "\"`path` has not changed since `S`\""),
    _p("which release is latest", r"\b(?:latest|newest|most\s+recent|last|current)\s+(?:stable\s+)?(?:release|tag|version|commit)\b", "latest_tag",
       "\"the latest release tag is `vX`\""),
    _p("which release shipped it", r"\b(?:first\s+)?(?:shipped|released|published)\s+(?:in|as|with|on)\b|\bfirst\s+(?:released|shipped|release)\b|"
       r"\bmade\s+it\s+into\b|\b(?:is|was|are|were)\s+(?:part\s+of|in)\s+(?:the\s+)?(?:release\s+)?`?v?\d+\.\d+|\btagged\s+(?:on|from|in)\b|"
       r"\b(?:is|was|are|were|went\s+out|went|got)\s+(?:not\s+|n't\s+)?(?:already\s+|also\s+|only\s+)?(?:in|into|part\s+of)\s+(?:the\s+)?`[\w.+-]*\d+\.\d+|"
       r"\bon\s+the\s+same\s+day\b", "in_release reached code_released",
       "\"`S` is in the `vX` tag\""),
    _p("whether the same change is elsewhere", r"\bsquash(?:ed)?[- ]?merged\b|\bcherry-?pick(?:ed)?\s+(?:to|into|onto)\b|\bbackported\s+(?:to|into)\b|"
       r"\bsame\s+(?:change|patch|diff|fix|PR|pull\s+request|merge)\b|\b(?:as|into)\s+(?:the\s+|a\s+)?squash\b|\b(?:patch-)?equivalent\b|\bnever\s+reached\b|\bis\s+a\s+(?:copy|backport|cherry-pick)\s+of\b",
       "reachable reached",
       "\"`S` is on `branch`\" (ancestry) or name the copy's sha"),
    _p("whether the commit created it", r"`[0-9a-fA-F]{4,40}`\s+(?:created|introduced)\s+`|`\s+(?:was|were)\s+(?:created|introduced|added)\s+(?:in|by)\s+`[0-9a-fA-F]{4,40}`",
       "created touched about changed_since code_added", "\"`S` created `path`\"", past=True),
    _p("what the commit did", r"\b(?:renamed|moved|folded|split|merged|converted|turned|replaced|superseded|rejected|dropped|removed|restored|committed)\b[^;]*?\b(?:in|by)\s+(?:the\s+[\w-]+\s+)?`[0-9a-fA-F]{4,40}`",
       "renamed created touched about merged gone code_added code_removed code_renamed",
       "\"`S` renamed `old` to `new`\" or \"`S` removed `name`\"", past=True),
    # Any other thing a commit is said to have done ("`S` only touched test files", "`S` was authored in 2022",
    # "X was bumped to 1.23 in `S`"): some statement about the commit must check it, else it is unmodeled.
    _p("what the commit is said to have done", rf"`(?:[0-9a-fA-F]{{7,40}}|(?=[a-f]*\d)[0-9a-f]{{3,6}})`\s+(?:\([^)]*\)\s+)?(?:(?:from|by)\s+[\w.@-]+(?:\s+[A-Z][\w.-]+)?\s+)?(?:also\s+|only\s+|just\s+|then\s+|first\s+|finally\s+)?"
       rf"(?:(?:was|were|got)\s+)?(?:{_IRREGULAR}|{_NOT_PLACE}[a-z]+ed)\b|\b{_NOT_PLACE}[a-z]+ed\b(?:\s+[\w.-]+){{0,6}}?\s+(?:in|by|with)\s+(?:the\s+[\w-]+\s+)?`[0-9a-fA-F]{{7,40}}`",
       _COMMIT_KINDS, "\"`S` added `name`\", \"`S` changed `path`\" or \"`S` fixed <the words of its subject>\""),
    _p("what the commit is said to have done", r"\b(?:came|comes|originated)\s+from\s+`[0-9a-fA-F]{7,40}`", _COMMIT_KINDS,
       "\"`S` added `name`\""),
    _p("how many commits", r"\b(?:has|have|had|with|is|are)\s+(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|several)\s+"
       r"(?:more\s+)?commits?\b|\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s+commits?\s+(?:ahead|behind)\b",
       "commit_count", "\"`b` is N commits ahead of `main`\""),
    _p("whether it is still gone", r"\b(?:is|are)\s+still\s+gone\b|\bno\s+longer\s+exists?\b|\bdoes\s*n[o']t\s+exist\s+any\s*more\b",
       "gone code_at_head", "\"no file has `name` at HEAD\" or \"`path` is gone\""),
    _p("that it is back", r"\b(?:is|are)\s+back\b|\bcame\s+back\b|\bre-?added\b|\breintroduced\b", "exists_at",
       "\"`path` exists\" and \"`S` restored `path`\" as two sentences"),
    _p("when or whether it was merged", r"\b(?:was|were|has\s+been|have\s+been|got|is|are)\s+(?:already\s+|also\s+)?merged\b(?!\s+(?:in)?to\b)(?!\s+(?:as|in)\s+`)", "merged",
       "\"`branch` is merged into `main`\""),
    _p("what a tool or service reports", r"\b(?:audit|CI|pipeline|protection|lint(?:er)?|scan|scanner|dependabot|coverage)\b[^.;]*\b(?:clean|green|red|passes|passing|fails|failing|requires)\b",
       "probe", "attach a probe: \"(probe: NAME)\""),
    _p(WHAT_IT_SAYS, r"(?!x)x", "", "one of the checked forms (docs/rehydration.md): \"`S` added `name`\", \"`path` contains `name`\""),
    _p("whether the branch has it", r"`[^`]+`\s+(?:still\s+|also\s+)?(?:has|contains|includes|carries|tracks)\s+`[^`]*[./][^`]*`|"
       r"`[^`]*[./][^`]*`\s+(?:still\s+|also\s+)?(?:exists|is\s+tracked|is\s+present|lives)\s+on\s+`", "exists_at",
       "\"`branch` has `path`\"", subject="", past=True),
    _p("whether it ever existed", r"\bnever\s+(?:existed|been\s+(?:committed|tracked|added))\b", "never_existed",
       "\"`path` was removed in `S`\" or \"`path` does not exist\"", past=True),
    _p("whether it exists", r"\b(?:still|also)\s+exists?\b|\b(?:is|are)\s+still\s+(?:tracked|there|present|around)\b", "exists",
       "\"`path` exists\""),
    _p(JUDGMENT, r"\b(?:should|would|could|ought\s+to|might)\b|\bis\s+to\s+(?!be\b)[a-z]+\b|"
       r"\b(?:cleanest|simplest|best|easiest|safest|preferable|ideal)\b|\bprefer(?:s|red)?\b|\bbecause\b|\bso\s+that\b|"
       r"\bin\s+order\s+to\b|\bI\s+(?:think|believe|suspect)\b|\b(?:likely|probably|presumably|apparently|maybe|perhaps)\b|"
       r"\b(?:not\s+sure|unsure|undecided)\b|\bneeds?\s+(?:nothing|no)\b",
       "", "state the fact it rests on in its own sentence: \"`S` removed `path`\""),
    _p("what it found", r"\bto\s+(?:see|find\s+out|find|learn|work\s+out|figure\s+out|check)\s+(?:what|whether|which|if|how|where)\b",
       "", "state what was found: \"`S` is not on `branch`\""),
    _p("when it was last changed", r"\blast\s+(?:modified|changed|touched|edited|updated)\b", "last_changed",
       "\"`path` was last changed in `S`\""),
    _p("where the branch forks", r"\bfork(?:s|ed)?\s+(?:off\s+)?(?:from|at)\b|\bbranch(?:es|ed)\s+(?:off\s+)?(?:from|at)\b|\bmerge[- ]base\b",
       "fork_point", "\"`S` is on `branch`\" and \"`branch` is N commits ahead of `main`\""),
    _p("whether it is an ancestor", r"\bancestor\s+of\b|\bdescendant\s+of\b|\bcontained\s+in\s+`", "merged reachable",
       "\"`S` is on `branch`\""),
    _p("what the file says", r"`(?P<subj>[^`\s]+)`(?::\d+)?(?:\s+on\s+`[^`\s]+`)?\s+(?:now\s+|still\s+|also\s+|already\s+|only\s+|no\s+longer\s+|(?:does\s*n[o']t|doesn't|does\s+not|never)\s+)?"
       r"(?:says|say|targets|holds|carries|carried|runs|requires|defines|declares|exposes|exports|calls|uses|sets|pins|lists|mentions|"
       r"contains|configures|enables|disables|imports|reads|registers|documents|describes|handles|points\s+to|starts|ends|opens|"
       r"keeps|tells|forces|includes|references|"
       r"has\s+(?:carried|held|had)|has|have)\b(?!\s+(?:no|nothing|none|not|never|been)\b)(?!n't)(?!\s+`?[0-9a-fA-F]{7,40}\b)(?!\s+(?:an?\s+|the\s+|some\s+)?(?:staged|unstaged|uncommitted|local|unpushed|modified)\b)|\b(?:is|are)\s+(?:enabled|disabled|configured|defined|declared|set|registered|pinned|documented|listed)\s+"
       r"(?:in|at|by)\s+`|\b(?:is\s+defined|are\s+defined|starts|begins)\s+(?:at|in|under)\s+`|"
       r"\b(?:is|are)\s+(?:still\s+|also\s+|now\s+)?(?:referenced|used|called|imported|mentioned)\s+(?:in|from|by)\s+`|\b(?:is|are)\s+(?:declared|defined|written)\s+as\s+`",
       "contains mentions gone",
       "quote the text in backticks: \"`path` contains `name`\"", subject="path"),
)


def unmodeled_parts(text: str, modeled: frozenset, addresses=()) -> list[Predicate]:
    """The predicates the sentence asserts that none of its statements (``modeled``: their kinds) checks;
    a sentence no statement models that says something with a verb the registry does not know (it is
    no activity and no bare naming) has that verb as an unmodeled part: its nouns existing prove nothing of it."""
    found = [p for p in asserted(text, addresses) if not (p.modeled_by & modeled)]
    if not (modeled - {"exists", "probe"}) and not found and says_more(text):
        found.append(by_name(WHAT_IT_SAYS))
    return found


_ACTIVITY_RE = re.compile(r"^\W*(?:resume\s+point\s*:\s*)?(?:[A-Za-z]+ing|next|then|now)\b", re.I)
_EXISTENCE_WORDS = frozenset("""exists exist existed lives live sits sit is are was were be been tracked present there here
    still also only now gone missing untracked clean empty new""".split())
_NOT_VERBS = frozenset("""needed unrelated detached related based bed red seed speed feed need indeed hundred kindred
    shared named called tagged dated""".split())


@lru_cache(maxsize=4096)
def says_more(text: str) -> bool:
    """A verb the registry does not model: "`x` still forces `y`", "`S` from Ada pointed the names at …",
    "`b` is still unmerged". Activities ("reviewing `x`") and bare namings ("docs in `README.md:1`") say no more."""
    if _ACTIVITY_RE.match(text):
        return False
    plain = re.sub(r'`[^`]*`|\([^)]*\)|"[^"]*"', " X ", text)
    words = re.findall(r"[A-Za-z][A-Za-z'-]*", plain)
    for i, word in enumerate(words):
        lower = word.lower()
        before = words[i - 1].lower() if i else ""
        if lower in _EXISTENCE_WORDS or lower in _NOT_VERBS:
            continue
        if re.fullmatch(r"un[a-z]{3,}ed", lower):
            return True  # "is still unmerged", "unreleased"
        if re.fullmatch(r"[a-z]{3,}s", lower) and before in ("still", "longer", "never"):
            return True  # "still forces", "still tells", "no longer keeps": what the code does now, said of its names
    return False


def asserted(text: str, addresses=()) -> tuple[Predicate, ...]:
    """Every predicate of the registry the sentence asserts."""
    paths = frozenset(a.value for a in addresses if a.kind == "path") | frozenset(str(a) for a in addresses if a.kind == "path")
    return _cues(text.replace("``", "`"), paths)  # reStructuredText's literals


@lru_cache(maxsize=4096)
def _cues(text: str, paths: frozenset) -> tuple[Predicate, ...]:
    return tuple(p for p in PREDICATES if any(_counts(p, m, paths) for m in p.cue.finditer(text)))


def _counts(predicate: Predicate, match: "re.Match[str]", paths: frozenset) -> bool:
    if predicate.subject != "path" or "subj" not in match.re.groupindex or match.group("subj") is None:
        return True
    return match.group("subj") in paths


def by_name(name: str) -> Predicate:
    return next(p for p in PREDICATES if p.name == name)
