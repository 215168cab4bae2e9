"""Queue claims: is a pending item really pending, is a DONE item really done?

One ``git log`` lists the newest ``MAX_COMMITS`` commits of HEAD and of the
default branch (local or remote ``main``/``master``), whatever the items' dates:
an item is often queued after its work already landed. A commit *does* an item
when

- it references the item explicitly (its ``#123`` / ``KEY-123`` / SHA in the
  subject or body): the commit that changed code wins over a release, changelog
  or merge commit that only lists the number;
- its subject (with the first lines of its body) has most of the item's
  significant words, version numbers included, and at least two of them: 60%
  for a commit dated on or after the item, 75% (near-identical) for an older one.

A pending item with such a commit is CONTRADICTED ("landed in <sha> <subject>");
a DONE item needs one to be VERIFIED. A DONE item that names its commit is done
by that commit only when the commit is about the item; if another commit
clearly is, the item is CONTRADICTED naming it.
"""

from __future__ import annotations

import math
import re
from typing import Optional

from cc_hooks.claims import address as addr
from cc_hooks.claims.context import VerifyContext
from cc_hooks.claims.history import _VERSION_RE, BODY_CHARS, Commit, History, item_words, root
from cc_hooks.claims.model import CONTRADICTED, QUEUE, UNVERIFIED, VERIFIED, Claim
from cc_hooks.claims.words import overlap, significant_words

NAME = "queue"
AFTER_RATIO = 0.6  # share of the item's words a commit dated on or after it must have
BEFORE_RATIO = 0.75  # ... and one dated before it (the item repeats work already done)
NAMED_RATIO = 0.5  # share enough when the subject has every code name the item gives
NEAR_RATIO = 0.6  # a pending item this close to a commit, older or not, is not called pending
_KIND_GROUPS = [
    frozenset(significant_words(words))
    for words in ("test tests testing", "documentation docs doc document documented", "changelog changelogs changes news", "benchmark benchmarks",
                  "typing types typed stubs", "example examples")
]
_KIND_WORDS = frozenset().union(*_KIND_GROUPS)


def applies(claim: Claim) -> bool:
    return claim.kind == QUEUE


def verify(ctx: VerifyContext, claims: list[Claim]) -> None:
    claims = [c for c in claims if applies(c)]
    dated = [(c, _date_of(c)) for c in claims]
    for claim, date in dated:
        if date is None:
            claim.add("queue item", UNVERIFIED, "undated: no window of commits to search", NAME)
    if not any(date for _, date in dated):
        return
    commits = ctx.history()
    named = _named_commits(ctx, [c for c, d in dated if d and c.done])
    for claim, date in dated:
        if date is not None:
            _judge(ctx, claim, date, commits, named)


def _date_of(claim: Claim) -> Optional[str]:
    """The item's own date (the dashboard reader falls back to the state block's)."""
    if claim.date and re.fullmatch(r"\d{4}-\d{2}-\d{2}", claim.date):
        return claim.date
    return None


def _named_commits(ctx: VerifyContext, claims: list[Claim]) -> dict[str, Commit]:
    """The commits DONE items name, by the name used (one ``cat-file`` and one ``log``)."""
    names = sorted({sha for c in claims for sha in claim_refs(c, addr.SHA)})
    full = ctx.commits(names)
    if not full:
        return {}
    texts = ctx.commit_texts(full.values())
    found = {}
    for name, sha in full.items():
        text = texts.get(sha)
        if text is not None:
            subject, _, body = text.message.partition("\n")
            found[name] = Commit(sha, "", subject, body.strip(), item_words(text.message[: BODY_CHARS + len(subject)]), "", item_words(subject))
    return found


def _judge(ctx: VerifyContext, claim: Claim, date: str, commits: History, named: dict[str, Commit]) -> None:
    if _judge_release(ctx, claim) or _judge_dropped_dir(ctx, claim) or _judge_code_item(ctx, claim, commits):
        return
    if claim.done and claim_refs(claim, addr.SHA):
        _judge_named(ctx, claim, date, commits, named)
        return
    if not claim.done and _ASK_RE.match(_work_text(claim)):
        claim.add("queue item", UNVERIFIED, "a question or decision for people: no commit can show it", NAME)
        return
    match = find_landing(claim, commits, date)
    if match is not None:
        commit, how = match
        landed = f"{how} {_describe(ctx, commit)}"
        left = _still_there(ctx, claim, commit) if claim.done else ""
        if left:
            claim.add("queue item", UNVERIFIED, f"{landed} names it, but {left} after that commit: whether it is done is not checked", NAME)
        elif claim.done:
            claim.add("queue item", VERIFIED, f"done: {landed}", NAME)
        else:
            claim.add("queue item", CONTRADICTED, f"landed: {landed}", NAME)
        return
    near = None if claim.done else _near(sorted(item_words(_work_text(claim))), commits)
    if near is not None:
        commit, hits, total = near
        claim.add("queue item", UNVERIFIED, f"possibly done already: {_describe(ctx, commit)} has {hits} of its {total} words", NAME)
        return
    if claim.done:
        claim.add("queue item", UNVERIFIED, f"no commit on HEAD references it or matches its words ({len(commits)} searched)", NAME)
    else:  # absence of a landing proves nothing (questions were answered before any landing was looked for)
        claim.add("queue item", UNVERIFIED, f"pending as far as git shows: no landing found among {len(commits)} commits", NAME)


_ADD_ITEM_RE = re.compile(r"^\W*(?:add|implement|introduce|expose|backport|port|provide)\b", re.I)
_ONTO_RE = re.compile(r"\b(?:to|into|onto|on)\s+(?:the\s+)?`(?P<ref>[^`]+)`(?:\s+branch)?", re.I)


def _judge_code_item(ctx: VerifyContext, claim: Claim, commits: History) -> bool:
    """A pending "Add `name`" / "Backport `name` to `b`" / "Drop `name`" is judged by the code it names, on
    the branch it names or HEAD: what is to be added and is nowhere there is pending; what is to be
    dropped and a commit of the history searched removed the last of is done (that commit is named)."""
    from cc_hooks.claims.verify_code import last_removal, find_code

    if claim.done:
        return False
    work = _work_text(claim)
    adding, dropping = _ADD_ITEM_RE.match(work) is not None, _REMOVAL_RE.match(work) is not None
    names = [n for n in _item_code_names(claim.text) if dropping or "/" not in n] if adding or dropping else []
    if not names:  # "Add `src/x`": a path, not code
        return False
    onto = _ONTO_RE.search(claim.text)
    ref = ctx.resolve_ref(onto.group("ref")) if onto and adding else None
    rev, place = (ref.refname, ref.short) if ref is not None else ("HEAD", "HEAD")
    found = [(name, *find_code(ctx, rev, name)) for name in names]
    if adding and all(not where and not loose for _, where, loose in found):
        shown = ", ".join(f"`{n}`" for n in names)
        claim.add("queue item", VERIFIED, f"pending: no code on {place} has {shown}", NAME)
        return True
    if dropping and all(not where and not loose for _, where, loose in found):
        oldest = commits.rows[-1][0] if commits.rows else None
        last = last_removal(ctx, names[0], oldest) if oldest else ""
        if not last:
            return False  # never in the code searched: the name may be wrong, and the words decide
        claim.add("queue item", CONTRADICTED, f"already done: no code at HEAD has `{names[0]}`; {last} removed the last of it", NAME)
        return True
    if dropping and all(where for _, where, _ in found):
        claim.add("queue item", VERIFIED, f"pending: `{found[0][0]}` is still at HEAD in {found[0][1]}", NAME)
        return True
    return False


def _item_code_names(text: str) -> list[str]:
    """The backticked code names of an item as written (`Context.Clone`, `io/ioutil` after an import verb)."""
    found = re.findall(r"`([A-Za-z_][\w.:#/]*[\w])(?:\([^`]*\))?`", text)
    return [n for n in found if n.lower() in code_names(f"`{n}`") or re.fullmatch(r"[a-z]+(?:/[a-z0-9]+)+", n) and "." not in n]


_ASK_RE = re.compile(r"^\W*(?:ask|discuss|decide|agree|check\s+with|confirm\s+with|talk\s+to|wait\s+for|propose|consider|not\s+sure|unsure|maybe|whether|"
                     r"find\s+out|figure\s+out\s+whether|get\s+(?:sign-off|approval))\b", re.I)


def _near(wanted: list[str], commits: History) -> Optional[tuple[Commit, int, int]]:
    """A work commit with most (but not enough) of a pending item's words: too close to call it pending."""
    best = None
    for commit in commits.sharing(wanted, 3):
        hits, share = _overlap(wanted, commit.words)
        if hits >= 3 and share >= NEAR_RATIO and not commit.bookkeeping and _same_kind(wanted, commit):
            if best is None or hits > best[1]:
                best = (commit, hits, len(wanted))
    return best


def _judge_named(ctx: VerifyContext, claim: Claim, date: str, commits: History, named: dict[str, Commit]) -> None:
    """A DONE item naming its commit: done by it when the commit is about the item."""
    wanted = sorted(item_words(_work_text(claim)))
    for sha in claim_refs(claim, addr.SHA):
        commit = named.get(sha)
        if commit is None:
            continue
        message = f"{commit.subject}\n{commit.body}".lower()
        names_agree = all(n in message for n in code_names(claim.text))  # `_encode_files` is not `prepare_body`
        if names_agree and (len(wanted) < 2 or _share(wanted, commit.words) >= 0.5):
            claim.add("queue item", VERIFIED, f"done: landed in {_describe(ctx, commit)}", NAME)
            return
        other = _by_words(wanted, commits, date, exclude=commit.sha, text=claim.text)
        if other is not None and _share(wanted, other.subject_words) >= BEFORE_RATIO:  # the author named a commit: only a clear one overrules it
            claim.add("queue item", CONTRADICTED, f'{sha} is "{commit.subject}", not this work; it landed in {_describe(ctx, other)}', NAME)
        else:
            claim.add("queue item", UNVERIFIED, f'{sha} is "{commit.subject}": it does not clearly do this work', NAME)
        return
    claim.add("queue item", UNVERIFIED, "the commit it names is not in this repository", NAME)


_RELEASE_ITEM_RE = re.compile(r"^\W*(?:cut\s+|tag\s+|publish\s+|ship\s+)?(?:the\s+)?release\s+`?(?P<version>[\w.-]*\d[\w.-]*?)`?(?=[\s,.;:]|$)", re.I)


def _judge_release(ctx: VerifyContext, claim: Claim) -> bool:
    """"Release 3.3.0": the release is its tag (`3.3.0`, `v3.3.0`, `gson-parent-3.3.0`), in a repository that tags
    its releases. A DONE item without the tag is not done; a pending one with it has landed."""
    match = _RELEASE_ITEM_RE.match(_work_text(claim))
    if match is None:
        return False
    version = match.group("version").lstrip("vV")
    tags = [ref for name, ref in ctx.refs().items() if name == ref.short and ref.refname.startswith("refs/tags/")]
    if not any(re.search(r"\d+\.\d+", t.short) for t in tags):
        return False  # no version tags: how this project marks a release is unknown
    found = [t for t in tags if re.fullmatch(rf"(?:[\w.]*?[-_])?v?{re.escape(version)}", t.short)]
    if found:
        tag = found[0]
        claim.add("queue item", VERIFIED if claim.done else CONTRADICTED,
                  f"{'done' if claim.done else 'landed'}: tag {tag.short} is at {tag.sha[:7]}", NAME)
    else:
        claim.add("queue item", CONTRADICTED if claim.done else VERIFIED, f"no tag {version} (nor v{version}, among {len(tags)} tags): not released", NAME)
    return True


_DROP_DIR_RE = re.compile(r"^\W*(?:drop|remove|delete|retire)\s+(?:the\s+)?`(?P<name>[^`\s]+)`(?:\s+(?:module|directory|dir|folder|file|package|crate|plugin|subproject|project|extension))?\s*[.!]?\s*$", re.I)


def _judge_dropped_dir(ctx: VerifyContext, claim: Claim) -> bool:
    """DONE "Drop the `extras` module", and `extras` is still tracked at HEAD: not done."""
    bare = re.sub(r"^\s*(?:DONE\b\s*)?(?:\d{4}-\d{2}-\d{2}\s*)?[—–:-]*\s*", "", claim.text, flags=re.IGNORECASE)
    match = _DROP_DIR_RE.match(bare) if claim.done else None
    if match is None:
        return False
    name = match.group("name").strip("/")
    obj = ctx.objects([f"HEAD:{name}"]).get(f"HEAD:{name}")
    if obj is None:
        return False
    claim.add("queue item", CONTRADICTED, f"{name} is still a tracked {'directory' if obj[1] == 'tree' else 'file'} at HEAD", NAME)
    return True


_REMOVAL_RE = re.compile(r"^\W*(?:drop|remove|delete|retire|get\s+rid\s+of)\b", re.I)


def _still_there(ctx: VerifyContext, claim: Claim, commit: Commit) -> str:
    """"Drop `Rack::Lock`", done by a commit after which the code still has it: where it still is."""
    from cc_hooks.claims.history_statements import code_name
    from cc_hooks.claims.verify_code import code_at

    if not _REMOVAL_RE.match(_work_text(claim)):
        return ""
    for name in re.findall(r"`([^`]+)`", claim.text):
        if name.lower() in code_names(f"`{name}`"):
            where = code_at(ctx, commit.sha, code_name(name))
            if where:
                return f"{where} still has `{code_name(name)}`"
    return ""


def find_landing(claim: Claim, commits: History, since: str = "") -> Optional[tuple[Commit, str]]:
    """The commit that references the item or clearly does its work (newest first; work before bookkeeping)."""
    patterns = [(ref, re.compile(rf"(?<![\w#-]){re.escape(ref)}(?![\w-])", re.IGNORECASE)) for ref in claim_refs(claim, addr.REF)]
    patterns += [(sha, re.compile(rf"\b{re.escape(sha)}")) for sha in claim_refs(claim, addr.SHA)]
    wanted = sorted(item_words(_work_text(claim)))
    referencing = []
    for ref in claim_refs(claim, addr.REF):
        referencing += [(c, ref) for c in commits.referencing(ref) if _same_kind(wanted, c)]
    for sha, pattern in patterns[len(claim_refs(claim, addr.REF)):]:
        for commit in commits.commits:  # a sha named by a pending item: rare, a plain scan
            if pattern.search(f"{commit.subject}\n{commit.body}") and not commit.sha.startswith(sha) and _same_kind(wanted, commit):
                referencing.append((commit, sha))
    position = {row[0]: i for i, row in enumerate(commits.rows)} if len(referencing) > 1 else {}
    referencing.sort(key=lambda pair: position.get(pair[0].sha, 0))
    work = [pair for pair in referencing if not pair[0].bookkeeping]
    if work:
        return work[0][0], f"{work[0][1]} referenced in"
    commit = _by_words(wanted, commits, since, text=claim.text)
    if commit is not None:
        return commit, "matched by"
    if referencing:
        return referencing[0][0], f"{referencing[0][1]} referenced in"
    return None


def code_names(text: str) -> list[str]:
    """Backticked code names of an item (`Request.hooks`, `SSL_CERT_FILE`, `parse()`), lowercased."""
    found = re.findall(r"`([A-Za-z_][\w.:#]*[\w])(?:\([^`]*\))?`", text)
    return [n.lower() for n in found if "_" in n or "." in n or ":" in n or "#" in n or any(c.isupper() for c in n[1:])]


def _names_present(names: list[str], commit: Commit) -> bool:
    """Every code name of the item is in the commit's message as itself (`RequestContext` is not
    `RequestContext.g`): an item about named code is done only by a commit that names it."""
    message = f"{commit.subject}\n{commit.body}".lower()
    return all(re.search(rf"(?<![\w.]){re.escape(n)}(?![\w]|\.\w)", message) for n in names)


def _versions_present(text: str, commit: Commit) -> bool:
    """"Drop Python 3.9" is done by a commit that says 3.9, not by any commit about Python."""
    mine = {m.group(1) for m in _VERSION_RE.finditer(text)}
    return not mine or bool(mine & {m.group(1) for m in _VERSION_RE.finditer(f"{commit.subject}\n{commit.body}")})


def _versions_differ(text: str, commit: Commit) -> bool:
    """"Drop Python 3.9" is not "drop support for Python 3.8": both name versions, and not the same ones."""
    mine = {m.group(1) for m in _VERSION_RE.finditer(text)}
    theirs = {m.group(1) for m in _VERSION_RE.finditer(commit.subject)}
    return bool(mine and theirs and not mine & theirs)


def _same_kind(wanted: list[str], commit: Commit) -> bool:
    """An item for tests (docs, benchmarks...) is not done by a commit that says nothing of them."""
    groups = [group for group in _KIND_GROUPS if group.intersection(wanted)]
    return all(group & commit.words for group in groups)


def _contrasted(claim_text: str, commit: Commit) -> bool:
    """The same phrase with one word swapped in place ("custom block rules" / "custom inline rules"): other work."""
    mine = significant_words(_VERSION_RE.sub(" ", claim_text))
    theirs = significant_words(_VERSION_RE.sub(" ", commit.subject))
    if len(mine) != len(theirs) or len(mine) < 3:
        return False
    swapped = [(a, b) for a, b in zip(mine, theirs) if a != b]
    return len(swapped) == 1 and not _same_root(*swapped[0])


def _same_root(a: str, b: str) -> bool:
    """"document" / "documentation": one word, two forms (what the crude stemmer leaves apart)."""
    short, long = sorted((a, b), key=len)
    return len(short) >= 4 and long.startswith(short)


def _by_words(wanted: list[str], commits: History, since: str, exclude: str = "", text: str = "") -> Optional[Commit]:
    """The commit that does the item by its words: most of them (the subject at least two), fewer when
    the subject has every code name the item gives (`SSL_CERT_FILE`)."""
    if len(wanted) < 2:
        return None
    names = code_names(text)
    found = []
    for commit in commits.sharing(wanted, 2):
        if commit.sha == exclude:
            continue
        hits, share = _overlap(wanted, commit.words)
        bar = AFTER_RATIO if commit.date >= since else BEFORE_RATIO
        if names and all(n in commit.subject.lower() for n in names):
            bar = min(bar, NAMED_RATIO)  # every code name of the item is in the subject
        in_subject = _overlap(wanted, commit.subject_words)[0]
        if (hits >= 2 and share >= bar and in_subject >= max(min(2, len(wanted)), math.ceil(len(wanted) / 2))
                and _same_kind(wanted, commit)
                and _names_present(names, commit) and _versions_present(text, commit)
                and not (text and (_contrasted(text, commit) or _versions_differ(text, commit)))):
            found.append((commit.bookkeeping, -share, commit))
    if not found:
        return None
    return min(found, key=lambda item: (item[0], item[1]))[2]


def _share(wanted: list[str], words) -> float:
    return _overlap(wanted, words)[1]


def _overlap(wanted: list[str], words) -> tuple[int, float]:
    """``words.overlap`` by word roots: "annotate" meets "annotation"."""
    roots = {root(w) for w in words}
    return overlap([root(w) for w in wanted], roots)


def _describe(ctx: VerifyContext, commit: Commit) -> str:
    where = ""
    if commit.source and commit.source != "HEAD":
        where = f", on {ctx_short(commit.source)}"
    date = f" ({commit.date}{where})" if commit.date else ""
    return f'{commit.sha[:7]} "{commit.subject}"{date}'


def ctx_short(refname: str) -> str:
    for prefix in ("refs/heads/", "refs/remotes/", "refs/tags/"):
        if refname.startswith(prefix):
            return refname[len(prefix):]
    return refname


def claim_refs(claim: Claim, kind: str) -> list[str]:
    return [a.value for a in claim.addresses_of(kind)]


def _work_text(claim: Claim) -> str:
    """The item without its date, DONE marker and references."""
    text = re.sub(r"^\s*(?:DONE\s+)?\d{4}-\d{2}-\d{2}\s*(?:[—–:-]+\s*)?", "", claim.text)
    text = re.sub(r"^\s*DONE\b\s*[—–:-]*\s*", "", text, flags=re.IGNORECASE)
    for address in claim.addresses:
        if address.kind in (addr.REF, addr.SHA, addr.PROBE):
            text = text.replace(address.value, " ")
    text = re.sub(r"[`()]+", " ", text)
    return re.sub(r",?\s*(?:landed|done|merged|fixed)\s+in[\s.]*$", "", text.strip().rstrip("."), flags=re.IGNORECASE)
