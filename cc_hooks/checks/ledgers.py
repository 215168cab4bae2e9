"""`ledgers`: SYMPTOMS.md and DECISIONS.md exist, are tracked, validate, and are
append-only since the last checkpoint (HEAD vs the working tree when there is none).

What is a pure function of the files' bytes (the validation findings, the shas
an entry names, the append-only comparison of two versions) is remembered by
those bytes (``cc_hooks.memo``); what depends on the repository is asked live,
in one ``cat-file --batch-check`` for both ledgers: do the named shas exist, and
which blob is each ledger at the base. A ledger whose work-tree bytes are that
blob needs no comparison at all.
"""

from __future__ import annotations

from cc_hooks.checks.result import CheckResult, Finding, could_not_check, verdict

ID = "ledgers"
UNCHECKED = "append-only-unchecked"


def run(ctx) -> CheckResult:
    from cc_hooks.git import GitError, object_types

    record = ctx.config.record
    base = ctx.since or "HEAD"
    ledgers = []  # (path, role, findings so far, the validation or None when the file is missing)
    for path, role in ((record.symptoms, "symptoms"), (record.decisions, "decisions")):
        if not (ctx.root / path).is_file():
            ledgers.append((path, role, [Finding(f"{path} does not exist (`cc-hooks init` creates it)", file=path)], None))
            continue
        first = [] if path in ctx.tracked else [Finding(f"{path} is not tracked; `git add` and commit it", file=path)]
        ledgers.append((path, role, first, validation(ctx, path, role)))
    probes = [f"{base}^{{commit}}"] + [f"{base}:{_rel(ctx, path)}" for path, _, _, checked in ledgers if checked]
    named = [sha for *_, checked in ledgers if checked for sha, _, _ in checked["shas"]]
    try:
        types = object_types(ctx.root, probes + named, timeout=ctx.timeout())
    except GitError as exc:
        types = exc  # each ledger says what it could not check, as the unbatched checks would

    findings: list[Finding] = []
    unchecked: list[str] = []
    for path, role, first, checked in ledgers:
        findings += first
        if checked is None:
            continue
        findings += [Finding(message, file=file, line=line) for message, file, line in checked["findings"]]
        findings += [_convert(f) for f in _sha_findings(ctx, path, checked["shas"], types) if f.severity == "error"]
        for rule, severity, message, file, line in _append_only(ctx, path, base, types):
            if rule == UNCHECKED:
                unchecked.append(message)
            elif severity == "error":
                findings.append(Finding(message + f" (append-only since {base[:12]}: amend by appending a new entry)",
                                        file=file, line=line))
    since = f"since checkpoint {base[:12]}" if ctx.since else "since HEAD"
    if unchecked and not findings:
        return could_not_check(ID, "; ".join(unchecked))
    return verdict(ID, findings, f"both ledgers tracked, valid and append-only {since}", "{n} ledger problem(s)")


def validation(ctx, path: str, role: str) -> dict:
    """{"findings": [[message, file, line], ...] (errors only), "shas": [[sha, line, slug], ...]} of the
    ledger's text, remembered by the text: an unchanged ledger is not parsed again."""
    from cc_hooks.memo import remember
    from cc_hooks.record.ledger import read_ledger

    text, problems = read_ledger(ctx.root / path, path, root=ctx.root)
    errors = [[f.message, f.file, f.line] for f in problems if f.severity == "error"]
    if text is None:
        return {"findings": errors, "shas": []}
    parsed = remember(ctx.state, f"ledger-{role}", [path, text], lambda: _validate(role, path, text))
    return {"findings": errors + parsed["findings"], "shas": parsed["shas"]}


def _validate(role: str, path: str, text: str) -> dict:
    if role == "symptoms":
        from cc_hooks.record.symptoms import named_shas, parse_symptoms

        ledger = parse_symptoms(text, path)
        found, shas = ledger.findings, [list(named) for named in named_shas(ledger)]
    else:
        from cc_hooks.record.decisions import parse_decisions

        found, shas = parse_decisions(text, path).findings, []
    return {"findings": [[f.message, f.file, f.line] for f in found if f.severity == "error"], "shas": shas}


def _sha_findings(ctx, path: str, shas: list, types):
    from cc_hooks.record.findings import finding
    from cc_hooks.record.ledger import sha_findings

    if not shas:
        return []
    if isinstance(types, Exception):
        return [finding(path, None, "sha-unchecked", f"commits not checked: {types}", severity="warning")]
    return sha_findings(path, [tuple(named) for named in shas], types)


def _append_only(ctx, path: str, base: str, types) -> list[list]:
    """[rule, severity, message, file, line] of every append-only finding for ``path``."""
    from cc_hooks.memo import remember
    from cc_hooks.record.append_only import blob_id

    rel = _rel(ctx, path)
    if isinstance(types, Exception) or types.get(f"{base}^{{commit}}") is None:
        return _slow_append_only(ctx, path, base)  # it says why the base could not be read (or that HEAD is unborn)
    blob = types.get(f"{base}:{rel}")
    if blob is None:
        return []  # the ledger is new since the base: nothing to protect
    sha, kind = blob.split()
    try:
        from cc_hooks.fsutil import read_repo_bytes

        new = read_repo_bytes(ctx.root / rel, ctx.root)
    except OSError:
        return _slow_append_only(ctx, path, base)
    if kind != "blob":
        return _slow_append_only(ctx, path, base)
    if blob_id(new, sha) == sha:
        return []  # the same bytes as the base's: nothing was edited
    from cc_hooks.git import GitError, cat_blobs

    try:
        old = cat_blobs(ctx.root, [sha], timeout=ctx.timeout()).get(sha)
    except GitError:
        old = None
    if old is None:
        return _slow_append_only(ctx, path, base)
    return remember(ctx.state, "append-only", [rel, base, old, new], lambda: _compare(rel, base, old, new))


def _compare(rel: str, base: str, old: bytes, new: bytes) -> list[list]:
    from pathlib import PurePosixPath

    from cc_hooks.record.append_only import compare_versions, revision_text

    growth = "symptom" in PurePosixPath(rel).name.lower()
    found = compare_versions(revision_text(old), new.decode("utf-8", errors="replace"), rel, growth=growth, base_label=base)
    return [_row(f) for f in found]


def _slow_append_only(ctx, path: str, base: str) -> list[list]:
    from cc_hooks.record.append_only import check_append_only

    return [_row(f) for f in check_append_only(ctx.root, path, base=base)]


def _row(f) -> list:
    return [f.rule, f.severity, f.message, f.file, f.line]


def _rel(ctx, path: str) -> str:
    from cc_hooks.record.append_only import _git_path

    return _git_path(ctx.root, path)


def _convert(f, suffix: str = "") -> Finding:
    return Finding(f.message + suffix, file=f.file, line=f.line)
