"""Issue 42, finding 6: every write into a repository goes through no symlink, at any level.

A repository that ships ``.claude -> ~/.claude`` must not make ``install --scope project`` write the
user's settings; a dangling ``SYMPTOMS.md -> ~/.config/x`` must not make ``init`` create the target.
Each attack runs through the installed entry point with a private HOME: the command exits non-zero
with one line naming the path and the link, and nothing is written anywhere. The unit tests drive
the writer (``fsutil.write_repo_bytes``) on real directories."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path

import pytest

from .conftest import git, make_repo

USER_SETTINGS = '{\n  "model": "opus",\n  "env": {"MINE": "1"}\n}\n'


@pytest.fixture
def home(tmp_path) -> Path:
    path = tmp_path / "home"
    (path / ".config").mkdir(parents=True)
    return path


@pytest.fixture
def repo(tmp_path) -> Path:
    root = make_repo(tmp_path / "repo")
    (root / "README.md").write_text("# project\n")
    git(root, "add", "README.md")
    git(root, "commit", "-q", "-m", "initial")
    return root


def run(cli: Path, args: list[str], cwd: Path, home: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "GIT_CONFIG_GLOBAL")}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"))
    return subprocess.run([str(cli), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def tree(directory: Path) -> dict:
    """Every entry under ``directory`` (links not followed): path -> bytes, link target, "dir" or "special"."""
    found = {}
    for folder, dirs, files in os.walk(directory):
        for name in dirs + files:
            path = Path(folder) / name
            rel = path.relative_to(directory).as_posix()
            if path.is_symlink():
                found[rel] = "-> " + os.readlink(path)
            elif path.is_dir():
                found[rel] = "dir"
            elif not path.is_file():
                found[rel] = "special"
            else:
                found[rel] = path.read_bytes()
    return found


def refused_in_one_line(proc: subprocess.CompletedProcess, rel: str, link: str, target) -> None:
    assert proc.returncode != 0, proc.stdout + proc.stderr
    message = proc.stderr.strip()
    assert "\n" not in message and "Traceback" not in message, message
    assert f"refusing to write {rel}: {link} is a symbolic link to {target}" in message, message


# --- install / uninstall -----------------------------------------------------------------------------


@pytest.mark.parametrize("scope, name", [("project", "settings.json"), ("local", "settings.local.json")])
def test_install_refuses_a_claude_directory_linked_to_the_users(installed_cli, repo, home, scope, name):
    user = home / ".claude"
    user.mkdir()
    (user / "settings.json").write_text(USER_SETTINGS)
    (repo / ".claude").symlink_to(user)
    before, before_repo = tree(home), tree(repo)
    proc = run(installed_cli, ["install", "--scope", scope], repo, home)
    refused_in_one_line(proc, f".claude/{name}", ".claude", user)
    assert tree(home) == before  # no settings, no launcher, no backup: nothing anywhere
    assert tree(repo) == before_repo


def test_install_refuses_a_settings_file_linked_to_the_users(installed_cli, repo, home):
    user = home / ".claude"
    user.mkdir()
    (user / "settings.json").write_text(USER_SETTINGS)
    (repo / ".claude").mkdir()
    (repo / ".claude" / "settings.json").symlink_to(user / "settings.json")
    before = tree(home)
    proc = run(installed_cli, ["install"], repo, home)
    refused_in_one_line(proc, ".claude/settings.json", ".claude/settings.json", user / "settings.json")
    assert tree(home) == before
    assert not (repo / ".claude" / "cc-hooks").exists()  # checked before the launcher was written


def test_install_agents_refuses_a_skills_directory_linked_out(installed_cli, repo, home):
    victim = home / ".claude" / "skills"
    victim.mkdir(parents=True)
    (repo / ".claude").mkdir()
    (repo / ".claude" / "skills").symlink_to(victim)
    proc = run(installed_cli, ["install", "--agents"], repo, home)
    refused_in_one_line(proc, ".claude/skills/semantic-compactor/SKILL.md", ".claude/skills", victim)
    assert list(victim.iterdir()) == []
    assert sorted(p.name for p in (repo / ".claude").iterdir()) == ["skills"]  # no settings, no launcher


def test_uninstall_refuses_a_claude_directory_linked_to_the_users(installed_cli, repo, home, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    wired = run(installed_cli, ["install", "--scope", "user"], elsewhere, home)
    assert wired.returncode == 0, wired.stderr
    user = home / ".claude"
    assert (user / "cc-hooks").is_file() and "cc-hooks" in (user / "settings.json").read_text()
    (repo / ".claude").symlink_to(user)
    before = tree(home)
    proc = run(installed_cli, ["uninstall", "--scope", "project"], repo, home)
    refused_in_one_line(proc, ".claude/settings.json", ".claude", user)
    assert tree(home) == before  # the user's wiring and launcher are still there


# --- init -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("rel, target", [
    (".cc-hooks.toml", ".gitconfig"),
    ("SYMPTOMS.md", ".config/x"),
    ("CLAUDE.md", "notes.md"),
    ("next_steps.md", ".config/next.md"),
])
def test_init_creates_nothing_through_a_dangling_link(installed_cli, repo, home, rel, target):
    (repo / rel).symlink_to(home / target)
    before = tree(repo)
    proc = run(installed_cli, ["init", "--no-audit"], repo, home)
    refused_in_one_line(proc, rel, rel, home / target)
    assert not (home / target).exists()
    assert tree(repo) == before  # checked before the first file was created


def test_init_appends_to_no_gitignore_through_a_link(installed_cli, repo, home):
    (repo / "venv").mkdir()
    (repo / "venv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (repo / ".gitignore").symlink_to(home / ".gitignore_global")
    proc = run(installed_cli, ["init", "--no-audit"], repo, home)
    refused_in_one_line(proc, ".gitignore", ".gitignore", home / ".gitignore_global")
    assert not (home / ".gitignore_global").exists()


def test_init_creates_no_record_file_in_a_directory_linked_out(installed_cli, repo, home):
    (home / "docs").mkdir()
    (repo / "docs").symlink_to(home / "docs")
    (repo / ".cc-hooks.toml").write_text('[record]\nsymptoms = "docs/SYMPTOMS.md"\n')
    proc = run(installed_cli, ["init", "--no-audit"], repo, home)
    refused_in_one_line(proc, "docs/SYMPTOMS.md", "docs", home / "docs")
    assert list((home / "docs").iterdir()) == []


def test_a_record_path_that_leaves_the_work_tree_is_refused_however_it_was_configured(installed_cli, repo, home):
    """The validator of ``[record]`` refuses ``../outside.md`` in ``.cc-hooks.toml``; the writer
    refuses it too, whatever route it took: here a config rebuilt without validation from the
    state directory's cache (``config._remembered_config``), as an archive with its ``.git`` ships it."""
    text = "# config\n"
    (repo / ".cc-hooks.toml").write_text(text)
    poison = (
        "import json, sys\nfrom pathlib import Path\nfrom cc_hooks import config_facts, memo\nfrom cc_hooks.config import Config\n"
        "facts = config_facts.facts_of(Config())\nfacts['fields']['record']['fields']['symptoms'] = '../outside.md'\n"
        "path = memo.cache_path(Path(sys.argv[1]), 'config', ['text', sys.argv[2]])\n"
        "path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)\npath.write_text(json.dumps({'value': facts}))\n"
    )
    state = repo / ".git" / "cc-hooks"
    state.mkdir(mode=0o700)
    subprocess.run([str(installed_cli.with_name("python")), "-I", "-c", poison, str(state), text], check=True)
    proc = run(installed_cli, ["init", "--no-audit"], repo, home)
    assert proc.returncode != 0, proc.stdout
    message = proc.stderr.strip()
    assert "\n" not in message and "refusing to write ../outside.md: the path leads outside the work tree" in message, message
    assert not (repo.parent / "outside.md").exists()


def test_a_git_directory_record_path_is_refused_by_the_config():
    from cc_hooks.config import RecordConfig

    with pytest.raises(ValueError, match="inside the git directory"):
        RecordConfig(symptoms=".git/hooks/post-checkout")
    with pytest.raises(ValueError, match="leaves the repository"):
        RecordConfig(decisions="docs/../../x.md")


# --- the dashboard ---------------------------------------------------------------------------------


@pytest.mark.parametrize("verb", [["queue", "ship it"], ["update", "--resume", "resuming"]])
def test_a_dashboard_write_refuses_a_linked_next_steps(installed_cli, repo, home, verb):
    """``next_steps.md -> .git/config`` resolves inside the repository, so it is read; a write
    through it would rewrite git's configuration."""
    config = repo / ".git" / "config"
    (repo / "CLAUDE.md").write_text("Dashboard: file next_steps.md\n")
    (repo / "next_steps.md").symlink_to(".git/config")
    before = config.read_bytes()
    proc = run(installed_cli, ["dashboard", *verb], repo, home)
    refused_in_one_line(proc, "next_steps.md", "next_steps.md", ".git/config")
    assert config.read_bytes() == before


# --- the writer -----------------------------------------------------------------------------------


def test_the_writer_creates_missing_directories_and_replaces_a_file_keeping_its_mode(tmp_path):
    from cc_hooks.fsutil import write_repo_bytes

    root = tmp_path / "repo"
    root.mkdir()
    write_repo_bytes(root, root / ".claude" / "skills" / "a" / "SKILL.md", b"one\n")
    assert (root / ".claude/skills/a/SKILL.md").read_bytes() == b"one\n"
    script = root / "tool.sh"
    write_repo_bytes(root, "tool.sh", b"#!/bin/sh\n", mode=0o755)
    assert stat.S_IMODE(script.stat().st_mode) == 0o755
    write_repo_bytes(root, script, b"#!/bin/sh\nexit 0\n")
    assert script.read_bytes() == b"#!/bin/sh\nexit 0\n" and stat.S_IMODE(script.stat().st_mode) == 0o755
    assert sorted(p.name for p in root.iterdir()) == [".claude", "tool.sh"]  # no temporary file left


@pytest.mark.parametrize("make, rel, message", [
    (lambda r, o: (r / "d").symlink_to(o), "d/f.md", "refusing to write d/f.md: d is a symbolic link to {o}"),
    (lambda r, o: (r / "f.md").symlink_to(o / "f.md"), "f.md", "refusing to write f.md: f.md is a symbolic link to {o}/f.md"),
    (lambda r, o: (r / "f.md").symlink_to(o / "missing.md"), "f.md", "f.md is a symbolic link to {o}/missing.md"),
    (lambda r, o: ((r / "a").mkdir(), (r / "a" / "b").symlink_to("../../outside")), "a/b/c/f.md",
     "refusing to write a/b/c/f.md: a/b is a symbolic link to ../../outside"),
    (lambda r, o: os.mkfifo(r / "f.md"), "f.md", "f.md is a FIFO, not a regular file"),
    (lambda r, o: None, "../outside/f.md", "refusing to write ../outside/f.md: the path leads outside the work tree"),
    (lambda r, o: None, "/etc/passwd", "refusing to write /etc/passwd: the path leads outside the work tree"),
    (lambda r, o: None, "a/../../x", "refusing to write ../x: the path leads outside the work tree"),
    (lambda r, o: None, ".git/config", "refusing to write .git/config: it is inside the git directory"),
])
def test_the_writer_refuses_every_link_and_every_way_out(tmp_path, make, rel, message):
    from cc_hooks.fsutil import RefusedFile, write_repo_bytes

    root, outside = tmp_path / "repo", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "f.md").write_text("mine\n")
    make(root, outside)
    before, before_outside = tree(root), tree(outside)
    with pytest.raises(RefusedFile) as refused:
        write_repo_bytes(root, rel if rel.startswith("/") else root / rel, b"theirs\n")
    assert message.format(o=outside) in str(refused.value) and "\n" not in str(refused.value)
    assert tree(root) == before and tree(outside) == before_outside


def test_a_plain_file_on_the_way_is_an_ordinary_error_not_a_refusal(tmp_path):
    from cc_hooks.fsutil import RefusedFile, write_repo_bytes

    (tmp_path / "README.md").write_text("x")
    with pytest.raises(NotADirectoryError) as error:
        write_repo_bytes(tmp_path, "README.md/f.md", b"y")
    assert not isinstance(error.value, RefusedFile) and error.value.filename == "README.md/f.md"


def test_the_remover_unlinks_only_a_real_file_through_real_directories(tmp_path):
    from cc_hooks.fsutil import RefusedFile, remove_repo_file, write_repo_bytes

    root, outside = tmp_path / "repo", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "cc-hooks").write_text("the user's launcher\n")
    write_repo_bytes(root, root / "a" / "f.md", b"x")
    remove_repo_file(root, root / "a" / "f.md")
    assert not (root / "a" / "f.md").exists() and (root / "a").is_dir()
    (root / "b").symlink_to(outside)
    with pytest.raises(RefusedFile, match="b is a symbolic link to"):
        remove_repo_file(root, root / "b" / "cc-hooks")
    assert (outside / "cc-hooks").read_text() == "the user's launcher\n"


def test_the_state_writer_still_replaces_a_planted_link_at_its_name(tmp_path):
    """The generalised walk keeps the state directory's rule: a symlink at the name is replaced."""
    from cc_hooks.fsutil import write_state_bytes

    state, victim = tmp_path / "cc-hooks", tmp_path / "bashrc"
    state.mkdir(mode=0o700)
    victim.write_text("# mine\n")
    (state / "hook.json").symlink_to(victim)
    write_state_bytes(state, state / "sub" / "hook.json", b"{}")
    (state / "sub" / "other.json").symlink_to(victim)
    write_state_bytes(state, state / "sub" / "other.json", b"{}")
    assert victim.read_text() == "# mine\n" and not (state / "sub" / "other.json").is_symlink()
    assert stat.S_IMODE((state / "sub").stat().st_mode) == 0o700
    assert json.loads((state / "sub" / "hook.json").read_text()) == {}
