"""History and content predicates (``history_statements``): authored by, came before, changed
since, latest release, reverted / reverts, and what a file or line says.

Each predicate is decided by git's own record, in both polarities, and says what it saw:
one ``log --no-walk`` for every author and message, one ``cat-file --batch`` for every file
whose text is asked, one ``for-each-ref`` for the tags, and one small git call per ancestry
pair, per "changed since" and per reverted commit (sentences name few).
"""

from __future__ import annotations

import re
from typing import Optional

from cc_hooks.claims.context import VerifyContext
from cc_hooks.claims.model import CONTRADICTED, QUEUE, UNVERIFIED, VERIFIED, Assertion, Claim
from cc_hooks.claims.words import whole_name

NAME = "history"
KINDS = ("authored", "before", "changed_since", "latest_tag", "reverted", "reverts", "mentions", "in_release", "reached",
         "created", "renamed", "last_changed", "exists_at", "commit_count", "fork_point")  # JUDGES, below
MAX_BLOB = 2 * 1024 * 1024
WITHIN = 40  # lines above a pointer searched for the definition whose block holds it ("`f()` at `x.py:23`")


def applies(claim: Claim) -> bool:
    return claim.kind != QUEUE and not claim.intent and any(a.what in KINDS for a in claim.assertions)


def object_names(ctx: VerifyContext, claims: list[Claim]) -> list[str]:
    names = set()
    for claim in claims:
        for a in claim.assertions:
            if a.what in KINDS and a.sha and not a.sha.startswith("#"):
                names.add(a.sha)
            if a.what in ("before", "reverts") and a.target:
                names.add(a.target)
            if a.what == "changed_since" and re.fullmatch(r"[0-9a-fA-F]{4,40}", a.detail or ""):
                names.add(a.detail.lower())
            if a.what == "mentions" and a.target:
                names.add(f"HEAD:{a.target}")
            if a.what == "exists_at" and a.target and a.detail:
                names.add(f"{a.detail}:{a.target}")
    return sorted(names)


def verify(ctx: VerifyContext, claims: list[Claim]) -> None:
    claims = [c for c in claims if applies(c)]
    if not claims:
        return
    objects = ctx.objects(object_names(ctx, claims))
    commits = ctx.commits(objects)
    for number in {a.sha for c in claims for a in c.assertions if (a.sha or "").startswith("#")}:
        found = ctx.pull_request(int(number[1:]))
        if found:
            commits[number] = found
    texts = _messages(ctx, commits.values())
    where = {(id(c), a.target): _place(ctx, c, a.target, objects) for c in claims for a in c.assertions if a.what == "mentions"}
    blobs = _blobs(ctx, set(where.values()), objects)
    for claim in claims:
        for assertion in (a for a in claim.assertions if a.what in KINDS and (a.what != "mentions" or a.detail)):
            judge = JUDGES[assertion.what]
            found = blobs
            if assertion.what == "mentions":  # the file's text, and the revision it was read at
                name = where[(id(claim), assertion.target)]
                found = {assertion.target: (blobs.get(name), re.sub(r"^refs/(?:heads|remotes|tags)/", "", name.split(":", 1)[0]))}
            subject, verdict, evidence = judge(ctx, assertion, commits, texts, found)
            claim.add(subject, verdict, evidence, NAME)


def _place(ctx: VerifyContext, claim: Claim, path: str, objects) -> str:
    """The object name of the file a content sentence is about: ``HEAD:path``, or, when the file is
    not at HEAD, the same path on a branch the sentence names ("`x.md` has ..., on `origin/main` only")."""
    from cc_hooks.claims import address as addr

    said_on = re.search(rf"`{re.escape(path)}`\s+on\s+`([^`\s]+)`", claim.text)  # "`p` on `origin/b` still says …"
    ref = ctx.resolve_ref(said_on.group(1)) if said_on else None
    if ref is not None and ctx.objects([f"{ref.refname}:{path}"]).get(f"{ref.refname}:{path}") is not None:
        return f"{ref.refname}:{path}"
    if objects.get(f"HEAD:{path}") is not None:
        return f"HEAD:{path}"
    for address in claim.addresses_of(addr.BRANCH, addr.NAME, addr.PATH):
        ref = ctx.resolve_ref(address.value) if address.value != path else None
        if ref is not None:
            name = f"{ref.refname}:{path}"
            if ctx.objects([name]).get(name) is not None:
                return name
    return f"HEAD:{path}"


def _messages(ctx: VerifyContext, shas) -> dict[str, tuple[str, str, str]]:
    """Full sha -> (author name, author email, message)."""
    shas = [s for s in dict.fromkeys(shas) if s]
    if not shas:
        return {}
    out = ctx.git("log", "--no-walk=unsorted", "--stdin", "--format=%x1e%H%x1f%an%x1f%ae%x1f%B", input="\n".join(shas) + "\n")
    found = {}
    for record in out.split("\x1e")[1:]:
        sha, name, email, message = (record.split("\x1f", 3) + ["", "", ""])[:4]
        found[sha.strip()] = (name, email, message.strip())
    return found


def _blobs(ctx: VerifyContext, names, objects) -> dict[str, Optional[str]]:
    """Object name (``rev:path``) -> the file's text, for the blobs among ``names`` (one process)."""
    known = ctx.objects(names)
    wanted = [n for n in sorted(n for n in names if n) if (known.get(n) or ("", ""))[1] == "blob"]
    if not wanted:
        return {}
    from cc_hooks.git import run_git_bytes

    ctx.git_calls += 1
    data = run_git_bytes(ctx.root, "cat-file", "--batch", input=("\n".join(wanted) + "\n").encode(), timeout=ctx.timeout()).stdout
    found: dict[str, Optional[str]] = {}
    for path in wanted:  # framed by sizes in bytes: a file with "—" in it must not shift the next one
        header, _, data = data.partition(b"\n")
        parts = header.split()
        if len(parts) != 3 or not parts[2].isdigit():
            break
        size = int(parts[2])
        found[path] = data[:size].decode("utf-8", "replace") if size <= MAX_BLOB else None
        data = data[size + 1 :]
    return found


def _short(sha: str) -> str:
    return sha[:7]


def _authored(ctx, a: Assertion, commits, texts, blobs):
    full = commits.get(a.sha or "")
    if full is None or full not in texts:
        return f"commit {a.sha}", UNVERIFIED, f"{a.sha} is not a commit here: who authored it is not checked"
    name, email, message = texts[full]
    claimed = [w.lower() for w in re.findall(r"[\w'-]+", a.detail or "") if len(w) > 1]
    author = f"{name} {email}".lower()
    co = " ".join(re.findall(r"(?im)^co-authored-by:\s*(.+)$", message)).lower()
    seen = f"{_short(full)} was authored by {name} <{email}>"
    if (a.detail or "").lower() == name.lower() or (claimed and all(w in author for w in claimed)):
        return f"author of {a.sha}", VERIFIED, seen
    if claimed and any(w in co for w in claimed):
        return f"author of {a.sha}", UNVERIFIED, seen + f"; {a.detail} is a co-author"
    if claimed and not any(w in author for w in claimed):
        return f"author of {a.sha}", CONTRADICTED, seen
    return f"author of {a.sha}", UNVERIFIED, seen + f"; whether that is {a.detail} is not clear"


def _before(ctx, a: Assertion, commits, texts, blobs):
    first, second = commits.get(a.sha or ""), commits.get(a.target or "")
    if a.negated:
        first, second = second, first
    if not first or not second:
        return "order", UNVERIFIED, "one of the two commits is not here: their order is not checked"
    label = f"{_short(first)} before {_short(second)}"
    if first == second:
        return label, CONTRADICTED, f"{_short(first)} and {_short(second)} are the same commit"
    if _is_ancestor(ctx, first, second):
        return label, VERIFIED, f"{_short(first)} is an ancestor of {_short(second)}"
    if _is_ancestor(ctx, second, first):
        return label, CONTRADICTED, f"{_short(second)} is an ancestor of {_short(first)}: it came first"
    return label, UNVERIFIED, f"neither of {_short(first)} and {_short(second)} is an ancestor of the other"


def _is_ancestor(ctx, a: str, b: str) -> bool:
    from cc_hooks.git import GitError, GitTimeout

    try:
        ctx.git("merge-base", "--is-ancestor", a, b)
        return True
    except GitTimeout:
        raise
    except GitError:
        return False


def _path_of(ctx, a: Assertion) -> tuple[str, bool]:
    """(the path to ask git about, whether HEAD has it): a base name resolved in HEAD's tree."""
    placed = ctx.place(a.target or "")
    return (placed, True) if placed else (a.target or "", False)


def _changed_since(ctx, a: Assertion, commits, texts, blobs):
    point = a.detail or ""
    label = f"{a.target} since {point}"
    path, tracked = _path_of(ctx, a)
    if path != a.target:
        a = Assertion(a.what, a.negated, path, a.sha, a.detail, a.line)
    if re.fullmatch(r"\d{4}(?:-\d{2})?", point):
        return (label, *_changed_in_period(ctx, a, point, tracked))
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", point):
        bound = [f"--since={point}T23:59:59", "HEAD"]
        named = point
    else:
        rev = _revision(ctx, point, commits)
        if rev is None:
            return label, UNVERIFIED, f"no commit or tag {point} here: what changed since is not checked"
        bound, named = [f"{rev}..HEAD"], point
    out = ctx.git("log", "--format=%H%x1f%s", "--max-count=3", *bound, "--", a.target or "", check=False)
    changes = [line.split("\x1f", 1) for line in out.splitlines() if "\x1f" in line]
    if changes:
        sha, subject = changes[0]
        fact = f"{a.target} was changed after {named} by {_short(sha)} \"{subject}\"" + (" and others" if len(changes) > 1 else "")
        return label, CONTRADICTED if a.negated else VERIFIED, fact
    if not tracked:  # a log of a path HEAD does not have proves nothing of the path the sentence meant
        return label, UNVERIFIED, f"{a.target} is not a path at HEAD (nor the base name of one): what changed since {named} is not checked"
    fact = f"no commit changed {a.target} after {named}"
    return label, VERIFIED if a.negated else CONTRADICTED, fact


def _changed_in_period(ctx, a: Assertion, period: str, tracked: bool) -> tuple[str, str]:
    """"hasn't changed since 2024" / "since June 2024": changed after the period is over disproves it,
    no change since it began proves it; changes within it only leave it open."""
    year, _, month = period.partition("-")
    if month:
        start = f"{year}-{month}-01"
        end = f"{int(year) + (month == '12')}-{1 if month == '12' else int(month) + 1:02d}-01"
    else:
        start, end = f"{year}-01-01", f"{int(year) + 1}-01-01"
    after = ctx.git("log", "--format=%H%x1f%s%x1f%cs", "-1", f"--since={end}T00:00:00", "HEAD", "--", a.target or "", check=False).strip()
    if after:
        sha, subject, date = after.split("")
        return (CONTRADICTED if a.negated else VERIFIED), f'{a.target} was changed after {period} by {_short(sha)} "{subject}" ({date})'
    within = ctx.git("log", "--format=%H", "-1", f"--since={start}T00:00:00", "HEAD", "--", a.target or "", check=False).strip()
    if not within and not tracked:
        return UNVERIFIED, f"{a.target} is not a path at HEAD (nor the base name of one): what changed since {period} is not checked"
    if within:
        return UNVERIFIED, f"{a.target} was changed during {period} ({_short(within)}), not after: whether that counts as since is not checked"
    return (VERIFIED if a.negated else CONTRADICTED), f"no commit changed {a.target} since {start}"


def _revision(ctx, point: str, commits) -> Optional[str]:
    if point.lower() in commits:
        return commits[point.lower()]
    for name in (point, f"v{point}"):
        ref = ctx.resolve_ref(name)
        if ref is not None:
            return ref.sha
    return None


def _latest_tag(ctx, a: Assertion, commits, texts, blobs):
    merged = []
    if a.detail:
        ref = ctx.resolve_ref(a.detail)
        if ref is None:
            return "latest tag", UNVERIFIED, f"no branch {a.detail} here: which tag is newest on it is not checked"
        merged = [f"--merged={ref.sha}"]
    out = ctx.git("for-each-ref", "--sort=-creatordate", "--count=3", *merged, "--format=%(refname:short)%00%(creatordate:short)", "refs/tags", check=False)
    tags = [line.split("\0") for line in out.splitlines() if "\0" in line]
    if not tags:
        return "latest tag", UNVERIFIED, "the repository has no tags: which release is latest is not checked"
    newest, date = tags[0]
    if len(tags) > 1 and tags[1][1] == date and (a.target or "") == tags[1][0]:
        return "latest tag", UNVERIFIED, f"{newest} and {a.target} were both tagged on {date}"
    on = f" reachable from {a.detail}" if a.detail else ""
    if (a.target or "") == newest:
        return "latest tag", VERIFIED, f"{newest} is the newest tag{on} ({date})"
    return "latest tag", CONTRADICTED, f"the newest tag{on} is {newest} ({date}), not {a.target}"


def _in_release(ctx, a: Assertion, commits, texts, blobs):
    full = commits.get(a.sha or "")
    tag = ctx.resolve_ref(a.target or "")
    label = f"{a.sha} in {a.target}"
    if full is None or tag is None or not tag.refname.startswith("refs/tags/"):
        return label, UNVERIFIED, f"{a.target} is not a tag here, or {a.sha} not a commit: which release shipped it is not checked"
    out = ctx.git("for-each-ref", "--sort=creatordate", f"--contains={full}", "--format=%(refname:short)", "refs/tags", check=False)
    containing = out.split()
    if tag.short not in containing and _copy_on(ctx, tag.sha, full):  # cherry-picked to the release branch
        if a.detail == "first":
            return label, UNVERIFIED, f"{tag.short} has the same patch as {_short(full)}; whether it is the first release that does is not checked"
        return label, VERIFIED, f"{tag.short} has the same patch as {_short(full)} (a copy of it)"
    if tag.short not in containing:
        first = f"; the first tag containing it is {containing[0]}" if containing else "; no tag contains it"
        return label, CONTRADICTED, f"{tag.short} does not contain {_short(full)}{first}"
    if a.detail == "first" and containing[0] != tag.short:
        return label, CONTRADICTED, f"{_short(full)} was first in {containing[0]}, before {tag.short}"
    return label, VERIFIED, f"{tag.short} contains {_short(full)}" + (" and is the first tag that does" if a.detail == "first" else "")


def _reached(ctx, a: Assertion, commits, texts, blobs):
    """The commit (or tag) is on the branch: by ancestry, or as a copy with the same patch
    (``git cherry``: a squash, cherry-pick or backport)."""
    branch = ctx.resolve_ref(a.target or "")
    what = a.sha or a.detail or ""
    full = commits.get(a.sha or "") if a.sha else None
    if full is None and a.detail:
        ref = ctx.resolve_ref(a.detail)
        full = ref.sha if ref is not None else None
    label = f"{what} on {a.target}"
    if branch is None or full is None:
        return label, UNVERIFIED, f"{a.target} or {what} is not here: whether it is on that branch is not checked"
    if _is_ancestor(ctx, full, branch.sha):
        fact = f"{what} is on {branch.short}"
        return label, CONTRADICTED if a.negated else VERIFIED, fact
    copy = _copy_on(ctx, branch.sha, full)
    if copy:
        fact = f"{what} is not an ancestor of {branch.short}, but the same patch is there"
        return label, CONTRADICTED if a.negated else VERIFIED, fact
    fact = f"{what} is not on {branch.short}, and no commit there has the same patch"
    return label, VERIFIED if a.negated else CONTRADICTED, fact


def _copy_on(ctx, branch: str, full: str) -> bool:
    out = ctx.git("cherry", branch, full, f"{full}~1", check=False)
    return any(line.startswith("- ") and line[2:].strip() == full for line in out.splitlines())


def _reverted(ctx, a: Assertion, commits, texts, blobs):
    full = commits.get(a.sha or "")
    if full is None or full not in texts:
        return f"commit {a.sha}", UNVERIFIED, f"{a.sha} is not a commit here: whether it was reverted is not checked"
    subject = texts[full][2].splitlines()[0] if texts[full][2] else ""
    out = ctx.git("log", "HEAD", "--format=%H%x1f%s", "-F", f"--grep=This reverts commit {full}", f"--grep=Revert \"{subject}\"", check=False)
    reverts = [line.split("\x1f", 1) for line in out.splitlines() if "\x1f" in line and not line.startswith(full)]
    if reverts:
        sha, title = reverts[0]
        fact = f"{_short(full)} was reverted by {_short(sha)} \"{title}\""
        return f"revert of {a.sha}", CONTRADICTED if a.negated else VERIFIED, fact
    fact = f"no commit on HEAD reverts {_short(full)} (no \"This reverts commit\" and no \"Revert\" of its subject)"
    return f"revert of {a.sha}", VERIFIED if a.negated else UNVERIFIED, fact


def _reverts(ctx, a: Assertion, commits, texts, blobs):
    full = commits.get(a.sha or "")
    if full is None or full not in texts:
        return f"commit {a.sha}", UNVERIFIED, f"{a.sha} is not a commit here: what it reverts is not checked"
    message = texts[full][2]
    named = re.findall(r"This reverts commit ([0-9a-f]{7,40})", message)
    is_revert = bool(named) or message.lower().startswith("revert")
    title = message.splitlines()[0] if message else ""
    if not is_revert:
        return f"revert {a.sha}", CONTRADICTED, f"{_short(full)} \"{title}\" is not a revert (no \"This reverts commit\", no \"Revert\" subject)"
    target = commits.get(a.target or "") if a.target else None
    if a.target and target is None:
        return f"revert {a.sha}", UNVERIFIED, f"{a.target} is not a commit here"
    if target and named and not any(target.startswith(n) for n in named):
        return f"revert {a.sha}", CONTRADICTED, f"{_short(full)} reverts {named[0][:7]}, not {a.target}"
    return f"revert {a.sha}", VERIFIED, f"{_short(full)} \"{title}\" is a revert" + (f" of {named[0][:7]}" if named else "")


def _mentions(ctx, a: Assertion, commits, texts, blobs):
    text, rev = blobs.get(a.target or "", (None, "HEAD"))
    label = f"{a.target} says {a.detail}"
    if text is None:
        return label, UNVERIFIED, f"the text of {a.target} at {rev} was not read: what it says is not checked"
    terms = _split_terms(a.detail or "")
    lines = text.splitlines()
    where = f"{a.target}:{a.line}" if a.line else a.target
    if a.line:
        if not 1 <= a.line <= len(lines):
            return label, CONTRADICTED, f"{a.target} has only {len(lines)} lines at {rev}"
        scope = lines[a.line - 1]
    else:
        scope = text
    named = (a.target or "").replace("/", " ").replace("_", " ").replace("-", " ")  # "`releases/2026.6.md` has the release notes"
    missing = [t for t in terms if not _has(scope, t) and (t.startswith("`") or a.line or not _has(named, t))]
    if not missing and a.line and a.sha != "within" and len(terms) == 1 and terms[0].startswith("`"):
        name = terms[0].strip("`")  # "`n` starts at `p:N`": the line that defines it, not one that uses it
        defined = [n for n, line in enumerate(lines, 1) if _defines(line, name)]
        if defined and a.line not in defined:
            return label, CONTRADICTED, f"{terms[0]} is defined at {a.target}:{defined[0]}; line {a.line} only uses it"
    if not missing:
        return label, VERIFIED, f"{where} has {', '.join(terms)} at {rev}"
    if a.line and a.sha == "within" and len(terms) == 1:
        above = next((n for n in range(a.line - 1, max(0, a.line - WITHIN), -1) if _has(lines[n - 1], terms[0])), None)
        if above is not None:
            return label, VERIFIED, f"{where} is in the block {terms[0]} opens at line {above}"
    if a.line and len(terms) == 1 and terms[0].startswith("`"):
        word = whole_name(terms[0].strip("`"))
        at = [n for n, line in enumerate(lines, 1) if word.search(line)]
        at = [n for n in at if _DEFINITION_RE.search(lines[n - 1])] or at
        if at:
            return label, CONTRADICTED, f"{terms[0]} is at {a.target}:{at[0]}, not line {a.line}"
    if not a.line and all(re.fullmatch(r"`[\w.:#$@-]+`", t) for t in missing):  # a quoted name is not paraphrased
        removed = removed_from(ctx, a.target or "", missing[0].strip("`"), rev)
        return label, CONTRADICTED, f"{where} does not have {', '.join(missing)} at {rev}" + (f"; {removed} removed it" if removed else "")
    return label, UNVERIFIED, f"{where} does not have {', '.join(missing)} at {rev}; the sentence's wording is not checked further"


def removed_from(ctx, path: str, name: str, rev: str) -> str:
    """The newest commit of ``rev`` that changed how often ``path`` has ``name`` (it lacks it now: its removal)."""
    out = ctx.git("log", "-S", name, "-1", "--format=%H%x1f%s", rev, "--", path, check=False).strip()
    sha, _, subject = out.partition("\x1f")
    return f'{_short(sha)} "{subject}"' if sha else ""


_DEFINITION_RE = re.compile(r"^\s*(?:(?:pub(?:\(\w+\))?|export|public|private|protected|static|final|async|abstract)\s+)*"
                            r"(?:def|fn|func|function|class|module|struct|enum|interface|trait|type|const|let|var|val|impl)\b|"
                            r"^\s*[A-Z_][A-Z0-9_]*\s*=")


def _defines(line: str, name: str) -> bool:
    """The line declares ``name``: a keyword before it ("def n", "fn n", "class n") or an assignment to it."""
    n = re.escape(name)
    return re.search(rf"\b(?:def|fn|func|function|class|module|struct|enum|interface|trait|type|const|let|var|val)\s+(?:[\w.]*\.)?{n}(?![\w$])|"
                     rf"(?<![\w$.]){n}\s*(?::[^=()]*)?=(?![=>])", line) is not None


def _split_terms(detail: str) -> list[str]:
    return re.findall(r"`[^`]+`|\S+", detail)


def _has(text: str, term: str) -> bool:
    if term.startswith("`"):  # a code name as written, whole: `INET_ADDRESS` is not in INET_ADDRESS_FACTORY
        return whole_name(term.strip("`")).search(text) is not None
    return re.search(rf"(?<![A-Za-z]){re.escape(_stem(term))}", text, re.I) is not None


def _stem(word: str) -> str:
    """"rounding" -> "round", "tokens" -> "token": the project's stem when the word's forms start
    with it (a synonym, "bug" -> "fix", is no prefix: the word itself is searched)."""
    from cc_hooks.claims.words import stem

    if any(c.isdigit() for c in word):
        return word
    root = stem(word)
    return root if len(root) >= 3 and word.lower().startswith(root) else word


def _status(ctx, full: str) -> list[tuple[str, str, str]]:
    """(status letter, old path, new path) of what the commit changed, renames followed."""
    out = ctx.git("diff-tree", "--no-commit-id", "-r", "-M", "--name-status", "-z", "--root", full, check=False)
    fields, found, i = out.split("\0"), [], 0
    while i < len(fields) - 1:
        letter = fields[i].strip()[:1]
        if letter in ("R", "C") and i + 2 < len(fields):
            found.append((letter, fields[i + 1], fields[i + 2]))
            i += 3
        elif letter:
            found.append((letter, fields[i + 1], fields[i + 1]))
            i += 2
        else:
            i += 1
    return found


def _created(ctx, a: Assertion, commits, texts, blobs):
    full = commits.get(a.sha or "")
    path = (a.target or "").rstrip("/")
    label = f"{a.sha} created {path}"
    if full is None:
        return label, UNVERIFIED, f"{a.sha} is not a commit here: what it created is not checked"
    changes = [c for c in _status(ctx, full) if c[2] == path or c[2].startswith(path + "/")]
    if any(letter in ("A", "R", "C") for letter, _, _ in changes):
        return label, VERIFIED, f"{_short(full)} added {path}"
    if changes:
        return label, CONTRADICTED, f"{_short(full)} modified {path}, which existed before it"
    return label, CONTRADICTED, f"{_short(full)} did not change {path}"


def _renamed(ctx, a: Assertion, commits, texts, blobs):
    full = commits.get(a.sha or "")
    old, new = (a.target or "").rstrip("/"), (a.detail or "").rstrip("/")
    label = f"{a.sha} renamed {old}"
    if full is None:
        return label, UNVERIFIED, f"{a.sha} is not a commit here: what it renamed is not checked"
    changes = _status(ctx, full)
    under = lambda p, root: p == root or p.startswith(root + "/")  # noqa: E731
    if any(under(o, old) and under(n, new) for _, o, n in changes if o != n):
        return label, VERIFIED, f"{_short(full)} renamed {old} to {new}"
    if any(under(o, old) for letter, o, _ in changes if letter == "D") and any(under(n, new) for letter, _, n in changes if letter == "A"):
        return label, VERIFIED, f"{_short(full)} deleted {old} and added {new}"
    return label, CONTRADICTED, f"{_short(full)} did not move {old} to {new}"


def _last_changed(ctx, a: Assertion, commits, texts, blobs):
    full = commits.get(a.sha or "")
    label = f"{a.target} last changed"
    out = ctx.git("log", "-1", "--format=%H%x1f%s", "HEAD", "--", _path_of(ctx, a)[0], check=False).strip()
    if full is None or "\x1f" not in out:
        return label, UNVERIFIED, f"{a.sha} or the history of {a.target} is not here: when it last changed is not checked"
    sha, subject = out.split("\x1f", 1)
    if sha == full:
        return label, VERIFIED, f"{a.target} was last changed in {_short(sha)} \"{subject}\""
    return label, CONTRADICTED, f"{a.target} was last changed in {_short(sha)} \"{subject}\", not {a.sha}"


def _commit_count(ctx, a: Assertion, commits, texts, blobs):
    """"`b` has N commits that `m` lacks": ``rev-list --count m..b``."""
    base, tip = (ctx.resolve_ref(a.target or ""), ctx.resolve_ref(a.detail or ""))
    label = f"commits of {a.detail} not on {a.target}"
    if base is None or tip is None:
        missing = a.target if base is None else a.detail
        return label, UNVERIFIED, f"{missing} is not a branch or tag here: how many commits is not checked"
    out = ctx.git("rev-list", "--count", f"{base.sha}..{tip.sha}", check=False).strip()
    if not out.isdigit():
        return label, UNVERIFIED, f"the commits of {tip.short} not on {base.short} could not be counted"
    fact = f"{tip.short} has {out} commit(s) that {base.short} lacks"
    return label, VERIFIED if int(out) == a.line else CONTRADICTED, fact


def _fork_point(ctx, a: Assertion, commits, texts, blobs):
    """"`b` forks from `S`": the merge base of b and the branch it forks from (the mainline when unnamed) is S."""
    branch = ctx.resolve_ref(a.target or "")
    base = ctx.resolve_ref(a.detail) if a.detail else next((r for r in map(ctx.resolve_ref, ("main", "master")) if r is not None), None)
    label = f"fork point of {a.target}"
    full = commits.get(a.sha or "")
    if branch is None or base is None or full is None:
        return label, UNVERIFIED, f"{a.target if branch is None else (a.detail or 'the mainline') if base is None else a.sha} is not here: where it forks is not checked"
    fork = ctx.git("merge-base", branch.sha, base.sha, check=False).strip()
    if not fork:
        return label, UNVERIFIED, f"{branch.short} and {base.short} share no commit"
    fact = f"{branch.short} forks from {base.short} at {_short(fork)}"
    return label, VERIFIED if fork == full else CONTRADICTED, fact


def _exists_at(ctx, a: Assertion, commits, texts, blobs):
    refname = "HEAD" if a.detail == "HEAD" else getattr(ctx.resolve_ref(a.detail or ""), "refname", None)
    label = f"{a.target} on {a.detail}"
    if refname is None:
        return label, UNVERIFIED, f"{a.detail} is not a branch or tag here: whether it has {a.target} is not checked"
    there = ctx.objects([f"{refname}:{a.target}"]).get(f"{refname}:{a.target}") is not None
    fact = f"{a.detail} {'has' if there else 'has no'} {a.target}"
    return label, VERIFIED if there != a.negated else CONTRADICTED, fact


JUDGES = {"authored": _authored, "before": _before, "changed_since": _changed_since, "latest_tag": _latest_tag,
          "reverted": _reverted, "reverts": _reverts, "mentions": _mentions, "in_release": _in_release, "reached": _reached, "created": _created, "renamed": _renamed,
          "last_changed": _last_changed, "exists_at": _exists_at, "commit_count": _commit_count, "fork_point": _fork_point}
