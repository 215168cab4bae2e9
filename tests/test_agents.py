"""The packaged skills and subagents: valid frontmatter, real verbs, and a careful installer."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cc_hooks import agents_install
from cc_hooks.agents_install import (
    SKILLS,
    SUBAGENTS,
    agent_definition,
    edited_by_user,
    install_agents,
    packaged_text,
    split_frontmatter,
    stamped,
    uninstall_agents,
)
from cc_hooks.cli import verb_names

PACKAGED = [("skill", name) for name in SKILLS] + [("subagent", name) for name in SUBAGENTS]
CLAUDE_CODE_TOOLS = {"Read", "Grep", "Glob", "Bash", "Edit", "Write"}
# Verbs the method's files call that other issues are still building; the test checks them once they exist.
PLANNED_VERBS = {"rehydrate", "triage", "audit"}


# --- the packaged files -------------------------------------------------------------------------


@pytest.mark.parametrize("kind,name", PACKAGED)
def test_packaged_file_has_frontmatter_the_cli_accepts(kind: str, name: str) -> None:
    fields, body = split_frontmatter(packaged_text(kind, name))
    assert fields["name"] == name
    description = fields["description"]
    assert 80 <= len(description) <= 1024
    # Unquoted YAML scalars: no ": " (a mapping), no leading quote or indicator character.
    assert ": " not in description and not re.match(r"""['"&*!|>%@`#\[{-]""", description)
    assert len(body) > 500
    if kind == "subagent":
        tools = agent_definition(name)["tools"]
        assert set(tools) <= CLAUDE_CODE_TOOLS and "Bash" in tools


@pytest.mark.parametrize("kind,name", PACKAGED)
def test_packaged_file_calls_only_real_cc_hooks_verbs(kind: str, name: str) -> None:
    called = set(re.findall(r"`cc-hooks ([a-z][a-z-]*)", packaged_text(kind, name)))
    assert called, "each file says which cc-hooks command to run"
    missing = called - set(verb_names())
    assert missing <= PLANNED_VERBS, f"calls unknown verbs {sorted(missing - PLANNED_VERBS)}"
    if missing:
        pytest.skip(f"verbs not built yet: {', '.join(sorted(missing))} (the rest exist)")


def test_semantic_compactor_walks_through_all_four_commands() -> None:
    text = packaged_text("skill", "semantic-compactor")
    for command in ("cc-hooks check", "cc-hooks triage", "cc-hooks rehydrate", "cc-hooks audit"):
        assert f"`{command}" in text
    for verdict in ("PASS", "FAIL", "VERIFIED", "CONTRADICTED", "UNVERIFIED", "KNOWN-BUT-FIX-INTACT"):
        assert verdict in text


def test_subagents_prescribe_their_report_formats() -> None:
    assert "## Triage: <symptom>" in packaged_text("subagent", "regression-triage")
    assert "## Cold-Start Audit — <YYYY-MM-DD>" in packaged_text("subagent", "cold-start-auditor")


def test_agent_definition_is_what_the_cli_agents_flag_takes() -> None:
    definition = agent_definition("cold-start-auditor")
    assert set(definition) == {"description", "prompt", "tools"}
    assert definition["prompt"].startswith("You audit whether") and "---" not in definition["prompt"][:3]


@pytest.mark.parametrize(
    "text,problem",
    [
        ("name: x\n---\nbody", "no frontmatter"),
        ("---\nname: x\nbody", "not closed"),
        ("---\njust words\n---\nbody", "not 'key: value'"),
    ],
)
def test_split_frontmatter_rejects_malformed_files(text: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        split_frontmatter(text)


def test_unknown_packaged_name_is_an_error() -> None:
    with pytest.raises(ValueError, match="no packaged skill named 'triage'"):
        packaged_text("skill", "triage")


# --- the installer ------------------------------------------------------------------------------


def _installed(root: Path) -> list[Path]:
    claude = root / ".claude"
    return [claude / "skills" / n / "SKILL.md" for n in SKILLS] + [claude / "agents" / f"{n}.md" for n in SUBAGENTS]


def test_install_writes_every_skill_and_subagent(git_repo: Path) -> None:
    lines = install_agents(git_repo, "project")
    assert lines == [f"{path}: written" for path in _installed(git_repo)]
    for path, (kind, name) in zip(_installed(git_repo), PACKAGED):
        assert path.read_text() == stamped(packaged_text(kind, name))
        assert not edited_by_user(path.read_text())


def test_install_twice_changes_nothing(git_repo: Path) -> None:
    install_agents(git_repo, "project")
    before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in _installed(git_repo)}
    assert all(line.endswith(": unchanged") for line in install_agents(git_repo, "project"))
    assert before == {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in _installed(git_repo)}


def test_install_keeps_a_file_the_user_edited_and_says_so(git_repo: Path) -> None:
    install_agents(git_repo, "project")
    edited = git_repo / ".claude" / "agents" / "regression-triage.md"
    edited.write_text(edited.read_text().replace("Reason only from the record.", "Reason from my notes too."))
    lines = install_agents(git_repo, "project")
    assert f"{edited}: kept, edited since cc-hooks wrote it (not overwritten; force replaces it)" in lines
    assert "Reason from my notes too." in edited.read_text()
    assert sum(line.endswith(": unchanged") for line in lines) == 3


def test_install_keeps_a_same_named_file_it_did_not_write(git_repo: Path) -> None:
    own = git_repo / ".claude" / "skills" / "rehydrate" / "SKILL.md"
    own.parent.mkdir(parents=True)
    own.write_text("---\nname: rehydrate\ndescription: my own\n---\nmine\n")
    assert f"{own}: kept, edited since cc-hooks wrote it (not overwritten; force replaces it)" in install_agents(
        git_repo, "project")
    assert own.read_text().endswith("mine\n")


def test_install_force_replaces_an_edited_file(git_repo: Path) -> None:
    install_agents(git_repo, "project")
    edited = _installed(git_repo)[0]
    edited.write_text("mine\n")
    lines = install_agents(git_repo, "project", force=True)
    assert f"{edited}: replaced (it had been edited)" in lines
    assert edited.read_text() == stamped(packaged_text("skill", SKILLS[0]))


def test_install_updates_an_unedited_file_from_an_older_release(git_repo: Path) -> None:
    older = _installed(git_repo)[1]
    older.parent.mkdir(parents=True)
    older.write_text(stamped("---\nname: rehydrate\ndescription: the old text\n---\nold body\n"))
    assert not edited_by_user(older.read_text())
    assert f"{older}: updated" in install_agents(git_repo, "project")
    assert older.read_text() == stamped(packaged_text("skill", "rehydrate"))


def test_dry_run_writes_nothing(git_repo: Path) -> None:
    lines = install_agents(git_repo, "project", dry_run=True)
    assert lines == [f"{path}: dry run, would be written" for path in _installed(git_repo)]
    assert not (git_repo / ".claude").exists()


def test_user_scope_installs_into_the_claude_config_dir(git_repo: Path, tmp_path: Path, monkeypatch) -> None:
    config = tmp_path / "config"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    install_agents(git_repo, "user")
    assert (config / "agents" / "cold-start-auditor.md").exists()
    assert (config / "skills" / "semantic-compactor" / "SKILL.md").exists()
    assert not (git_repo / ".claude").exists()


def test_local_scope_shares_the_project_directories(git_repo: Path) -> None:
    assert agents_install.target_dir(git_repo, "local") == git_repo / ".claude"
    with pytest.raises(ValueError, match="unknown scope"):
        agents_install.target_dir(git_repo, "global")


def test_uninstall_removes_only_unedited_files(git_repo: Path) -> None:
    install_agents(git_repo, "project")
    edited = git_repo / ".claude" / "agents" / "cold-start-auditor.md"
    edited.write_text(edited.read_text() + "\nmy addition\n")
    lines = uninstall_agents(git_repo, "project")
    assert f"{edited}: kept, edited since cc-hooks wrote it" in lines
    assert sum(line.endswith(": removed") for line in lines) == 3
    assert [p for p in _installed(git_repo) if p.exists()] == [edited]
    assert not (git_repo / ".claude" / "skills" / "rehydrate").exists()
    assert uninstall_agents(git_repo, "project") == [f"{edited}: kept, edited since cc-hooks wrote it"]
