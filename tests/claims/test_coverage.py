"""Verdicts by coverage (issue 43): a sentence is VERIFIED only when every predicate it asserts was
checked, CONTRADICTED only when a modeled predicate is disproved, and UNVERIFIED otherwise, naming
the part left unchecked. Each predicate in both polarities, on real temporary repositories."""

from __future__ import annotations

import pytest

from cc_hooks.claims.model import CONTRADICTED, UNVERIFIED, VERIFIED


@pytest.fixture
def history(repo):
    """main: app.py created, changed, a fix reverted by git's own revert, a release tag, a rename;
    branch `stable` with a cherry-picked copy of one fix."""
    h = {}
    h["create"] = repo.commit("Add the app", {"app.py": "def main():\n    return 1\n", "notes.txt": "a\n"}, date="2026-11-01")
    h["fix"] = repo.commit("Handle empty input in main", {"app.py": "def main():\n    return 2\n"}, date="2026-11-02")
    repo.git("tag", "-a", "v1.0", "-m", "v1.0", date="2026-11-03")
    repo.git("revert", "--no-edit", h["fix"], date="2026-11-04")
    h["revert"] = repo.sha("HEAD")
    repo.git("mv", "notes.txt", "NOTES.md")
    repo.git("commit", "-q", "-m", "Rename the notes", date="2026-11-05")
    h["rename"] = repo.sha("HEAD")
    repo.git("config", "user.name", "Grace Hopper")
    h["cfg"] = repo.commit("Add the config", {"setup.cfg": "[tool]\nrequires_python = >=3.9\nplugins = search\n"}, date="2026-11-06")
    repo.git("tag", "-a", "v1.1", "-m", "v1.1", date="2026-11-07")
    repo.git("branch", "stable", h["create"])
    repo.git("checkout", "-q", "stable")
    repo.git("cherry-pick", h["cfg"], date="2026-11-08")
    h["copy"] = repo.sha("HEAD")
    repo.git("checkout", "-q", "main")
    return {k: v[:8] for k, v in h.items()}


def verdict(repo, text):
    claim = repo.check(text)
    return claim.verdict, claim.evidence


@pytest.mark.parametrize("sentence, expected", [
    ("`{fix}` was reverted.", VERIFIED),
    ("`{cfg}` was not reverted.", VERIFIED),
    ("`{fix}` was not reverted.", CONTRADICTED),
    ("`{revert}` reverted `{fix}`.", VERIFIED),
    ("`{revert}` reverted `{create}`.", CONTRADICTED),
    ("`{cfg}` reverted `{fix}`.", CONTRADICTED),
])
def test_reverted(repo, history, sentence, expected):
    assert verdict(repo, sentence.format(**history))[0] == expected


def test_a_commit_not_reverted_by_any_message_is_not_verified_as_reverted(repo, history):
    """No revert message is no proof that nothing undid it by hand: UNVERIFIED, never VERIFIED."""
    result, evidence = verdict(repo, "`{cfg}` was reverted.".format(**history))
    assert result == UNVERIFIED and "no commit on HEAD reverts" in evidence


@pytest.mark.parametrize("sentence, expected", [
    ("`app.py` hasn't changed since `{revert}`.", VERIFIED),
    ("`app.py` hasn't changed since `{create}`.", CONTRADICTED),
    ("`app.py` was modified after `{create}`.", VERIFIED),
    ("`app.py` was modified after `{revert}`.", CONTRADICTED),
    ("`app.py` has not been touched since the v1.1 release.", VERIFIED),
    ("`app.py` has not been touched since 2026-11-01.", CONTRADICTED),
])
def test_changed_since(repo, history, sentence, expected):
    assert verdict(repo, sentence.format(**history))[0] == expected


@pytest.mark.parametrize("sentence, expected", [
    ("`{cfg}` was authored by Grace Hopper.", VERIFIED),
    ("`{create}` was authored by Test User.", VERIFIED),
    ("`{create}` was authored by Grace Hopper.", CONTRADICTED),
])
def test_authored_by(repo, history, sentence, expected):
    assert verdict(repo, sentence.format(**history))[0] == expected


@pytest.mark.parametrize("sentence, expected", [
    ("`{create}` came before `{fix}`.", VERIFIED),
    ("`{fix}` came before `{create}`.", CONTRADICTED),
    ("`{fix}` came after `{create}`.", VERIFIED),
])
def test_order_of_commits(repo, history, sentence, expected):
    assert verdict(repo, sentence.format(**history))[0] == expected


@pytest.mark.parametrize("sentence, expected", [
    ("The latest release is `v1.1`.", VERIFIED),
    ("The latest release is `v1.0`.", CONTRADICTED),
    ("`v1.1` is the newest tag.", VERIFIED),
])
def test_latest_release(repo, history, sentence, expected):
    assert verdict(repo, sentence.format(**history))[0] == expected


@pytest.mark.parametrize("sentence, expected", [
    ("`{fix}` was first released in `v1.0`.", VERIFIED),
    ("`{create}` was first released in `v1.1`.", CONTRADICTED),
    ("`{cfg}` shipped in `v1.0`.", CONTRADICTED),
    ("`{cfg}` shipped in `v1.1`.", VERIFIED),
])
def test_release_containing_a_commit(repo, history, sentence, expected):
    assert verdict(repo, sentence.format(**history))[0] == expected


@pytest.mark.parametrize("sentence, expected", [
    ("`{cfg}` never reached `stable`.", CONTRADICTED),  # the cherry-pick has the same patch
    ("`{fix}` never reached `stable`.", VERIFIED),
    ("`v1.0` was tagged on `main`.", VERIFIED),
    ("`v1.0` was tagged on `stable`.", CONTRADICTED),
])
def test_reached_a_branch_by_ancestry_or_the_same_patch(repo, history, sentence, expected):
    assert verdict(repo, sentence.format(**history))[0] == expected


@pytest.mark.parametrize("sentence, expected", [
    ("`{create}` created `app.py`.", VERIFIED),
    ("`{fix}` created `app.py`.", CONTRADICTED),
    ("`notes.txt` was renamed to `NOTES.md` in `{rename}`.", VERIFIED),
    ("`notes.txt` was renamed to `NOTES.md` in `{fix}`.", CONTRADICTED),
    ("`app.py` was last modified in `{revert}`.", VERIFIED),
    ("`app.py` was last modified in `{fix}`.", CONTRADICTED),
])
def test_what_a_commit_did_to_a_path(repo, history, sentence, expected):
    assert verdict(repo, sentence.format(**history))[0] == expected


def test_a_past_rename_is_not_contradicted_by_the_new_path_missing_at_head(repo, history):
    repo.git("rm", "-q", "NOTES.md")
    repo.git("commit", "-q", "-m", "Drop the notes")
    result, _ = verdict(repo, "`notes.txt` was renamed to `NOTES.md` in `{rename}`.".format(**history))
    assert result == VERIFIED


@pytest.mark.parametrize("sentence, expected", [
    ("`setup.cfg` requires Python 3.9 or later.", VERIFIED),
    ("`setup.cfg` requires Python 3.12.", UNVERIFIED),  # a word search cannot disprove a paraphrase
    ("`setup.cfg` still says 3.7.", UNVERIFIED),
    ("`main` is defined at `app.py:1`.", VERIFIED),
    ("`main` is defined at `app.py:2`.", CONTRADICTED),
])
def test_what_a_file_or_line_says(repo, history, sentence, expected):
    assert verdict(repo, sentence.format(**history))[0] == expected


@pytest.mark.parametrize("sentence, part", [
    ("`{cfg}` was squash-merged into the release branch.", "whether the same change is elsewhere"),
    ("`{cfg}` was authored by the release bot and is the newest commit.", ""),
    ("`app.py` holds the retry loop.", ""),
    ("The scanner is clean on `main`.", "what a tool or service reports"),
])
def test_an_unmodeled_part_is_never_verified_and_is_named(repo, history, sentence, part):
    claim = repo.check(sentence.format(**history))
    assert claim.verdict != VERIFIED
    if part:
        assert claim.verdict == UNVERIFIED and part in claim.evidence and "say " in claim.evidence


def test_a_noun_that_exists_proves_existence_and_nothing_else(repo, history):
    """"`app.py` was not modified" used to be VERIFIED because the file is tracked."""
    claim = repo.check("`notes.txt` was split into `NOTES.md` in `{rename}`.".format(**history))
    assert claim.verdict == UNVERIFIED  # the old path is gone at HEAD, but the sentence places it in the past
    assert "not checked" in claim.evidence
    folded = repo.check("`notes.txt` was folded into `NOTES.md` in `{rename}`.".format(**history))
    assert folded.verdict == VERIFIED and "removed it" in folded.evidence  # modeled: the commit removed the old path


def test_a_pending_queue_item_with_no_landing_is_not_verified(repo, history):
    claim = repo.check("Add a Redis store.", section="queue", date="2026-10-01")
    assert claim.verdict == UNVERIFIED and "no landing found among" in claim.evidence


def test_a_question_for_people_is_not_work(repo, history):
    claim = repo.check("Ask the maintainers whether v1.2 should wait.", section="queue", date="2026-10-01")
    assert claim.verdict == UNVERIFIED and "question or decision for people" in claim.evidence


def test_nothing_uncommitted_is_a_clean_tree(repo):
    assert repo.check("Nothing uncommitted.").verdict == VERIFIED
    repo.write("README.md", "changed\n")
    assert repo.check("Nothing uncommitted.").verdict == CONTRADICTED


def test_went_away_in_a_commit_is_a_removal(repo):
    sha = repo.commit("Add old", {"old.py": "x\n"})
    repo.git("rm", "-q", "old.py")
    repo.git("commit", "-q", "-m", "Remove old")
    gone = repo.sha("HEAD")[:8]
    assert repo.check(f"`old.py` went away in `{gone}`.").verdict == VERIFIED
    assert repo.check(f"`old.py` went away in `{sha[:8]}`.").verdict != VERIFIED


def test_a_file_only_on_a_named_branch_is_read_there_and_the_evidence_says_where(repo, history):
    repo.git("checkout", "-q", "stable")
    repo.commit("Add the release notes", {"RELEASE.md": "# 1.2\n\nVersioned docs\n"})
    repo.git("checkout", "-q", "main")
    claim = repo.check("`RELEASE.md` has the versioned docs notes, on `stable` only.")
    assert "RELEASE.md has versioned, docs at stable" in claim.evidence
    claim = repo.check("`RELEASE.md` has the search plugin, on `stable` only.")
    assert claim.verdict == UNVERIFIED and "does not have search, plugin at stable" in claim.evidence
