"""The wheel and the sdist build, install into a fresh venv without an index, and work.

The build runs once per session: ``python -m build`` from a throwaway venv (``build`` and the
setuptools backend come from the package index, so without one the tests skip, except under
CI=true where they fail). Each target interpreter (this one, and Python 3.10 when found, the
oldest declared) gets a fresh venv; the wheel's dependencies are downloaded into a wheelhouse
first and the wheel is then installed with ``--no-index``, so it installs with what it declares
and nothing else.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from cc_hooks import __version__
from cc_hooks.agents_install import SKILLS, SUBAGENTS, packaged_text

REPO = Path(__file__).resolve().parents[1]
PIP_TIMEOUT = 600


def _unavailable(reason: str):
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI=true and a packaging prerequisite is missing: {reason}", pytrace=False)
    pytest.skip(reason)


def _run(argv: list, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in argv], capture_output=True, text=True, timeout=PIP_TIMEOUT, **kwargs)


def _make_venv(python: str, where: Path) -> Path:
    """A fresh venv with pip for ``python``; its bin directory."""
    proc = _run([python, "-m", "venv", where])
    if proc.returncode != 0:
        _unavailable(f"{python} -m venv failed: {proc.stderr.strip()[-300:]}")
    return where / "bin"


def _python_310():
    """An interpreter for Python 3.10, the oldest declared one, or None."""
    candidates = [os.environ.get("CC_HOOKS_TEST_PYTHON310"), shutil.which("python3.10")]
    pyenv_root = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv")
    candidates += sorted(str(p) for p in pyenv_root.glob("versions/3.10*/bin/python3.10"))
    for candidate in filter(None, candidates):
        try:
            out = _run([candidate, "-c", "import sys, venv, ensurepip; print(sys.version_info[:2])"]).stdout
        except (OSError, subprocess.SubprocessError):
            continue
        if out.strip() == "(3, 10)":
            return candidate
    return None


def _interpreters() -> list:
    found = [pytest.param(sys.executable, id=f"py{sys.version_info[0]}{sys.version_info[1]}")]
    if sys.version_info[:2] != (3, 10):
        oldest = _python_310()
        found.append(pytest.param(oldest, id="py310", marks=() if oldest else pytest.mark.skip(
            reason="Python 3.10 (the oldest declared) not found: set CC_HOOKS_TEST_PYTHON310")))
    return found


@pytest.fixture(scope="session")
def dist(tmp_path_factory) -> Path:
    """The directory holding the freshly built sdist and wheel."""
    base = tmp_path_factory.mktemp("build")
    tools = _make_venv(sys.executable, base / "tools")
    proc = _run([tools / "python", "-m", "pip", "install", "--quiet", "build"])
    if proc.returncode != 0:
        _unavailable(f"cannot install the `build` frontend from the package index: {proc.stderr.strip()[-300:]}")
    proc = _run([tools / "python", "-m", "build", "--outdir", base / "dist", REPO])
    if proc.returncode != 0 and "Could not find a version that satisfies" in proc.stdout + proc.stderr:
        _unavailable(f"cannot fetch the build backend: {(proc.stdout + proc.stderr).strip()[-300:]}")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return base / "dist"


def _one(dist: Path, pattern: str) -> Path:
    [found] = sorted(dist.glob(pattern))
    return found


@pytest.fixture(scope="session", params=_interpreters())
def installed(request, dist: Path, tmp_path_factory) -> Path:
    """The bin directory of a fresh venv (on the given interpreter) with only the wheel and its dependencies."""
    base = tmp_path_factory.mktemp("venv")
    bin_dir = _make_venv(request.param, base / "venv")
    wheel = _one(dist, "*.whl")
    proc = _run([bin_dir / "python", "-m", "pip", "download", "--quiet", "--dest", base / "wheelhouse", wheel])
    if proc.returncode != 0:
        _unavailable(f"cannot download the wheel's dependencies for {request.param}: {proc.stderr.strip()[-300:]}")
    proc = _run([bin_dir / "python", "-m", "pip", "install", "--quiet", "--no-index",
                 "--find-links", base / "wheelhouse", wheel])
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    return bin_dir


# --- the artifacts ------------------------------------------------------------------------------


def test_wheel_is_named_and_stamped_with_the_package_version(dist: Path) -> None:
    wheel = _one(dist, "*.whl")
    assert wheel.name == f"cc_hooks-{__version__}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as archive:
        metadata = archive.read(f"cc_hooks-{__version__}.dist-info/METADATA").decode()
        entry_points = archive.read(f"cc_hooks-{__version__}.dist-info/entry_points.txt").decode()
    assert f"\nVersion: {__version__}\n" in metadata
    assert "\nRequires-Python: >=3.10\n" in metadata
    assert "cc-hooks = cc_hooks.cli:main" in entry_points


def test_wheel_carries_the_skills_and_subagents_and_no_tests(dist: Path) -> None:
    with zipfile.ZipFile(_one(dist, "*.whl")) as archive:
        names = set(archive.namelist())
    expected = {f"cc_hooks/agents/skills/{n}/SKILL.md" for n in SKILLS}
    expected |= {f"cc_hooks/agents/subagents/{n}.md" for n in SUBAGENTS}
    assert expected <= names
    assert {"cc_hooks/cli.py", "cc_hooks/commands/hook.py", "cc_hooks/agents_install.py"} <= names
    assert not [n for n in names if n.startswith("tests/") or "__pycache__" in n]


def test_sdist_holds_the_sources_and_the_package_data(dist: Path) -> None:
    sdist = _one(dist, "*.tar.gz")
    assert sdist.name == f"cc_hooks-{__version__}.tar.gz"
    with tarfile.open(sdist) as archive:
        names = {n.split("/", 1)[1] for n in archive.getnames() if "/" in n}
    assert {"pyproject.toml", "cc_hooks/__init__.py", "cc_hooks/agents/skills/rehydrate/SKILL.md"} <= names


# --- the installed package ----------------------------------------------------------------------


def test_installed_cc_hooks_reports_the_package_version(installed: Path) -> None:
    proc = _run([installed / "cc-hooks", "--version"])
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == f"cc-hooks {__version__}"


def test_installed_cc_hooks_lists_its_verbs(installed: Path) -> None:
    proc = _run([installed / "cc-hooks", "--help"])
    assert proc.returncode == 0, proc.stderr
    for verb in ("hook", "install", "doctor"):
        assert f"    {verb} " in proc.stdout


def test_installed_hook_answers_session_start_in_a_repo(installed: Path, git_repo: Path) -> None:
    payload = {"hook_event_name": "SessionStart", "source": "startup", "session_id": "s-1", "cwd": str(git_repo),
               "transcript_path": str(git_repo / "none.jsonl")}
    proc = _run([installed / "cc-hooks", "hook"], input=json.dumps(payload), cwd=git_repo)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    answer = json.loads(proc.stdout)
    assert answer["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert "main" in answer["hookSpecificOutput"]["additionalContext"]


def test_installed_package_installs_its_packaged_agents(installed: Path, git_repo: Path) -> None:
    script = "import sys; from pathlib import Path; from cc_hooks.agents_install import install_agents; " \
             "print('\\n'.join(install_agents(Path(sys.argv[1]), 'project')))"
    proc = _run([installed / "python", "-c", script, git_repo])
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count(": written") == len(SKILLS) + len(SUBAGENTS)
    installed_skill = (git_repo / ".claude" / "skills" / "rehydrate" / "SKILL.md").read_text()
    assert installed_skill.startswith(packaged_text("skill", "rehydrate"))


# --- the plugin ---------------------------------------------------------------------------------

PLUGIN_COMMAND = 'sh "${CLAUDE_PLUGIN_ROOT}/hooks/run-hook"'


def _json(relative: str) -> dict:
    return json.loads((REPO / relative).read_text(encoding="utf-8"))


def test_plugin_manifest_carries_the_package_version_and_the_packaged_agents() -> None:
    manifest = _json(".claude-plugin/plugin.json")
    assert manifest["name"] == "cc-hooks"
    assert manifest["version"] == __version__
    assert manifest["skills"] == ["./cc_hooks/agents/skills/"]
    assert sorted(manifest["agents"]) == sorted(f"./cc_hooks/agents/subagents/{n}.md" for n in SUBAGENTS)
    for path in manifest["agents"] + manifest["skills"]:
        assert (REPO / path).exists(), path
    skill_dirs = sorted(p.name for p in (REPO / "cc_hooks/agents/skills").iterdir() if p.is_dir())
    assert skill_dirs == sorted(SKILLS)


def test_local_marketplace_serves_the_plugin_from_the_repo_root() -> None:
    marketplace = _json(".claude-plugin/marketplace.json")
    [entry] = marketplace["plugins"]
    assert entry["name"] == _json(".claude-plugin/plugin.json")["name"]
    assert entry["source"] == "./"
    assert marketplace["name"] and marketplace["owner"]["name"]


def test_plugin_hooks_wire_the_same_events_and_timeouts_as_cc_hooks_install() -> None:
    from cc_hooks.settings import EVENTS, TIMEOUTS

    hooks = _json("hooks/hooks.json")["hooks"]
    assert set(hooks) == set(EVENTS)
    for event, groups in hooks.items():
        [group] = groups
        assert "matcher" not in group  # match all, like the settings block
        command = PLUGIN_COMMAND + (" --gate" if event == "UserPromptSubmit" else "")  # the prompt gate first
        assert group["hooks"] == [{"type": "command", "command": command, "timeout": TIMEOUTS[event]}]


# --- hooks/run-hook: which installation it runs, and failing open -------------------------------

SESSION_START = {"hook_event_name": "SessionStart", "source": "startup", "session_id": "s-1"}


def _launch(plugin_root: Path, repo: Path, path_dirs: list, project_dir=None) -> subprocess.CompletedProcess:
    env = {"PATH": os.pathsep.join(str(d) for d in path_dirs), "HOME": str(repo.parent),
           "CLAUDE_PLUGIN_ROOT": str(plugin_root)}
    if project_dir is not None:
        env["CLAUDE_PROJECT_DIR"] = str(project_dir)
    payload = json.dumps({**SESSION_START, "cwd": str(repo)})
    return subprocess.run(["/bin/sh", str(REPO / "hooks" / "run-hook")], input=payload, capture_output=True,
                          text=True, env=env, cwd=repo, timeout=60)


def _tool_dir(tmp_path: Path, name: str, **scripts: str) -> Path:
    """A directory of tiny executables (``python3`` wrappers, links) to put on a test PATH."""
    directory = tmp_path / name
    directory.mkdir()
    for script_name, body in scripts.items():
        script = directory / script_name.replace("_", "-")
        script.write_text(f"#!/bin/sh\n{body}\n")
        script.chmod(0o755)
    return directory


def _git_dir() -> Path:
    return Path(shutil.which("git")).parent


def _assert_answered(proc: subprocess.CompletedProcess) -> None:
    assert proc.returncode == 0, proc.stderr
    assert "main" in json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]


def _plugin_copy(tmp_path: Path) -> Path:
    """The plugin as Claude Code caches it: the repo's plugin files and the cc_hooks sources."""
    root = tmp_path / "plugin"
    for part in (".claude-plugin", "hooks", "cc_hooks"):
        shutil.copytree(REPO / part, root / part, ignore=shutil.ignore_patterns("__pycache__"))
    return root


def test_run_hook_uses_cc_hooks_on_path_first(tmp_path: Path, git_repo: Path) -> None:
    exe = Path(sys.executable).parent / "cc-hooks"
    tools = _tool_dir(tmp_path, "bin", cc_hooks=f'exec "{exe}" "$@"')
    empty_root = tmp_path / "no-plugin"  # nothing to fall back on: the answer must come from PATH
    _assert_answered(_launch(empty_root, git_repo, [tools, _git_dir(), "/usr/bin", "/bin"]))


def test_run_hook_prefers_the_projects_own_venv(tmp_path: Path, git_repo: Path) -> None:
    venv_bin = git_repo / ".venv" / "bin"
    venv_bin.mkdir(parents=True)
    (venv_bin / "cc-hooks").symlink_to(Path(sys.executable).parent / "cc-hooks")
    _assert_answered(_launch(tmp_path / "no-plugin", git_repo, [_git_dir(), "/usr/bin", "/bin"], project_dir=git_repo))


def _python3_with_dependencies_only(tmp_path: Path) -> Path:
    """A python3 that imports pydantic and GitPython but not cc_hooks (-S skips the editable install's .pth)."""
    site = os.pathsep.join(p for p in sys.path if p.endswith("site-packages"))
    return _tool_dir(tmp_path, "bin", python3=f'PYTHONPATH="$PYTHONPATH:{site}" exec "{sys.executable}" -S "$@"')


def test_run_hook_falls_back_to_the_plugin_checkout_with_python3(tmp_path: Path, git_repo: Path) -> None:
    tools = _python3_with_dependencies_only(tmp_path)
    _assert_answered(_launch(_plugin_copy(tmp_path), git_repo, [tools, _git_dir(), "/usr/bin", "/bin"]))


def test_run_hook_with_a_plugin_root_lacking_cc_hooks_prints_one_line(tmp_path: Path, git_repo: Path) -> None:
    tools = _python3_with_dependencies_only(tmp_path)
    proc = _launch(tmp_path / "no-plugin", git_repo, [tools, _git_dir(), "/usr/bin", "/bin"])
    assert (proc.returncode, proc.stdout) == (0, "")
    assert proc.stderr.startswith("cc-hooks: not installed: python3 lacks cc_hooks;") and proc.stderr.count("\n") == 1


def test_run_hook_without_dependencies_prints_one_line_and_exits_0(tmp_path: Path, git_repo: Path) -> None:
    # -S: no site-packages, so no pydantic or GitPython, like a bare system python3.
    tools = _tool_dir(tmp_path, "bin", python3=f'exec "{sys.executable}" -S "$@"')
    proc = _launch(_plugin_copy(tmp_path), git_repo, [tools, "/usr/bin", "/bin"])
    assert (proc.returncode, proc.stdout) == (0, "")
    [line] = proc.stderr.splitlines()
    assert line.startswith("cc-hooks: not installed: python3 lacks pydantic, git;")
    assert "pipx install cc-hooks" in line and "Traceback" not in proc.stderr


def test_run_hook_without_python3_prints_one_line_and_exits_0(tmp_path: Path, git_repo: Path) -> None:
    proc = _launch(_plugin_copy(tmp_path), git_repo, [tmp_path / "empty"])
    assert (proc.returncode, proc.stdout) == (0, "")
    assert proc.stderr == ("cc-hooks: not installed: no cc-hooks and no python3 on PATH; hook skipped "
                           "(pipx install cc-hooks, or pip install cc-hooks into the python3 on PATH)\n")


# --- docs/configuration.md is generated from cc_hooks.config.Config ------------------------------


@pytest.fixture(scope="module")
def config_docs():
    import importlib.util

    spec = importlib.util.spec_from_file_location("gen_config_docs", REPO / "tools" / "gen_config_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_configuration_doc_matches_the_config_model(config_docs) -> None:
    assert (REPO / "docs" / "configuration.md").read_text(encoding="utf-8") == config_docs.render(), (
        "docs/configuration.md is out of date: run python tools/gen_config_docs.py")


def test_configuration_doc_names_every_field_and_its_defaults_load(config_docs) -> None:
    import re

    from cc_hooks.config import Config, _toml_loads

    text = config_docs.render()
    for name, field in Config.model_fields.items():
        model = field.annotation
        if getattr(model, "__origin__", None) is dict:
            model = model.__args__[1]
        for sub in model.model_fields:
            assert f"- `{sub}`: " in text, f"{name}.{sub}"
    [block] = re.findall(r"```toml\n(.*?)```", text, re.S)
    assert Config.model_validate(_toml_loads(block)) == Config()


def test_configuration_doc_check_fails_on_a_stale_file(config_docs, tmp_path: Path, monkeypatch, capsys) -> None:
    target = tmp_path / "configuration.md"
    monkeypatch.setattr(config_docs, "TARGET", target)
    monkeypatch.setattr(config_docs, "REPO", tmp_path)
    target.write_text(config_docs.render().replace("6000", "5000"), encoding="utf-8")
    assert config_docs.main(["--check"]) == 1
    assert "configuration.md is out of date" in capsys.readouterr().err
    target.write_text(config_docs.render(), encoding="utf-8")
    assert config_docs.main(["--check"]) == 0


def test_changelog_has_a_dated_entry_for_the_package_version() -> None:
    import re

    text = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "## [Unreleased]" in text
    assert re.search(rf"^## \[{re.escape(__version__)}\] — \d{{4}}-\d{{2}}-\d{{2}}$", text, re.M)
