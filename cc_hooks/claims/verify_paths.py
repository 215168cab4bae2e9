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
    for claim in claims:
        for address in claim.addresses_of(addr.PATH, addr.NAME):
            if address.kind == addr.NAME and ctx.resolve_ref(address.value) is not None:
                continue
            relative = _relative(ctx, address.value)
            if relative is not None:
                wanted[address.value] = relative
    objects = ctx.objects(f"HEAD:{rel}" for rel in wanted.values() if rel)
    present = {value: objects.get(f"HEAD:{rel}") for value, rel in wanted.items()}
    missing = {v: wanted[v] for v, obj in present.items() if obj is None and wanted[v] and not (ctx.root / wanted[v]).exists()}
    elsewhere = _elsewhere(ctx, missing)
    for value, matches in elsewhere.items():
        if len(matches) == 1:  # the file, under its full path
            wanted[value], sha, kind = matches[0]
            present[value] = (sha, kind)
    ignored = _ignored(ctx, [wanted[v] for v, obj in present.items() if obj])
    lines_needed = {
        wanted[a.value] for c in claims for a in c.addresses_of(addr.PATH) if a.line and _is_blob(present.get(a.value))
    }
    line_counts = _line_counts(ctx, lines_needed)
    for claim in claims:
        for address in claim.addresses_of(addr.PATH, addr.NAME):
            if address.value not in wanted and address.kind == addr.NAME:
                continue  # a ref; judged by the git verifier
            found = elsewhere.get(address.value, [])
            _judge(ctx, claim, address, wanted.get(address.value), present.get(address.value), ignored, line_counts, found)


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
        found[value] = [entry for entry in candidates if entry[0].endswith("/" + relative)]
    return found


def _judge(ctx, claim, address, relative, obj, ignored, line_counts, elsewhere=()) -> None:
    label = str(address)
    if relative is None:
        claim.add(label, CONTRADICTED, f"{address.value} is outside this repository", NAME)
        return
    if relative == "":
        claim.add(label, VERIFIED, "the repository root", NAME)
        return
    if obj is None and len(elsewhere) > 1:
        names = ", ".join(path for path, _, _ in elsewhere[:3]) + (", …" if len(elsewhere) > 3 else "")
        if address.line is None:
            claim.add(label, VERIFIED, f"{len(elsewhere)} paths at HEAD end in {relative}: {names}", NAME)
        else:
            claim.add(label, UNVERIFIED, f"{len(elsewhere)} paths at HEAD end in {relative} ({names}): which one is meant is unclear", NAME)
        return
    if obj is None:
        in_tree = (ctx.root / relative).exists()
        if address.kind == addr.PATH and not in_tree and "/" not in relative and not address.quoted:
            claim.add(label, UNVERIFIED, f"no file named {relative} at HEAD; written without backticks, it may name no file", NAME)
            return
        if address.kind == addr.NAME and claim.merged_away(address.value):
            claim.add(label, UNVERIFIED, f"no branch or path named {address.value} now; a merged branch is often deleted", NAME)
            return
        if address.kind == addr.NAME:
            fact = f"no branch, tag or path named {address.value} at HEAD"
        elif in_tree:
            fact = f"{relative} is in the work tree but not committed at HEAD"
        else:
            fact = f"{relative} does not exist at HEAD (deleted or never committed)"
        claim.add(label, CONTRADICTED, fact, NAME)
        return
    if relative in ignored:
        claim.add(label, CONTRADICTED, f"{relative} is committed but matches a .gitignore rule", NAME)
        return
    kind = "directory" if obj[1] == "tree" else "file"
    if address.line is None or obj[1] != "blob":
        claim.add(label, VERIFIED, f"{relative} is a tracked {kind} at HEAD", NAME)
        return
    count = line_counts.get(relative, 0)
    last = address.end_line or address.line
    if 1 <= address.line <= last <= count:
        claim.add(label, VERIFIED, f"{relative} has {count} lines at HEAD", NAME)
    else:
        claim.add(label, CONTRADICTED, f"{relative} has only {count} lines at HEAD", NAME)


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
