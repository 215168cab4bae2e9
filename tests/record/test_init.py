from __future__ import annotations

import datetime
import subprocess
import sys
from pathlib import Path

import pytest

from cc_hooks.cli import main
from cc_hooks.commands.init import render_config, scaffold
from cc_hooks.config import Config, GuardConfig, ProbeConfig, load_config
from cc_hooks.record.decisions import validate_decisions
from cc_hooks.record.symptoms import validate_symptoms

STORES = ["SYMPTOMS.md", "DECISIONS.md", "COLDSTART_QUESTIONS.md", "next_steps.md", ".cc-hooks.toml"]
DECLARATION = "Dashboard: file next_steps.md"


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


def run_init(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["init", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_scaffolds_every_missing_store_and_declares_the_dashboard(git_repo, capsys):
    code, out, err = run_init(capsys, "--project", str(git_repo))
    assert (code, err) == (0, "")
    for name in STORES + ["CLAUDE.md"]:
        assert (git_repo / name).is_file(), name
        assert f"created  {name}" in out
    assert DECLARATION in (git_repo / "CLAUDE.md").read_text(encoding="utf-8").splitlines()
    dashboard = (git_repo / "next_steps.md").read_text(encoding="utf-8")
    assert f"## CURRENT STATE — {datetime.date.today().isoformat()}" in dashboard
    assert "## QUEUED" in dashboard
    assert DECLARATION not in dashboard  # CLAUDE.md is not ignored: no echo needed
    assert "git add .cc-hooks.toml SYMPTOMS.md DECISIONS.md COLDSTART_QUESTIONS.md CLAUDE.md next_steps.md" in out


def test_a_second_run_creates_nothing_and_says_so(git_repo, capsys):
    run_init(capsys, "--project", str(git_repo))
    before = {name: (git_repo / name).read_bytes() for name in STORES + ["CLAUDE.md"]}
    code, out, _ = run_init(capsys, "--project", str(git_repo))
    assert code == 0
    assert "Nothing to do: the record is already scaffolded." in out
    assert "created" not in out and "updated" not in out
    assert {name: (git_repo / name).read_bytes() for name in before} == before


def test_existing_files_are_never_overwritten(git_repo, capsys):
    (git_repo / "SYMPTOMS.md").write_text("# mine\n", encoding="utf-8")
    (git_repo / "next_steps.md").write_text("# my dashboard\n", encoding="utf-8")
    code, out, _ = run_init(capsys, "--project", str(git_repo))
    assert code == 0
    assert (git_repo / "SYMPTOMS.md").read_text(encoding="utf-8") == "# mine\n"
    assert (git_repo / "next_steps.md").read_text(encoding="utf-8") == "# my dashboard\n"
    assert "exists   SYMPTOMS.md  (left alone)" in out and "created  DECISIONS.md" in out


def test_a_freshly_scaffolded_record_passes_the_validators(git_repo, capsys):
    run_init(capsys, "--project", str(git_repo))
    assert validate_symptoms(git_repo) == []
    assert validate_decisions(git_repo) == []
    from cc_hooks.record.backends.file import parse as parse_dashboard
    from cc_hooks.record.questions import parse_questions

    read = parse_dashboard((git_repo / "next_steps.md").read_bytes())
    # Nothing is in flight yet: no placeholder resume point for rehydrate to report as a claim.
    assert read.findings == [] and read.state is not None  # and so nothing for `rehydrate` to warn about
    assert read.state.resume_point is None and read.state.claims == []
    questions, findings = parse_questions((git_repo / "COLDSTART_QUESTIONS.md").read_text(encoding="utf-8"))
    assert findings == [] and [q.pointers for q in questions] == [["next_steps.md"], ["SYMPTOMS.md"], ["DECISIONS.md"]]


def test_claude_md_without_a_declaration_gets_one_appended(git_repo, capsys):
    (git_repo / "CLAUDE.md").write_bytes(b"# Notes\r\n\r\n- be careful")
    code, out, _ = run_init(capsys, "--project", str(git_repo))
    assert code == 0 and "updated  CLAUDE.md  (appended `Dashboard: file next_steps.md`)" in out
    assert (git_repo / "CLAUDE.md").read_bytes() == b"# Notes\r\n\r\n- be careful\r\n\r\nDashboard: file next_steps.md\r\n"


def test_an_existing_declaration_is_respected(git_repo, capsys):
    (git_repo / "CLAUDE.md").write_text("# Notes\n\nDashboard: file docs/STATE.md\n", encoding="utf-8")
    code, out, _ = run_init(capsys, "--project", str(git_repo))
    assert code == 0
    assert (git_repo / "docs" / "STATE.md").is_file() and not (git_repo / "next_steps.md").exists()
    assert (git_repo / "CLAUDE.md").read_text(encoding="utf-8") == "# Notes\n\nDashboard: file docs/STATE.md\n"
    (git_repo / "CLAUDE.md").write_text("Dashboard: jira PROJ\n", encoding="utf-8")
    (git_repo / "docs" / "STATE.md").unlink()
    code, out, _ = run_init(capsys, "--project", str(git_repo))
    assert "skipped  dashboard file  (the dashboard backend is `jira`)" in out
    assert not (git_repo / "docs" / "STATE.md").exists() and not (git_repo / "next_steps.md").exists()


def test_gitignored_claude_md_gets_a_tracked_echo_the_dashboard_reader_finds(git_repo, capsys):
    (git_repo / ".gitignore").write_text("CLAUDE.md\n", encoding="utf-8")
    code, out, _ = run_init(capsys, "--project", str(git_repo))
    assert code == 0
    dashboard = (git_repo / "next_steps.md").read_text(encoding="utf-8")
    assert dashboard.splitlines()[:3] == ["# Next steps", "", DECLARATION]
    assert "CLAUDE.md" not in out.splitlines()[-1]  # the git add hint leaves the ignored file out
    git(git_repo, "add", "next_steps.md", ".gitignore")
    git(git_repo, "commit", "-q", "-m", "Add the record")
    from cc_hooks.record.dashboard import find_declaration

    declaration, findings = find_declaration(git_repo)
    assert (declaration.backend, declaration.locator) == ("file", "next_steps.md")
    assert not [f for f in findings if f.rule == "dashboard-gitignore-trap"]
    code, out, _ = run_init(capsys, "--project", str(git_repo))
    assert "Nothing to do" in out and (git_repo / "next_steps.md").read_text(encoding="utf-8") == dashboard


def test_gitignored_claude_md_and_an_existing_dashboard_gets_the_echo_inserted(git_repo, capsys):
    (git_repo / ".gitignore").write_text("CLAUDE.md\n", encoding="utf-8")
    (git_repo / "CLAUDE.md").write_text("Dashboard: file next_steps.md\n", encoding="utf-8")
    (git_repo / "next_steps.md").write_text("# Next\n\n## CURRENT STATE — 2026-01-01\nResume point: x\n", encoding="utf-8")
    code, out, _ = run_init(capsys, "--project", str(git_repo))
    assert "updated  next_steps.md  (added a tracked echo" in out
    assert (git_repo / "next_steps.md").read_text(encoding="utf-8") == f"# Next\n\n{DECLARATION}\n\n## CURRENT STATE — 2026-01-01\nResume point: x\n"


def test_outside_a_repository_is_one_clear_error(tmp_path, capsys):
    code, out, err = run_init(capsys, "--project", str(tmp_path))
    assert code == 1 and out == ""
    assert err.strip() == f"cc-hooks init: {tmp_path} is not inside a git work tree"
    assert list(tmp_path.iterdir()) == []


def test_an_unwritable_store_is_one_clear_error(git_repo, capsys):
    (git_repo / ".cc-hooks.toml").write_text('[record]\nsymptoms = "README.md/SYMPTOMS.md"\n', encoding="utf-8")
    code, _, err = run_init(capsys, "--project", str(git_repo))
    assert code == 1
    assert err.startswith("cc-hooks init: cannot write README.md/SYMPTOMS.md: ") and len(err.strip().splitlines()) == 1


def test_an_invalid_config_is_left_alone_and_reported(git_repo, capsys):
    (git_repo / ".cc-hooks.toml").write_text("[record\n", encoding="utf-8")
    code, out, err = run_init(capsys, "--project", str(git_repo))
    assert code == 1 and "not valid TOML" in err
    assert (git_repo / ".cc-hooks.toml").read_text(encoding="utf-8") == "[record\n"
    assert not (git_repo / "SYMPTOMS.md").exists()


def test_init_from_a_subdirectory_scaffolds_at_the_top(git_repo, capsys, monkeypatch):
    (git_repo / "src").mkdir()
    monkeypatch.chdir(git_repo / "src")
    assert run_init(capsys)[0] == 0
    assert (git_repo / "SYMPTOMS.md").is_file() and not (git_repo / "src" / "SYMPTOMS.md").exists()


def test_custom_store_paths_from_the_config_are_used(git_repo):
    (git_repo / ".cc-hooks.toml").write_text('[record]\nsymptoms = "docs/SYMPTOMS.md"\n', encoding="utf-8")
    actions = scaffold(git_repo, today="2026-01-02")
    assert [(a.status, a.path) for a in actions][:2] == [("exists", ".cc-hooks.toml"), ("created", "docs/SYMPTOMS.md")]
    assert "## CURRENT STATE — 2026-01-02" in (git_repo / "next_steps.md").read_text(encoding="utf-8")


# --- .cc-hooks.toml ---------------------------------------------------------------------------------


def test_the_written_config_round_trips_to_the_defaults(git_repo):
    scaffold(git_repo)
    text = (git_repo / ".cc-hooks.toml").read_text(encoding="utf-8")
    assert load_config(git_repo) == Config()
    assert "# Case-insensitive regex on the subject line." in text  # field descriptions become comments
    assert "# [probes.staging-version]" in text


def test_a_non_default_config_round_trips_too(tmp_path):
    config = Config(
        probes={"staging-version": ProbeConfig(argv=["./v"], expect="v1")},
        guards={"add": GuardConfig(argv=["pytest", "-q"], symptom="add(2, 3) returns -1")},
    )
    config.hooks.precompact_policy = "block-manual"
    (tmp_path / ".cc-hooks.toml").write_text(render_config(config), encoding="utf-8")
    assert load_config(tmp_path) == config


@pytest.mark.skipif(sys.platform == "win32", reason="atomic rename semantics differ")
def test_no_temporary_files_are_left_behind(git_repo):
    scaffold(git_repo)
    assert not [p.name for p in git_repo.iterdir() if p.name.endswith(".tmp")]


def test_a_declaration_in_an_ignored_dot_claude_claude_md_is_echoed(git_repo, capsys):
    (git_repo / ".gitignore").write_text(".claude/\n", encoding="utf-8")
    (git_repo / ".claude").mkdir()
    (git_repo / ".claude" / "CLAUDE.md").write_text("Dashboard: file next_steps.md\n", encoding="utf-8")
    code, out, _ = run_init(capsys, "--project", str(git_repo))
    assert code == 0 and "because .claude/CLAUDE.md is gitignored" in out
    assert DECLARATION in (git_repo / "next_steps.md").read_text(encoding="utf-8").splitlines()
    assert not (git_repo / "CLAUDE.md").exists()
