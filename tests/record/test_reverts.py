"""Reverted fixes (issue 44): git's revert message, a revert of the revert, a revert naming the subject
only, and a fix whose lines came back after its revert, on real repositories."""

from __future__ import annotations

from pathlib import Path

import pytest

from cc_hooks.commands.triage import KNOWN, _patches, triage
from cc_hooks.record.fixes import GONE, INTACT, judge
from cc_hooks.record.reverts import reverted
from record.repo_helpers import commit_files as commit
from record.repo_helpers import git, new_repo


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    new_repo(tmp_path)
    commit(tmp_path, "init", {"writer.go": "func scan(line string) {\n\treturn split(line)\n}\n"})
    return tmp_path


FIX = {"writer.go": "func scan(line string) {\n\tif len(line) > maxToken {\n\t\treturn chunk(line)\n\t}\n\treturn split(line)\n}\n"}


def judged(root: Path, sha: str):
    return judge(root, sha, _patches(root, [sha], 30.0)[sha])


def test_a_fix_git_reverted_is_gone_naming_the_revert(repo):
    fix = commit(repo, "Fix writer hang on long lines", FIX)
    git(repo, "revert", "--no-edit", fix)
    revert = git(repo, "rev-parse", "HEAD").strip()
    result = judged(repo, fix)
    assert result.outcome == GONE and result.by == revert and "reverted by" in result.detail
    assert reverted(repo, [fix]) == {fix: (revert, 'Revert "Fix writer hang on long lines"')}


def test_a_revert_of_the_revert_restores_the_fix(repo):
    fix = commit(repo, "Fix writer hang on long lines", FIX)
    git(repo, "revert", "--no-edit", fix)
    git(repo, "revert", "--no-edit", "HEAD")
    assert reverted(repo, [fix]) == {}
    assert judged(repo, fix).outcome == INTACT


def test_a_revert_naming_only_the_subject_counts(repo):
    fix = commit(repo, "Fix writer hang on long lines", FIX)
    commit(repo, 'Revert "Fix writer hang on long lines"', {"writer.go": "func scan(line string) {\n\treturn split(line)\n}\n"})
    assert fix in reverted(repo, [fix])


def test_a_reverted_fix_whose_lines_are_back_stays_intact_and_says_so(repo):
    fix = commit(repo, "Fix writer hang on long lines", FIX)
    git(repo, "revert", "--no-edit", fix)
    commit(repo, "Bound scanned tokens again", FIX)  # re-applied by hand, not as a revert of the revert
    result = judged(repo, fix)
    assert result.outcome == INTACT and "reverted it, but its lines are in HEAD again" in result.detail


def test_triage_calls_a_reverted_fix_a_regression(repo):
    commit(repo, "Fix writer hang on long lines\n\nSymptom: logger hangs on a line longer than 64KB", FIX)
    git(repo, "revert", "--no-edit", "HEAD")
    result = triage(repo, ["logger hangs on a line longer than 64KB"])
    assert result.verdict == KNOWN
    assert any(f.status == "gone" and "reverted by" in f.detail for c in result.prior for f in c.fixes)
