"""Each git verifier in both directions, on a real repository."""

import subprocess

from cc_hooks.claims.model import CONTRADICTED, GIT, UNVERIFIED, VERIFIED


def test_sha_that_exists_on_head_is_verified(repo):
    sha = repo.commit("Fix login loop")
    claim = repo.check(f"Fix landed in `{sha[:7]}`.")
    assert claim.kind == GIT
    assert claim.verdict == VERIFIED
    assert "reachable from HEAD (main)" in claim.evidence and "Fix login loop" in claim.evidence


def test_sha_that_does_not_exist_is_contradicted(repo):
    claim = repo.check("Fix landed in `9b1d2e0`.")
    assert claim.verdict == CONTRADICTED
    assert claim.evidence == "no commit 9b1d2e0 in this repository"


def test_sha_on_another_branch_is_placed_not_contradicted(repo):
    repo.git("checkout", "-q", "-b", "side")
    sha = repo.commit("Side work")
    repo.git("checkout", "-q", "main")
    claim = repo.check(f"Side work landed in `{sha[:7]}`.")
    assert claim.verdict == VERIFIED
    assert "exists on side (not on HEAD (main))" in claim.evidence


def test_sha_not_on_the_branch_the_sentence_names_is_contradicted(repo):
    repo.git("checkout", "-q", "-b", "side")
    sha = repo.commit("Side work")
    repo.git("checkout", "-q", "main")
    for text in (f"Side work landed on main in `{sha[:7]}`.", f"Side work is in `{sha[:7]}` on this branch."):
        claim = repo.check(text)
        assert claim.verdict == CONTRADICTED, text
        assert "exists but is not reachable from" in claim.evidence and "it is on side" in claim.evidence


def test_sha_on_the_named_branch_is_checked_against_that_branch(repo):
    repo.git("checkout", "-q", "-b", "side")
    sha = repo.commit("Side work")
    repo.git("checkout", "-q", "main")
    assert repo.check(f"On branch `side`, `{sha[:7]}` has the work.").verdict == VERIFIED
    other = repo.commit("Main only")
    assert repo.check(f"On branch `side`, `{other[:7]}` has the work.").verdict == CONTRADICTED


def test_branch_exists_or_not(repo):
    repo.git("branch", "feature")
    assert repo.check("Work continues on branch `feature`.").verdict == VERIFIED
    claim = repo.check("Work continues on branch `nothere`.")
    assert claim.verdict == CONTRADICTED and "no branch" in claim.evidence


def test_branch_tip_matches_or_moved(repo):
    repo.git("checkout", "-q", "-b", "fix/refresh")
    old = repo.commit("Refresh fix")
    assert repo.check(f"Branch `fix/refresh` at `{old[:7]}`.").verdict == VERIFIED
    new = repo.commit("More refresh")
    claim = repo.check(f"Branch `fix/refresh` at `{old[:7]}`.")
    assert claim.verdict == CONTRADICTED
    assert f"fix/refresh is at {new[:7]}" in claim.evidence and "moved on" in claim.evidence


def test_merged_and_not_merged(repo):
    repo.git("checkout", "-q", "-b", "topic")
    sha = repo.commit("Topic work")
    repo.git("checkout", "-q", "main")
    assert repo.check("Branch `topic` not merged into `main`.").verdict == VERIFIED
    assert repo.check(f"`{sha[:7]}` merged into `main`.").verdict == CONTRADICTED
    repo.git("merge", "-q", "--no-ff", "-m", "Merge topic", "topic")
    assert repo.check(f"`{sha[:7]}` merged into `main`.").verdict == VERIFIED
    claim = repo.check("Branch `topic` not merged into `main`.")
    assert claim.verdict == CONTRADICTED and "is an ancestor of main" in claim.evidence


def test_working_tree_clean_both_ways(repo):
    assert repo.check("Working tree clean.").verdict == VERIFIED
    repo.write("README.md", "changed\n")
    claim = repo.check("Working tree clean.")
    assert claim.verdict == CONTRADICTED and "1 modified (e.g. README.md)" in claim.evidence
    assert repo.check("There are uncommitted changes.").verdict == VERIFIED


def test_staged_both_ways(repo):
    assert repo.check("The changes are staged.").verdict == CONTRADICTED
    repo.write("new.txt", "x\n")
    repo.git("add", "new.txt")
    claim = repo.check("The changes are staged.")
    assert claim.verdict == VERIFIED and "new.txt" in claim.evidence


def test_pushed_both_ways(repo, tmp_path):
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    repo.git("remote", "add", "origin", str(remote))
    repo.git("push", "-q", "-u", "origin", "main")
    assert repo.check("Everything is pushed.").verdict == VERIFIED
    sha = repo.commit("Local only")
    claim = repo.check("Everything is pushed.")
    assert claim.verdict == CONTRADICTED and "1 commit(s) ahead of origin/main" in claim.evidence
    assert repo.check("Not pushed yet.").verdict == VERIFIED
    assert repo.check(f"`{sha[:7]}` is pushed.").verdict == CONTRADICTED
    repo.git("push", "-q")
    assert repo.check(f"`{sha[:7]}` is pushed.").verdict == VERIFIED


def test_pushed_without_upstream_is_contradicted(repo):
    claim = repo.check("Pushed.")
    assert claim.verdict == CONTRADICTED and "no upstream" in claim.evidence


def test_merge_claim_without_subject_is_unverified(repo):
    claim = repo.check("Merged into `main`.")
    assert claim.verdict == UNVERIFIED


def test_future_work_asserts_no_git_state(repo):
    """A summary's "the user wants it committed and pushed" is a plan, not a claim that it is pushed."""
    assert repo.check("Committed and pushed.").verdict == CONTRADICTED  # no upstream
    for plan in ("The user wants all tasks committed and pushed.", "Next we will push and merge into `main`."):
        claim = repo.check(plan)
        assert claim.assertions == [] and claim.verdict != CONTRADICTED, plan
    assert repo.check("We will revert `deadbee1`.").verdict == CONTRADICTED  # a named commit must still exist
    assert "future work" in repo.check("Next we will create `docs/api.md`.").evidence


def test_a_merged_and_deleted_branch_is_not_contradicted(repo):
    repo.git("checkout", "-q", "-b", "fix/x")
    repo.commit("Fix x")
    repo.git("checkout", "-q", "main")
    repo.git("merge", "-q", "--no-ff", "-m", "Merge fix/x", "fix/x")
    assert repo.check("Merged `fix/x` into `main`.").verdict == VERIFIED
    repo.git("branch", "-q", "-d", "fix/x")
    claim = repo.check("Merged `fix/x` into `main`.")
    assert claim.verdict == UNVERIFIED and "often deleted" in claim.evidence
    assert repo.check("Work is on branch `fix/x`.").verdict == CONTRADICTED  # no merge claimed: it is gone
