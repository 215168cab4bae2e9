from cc_hooks.claims.model import CONTRADICTED, PATH, UNVERIFIED, VERIFIED


def test_tracked_path_verified_and_deleted_path_contradicted(repo):
    repo.commit("Add auth", {"src/auth.py": "a\nb\nc\n"})
    claim = repo.check("The logic is in `src/auth.py`.")
    assert claim.kind == PATH and claim.verdict == VERIFIED
    repo.git("rm", "-q", "src/auth.py")
    repo.git("commit", "-q", "-m", "Remove auth")
    claim = repo.check("The logic is in `src/auth.py`.")
    assert claim.verdict == CONTRADICTED
    assert "src/auth.py does not exist at HEAD" in claim.evidence


def test_line_in_range_both_ways(repo):
    repo.commit("Add auth", {"src/auth.py": "a\nb\nc\n"})
    assert repo.check("See `src/auth.py:3`.").verdict == VERIFIED
    claim = repo.check("See `src/auth.py:42`.")
    assert claim.verdict == CONTRADICTED and "only 3 lines" in claim.evidence


def test_untracked_file_is_not_at_head(repo):
    repo.write("notes.md", "draft\n")
    claim = repo.check("Wrote `notes.md`.")
    assert claim.verdict == UNVERIFIED and "in the work tree but not committed" in claim.evidence  # true, but unbacked


def test_committed_but_ignored_path_is_contradicted(repo):
    repo.commit("Add build output", {"build/out.txt": "x\n"})
    repo.commit("Ignore build", {".gitignore": "build/\n"})
    assert repo.check("Output in `build/out.txt`.").verdict == CONTRADICTED
    assert repo.check("Rules in `.gitignore`.").verdict == VERIFIED


def test_name_resolves_to_a_branch_or_a_path_or_neither(repo):
    repo.git("branch", "fix/refresh")
    repo.commit("Add docs dir", {"docs/guide/index.md": "x\n"})
    assert repo.check("Work is on `fix/refresh`.").verdict == VERIFIED
    assert repo.check("The guide lives in `docs/guide`.").verdict == VERIFIED
    claim = repo.check("Work is on `fix/other`.")
    assert claim.verdict == CONTRADICTED and "no branch, tag or path named fix/other" in claim.evidence


def test_paths_in_future_work_are_not_checked(repo):
    claim = repo.check("Next: we will create `docs/api.md`.")
    assert claim.verdict == UNVERIFIED


def test_path_outside_the_repo_is_contradicted(repo):
    assert repo.check("See `../other/x.py`.").verdict == CONTRADICTED


def test_a_base_name_is_found_where_it_lives(repo):
    """Summaries name files by base name ("updated `session_live.ex`"): not at the root is not "deleted"."""
    repo.commit("Add views", {"lib/web/session_live.ex": "a\nb\n", "lib/a/message.ex": "x\n", "lib/b/message.ex": "y\n"})
    claim = repo.check("Updated `session_live.ex` and `web/session_live.ex:2`.")
    assert claim.verdict == VERIFIED and "lib/web/session_live.ex has 2 lines at HEAD" in claim.evidence
    assert repo.check("Updated `session_live.ex:9`.").verdict == CONTRADICTED  # the one match has 2 lines
    several = repo.check("Changed `message.ex`.")
    assert several.verdict == VERIFIED and "2 paths at HEAD end in message.ex" in several.evidence
    assert repo.check("Changed `message.ex:1`.").verdict == UNVERIFIED  # which one?


def test_a_base_name_found_nowhere(repo):
    quoted = repo.check("Helper code lives in `gone.py`.")
    assert quoted.verdict == CONTRADICTED and "gone.py does not exist at HEAD" in quoted.evidence
    plain = repo.check("Bumped highlight.js in the bundle.")
    assert plain.verdict == UNVERIFIED and "may name no file" in plain.evidence
    assert repo.check("The logic is in src/gone.py now.").verdict == CONTRADICTED  # a path, even unquoted


def test_a_conventional_file_named_without_its_suffix_is_the_suffixed_file(repo):
    """Issue 20 (celery, pip): ":file:`README`" where the file is ``README.rst`` was CONTRADICTED."""
    repo.commit("Add the readme", {"CONTRIBUTING.rst": "How\n===\n", "docs/LICENSE.txt": "MIT\n"})
    claim = repo.check("Follow the `CONTRIBUTING` guide.")
    assert claim.verdict == VERIFIED and "CONTRIBUTING.rst is a tracked file at HEAD" in claim.evidence
    assert repo.check("The terms are in `docs/LICENSE`.").verdict == VERIFIED
    assert repo.check("The authors are listed in `AUTHORS`.").verdict == CONTRADICTED  # no AUTHORS.* at all
