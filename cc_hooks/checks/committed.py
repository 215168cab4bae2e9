"""`committed`: the record files have no uncommitted changes, and the branch is
not ahead of its upstream (methodology §2 item 9: "commit and push")."""

from __future__ import annotations

from cc_hooks.checks.result import Finding, verdict

ID = "committed"
_STATES = {"M": "modified", "A": "added, not committed", "D": "deleted", "R": "renamed", "?": "untracked", "U": "unmerged"}


def run(ctx):
    paths = sorted(set(ctx.record_paths.values()))
    findings = [Finding(f"{describe(code)}; commit it", file=path) for code, path in _status(ctx, paths)]
    ahead, upstream = _ahead(ctx)
    if ahead:
        branch = ctx.head.branch or "HEAD"
        findings.append(Finding(f"branch `{branch}` is {ahead} commit(s) ahead of `{upstream}`; push it", commit=ctx.head.sha))
    note = f"pushed to `{upstream}`" if upstream else "no upstream configured"
    return verdict(ID, findings, f"record files committed; {note}", "{n} uncommitted or unpushed item(s)")


def _status(ctx, paths: list[str]) -> list[tuple[str, str]]:
    out = ctx.git("status", "--porcelain=v1", "-z", "--untracked-files=all", "--", *paths)
    entries, records = [], out.split("\0")
    index = 0
    while index < len(records):
        record = records[index]
        index += 1
        if len(record) < 4:
            continue
        code, path = record[:2], record[3:]
        if "R" in code or "C" in code:
            index += 1  # the rename's source path follows
        entries.append((code, path))
    return entries


def describe(code: str) -> str:
    for char in code.strip() or "?":
        if char in _STATES:
            return _STATES[char]
    return f"status {code!r}"


def _ahead(ctx) -> tuple[int, str | None]:
    if ctx.head.sha is None or ctx.head.branch is None:
        return 0, None
    upstream = ctx.git("rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{upstream}", check=False).strip()
    if not upstream or upstream.startswith("fatal"):
        return 0, None
    count = ctx.git("rev-list", "--count", f"{upstream}..HEAD").strip()
    return (int(count) if count.isdigit() else 0), upstream
