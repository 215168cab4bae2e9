"""What a commit did to a code name, and whether HEAD still has it (``history_statements.code_statements``).

A code name is checked where it is written, never by the words of a commit's message:

- added in `S`:   a line of S's diff adds it, and no file had it before S (else UNVERIFIED: it
  was already there, so S is not shown to be where it came from);
- removed in `S`: a line of S's diff removes it, and no file has it after S;
- renamed / replaced in `S`: S's diff removes a line with the old name and adds one with the new;
- at HEAD:        ``git grep`` of HEAD's tree (or of the directory the sentence names).

One ``log -p`` for every commit's diff; one ``git grep`` per tree asked (sentences name few).
"""

from __future__ import annotations

import re
from typing import Optional

from cc_hooks.claims.context import CommitText, VerifyContext
from cc_hooks.claims.model import CONTRADICTED, QUEUE, UNVERIFIED, VERIFIED, Assertion, Claim
from cc_hooks.claims.words import whole_name

NAME = "code"
KINDS = ("code_added", "code_removed", "code_renamed", "code_at_head", "code_released")


def applies(claim: Claim) -> bool:
    return claim.kind != QUEUE and not claim.intent and any(a.what in KINDS for a in claim.assertions)


def object_names(ctx: VerifyContext, claims: list[Claim]) -> list[str]:
    return sorted({a.sha for c in claims for a in c.assertions if a.what in KINDS and a.sha})


def verify(ctx: VerifyContext, claims: list[Claim]) -> None:
    claims = [c for c in claims if applies(c)]
    full = ctx.commits(object_names(ctx, claims))
    diffs = ctx.commit_texts(full.values(), diff=True)
    for claim in claims:
        for assertion in (a for a in claim.assertions if a.what in KINDS):
            if assertion.what == "code_at_head":
                claim.add(f"{assertion.detail} at HEAD", *_at_head(ctx, assertion), NAME)
                continue
            if assertion.what == "code_released":
                claim.add(f"{assertion.detail} in {assertion.target}", *_released(ctx, assertion), NAME)
                continue
            sha = full.get(assertion.sha or "")
            if sha is None or sha not in diffs:
                continue  # the git verifier reports the missing commit
            judge = {"code_added": _added, "code_removed": _removed, "code_renamed": _renamed}[assertion.what]
            claim.add(f"what {assertion.sha} did to {assertion.detail}", *judge(ctx, assertion, diffs[sha]), NAME)


def lines_with(diff: CommitText, sign: str, name: str) -> list[str]:
    """The paths whose diff lines of ``sign`` ("+" or "-") have ``name``, in order. A qualified name's
    line, its hunk's header (the function or type around it), or its file's name must name the qualifier."""
    qualifier, last = split_name(name)
    pattern, found, path, hunk = whole_name(last), [], "", ""
    around = whole_name(qualifier) if qualifier else None
    for line in diff.diff.splitlines():
        if line.startswith(("+++ ", "--- ")):
            path = line[6:] if line[4:6] in ("a/", "b/") else path
        elif line.startswith("@@"):
            hunk = line
        elif line.startswith(sign) and pattern.search(line[1:]) and path not in found:
            if around is None or around.search(line[1:]) or around.search(hunk) or _named_after(path, qualifier):
                found.append(path)
    return found


def _label(diff: CommitText) -> str:
    subject = diff.message.splitlines()[0] if diff.message else ""
    return f'{diff.sha[:7]} "{subject}"'


def _unknown(diff: CommitText, what: str) -> tuple[str, str]:
    return UNVERIFIED, f"{_label(diff)}: its diff is too large to read whole; whether it {what} is not checked"


def _added(ctx, a: Assertion, diff: CommitText) -> tuple[str, str]:
    return _one_side(ctx, a, diff, added=True)


def _removed(ctx, a: Assertion, diff: CommitText) -> tuple[str, str]:
    return _one_side(ctx, a, diff, added=False)


def _one_side(ctx, a: Assertion, diff: CommitText, added: bool) -> tuple[str, str]:
    """Added: a line adds the name and no code had it before the commit; removed: a line removes it and
    no code has it after."""
    name, verb = f"`{a.detail}`", "adds" if added else "removes"
    where = lines_with(diff, "+" if added else "-", a.detail)
    if not where:
        if diff.truncated:
            return _unknown(diff, f"{'added' if added else 'removed'} {name}")
        return CONTRADICTED, f"{_label(diff)} {verb} no line with {name}"
    other = code_at(ctx, f"{diff.sha}^" if added else diff.sha, a.detail)
    if other and added:
        return UNVERIFIED, f"{_label(diff)} adds {name} in {where[0]}, but {other} already had it: where it came from is not checked"
    if other:
        later = last_removal(ctx, a.detail, diff.sha)
        said = f"{_label(diff)} removes {name} from {where[0]}, but {other} still has it after that commit"
        if later:
            said += f"; {later} removed the last of it"
        return (CONTRADICTED if a.target == "last" else UNVERIFIED), said
    if added:
        return VERIFIED, f"{_label(diff)} added {name} ({where[0]}); no file had it before"
    return VERIFIED, f"{_label(diff)} removed {name} ({where[0]}); no file has it after that commit"


def _renamed(ctx, a: Assertion, diff: CommitText) -> tuple[str, str]:
    old, new = lines_with(diff, "-", a.target), lines_with(diff, "+", a.detail)
    if old and new:
        return VERIFIED, f"{_label(diff)} removes `{a.target}` ({old[0]}) and adds `{a.detail}` ({new[0]})"
    if diff.truncated:
        return _unknown(diff, f"replaced `{a.target}` with `{a.detail}`")
    missing = f"removes no line with `{a.target}`" if not old else f"adds no line with `{a.detail}`"
    return CONTRADICTED, f"{_label(diff)} {missing}"


def last_removal(ctx, name: str, since: str) -> str:
    """The commit after ``since`` whose removal left HEAD's code without the name ('sha "subject"'), or ""."""
    if code_at(ctx, "HEAD", name):
        return ""
    out = ctx.git("log", "-S", split_name(name)[1], "--format=%h %s", "-5", f"{since}..HEAD", check=False)
    for line in out.splitlines():  # -S also finds the commits that added it: the removal is the one after which code lacks it
        sha, _, subject = line.partition(" ")
        if code_at(ctx, f"{sha}^", name) and not code_at(ctx, sha, name):
            return f'{sha} "{subject}"'
    return ""


def _at_head(ctx, a: Assertion) -> tuple[str, str]:
    scope = a.target.rstrip("/") if a.target else None
    if scope and ctx.objects([f"HEAD:{scope}"]).get(f"HEAD:{scope}") is None:
        scope = None  # "under `internal/`" names a directory by its last part: the whole tree is searched
    found, loose = find_code(ctx, "HEAD", a.detail, scope)
    place = f"under {scope}/ " if scope else ""
    gone = a.negated
    if found:
        return (CONTRADICTED if gone else VERIFIED), f"`{a.detail}` is at HEAD in {found}"
    if loose:
        return UNVERIFIED, _only_last(a.detail, "HEAD", loose)
    return (VERIFIED if gone else CONTRADICTED), f"no file {place}at HEAD has `{a.detail}`"


def _only_last(name: str, rev: str, where: str) -> str:
    return f"{rev} has `{split_name(name)[1]}` ({where}) but nothing shows it is `{name}`: whether it is that one is not checked"


def _released(ctx, a: Assertion) -> tuple[str, str]:
    """The release tag's code has the name (and, for "first", the release before it on its history does not)."""
    tag = ctx.resolve_ref(a.target or "") or ctx.resolve_ref(f"v{a.target}")
    if tag is None or not tag.refname.startswith("refs/tags/"):
        return UNVERIFIED, f"{a.target} is not a tag here: which release shipped `{a.detail}` is not checked"
    there, loose = find_code(ctx, tag.refname, a.detail)
    if loose:
        return UNVERIFIED, _only_last(a.detail, tag.short, loose)
    if not there:
        return CONTRADICTED, f"{tag.short} has no `{a.detail}` in its code"
    if a.sha != "first":
        return VERIFIED, f"{tag.short} has `{a.detail}` ({there})"
    before = ctx.git("describe", "--tags", "--abbrev=0", f"{tag.refname}^", check=False).strip()
    earlier = code_at(ctx, f"refs/tags/{before}", a.detail) if before else ""
    if earlier:
        return CONTRADICTED, f"`{a.detail}` was already in {before}, the release before {tag.short} ({earlier})"
    since = f"; {before}, the release before it, has not" if before else "; no release before it"
    return VERIFIED, f"{tag.short} has `{a.detail}` ({there}){since}"


def code_at(ctx, rev: str, name: str, scope: Optional[str] = None) -> str:
    """``path:line`` of the first file of ``rev``'s tree whose code has the whole name, or "" (none,
    or no such tree). Prose (a changelog, the docs) names what was removed: it is not the code."""
    return find_code(ctx, rev, name, scope)[0]


def find_code(ctx, rev: str, name: str, scope: Optional[str] = None) -> tuple[str, str]:
    """(where the code of ``rev`` has the name, where it has only its last part): a qualified name
    (`Context.Clone`, `Key::from_static`) is there when a line with its last part also names the
    qualifier, or sits in a file that does or is named after it; any `Clone` is not `Context.Clone`."""
    qualifier, last = split_name(name)
    args = ["--literal-pathspecs", "grep", "-n", "-I", "-w", "-F", f"--max-count={20 if qualifier else 1}", "-e", last, rev, "--"]
    hits = []
    for line in ctx.git(*args, *([scope] if scope else []), check=False).splitlines():
        parts = line.split(":", 3)  # "<rev>:<path>:<line>:<text>"
        if len(parts) == 4 and parts[2].isdigit() and not _PROSE_RE.search(parts[1]):
            hits.append((parts[1], parts[2], parts[3]))
    if not hits:
        return "", ""
    if not qualifier:
        return f"{hits[0][0]}:{hits[0][1]}", ""
    around = whole_name(qualifier)
    for path, number, text in hits:
        if around.search(text) or _named_after(path, qualifier):
            return f"{path}:{number}", ""
    files = list(dict.fromkeys(path for path, _, _ in hits))[:50]
    naming = ctx.git("--literal-pathspecs", "grep", "-l", "-w", "-F", "-e", qualifier, rev, "--", *files, check=False)
    named = {line.split(":", 1)[-1] for line in naming.splitlines()}
    for path, number, _ in hits:
        if path in named:
            return f"{path}:{number}", ""
    return "", f"{hits[0][0]}:{hits[0][1]}"


def split_name(name: str) -> tuple[str, str]:
    """`Context.Clone` -> ("Context", "Clone"), `Rack::Request#headers` -> ("Request", "headers"),
    `middleware.ClientIP` -> ("middleware", "ClientIP"); a name without a qualifier, or a dotted key
    that code writes whole (`rack.request.config`, `os.path.join`), -> ("", name)."""
    parts = [p for p in re.split(r"::|#|\.(?=[A-Za-z_])", name) if p]
    if len(parts) < 2 or ("::" not in name and "#" not in name and name == name.lower()):
        return "", name
    return parts[-2], parts[-1]


def _named_after(path: str, qualifier: str) -> bool:
    """`middleware/client_ip.go` is named after `middleware`; `lib/rack/request.rb` after `Request`."""
    wanted = qualifier.lower().replace("_", "")
    return any(part.split(".", 1)[0].lower().replace("_", "") == wanted for part in path.split("/"))


_PROSE_RE = re.compile(r"(?:^|/)(?:CHANGE|HISTORY|NEWS|RELEASE|UPGRAD|MIGRAT)[^/]*$|\.(?:md|rst|rdoc|txt|adoc|asciidoc|org|textile|markdown)$|(?:^|/)docs?/", re.I)
