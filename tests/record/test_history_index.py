"""Triage's index of HEAD's history is remembered and extended with the new commits alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from cc_hooks.record import history_index

from record.repo_helpers import commit_files, git, new_repo


def commit(root: Path, message: str, name: str = "a.py") -> str:
    path = root / name
    path.write_text((path.read_text() if path.exists() else "") + message + "\n")
    git(root, "add", name)
    git(root, "commit", "-q", "-m", message)
    return git(root, "rev-parse", "HEAD").strip()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    new_repo(tmp_path)
    (tmp_path / ".git" / "cc-hooks").mkdir()  # the state directory the cache lives in
    for n in range(3):
        commit(tmp_path, f"Add helper {n}")
    return tmp_path


def logged(monkeypatch) -> list:
    import cc_hooks.git as gitmod

    calls = []
    real = gitmod.run_git
    monkeypatch.setattr(gitmod, "run_git", lambda *a, **k: calls.append(a[1:]) or real(*a, **k))
    return calls


def test_a_new_commit_is_read_alone_and_indexed_as_from_scratch(repo, monkeypatch):
    history_index.load(repo)
    tip = git(repo, "rev-parse", "HEAD").strip()
    new = commit(repo, "Close the pager's temp file before get_pager_file unlinks it\n\nFixes #12.\n\nSymptom: PermissionError on exit")
    calls = logged(monkeypatch)
    index = history_index.load(repo)
    assert [c for c in calls if c[0] == "log"][0][-2] == f"{tip}..{new}"  # only the commits since the last tip
    assert index.rows[-1][0] == new and index.rows[-1][3] == ["PermissionError on exit"]
    fresh = history_index.HistoryIndex(history_index.extend(None, history_index._read(repo, ["HEAD"], 30.0)))
    assert index.rows == fresh.rows and index._postings == fresh._postings
    assert index.postings("subject", "pager") == [3] and index.postings("body", "permissionerror") == [3]
    assert index.naming("get_pager_file") == {3} and index.postings("names", "#12") == [3]


def test_a_rewritten_history_is_indexed_again(repo):
    history_index.load(repo)
    git(repo, "reset", "-q", "--hard", "HEAD~2")
    commit(repo, "Replace the helpers")
    index = history_index.load(repo)
    assert [row[2] for row in index.rows] == ["Add helper 0", "Replace the helpers"]
    assert index.postings("subject", "replac") == [1] and index.postings("subject", "2") == []


def test_an_unborn_branch_has_an_empty_index(tmp_path):
    git(tmp_path, "init", "-q", "-b", "main")
    assert len(history_index.load(tmp_path)) == 0


def test_changelog_entries_that_say_they_fix_mark_their_commit(repo):
    def change(message, files):
        return commit_files(repo, message, files)

    fixed = change("Guard the parser", {"p.py": "x = 1\n", "CHANGES.md": "- Fixed a crash on empty input.\n"})
    feature = change("Add colours", {"c.py": "y = 1\n", "CHANGES.md": "- Fixed a crash on empty input.\n- Added colour output.\n"})
    heading = change("Handle tabs", {"t.py": "z = 1\n", "CHANGES.md": "- Fixed a crash on empty input.\n- Added colour output.\n\n"
                                                                      "### Bug fixes\n\n- Tabs are kept.\n"})
    fragment = change("Keep spaces (#77)", {"s.py": "w = 1\n", "changes/77.bugfix.rst": "Spaces are kept.\n"})
    news = change("Speed up (#78)", {"f.py": "v = 1\n", "changes/78.feature.rst": "Faster start.\n"})
    index = history_index.load(repo)
    marked = {index.rows[p][0] for p in index.noted(history_index.FIX_MARK)}
    assert {fixed, heading, fragment} <= marked and not {feature, news} & marked
    assert index.noted("spac") == {index.position(fragment)}


def test_a_renamed_changelog_keeps_the_entries_written_under_its_old_name(repo):
    """Issue 20 (click): ``CHANGES`` became ``CHANGES.rst``; a walk of HEAD's literal paths lost every
    entry written before the rename, and with them the fixes they describe."""
    fixed = commit_files(repo, "Close the temp file first", {"pager.py": "x = 1\n", "CHANGES": "- Fix pager crash on Windows.\n"})
    commit_files(repo, "Release 1.0", {"CHANGES": "- Fix pager crash on Windows.\n- Colours.\n- Tabs.\n- Speed.\n"})
    git(repo, "mv", "CHANGES", "CHANGES.rst")  # adds every entry again: a release's many, credited to none
    git(repo, "commit", "-q", "-m", "Rename the changelog")
    index = history_index.load(repo)
    assert index.noted("pager") == {index.position(fixed)}


def test_heads_changelogs_come_before_the_names_they_may_have_had(tmp_path):
    """Review: 30 ``packages/*/CHANGELOG.md`` with 16 former names each passed the 400-pathspec cut
    sorted together, and real changelogs fell out; ``history.py`` was taken for a changelog."""
    new_repo(tmp_path)
    files = {f"packages/p{n:02}/CHANGELOG.md": "- Fixed.\n" for n in range(30)}
    commit_files(tmp_path, "Add the packages", {**files, "src/history.py": "x = 1\n"})
    changelogs, _ = history_index._places(tmp_path, "HEAD", 30.0)
    assert {f":(literal){p}" for p in files} <= set(changelogs) and len(changelogs) <= history_index.MAX_PATHSPECS
    assert ":(literal)src/history.py" not in changelogs


def test_a_changelog_folder_of_release_files_credits_no_issue_by_the_version(repo):
    """Issue 20 (cookiecutter): ``CHANGELOG/1.6.0.md`` was read as towncrier's fragment of issue 1, so
    every entry of every 1.x release was credited to each commit naming ``#1`` (a fork's pull request)."""
    fork = commit_files(repo, "Merge pull request #1 from someone/branch", {"a.py": "x = 1\n"})
    fix = commit_files(repo, "Close the template file (#40)", {"b.py": "y = 1\n"})
    commit_files(repo, "Release 1.6.0", {"CHANGELOG/1.6.0.md": "## Changes\n\n- Windows paths in hooks are quoted (#40)\n- Zip archives keep their modes\n"
                                              "- Colours\n- Tabs\n"})  # a release's many entries: credited to the numbers they name
    index = history_index.load(repo)
    assert index.noted("quot") == {index.position(fix)}
    assert index.position(fork) not in index.noted("zip")


def test_towncrier_fragments_name_an_issue_and_release_files_do_not():
    named = {path: refs for path in ("changes/77.bugfix.rst", "changelog.d/8.feature.1.md", "CHANGES/9.bugfix", "releases/3.rst",
                                     "changelog/2.md", "whatsnew/1.x.rst", "CHANGELOG/2.3.1.md")
             for _, refs, _ in history_index._entries(f"+++ b/{path}\n+- Zip archives keep their modes\n")}
    assert named == {"changes/77.bugfix.rst": ["77"], "changelog.d/8.feature.1.md": ["8"], "CHANGES/9.bugfix": ["9"],
                     "releases/3.rst": [], "changelog/2.md": [], "whatsnew/1.x.rst": [], "CHANGELOG/2.3.1.md": []}


def test_a_rendered_changelogs_character_references_are_no_issue_numbers(repo):
    """Issue 20 (python-gitlab): a changelog rendered to HTML entities wrote ``don&#39;t``; ``&#39;`` was
    read as issue 39, so hundreds of entries were credited to the one old commit naming ``#39``, which
    then ranked first for reports about approvals and redirects."""
    old = commit_files(repo, "Merge pull request #39 from someone/timeout", {"a.py": "x = 1\n"})
    fix = commit_files(repo, "fix: update approval rules in place (#2801)", {"b.py": "y = 1\n"})
    commit_files(repo, "chore: release 4.0.0", {"CHANGELOG.md": "## Fixes\n\n- Approvers aren&#39;t duplicated (#2801)\n"
                                                              "- Zip archives keep their modes\n- Colours\n- Tabs\n"})
    index = history_index.load(repo)
    assert index.noted("approver") == {index.position(fix)}
    assert index.position(old) not in index.noted("duplicat")
    assert "aren't" in history_index._entries("+++ b/CHANGELOG.md\n+- Approvers aren&#39;t duplicated\n")[0][0]


def test_a_tracking_issue_many_commits_name_credits_its_entries_to_none_of_them(repo):
    """Issue 20 (pipx, round 19): 31 commits of a 2026 cleanup each named the tracking issue #1856 in their
    body, and the release's entries naming #1856 were credited to all of them: every report about
    installs, venvs or packages found that cluster, not its fix. An issue number more than
    ``SHARED_ISSUE`` commits name points at no one fix; one a few commits name still does."""
    cluster = [commit_files(repo, f"fix(part{n}): tidy step {n}\n\nPart of #1856.", {f"m{n}.py": f"x = {n}\n"})
               for n in range(6)]  # more than SHARED_ISSUE (5)
    fix = commit_files(repo, "Look in lib64 too (#1999)", {"paths.py": "y = 1\n"})
    again = commit_files(repo, "Test the lib64 lookup (#1999)", {"test_paths.py": "z = 1\n"})
    commit_files(repo, "Release 1.9", {"CHANGELOG.md": "## Fixes\n\n- Shared libraries keep their site folder (#1856)\n"
                                                     "- Packages under lib64/site-packages are found (#1999)\n- Colours\n- Tabs\n"})
    index = history_index.load(repo)
    assert index.noted("lib64") == {index.position(fix), index.position(again)}
    assert not index.noted("folder") & {index.position(sha) for sha in cluster}
