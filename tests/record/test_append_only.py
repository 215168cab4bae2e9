from __future__ import annotations

import subprocess
from pathlib import Path

from cc_hooks.record.append_only import INDEX, RULES, check_append_only, compare_versions

DECISIONS = """\
# Decision Ledger

Append-only.

---

## 2026-11-27 — Keep integer-only arithmetic

**Decision**: integers only.
**Context**: floats were requested.
**Rejected alternatives**:
- Floats — rejected because rounding differs per caller.
**Consequences**: callers convert.

## 2026-11-28 — Write the config with tomli-w

**Decision**: tomli-w.
**Context**: the stack is fixed.
**Rejected alternatives**:
- tomlkit — rejected because it is not in the stack.
**Consequences**: generated comments.
"""

NEW_ENTRY = """
## 2026-11-29 — Keep state in the git common dir

**Decision**: state under .git.
**Context**: never committed.
**Rejected alternatives**:
- XDG — rejected because it strays from the repo.
**Consequences**: worktrees share state.
"""

SYMPTOMS = """\
# Symptom Index

## Symptom: login loops after 30 min

### Cause 1: stale cookie — fixed in 9b1d2e0
- **Mechanism**: old cookie read.
- **Discriminator**: clear it.
- **Fix**: read the new one (9b1d2e0)
- **Guard**: tests/test_auth.py::test_refresh

**Ruled out**:
- Store eviction — eliminated by hit rate, 2026-11-20
"""


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


def commit(repo: Path, name: str, text: str, message: str = "update") -> str:
    (repo / name).write_text(text, encoding="utf-8")
    git(repo, "add", name)
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD").strip()


def rules(findings) -> list[str]:
    return [f.rule for f in findings]


def test_a_pure_append_passes(git_repo):
    commit(git_repo, "DECISIONS.md", DECISIONS)
    (git_repo / "DECISIONS.md").write_text(DECISIONS + NEW_ENTRY, encoding="utf-8")
    assert check_append_only(git_repo, "DECISIONS.md") == []


def test_an_edited_old_entry_is_named_with_its_line(git_repo):
    commit(git_repo, "DECISIONS.md", DECISIONS)
    edited = DECISIONS.replace("**Context**: floats were requested.", "**Context**: floats were never requested.")
    (git_repo / "DECISIONS.md").write_text(edited + NEW_ENTRY, encoding="utf-8")
    (finding,) = check_append_only(git_repo, "DECISIONS.md")
    assert (finding.rule, finding.line, finding.entry) == ("entry-edited", 10, "2026-11-27--keep-integer-only-arithmetic")
    assert "floats were requested" in finding.message and "Keep integer-only arithmetic" in finding.message


def test_a_line_added_to_an_old_decision_is_an_edit(git_repo):
    commit(git_repo, "DECISIONS.md", DECISIONS)
    edited = DECISIONS.replace("**Consequences**: callers convert.", "**Consequences**: callers convert.\n**Amends**: none")
    (git_repo / "DECISIONS.md").write_text(edited, encoding="utf-8")
    assert [(f.rule, f.line) for f in check_append_only(git_repo, "DECISIONS.md")] == [("entry-edited", 14)]


def test_a_deleted_entry_is_reported(git_repo):
    commit(git_repo, "DECISIONS.md", DECISIONS)
    first_only = DECISIONS[: DECISIONS.index("## 2026-11-28")]
    (git_repo / "DECISIONS.md").write_text(first_only, encoding="utf-8")
    (finding,) = check_append_only(git_repo, "DECISIONS.md")
    assert (finding.rule, finding.entry) == ("entry-deleted", "2026-11-28--write-the-config-with-tomli-w")
    assert "line 15 in HEAD" in finding.message


def test_a_renamed_heading_is_reported_as_such(git_repo):
    commit(git_repo, "DECISIONS.md", DECISIONS)
    renamed = DECISIONS.replace("## 2026-11-28 — Write the config with tomli-w", "## 2026-11-28 — Write config with tomli-w")
    (git_repo / "DECISIONS.md").write_text(renamed, encoding="utf-8")
    assert [(f.rule, f.line) for f in check_append_only(git_repo, "DECISIONS.md")] == [("entry-heading-edited", 15)]


def test_preamble_and_whitespace_only_changes_are_not_edits(git_repo):
    commit(git_repo, "DECISIONS.md", DECISIONS)
    changed = DECISIONS.replace("Append-only.", "Append-only, dated. Amend by appending.")
    changed = changed.replace("**Decision**: integers only.", "**Decision**:   integers   only.   ")
    changed = changed.replace("\n", "\r\n").replace("**Context**: the stack", "\r\n**Context**: the stack")
    (git_repo / "DECISIONS.md").write_bytes(("\ufeff" + changed).encode("utf-8"))
    assert check_append_only(git_repo, "DECISIONS.md") == []


def test_a_new_entry_inserted_in_the_middle_is_a_warning(git_repo):
    commit(git_repo, "DECISIONS.md", DECISIONS)
    at = DECISIONS.index("## 2026-11-28")
    (git_repo / "DECISIONS.md").write_text(DECISIONS[:at] + NEW_ENTRY.lstrip() + "\n" + DECISIONS[at:], encoding="utf-8")
    findings = check_append_only(git_repo, "DECISIONS.md")
    assert [(f.rule, f.severity, f.line) for f in findings] == [("entry-not-appended", "warning", 15)]


def test_a_symptom_may_grow_but_not_change(git_repo):
    commit(git_repo, "SYMPTOMS.md", SYMPTOMS)
    grown = SYMPTOMS.replace(
        "**Ruled out**:",
        "### Cause 2: clock skew — fixed in 1234567\n- **Mechanism**: m\n- **Discriminator**: d\n- **Fix**: f (1234567)\n- **Guard**: g\n\n**Ruled out**:",
    ) + "- CDN — eliminated by no-store, 2026-11-21\n"
    (git_repo / "SYMPTOMS.md").write_text(grown, encoding="utf-8")
    assert check_append_only(git_repo, "SYMPTOMS.md") == []
    changed = grown.replace("eliminated by hit rate", "eliminated by the hit rate")
    (git_repo / "SYMPTOMS.md").write_text(changed, encoding="utf-8")
    (finding,) = check_append_only(git_repo, "SYMPTOMS.md")
    assert (finding.rule, finding.line) == ("entry-edited", changed.splitlines().index("- Store eviction — eliminated by the hit rate, 2026-11-20") + 1)
    # growth is a property of the ledger kind, overridable
    (git_repo / "SYMPTOMS.md").write_text(grown, encoding="utf-8")
    assert rules(check_append_only(git_repo, "SYMPTOMS.md", growth=False)) == ["entry-edited"]


def test_commit_to_commit_and_the_index(git_repo):
    first = commit(git_repo, "DECISIONS.md", DECISIONS)
    second = commit(git_repo, "DECISIONS.md", DECISIONS.replace("integers only.", "integers, mostly."))
    third = commit(git_repo, "DECISIONS.md", DECISIONS.replace("integers only.", "integers, mostly.") + NEW_ENTRY)
    assert rules(check_append_only(git_repo, "DECISIONS.md", base=first, target=second)) == ["entry-edited"]
    assert check_append_only(git_repo, "DECISIONS.md", base=second, target=third) == []
    (git_repo / "DECISIONS.md").write_text(DECISIONS, encoding="utf-8")  # unstaged revert: not in the index
    assert check_append_only(git_repo, "DECISIONS.md", target=INDEX) == []
    assert sorted(rules(check_append_only(git_repo, "DECISIONS.md"))) == ["entry-deleted", "entry-edited"]


def test_a_deleted_ledger_and_a_ledger_new_since_base(git_repo):
    commit(git_repo, "DECISIONS.md", DECISIONS)
    (git_repo / "SYMPTOMS.md").write_text(SYMPTOMS, encoding="utf-8")
    assert check_append_only(git_repo, "SYMPTOMS.md") == []  # nothing to protect yet
    (git_repo / "DECISIONS.md").unlink()
    assert rules(check_append_only(git_repo, "DECISIONS.md")) == ["ledger-deleted"]
    assert rules(check_append_only(git_repo, str(git_repo / "DECISIONS.md"))) == ["ledger-deleted"]  # absolute path


def test_unreadable_versions_are_unchecked_not_passed(git_repo, tmp_path):
    commit(git_repo, "DECISIONS.md", DECISIONS)
    (finding,) = check_append_only(git_repo, "DECISIONS.md", base="no-such-branch")
    assert (finding.rule, finding.severity) == ("append-only-unchecked", "warning")
    assert rules(check_append_only(git_repo, "DECISIONS.md", target="no-such-branch")) == ["append-only-unchecked"]
    empty = tmp_path / "unborn"
    empty.mkdir()
    git(empty, "init", "-q")
    (empty / "DECISIONS.md").write_text(DECISIONS, encoding="utf-8")
    assert check_append_only(empty, "DECISIONS.md") == []  # no commits: nothing earlier to protect


def test_compare_versions_is_pure_and_every_rule_is_exercised():
    assert compare_versions(DECISIONS, DECISIONS + NEW_ENTRY, "D.md") == []
    covered = {"entry-edited", "entry-deleted", "entry-heading-edited", "entry-not-appended", "ledger-deleted", "append-only-unchecked"}
    assert covered == set(RULES)
