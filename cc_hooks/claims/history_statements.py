"""What a sentence says a repository's history did: who authored a commit, which came first,
whether a file changed since a point, which release is latest, whether a commit was reverted,
and what a file or line says.

``history_statements(text, addresses)`` returns ``Assertion``s of the kinds

authored       "`S` was authored by Ada Lovelace"                        sha, detail=the name
before         "`A` came before `B`" ("after", "precedes", "follows")    sha=A, target=B (negated: after)
changed_since  "`p` hasn't changed since `S`" / "was modified after `S`"  target=p, detail=S (negated: not changed)
latest_tag     "the latest release is `v2`", "`v2` is the newest tag"    target=v2
reverted       "`S` was (not) reverted"                                   sha=S
reverts        "`S` reverted `R`", "the revert `S`"                       sha=S, target=R or None
mentions       "`p` requires Python 3.9", "`n` is defined at `p:N`"       target=p, line=N, detail=the words
               ("the options are listed in `p`": no words but a kind of thing; the file's existence decides)
never_existed  "`p` never existed"                                        target=p
exists_at      "`origin/b` has `p` too", "`p` exists on `b`"                 target=p, detail=b (negated: has no `p`)
code_added     "`n` landed in `S`", "`S` introduced `n`"                 sha=S, detail=n
code_removed   "`n` went away in `S`", "`S` dropped `n`"                  sha=S, detail=n
code_renamed   "`a` was renamed to `b` in `S`", "`S` replaced `a` with `b`"  sha=S, target=a, detail=b
code_released  "`n` was first released in `v2`"                          target=v2, detail=n, sha="first" or None
code_at_head   "`n` is still gone", "no file under `d/` uses `n`"         detail=n, target=d or None (negated: gone)
               (code names only: what a commit did to a file is ``created`` / ``renamed`` / ``touched``)

Each is checked by ``verify_history``; ``sentence.PREDICATES`` names the same predicates, so
a sentence that asserts one in a form not read here stays UNVERIFIED instead of VERIFIED.
"""

from __future__ import annotations

import re

from cc_hooks.claims.address import PATH, SHA, Address
from cc_hooks.claims.model import Assertion
from cc_hooks.claims.words import STOP_WORDS

_S = r"`([0-9a-fA-F]{4,40})`"
_MONTHS = "january february march april may june july august september october november december".split()
_POINT = (r"(?:`([^`]+)`|(?:the\s+)?v?(\d+(?:\.\d+)+)(?:\s+release)?|(\d{4}-\d{2}-\d{2})|"
          rf"((?:(?:{'|'.join(_MONTHS)})\s+)?(?:19|20)\d\d)(?![\d-]))")
_NAME = r"([A-Z][\w.'-]*(?:\s+(?:[A-Z][\w.'-]*|de|van|von|der|la))*)"

_AUTHORED_RES = (
    re.compile(rf"{_S}\s+(?:was|is)\s+(?:authored|written|committed)\s+by\s+{_NAME}"),
    re.compile(rf"\b(?:the\s+)?author\s+of\s+{_S}\s+(?:is|was)\s+{_NAME}", re.I),
    re.compile(rf"{_NAME}\s+(?:authored|wrote)\s+{_S}"),
    # "`S` is Jay George's": a possessive of a person's name
    re.compile(rf"{_S}\s+(?:\([^)]*\)\s+)?(?:is|was)\s+{_NAME}'s\b"),
    re.compile(rf"\b(?:is|was)\s+{_NAME}'s\s+{_S}"),  # "… support is Sindre's `c488be0`"
    # "#1758 was authored by X", "The #1812 overload was authored by X": the pull request's commit
    re.compile(rf"(#\d{{1,6}})\b(?:\s+[\w-]+){{0,3}}?\s+(?:was|is)\s+(?:authored|written)\s+by\s+{_NAME}"),
)
_ORDER_RES = (
    (re.compile(rf"{_S}\s+(?:came|comes|was\s+committed|landed|is|was)\s+(before|after|earlier\s+than|later\s+than)\s+{_S}", re.I), None),
    (re.compile(rf"{_S}\s+(precedes|preceded|predates|predated|follows|followed|postdates|postdated)\s+{_S}", re.I), None),
    (re.compile(rf"{_S}\s+is\s+(older|newer)\s+than\s+{_S}", re.I), None),
)
_AFTER_WORDS = ("after", "later than", "follows", "followed", "newer", "postdate")
_ON_BRANCH = r"(?:\s+on\s+`?(?:main|master|trunk|HEAD)`?)?"
_IT_UNCHANGED_RE = re.compile(rf"(?P<path>)\b(?:it|which|that\s+file)\s+(?:has|had)\s*(?:n[o']t|not|never)\s+(?:been\s+)?(?:changed|touched|modified|edited|updated)"
                              rf"{_ON_BRANCH}\s+since\s+(?:the\s+)?{_POINT}", re.I)
_UNCHANGED_RE = re.compile(
    rf"`(?P<path>[^`]+)`\s+(?:has|have|had)\s*(?:n[o']t|not|never)\s+(?:been\s+)?(?:changed|touched|modified|edited|updated){_ON_BRANCH}\s+since\s+"
    rf"(?:it\s+was\s+(?:created|added|introduced)\s+in\s+|the\s+)?{_POINT}|"
    rf"`(?P<path2>[^`]+)`\s+(?:is|has\s+been|was)\s+(?:unchanged|untouched)\s+since\s+(?:the\s+)?{_POINT}",
    re.I,
)
_SINCE_THEN_RE = re.compile(r"`(?P<path>[^`]+)`[^.;]*?\b(?:has|have)\s*(?:n[o']t|not|never)\s+(?:been\s+)?"
                            r"(?:changed|touched|modified|edited|updated)\s+(?P<since>since)(?:\s+then)?\s*(?:[.;]|$)", re.I)
_CHANGED_RE = re.compile(
    rf"`(?P<path>[^`]+)`\s+(?:was|has\s+been|got)\s+(?:changed|touched|modified|edited|updated)\s+(?:again\s+)?(?:since|after)\s+(?:the\s+)?{_POINT}", re.I
)
_LATEST_RES = (
    re.compile(r"\b(?:latest|newest|most\s+recent)\s+(?:release(?:\s+tag)?|tag|version)(?:\s+(?:reachable\s+from|on|in)\s+`(?P<on>[^`]+)`)?\s+(?:is|was)\s+`(?P<tag>[^`]+)`", re.I),
    re.compile(r"`(?P<tag>[^`]+)`\s+is\s+(?:the\s+)?(?:latest|newest|most\s+recent)\s+(?:release|tag|version)\b(?:\s+(?:reachable\s+from|on|in)\s+`(?P<on>[^`]+)`)?", re.I),
)
# "`S` was first released in `v2`", "shipped in `v2`", "`v2` contains `S`": (sha, tag, first)
_RELEASE_RES = (
    re.compile(rf"{_S}\s+(?:\([^)]*\)\s+)?(?:was\s+|is\s+)?(?P<first>first\s+)?(?:released|shipped|published|tagged)\s+(?:first\s+)?(?:in|as|with)\s+`(?P<tag>[^`]+)`", re.I),
    re.compile(rf"{_S}[^.;]*?\b(?P<first>first\s+)?(?:released|shipped)\s+(?:first\s+)?in\s+`(?P<tag>[^`]+)`", re.I),
    re.compile(rf"{_S}\s+is\s+(?P<first>)in\s+(?:the\s+)?`(?P<tag>[^`]+)`\s+(?:tag|release)\b", re.I),
    # "`S` is in `parent-3.17.0`", "`S` went out in `v2.1` as well": a version-shaped tag is a release
    re.compile(rf"{_S}[^.;`]*?\b(?:is|was|are|were|went\s+out|went|made\s+it|got)\s+(?P<first>)(?:already\s+|also\s+)?(?:in|into|part\s+of)\s+"
               rf"(?:the\s+)?`(?P<tag>[\w.+-]*\d+\.\d+[\w.+-]*)`", re.I),
)
# "the key work from #727 first shipped in `0.4.30`": a pull request, by the number its merge or squash names
_PR_RELEASE_RE = re.compile(r"(?:\bPR\s*|\bpull\s+request\s+|\()?#(?P<pr>\d{1,6})\b\)?[^.;`]*?(?:`[^`]*`[^.;`]*?)?\b(?P<first>first\s+)?"
                            r"(?:released|shipped|published)\s+(?:first\s+)?in\s+`(?P<tag>[^`]+)`", re.I)
# "`v2` was tagged on `main`", "`v2` is on `main`", "cherry-picked to `B` as `S`", "`S` never reached `B`"
_TAG_ON_RE = re.compile(r"`(?P<tag>[^`]+)`\s+(?:was\s+tagged|is|was)\s+(?P<neg>not\s+)?on\s+`(?P<branch>[^`]+)`", re.I)
_COPIED_AS_RE = re.compile(rf"\b(?:cherry-?picked|backported|copied)\s+(?:on)?to\s+`(?P<branch>[^`]+)`\s+as\s+{_S}", re.I)
_REACHED_RE = re.compile(rf"{_S}\s+(?P<neg>never\s+reached|did\s*n[o']t\s+reach|reached|made\s+it\s+(?:in)?to)\s+`(?P<branch>[^`]+)`", re.I)
_CREATED_RES = (
    re.compile(rf"{_S}\s+(?:created|introduced|added)\s+`(?P<path>[^`]+)`", re.I),
    re.compile(rf"`(?P<path>[^`]+)`\s+(?:was|were)\s+(?:first\s+)?(?:created|introduced|added)\s+(?:in|by)\s+{_S}", re.I),
)
_RENAMED_RE = re.compile(rf"`(?P<old>[^`]+)`\s+(?:was|were)\s+(?:renamed|moved)\s+(?:to|into|as)\s+`(?P<new>[^`]+)`\s+(?:in|by)\s+{_S}|"
                         rf"{_S}\s+(?:renamed|moved)\s+`(?P<old2>[^`]+)`\s+(?:to|into|as)\s+`(?P<new2>[^`]+)`", re.I)
_LAST_CHANGED_RE = re.compile(rf"`(?P<path>[^`]+)`\s+(?:was|is)\s+last\s+(?:modified|changed|touched|edited|updated)\s+(?:in|by)\s+{_S}", re.I)
_REVERTED_RE = re.compile(rf"{_S}\s+(?:was|were|has\s+been|got)\s+(not\s+|never\s+)?reverted\b|{_S}\s+(?:was|has)\s+(?:not|never)\s+been\s+reverted", re.I)
_REVERTS_RES = (
    re.compile(rf"{_S}\s+(?:reverted|reverts)\b(?:\s+(?:commit\s+)?{_S})?", re.I),
    re.compile(rf"\b(?:the\s+)?revert\s+{_S}", re.I),
    re.compile(rf"\breverted\s+(?:in|by|with)\s+(?:commit\s+)?{_S}", re.I),
)

# "`p` requires Python 3.9", "`p:N` starts the Windows section": the object is what follows the verb
_CONTENT_VERBS = (r"says|targets|holds|carries|runs|requires|defines|declares|exposes|exports|calls|uses|sets|pins|lists|"
                  r"mentions|contains|configures|enables|imports|registers|documents|describes|handles|starts|opens|keeps|"
                  r"tells|forces|includes|references|"
                  r"has\s+carried|has\s+held|has|have")
_CONTENT_RE = re.compile(rf"`(?P<path>[^`\s]+)`(?:\s+on\s+`[^`\s]+`)?\s+(?:now\s+|still\s+|also\s+|already\s+)?(?P<verb>{_CONTENT_VERBS})\s+(?P<object>[^;]+)", re.I)
_DEFINED_AT_RE = re.compile(
    r"`(?P<name>[^`]+)`\s+(?P<how>is\s+(?:defined|declared|written)\s+|starts\s+|begins\s+|lives\s+|sits\s+|is\s+)?(?:at|on)\s+(?:line\s+\d+\s+of\s+)?`(?P<path>[^`\s]+:\d+)`"
)
_ANCESTOR_RE = re.compile(r"(?:\bbranch\s+)?`(?P<subject>[^`]+)`\s+(?:is|was)\s+(?P<neg>not\s+|n't\s+|never\s+)?(?:an\s+)?ancestor\s+of\s+"
                          r"(?:`(?P<target>[^`]+)`|(?P<head>HEAD)\b)", re.I)
# Words that name a kind of thing, not what it says: "the Windows section", "the plugin API tests".
_KIND_WORDS = frozenset("""section sections test tests case cases notes note paragraph part block entry entries function functions
    method methods class classes module helper helpers list value setting settings option options too yet here there
    target targets job jobs step steps rule rules task tasks key keys field fields constant constants type types""".split())
_GIT_STATE_WORDS = frozenset("staged unstaged uncommitted committed pushed unpushed modified changes change edits diff".split())
_CONFIGURED_IN_RE = re.compile(
    r"(?P<object>[\w`.'/ -]{3,60}?)\s+(?:is|are)\s+(?:still\s+|also\s+|now\s+)?(?:enabled|configured|defined|declared|set|registered|pinned|documented|listed|"
    r"referenced|used|called|imported|mentioned)\s+(?:in|from|by)\s+`(?P<path>[^`\s]+)`", re.I
)
# "`f` is declared as `fun f(x: Int)` in `p`": the declaration is what the file says
_DECLARED_AS_RE = re.compile(r"\b(?:is|are)\s+(?:declared|defined|written)\s+as\s+`(?P<object>[^`]+)`\s+(?:in|at)\s+`(?P<path>[^`\s]+)`", re.I)
_OBJECT_END_RE = re.compile(r"\s(?:on|in|at|for|from|with|to|by|when|since|because|so|which|that|while|until|across|via|after|before|even|though|although|unless)\s|[,.;:(]\s|[,.;:]$|\s[—–]\s", re.I)
_STOP = STOP_WORDS | frozenset("file files line lines code later earlier newer older every".split())


_COUNT = r"(?P<n>\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_NUMBERS = "zero one two three four five six seven eight nine ten eleven twelve".split()
_REF = r"`?(?P<{}>[\w./-]+)`?"
# "`b` has 14 commits that are not on `m`" / "that `m` lacks"; "`a` is three commits ahead of (our) `b`" / "behind"
_COUNT_RES = (
    (re.compile(rf"`(?P<a>[^`]+)`\s+has\s+{_COUNT}\s+commits?\s+(?:that\s+(?:are|is)\s+not\s+(?:on|in)\s+{_REF.format('b')}|"
                rf"that\s+{_REF.format('b2')}\s+(?:lacks|does\s*n[o']t\s+have)|not\s+(?:on|in)\s+{_REF.format('b3')})", re.I), "ahead"),
    (re.compile(rf"`(?P<a>[^`]+)`[^.;]*?\b{_COUNT}\s+commits?\s+(?P<way>ahead\s+of|behind)\s+(?:our\s+|the\s+|local\s+)?{_REF.format('b')}", re.I), "way"),
)


# "`b` forks from `S`" (from the mainline), "where `b` forks from `m`" with the sentence's commit: the merge base
_FORK_RE = re.compile(r"`(?P<branch>[^`\s]+)`\s+(?:forks|forked|branches|branched)\s+(?:off\s+)?(?:from|at)\s+`(?P<base>[^`\s]+)`", re.I)


def fork_statements(text: str) -> list[Assertion]:
    """``fork_point``: target = the branch, detail = the branch it forks from (None: the mainline), sha = the fork commit."""
    found = []
    for match in _FORK_RE.finditer(text):
        branch, base = match.group("branch"), match.group("base")
        if re.fullmatch(r"[0-9a-fA-F]{7,40}", base):
            found.append(Assertion("fork_point", target=branch, sha=base.lower()))
            continue
        sha = re.search(r"`([0-9a-fA-F]{7,40})`", text)
        if sha:
            found.append(Assertion("fork_point", target=branch, detail=base, sha=sha.group(1).lower()))
    return found


def count_statements(text: str) -> list[Assertion]:
    """How many commits one ref has that another lacks: ``target``..``detail`` is counted (sha holds N)."""
    found = []
    for pattern, kind in _COUNT_RES:
        for match in pattern.finditer(text):
            n = match.group("n").lower()
            number = int(n) if n.isdigit() else _NUMBERS.index(n)
            a = match.group("a")
            b = next(match.group(g) for g in ("b", "b2", "b3") if g in match.re.groupindex and match.group(g))
            behind = kind == "way" and match.group("way").lower().startswith("behind")
            base, tip = (a, b) if behind else (b, a)
            found.append(Assertion("commit_count", target=base, detail=tip, line=number))
    return found


def history_statements(text: str, addresses: list[Address]) -> list[Assertion]:
    text = text.replace("``", "`")  # reStructuredText's literals
    found: list[Assertion] = count_statements(text) + fork_statements(text)
    for pattern in _AUTHORED_RES:
        for match in pattern.finditer(text):
            groups = match.groups()
            sha_first = re.fullmatch(r"[0-9a-fA-F]{4,40}|#\d+", groups[0]) is not None
            sha, name = groups if sha_first else (groups[1], groups[0])
            found.append(Assertion("authored", sha=sha.lower(), detail=_trim_name(name)))
    for pattern, _ in _ORDER_RES:
        for match in pattern.finditer(text):
            a, word, b = match.group(1), match.group(2).lower(), match.group(3)
            after = any(word.startswith(w) for w in _AFTER_WORDS)
            found.append(Assertion("before", negated=after, sha=a.lower(), target=b.lower()))
    for match in _UNCHANGED_RE.finditer(text):
        path = match.group("path") or match.group("path2")
        found.append(Assertion("changed_since", negated=True, target=path, detail=_point(match)))
    for match in _CHANGED_RE.finditer(text):
        found.append(Assertion("changed_since", target=match.group("path"), detail=_point(match)))
    for match in _IT_UNCHANGED_RE.finditer(text):  # "`p` is the file; it hasn't been touched since `S`": the path before
        before = [a for a in addresses if a.kind == PATH and f"`{a}`" in text[: match.start()]]
        if before and not any(a.what == "changed_since" for a in found):
            last = max(before, key=lambda a: text.rfind(f"`{a}`", 0, match.start()))
            found.append(Assertion("changed_since", negated=True, target=last.value, detail=_point(match)))
    since_then = _SINCE_THEN_RE.search(text)
    sha = re.search(r"`([0-9a-fA-F]{7,40})`", text[: since_then.start("since")]) if since_then else None
    if sha and not any(a.what == "changed_since" for a in found):  # "created in `S` and has not changed since"
        found.append(Assertion("changed_since", negated=True, target=since_then.group("path"), detail=sha.group(1).lower()))
    for pattern in _LATEST_RES:
        for match in pattern.finditer(text):
            found.append(Assertion("latest_tag", target=match.group("tag"), detail=match.group("on")))
    for pattern in _RELEASE_RES:
        for match in pattern.finditer(text):
            sha = match.group(1).lower()
            if not any(a.what == "in_release" and a.sha == sha for a in found):
                found.append(Assertion("in_release", sha=sha, target=match.group("tag"), detail="first" if match.group("first") else None))
    for match in _PR_RELEASE_RE.finditer(text):
        sha = f"#{match.group('pr')}"
        if not any(a.what == "in_release" for a in found):
            found.append(Assertion("in_release", sha=sha, target=match.group("tag"), detail="first" if match.group("first") else None))
    for match in _TAG_ON_RE.finditer(text):
        if not re.fullmatch(r"[0-9a-fA-F]{4,40}", match.group("tag")):
            found.append(Assertion("reached", negated=bool(match.group("neg")), target=match.group("branch"), detail=match.group("tag")))
    for match in _COPIED_AS_RE.finditer(text):
        found.append(Assertion("reached", target=match.group("branch"), sha=match.group(1).lower()))
    for match in _REACHED_RE.finditer(text):
        negated = not match.group("neg").lower().startswith(("reached", "made"))
        found.append(Assertion("reached", negated=negated, target=match.group("branch"), sha=match.group(1).lower()))
    for match in _REVERTED_RE.finditer(text):
        sha = (match.group(1) or match.group(3)).lower()
        negated = bool(match.group(2)) or match.group(3) is not None
        found.append(Assertion("reverted", negated=negated, sha=sha))
    for pattern in _REVERTS_RES:
        for match in pattern.finditer(text):
            target = match.group(2).lower() if match.lastindex and match.lastindex >= 2 and match.group(2) else None
            if not any(a.what == "reverts" and a.sha == match.group(1).lower() for a in found):
                found.append(Assertion("reverts", sha=match.group(1).lower(), target=target))
    paths = {a.value for a in addresses if a.kind == PATH} | {str(a) for a in addresses if a.kind == PATH}
    for pattern in _CREATED_RES:  # of files only: what a commit did to a code name is the attribution's
        for match in pattern.finditer(text):
            sha = (match.group(1) if pattern is _CREATED_RES[0] else match.group(2)).lower()
            if match.group("path") in paths:
                found.append(Assertion("created", target=match.group("path"), sha=sha))
    for match in _RENAMED_RE.finditer(text):
        old, new = match.group("old") or match.group("old2"), match.group("new") or match.group("new2")
        sha = (match.group(3) or match.group(4)).lower()
        if old in paths and new in paths:
            found.append(Assertion("renamed", target=old, detail=new, sha=sha))
    for match in _LAST_CHANGED_RE.finditer(text):
        found.append(Assertion("last_changed", target=match.group("path"), sha=match.group(2).lower()))
    found.extend(mentions(text, addresses))
    found.extend(code_statements(text, addresses))
    found.extend(paths_on_refs(text, addresses))
    for match in _NEVER_RE.finditer(text):
        if match.group("path") in {a.value for a in addresses if a.kind in (PATH, "name")}:
            found.append(Assertion("never_existed", target=match.group("path")))
    return found


_NEVER_RE = re.compile(r"`(?P<path>[^`]+)`\s+(?:has\s+)?never\s+(?:existed|been\s+(?:committed|tracked|added))", re.I)
_ON_REF_RES = (
    re.compile(r"`(?P<ref>[^`]+)`\s+(?:still\s+|also\s+)?(?P<neg>does\s*n[o']t\s+have|does\s+not\s+have|lacks|has\s+no|has|contains|includes|carries|tracks)\s+`(?P<path>[^`]+)`", re.I),
    re.compile(r"`(?P<path>[^`]+)`\s+(?:still\s+|also\s+)?(?P<neg>is\s+not|isn't|does\s*n[o']t\s+exist|exists|is\s+tracked|is\s+present|lives|is)\s+(?:on|in)\s+(?:branch\s+)?`(?P<ref>[^`]+)`", re.I),
)


_BACK_RE = re.compile(r"`(?P<path>[^`]+)`[^.;]*?\b(?:is|are)\s+back\b(?:\s+(?:at|on|in)\s+(?:`(?P<ref>[^`]+)`|HEAD\b))?", re.I)


def paths_on_refs(text: str, addresses: list[Address]) -> list[Assertion]:
    """A file said to be (or not be) on a branch or tag the sentence names, other than HEAD's;
    "`p` ... is back (at HEAD)": at HEAD."""
    paths = {a.value for a in addresses if a.kind in (PATH, "name")}
    refs = {a.value for a in addresses if a.kind in ("branch", "name")}
    found = []
    for match in _BACK_RE.finditer(text):
        if match.group("path") in paths:
            found.append(Assertion("exists_at", target=match.group("path").rstrip("/"), detail=match.group("ref") or "HEAD"))
    for pattern in _ON_REF_RES:
        for match in pattern.finditer(text):
            path, ref = match.group("path"), match.group("ref")
            if path in paths and ref in refs and path != ref and not re.fullmatch(r"[0-9a-fA-F]{4,40}", ref) and \
                    re.search(r"[./]", path) and not re.match(r"(?:HEAD|the\s+work)", ref):
                negated = re.match(r"(?:does|lacks|has\s+no|is\s+not|isn't)", match.group("neg"), re.I) is not None
                found.append(Assertion("exists_at", negated=negated, target=path.rstrip("/"), detail=ref))
    return found


_N = r"`(?P<name>[^`]+)`"
_CODE_ADDED_RES = (
    re.compile(rf"{_N}(?:\s+[\w-]+){{0,2}}?\s+(?:landed|(?:was|were)\s+(?:first\s+)?(?:introduced|added)|came\s+in|first\s+appeared|appeared)\s+(?:in|by|with)\s+{_S}", re.I),
    re.compile(rf"{_S}\s+(?:added|introduced)\s+(?:the\s+)?{_N}", re.I),
)
_CODE_REMOVED_RES = (
    re.compile(rf"{_N}(?:\s+[\w-]+){{0,2}}?\s+(?:went\s+away|disappeared|(?:was|were)\s+(?:removed|dropped|deleted))\s+(?:in|by|with)\s+{_S}", re.I),
    re.compile(rf"{_S}\s+(?:removed|dropped|deleted)\s+(?:the\s+)?{_N}", re.I),
)
_CODE_RENAMED_RES = (
    re.compile(rf"`(?P<old>[^`]+)`(?:\s+[\w-]+){{0,2}}?\s+(?:was|were)\s+(?:renamed|replaced)\s+(?:to|with|by)\s+`(?P<new>[^`]+)`\s+(?:in|by)\s+{_S}", re.I),
    re.compile(rf"{_S}\s+(?:also\s+)?(?:renamed|replaced)\s+`(?P<old>[^`]+)`\s+(?:to|with|by)\s+`(?P<new>[^`]+)`", re.I),
)
# "`StructTypeAdapter` shipped in `v2`", "the `increment_severity()` methods were first released in 0.4.28": the
# name is the subject (a "`Rack::Directory` XSS fix" is not the name's own release)
_CODE_RELEASED_RE = re.compile(r"^(?:the\s+)?`(?P<name>[^`]+)`(?:\s+(?:class|classes|method|methods|function|functions|type|types|module|"
                               r"constant|constants|trait|struct|macro|macros|option|options|flag|flags|API|APIs|impls?))?\s+(?:was\s+|were\s+)?"
                               r"(?P<first>first\s+)?(?:released|shipped|published)\s+(?:first\s+)?in\s+(?:`(?P<tag>[^`]+)`|(?P<version>v?\d+(?:\.\d+)+)\b)", re.I)
_STILL_GONE_RE = re.compile(rf"{_N}[^.;]*?\b(?:is|are)\s+(?:still\s+)?gone\b|{_N.replace('name', 'name2')}\s+(?:no\s+longer\s+exists?|does\s*n[o']t\s+exist\s+any\s*more)", re.I)
_STILL_THERE_RE = re.compile(r"`(?P<name>[^`]+)`,?\s+(?:which\s+)?(?:still\s+)(?:exists?|lives?)\s+(?:under|in)\s+`(?P<scope>[^`]+)`", re.I)
_NONE_USES_RE = re.compile(r"\b(?:no|nothing|none)(?:\s+[\w-]+){0,2}?\s+(?:under|in|inside)\s+`(?P<scope>[^`]+)`\s+(?:still\s+)?"
                           r"(?:calls|uses|mentions|references|contains|has|imports|defines|requires)\s+`(?P<name>[^`]+)`", re.I)


# "No Go file at HEAD imports `io/ioutil` anymore", "nothing in the code calls `f`": the whole tree
_NO_FILE_USES_RE = re.compile(r"\b(?:no|nothing|none)(?:\s+[\w-]+){0,2}?\s+(?:files?|code|sources?|modules?|packages?|tests?)\s+"
                              r"(?:at\s+HEAD\s+|in\s+the\s+(?:tree|repo(?:sitory)?)\s+)?(?:still\s+)?"
                              r"(?:calls|uses|mentions|references|imports|requires)\s+`(?P<name>[^`]+)`", re.I)
_IMPORT_RE = re.compile(r"`\s+(?:uses|usages?|imports?|calls|references)\b", re.I)
_IMPORTS_RE = re.compile(r"\b(?:imports?|import\s+of|uses\s+of)\s+$", re.I)
_ALL_OF_RE = re.compile(r"\b(?:last|remaining|all|every)\s+(?:of\s+(?:the\s+)?)?(?:the\s+)?$", re.I)
_FILE_NAME_RE = re.compile(r"\.(?:gz|tgz|zip|tar|jar|war|rb|py|java|kt|rs|go|js|mjs|cjs|ts|tsx|jsx|c|h|cc|cpp|hpp|cs|swift|m|php|pl|sh|"
                           r"md|rst|txt|toml|json|ya?ml|xml|ini|cfg|lock|gemspec|gradle|properties|html|css|scss|sql|proto|mod|sum)$", re.I)


def code_statements(text: str, addresses: list[Address]) -> list[Assertion]:
    """What a commit did to a code name (not a path, sha or ref the sentence names), and whether HEAD has it."""
    named = {a.value for a in addresses if a.kind != "ref"} | {str(a) for a in addresses}
    code = lambda name: name not in named and not re.fullmatch(r"[0-9a-fA-F]{4,40}", name) and "/" not in name and \
        _FILE_NAME_RE.search(name) is None  # noqa: E731
    imported = lambda match: _IMPORT_RE.match(text, match.end("name")) is not None or \
        _IMPORTS_RE.search(text[: match.start("name") - 1]) is not None  # "`io/ioutil` uses", "imports `io/ioutil`"
    code_or_import = lambda match: code(match.group("name")) or (  # noqa: E731
        imported(match) and re.fullmatch(r"[\w.-]+(?:/[\w.-]+)+", match.group("name")) is not None and _FILE_NAME_RE.search(match.group("name")) is None)
    found = []
    for what, patterns in (("code_added", _CODE_ADDED_RES), ("code_removed", _CODE_REMOVED_RES)):
        for pattern in patterns:
            for match in pattern.finditer(text):
                sha = next(g for g in match.groups() if g and re.fullmatch(r"[0-9a-fA-F]{4,40}", g)).lower()
                if code_or_import(match):
                    last = _ALL_OF_RE.search(text[: match.start("name") - 1]) is not None  # "the last uses": none left after it
                    found.append(Assertion(what, sha=sha, detail=code_name(match.group("name")), target="last" if last else None))
    for pattern in _CODE_RENAMED_RES:
        for match in pattern.finditer(text):
            sha = next(g for g in match.groups() if g and re.fullmatch(r"[0-9a-fA-F]{4,40}", g)).lower()
            if code(match.group("old")) and code(match.group("new")):
                found.append(Assertion("code_renamed", sha=sha, target=code_name(match.group("old")), detail=code_name(match.group("new"))))
    for match in _CODE_RELEASED_RE.finditer(text):
        if code(match.group("name")):
            found.append(Assertion("code_released", target=match.group("tag") or match.group("version"),
                                   detail=code_name(match.group("name")), sha="first" if match.group("first") else None))
    for match in _STILL_GONE_RE.finditer(text):
        name = match.group("name") or match.group("name2")
        if code(name):
            found.append(Assertion("code_at_head", negated=True, detail=code_name(name)))
    for match in _STILL_THERE_RE.finditer(text):
        if code(match.group("name")):
            found.append(Assertion("code_at_head", target=match.group("scope"), detail=code_name(match.group("name"))))
    for match in _NONE_USES_RE.finditer(text):
        if code(match.group("name")):
            found.append(Assertion("code_at_head", negated=True, target=match.group("scope"), detail=code_name(match.group("name"))))
    for match in _NO_FILE_USES_RE.finditer(text):
        if code_or_import(match):
            found.append(Assertion("code_at_head", negated=True, detail=code_name(match.group("name"))))
    return found


def code_name(written: str) -> str:
    """The name as the sentence qualifies it, without a call's arguments: `open()` -> open,
    `Key::from_static_str(s)` -> Key::from_static_str (``verify_code.split_name`` reads the qualifier)."""
    return _bare(written)


def mentions(text: str, addresses: list[Address]) -> list[Assertion]:
    """What a file (or a line of it) is said to contain, in positive sentences only: an absence
    ("no longer says 2.4") is not proved by a word search, so it stays unmodeled."""
    paths = {str(a): a for a in addresses if a.kind == PATH}
    found = []
    for match in _DEFINED_AT_RE.finditer(text):
        address = paths.get(match.group("path"))
        if address is not None and address.line and match.group("name") not in paths:
            exact = bool(match.group("how")) and not match.group("how").lower().startswith(("is ", "sits", "lives")) or \
                bool(match.group("how") and re.match(r"is\s+(?:defined|declared|written)", match.group("how"), re.I))
            # "is defined at" / "starts at": that line; plain "at": that line or inside the block it opens above
            found.append(Assertion("mentions", negated=False, target=address.value, line=address.line,
                                   detail=f"`{_last_name(_bare(match.group('name')))}`", sha=None if exact else "within"))
    for match in _CONTENT_RE.finditer(text):
        address = paths.get(match.group("path"))
        if re.search(r"`[^`]+`\s+in\s+$", text[: match.start()]):
            continue  # "`f` in `p` still forces x": said of f, which a search of the whole file does not check
        if address is None or _negative(text[match.start():match.end("verb")]) or _not_content(match.group("object")) or \
                denied_before(text[: match.start()]):
            continue
        words = object_terms(match.group("object"), addresses)
        rest = re.split(r"[;.]\s|\s[—–]\s", match.group("object"), 1)[0]  # "pins `gix` at `0.85`": every name of the clause
        words += [t for t in (f"`{_bare(n)}`" for n in re.findall(r"`([^`]+)`", rest))
                  if t not in words and len(t) > 3 and not re.fullmatch(r"`[0-9a-fA-F]{4,40}`", t) and
                  t.strip("`") not in {a.value for a in addresses} | {str(a) for a in addresses}]  # not the shas, refs, paths
        found.append(Assertion("mentions", target=address.value, line=address.line, detail=" ".join(words)))
    for match in _ANCESTOR_RE.finditer(text):
        subject, target, negated = match.group("subject"), match.group("target") or "HEAD", bool(match.group("neg"))
        if re.fullmatch(r"[0-9a-fA-F]{4,40}", subject):
            found.append(Assertion("reachable", negated=negated, target=target))
        else:
            found.append(Assertion("merged", negated=negated, target=target))
    for match in _CONFIGURED_IN_RE.finditer(text):
        address = paths.get(match.group("path"))
        if address is None or _negative(match.group(0)):
            continue
        words = object_terms(match.group("object"), addresses, whole=True)
        if any(w.startswith("`") for w in words):  # "the `Style/HashSyntax` cop is enabled in": the name, not its kind
            words = [w for w in words if w.startswith("`")]
        found.append(Assertion("mentions", target=address.value, line=address.line, detail=" ".join(words)))
    for match in _DECLARED_AS_RE.finditer(text):
        address = paths.get(match.group("path"))
        if address is not None and not _negative(match.group(0)):
            found.append(Assertion("mentions", target=address.value, line=address.line, detail=f"`{match.group('object')}`"))
    return found


def object_terms(text: str, addresses: list[Address], whole: bool = False) -> list[str]:
    """The terms a file must contain for the object of a content sentence: backticked names as
    written, and the other words of the noun phrase (up to its first preposition or clause end)."""
    if not whole:
        end = _OBJECT_END_RE.search(" " + text)
        text = text[: max(0, end.start() - 1)] if end else text
    names = re.findall(r"`([^`]+)`", text)
    plain = re.sub(r"`[^`]*`", " ", text)
    words = [w for w in re.findall(r"[A-Za-z0-9_][\w.+-]*[A-Za-z0-9_]|\d", plain) if w.lower() not in _STOP and (len(w) > 2 or w.isdigit())]
    shas = {a.value for a in addresses if a.kind == SHA}
    words = [w for part in words for w in part.split("-") if w and w.lower() not in _KIND_WORDS and (len(w) > 2 or w.isdigit())]
    terms = [f"`{_bare(n)}`" for n in names if n.lower() not in shas and len(n) >= 2]
    return list(dict.fromkeys(terms + words))[:8]


def _bare(name: str) -> str:
    """`open()` -> open, `retryAfter(bucket, now)` -> retryAfter: the name as code writes it."""
    return re.sub(r"\(.*\)$", "", name).strip() or name


def _last_name(name: str) -> str:
    """`Rack::Request#headers` -> headers, `Foo.bar` -> bar: the name as its definition writes it."""
    return re.split(r"::|#|\.(?=[A-Za-z_])", name)[-1] or name


def _not_content(obj: str) -> bool:
    """The object is a commit ("carries `0c4c0fc`"), an absence ("has no nesting test"), or the
    work tree's state ("has uncommitted changes"): other statements say those."""
    if re.match(r"\s*(?:no|nothing|none|not|never|been|n't)\b", obj, re.I) or re.match(r"\s*`?[0-9a-fA-F]{7,40}`?(?:\W|$)", obj):
        return True
    return any(w.lower() in _GIT_STATE_WORDS for w in re.findall(r"[\w-]+", obj.split(",")[0]))


def _negative(span: str) -> bool:
    return re.search(r"\b(?:no\s+longer|not|n't|never|no)\b", span, re.I) is not None


# "No file under `lib/` calls `x`", "nothing in `src/` uses `y`": the quantifier denies the verb
_NONE_UNDER_RE = re.compile(r"\b(?:no|none\s+of\s+the|nothing)(?:\s+[\w-]+){0,2}?\s+(?:under|in|inside|within|of)\s+$", re.I)


def denied_before(prefix: str) -> bool:
    """The text before a path denies what follows it: "No file under `lib/` ..."."""
    return _NONE_UNDER_RE.search(prefix) is not None


def _point(match: "re.Match[str]") -> str:
    """The commit, tag or date the sentence measures from; a month or a year as "2024-06" / "2024"."""
    groups = [g for g in match.groups()[1:] if g]
    point = groups[-1] if groups else ""
    month = re.fullmatch(r"([a-z]+)\s+(\d{4})", point, re.I)
    return f"{month.group(2)}-{_MONTHS.index(month.group(1).lower()) + 1:02d}" if month else point


def _trim_name(name: str) -> str:
    return re.sub(r"[.,;:]+$", "", name.strip())
