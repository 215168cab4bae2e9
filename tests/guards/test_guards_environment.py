"""Guards run in the project's environment and say which: the project's .venv, a configured
command or interpreter (trusted first), then python3 on PATH."""

from __future__ import annotations

import json
import site
import subprocess
import sys
from pathlib import Path

import pytest

from cc_hooks import trust
from cc_hooks.config import load_config
from cc_hooks.guards.environment import resolve_environment
from cc_hooks.guards.resolve import resolve_guards
from cc_hooks.guards.run import HEALTHY, UNOBSERVED, run_guard

from .conftest import cc_hooks, commit, python3_on_path

HERE_SITE = next(p for p in site.getsitepackages() if Path(p, "pytest").is_dir() or Path(p, "_pytest").is_dir())


def make_venv(path: Path) -> Path:
    """A virtualenv without pip (fast, offline); its Python has no pytest until ``give_pytest``."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(path)], check=True, capture_output=True, timeout=120)
    return path


def site_packages(venv: Path) -> Path:
    [found] = venv.glob("lib/python*/site-packages")
    return found


def give_pytest(venv: Path) -> None:
    """pytest (and its dependencies) importable in ``venv`` alone: a .pth to this suite's site-packages."""
    (site_packages(venv) / "suite_site.pth").write_text(HERE_SITE + "\n", encoding="utf-8")


@pytest.fixture(scope="module")
def bare_venv(tmp_path_factory) -> Path:
    return make_venv(tmp_path_factory.mktemp("bare") / "venv")


def add_guard(repo: Path):
    [guard] = resolve_guards(repo).select(["tests/test_add.py::test_add"])[0]
    return guard


def use_the_frobnicator(repo: Path) -> None:
    """The project's test needs a package installed only in the project's environment."""
    commit(repo, "Test add() with the frobnicator", {
        "tests/test_add.py": "import frobnicator\nfrom calc_add import add\n\n\ndef test_add():\n"
                             "    assert frobnicator.ready and add(2, 3) == 5\n"})


def test_the_projects_venv_runs_the_guard_and_guards_prove_proves_it(calc_repo, bare_venv, tmp_path, monkeypatch, isolated):
    python3_on_path(tmp_path / "path", monkeypatch, str(bare_venv / "bin" / "python"))  # python3 on PATH: no pytest
    use_the_frobnicator(calc_repo)
    venv = make_venv(calc_repo / ".venv")
    give_pytest(venv)
    (site_packages(venv) / "frobnicator.py").write_text("ready = True\n", encoding="utf-8")
    environment = resolve_environment(calc_repo)
    assert environment.label == "the project's .venv (.venv/bin/python)"
    outcome = run_guard(add_guard(calc_repo), calc_repo, trusted=False)
    assert outcome.state == HEALTHY, outcome.output
    assert outcome.environment == environment.label
    proc = cc_hooks("guards", "prove", "tests/test_add.py::test_add", cwd=calc_repo)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "guards run in the project's .venv" in proc.stdout and proc.stdout.count("PROVEN") >= 1
    run = json.loads(cc_hooks("guards", "run", "tests/test_add.py::test_add", "--json", cwd=calc_repo).stdout)
    assert run["environment"] == environment.label and run["results"][0]["outcome"]["environment"] == environment.label


def test_without_a_venv_the_fallback_is_python3_on_path_and_a_missing_pytest_is_never_an_anomaly(
        calc_repo, bare_venv, tmp_path, monkeypatch):
    shim = python3_on_path(tmp_path / "with-pytest", monkeypatch)
    environment = resolve_environment(calc_repo)
    assert environment.label == f"python3 on PATH ({shim})"
    assert run_guard(add_guard(calc_repo), calc_repo, trusted=False).state == HEALTHY
    python3_on_path(tmp_path / "without-pytest", monkeypatch, str(bare_venv / "bin" / "python"))
    outcome = run_guard(add_guard(calc_repo), calc_repo, trusted=False)
    assert outcome.state == UNOBSERVED and outcome.reason.startswith("pytest is not installed in python3 on PATH")


def configure_runner(repo: Path, **keys) -> None:
    import tomli_w

    (repo / ".cc-hooks.toml").write_text(tomli_w.dumps({"guards": keys}), encoding="utf-8")


def test_a_configured_command_prefix_runs_every_guard_once_trusted(calc_repo, bare_venv, tmp_path, monkeypatch, isolated):
    python3_on_path(tmp_path / "path", monkeypatch, str(bare_venv / "bin" / "python"))  # not this one
    python = tmp_path / "path" / "python"  # what `<prefix> python` finds, like `uv run python`
    python.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n', encoding="utf-8")
    python.chmod(0o755)
    marker = tmp_path / "ran-under-the-prefix"
    runner = tmp_path / "runner"
    runner.write_text(f'#!/bin/sh\necho "$@" >> "{marker}"\nexec "$@"\n', encoding="utf-8")
    runner.chmod(0o755)
    configure_runner(calc_repo, command=[str(runner)])
    config = load_config(calc_repo)
    assert config.guards == {} and config.guard_runner.command == [str(runner)]
    untrusted = run_guard(add_guard(calc_repo), calc_repo, trusted=False)
    assert untrusted.state == UNOBSERVED and "cc-hooks trust" in untrusted.reason and not marker.exists()
    trust.trust(calc_repo, config)
    proc = cc_hooks("guards", "run", "tests/test_add.py::test_add", cwd=calc_repo)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"guards run in `{runner}` ([guards] command in .cc-hooks.toml)" in proc.stdout
    assert marker.read_text().startswith("python -m pytest")


def test_a_configured_python_is_used_and_a_missing_one_is_could_not_observe(calc_repo, tmp_path, isolated):
    tools = calc_repo / "tools"
    tools.mkdir()
    marker = tmp_path / "configured-python-ran"
    (tools / "py").write_text(f'#!/bin/sh\ntouch "{marker}"\nexec "{sys.executable}" "$@"\n', encoding="utf-8")
    (tools / "py").chmod(0o755)
    configure_runner(calc_repo, python="tools/py")
    trust.trust(calc_repo, load_config(calc_repo))
    outcome = run_guard(add_guard(calc_repo), calc_repo, trusted=True)
    assert outcome.state == HEALTHY and marker.exists() and "[guards] python = 'tools/py'" in outcome.environment
    configure_runner(calc_repo, python="no-such-python-here")
    outcome = run_guard(add_guard(calc_repo), calc_repo, trusted=True)
    assert outcome.state == UNOBSERVED and "no no-such-python-here on PATH" in outcome.reason


def test_the_runner_keys_change_the_trusted_table_and_leave_it_alone_when_unset(calc_repo):
    before = trust.table_digest(load_config(calc_repo))
    assert "guard_runner" not in trust.command_table(load_config(calc_repo))
    configure_runner(calc_repo, command=["uv", "run"])
    assert trust.table_digest(load_config(calc_repo)) != before
