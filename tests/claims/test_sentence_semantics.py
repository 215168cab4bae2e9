"""What a sentence claims, checked in both directions for each class of issue 15:
remote-only branches, things said to be gone, where HEAD is, which commit did the
work, external words beside checkable addresses, short shas, commits on other branches."""

from __future__ import annotations

import subprocess

import pytest

from cc_hooks.claims.model import CONTRADICTED, UNVERIFIED, VERIFIED



@pytest.fixture
def Repo(repo):
    return type(repo)  # tests/claims/conftest.py's real-repository helper


@pytest.fixture
def clone(tmp_path, Repo):
    """A fresh ``git clone``: every branch but the default one exists only as ``origin/<name>``."""
    upstream = Repo(tmp_path / "upstream")
    upstream.commit("Initial commit", {"README.md": "# demo\n", "src/nose.py": "NOSE = 1\n", "src/db.py": "def rows_where():\n    pass\n"})
    upstream.git("checkout", "-q", "-b", "trogon")
    trogon = upstream.commit("Add the trogon TUI", {"src/tui.py": "x\n"})
    upstream.git("checkout", "-q", "-b", "3.x", "main")
    backport = upstream.commit("Backport the encoding fix to 3.x", {"src/enc.py": "x\n"})
    upstream.git("checkout", "-q", "main")
    upstream.git("rm", "-q", "src/nose.py")
    upstream.git("commit", "-q", "-m", "Remove nose support")
    removal = upstream.sha("HEAD")
    views = upstream.commit(
        "Fix no such table error when transforming a table referenced by a view",
        {"src/db.py": "def rows_where():\n    pass\n\ndef transform():\n    drop_views()\n"},
    )
    delete_fix = upstream.commit(
        "delete_where() no longer leaves an open transaction",
        {"src/db.py": "def rows_where():\n    pass\n\ndef transform():\n    drop_views()\n\ndef delete_where():\n    commit()\n"},
    )
    upstream.git("checkout", "-q", "-b", "claude/refactor-db")
    refactor = upstream.commit("Refactor the db module", {"src/db2.py": "x\n"})
    upstream.git("checkout", "-q", "main")
    subprocess.run(["git", "clone", "-q", str(upstream.path), str(tmp_path / "clone")], check=True)
    repo = Repo.__new__(Repo)
    repo.path = tmp_path / "clone"
    repo.git("config", "user.name", "Test User")
    repo.git("config", "user.email", "test@example.com")
    repo.shas = dict(trogon=trogon, backport=backport, removal=removal, views=views, delete_fix=delete_fix, refactor=refactor)
    return repo


# --- 1. remote-only branches ---------------------------------------------------------


@pytest.mark.parametrize("text", ["Branch `trogon` exists.", "Work continues on branch `trogon`.", "The TUI work is on `origin/trogon`."])
def test_a_branch_that_exists_only_on_the_remote_is_verified_and_says_which_ref(clone, text):
    claim = clone.check(text)
    assert claim.verdict == VERIFIED, claim.evidence
    assert "origin/trogon" in claim.evidence


def test_a_branch_on_no_remote_either_is_contradicted(clone):
    claim = clone.check("Branch `toucan` exists.")
    assert claim.verdict == CONTRADICTED and "no branch, tag or remote branch named toucan" in claim.evidence


def test_a_remote_only_branch_tip_is_compared_by_identity(clone):
    tip = clone.shas["refactor"][:7]
    assert clone.check(f"On branch `claude/refactor-db` at `{tip}`.").verdict == VERIFIED
    old = clone.shas["delete_fix"][:7]
    claim = clone.check(f"On branch `claude/refactor-db` at `{old}`.")
    assert claim.verdict == CONTRADICTED and "moved on" in claim.evidence


# --- 2. things said to be gone -------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "`src/nose.py` is gone.",
        "`src/nose.py` was deleted.",
        "`src/nose.py` no longer exists.",
        "`src/nose.py` does not exist anymore.",
        "We dropped `src/nose.py`.",
        "Nose support was removed in `{removal}`; `src/nose.py` is gone.",
        "`src/nose.py` was removed in `{removal}`.",
    ],
)
def test_a_path_said_to_be_gone_that_is_gone_is_verified(clone, text):
    claim = clone.check(text.format(removal=clone.shas["removal"][:9]))
    assert claim.verdict == VERIFIED, claim.evidence


@pytest.mark.parametrize(
    "text",
    ["`src/db.py` is gone.", "`src/db.py` was deleted.", "`src/db.py` no longer exists.", "We removed `src/db.py`."],
)
def test_a_path_said_to_be_gone_that_still_exists_is_contradicted(clone, text):
    claim = clone.check(text)
    assert claim.verdict == CONTRADICTED and "still exists at HEAD" in claim.evidence


def test_a_removal_credited_to_the_wrong_commit_is_contradicted_and_names_the_right_one(clone):
    claim = clone.check(f"`src/nose.py` was removed in `{clone.shas['views'][:7]}`.")
    assert claim.verdict == CONTRADICTED
    assert "did not remove it" in claim.evidence and clone.shas["removal"][:7] in claim.evidence


def test_removing_something_from_a_file_says_the_file_is_still_there(clone):
    assert clone.check("Removed the debug print from `src/db.py`.").verdict == VERIFIED
    claim = clone.check("Removed the debug print from `src/nose.py`.")
    assert claim.verdict == CONTRADICTED and "does not exist at HEAD" in claim.evidence


def test_a_replacement_names_one_path_gone_and_one_present(clone):
    assert clone.check("Now uses `src/db.py` in place of `src/nose.py`.").verdict == VERIFIED
    assert clone.check("Renamed `src/nose.py` to `src/db.py`.").verdict == VERIFIED
    assert clone.check("Now uses `src/nose.py` in place of `src/db.py`.").verdict == CONTRADICTED


def test_negated_removal_claims_the_path_exists(clone):
    assert clone.check("`src/db.py` was not removed.").verdict == VERIFIED
    assert clone.check("`src/nose.py` is still there, not deleted.").verdict == CONTRADICTED


def test_a_deleted_branch(clone):
    assert clone.check("Branch `toucan` was deleted.").verdict == VERIFIED
    assert clone.check("Branch `trogon` was deleted.").verdict == CONTRADICTED


# --- 3. where HEAD is ------------------------------------------------------------------


@pytest.mark.parametrize("text", ["HEAD is at `{sha}`.", "We are at `{sha}` on `main`.", "Currently at `{sha}`.", "HEAD: `{sha}`."])
def test_head_position_compares_identity(clone, text):
    head, older = clone.sha("HEAD"), clone.shas["views"]
    assert clone.check(text.format(sha=head[:7])).verdict == VERIFIED
    claim = clone.check(text.format(sha=older[:7]))
    assert claim.verdict == CONTRADICTED, claim.evidence
    assert f"HEAD is at {head[:7]}" in claim.evidence and "moved on" in claim.evidence


def test_head_position_on_the_wrong_branch_is_contradicted(clone):
    claim = clone.check(f"We are at `{clone.sha('HEAD')[:7]}` on `trogon`.")
    assert claim.verdict == CONTRADICTED and "on branch main, not trogon" in claim.evidence


# --- 4. which commit did the work ---------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "The delete_where() open-transaction fix landed in `{delete_fix}`.",
        "`{delete_fix}` fixed the open transaction left by `delete_where()`.",
        "The views fix (no such table when transforming) landed in `{views}`.",
    ],
)
def test_a_commit_that_does_the_work_verifies_the_attribution(clone, text):
    claim = clone.check(text.format(**{k: v[:7] for k, v in clone.shas.items()}))
    assert claim.verdict == VERIFIED, claim.evidence


def test_a_real_commit_credited_with_other_work_is_contradicted_and_the_right_one_named(clone):
    claim = clone.check(f"The delete_where() open-transaction fix landed in `{clone.shas['views'][:7]}`.")
    assert claim.verdict == CONTRADICTED, claim.evidence
    assert clone.shas["delete_fix"][:7] in claim.evidence or "does not touch delete_where" in claim.evidence


def test_a_credited_code_name_the_commit_never_touches_is_contradicted(clone):
    claim = clone.check(f"`{clone.shas['backport'][:7]}` fixed `rows_where()`.")
    assert claim.verdict == CONTRADICTED and "does not touch rows_where" in claim.evidence


def test_a_sha_as_a_point_of_reference_is_not_an_attribution(clone):
    views = clone.shas["views"][:7]
    for text in (f"Reverted the cache change on top of `{views}`.", f"Rebased onto `{views}`.", f"Nothing changed in docs since `{views}`."):
        claim = clone.check(text)
        assert not any(c.by == "attribution" for c in claim.checks), text


# --- 6. external words beside addresses ------------------------------------------------


def test_running_a_test_file_is_not_external_state(clone):
    claim = clone.check("Next is re-running `src/db.py` against `README.md:1`.")
    assert claim.verdict == VERIFIED, claim.evidence


def test_a_real_external_statement_beside_a_commit_stays_unverified(clone):
    claim = clone.check(f"The views fix landed in `{clone.shas['views'][:7]}` and is deployed to staging.")
    assert claim.verdict == UNVERIFIED and "no probe" in claim.evidence


# --- 7. short shas -------------------------------------------------------------------------


def test_a_unique_short_sha_resolves(clone):
    sha = clone.shas["views"]
    short = next(sha[:n] for n in (4, 5, 6) if any(c.isalpha() for c in sha[:n]) and any(c.isdigit() for c in sha[:n]))
    claim = clone.check(f"The views fix is commit `{short}`.")
    assert claim.verdict == VERIFIED, claim.evidence


def test_an_ambiguous_short_sha_says_so(tmp_path, Repo):
    repo = Repo(tmp_path / "many")
    stream = "".join(
        f"commit refs/heads/main\ncommitter T <t@example.com> {1700000000 + i} +0000\ndata {len(str(i))}\n{i}\n"
        + "\n"
        for i in range(3000)
    )
    subprocess.run(["git", "-C", str(repo.path), "fast-import", "--quiet"], input=stream, text=True, check=True)
    repo.git("reset", "-q", "--hard", "main")
    prefixes: dict[str, int] = {}
    for sha in repo.git("rev-list", "main").split():
        prefixes[sha[:4]] = prefixes.get(sha[:4], 0) + 1
    prefix = next(p for p, n in prefixes.items() if n > 1 and any(c.isalpha() for c in p) and any(c.isdigit() for c in p))
    claim = repo.check(f"Resume from commit `{prefix}`.")
    assert claim.verdict == UNVERIFIED and "ambiguous" in claim.evidence


# --- 8. a commit on another branch -------------------------------------------------------


def test_a_commit_on_another_branch_is_placed_not_contradicted(clone):
    claim = clone.check(f"The encoding backport landed in `{clone.shas['backport'][:7]}`.")
    assert claim.verdict == VERIFIED, claim.evidence
    assert "origin/3.x" in claim.evidence and "not on HEAD (main)" in claim.evidence


def test_a_commit_said_to_be_on_main_that_is_not_is_contradicted(clone):
    claim = clone.check(f"The encoding backport landed on main in `{clone.shas['backport'][:7]}`.")
    assert claim.verdict == CONTRADICTED and "it is on origin/3.x" in claim.evidence


def test_a_commit_said_to_change_a_path_is_checked_against_its_paths(clone):
    views = clone.shas["views"][:7]
    assert clone.check(f"`{views}` changed `src/db.py`.").verdict == VERIFIED
    claim = clone.check(f"`{views}` added `README.md`.")
    assert claim.verdict == CONTRADICTED and "did not change README.md" in claim.evidence
    assert clone.check(f"`{views}` touched `src/db.py` only.").verdict == VERIFIED
    backport = clone.shas["backport"][:7]
    assert clone.check(f"`src/db.py` was changed in `{backport}`.").verdict == CONTRADICTED


def test_a_commit_said_not_to_be_on_a_branch(clone):
    backport = clone.shas["backport"][:7]
    assert clone.check(f"`{backport}` has not been merged into `main` yet.").verdict == VERIFIED
    assert clone.check(f"`{backport}` is only on `origin/3.x`, so `main` still lacks it.").verdict == VERIFIED
    claim = clone.check(f"`{clone.shas['views'][:7]}` has not been pulled into `main` yet.")
    assert claim.verdict == CONTRADICTED and "is on main" in claim.evidence


def test_two_refs_said_to_be_in_sync(clone):
    assert clone.check("Local `main` is up to date with `origin/main`.").verdict == VERIFIED
    clone.commit("Local work", {"local.txt": "x\n"})
    claim = clone.check("Local `main` is up to date with `origin/main`.")
    assert claim.verdict == CONTRADICTED and "origin/main at" in claim.evidence


def test_what_a_file_contains(clone):
    assert clone.check("`src/db.py` defines `delete_where`.").verdict == VERIFIED
    assert clone.check("`src/db.py` no longer calls `open_transaction()`.").verdict == VERIFIED
    claim = clone.check("`src/db.py` no longer defines `rows_where`.")
    assert claim.verdict == CONTRADICTED and "has `rows_where`" in claim.evidence


def test_a_path_on_the_branch_the_sentence_names(clone):
    assert clone.check("`src/tui.py` on `origin/trogon` holds the TUI.").verdict == VERIFIED
    claim = clone.check("`src/missing.py` on `origin/trogon` holds the TUI.")
    assert claim.verdict == CONTRADICTED


def test_an_untracked_file_exists_but_is_not_backed_by_a_commit(clone):
    (clone.path / "bisect.log").write_text("good\n")
    claim = clone.check("The bisect steps are logged in `bisect.log`.")
    assert claim.verdict == UNVERIFIED and "not committed" in claim.evidence


def test_which_branch_we_are_on(clone):
    assert clone.check("We are on branch `main` for the bisect.").verdict == VERIFIED
    clone.git("checkout", "-q", "--detach", "HEAD")
    claim = clone.check("We are on branch `main` for the bisect.")
    assert claim.verdict == CONTRADICTED and "detached" in claim.evidence


def test_a_branch_said_to_exist_and_lack_a_commit(clone):
    views = clone.shas["views"][:7]
    assert clone.check(f"Branch `3.x` exists and lacks the views fix `{views}`.").verdict == VERIFIED
    claim = clone.check(f"Branch `3.x` exists and lacks the backport `{clone.shas['backport'][:7]}`.")
    assert claim.verdict == CONTRADICTED and "is on origin/3.x" in claim.evidence


def test_a_file_turned_into_something_else_is_gone(clone):
    assert clone.check(f"`{clone.shas['removal'][:7]}` turned `src/nose.py` into a plugin.").verdict == VERIFIED
    assert clone.check("We turned `src/db.py` into a package.").verdict == CONTRADICTED
