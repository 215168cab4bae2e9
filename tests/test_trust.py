import json
import os

import pytest
import tomli_w

from cc_hooks import trust
from cc_hooks.cli import main
from cc_hooks.config import load_config


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    root = tmp_path / "proj"
    root.mkdir()
    (root / ".git").mkdir()
    (root / ".cc-hooks.toml").write_text(tomli_w.dumps({"probes": {"ci": {"argv": ["true"]}}}), encoding="utf-8")
    return root


def test_trust_then_change_then_trust_again(project):
    config = load_config(project)
    assert not trust.is_trusted(project, config)
    trust.trust(project, config)
    assert trust.is_trusted(project, config)
    (project / ".cc-hooks.toml").write_text(tomli_w.dumps({"probes": {"ci": {"argv": ["false"]}}}), encoding="utf-8")
    changed = load_config(project)
    assert not trust.is_trusted(project, changed)
    assert "changed since it was trusted" in trust.status(project, changed).reason


def test_guards_are_part_of_the_table(project):
    config = load_config(project)
    trust.trust(project, config)
    (project / ".cc-hooks.toml").write_text(
        tomli_w.dumps({"probes": {"ci": {"argv": ["true"]}}, "guards": {"g": {"argv": ["pytest"]}}}), encoding="utf-8"
    )
    assert not trust.is_trusted(project, load_config(project))


def test_store_is_keyed_by_realpath_and_private(project, tmp_path):
    link = tmp_path / "link"
    link.symlink_to(project)
    trust.trust(link, load_config(project))
    assert trust.is_trusted(project, load_config(project))
    data = json.loads(trust.trust_path().read_text())
    assert list(data["repos"]) == [os.path.realpath(project)]
    assert trust.trust_path() == tmp_path / "xdg" / "cc-hooks" / "trust.json"
    assert oct(trust.trust_path().stat().st_mode & 0o777) == "0o600"


def test_cli_trust_show_revoke(project, capsys):
    assert main(["trust", "--project", str(project), "--show"]) == 1
    assert "never trusted" in capsys.readouterr().out
    assert main(["trust", "--project", str(project)]) == 0
    assert "probe ci: true" in capsys.readouterr().out
    assert main(["trust", "--project", str(project), "--show"]) == 0
    assert main(["trust", "--project", str(project), "--revoke"]) == 0
    assert "trust revoked" in capsys.readouterr().out
    assert not trust.is_trusted(project, load_config(project))
    assert main(["trust", "--project", str(project), "--revoke"]) == 0
    assert "nothing to revoke" in capsys.readouterr().out


def test_unreadable_store_is_an_error_not_a_silent_reset(project, capsys):
    trust.trust_path().parent.mkdir(parents=True)
    trust.trust_path().write_text("{not json", encoding="utf-8")
    assert not trust.is_trusted(project, load_config(project))
    assert main(["trust", "--project", str(project)]) == 2
    assert "unreadable" in capsys.readouterr().err
    assert trust.trust_path().read_text() == "{not json"


def test_an_entry_from_before_file_hashing_must_be_trusted_again(project):
    """Version 1 stored only the table's digest: it says nothing about the files, so it is not enough."""
    config = load_config(project)
    trust.trust_path().parent.mkdir(parents=True)
    trust.trust_path().write_text(json.dumps({"version": 1, "repos": {os.path.realpath(project): {
        "sha256": trust.table_digest(config), "trusted_at": "2026-11-01T00:00:00Z"}}}))
    state = trust.status(project, config)
    assert not state.trusted and "older cc-hooks" in state.reason


def test_the_files_an_argv_runs_are_covered(project):
    (project / "tools").mkdir()
    (project / "tools" / "x.sh").write_text("echo 1\n")
    (project / "probe.py").write_text("print(1)\n")
    (project / ".cc-hooks.toml").write_text(tomli_w.dumps({"probes": {
        "a": {"argv": ["sh", "-c", "./tools/x.sh --flag"]}, "b": {"argv": ["python3", "probe.py"]},
        "c": {"argv": ["make", "check"]}}}), encoding="utf-8")
    config = load_config(project)
    files = trust.executed_files(project, trust.argvs_of(config))
    assert {"tools/x.sh", "probe.py", "Makefile"} <= set(files) and files["Makefile"] == "missing"
    trust.trust(project, config)
    assert trust.is_trusted(project, config)
    (project / "Makefile").write_text("check:\n\ttrue\n")  # a file the runner reads appears
    assert "Makefile changed since you trusted it" in trust.status(project, config).reason


def test_a_file_outside_the_repository_is_not_a_repository_file(project, tmp_path):
    outside = tmp_path / "outside.sh"
    outside.write_text("echo\n")
    assert trust.executed_files(project, [[str(outside)], ["../outside.sh"]]) == {}


def test_a_guard_run_elsewhere_must_find_the_trusted_bytes(project, tmp_path):
    (project / "check.sh").write_text("exit 0\n")
    (project / ".cc-hooks.toml").write_text(tomli_w.dumps({"guards": {"g": {"argv": ["sh", "check.sh"]}}}))
    config = load_config(project)
    trust.trust(project, config)
    assert trust.status(project, config).trusted
    copy = tmp_path / "copy"
    copy.mkdir()
    (copy / "check.sh").write_text("exit 0\n")
    assert trust.argv_changed(["sh", "check.sh"], copy) == ""
    (copy / "check.sh").write_text("touch pwned\n")
    assert "check.sh differs here" in trust.argv_changed(["sh", "check.sh"], copy)
