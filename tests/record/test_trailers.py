"""Symptom: trailers are read by git's trailer parser; the fix-commit rule, both directions."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from cc_hooks.config import TrailersConfig
from cc_hooks.record.trailers import (
    FixRule,
    commits_with_symptoms,
    fixes_without_trailer,
    parse_message_trailers,
    read_commits,
)


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, text=True).stdout


def commit(root: Path, message: str, files: dict[str, str] | None = None) -> str:
    for name, text in (files or {}).items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        git(root, "add", name)
    git(root, "commit", "-q", "--allow-empty", "-m", message)
    return git(root, "rev-parse", "HEAD").strip()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "config", "user.email", "t@example.com")
    git(tmp_path, "config", "user.name", "T")
    return tmp_path


def test_trailer_block_is_parsed_by_git_not_by_regex(repo):
    sha = commit(
        repo,
        "Fix the renderer\n\nSymptom: only mentioned in the body\nmore prose here.\n\n"
        "Symptom: blank region after startup\nsymptom: flicker on resize\nSigned-off-by: T <t@example.com>",
    )
    [c] = read_commits(repo)
    assert c.sha == sha
    assert c.symptoms == ("blank region after startup", "flicker on resize")
    assert "only mentioned in the body" not in c.symptoms


def test_body_symptom_without_trailer_block_is_not_a_trailer(repo):
    commit(repo, "Fix it\n\nSymptom: in the body\nthen a sentence that is not a trailer.")
    assert commits_with_symptoms(repo) == []


def test_trailers_across_all_refs(repo):
    commit(repo, "init")
    git(repo, "checkout", "-q", "-b", "side")
    side = commit(repo, "fix: side branch\n\nSymptom: only on a side branch")
    git(repo, "checkout", "-q", "main")
    commit(repo, "main work")
    found = {c.sha: c.symptoms for c in commits_with_symptoms(repo)}
    assert found == {side: ("only on a side branch",)}
    assert commits_with_symptoms(repo, ["HEAD"]) == []


def test_body_is_returned_when_asked(repo):
    commit(repo, "fix: a\n\nlong explanation\n\nSymptom: x")
    [c] = read_commits(repo, with_body=True)
    assert "long explanation" in c.body and c.body.startswith("fix: a")


@pytest.mark.parametrize(
    "subject",
    ["fix: crash", "Fix crash on empty input", "fix(parser): x", "fix(parser)!: breaking", "fix!: y", "BUGFIX: z", "hotfix for prod", "fix"],
)
def test_fix_subjects(subject):
    assert FixRule().subject_is_fix(subject)


@pytest.mark.parametrize("subject", ["fixture: add helpers", "Add fix-up docs", "feat: fix later", "prefix: x", "fixes are coming"])
def test_non_fix_subjects(subject):
    assert not FixRule().subject_is_fix(subject)


def test_custom_pattern_from_config():
    rule = FixRule.from_config(TrailersConfig(fix_subject_pattern=r"^repair\b"))
    assert rule.subject_is_fix("Repair the pump") and not rule.subject_is_fix("fix: pump")


def test_fixes_without_trailer_in_range(repo):
    base = commit(repo, "init", {"a.txt": "1"})
    trailered = commit(repo, "fix: with trailer\n\nSymptom: x", {"a.txt": "2"})
    bare = commit(repo, "fix(io)!: without trailer", {"a.txt": "3"})
    touching = commit(repo, "Document a cause", {"SYMPTOMS.md": "# Symptom Index\n"})
    commit(repo, "feat: unrelated", {"b.txt": "1"})
    found = [c.sha for c in fixes_without_trailer(repo, rev_range=f"{base}..HEAD")]
    assert found == [touching, bare]
    assert trailered not in found
    off = FixRule(touching_symptoms_is_fix=False)
    assert [c.sha for c in fixes_without_trailer(repo, off, rev_range=f"{base}..HEAD")] == [bare]
    assert [c.sha for c in fixes_without_trailer(repo, rev_range=f"{bare}..HEAD")] == [touching]


def test_fixes_without_trailer_empty_repo(repo):
    assert fixes_without_trailer(repo) == []


def test_parse_message_trailers(repo):
    msg = "fix: x\n\nSymptom: in body\nprose\n\nSymptom: real one\nReviewed-by: r\n"
    assert parse_message_trailers(repo, msg) == ["real one"]
    assert parse_message_trailers(repo, "fix: x\n\nno trailers\n") == []


def test_a_merge_is_not_a_fix_commit_though_its_branch_touched_the_ledger(repo):
    base = commit(repo, "Initial", {"SYMPTOMS.md": "# Symptom Index\n"})
    git(repo, "checkout", "-q", "-b", "topic")
    fix = commit(repo, "Fix the parser\n\nSymptom: parse fails", {"SYMPTOMS.md": "# Symptom Index\n\n## Symptom: parse fails\n"})
    git(repo, "checkout", "-q", "main")
    commit(repo, "Unrelated", {"other.txt": "x\n"})
    git(repo, "merge", "-q", "--no-ff", "--no-edit", "topic")
    found = fixes_without_trailer(repo, rev_range=f"{base}..HEAD")
    assert found == []  # the merge carries no trailer, and needs none: its fix commit does
    assert [c.sha for c in read_commits(repo, [f"{base}..HEAD"], symptoms_path="SYMPTOMS.md") if c.touches_symptoms] == [fix]
