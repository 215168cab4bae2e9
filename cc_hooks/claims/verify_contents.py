"""Content claims: "`config/settings.py` sets `CURRENCY`", "... no longer calls `open()`".

Whether the file at HEAD contains the text the sentence names, for every such
claim with one ``git grep`` (fixed strings, all names and paths at once). A file
that is not at HEAD is the path verifier's to report.
"""

from __future__ import annotations

from cc_hooks.claims.context import VerifyContext
from cc_hooks.claims.model import CONTRADICTED, QUEUE, VERIFIED, Claim

NAME = "contents"


def applies(claim: Claim) -> bool:
    return claim.kind != QUEUE and not claim.intent and any(a.what == "contains" for a in claim.assertions)


def verify(ctx: VerifyContext, claims: list[Claim]) -> None:
    claims = [c for c in claims if applies(c)]
    asks = {(a.target, a.detail) for c in claims for a in c.assertions if a.what == "contains" and a.target and a.detail}
    if not asks:
        return
    names = sorted({name for _, name in asks})
    paths = sorted({path for path, _ in asks})
    present = _which(ctx, names, paths)
    for claim in claims:
        for assertion in (a for a in claim.assertions if a.what == "contains"):
            path, name = assertion.target, assertion.detail
            has = (path, name) in present or any(p.startswith(path.rstrip("/") + "/") and n == name for p, n in present)
            if not has and not _at_head(ctx, path):
                continue
            fact = f"{path} {'has' if has else 'does not have'} `{name}` at HEAD"
            ok = has != assertion.negated
            if not has and not ok:  # said to be there: which commit took it out
                from cc_hooks.claims.verify_history import removed_from

                removed = removed_from(ctx, path, name, "HEAD")
                fact += f"; {removed} removed it" if removed else ""
            claim.add(f"{path} contains {name}", VERIFIED if ok else CONTRADICTED, fact, NAME)


def _which(ctx: VerifyContext, names: list[str], paths: list[str]) -> set[tuple[str, str]]:
    """(path, name) pairs where the file at HEAD contains the name (one ``git grep`` for all)."""
    args = ["--literal-pathspecs", "grep", "-F", "-I", "-o", "-z"]
    for name in names:
        args += ["-e", name]
    out = ctx.git(*args, "HEAD", "--", *paths, check=False)
    found = set()
    for line in out.splitlines():  # "HEAD:<path>\0<the matched text>"
        where, _, match = line.partition("\0")
        found.add((where[len("HEAD:"):], match))
    return found


def _at_head(ctx: VerifyContext, path: str) -> bool:
    obj = ctx.objects([f"HEAD:{path}"]).get(f"HEAD:{path}")
    return obj is not None
