"""Parts of a sentence the verdict must not skip (issue 43, after heldout/chi's run), each in both
polarities on a real repository: a judgment or a reason, a version number in what a commit did,
the words of its message, a qualified code name, a module path, what no file imports, "the last
uses", the subject of a subordinate clause, "since" a month, a year or "since" alone, and queue items
judged by the code they name."""

from __future__ import annotations

import pytest

from cc_hooks.claims.model import CONTRADICTED, UNVERIFIED, VERIFIED


@pytest.fixture
def go(repo):
    """A small Go module: a `Context` type gains `Clone` after v1.1, which has an unrelated `Clone`;
    `middleware/client_ip.go` defines `ClientIP` from v1.1; `io/ioutil` is dropped in two steps; the
    minimum Go version goes 1.20 -> 1.22 -> 1.23; a ReadFrom fix and a later change near its comment."""
    h = {}
    h["base"] = repo.commit("Start the module", {
        "go.mod": "module github.com/acme/router/v5\n\ngo 1.20\n",
        "context.go": "package router\n\ntype Context struct{}\n",
        "compress.go": 'package router\n\nimport "io/ioutil"\n\nvar _ = ioutil.Discard\n',
        "compress_test.go": 'package router\n\nimport "io/ioutil"\n\nvar _ = ioutil.ReadAll\n',
        "Makefile": "docs:\n\tnpx docsify serve ./docs\n", "docs/index.md": "# docs\n",
        "writer.go": "package router\n\nfunc (f *fancyWriter) ReadFrom() {\n\tf.bytes += n\n}\n"}, date="2026-01-05")
    repo.git("tag", "-a", "v1.0", "-m", "v1.0", date="2026-01-06")
    h["delint"] = repo.commit("chore: delint ioutil usage (#9)", {
        "compress.go": 'package router\n\nimport "io"\n\nvar _ = io.Discard\n'}, date="2026-01-10")
    h["fix"] = repo.commit("fix fancyWriter.ReadFrom double-counting bytes with Tee (#11)", {
        "writer.go": "package router\n\nfunc (f *fancyWriter) ReadFrom() {\n\t// do not add n again: that would double-count with a tee\n}\n"},
        date="2026-01-12")
    h["bump22"] = repo.commit("Bump minimum Go and use new features (#12)", {
        "go.mod": "module github.com/acme/router/v5\n\ngo 1.22\n",
        "ci.yml": "go-version: [1.22.x, 1.23.x]\n"}, date="2026-01-14")
    h["clientip"] = repo.commit("feat: middleware.ClientIP (#13)", {
        "middleware/client_ip.go": "package middleware\n\nfunc ClientIP() {}\n",
        "sunset_test.go": "package router\n\nfunc use() { r.Clone(nil) }\n"}, date="2026-01-16")
    repo.git("tag", "-a", "v1.1", "-m", "v1.1", date="2026-01-17")
    h["discard"] = repo.commit("Honor Discard() in fancyWriter.ReadFrom (#14)", {
        "writer.go": "package router\n\nfunc (f *fancyWriter) ReadFrom() {\n\t// honor discard; do not add n again: that would\n"
                     "\t// double-count with a tee\n}\n"}, date="2026-01-20")
    h["clone"] = repo.commit("Add Context.Clone (#15)", {
        "context.go": "package router\n\ntype Context struct{}\n\nfunc (x *Context) Clone() *Context { return x }\n"}, date="2026-01-22")
    h["last"] = repo.commit("Remove last uses of io/ioutil (#16)", {
        "compress_test.go": 'package router\n\nimport "io"\n\nvar _ = io.ReadAll\n'}, date="2026-01-24")
    h["bump23"] = repo.commit("Bump minimum Go to 1.23 (#17)", {
        "go.mod": "module github.com/acme/router/v5\n\ngo 1.23\n"}, date="2026-01-26")
    repo.git("branch", "v1", h["base"])
    repo.git("rm", "-q", "-r", "docs")
    repo.git("commit", "-q", "-m", "Move the docs to their own repository", date="2026-01-28")
    return {k: v[:7] for k, v in h.items()}


def verdict(repo, text, **kwargs):
    claim = repo.check(text, **kwargs)
    return claim.verdict, claim.evidence


@pytest.mark.parametrize("sentence", [
    "The cleanest fix for the remaining build constraints is to delete `compress_test.go` entirely.",
    "The maintainers prefer squash merges because they keep `main` bisectable.",
    "`context.go` is probably where the `Context` type lives.",
])
def test_a_judgment_or_a_reason_is_not_verified_by_the_noun(repo, go, sentence):
    result, evidence = verdict(repo, sentence)
    assert result == UNVERIFIED
    assert "a judgment, proposal or reason is not checked" in evidence


def test_a_sentence_that_says_a_deleted_file_still_exists_is_contradicted_whatever_its_reason(repo, go):
    result, evidence = verdict(repo, "`docs/index.md` still exists so that old links keep working.")
    assert result == CONTRADICTED
    assert "docs/index.md" in evidence


@pytest.mark.parametrize("sentence, expected, cited", [
    ("`{bump23}` bumped the minimum Go version to 1.23.", VERIFIED, ""),
    ("`{bump22}` bumped the minimum Go version to 1.22.", UNVERIFIED, ""),  # its message gives no number
    ("`{bump22}` bumped the minimum Go version to 1.23.", UNVERIFIED, ""),  # its diff has 1.23, its message not
])
def test_a_version_in_what_a_commit_did_must_be_in_its_message(repo, go, sentence, expected, cited):
    result, evidence = verdict(repo, sentence.format(**go))
    assert result == expected, evidence


def test_what_a_commit_did_needs_its_message_not_only_the_words_of_its_diff(repo, go):
    result, evidence = verdict(repo, "The `ReadFrom` double-counting fix for Tee writers is `{discard}`.".format(**go))
    assert result == CONTRADICTED  # the diff's comment says "double-count with a tee"; the message does not
    assert go["fix"] in evidence
    result, evidence = verdict(repo, "The `ReadFrom` double-counting fix for Tee writers is `{fix}`.".format(**go))
    assert result == VERIFIED, evidence


@pytest.mark.parametrize("sentence, expected", [
    ("`middleware.ClientIP` was first released in `v1.1`.", VERIFIED),  # middleware/client_ip.go
    ("`middleware.ClientIP` was first released in `v1.0`.", CONTRADICTED),
    ("`Context.Clone` shipped in `v1.1`.", UNVERIFIED),  # v1.1 has a `Clone`, not the Context one
    ("`Context.Clone` was added in `{clone}`.", VERIFIED),
    ("`Context.Clone` was added in `{clientip}`.", CONTRADICTED),  # its `r.Clone(nil)` is another Clone
])
def test_a_qualified_code_name_is_looked_up_with_its_qualifier(repo, go, sentence, expected):
    result, evidence = verdict(repo, sentence.format(**go))
    assert result == expected, evidence


def test_a_module_path_is_not_a_missing_file(repo, go):
    result, evidence = verdict(repo, "The module path is `github.com/acme/router/v5`.")
    assert result != CONTRADICTED, evidence


@pytest.mark.parametrize("sentence, expected", [
    ("No Go file at HEAD imports `io/ioutil` anymore.", VERIFIED),
    ("No Go file imports `io` anymore.", CONTRADICTED),
])
def test_what_no_file_imports(repo, go, sentence, expected):
    result, evidence = verdict(repo, sentence)
    assert result == expected, evidence


def test_the_last_uses_removed_names_the_commit_that_removed_the_last(repo, go):
    result, evidence = verdict(repo, "The last `io/ioutil` uses were removed in `{delint}`.".format(**go))
    assert result == CONTRADICTED
    assert go["last"] in evidence
    result, evidence = verdict(repo, "The last `io/ioutil` uses were removed in `{last}`.".format(**go))
    assert result == VERIFIED, evidence
    result, evidence = verdict(repo, "`io/ioutil` uses were removed in `{delint}`.".format(**go))
    assert result == UNVERIFIED and go["last"] in evidence  # some were: not all


def test_a_subordinate_clause_keeps_its_own_subject(repo, go):
    result, evidence = verdict(repo, "The `Makefile` still has a `docs` target even though `docs/` is gone.")
    assert result == VERIFIED, evidence
    result, evidence = verdict(repo, "The `Makefile` still has a `docs` target even though `context.go` is gone.")
    assert result == CONTRADICTED and "context.go" in evidence


@pytest.mark.parametrize("sentence, expected", [
    ("`context.go` has not been modified since 2025.", CONTRADICTED),  # changed in January 2026
    ("`Makefile` has not changed since February 2026.", VERIFIED),
    ("`go.mod` has not changed since January 2026.", UNVERIFIED),  # changed within January only
    ("`Makefile` was created in `{base}` and has not changed since.", VERIFIED),
    ("`go.mod` was created in `{base}` and has not changed since.", CONTRADICTED),
])
def test_since_a_month_a_year_or_the_commit_just_named(repo, go, sentence, expected):
    result, evidence = verdict(repo, sentence.format(**go))
    assert result == expected, evidence


@pytest.mark.parametrize("item, expected, cited", [
    ("Drop `io/ioutil` from the remaining test files.", CONTRADICTED, "last"),  # already gone: names the commit
    ("Drop `Context.Clone`.", VERIFIED, ""),  # still at HEAD
    ("Add `Context.Reset` to the router.", VERIFIED, ""),  # no code has it
    ("Backport `Context.Clone` to the `v1` branch.", VERIFIED, ""),  # v1 has no Clone
])
def test_a_pending_item_is_judged_by_the_code_it_names(repo, go, item, expected, cited):
    claim = repo.check(item, section="queue", date="2026-01-04")
    assert claim.verdict == expected, claim.evidence
    assert not cited or go[cited] in claim.evidence


def test_a_pending_addition_whose_name_is_there_is_not_verified_pending(repo, go):
    claim = repo.check("Add `Context.Clone` to the router.", section="queue", date="2026-01-04")
    assert claim.verdict != VERIFIED, claim.evidence


@pytest.mark.parametrize("sentence, expected", [
    ("Worktree clean — no staged or unstaged changes, no untracked files.", VERIFIED),
    ("No uncommitted changes, but `Makefile` has unstaged edits.", CONTRADICTED),  # the denial ends at the comma
])
def test_a_denied_list_of_dirty_states_is_a_clean_tree(repo, go, sentence, expected):
    result, evidence = verdict(repo, sentence)
    assert result == expected, evidence


@pytest.fixture
def kt(repo):
    """A Kotlin-like project: tags `parent-1.0` / `parent-1.1`, a base-named API file, a helper removed
    from one file, a squash-merged branch, a class name in an API dump, a changelog-less PR."""
    h = {}
    h["base"] = repo.commit("Start", {
        "okio/api/okio.api": "public final class okio/-Unsigned {\n}\n",
        "okio/src/ByteString.kt": "fun base64(includePadding: Boolean = true): String = resolveDefaultParameter()\n",
        "okio/src/Path.kt": "// path\n", "okio/jvm/Path.kt": "// jvm path\n", "CHANGELOG.md": "# Change Log\n"}, date="2026-02-01")
    repo.git("tag", "-a", "parent-1.0", "-m", "1.0", date="2026-02-02")
    h["api"] = repo.commit("Add unsigned extensions (#1779)", {
        "okio/api/okio.api": "public final class okio/-Unsigned {\n  writeUInt\n}\n"}, date="2026-02-10")
    repo.git("tag", "-a", "parent-1.1", "-m", "1.1", date="2026-02-11")
    repo.git("checkout", "-q", "-b", "feature/padding")
    repo.commit("wip padding", {"okio/src/Padding.kt": "// wip\n"}, date="2026-02-12")
    h["tip"] = repo.sha("HEAD")[:8]
    repo.git("checkout", "-q", "main")
    h["squash"] = repo.commit("Add padding to base64 (#1804)", {"okio/src/Padding.kt": "// padding\n"}, date="2026-02-13")
    h["drop"] = repo.commit("Remove default parameter workarounds (#1786)", {
        "okio/src/ByteString.kt": "fun base64(includePadding: Boolean = true): String = encode()\n"}, date="2026-02-14")
    return {k: v[:8] for k, v in h.items()}


@pytest.mark.parametrize("sentence, expected", [
    ("`{api}` is in `parent-1.1`.", VERIFIED),
    ("`{squash}` is in `parent-1.1`.", CONTRADICTED),  # no tag contains it
    ("`{squash}` went out in `parent-1.1` as well.", CONTRADICTED),
    ("`{squash}` is not in `parent-1.1`.", UNVERIFIED),  # the negation is not modeled: never VERIFIED by the sha
])
def test_a_version_shaped_tag_is_a_release_without_a_cue_word(repo, kt, sentence, expected):
    result, evidence = verdict(repo, sentence.format(**kt))
    assert result == expected, evidence


@pytest.mark.parametrize("sentence, expected, cited", [
    ("`okio.api` hasn't changed since `{base}`.", CONTRADICTED, "api"),  # okio/api/okio.api, by its base name
    ("`okio.api` hasn't changed since `{api}`.", VERIFIED, ""),
    ("`Path.kt` hasn't changed since `{base}`.", UNVERIFIED, ""),  # two files end in Path.kt
    ("`Nowhere.kt` hasn't changed since `{base}`.", CONTRADICTED, ""),  # no such file: the lookup disproves it
    ("`okio/api/okio.api` is the file; it hasn't been touched on main since `{base}`.", CONTRADICTED, "api"),
])
def test_since_on_a_base_name_or_a_pronoun_asks_git_about_the_path_meant(repo, kt, sentence, expected, cited):
    result, evidence = verdict(repo, sentence.format(**kt))
    assert result == expected, evidence
    assert not cited or kt[cited][:7] in evidence
    if "Nowhere" in sentence:
        assert "no commit changed" not in evidence  # a log of a missing path is not evidence


@pytest.mark.parametrize("sentence, expected, cited", [
    ("`resolveDefaultParameter` is still referenced from `okio/src/ByteString.kt`.", CONTRADICTED, "drop"),
    ("`encode` is still referenced from `okio/src/ByteString.kt`.", VERIFIED, ""),
    ("`base64` is declared as `fun base64(includePadding: Boolean = true): String` in `okio/src/ByteString.kt`.", VERIFIED, ""),
    ("`base64` is declared as `fun base64(padding: Boolean = true)` in `okio/src/ByteString.kt`.", UNVERIFIED, ""),
])
def test_referenced_from_and_declared_as_read_the_file(repo, kt, sentence, expected, cited):
    result, evidence = verdict(repo, sentence)
    assert result == expected, evidence
    assert not cited or kt[cited][:7] in evidence


def test_a_name_the_code_writes_with_a_slash_is_not_a_missing_path(repo, kt):
    result, evidence = verdict(repo, "`okio/api/okio.api` already has the `okio/-Unsigned` class block.")
    assert result != CONTRADICTED, evidence
    result, evidence = verdict(repo, "Branch `feature/nothing-like-it` is where the work happens.")
    assert result == CONTRADICTED, evidence  # named nowhere: still a missing branch


def test_a_squash_named_with_its_branch_is_not_judged_on_the_branch(repo, kt):
    result, evidence = verdict(repo, "`feature/padding` (tip `{tip}`) went in as the squash `{squash}`.".format(**kt))
    assert result == UNVERIFIED, evidence  # not CONTRADICTED for being off the branch; the copy itself is not checked


def test_a_changelog_item_is_not_done_by_the_work_it_documents(repo, kt):
    claim = repo.check("Write CHANGELOG entries for #1779 and #1804.", section="queue", date="2026-02-01")
    assert claim.verdict != CONTRADICTED, claim.evidence


@pytest.mark.parametrize("sentence, expected", [
    ("`okio/api/okio.api` hasn't changed since `{base}`, so the branch should apply cleanly.", CONTRADICTED),
    ("`okio/api/okio.api` hasn't changed since `{api}`, so the branch should apply cleanly.", UNVERIFIED),  # the "should"
    ("Will tag `{squash}` as `parent-1.2` tomorrow.", UNVERIFIED),
])
def test_an_intention_after_a_fact_leaves_the_fact_checked_and_never_verifies(repo, kt, sentence, expected):
    result, evidence = verdict(repo, sentence.format(**kt))
    assert result == expected, evidence


@pytest.mark.parametrize("sentence, expected", [
    ("Branch `v1` has 0 commits that are not on `main`.", VERIFIED),
    ("Branch `v1` has two commits that are not on `main`.", CONTRADICTED),
    ("`main` is nine commits ahead of `v1`.", VERIFIED),  # delint, fix, bump22, clientip, discard, clone, last, bump23, docs
    ("`v1` is three commits behind `main`.", CONTRADICTED),
])
def test_how_many_commits_one_branch_has_that_another_lacks(repo, go, sentence, expected):
    result, evidence = verdict(repo, sentence)
    assert result == expected, evidence


@pytest.mark.parametrize("sentence, expected", [
    ("`{last}` only touched test files.", UNVERIFIED),  # what the commit did, with nothing that checks it
    ("`{base}` was authored in 2025 but committed in 2026.", UNVERIFIED),
    ("The minimum Go version was bumped to 1.23 in `{bump23}`.", VERIFIED),  # passive: the commit's work, checked
    ("The minimum Go version went to 1.22 in `{bump22}`, then to 1.23 in `{bump23}`.", UNVERIFIED),  # #12's message gives no number
])
def test_whatever_a_commit_is_said_to_have_done_must_be_checked(repo, go, sentence, expected):
    result, evidence = verdict(repo, sentence.format(**go))
    assert result == expected, evidence


def test_versions_are_read_from_the_clause_of_each_commit(repo, go):
    result, evidence = verdict(repo, "The Go floor went to 1.20 in `{base}`, then to 1.23 in `{bump23}`.".format(**go))
    assert "1.23" not in evidence or result != CONTRADICTED, evidence
    claim = repo.check("The minimum Go version went to 1.23 in `{bump23}`, after `{bump22}`.".format(**go))
    assert all("is about" in c.evidence for c in claim.checks if "work of" in c.subject), claim.evidence


def test_a_qualified_name_in_what_a_commit_did_needs_its_qualifier(repo, go):
    result, evidence = verdict(repo, "`Router.ReadFrom` was fixed for Tee double-counting bytes in `{fix}`.".format(**go))
    assert result != VERIFIED, evidence  # the diff's ReadFrom is fancyWriter's
    result, evidence = verdict(repo, "`fancyWriter.ReadFrom` was fixed for Tee double-counting bytes in `{fix}`.".format(**go))
    assert result == VERIFIED, evidence


@pytest.mark.parametrize("line, text, date", [
    ("- DONE — Remove last uses of io/ioutil.", "Remove last uses of io/ioutil.", None),
    ("- DONE 2026-01-20 — Remove last uses of io/ioutil.", "Remove last uses of io/ioutil.", "2026-01-20"),
    ("- DONE: Remove last uses of io/ioutil.", "Remove last uses of io/ioutil.", None),
])
def test_a_done_item_written_with_a_dash_is_read_without_it(line, text, date):
    from cc_hooks.record.backends.file import parse

    item = parse(f"# Next steps\n\n## QUEUED\n{line}\n").queued[0]
    assert (item.done, item.text, item.date) == (True, text, date)


def test_what_files_say_is_read_whole_when_an_earlier_file_has_multibyte_text(repo):
    """`cat-file --batch` frames each blob by its size in bytes: "—" in the first file must not shift the second."""
    from cc_hooks.claims.context import VerifyContext
    from cc_hooks.claims.verify_history import _blobs
    from cc_hooks.runtime import Deadline

    repo.commit("Two files", {"a.kt": "// a — b — c “quoted” ü\nfun alpha() {}\n", "b.kt": "fun beta() {}\n"})
    ctx = VerifyContext(repo.path, repo.config(), Deadline(20))
    names = ["HEAD:a.kt", "HEAD:b.kt"]
    texts = _blobs(ctx, names, ctx.objects(names))
    assert texts == {"HEAD:a.kt": "// a — b — c “quoted” ü\nfun alpha() {}\n", "HEAD:b.kt": "fun beta() {}\n"}


@pytest.mark.parametrize("sentence, expected", [
    ("The #13 change was authored by Ada Lovelace.", CONTRADICTED),  # the fixture's commits are by the test author
    ("Tree is clean.", VERIFIED),
])
def test_a_pull_requests_author_and_a_clean_tree_said_briefly(repo, go, sentence, expected):
    result, evidence = verdict(repo, sentence)
    assert result == expected, evidence


def test_a_summary_sentence_starting_with_a_pull_request_number_is_its_own_claim():
    from cc_hooks.claims.extract import extract_from_text

    claims = extract_from_text("The fix is `3608f1c4`: it moved the deadline math into `setTimeoutAt()`. #1738 was authored by Jesse Wilson.", "summary")
    texts = [c.text for c in claims]
    assert not any("moved the deadline" in t and "authored" in t for t in texts), texts


@pytest.mark.parametrize("sentence, expected", [
    ("`Makefile` still runs `npx` with `vitepress`.", CONTRADICTED),  # every quoted name of the clause: it runs docsify
    ("`Makefile` still runs `npx` with `docsify`.", VERIFIED),
    ("`ReadFrom` in `writer.go` still forces `n` to zero.", UNVERIFIED),  # said of ReadFrom: a search of the file does not check it
    ("`Makefile` keeps a `docs` target.", VERIFIED),
    ("`Makefile` keeps a `lint` target.", CONTRADICTED),
])
def test_what_a_file_keeps_or_pins_is_checked_whole(repo, go, sentence, expected):
    result, evidence = verdict(repo, sentence)
    assert result == expected, evidence


@pytest.mark.parametrize("sentence", [
    "The ReadFrom fix `{fix}` from Ada pointed the counter at the tee.",  # what the commit did, with its author between
    "`{discard}` rode in on the same PR as the ReadFrom fix.",
    "`Makefile` still tells contributors to run `docs`.",
    "`context.go` needs nothing new, since `Makefile` already has `docs`.",
])
def test_a_verb_the_registry_does_not_model_is_never_verified_by_the_nouns(repo, go, sentence):
    result, evidence = verdict(repo, sentence.format(**go))
    assert result == UNVERIFIED, evidence


@pytest.mark.parametrize("sentence", ["Next I'll write `50-helm.toml` and add a CHANGELOG line.", "Not sure yet whether `nope.md` goes in."])
def test_an_intention_or_a_doubt_is_not_contradicted_by_a_file_to_come(repo, go, sentence):
    assert verdict(repo, sentence)[0] == UNVERIFIED


def test_a_question_in_the_queue_is_not_done_by_the_pull_request_it_mentions(repo, go):
    claim = repo.check("Not sure yet whether this goes in its own PR or as a follow-up on #13.", section="queue", date="2026-01-01")
    assert claim.verdict == UNVERIFIED and "question" in claim.evidence


@pytest.mark.parametrize("sentence, expected", [
    ("Branch `v1` is merged.", VERIFIED),  # into the mainline: v1 is an ancestor of main
    ("Branch `v1` is still unmerged.", CONTRADICTED),
])
def test_merged_without_saying_into_what_means_the_mainline(repo, go, sentence, expected):
    result, evidence = verdict(repo, sentence)
    assert result == expected, evidence


@pytest.mark.parametrize("sentence, expected", [
    ("`{bump22}` predates `{bump23}`.", VERIFIED),
    ("`{bump23}` predates `{bump22}`.", CONTRADICTED),
    ("`{clone}` (the Clone method) is Ada Lovelace's.", CONTRADICTED),  # a possessive names the author
    ("`{clientip}` is already part of `v1.1`.", VERIFIED),
    ("`{clone}` is already part of `v1.1`.", CONTRADICTED),
    ("`context.go` already has `Clone`.", VERIFIED),
    ("`context.go` already has `Reset`.", CONTRADICTED),
    ("Context.Clone came from `{clone}`.", VERIFIED),  # "came from" is the commit's work, checked
    ("Context.Clone came from `{bump22}`.", CONTRADICTED),  # and the evidence names the commit that did it
    ("Branch `main` has landed on `v1`.", CONTRADICTED),  # a branch landed on a branch: ancestry
    ("Branch `v1` has landed on `main`.", VERIFIED),
])
def test_predates_possessive_authors_already_and_landed_on(repo, go, sentence, expected):
    result, evidence = verdict(repo, sentence.format(**go))
    assert result == expected, evidence


@pytest.mark.parametrize("sentence, expected", [
    ("`{clone}` is not an ancestor of `v1`.", VERIFIED),  # a negated ancestry: v1 stops at the first commit
    ("`{base}` is not an ancestor of `v1`.", CONTRADICTED),
    ("`{base}` is an ancestor of `v1`.", VERIFIED),  # "is an ancestor" is no description of the commit's work
    ("Go floor support is Ada Lovelace's `{bump23}`.", CONTRADICTED),  # a possessive before the sha names the author
    ("`v1` forks from `{base}`.", VERIFIED),  # the merge base with the mainline
    ("`v1` forks from `{clone}`.", CONTRADICTED),
    ("`Makefile` wasn't modified between 2026-01-01 and 2026-01-31.", UNVERIFIED),  # a date range is not modeled
])
def test_ancestry_negated_possessives_and_fork_points(repo, go, sentence, expected):
    result, evidence = verdict(repo, sentence.format(**go))
    assert result == expected, evidence


def test_a_remotes_symbolic_head_is_no_missing_branch(repo, go):
    result, evidence = verdict(repo, "On `main`; `origin/HEAD` points at `main`.")
    assert "origin/HEAD" not in evidence and result != CONTRADICTED, evidence
