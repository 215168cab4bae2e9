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

Each is checked by ``verify_history``; ``sentence.PREDICATES`` names the same predicates, so
a sentence that asserts one in a form not read here stays UNVERIFIED instead of VERIFIED.
"""

from __future__ import annotations

import re

from cc_hooks.claims.address import PATH, SHA, Address
from cc_hooks.claims.model import Assertion
from cc_hooks.claims.words import STOP_WORDS

_S = r"`([0-9a-fA-F]{4,40})`"
_POINT = r"(?:`([^`]+)`|(?:the\s+)?v?(\d+(?:\.\d+)+)(?:\s+release)?|(\d{4}-\d{2}-\d{2}))"
_NAME = r"([A-Z][\w.'-]*(?:\s+(?:[A-Z][\w.'-]*|de|van|von|der|la))*)"

_AUTHORED_RES = (
    re.compile(rf"{_S}\s+(?:was|is)\s+(?:authored|written|committed)\s+by\s+{_NAME}"),
    re.compile(rf"\b(?:the\s+)?author\s+of\s+{_S}\s+(?:is|was)\s+{_NAME}", re.I),
    re.compile(rf"{_NAME}\s+(?:authored|wrote)\s+{_S}"),
)
_ORDER_RES = (
    (re.compile(rf"{_S}\s+(?:came|comes|was\s+committed|landed|is|was)\s+(before|after|earlier\s+than|later\s+than)\s+{_S}", re.I), None),
    (re.compile(rf"{_S}\s+(precedes|preceded|follows|followed)\s+{_S}", re.I), None),
    (re.compile(rf"{_S}\s+is\s+(older|newer)\s+than\s+{_S}", re.I), None),
)
_AFTER_WORDS = ("after", "later than", "follows", "followed", "newer")
_UNCHANGED_RE = re.compile(
    rf"`(?P<path>[^`]+)`\s+(?:has|have|had)\s*(?:n[o']t|not|never)\s+(?:been\s+)?(?:changed|touched|modified|edited|updated)\s+since\s+"
    rf"(?:it\s+was\s+(?:created|added|introduced)\s+in\s+|the\s+)?{_POINT}|"
    rf"`(?P<path2>[^`]+)`\s+(?:is|has\s+been|was)\s+(?:unchanged|untouched)\s+since\s+(?:the\s+)?{_POINT}",
    re.I,
)
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
)
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
                  r"mentions|contains|configures|enables|imports|registers|documents|describes|handles|starts|opens|"
                  r"has\s+carried|has\s+held|has|have")
_CONTENT_RE = re.compile(rf"`(?P<path>[^`\s]+)`\s+(?:now\s+|still\s+|also\s+)?(?P<verb>{_CONTENT_VERBS})\s+(?P<object>[^;]+)", re.I)
_DEFINED_AT_RE = re.compile(
    r"`(?P<name>[^`]+)`\s+(?P<how>is\s+(?:defined|declared|written)\s+|starts\s+|begins\s+|lives\s+|sits\s+|is\s+)?(?:at|on)\s+(?:line\s+\d+\s+of\s+)?`(?P<path>[^`\s]+:\d+)`"
)
_ANCESTOR_RE = re.compile(r"(?:\bbranch\s+)?`(?P<subject>[^`]+)`\s+(?:is|was)\s+(?:an\s+)?ancestor\s+of\s+(?:`(?P<target>[^`]+)`|(?P<head>HEAD)\b)", re.I)
# Words that name a kind of thing, not what it says: "the Windows section", "the plugin API tests".
_KIND_WORDS = frozenset("""section sections test tests case cases notes note paragraph part block entry entries function functions
    method methods class classes module helper helpers list value setting settings option options too yet here there""".split())
_GIT_STATE_WORDS = frozenset("staged unstaged uncommitted committed pushed unpushed modified changes change edits diff".split())
_CONFIGURED_IN_RE = re.compile(
    r"(?P<object>[\w`.' -]{3,60}?)\s+(?:is|are)\s+(?:enabled|configured|defined|declared|set|registered|pinned|documented|listed)\s+in\s+`(?P<path>[^`\s]+)`", re.I
)
_OBJECT_END_RE = re.compile(r"\s(?:on|in|at|for|from|with|to|by|when|since|because|so|which|that|while|until|across|via|after|before)\s|[,.;:(]\s|[,.;:]$|\s[—–]\s", re.I)
_STOP = STOP_WORDS | frozenset("file files line lines code later earlier newer older every".split())


def history_statements(text: str, addresses: list[Address]) -> list[Assertion]:
    text = text.replace("``", "`")  # reStructuredText's literals
    found: list[Assertion] = []
    for pattern in _AUTHORED_RES:
        for match in pattern.finditer(text):
            groups = match.groups()
            sha, name = (groups[1], groups[0]) if pattern is _AUTHORED_RES[2] else groups
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
    for pattern in _LATEST_RES:
        for match in pattern.finditer(text):
            found.append(Assertion("latest_tag", target=match.group("tag"), detail=match.group("on")))
    for pattern in _RELEASE_RES:
        for match in pattern.finditer(text):
            sha = match.group(1).lower()
            if not any(a.what == "in_release" and a.sha == sha for a in found):
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
    return found


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
        if address is None or _negative(text[match.start():match.end("verb")]) or _not_content(match.group("object")):
            continue
        words = object_terms(match.group("object"), addresses)
        found.append(Assertion("mentions", target=address.value, line=address.line, detail=" ".join(words)))
    for match in _ANCESTOR_RE.finditer(text):
        subject, target = match.group("subject"), match.group("target") or "HEAD"
        if re.fullmatch(r"[0-9a-fA-F]{4,40}", subject):
            found.append(Assertion("reachable", target=target))
        else:
            found.append(Assertion("merged", target=target))
    for match in _CONFIGURED_IN_RE.finditer(text):
        address = paths.get(match.group("path"))
        if address is None or _negative(match.group(0)):
            continue
        words = object_terms(match.group("object"), addresses, whole=True)
        found.append(Assertion("mentions", target=address.value, line=address.line, detail=" ".join(words)))
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


def _point(match: "re.Match[str]") -> str:
    groups = [g for g in match.groups()[1:] if g]
    return groups[-1] if groups else ""


def _trim_name(name: str) -> str:
    return re.sub(r"[.,;:]+$", "", name.strip())
