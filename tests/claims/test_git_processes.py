"""How many git processes verification costs: a fixed number per kind of fact, shared where it can be."""

from __future__ import annotations

from cc_hooks.claims.context import VerifyContext
from cc_hooks.claims.extract import claim_from_line
from cc_hooks.claims.model import CONTRADICTED, UNVERIFIED, VERIFIED
from cc_hooks.claims.rehydration import build_rehydration
from cc_hooks.claims.verify import verify_claims
from cc_hooks.runtime import Deadline


def test_objects_are_asked_once(repo, git_verbs):
    ctx = VerifyContext(repo.path, None, Deadline(20))
    head = repo.sha("HEAD")
    readme = repo.git("rev-parse", "HEAD:README.md").strip()
    assert ctx.objects([head, "HEAD:README.md"]) == {head: (head, "commit"), "HEAD:README.md": (readme, "blob")}
    assert ctx.objects(["HEAD:README.md", "abc0007"]) == {"HEAD:README.md": (readme, "blob"), "abc0007": None}
    assert ctx.objects([head, "abc0007"]) == {head: (head, "commit"), "abc0007": None}
    assert git_verbs == ["cat-file", "cat-file"]  # the second only for abc0007; the third for nothing


def test_verification_asks_every_verifier_s_objects_in_one_process(repo, git_verbs):
    head = repo.sha("HEAD")
    claims = [claim_from_line(f"Landed in `{head[:8]}`.", "next_steps.md", 3), claim_from_line("See `README.md:1`.", "next_steps.md", 4)]
    verify_claims(repo.path, claims, None, Deadline(20))
    assert [c.verdict for c in claims] == [VERIFIED, VERIFIED]
    assert git_verbs.count("cat-file") == 1


def test_targets_at_one_commit_share_an_ancestry_process(repo, git_verbs):
    base = repo.sha("HEAD")
    repo.git("checkout", "-q", "-b", "side")
    side = repo.commit("side work")
    repo.git("checkout", "-q", "main")
    main = repo.commit("main work")
    ctx = VerifyContext(repo.path, None, Deadline(20))
    ctx.refs(), ctx.status()
    git_verbs.clear()
    asks = {"HEAD": {base, side, main}, "refs/heads/main": {side}, "refs/heads/side": {base, side, main}}
    assert ctx.outside(asks) == {"HEAD": {side}, "refs/heads/main": {side}, "refs/heads/side": {main}}
    assert git_verbs == ["rev-list", "rev-list"]  # HEAD and main are one commit; side is another
    assert ctx.outside({"refs/heads/side": {side}}) == {"refs/heads/side": set()}
    assert git_verbs == ["rev-list", "rev-list"]  # a target's own tip needs no process


def test_a_target_not_read_before_still_gets_its_own_process(repo, git_verbs):
    base = repo.sha("HEAD")
    other = repo.commit("later")
    ctx = VerifyContext(repo.path, None, Deadline(20))
    assert ctx.outside({"HEAD~1": {base, other}, "HEAD": {base, other}}) == {"HEAD~1": {other}, "HEAD": set()}
    assert git_verbs == ["rev-list", "rev-list"]


TEMPLATES = [
    "Change landed in `{sha}`.",
    "Branch `feature` at `{feature}`, not merged into `main`.",
    "Module code in `src/mod{m}.py:2`.",
    "Working tree clean.",
    "Awaiting the user's ruling on widget policy {i}.",
    "Staging runs v{i}. (probe: staging)",
    "Notes about item {i} with nothing to check.",
    "Missing commit `{missing}` is claimed.",
]


def test_the_benchmark_dashboard_costs_nine_git_processes(repo, git_verbs):
    """The shape of the 200-claim benchmark fixture (bench/bench_rehydrate.py ``dashboard``)."""
    shas = [repo.commit(f"Change {n}", {f"src/mod{n}.py": f"VALUE = {n}\nprint(VALUE)\n"}) for n in range(6)]
    repo.git("branch", "feature", shas[2])
    repo.commit("record", {"CLAUDE.md": "# demo\nDashboard: file next_steps.md\n", "DECISIONS.md": "# Decision Ledger\n"})
    state = [
        "- " + TEMPLATES[i % 8].format(sha=shas[i % 6][:8], feature=shas[2][:8], m=i % 6, i=i, missing="%07x" % (0xABC0000 + i))
        for i in range(150)
    ]
    queued = [f"- 2025-12-01 — Refactor module {i % 6} helpers number {i}" for i in range(50)]
    text = "\n".join(["# Next steps", "", "## CURRENT STATE — 2025-12-01", "Resume point: continue on `main`.", *state, "", "## QUEUED", *queued, ""])
    repo.commit("dashboard", {"next_steps.md": text})
    git_verbs.clear()
    result = build_rehydration(repo.path, "startup", repo.config(), Deadline(30))
    assert sorted(git_verbs) == sorted(
        ["for-each-ref", "status", "cat-file", "rev-list", "log", "check-ignore", "grep", "log", "rev-list"]
    )  # refs, work tree, objects, ancestry, subjects, ignores, line counts, queue window, staleness
    assert result.git_calls == 9
    # as on the benchmark fixture; the 50 pending queue items with no landing are UNVERIFIED, not VERIFIED (issue 43)
    assert result.counts == {VERIFIED: 77, CONTRADICTED: 37, UNVERIFIED: 87}


def test_ancestry_is_remembered_by_commit_and_not_walked_again_after_a_new_commit(repo, git_verbs):
    """`rev-list <cited> --not HEAD` walks back to the oldest commit cited; once a cited commit is known
    to be an ancestor of HEAD it is one of every descendant (issue 22): only new citations are asked."""
    (repo.path / ".git" / "cc-hooks").mkdir()
    old = repo.sha("HEAD")
    for i in range(5):
        repo.commit(f"work {i}")
    repo.git("checkout", "-q", "-b", "side")
    side = repo.commit("side work")
    repo.git("checkout", "-q", "main")

    def outside(shas):
        ctx = VerifyContext(repo.path, None, Deadline(20))
        ctx.refs(), ctx.status()
        git_verbs.clear()
        return ctx.outside({"HEAD": set(shas)})

    assert outside([old, side]) == {"HEAD": {side}}
    assert git_verbs.count("rev-list") == 1
    repo.commit("one more")
    assert outside([old, side]) == {"HEAD": {side}}  # the side commit is asked again: it may be merged since
    assert git_verbs.count("rev-list") == 1 and git_verbs.count("merge-base") <= 1
    assert outside([old]) == {"HEAD": set()}
    assert "rev-list" not in git_verbs
    repo.git("merge", "-q", "--no-edit", "side")
    assert outside([old, side]) == {"HEAD": set()}
    repo.git("reset", "-q", "--hard", "HEAD~1")  # the merge undone: the remembered tip is no ancestor any more
    assert outside([old, side]) == {"HEAD": {side}}
