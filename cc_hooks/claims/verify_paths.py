"""Path claims: the file is at HEAD (so tracked), not ignored, and a cited
line is within the file.

Batched: one ``cat-file --batch-check`` for every ``HEAD:path``, one
``check-ignore`` for the found ones, one ``cat-file --batch`` for the blobs
whose line count matters. A backticked ``name`` that is neither a ref (the git
verifier accepts those) nor a path at HEAD contradicts its claim.

A path not at HEAD as written is looked up once more in the whole tree (one
``ls-tree``), because summaries name files by their base name ("updated
`session_live.ex`"): one path ending in it is the file; several verify that
it exists; none contradicts the claim, except for a bare name written
without backticks ("bumped highlight.js"), which may name no file at all.
"""

from __future__ import annotations

import os
import re

from cc_hooks.claims import address as addr
from cc_hooks.claims.context import VerifyContext
from cc_hooks.claims.model import CONTRADICTED, POSITION, QUEUE, UNVERIFIED, VERIFIED, Claim

NAME = "paths"


def applies(claim: Claim) -> bool:
    if claim.kind in (QUEUE, POSITION) or claim.intent:
        return False
    return bool(claim.addresses_of(addr.PATH, addr.NAME))


def object_names(ctx: VerifyContext, claims: list[Claim]) -> list[str]:
    """``HEAD:path`` of every address this verifier may look up (refs among them cost nothing)."""
    relatives = (_relative(ctx, a.value) for c in claims for a in c.addresses_of(addr.PATH, addr.NAME))
    return [f"HEAD:{rel}" for rel in relatives if rel]


def verify(ctx: VerifyContext, claims: list[Claim]) -> None:
    claims = [c for c in claims if applies(c)]
    if not claims:
        return
    wanted = {}
    refs_named: set[str] = set()
    for claim in claims:
        for address in claim.addresses_of(addr.PATH, addr.NAME):
            if address.kind == addr.NAME and ctx.resolve_ref(address.value) is not None:
                continue
            if address.kind == addr.PATH and address.line is None and "/" in address.value and ctx.resolve_ref(address.value) is not None:
                refs_named.add(address.value)  # `origin/3.x`: a ref shaped like a path
                continue
            relative = _relative(ctx, address.value)
            if relative is not None:
                wanted[address.value] = relative
    objects = ctx.objects(f"HEAD:{rel}" for rel in wanted.values() if rel)
    present = {value: objects.get(f"HEAD:{rel}") for value, rel in wanted.items()}
    gone = {a.target: a.sha for c in claims for a in c.assertions if a.what == "gone"}
    missing = {v: wanted[v] for v, obj in present.items() if obj is None and wanted[v] and v not in gone and not _in_work_tree(ctx, wanted[v])}
    elsewhere = _elsewhere(ctx, missing)
    for value, matches in elsewhere.items():
        if len(matches) == 1:  # the file, under its full path
            wanted[value], sha, kind = matches[0]
            present[value] = (sha, kind)
    on_branch = _on_branches(ctx, claims, wanted, present)
    ignored = _ignored(ctx, [wanted[v] for v, obj in present.items() if obj])
    lines_needed = {
        wanted[a.value] for c in claims for a in c.addresses_of(addr.PATH) if a.line and _is_blob(present.get(a.value))
    }
    line_counts = _line_counts(ctx, lines_needed)
    absent = [wanted[v] for v, obj in present.items() if obj is None and wanted[v] and v not in gone]
    removals = _removals(ctx, claims, wanted, present, also=absent)
    deleted = ctx.deletions(absent)  # read with the removals' log: which commit removed a path said to be there
    for claim in claims:
        gone_here = {a.target: a.sha for a in claim.assertions if a.what == "gone"}
        never = {a.target for a in claim.assertions if a.what == "never_existed"}
        for address in claim.addresses_of(addr.PATH, addr.NAME):
            if address.value not in wanted and address.kind == addr.NAME:
                continue  # a ref; judged by the git verifier
            if address.value in refs_named:
                ref = ctx.resolve_ref(address.value)
                claim.add(str(address), VERIFIED, f"{ref.short} exists ({ref.kind}) at {ref.sha[:7]}", NAME)
                continue
            if address.value in gone_here:
                _judge_gone(ctx, claim, address, wanted.get(address.value), present.get(address.value), gone_here[address.value], removals)
                continue
            if address.value in never:
                _judge_never(ctx, claim, address, wanted.get(address.value), present.get(address.value), deleted)
                continue
            place = on_branch.get((id(claim), address.value))
            if place is not None and present.get(address.value) is None:
                claim.add(str(address), VERIFIED, f"{wanted[address.value]} is not at HEAD; it is on {place}", NAME)
                continue
            found = elsewhere.get(address.value, [])
            _judge(ctx, claim, address, wanted.get(address.value), present.get(address.value), ignored, line_counts, found, deleted)


def _on_branches(ctx: VerifyContext, claims: list[Claim], wanted: dict, present: dict) -> dict:
    """(claim id, value) -> the branch the sentence names that has the path, for paths absent at HEAD
    in sentences that name a branch ("`x.md` on `origin/main`"): one ``cat-file`` for all."""
    asks = {}
    for claim in claims:
        refs = [r for r in (ctx.resolve_ref(a.value) for a in claim.addresses_of(addr.BRANCH, addr.NAME, addr.PATH)) if r is not None]
        if not refs:
            continue
        for address in claim.addresses_of(addr.PATH, addr.NAME):
            rel = wanted.get(address.value)
            if rel and present.get(address.value) is None and ctx.resolve_ref(address.value) is None:
                for ref in refs:
                    asks[(id(claim), address.value, ref.short)] = f"{ref.sha}:{rel}"
    if not asks:
        return {}
    found = ctx.objects(asks.values())
    result = {}
    for (claim_id, value, short), name in asks.items():
        if found.get(name) is not None:
            result.setdefault((claim_id, value), short)
    return result


def _removals(ctx: VerifyContext, claims: list[Claim], wanted: dict, present: dict, also=()) -> dict:
    """What history says of the paths claimed gone: ("commit", full sha) -> paths that commit
    removed, for the commits named; ("path", path) -> (sha, subject) of the commit that removed
    it, for the others. One process each, and only for paths absent at HEAD."""
    named, unnamed = {}, set()
    for claim in claims:
        for assertion in claim.assertions:
            rel = wanted.get(assertion.target or "")
            if assertion.what != "gone" or not rel or present.get(assertion.target) is not None and not _back(claim, rel):
                continue
            obj = ctx.objects([assertion.sha]).get(assertion.sha) if assertion.sha else None
            if obj and obj[1] == "commit":
                named[assertion.sha] = obj[0]
            elif not assertion.sha and not assertion.negated:
                unnamed.add(rel)
    result: dict = {}
    for sha, paths in ctx.removals(named.values()).items():
        result[("commit", sha)] = paths
    for path, found in ctx.deletions(unnamed | set(also)).items():
        result[("path", path)] = found
    return result


def _back(claim: Claim, relative: str) -> bool:
    """"`p` was removed in `S` and is back": HEAD having it does not disprove the removal."""
    return any(a.what == "exists_at" and a.detail == "HEAD" and a.target == relative.rstrip("/") for a in claim.assertions)


def _judge_gone(ctx, claim, address, relative, obj, sha, removals) -> None:
    """The sentence says ``address`` was removed (in commit ``sha``, when it names one)."""
    label = str(address)
    if relative is None or relative == "":
        return
    back = _back(claim, relative)
    if obj is not None and not back:
        claim.add(label, CONTRADICTED, f"{relative} still exists at HEAD", NAME)
        return
    if back and sha is None:
        return  # "was removed and is back": HEAD's side is the exists_at check's
    if sha is None and assertion_absent_only(claim, address.value):
        claim.add(label, VERIFIED, f"{relative} does not exist at HEAD", NAME)
        return
    if sha is None:
        found = removals.get(("path", relative))
        if found:
            claim.add(label, VERIFIED, f'{relative} is not at HEAD; it was removed in {found[0][:7]} "{found[1]}"', NAME)
        elif _in_work_tree(ctx, relative):
            claim.add(label, UNVERIFIED, f"{relative} is not at HEAD but is still in the work tree", NAME)
        else:
            claim.add(label, UNVERIFIED, f"{relative} is not at HEAD, and no recent commit on HEAD removed it (it may never have existed)", NAME)
        return
    named = ctx.objects([sha]).get(sha)
    if named is None or named[1] != "commit":
        return  # the git verifier says the commit does not exist
    removed = removals.get(("commit", named[0]), set())
    base = "/" not in relative.rstrip("/")  # "`OSGiTest.java` was replaced by ... in `S`": the file S removed by that name
    if any(path == relative or path.startswith(relative.rstrip("/") + "/") or base and path.endswith("/" + relative) for path in removed):
        claim.add(label, VERIFIED, f"{sha} removed {relative}" if back else f"{relative} is not at HEAD; {sha} removed it", NAME)
    else:
        other = ctx.deletions([relative]).get(relative.rstrip("/"))
        elsewhere = f'; it was removed in {other[0][:7]} "{other[1]}"' if other else ""
        claim.add(label, CONTRADICTED, f"{'' if back else relative + ' is not at HEAD, but '}{sha} did not remove {relative if back else 'it'}{elsewhere}", NAME)


def _says_uncommitted(claim: Claim) -> bool:
    """The sentence itself says its files are not committed ("dirty", "untracked", "uncommitted")."""
    return any(a.what == "clean" and a.negated for a in claim.assertions) or "untracked" in claim.text.lower()


def assertion_absent_only(claim: Claim, value: str) -> bool:
    """The sentence says the path does not exist ("there is no `x`"), not that it was removed."""
    return any(a.what == "gone" and a.target == value and a.negated for a in claim.assertions)


def _said_in(ctx: VerifyContext, name: str) -> str:
    """``path:line`` of a file at HEAD that has the text ``name`` (one ``git grep`` for a name found nowhere else), or ""."""
    out = ctx.git("--literal-pathspecs", "grep", "-n", "-I", "-F", "--max-count=1", "-e", name, "HEAD", "--", check=False)
    first = out.split("\n", 1)[0].split(":", 3)
    return f"{first[1]}:{first[2]}" if len(first) >= 3 else ""


def _in_work_tree(ctx: VerifyContext, relative: str) -> bool:
    """The path exists in the work tree itself, not through a symlink that leads out of the repository."""
    target = ctx.root / relative
    try:
        real = os.path.realpath(target)
        root = os.path.realpath(ctx.root)
        return os.path.lexists(target) and (real == root or real.startswith(root + os.sep))
    except (OSError, ValueError):
        return False


def _elsewhere(ctx: VerifyContext, missing: dict[str, str]) -> dict[str, list[tuple[str, str, str]]]:
    """For each missing value, the (path, sha, type) of HEAD entries whose path ends in it."""
    if not missing:
        return {}
    by_name: dict[str, list[tuple[str, str, str]]] = {}
    for entry in ctx.tree():
        by_name.setdefault(entry[0].rsplit("/", 1)[-1], []).append(entry)
    found = {}
    for value, relative in missing.items():
        relative = relative.rstrip("/")
        candidates = by_name.get(relative.rsplit("/", 1)[-1], [])
        found[value] = [entry for entry in candidates if entry[0].endswith("/" + relative)] or _suffixed(ctx, relative)
    return found


def _suffixed(ctx: VerifyContext, relative: str) -> list[tuple[str, str, str]]:
    """A conventional file named without its suffix ("the `README`", ":file:`LICENSE`"): the
    ``README.rst`` or ``LICENSE.txt`` beside where it is named (one of them, if several)."""
    from cc_hooks.claims.addresses import bare_file

    if not bare_file(relative.rsplit("/", 1)[-1]):
        return []
    prefix = relative + "."
    matches = [entry for entry in ctx.tree() if entry[0].startswith(prefix) and "/" not in entry[0][len(prefix):] and entry[2] == "blob"]
    return sorted(matches)[:1]


def _judge_never(ctx, claim, address, relative, obj, deleted) -> None:
    """"`p` never existed": not at HEAD, and no commit of HEAD's history removed it."""
    label = str(address)
    if relative is None or relative == "":
        return
    if obj is not None:
        claim.add(label, CONTRADICTED, f"{relative} is a tracked {'directory' if obj[1] == 'tree' else 'file'} at HEAD", NAME)
    elif relative in deleted:
        sha, subject = deleted[relative]
        claim.add(label, CONTRADICTED, f'{relative} existed: it was removed in {sha[:7]} "{subject}"', NAME)
    elif ctx.history().oldest is None:
        claim.add(label, VERIFIED, f"{relative} is not at HEAD, and no commit of HEAD's history removed it", NAME)
    else:
        claim.add(label, UNVERIFIED, f"{relative} is not at HEAD, and none of the newest commits removed it; older history was not read", NAME)


def _judge(ctx, claim, address, relative, obj, ignored, line_counts, elsewhere=(), deleted=None) -> None:
    label = str(address)
    if relative is None:
        claim.add_exists(label, CONTRADICTED, f"{address.value} is outside this repository", NAME)
        return
    if relative == "":
        claim.add_exists(label, VERIFIED, "the repository root", NAME)
        return
    if obj is None and len(elsewhere) > 1:
        names = ", ".join(path for path, _, _ in elsewhere[:3]) + (", …" if len(elsewhere) > 3 else "")
        if address.line is None:
            claim.add_exists(label, VERIFIED, f"{len(elsewhere)} paths at HEAD end in {relative}: {names}", NAME)
        else:
            claim.add_exists(label, UNVERIFIED, f"{len(elsewhere)} paths at HEAD end in {relative} ({names}): which one is meant is unclear", NAME)
        return
    if obj is None:
        in_tree = _in_work_tree(ctx, relative)
        if address.kind == addr.PATH and not in_tree and "/" not in relative and not address.quoted:
            claim.add_exists(label, UNVERIFIED, f"no file named {relative} at HEAD; written without backticks, it may name no file", NAME)
            return
        if address.kind == addr.NAME and claim.merged_away(address.value):
            merge = _merge_naming(ctx, claim, address.value)
            if merge:
                claim.add_exists(label, VERIFIED, f"no branch named {address.value} now; {merge} merged it", NAME)
                return
            claim.add_exists(label, UNVERIFIED, f"no branch or path named {address.value} now; a merged branch is often deleted", NAME)
            return
        if address.kind == addr.NAME and not in_tree:
            said = _said_in(ctx, address.value)
            if said:  # `okio/-Unsigned` in an API dump, `io/ioutil` in an import: a name the code writes
                claim.add_exists(label, UNVERIFIED, f"no branch, tag or path named {address.value}, but {said} has it: a name in the code, not checked as one", NAME)
                return
            fact = f"no branch, tag or path named {address.value} at HEAD"
        elif in_tree and _says_uncommitted(claim):
            claim.add_exists(label, VERIFIED, f"{relative} is in the work tree and not committed", NAME)
            return
        elif in_tree:
            # It exists, so the sentence is not false; but nothing committed backs it.
            claim.add_exists(label, UNVERIFIED, f"{relative} is in the work tree but not committed at HEAD", NAME)
            return
        elif relative in (deleted or {}):
            sha, subject = deleted[relative]
            fact = f'{relative} does not exist at HEAD: it was removed in {sha[:7]} "{subject}"'
        else:
            fact = f"{relative} does not exist at HEAD (deleted or never committed)"
        claim.add_exists(label, CONTRADICTED, fact, NAME)
        return
    if relative in ignored:
        claim.add_exists(label, CONTRADICTED, f"{relative} is committed but matches a .gitignore rule", NAME)
        return
    kind = "directory" if obj[1] == "tree" else "file"
    if address.line is None or obj[1] != "blob":
        claim.add_exists(label, VERIFIED, f"{relative} is a tracked {kind} at HEAD", NAME)
        return
    count = line_counts.get(relative, 0)
    last = address.end_line or address.line
    if 1 <= address.line <= last <= count:
        claim.add_exists(label, VERIFIED, f"{relative} has {count} lines at HEAD", NAME)
    else:
        claim.add_exists(label, CONTRADICTED, f"{relative} has only {count} lines at HEAD", NAME)


def _merge_naming(ctx, claim: Claim, branch: str) -> str:
    """The commit the sentence names whose subject says it merged ``branch`` ("Merge pull request #7 from o/b")."""
    shas = ctx.commits(a.value for a in claim.addresses_of(addr.SHA))
    subjects = ctx.subjects(shas.values())
    pattern = re.compile(rf"^Merge (?:pull request #\d+ from |branch |remote-tracking branch )'?(?:[\w.-]+/)*{re.escape(branch)}'?(?:\s|$)")
    return next((f'{sha[:7]} "{subjects[sha]}"' for sha in shas.values() if pattern.search(subjects.get(sha, ""))), "")


def _is_blob(obj) -> bool:
    return obj is not None and obj[1] == "blob"


def _relative(ctx: VerifyContext, value: str):
    """The repo-relative path, "" for the root, or None when outside the repo."""
    value = value.rstrip("/") or value
    if os.path.isabs(value):
        try:
            value = os.path.relpath(os.path.realpath(value), os.path.realpath(ctx.root))
        except ValueError:
            return None
    normal = os.path.normpath(value)
    if normal == ".":
        return ""
    if normal.startswith(".."):
        return None
    return normal.replace(os.sep, "/")


def _ignored(ctx: VerifyContext, paths: list[str]) -> set[str]:
    if not paths:
        return set()
    from cc_hooks import git as gitmod

    ctx.git_calls += 1
    return gitmod.ignored(ctx.root, paths, timeout=ctx.timeout())


def _line_counts(ctx: VerifyContext, paths: set[str]) -> dict[str, int]:
    """path -> number of lines at HEAD, for all ``paths`` with one ``git grep -c``."""
    if not paths:
        return {}
    out = ctx.git("--literal-pathspecs", "grep", "-c", "-I", "-e", "", "HEAD", "--", *sorted(paths), check=False)
    counts = {path: 0 for path in paths}
    for line in out.splitlines():
        name, _, count = line.rpartition(":")
        name = name[len("HEAD:") :] if name.startswith("HEAD:") else name
        if name in counts and count.isdigit():
            counts[name] = int(count)
    return counts
