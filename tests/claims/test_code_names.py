"""Predicates about code names and places (issue 43, second part), each in both polarities, on
real repositories: what a commit did to a name (added, removed, renamed), whether HEAD still has
it, whether a branch has a file, whether a file ever existed, a pull request's release, a merge
commit's work, and the wordings that used to pass on a noun alone."""

from __future__ import annotations

import pytest

from cc_hooks.claims.model import CONTRADICTED, UNVERIFIED, VERIFIED


@pytest.fixture
def code(repo):
    """main: lib/key.rs gains `from_static`, renames it to `from_str_static`, drops `to_borrowed`
    (re-added later), a PR merged by a merge commit, a squashed PR, tags; branch `stable` without
    lib/extra.rs; lib/old.rs deleted."""
    h = {}
    h["base"] = repo.commit("Start the key module", {
        "lib/key.rs": "pub struct Key;\nimpl Key {\n    pub fn to_borrowed(&self) {}\n}\n",
        "lib/old.rs": "// old\n", "CHANGELOG.md": "# Changes\n"}, date="2026-10-01")
    repo.git("branch", "stable")
    h["add"] = repo.commit("Add a constructor", {
        "lib/key.rs": "pub struct Key;\nimpl Key {\n    pub fn to_borrowed(&self) {}\n    pub fn from_static(s: &str) {}\n}\n"}, date="2026-10-02")
    h["rename"] = repo.commit("Rename the constructor", {
        "lib/key.rs": "pub struct Key;\nimpl Key {\n    pub fn to_borrowed(&self) {}\n    pub fn from_str_static(s: &str) {}\n}\n"}, date="2026-10-03")
    h["drop"] = repo.commit("Remove Key::to_borrowed", {
        "lib/key.rs": "pub struct Key;\nimpl Key {\n    pub fn from_str_static(s: &str) {}\n}\n",
        "CHANGELOG.md": "# Changes\n- removed `to_borrowed`\n"}, date="2026-10-04")
    repo.git("tag", "-a", "v1.0", "-m", "v1.0", date="2026-10-05")
    repo.git("checkout", "-q", "-b", "feat/extra")
    h["extra"] = repo.commit("Bump the MSRV for the extra module", {"lib/extra.rs": "// extra\n"}, date="2026-10-06")
    repo.git("checkout", "-q", "main")
    repo.git("merge", "--no-ff", "-q", "-m", "Merge pull request #12 from someone/feat/extra", "feat/extra", date="2026-10-07")
    h["merge"] = repo.sha("HEAD")
    repo.git("branch", "-D", "feat/extra")
    h["squash"] = repo.commit("Parse numbers strictly (#15)", {"lib/num.rs": "// strict\n"}, date="2026-10-08")
    repo.git("rm", "-q", "lib/old.rs")
    repo.git("commit", "-q", "-m", "Drop the old module", date="2026-10-09")
    h["gone"] = repo.sha("HEAD")
    repo.git("tag", "-a", "v1.1", "-m", "v1.1", date="2026-10-10")
    h["readd"] = repo.commit("Bring back to_borrowed", {
        "lib/key.rs": "pub struct Key;\nimpl Key {\n    pub fn from_str_static(s: &str) {}\n    pub fn to_borrowed(&self) {}\n}\n"}, date="2026-10-11")
    return {k: v[:8] for k, v in h.items()}


def verdict(repo, text, **kwargs):
    claim = repo.check(text, **kwargs)
    return claim.verdict, claim.evidence


@pytest.mark.parametrize("sentence, expected", [
    ("`Key::from_static` was introduced in `{add}`.", VERIFIED),
    ("`Key::from_static` landed in `{rename}`.", CONTRADICTED),
    ("`Key::from_static` was renamed to `from_str_static` in `{rename}`.", VERIFIED),
    ("`{rename}` renamed `from_static` to `from_str_static`.", VERIFIED),
    ("`Key::from_static` was renamed to `from_str_static` in `{add}`.", CONTRADICTED),
    ("`{drop}` removed `Key::to_borrowed`.", VERIFIED),
    ("`Key::to_borrowed` went away in `{rename}`.", CONTRADICTED),
])
def test_what_a_commit_did_to_a_code_name(repo, code, sentence, expected):
    assert verdict(repo, sentence.format(**code))[0] == expected


def test_a_name_added_where_it_already_was_is_not_verified_by_the_diff(repo, code):
    """The diff adds a line with `from_str_static`, but lib/key.rs had it before: not shown to come from there."""
    use = repo.commit("Use the constructor", {"lib/use.rs": "fn f() { Key::from_str_static(\"a\"); }\n"}, date="2026-10-12")
    result, evidence = verdict(repo, f"`Key::from_str_static` landed in `{use[:8]}`.")
    assert result == UNVERIFIED and "lib/key.rs:3 already had it" in evidence, evidence
    assert verdict(repo, "`Key::to_borrowed` was re-added in `{readd}`.".format(**code))[0] != CONTRADICTED


@pytest.mark.parametrize("sentence, expected", [
    ("`Key::from_static` is still gone.", VERIFIED),
    ("`Key::to_borrowed` went away in `{drop}` and is still gone.", CONTRADICTED),
    ("No file under `lib/` calls `from_static` anymore.", VERIFIED),
    ("No file under `lib/` calls `from_str_static` anymore.", CONTRADICTED),
    ("`from_str_static`, which still exists under `lib/`, is the constructor.", VERIFIED),
])
def test_a_code_name_at_head(repo, code, sentence, expected):
    result, evidence = verdict(repo, sentence.format(**code))
    assert result == expected, evidence


def test_a_changelog_that_names_a_removed_name_is_not_the_code(repo, code):
    """CHANGELOG.md mentions `to_borrowed` after its removal: the code is what is searched, and the
    evidence of a contradiction points at the code (lib/key.rs), not at the prose."""
    result, evidence = verdict(repo, "`Key::to_borrowed` went away in `{drop}` and is still gone.".format(**code))
    assert result == CONTRADICTED and "lib/key.rs:4" in evidence and "CHANGELOG" not in evidence


@pytest.mark.parametrize("sentence, expected", [
    ("`stable` has `lib/key.rs` too.", VERIFIED),
    ("`stable` has `lib/num.rs` too.", CONTRADICTED),
    ("`lib/num.rs` exists on `stable`.", CONTRADICTED),
    ("`stable` does not have `lib/num.rs`.", VERIFIED),
])
def test_a_file_on_a_named_branch(repo, code, sentence, expected):
    assert verdict(repo, sentence.format(**code))[0] == expected


@pytest.mark.parametrize("sentence, expected, says", [
    ("`lib/never.rs` never existed.", VERIFIED, "no commit of HEAD's history removed it"),
    ("`lib/old.rs` never existed.", CONTRADICTED, "it was removed in {gone}"),
    ("`lib/key.rs` never existed.", CONTRADICTED, "is a tracked file at HEAD"),
    ("`lib/old.rs` still exists.", CONTRADICTED, "it was removed in {gone}"),
])
def test_whether_a_file_ever_existed(repo, code, sentence, expected, says):
    result, evidence = verdict(repo, sentence.format(**code))
    assert result == expected and says.format(**{k: v[:7] for k, v in code.items()}) in evidence, evidence


@pytest.mark.parametrize("sentence, expected", [
    ("Strict number parsing (#15) first shipped in `v1.1`.", VERIFIED),
    ("Strict number parsing (#15) first shipped in `v1.0`.", CONTRADICTED),
    ("The extra module from PR #12 was released in `v1.1`.", VERIFIED),
])
def test_a_pull_request_by_its_number(repo, code, sentence, expected):
    assert verdict(repo, sentence.format(**code))[0] == expected


def test_a_release_that_has_a_cherry_picked_copy_of_the_commit(repo, code):
    """The tag is on a maintenance branch that got the fix as a copy: "in" holds; "first" is not checked."""
    repo.git("checkout", "-q", "stable")
    repo.git("cherry-pick", code["squash"], date="2026-10-12")
    repo.git("tag", "-a", "v0.9.1", "-m", "v0.9.1", date="2026-10-12")
    repo.git("checkout", "-q", "main")
    assert verdict(repo, "`{squash}` shipped in `v0.9.1`.".format(**code))[0] == VERIFIED
    result, evidence = verdict(repo, "`{squash}` was first released in `v0.9.1`.".format(**code))
    assert result == UNVERIFIED and "same patch" in evidence


@pytest.mark.parametrize("sentence, expected", [
    ("The MSRV bump for the extra module came in with PR #12, merged as `{merge}`.", VERIFIED),
    ("PR #12 (`feat/extra`) was merged into `main` in `{merge}`.", VERIFIED),
])
def test_a_merge_commit_is_about_the_work_it_merged(repo, code, sentence, expected):
    assert verdict(repo, sentence.format(**code))[0] == expected


def test_a_commit_described_by_what_it_was_for_is_checked_against_it(repo, code):
    """"`S` was for X": the commit must be about X; the commit that is about X is named."""
    result, evidence = verdict(repo, "The cleanup `{squash}` was for the key constructor rename.".format(**code))
    assert result in (UNVERIFIED, CONTRADICTED) and "reachable" not in evidence.split(";")[-1]


def test_a_line_pointer_needs_the_name_whole(repo):
    repo.commit("Add adapters", {"adapters.java": "class A {\n  static final T INET = a();\n  static final F INET_FACTORY = f(INET);\n}\n"})
    assert verdict(repo, "`INET` starts at `adapters.java:3`.") == (CONTRADICTED, "`INET` is defined at adapters.java:2; line 3 only uses it")
    assert verdict(repo, "`INET` starts at `adapters.java:2`.")[0] == VERIFIED


@pytest.mark.parametrize("sentence, expected", [
    ("The `Style/HashSyntax` cop is enabled in `.rubocop.yml`.", VERIFIED),
    ("The `Style/StringLiterals` cop is enabled in `.rubocop.yml`.", UNVERIFIED),
])
def test_a_slashed_name_that_a_file_says_is_not_a_path(repo, sentence, expected):
    repo.commit("Lint config", {".rubocop.yml": "Style/HashSyntax:\n  Enabled: true\n"})
    result, evidence = verdict(repo, sentence)
    assert result == expected and "no branch, tag or path" not in evidence


def test_a_purpose_clause_leaves_the_finding_unstated(repo, code):
    """"I compared A with B to see what still needs backporting": both exist; what was found is not said."""
    result, evidence = verdict(repo, "I compared `main` with `stable` to see what still needs backporting.")
    assert result == UNVERIFIED and "what it found is not checked" in evidence


def test_a_done_item_naming_qualified_code_needs_a_commit_that_names_it(repo, code):
    """"Drop `Key::to_borrowed`" is not done by a commit whose words are near ("Remove Key helpers")."""
    repo.commit("Remove the old key helpers", {"lib/helpers.rs": "// none\n"}, date="2026-10-20")
    claim = repo.check("Drop `Key::from_str_static`.", section="queue", date="2026-10-01", done=True)
    assert claim.verdict != VERIFIED, claim.evidence
    claim = repo.check("Drop `Key::to_borrowed`.", section="queue", date="2026-10-01", done=True)
    assert claim.verdict == VERIFIED and code["drop"][:7] in claim.evidence, claim.evidence


def test_every_phrasing_the_summarizer_is_asked_for_is_checked_whole(repo, code):
    """PreCompact asks the summarizer for these sentences (``CHECKABLE_PHRASINGS``): each, with real
    objects, must come out VERIFIED, so the rules never ask for what the checker cannot check."""
    from cc_hooks.events.pre_compact import CHECKABLE_PHRASINGS, SUMMARY_RULES

    repo.git("revert", "--no-edit", code["squash"], date="2026-10-13")
    revert = repo.sha("HEAD")[:8]
    repo.git("tag", "-a", "v2.1", "-m", "v2.1", date="2026-10-14")
    objects = [("`S` removed `name`", {"S": code["drop"], "name": "Key::to_borrowed"}),
               ("`S` renamed `old` to `new`", {"S": code["rename"], "old": "from_static", "new": "from_str_static"}),
               ("`S` reverted `R`", {"S": revert, "R": code["squash"]}),
               ("`S` is on `main`", {"S": code["add"]}),
               ("`S` is in the `v2.1` tag", {"S": code["add"]}),
               ("`path` contains `name`", {"path": "lib/key.rs", "name": "from_str_static"}),
               ("`name` is defined at `path:N`", {"name": "from_str_static", "path:N": "lib/key.rs:3"}),
               ("`path` has not changed since `S`", {"path": "lib/extra.rs", "S": code["extra"]})]
    assert [phrasing for phrasing, _ in objects] == list(CHECKABLE_PHRASINGS)
    for phrasing, names in objects:
        sentence = phrasing
        for placeholder, value in sorted(names.items(), key=lambda item: -len(item[0])):
            sentence = sentence.replace(f"`{placeholder}`", f"`{value}`")
        claim = repo.check(sentence + ".")
        assert claim.verdict == VERIFIED, (sentence, claim.evidence)
        assert phrasing in SUMMARY_RULES


@pytest.mark.parametrize("sentence, expected", [
    ("`from_str_static` was first released in `v1.0`.", VERIFIED),
    ("`Key::to_borrowed` was first released in `v1.1`.", CONTRADICTED),  # v1.0 had it
    ("The `from_static` function shipped in `v1.1`.", CONTRADICTED),  # renamed before v1.0
    ("The `from_str_static` methods were first released in 1.1.", CONTRADICTED),
])
def test_a_code_name_by_the_release_whose_code_has_it(repo, code, sentence, expected):
    result, evidence = verdict(repo, sentence.format(**code))
    assert result == expected, evidence


def test_a_fix_named_after_code_is_not_the_names_release(repo, code):
    """"The `Key` crash fix was first released in `v1.1`": the name is not the subject; nothing is concluded from it."""
    assert verdict(repo, "The `Key` crash fix was first released in `v1.1`.")[0] == UNVERIFIED


@pytest.mark.parametrize("sentence, expected", [
    ("`lib/old.rs` was removed in `{gone}` and is back.", CONTRADICTED),  # not at HEAD
    ("`lib/key.rs` was removed in `{gone}` and is back at HEAD.", CONTRADICTED),  # {gone} did not remove it
])
def test_removed_and_back(repo, code, sentence, expected):
    assert verdict(repo, sentence.format(**code))[0] == expected


def test_removed_and_back_when_it_is(repo, code):
    repo.commit("Restore the old module", {"lib/old.rs": "// old\n"}, date="2026-10-12")
    assert verdict(repo, "`lib/old.rs` was removed in `{gone}` and is back at HEAD.".format(**code))[0] == VERIFIED


def test_files_folded_into_another_and_moved_out_of_a_directory(repo):
    repo.commit("Add tests", {"tests/a.rs": "a\n", "tests/b.rs": "b\n", "tests/sub/x.rs": "x\n"})
    repo.git("rm", "-q", "tests/a.rs", "tests/b.rs")
    repo.write("tests/all.rs", "a\nb\n")
    repo.git("add", "tests/all.rs")
    repo.git("commit", "-q", "-m", "Fold the tests")
    fold = repo.sha("HEAD")[:8]
    repo.git("mv", "tests/sub", "sub")
    repo.git("commit", "-q", "-m", "Move sub out of tests")
    move = repo.sha("HEAD")[:8]
    assert verdict(repo, f"`tests/a.rs` and `tests/b.rs` were folded into `tests/all.rs` in `{fold}`.")[0] == VERIFIED
    assert verdict(repo, f"`tests/a.rs` and `tests/b.rs` were folded into `tests/all.rs` in `{move}`.")[0] == CONTRADICTED
    assert verdict(repo, f"`sub/` was moved out of `tests/sub/` in `{move}`.")[0] == VERIFIED
    assert verdict(repo, f"`x.rs` was replaced by `tests/all.rs` in `{move}`.")[0] == VERIFIED  # by its base name


@pytest.mark.parametrize("item, done, expected", [
    ("Release 1.1.", True, VERIFIED),
    ("Release 1.2.", True, CONTRADICTED),
    ("Release `v1.2` with the key fixes.", False, VERIFIED),
    ("Release 1.1.", False, CONTRADICTED),
])
def test_a_release_item_is_its_tag(repo, code, item, done, expected):
    claim = repo.check(item, section="queue", date="2026-10-01", done=done)
    assert claim.verdict == expected, claim.evidence


def test_a_done_drop_of_a_directory_still_tracked_is_not_done(repo, code):
    claim = repo.check("Drop the `lib` module.", section="queue", date="2026-10-01", done=True)
    assert claim.verdict == CONTRADICTED and "lib is still a tracked directory at HEAD" in claim.evidence


@pytest.mark.parametrize("name", ["pkg.gemspec", "dist/tool-1.2.3.tar.gz", "app.csproj"])
def test_a_backticked_file_name_of_a_known_kind_is_a_path(repo, name):
    repo.commit("Add the file", {name: "x\n"})
    assert verdict(repo, f"`{name}` is still tracked at HEAD.")[0] == VERIFIED
    repo.git("rm", "-q", name)
    repo.git("commit", "-q", "-m", "Remove it")
    result, evidence = verdict(repo, f"`{name}` is still tracked at HEAD.")
    assert result == CONTRADICTED and "it was removed in" in evidence
