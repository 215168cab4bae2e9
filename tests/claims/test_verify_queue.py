from cc_hooks.claims.model import CONTRADICTED, QUEUE, UNVERIFIED, VERIFIED


def test_pending_item_whose_work_landed_is_contradicted(repo):
    sha = repo.commit("Add regression test for negative numbers in add()", date="2026-11-29")
    claim = repo.check("Add a regression test for negative numbers in `add()`.", section="queue", date="2026-11-28")
    assert claim.kind == QUEUE
    assert claim.verdict == CONTRADICTED
    assert f"landed: matched by {sha[:7]}" in claim.evidence


def test_pending_item_with_no_matching_commit_is_pending_not_verified(repo):
    repo.commit("Refactor the parser", date="2026-11-29")
    claim = repo.check("Add a regression test for negative numbers in `add()`.", section="queue", date="2026-11-28")
    assert_pending(claim)
    assert "among 2 commits" in claim.evidence


def test_work_done_before_the_item_date_counts_only_when_near_identical(repo):
    sha = repo.commit("Add regression test for negative numbers", date="2026-11-01")
    claim = repo.check("Add a regression test for negative numbers.", section="queue", date="2026-11-28")
    assert claim.verdict == CONTRADICTED and f"matched by {sha[:7]}" in claim.evidence  # queued after it landed
    repo.commit("Add negative-number parsing to the lexer", date="2026-10-01")
    claim = repo.check("Add a lexer test for negative exponents.", section="queue", date="2026-11-28")
    assert_pending(claim)  # an older commit sharing some words is not this work


def test_explicit_reference_in_the_body(repo):
    repo.git("commit", "-q", "--allow-empty", "-m", "Tidy things\n\nCloses #123", date="2026-11-29")
    claim = repo.check("Handle the odd case (#123)", section="queue", date="2026-11-28")
    assert claim.verdict == CONTRADICTED and "#123 referenced in" in claim.evidence


def test_done_item_needs_a_commit(repo):
    claim = repo.check("Release v1.4.2 of the widget", section="queue", date="2026-11-27", done=True)
    assert claim.verdict == UNVERIFIED
    repo.commit("Release widget v1.4.2", date="2026-11-27")
    claim = repo.check("Release v1.4.2 of the widget", section="queue", date="2026-11-27", done=True)
    assert claim.verdict == VERIFIED and claim.evidence.startswith("done:")


def test_undated_item_is_unverified(repo):
    claim = repo.check("Add a regression test", section="queue", date=None)
    assert claim.verdict == UNVERIFIED and "undated" in claim.evidence


def test_done_item_naming_its_commit_is_done_by_it(repo):
    """This project's own dashboard: "DONE — Wire the report into SessionStart, landed in `cde2b94`." was UNVERIFIED."""
    sha = repo.commit("SessionStart: the verified rehydration report", date="2026-11-29")
    done = repo.check(f"Wire the report into SessionStart (issue 5), landed in `{sha[:7]}`.", section="queue", date="2026-11-29", done=True)
    assert done.verdict == VERIFIED and f"done: landed in {sha[:7]}" in done.evidence
    pending = repo.check(f"Revert `{sha[:7]}` once the fix is in.", section="queue", date="2026-11-29")
    assert_pending(pending)  # naming a commit is not doing the work: still pending
    absent = repo.check("Ship it, landed in `deadbee1`.", section="queue", date="2026-11-29", done=True)
    assert absent.verdict == UNVERIFIED


def test_a_pending_item_close_to_an_older_commit_is_not_called_pending(repo):
    sha = repo.commit("Refill tokens based on elapsed time, not calls", date="2026-08-05")
    claim = repo.check("Make refill use elapsed time instead of counting calls.", section="queue", date="2026-11-03")
    assert claim.verdict == UNVERIFIED and f"possibly done already: {sha[:7]}" in claim.evidence
    claim = repo.check("Add a lexer for the config language.", section="queue", date="2026-11-03")
    assert_pending(claim)  # nothing close: pending


def test_an_item_whose_code_names_are_in_an_older_subject_landed(repo):
    sha = repo.commit("Documentation for SSL_CERT_FILE and SSL_CERT_DIR (#3579)", date="2025-09-11")
    claim = repo.check("Document `SSL_CERT_FILE` and `SSL_CERT_DIR`.", section="queue", date="2026-08-01")
    assert claim.verdict == CONTRADICTED and sha[:7] in claim.evidence


def test_words_only_in_an_old_commit_body_do_not_land_an_item(repo):
    repo.git("commit", "-q", "--allow-empty", "-m", "Add Windows to the build matrix (#457)\n\n* applied only python 3.7 tests on Windows", date="2019-10-09")
    claim = repo.check("Add Python 3.14 to the test matrix.", section="queue", date="2026-08-01")
    assert claim.verdict != CONTRADICTED


def test_an_item_about_named_code_needs_a_commit_that_names_it(repo):
    repo.commit("remove deprecated RequestContext.g", date="2022-07-01")
    claim = repo.check("Remove the deprecated `RequestContext` alias.", section="queue", date="2026-08-01")
    assert claim.verdict != CONTRADICTED  # RequestContext.g is other code
    sha = repo.commit("Remove the deprecated RequestContext alias", date="2026-08-02")
    claim = repo.check("Remove the deprecated `RequestContext` alias.", section="queue", date="2026-08-01")
    assert claim.verdict == CONTRADICTED and sha[:7] in claim.evidence


def test_an_item_naming_a_version_needs_a_commit_that_says_it(repo):
    repo.commit("Remove head lines and add versions of first Python 3 support", date="2014-12-02")
    claim = repo.check("Drop support for Python 3.9.", section="queue", date="2026-08-01")
    assert claim.verdict != CONTRADICTED
    sha = repo.commit("Drop support for Python 3.9", date="2026-08-02")
    assert sha[:7] in repo.check("Drop support for Python 3.9.", section="queue", date="2026-08-01").evidence


def test_the_history_is_extended_from_the_last_tip_not_read_again(repo, git_verbs):
    """After one new commit, the queue reads that commit only (cc_hooks.memo.remember_log)."""
    (repo.path / ".git" / "cc-hooks").mkdir()
    for i in range(30):
        repo.commit(f"Change number {i}", date="2026-01-01")
    repo.check("Add a lexer.", section="queue", date="2026-11-03")
    repo.commit("Add the tokenizer", date="2026-11-04")
    git_verbs.clear()
    from cc_hooks.claims import history

    calls = []
    real = history._log_rows
    history._log_rows = lambda ctx, revs, source=False: calls.append(list(revs)) or real(ctx, revs, source)
    try:
        repo.check("Add a lexer.", section="queue", date="2026-11-03")
    finally:
        history._log_rows = real
    assert calls and all(".." in revs[0] for revs in calls if not any(r == "--not" for r in revs)), calls


class _CountedPosting(list):
    """A posting list that counts the positions read from it."""

    reads = 0

    def __iter__(self):
        _CountedPosting.reads += len(self)
        return super().__iter__()


def test_a_word_every_commit_has_is_read_once_per_history_not_once_per_item():
    """200 queue items sharing a word of every subject ("module") cost one pass over its posting (issue 22)."""
    from cc_hooks.claims.history import History, _index, item_words

    rows = [[f"{i:040x}", "2026-11-01", "", f"Change module {i % 50} parser", "", sorted(item_words(f"Change module {i % 50} parser")),
             sorted(item_words(f"Change module {i % 50} parser"))] for i in range(5000)]
    rows[7][3] = "Rewrite the lexer module"
    rows[7][5] = rows[7][6] = sorted(item_words(rows[7][3]))
    index = _index(rows)
    index["roots"] = {word: _CountedPosting(posting) for word, posting in index["roots"].items()}
    history = History(rows, index)
    _CountedPosting.reads = 0
    found = [history.sharing(["rewrit", "lexer", "modul"], 2) for _ in range(200)]
    assert all([c.sha for c in hits] == [rows[7][0]] for hits in found)
    assert _CountedPosting.reads <= 5000 + 200 * 2  # the commonest posting once, the rare ones per call
    brute = [p for p, row in enumerate(rows) if len({"rewrit", "lexer", "modul"} & {w[:6] if len(w) > 6 else w for w in row[5]}) >= 2]
    assert [c.sha for c in history.sharing(["rewrit", "lexer", "modul"], 2)] == [rows[p][0] for p in brute]


def assert_pending(claim):
    """No landing found: pending as far as git shows, which is no proof (issue 43): never VERIFIED."""
    assert claim.verdict == UNVERIFIED and "no landing found among" in claim.evidence, claim.evidence
