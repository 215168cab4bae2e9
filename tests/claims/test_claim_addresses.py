from cc_hooks.claims.addresses import BRANCH, NAME, PATH, PROBE, REF, SHA, Address, extract_addresses


def kinds(text):
    return [(a.kind, str(a)) for a in extract_addresses(text)]


def test_design_example_lines():
    assert kinds("Branch `fix/refresh` at `3f2a9c1`, not merged into `main`.") == [
        (BRANCH, "fix/refresh"),
        (SHA, "3f2a9c1"),
        (BRANCH, "main"),
    ]
    assert kinds("Staging runs v1.4.2. (probe: staging-version)") == [(PROBE, "(probe: staging-version)")]
    assert kinds('Fix for "login loops after 30 min" landed in `9b1d2e0`.') == [(SHA, "9b1d2e0")]


def test_code_in_backticks_is_not_an_address():
    assert kinds("Add a regression test for negative numbers in `add()`.") == []
    assert kinds("Using `with` instead of `case`; see `tool_call/2`") == []
    assert kinds("read `.hook_event_name` from stdin") == []


def test_paths_with_lines_and_plain_paths():
    found = extract_addresses("see src/auth.py:42 and `docs/x.md:3-9`, also README.md")
    assert Address(PATH, "src/auth.py", 42) in found
    assert Address(PATH, "docs/x.md", 3, 9) in found
    assert Address(PATH, "README.md") in found


def test_things_that_look_like_paths_but_are_not():
    assert kinds("v1.4.2 is on example.com, see https://x.org/a.py, e.g. this") == []
    assert kinds("`cc_hooks.git` is a module") == []


def test_plain_shas_need_a_digit_or_a_cue():
    assert kinds("landed in abc1234 today") == [(SHA, "abc1234")]
    assert kinds("the defaced facade") == []
    assert kinds("fixed in commit deadbeef") == [(SHA, "deadbeef")]
    assert kinds("1234567 users") == []


def test_ambiguous_slash_names_are_resolved_later():
    assert kinds("finishing the fix on `fix/refresh`") == [(NAME, "fix/refresh")]
    assert kinds("merged into main and on branch develop") == [(BRANCH, "main"), (BRANCH, "develop")]


def test_references():
    assert kinds("closes #45 and PROJ-12, not UTF-8") == [(REF, "#45"), (REF, "PROJ-12")]


def test_prose_after_a_branch_cue_is_not_a_branch():
    """Helper G saw "- Branch `main` holds the work." reported as a branch `holds`, CONTRADICTED."""
    assert kinds("- Branch `main` holds the work.") == [(BRANCH, "main")]
    for prose in ("This branch holds the work.", "The feature branch contains the fix.", "Merged into production yesterday.",
                  "Pushed to origin.", "Rebased onto upstream changes.", "Branch protection is on."):
        assert kinds(prose) == [], prose


def test_plain_names_shaped_like_branches_still_count():
    assert kinds("created branch fix-login") == [(BRANCH, "fix-login")]
    assert kinds("landed into master") == [(BRANCH, "master")]
    assert kinds("merged into release/2.1 and rebased onto v1.2") == [(BRANCH, "release/2.1"), (BRANCH, "v1.2")]
    assert kinds("merged into `production`") == [(BRANCH, "production")]  # backticks make any ref name a name


def test_media_types_and_scoped_packages_are_not_names():
    assert kinds("Send `text/plain`, accept `application/json` and `application/vnd.api+json`.") == []
    assert kinds("Install `@anthropic-ai/claude-code` and `@types/node`.") == []
    assert kinds("See `text/notes.md` and the `image/` folder.") == [(PATH, "text/notes.md"), (PATH, "image/")]
    assert kinds("Work is on `fix/other`.") == [(NAME, "fix/other")]


def test_an_all_digit_short_sha_counts_right_after_commit_only():
    """1 in 27 seven-digit abbreviations has no letter: "Adopted cc-hooks in commit 2671434." names a
    commit; "revision 1234567" or a bare number does not."""
    assert Address(SHA, "2671434") in extract_addresses("Adopted cc-hooks in commit 2671434.")
    assert Address(SHA, "2671434") in extract_addresses("the sha 2671434 is on main")
    assert not [a for a in extract_addresses("SVN revision 1234567 and 2671434 rows") if a.kind == SHA]
    # issue 20 (setuptools docs): a short revision number is Subversion's too; a short hex after "rev" is a sha
    assert not [a for a in extract_addresses("might denote Subversion revision 1263 of a post-release") if a.kind == SHA]
    assert Address(SHA, "12a3") in extract_addresses("fixed at rev 12a3")


def test_a_file_after_a_merge_cue_is_a_path_not_a_branch():
    """docs/architecture.md's "the merge into `hooks.json`" was a stale FAIL: "no branch named hooks.json"."""
    found = extract_addresses("the merge into `hooks.json` (the file has Claude Code's shape)")
    assert Address(BRANCH, "hooks.json") not in found and any(a.kind == PATH and a.value == "hooks.json" for a in found)
    assert Address(BRANCH, "release-2") in extract_addresses("merged into `release-2`")


def test_a_keyword_before_branch_is_a_branch_of_the_code():
    """Issue 20 (mypy's type narrowing docs): "In the ``if`` branch (when the function returns
    ``True``)" was a stale FAIL: no git branch named ``if``."""
    assert kinds("In the ``if`` branch (when the function returns ``True``), the type is narrowed.") == []
    assert kinds("the ``else`` branch and the `except` branch") == []
    assert kinds("the `3.0` branch, then the `iffy` branch") == [(BRANCH, "3.0"), (BRANCH, "iffy")]


def test_a_branch_a_summary_says_it_created_is_still_an_address():
    """Review of issue 20 round 8: "a `release` branch" names a kind of branch in a doc, and the audit's
    doc scan drops it there; a compaction summary's "I created a `fix/login-loop` branch" names one branch,
    which must still be checked. A reST link's "branches`_" and "i.e" are no branch names."""
    from cc_hooks.claims.addresses import BRANCH, extract_addresses

    assert [(a.kind, a.value) for a in extract_addresses("I created a `fix/login-loop` branch and pushed the fix there.")] == \
        [(BRANCH, "fix/login-loop")]
    assert [a.value for a in extract_addresses("protected branches`_ ``main`` only")] == ["main"]
    assert extract_addresses("the release branch i.e. no new features") == []
