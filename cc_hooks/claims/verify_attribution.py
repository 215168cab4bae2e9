"""Attribution claims: "the X fix landed in `S`", "`S` fixed X".

A real commit is not evidence for the sentence: the commit must be about what
the sentence says it did. The sentence's topic (its significant words, without
addresses and words such as "landed" or "fix") is compared with the commit's
message and changed paths, one process for all commits; the code names the
sentence mentions (`delete_where()`, snake_case, camelCase) are looked for in
the commit's diff too, one more process for the commits still in doubt.

- most topic words (and every code name) are there: VERIFIED;
- none is, and the commit's diff does not touch a code name the sentence names,
  or another commit of HEAD's recent history clearly is that work:
  CONTRADICTED, naming it when there is one;
- anything between: UNVERIFIED, saying what the commit is about.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache

from cc_hooks.claims.context import CommitText, VerifyContext
from cc_hooks.claims.model import CONTRADICTED, QUEUE, UNVERIFIED, VERIFIED, Claim
from cc_hooks.claims.verify_code import lines_with, split_name
from cc_hooks.claims.words import clearly_matches, identifiers, significant_words, unhyphen

NAME = "attribution"
_BOOKKEEPING = re.compile(r"^\s*(?:release|bump|version|v?\d+(?:\.\d+)+\b|changelog|merge\b)", re.I)


_KINDS = ("about", "touched")
_CODE_KINDS = ("code_added", "code_removed", "code_renamed")  # what the commit did to a name: verify_code reads its diff


def applies(claim: Claim) -> bool:
    return claim.kind != QUEUE and not claim.intent and any(a.what in _KINDS for a in claim.assertions)


def object_names(ctx: VerifyContext, claims: list[Claim]) -> list[str]:
    return sorted({a.sha for c in claims for a in c.assertions if a.what in _KINDS and a.sha})


def _judge_touched(claim: Claim, assertion, text: CommitText) -> None:
    """``touched``: the commit changed the path (and, with "only", nothing else)."""
    path = (assertion.target or "").rstrip("/")
    changed = [p for p in text.paths if p == path or p.startswith(path + "/")]
    label = f'{assertion.sha} "{_subject(text)}"'
    shown = ", ".join(text.paths[:4]) + (", …" if len(text.paths) > 4 else "")
    if not changed:
        claim.add(f"{assertion.sha} changes {path}", CONTRADICTED, f"{label} did not change {path} (it changed {shown or 'nothing'})", NAME)
    elif assertion.negated and len(changed) != len(text.paths):
        claim.add(f"{assertion.sha} changes {path}", CONTRADICTED, f"{label} changed more than {path}: {shown}", NAME)
    else:
        claim.add(f"{assertion.sha} changes {path}", VERIFIED, f"{label} changed {path}", NAME)


def verify(ctx: VerifyContext, claims: list[Claim]) -> None:
    claims = [c for c in claims if applies(c)]
    full = ctx.commits(object_names(ctx, claims))
    texts = ctx.commit_texts(full.values())
    pending = []
    for claim in claims:
        for assertion in (a for a in claim.assertions if a.what == "touched"):
            sha = full.get(assertion.sha or "")
            if sha is not None and sha in texts:
                _judge_touched(claim, assertion, texts[sha])
        for assertion in (a for a in claim.assertions if a.what == "about"):
            sha = full.get(assertion.sha or "")
            if sha is None or sha not in texts:
                continue  # the git verifier reports the missing commit
            names, versions = _code_names(ctx, claim, assertion.sha or ""), _versions(claim, assertion.sha or "")
            verdict = _about(assertion.target or "", names, _merged_work(ctx, texts[sha]), paths=_paths(claim), versions=versions)
            pending.append((claim, assertion, sha, verdict, names, versions))
    doubtful = {sha for _, _, sha, verdict, _, _ in pending if verdict != VERIFIED}
    diffs = ctx.commit_texts(doubtful, diff=True) if doubtful else {}
    history = None
    for claim, assertion, sha, verdict, names, versions in pending:
        text = texts[sha]
        if verdict != VERIFIED and sha in diffs:
            verdict = _about(assertion.target or "", names, diffs[sha], with_diff=True, paths=_paths(claim), versions=versions)
        label = f'{(assertion.sha or "")} "{_subject(text)}"'
        if verdict == VERIFIED:
            claim.add(f"work of {assertion.sha}", VERIFIED, f"{label} is about {_shown(assertion.target)}", NAME)
            continue
        if history is None:
            history = ctx.history().rows
        other = _better(assertion.target or "", history, sha, names, versions)
        if other is not None and other[0] in _merged(ctx, text):
            claim.add(f"work of {assertion.sha}", VERIFIED, f'{label} merged {other[0][:7]} "{other[1]}", which is about {_shown(assertion.target)}', NAME)
        elif other is not None:
            claim.add(f"work of {assertion.sha}", CONTRADICTED, f'{label} is not about {_shown(assertion.target)}; {other[0][:7]} "{other[1]}" is', NAME)
        elif verdict == CONTRADICTED and not _inside(ctx, sha, names, text.paths):
            claim.add(f"work of {assertion.sha}", CONTRADICTED, f"{label} does not touch {', '.join(names)}", NAME)
        elif not any(a.what in _CODE_KINDS and a.sha == assertion.sha for a in claim.assertions):  # else its diff decides
            claim.add(f"work of {assertion.sha}", UNVERIFIED, f"{label}: its message and changes do not clearly say {_shown(assertion.target)}", NAME)


_MERGE_RE = re.compile(r"Merge (?:pull request|branch|remote-tracking branch)\b")


def _merged(ctx: VerifyContext, text: CommitText) -> dict[str, str]:
    """A merge commit's merged commits (full sha -> subject, at most 50), read once; {} for any other commit."""
    return ctx.merged(text.sha) if _MERGE_RE.match(text.message) else {}


def _merged_work(ctx: VerifyContext, text: CommitText) -> CommitText:
    """What a merge commit brought in, as a commit text (the merged subjects): the work is there."""
    merged = _merged(ctx, text)
    if not merged:
        return text
    return CommitText(text.sha, "\n".join(merged.values()) + "\n\n" + text.message, text.paths, text.diff, text.truncated)


def _inside(ctx: VerifyContext, sha: str, names: list[str], paths: list[str]) -> bool:
    """A name the diff does not show is in a file the commit changed (the module around its lines)."""
    if not names or not paths:
        return False
    args = ["--literal-pathspecs", "grep", "-l", "-w", "-F", "-I"] + [x for n in names for x in ("-e", n)]
    return bool(ctx.git(*args, sha, "--", *paths[:50], check=False).strip())


def _code_names(ctx: VerifyContext, claim: Claim, sha: str = "") -> list[str]:
    """The code names of the sentence (of the clause naming ``sha``) that are not its branches, tags or paths."""
    named = {a.value for a in claim.addresses} | {a.value.rsplit("/", 1)[-1] for a in claim.addresses}
    for text in _readings(claim, sha):
        qualified = {split_name(q)[1]: q for q in re.findall(r"`([A-Za-z_][\w]*(?:\.|::|#)[A-Za-z_][\w]*)(?:\(\))?`", text) if split_name(q)[0]}
        found = [qualified.get(n, n) for n in identifiers(text) if n not in named and ctx.resolve_ref(n) is None]
        if found:
            return found
    return []


def _readings(claim: Claim, sha: str) -> list[str]:
    """The clause naming ``sha``, then the whole sentence, without its addresses: what the sentence says of
    that commit is read from its own clause when the clause says it (a sentence may name several commits)."""
    from cc_hooks.claims.statements import clause_of

    texts = []
    for text in ([clause_of(claim.text, sha)] if sha else []) + [claim.text]:
        for address in claim.addresses:
            text = text.replace(f"`{address}`", " ").replace(f"`{address.value}`", " ")
        texts.append(text)
    return texts


def _paths(claim: Claim) -> list[str]:
    from cc_hooks.claims.address import PATH

    return [a.value for a in claim.addresses_of(PATH)]


def _about(topic: str, names: list[str], commit: CommitText, with_diff: bool = False, paths: list[str] = (),
           versions: list[str] = ()) -> str:
    """VERIFIED when the commit is about ``topic``; CONTRADICTED when it clearly is not (a code name the
    sentence gives is nowhere in its complete diff); UNVERIFIED otherwise."""
    wanted = topic.split()
    message_words = set(significant_words(unhyphen(commit.message)))
    present = message_words | _path_words(commit.paths)
    haystack = (commit.message + "\n" + "\n".join(commit.paths) + ("\n" + commit.diff if with_diff else "")).lower()
    names_found = [n for n in names if _found(n, commit, haystack, with_diff)]
    if with_diff:
        present |= set(significant_words(" ".join(re.findall(r"[A-Za-z_][\w]{2,}", commit.diff[:200_000]))))
    hits = sum(1 for word in wanted if word in present)
    said = sum(1 for word in wanted if word in message_words)  # the message, not only the paths, must say it
    if _bookkeeping(commit) and not any(word in _RELEASE_WORDS for word in wanted):
        return UNVERIFIED  # a release or merge lists work; it is not where the work was done
    if any(not _says_version(commit.message, v) for v in versions):
        return UNVERIFIED  # "bumped to 1.23": the message must say which version; a diff has many numbers
    if paths and any(p.rstrip("/") in commit.paths or any(c.startswith(p.rstrip("/") + "/") for c in commit.paths) for p in paths):
        if not names or len(names_found) == len(names):
            return VERIFIED  # it changed the file the sentence names
    if names and len(names_found) == len(names) and (not wanted or said >= max(1, math.ceil(len(wanted) * 0.5))):
        return VERIFIED  # the names are in its changes, and its message says most of what the sentence says
    if not names and wanted and said >= max(1, math.ceil(len(wanted) * 0.5)):
        return VERIFIED  # its message says most of it: the words of a diff are where the work was, not what it was
    if with_diff and names and not names_found and not commit.truncated:
        return CONTRADICTED
    return UNVERIFIED


def _found(name: str, commit: CommitText, haystack: str, with_diff: bool) -> bool:
    """The name is in the commit's text; a qualified one (`JsonTreeReader.nextInt`) otherwise only on a
    diff line whose file, hunk or line names its qualifier (``verify_code``'s rule)."""
    if name.lower() in haystack:
        return True
    return with_diff and bool(split_name(name)[0]) and bool(lines_with(commit, "+", name) or lines_with(commit, "-", name))


_VERSION_RE = re.compile(r"(?<![\w.])v?\d+\.\d+(?:\.\d+)*(?![\w.]*\d)")


def _versions(claim: Claim, sha: str = "") -> list[str]:
    """The version numbers the sentence gives for the work ("bumped the minimum to 1.23"), not its tags:
    those of the clause that names the commit."""
    for text in _readings(claim, sha):
        found = [v.lstrip("v") for v in _VERSION_RE.findall(text)]
        if found:
            return found
    return []


def _says_version(message: str, version: str) -> bool:
    return _version_said(version).search(message) is not None


@lru_cache(maxsize=256)
def _version_said(version: str) -> "re.Pattern[str]":
    return re.compile(r"(?<![\w.])v?" + re.escape(version) + r"(?![\w]|\.\d)")


_RELEASE_WORDS = frozenset(significant_words("release released version bump changelog merge merged tag"))


def _bookkeeping(commit: CommitText) -> bool:
    from cc_hooks.claims.history import _BOOKKEEPING_RE

    return _BOOKKEEPING_RE.match(commit.message) is not None


def _path_words(paths: list[str]) -> set[str]:
    return set(significant_words(" ".join(re.split(r"[/._-]", " ".join(paths)))))


def _better(topic: str, history, named: str, names: list[str] = (), versions: list[str] = ()):
    """The newest commit whose subject clearly does the work ``topic`` describes: most of its words,
    or half of them and every code name it gives."""
    wanted = topic.split()
    if len(wanted) < 2:
        return None
    for row in history:  # (sha, date, source, subject, body, words, subject words), newest first
        sha, subject, words = row[0], row[3], row[6]
        if sha == named or _BOOKKEEPING.match(subject) or any(not _says_version(subject, v) for v in versions):
            continue
        with_names = names and all(n.lower() in subject.lower() for n in names)
        present = set(words) | {part for w in words if "-" in w for part in significant_words(unhyphen(w))}  # as the topic is
        if clearly_matches(wanted, present, ratio=0.5 if with_names else 0.75):
            return sha, subject
    return None


def _subject(text: CommitText) -> str:
    return text.message.splitlines()[0] if text.message else ""


def _shown(topic) -> str:
    return f"'{topic}'"
