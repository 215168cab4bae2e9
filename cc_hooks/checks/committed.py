"""`committed`: the record files have no uncommitted changes, and the branch is
not ahead of its upstream (methodology §2 item 9: "commit and push")."""

from __future__ import annotations

from cc_hooks.checks.result import Finding, verdict

ID = "committed"
_STATES = {"M": "modified", "A": "added, not committed", "D": "deleted", "R": "renamed", "?": "untracked", "U": "unmerged"}


def run(ctx):
    paths = set(ctx.record_paths.values())
    changes = ctx.worktree["changes"]
    findings = [Finding(f"{describe(changes[path])}; commit it", file=path) for path in sorted(paths & set(changes))]
    ahead, upstream = _ahead(ctx)
    if ahead:
        branch = ctx.head.branch or "HEAD"
        findings.append(Finding(f"branch `{branch}` is {ahead} commit(s) ahead of `{upstream}`; push it", commit=ctx.head.sha))
    note = f"pushed to `{upstream}`" if upstream else "no upstream configured"
    return verdict(ID, findings, f"record files committed; {note}", "{n} uncommitted or unpushed item(s)")


def describe(code: str) -> str:
    for char in code.strip() or "?":
        if char in _STATES:
            return _STATES[char]
    return f"status {code!r}"


def _ahead(ctx) -> tuple[int, str | None]:
    if ctx.head.sha is None or ctx.head.branch is None:
        return 0, None
    return ctx.worktree["ahead"], ctx.worktree["upstream"]
