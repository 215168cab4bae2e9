"""`tracked-homes`: the gitignore trap (methodology §2 item 3).

The record files and the ``Dashboard:`` declaration must have tracked homes (a
CLAUDE.md that is gitignored or untracked needs a tracked echo of the line), and
no file the record points to may exist only as an ignored or untracked file: a
fresh clone would not have it.
"""

from __future__ import annotations

from cc_hooks.checks.result import Finding, verdict

ID = "tracked-homes"
# Pointers into these are environment, not notes; they are not homes of facts.
_ENVIRONMENT_PARTS = {".venv", "venv", "node_modules", "__pycache__", ".git", ".tox", ".mypy_cache", ".pytest_cache", "dist", "build"}


def run(ctx):
    findings = record_file_findings(ctx) + declaration_findings(ctx) + pointer_findings(ctx)
    return verdict(ID, findings, "record files, the dashboard declaration and what the record points to are tracked",
                   "{n} record home(s) a fresh clone would not have")


def record_file_findings(ctx) -> list[Finding]:
    paths = ctx.record_paths
    ignored = ctx.ignored(paths.values())
    findings = []
    for role, path in paths.items():
        if path in ignored:
            findings.append(Finding(f"the {role} file is gitignored: a fresh clone does not have it (gitignore trap)", file=path))
        elif (ctx.root / path).exists() and path not in ctx.tracked:
            findings.append(Finding(f"the {role} file is not tracked; `git add` and commit it", file=path))
    return findings


def declaration_findings(ctx) -> list[Finding]:
    _, record_findings = ctx.declaration
    keep = {"dashboard-gitignore-trap", "dashboard-declaration-untracked"}
    return [Finding(f.message, file=f.file, line=f.line) for f in record_findings if f.rule in keep]


def pointer_findings(ctx) -> list[Finding]:
    """Paths the record names that exist here but only as ignored/untracked files."""
    from cc_hooks.fsutil import read_repo_bytes

    named: dict[str, tuple[str, int]] = {}
    for path in sorted(set(ctx.record_paths.values())):
        try:
            data = read_repo_bytes(ctx.root / path, ctx.root)
        except OSError:
            continue
        for value, number in _named_paths(ctx.state, data):
            if not _environment(value) and value not in ctx.tracked:
                named.setdefault(value, (path, number))
    present = [p for p in named if (ctx.root / p).is_file()]
    if not present:
        return []
    ignored = ctx.ignored(present)
    findings = []
    for target in present:
        source, line = named[target]
        state = "gitignored" if target in ignored else "untracked"
        findings.append(Finding(f"points to `{target}`, which is {state}: a fresh clone lacks it; commit it or echo "
                                f"what it holds in a tracked file", file=source, line=line))
    return findings


def _environment(path: str) -> bool:
    return bool(_ENVIRONMENT_PARTS.intersection(path.split("/")))


def _named_paths(state, data: bytes) -> list[tuple[str, int]]:
    """(path, line) of every path a record file names, remembered by content (the
    address classifier costs ~40% of PreCompact on a 1,000-entry SYMPTOMS.md)."""
    from cc_hooks.memo import remember

    return [(value, number) for value, number in remember(state, "paths", [data], lambda: _scan_paths(data))]


def _scan_paths(data: bytes) -> list[tuple[str, int]]:
    from cc_hooks.claims.addresses import PATH, extract_addresses

    return [
        (address.value.rstrip("/"), number)
        for number, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1)
        for address in extract_addresses(line)
        if address.kind == PATH
    ]
