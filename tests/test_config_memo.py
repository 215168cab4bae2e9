"""The remembered config: rebuilt from the memo it equals the validated one; new bytes are validated."""

from pathlib import Path

import pytest

from cc_hooks import config as config_module
from cc_hooks.config import CONFIG_NAME, Config, ConfigError, load_config

CONFIGS = [
    None,  # no file: the defaults
    "",
    "[hooks]\nbudget_chars = 5000\nprecompact_policy = \"block-manual\"\n",
    "[hooks]\nreport_sources = [\"compact\"]\npre_compact_seconds = 3\n",
    "[record]\nsymptoms = \"docs/SYMPTOMS.md\"\nnew_key = 1\n",
    "[trailers]\nfix_subject_pattern = \"^bug\"\ntouching_symptoms_is_fix = false\n",
    "[probes.deploy]\nargv = [\"curl\", \"-s\", \"x\"]\nexpect = \"ok\"\ntimeout = 3\n[probes.other]\nargv = [\"true\"]\nzz = [1, 2]\n",
    "[guards]\npython = \".venv-test/bin/python\"\n[guards.unit]\nargv = [\"pytest\", \"tests\"]\nsymptom = \"S\"\n",
    "[guards]\ncommand = [\"uv\", \"run\"]\n",
    "[dashboard]\ntimeout_seconds = 1.5\n[dashboard.github]\ntrusted_associations = [\"OWNER\"]\n[dashboard.jira]\nurl = \"https://x.atlassian.net\"\n",
    "top_level_unknown = \"kept\"\n[unknown_table]\na = { b = 1 }\n",
]


def _state(repo: Path) -> Path:
    state = repo / ".git" / "cc-hooks"
    state.mkdir(exist_ok=True)
    return state


def _write(repo: Path, text):
    path = repo / CONFIG_NAME
    if text is None:
        path.unlink(missing_ok=True)
    else:
        path.write_text(text, encoding="utf-8")


def _validations(monkeypatch) -> list:
    calls = []
    real = config_module._validated

    def counting(path, text):
        calls.append(text)
        return real(path, text)

    monkeypatch.setattr(config_module, "_validated", counting)
    return calls


@pytest.mark.parametrize("text", CONFIGS)
def test_the_remembered_config_equals_the_validated_one(git_repo, monkeypatch, text):
    _state(git_repo)
    _write(git_repo, text)
    calls = _validations(monkeypatch)
    first = load_config(git_repo)
    again = load_config(git_repo)
    assert len(calls) == 1  # the second load is rebuilt from the memo
    assert type(again) is Config and again is not first
    assert again == first
    assert again.model_dump() == first.model_dump()
    assert again.model_fields_set == first.model_fields_set
    for name in type(first).model_fields:
        section = getattr(first, name)
        if hasattr(section, "model_fields_set"):
            assert getattr(again, name).model_fields_set == section.model_fields_set
            assert getattr(again, name).model_extra == section.model_extra
    assert list(again.probes) == list(first.probes)
    assert {n: p.model_extra for n, p in again.probes.items()} == {n: p.model_extra for n, p in first.probes.items()}


def test_a_changed_file_is_validated_again(git_repo, monkeypatch):
    _state(git_repo)
    _write(git_repo, "[hooks]\nbudget_chars = 5000\n")
    assert load_config(git_repo).hooks.budget_chars == 5000
    _write(git_repo, "[hooks]\nbudget_chars = 7000\n")
    assert load_config(git_repo).hooks.budget_chars == 7000
    _write(git_repo, "[hooks]\nbudget_chars = 5\n")  # out of range: the old memo must not answer
    with pytest.raises(ConfigError):
        load_config(git_repo)
    with pytest.raises(ConfigError):
        load_config(git_repo)  # an invalid file is never remembered
    _write(git_repo, "[hooks\n")
    with pytest.raises(ConfigError):
        load_config(git_repo)


@pytest.mark.parametrize("garbage", [b"not json", b'{"value": 5}', b'{"value": {"fields": {}, "extra": {}, "set": []}}',
                                     b'{"value": {"fields": {"record": 1}, "extra": {}, "set": []}}', b'{}'])
def test_a_corrupt_memo_entry_is_ignored(git_repo, monkeypatch, garbage):
    state = _state(git_repo)
    _write(git_repo, "[hooks]\nbudget_chars = 5000\n[probes.p]\nargv = [\"true\"]\n")
    first = load_config(git_repo)
    entries = list((state / "cache").glob("config-*.json"))
    assert len(entries) == 1
    entries[0].write_bytes(garbage)
    again = load_config(git_repo)
    assert again == first and again.hooks.budget_chars == 5000


def test_without_a_state_directory_the_config_is_validated(tmp_path):
    (tmp_path / CONFIG_NAME).write_text("[hooks]\nbudget_chars = 5000\n", encoding="utf-8")
    assert load_config(tmp_path).hooks.budget_chars == 5000
    assert load_config(tmp_path) == load_config(tmp_path)
