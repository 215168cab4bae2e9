"""Git claims: commits exist and are where the claim puts them; branches,
merges, the work tree and the upstream are as stated.

Batched: one ``cat-file --batch-check`` for every SHA, one ``log --no-walk``
for their subjects, one ``for-each-ref`` for every branch, one ``status`` when
a claim speaks of the work tree, and one ``rev-list`` per distinct target
commit for ancestry.
"""

from __future__ import annotations

import re
from typing import Optional

from cc_hooks.claims import address as addr
from cc_hooks.claims.context import Ref, VerifyContext
from cc_hooks.claims.model import CONTRADICTED, DEFAULT_BRANCH, DETACHED, QUEUE, UNVERIFIED, VERIFIED, Assertion, Claim

NAME = "git"


def applies(claim: Claim) -> bool:
    if claim.kind == QUEUE:
        return False
    return bool(claim.addresses_of(addr.SHA, addr.BRANCH) or claim.assertions or _ref_names(claim))


def _ref_names(claim: Claim) -> list[str]:
    return [a.value for a in claim.addresses_of(addr.NAME)]


def object_names(ctx: VerifyContext, claims: list[Claim]) -> list[str]:
    """The SHAs this verifier looks up (``verify_claims`` asks every verifier's at once)."""
    shas = {a.value for c in claims for a in c.addresses_of(addr.SHA)}
    shas |= {a.sha for c in claims for a in c.assertions if a.sha}
    return sorted(shas)


def verify(ctx: VerifyContext, claims: list[Claim]) -> None:
    claims = [c for c in claims if applies(c)]
    if not claims:
        return
    objects = ctx.objects(object_names(ctx, claims))
    commits = ctx.commits(objects)
    ctx.refs()
    ctx.status(untracked=any(a.what == "clean" for c in claims for a in c.assertions))
    plans = [_plan(ctx, claim, commits) for claim in claims]
    asks: dict[str, set[str]] = {}
    for plan in plans:
        for target, sha in plan.ancestry:
            asks.setdefault(target, set()).add(sha)
    outside = ctx.outside(asks)
    ctx.places({sha for shas in outside.values() for sha in shas})
    subjects = ctx.subjects(commits.values()) if commits else {}
    for claim, plan in zip(claims, plans):
        _judge(ctx, claim, plan, objects, commits, outside, subjects)


class _Plan:
    def __init__(self) -> None:
        self.ancestry: list[tuple[str, str]] = []  # (target rev, full sha)
        self.sha_target: Optional[tuple[str, str]] = None  # (rev, how to name it)
        self.strict = False  # the sentence puts the commits there (else their place is only reported)
        self.merge_targets: list[tuple[Assertion, Optional[Ref]]] = []
        self.subject_refs: list[Ref] = []
        self.merge_subjects: list[tuple[str, str]] = []  # (label, full sha) whose merge is claimed


def _plan(ctx: VerifyContext, claim: Claim, commits: dict[str, str]) -> _Plan:
    plan = _Plan()
    merges = [a for a in claim.assertions if a.what == "merged"]
    plan.merge_targets = [(a, _default_branch(ctx, a.detail) if a.target == DEFAULT_BRANCH else ctx.resolve_ref(a.target or "")) for a in merges]
    plan.subject_refs = _subject_branches(ctx, claim)
    shas = [commits[a.value] for a in claim.addresses_of(addr.SHA) if a.value in commits and not _is_tip_claim(claim, a.value)]
    if merges:
        plan.merge_subjects = [(sha[:7], sha) for sha in shas] or [(ref.short, ref.sha) for ref in plan.subject_refs]
        for _, ref in plan.merge_targets:
            if ref is not None:
                plan.ancestry.extend((ref.refname, sha) for _, sha in plan.merge_subjects)
    elif shas:
        plan.sha_target, plan.strict = _sha_target(ctx, claim, plan.subject_refs)
        plan.ancestry.extend((plan.sha_target[0], sha) for sha in shas)
        for ref in _not_on(ctx, claim):
            plan.ancestry.extend((ref.refname, sha) for sha in shas)
    for assertion in claim.assertions:
        if assertion.what == "branch_at" and assertion.sha in commits:
            ref = ctx.resolve_ref(assertion.target or "")
            if ref is not None:
                plan.ancestry.append((ref.refname, commits[assertion.sha]))
        elif assertion.what == "head_at" and assertion.sha in commits:
            plan.ancestry.append(("HEAD", commits[assertion.sha]))
    return plan


def _not_on(ctx: VerifyContext, claim: Claim) -> list[Ref]:
    """Refs the sentence says its commits are not on ("not pulled into `main` yet", "`main` lacks it",
    and the mainline for "only on `x`")."""
    found = []
    for assertion in (a for a in claim.assertions if a.what == "reachable" and a.negated):
        ref = _default_branch(ctx, assertion.detail) if assertion.target == DEFAULT_BRANCH else ctx.resolve_ref(assertion.target or "")
        if ref is not None and ref not in found:
            found.append(ref)
    return found


def _default_branch(ctx: VerifyContext, besides: Optional[str]) -> Optional[Ref]:
    """The mainline (main, master, their origin copies), unless it is the branch the sentence names."""
    named = ctx.resolve_ref(besides or "")
    for name in ("main", "master"):
        ref = ctx.resolve_ref(name)
        if ref is not None and (named is None or ref.sha != named.sha):
            return ref
    return None


def _subject_branches(ctx: VerifyContext, claim: Claim) -> list[Ref]:
    """Refs the claim is about (named branches that are not merge targets or places it is not on);
    a place the sentence puts its commits ("only on `origin/1.x`") comes first."""
    targets = {a.target for a in claim.assertions if a.what in ("merged", "reached") or (a.what == "reachable" and a.negated)}
    targets |= {a.target for a in claim.assertions if a.what == "same_tip"} | {a.sha for a in claim.assertions if a.what == "same_tip"}
    targets |= {a.target for a in claim.assertions if a.what in ("in_release", "code_released", "latest_tag")}  # the history verifier's
    placed = [ctx.resolve_ref(a.target or "") for a in claim.assertions if a.what == "reachable" and not a.negated]
    first = [r for r in placed if r is not None]
    refs = []
    for address in claim.addresses_of(addr.BRANCH, addr.NAME):
        if address.value in targets:
            continue
        ref = ctx.resolve_ref(address.value)
        if ref is not None and ref not in refs:
            refs.append(ref)
    return first + [r for r in refs if r not in first]


# "`b` went in as the squash `S`", "squashed into `S`", "cherry-picked as `S`": S is where the branch's work went, not on it
_COPY_RE = re.compile(r"\b(?:as|into|to)\s+(?:the\s+|a\s+)?(?:squash(?:ed)?(?:\s+commit)?|squash-merge|cherry-pick|backport|copy)\s+`SHA`|"
                      r"\bsquash(?:ed)?(?:[- ]merged)?\s+(?:as|into|to)\s+`SHA`|\b(?:cherry-?picked|backported|copied)\s+(?:\w+\s+){0,3}?as\s+`SHA`", re.I)


def _is_tip_claim(claim: Claim, sha: str) -> bool:
    return any(a.what in ("branch_at", "head_at") and a.sha == sha for a in claim.assertions)


def _sha_target(ctx: VerifyContext, claim: Claim, subject_refs: list[Ref]) -> tuple[tuple[str, str], bool]:
    """Where the sentence puts its commits ((rev, label), True), or HEAD to report against (False)."""
    pushed = any(a.what == "pushed" and not a.negated for a in claim.assertions)
    if subject_refs:
        ref = subject_refs[0]
        if pushed and ref.upstream:
            return (ref.upstream, _short(ref.upstream)), True
        return (ref.refname, f"branch {ref.short}"), True
    if pushed:
        upstream = ctx.status().upstream
        if upstream:
            return (f"refs/remotes/{upstream}", upstream), True
    reach = next((a.target for a in claim.assertions if a.what == "reachable" and not a.negated), None)
    if reach and reach != "HEAD":
        ref = ctx.resolve_ref(reach)
        if ref is not None:
            return (ref.refname, f"branch {ref.short}"), True
    return ("HEAD", "HEAD"), reach == "HEAD"


def _judge(ctx, claim, plan, objects, commits, outside, subjects) -> None:
    add = lambda subject, verdict, evidence: claim.add(subject, verdict, evidence, NAME)  # noqa: E731
    exists = lambda subject, verdict, evidence: claim.add_exists(subject, verdict, evidence, NAME)  # noqa: E731
    for address in claim.addresses_of(addr.SHA):
        sha = address.value
        if _is_tip_claim(claim, sha):
            continue
        obj = objects.get(sha)
        if obj is None and sha in ctx.ambiguous:
            add(f"commit {sha}", UNVERIFIED, f"{sha} is ambiguous: more than one object's name starts with it")
            continue
        if obj is None:
            add(f"commit {sha}", CONTRADICTED, f"no commit {sha} in this repository")  # never anywhere: decisive
            continue
        if obj[1] != "commit":
            add(f"commit {sha}", CONTRADICTED, f"{sha} is a {obj[1]}, not a commit")
            continue
        full = obj[0]
        title = _titled(sha, subjects.get(full))
        if plan.sha_target is not None and _COPY_RE.search(claim.text.replace(f"`{sha}`", "`SHA`")):
            exists(f"commit {sha}", VERIFIED, f"{title} exists; the sentence makes it a copy (a squash or a cherry-pick), not a commit of {plan.sha_target[1]}")
            continue
        if plan.sha_target is not None:
            rev, label = plan.sha_target
            where = _head_label(ctx) if rev == "HEAD" else label
            if full not in outside.get(rev, set()):
                (add if plan.strict else exists)(f"commit {sha}", VERIFIED, f"{title} is reachable from {where}")
            elif plan.strict:
                add(f"commit {sha}", CONTRADICTED, f"{title} exists but is not reachable from {where}{_found_on(ctx, full)}")
            else:
                _judge_elsewhere(ctx, sha, full, title, where, add)
        elif not plan.merge_targets:
            exists(f"commit {sha}", VERIFIED, f"{title} exists")
    for ref in _not_on(ctx, claim):
        for address in claim.addresses_of(addr.SHA):
            full = commits.get(address.value)
            if full is None or _is_tip_claim(claim, address.value):
                continue
            on = full not in outside.get(ref.refname, set())
            fact = f"{address.value} {'is' if on else 'is not'} on {ref.short}"
            add(f"commit {address.value} not on {ref.short}", CONTRADICTED if on else VERIFIED, fact)
    gone = {a.target for a in claim.assertions if a.what == "gone"}
    for ref_name in claim.addresses_of(addr.BRANCH):
        if any(a.what == "branch_at" and a.target == ref_name.value for a in claim.assertions):
            continue
        ref = ctx.resolve_ref(ref_name.value)
        if ref_name.value in gone:
            if ref is None:
                add(f"branch {ref_name.value}", VERIFIED, f"no branch, tag or remote branch named {ref_name.value} now")
            else:
                add(f"branch {ref_name.value}", CONTRADICTED, f"{_ref_exists(ref, ref_name.value)}: it is not gone")
            continue
        if ref is None and claim.merged_away(ref_name.value):
            add(f"branch {ref_name.value}", UNVERIFIED, f"no branch named {ref_name.value} now; a merged branch is often deleted")
        elif ref is None:
            add(f"branch {ref_name.value}", CONTRADICTED, f"no branch, tag or remote branch named {ref_name.value}")
        else:
            exists(f"branch {ref.short}", VERIFIED, _ref_exists(ref, ref_name.value))
    for name in claim.addresses_of(addr.NAME):
        ref = ctx.resolve_ref(name.value)
        if ref is not None and name.value in gone:
            add(f"branch {ref.short}", CONTRADICTED, f"{_ref_exists(ref, name.value)}: it is not gone")
        elif ref is not None:  # not a ref: the path verifier decides
            exists(f"branch {ref.short}", VERIFIED, _ref_exists(ref, name.value))
    for assertion in claim.assertions:
        _judge_assertion(ctx, claim, plan, assertion, commits, outside, subjects, add)


def _judge_assertion(ctx, claim, plan, assertion, commits, outside, subjects, add) -> None:
    what = assertion.what
    if what == "same_tip":
        _judge_same_tip(ctx, assertion, add)
    elif what == "head_at":
        _judge_head_at(ctx, assertion, commits, outside, add)
    elif what == "branch_at":
        _judge_branch_at(ctx, assertion, commits, outside, add)
    elif what == "merged":
        _judge_merged(ctx, claim, plan, assertion, commits, outside, add)
    elif what == "clean":
        status = ctx.status()
        dirty = _describe_dirty(status)
        if assertion.negated:
            add("work tree", VERIFIED if dirty else CONTRADICTED, f"git status: {dirty}" if dirty else "git status: the work tree is clean")
        else:
            add("work tree", CONTRADICTED if dirty else VERIFIED, f"git status: {dirty}" if dirty else "git status: the work tree is clean")
    elif what == "staged":
        staged = ctx.status().staged
        has = f"{len(staged)} staged path(s), e.g. {staged[0]}" if staged else "nothing is staged"
        ok = bool(staged) != assertion.negated
        add("index", VERIFIED if ok else CONTRADICTED, f"git status: {has}")
    elif what == "pushed":
        if any(a.kind == addr.SHA for a in claim.addresses) and not assertion.negated:
            return  # judged through the commits' reachability from the upstream
        _judge_pushed(ctx, plan, assertion, add)


def _judge_branch_at(ctx, assertion, commits, outside, add) -> None:
    name, sha = assertion.target or "", assertion.sha or ""
    ref = ctx.resolve_ref(name)
    if ref is None:
        add(f"branch {name}", CONTRADICTED, f"no branch, tag or remote branch named {name}")
        return
    full = commits.get(sha)
    if full is not None and ref.sha == full:
        add(f"branch {ref.short}", VERIFIED, f"{ref.short} is at {sha}" + (f" ({ref.kind})" if ref.short != name else ""))
        return
    now = f"{ref.short} is at {_titled(ref.sha[:7], ref.subject)}, not {sha}"
    if full is None:
        now += f" (no commit {sha} exists)"
    elif full not in outside.get(ref.refname, set()):
        now += f" ({sha} is an older commit on it: the branch moved on)"
    else:
        now += f" ({sha} is not on {ref.short})"
    add(f"branch {ref.short}", CONTRADICTED, now)


def _judge_head_at(ctx, assertion, commits, outside, add) -> None:
    sha, branch = assertion.sha or "", assertion.target
    status = ctx.status()
    full = commits.get(sha)
    if not sha:
        if status.branch is not None and _same_branch(ctx, status.branch, branch or ""):
            add("HEAD", VERIFIED, f"HEAD is on branch {status.branch}")
        else:
            add("HEAD", CONTRADICTED, f"HEAD is {'on branch ' + status.branch if status.branch else 'detached'}, not on {branch}")
        return
    if status.oid is None:
        add("HEAD", CONTRADICTED, "HEAD has no commits yet")
        return
    if full != status.oid:
        subject = ctx.subjects([status.oid]).get(status.oid)
        now = f"HEAD is at {_titled(status.oid[:7], subject)}, not {sha}"
        if full is None:
            now += f" (no commit {sha} exists)" if sha not in ctx.ambiguous else f" ({sha} is ambiguous)"
        elif full not in outside.get("HEAD", set()):
            now += f" ({sha} is an older commit of it: HEAD moved on)"
        else:
            now += f" ({sha} is not on HEAD)"
        add("HEAD", CONTRADICTED, now)
    elif branch == DETACHED and status.branch is not None:
        add("HEAD", CONTRADICTED, f"HEAD is at {sha} but not detached: it is on branch {status.branch}")
    elif branch == DETACHED:
        add("HEAD", VERIFIED, f"HEAD is detached at {sha}")
    elif branch and not _same_branch(ctx, status.branch, branch):
        add("HEAD", CONTRADICTED, f"HEAD is at {sha} but on {'branch ' + status.branch if status.branch else 'no branch (detached)'}, not {branch}")
    else:
        add("HEAD", VERIFIED, f"HEAD is at {sha}" + (f" on {status.branch}" if branch else ""))


def _judge_same_tip(ctx, assertion, add) -> None:
    """"`main` is up to date with `origin/main`": the two refs name the same commit."""
    a, b = ctx.resolve_ref(assertion.target or ""), ctx.resolve_ref(assertion.sha or "")
    if a is None or b is None:
        missing = assertion.target if a is None else assertion.sha
        add(f"{assertion.target} = {assertion.sha}", CONTRADICTED, f"no branch, tag or remote branch named {missing}")
    elif a.sha == b.sha:
        add(f"{a.short} = {b.short}", VERIFIED, f"{a.short} and {b.short} are both at {a.sha[:7]}")
    else:
        add(f"{a.short} = {b.short}", CONTRADICTED, f"{a.short} is at {_titled(a.sha[:7], a.subject)}, {b.short} at {_titled(b.sha[:7], b.subject)}")


def _same_branch(ctx, current: Optional[str], named: str) -> bool:
    if current is None:
        return False
    return current == named or named in (f"refs/heads/{current}",)


def _judge_elsewhere(ctx, sha, full, title, head, add) -> None:
    """A commit the sentence puts nowhere in particular, not on HEAD: say where it is."""
    place = ctx.places([full]).get(full)
    if place:
        add(f"commit {sha}", VERIFIED, f"{title} exists on {place} (not on {head})")
    else:
        add(f"commit {sha}", UNVERIFIED, f"{title} exists, but no branch or tag contains it (not on {head})")


def _found_on(ctx, full: str) -> str:
    place = ctx.places([full]).get(full)
    return f"; it is on {place}" if place else ""


def _ref_exists(ref: Ref, name: str) -> str:
    at = _titled(ref.sha[:7], ref.subject)
    if ref.kind == "remote-tracking branch" and ref.short != name:
        return f"{name} exists as remote-tracking branch {ref.short} (no local branch) at {at}"
    if ref.kind == "tag":
        return f"{name} exists as a tag at {at}"
    return f"{ref.short} exists at {at}"


def _judge_merged(ctx, claim, plan, assertion, commits, outside, add) -> None:
    target_ref = dict((id(a), r) for a, r in plan.merge_targets).get(id(assertion))
    target = assertion.target or ""
    if target_ref is None:
        add(f"merge into {target}", CONTRADICTED, f"no branch named {target}")
        return
    if not plan.merge_subjects:
        add(f"merge into {target}", UNVERIFIED, "the claim names no commit or branch that could be merged")
        return
    for label, full in plan.merge_subjects:
        merged = full not in outside.get(target_ref.refname, set())
        fact = f"{label} {'is' if merged else 'is not'} an ancestor of {target_ref.short}"
        add(f"{label} merged into {target_ref.short}", VERIFIED if merged != assertion.negated else CONTRADICTED, fact)


def _judge_pushed(ctx, plan, assertion, add) -> None:
    ref = plan.subject_refs[0] if plan.subject_refs else None
    if ref is None:
        status = ctx.status()
        if status.branch is None:
            add("push", UNVERIFIED, "HEAD is detached: no branch to compare with its upstream")
            return
        ref = ctx.resolve_ref(status.branch)
        if ref is None:
            add("push", UNVERIFIED, f"branch {status.branch} has no commits yet")
            return
    upstream = ref.upstream
    if not upstream:
        guess = next((r for r in ctx.refs().values() if r.refname.startswith("refs/remotes/") and r.refname.endswith("/" + ref.short)), None)
        if guess is None:
            fact = f"{ref.short} has no upstream and no remote-tracking branch"
            add(f"push of {ref.short}", CONTRADICTED if not assertion.negated else VERIFIED, fact)
            return
        upstream = guess.refname
        unpushed = guess.sha != ref.sha
        fact = f"{ref.short} is at {ref.sha[:7]}, {_short(upstream)} at {guess.sha[:7]} (as of the last fetch)"
    elif ref.track == "[gone]":
        unpushed, fact = True, f"the upstream of {ref.short} ({_short(upstream)}) is gone"
    else:
        unpushed = ref.ahead > 0
        fact = (
            f"{ref.short} is {ref.ahead} commit(s) ahead of {_short(upstream)} (as of the last fetch)"
            if unpushed
            else f"{ref.short} has no commits that {_short(upstream)} lacks (as of the last fetch)"
        )
    ok = unpushed == assertion.negated
    add(f"push of {ref.short}", VERIFIED if ok else CONTRADICTED, fact)


def _describe_dirty(status) -> str:
    parts = []
    for label, paths in (("staged", status.staged), ("modified", status.unstaged), ("untracked", status.untracked), ("conflicted", status.conflicted)):
        if paths:
            parts.append(f"{len(paths)} {label} (e.g. {paths[0]})")
    return ", ".join(parts)


def _head_label(ctx: VerifyContext) -> str:
    branch = ctx.status().branch
    return f"HEAD ({branch})" if branch else "HEAD (detached)"


def _titled(sha: str, subject: Optional[str]) -> str:
    return f'{sha} "{subject}"' if subject else sha


def _short(refname: str) -> str:
    return refname.replace("refs/remotes/", "").replace("refs/heads/", "")
