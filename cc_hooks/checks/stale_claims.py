"""`stale-claims`: statements HEAD contradicts (methodology §2 item 5), in the
dashboard and in the markdown files the session touched: edited according to
the transcript, changed since the last checkpoint, or tracked and changed in the
work tree (an untracked file the session did not write is not the session's, and
nothing inside a dependency tree is read: ``cc_hooks.deptrees``).
The ledgers are history (old paths and shas are expected there) and
COLDSTART_QUESTIONS.md has its own check, so neither is swept here. The
dashboard's queue and git claims are reported by `dashboard`."""

from __future__ import annotations

from cc_hooks.checks.result import verdict

ID = "stale-claims"
MARKDOWN = (".md", ".markdown", ".mdx", ".rst", ".txt")
MAX_DOCS = 30
MAX_DOC_BYTES = 256 * 1024


def run(ctx):
    from cc_hooks.checks.claims_adapter import contradicted, text_claims
    from cc_hooks.checks.dashboard import OWN_KINDS, claim_findings
    from cc_hooks.fsutil import read_repo_bytes

    findings = [finding for kind, finding in claim_findings(ctx) if kind not in OWN_KINDS]
    docs = touched_docs(ctx)
    claims = []
    for path in docs:
        try:
            text = read_repo_bytes(ctx.root / path, ctx.root, MAX_DOC_BYTES, truncate=True).decode("utf-8", errors="replace")
        except OSError:
            continue
        claims += text_claims(text, path)
    findings += [finding for _, finding in contradicted(ctx, claims)]
    swept = f"the dashboard and {len(docs)} touched doc(s)" if docs else "the dashboard (no touched docs)"
    return verdict(ID, findings, f"nothing in {swept} contradicts HEAD", "{n} statement(s) HEAD contradicts", docs=docs)


def touched_docs(ctx) -> list[str]:
    """The markdown a sweep reads: files the session edited, tracked files changed since the last
    checkpoint or in the work tree; never an untracked file the session did not write (a venv's or
    a package's docs), never one inside a dependency tree (``cc_hooks.deptrees``)."""
    from cc_hooks.checks.session_sweep import session_edits
    from cc_hooks.deptrees import sweepable

    skip = {ctx.config.record.symptoms, ctx.config.record.decisions, ctx.config.record.questions, ctx.dashboard_path}
    paths = list(session_edits(ctx))
    if ctx.since:
        paths += ctx.git("diff", "--name-only", "-z", ctx.since, "HEAD").split("\0")
    paths += sorted(path for path, status in ctx.worktree["changes"].items() if status != "??")
    docs = [p for p in dict.fromkeys(paths) if p and p.lower().endswith(MARKDOWN) and p not in skip]
    docs = [p for p in sweepable(ctx.root, docs) if (ctx.root / p).is_file()]
    return docs[:MAX_DOCS]
