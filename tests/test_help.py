"""Every verb's --help: its exit statuses, one wording of --project, and the real ids."""

from __future__ import annotations

import pytest

from cc_hooks.checks import CHECK_IDS
from cc_hooks.cli import PROJECT_HELP, build_parser, main, verb_names


def help_text(capsys, *argv: str) -> str:
    with pytest.raises(SystemExit) as exit_info:
        main([*argv, "--help"])
    assert exit_info.value.code == 0
    return " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize("verb", verb_names())
def test_every_verb_documents_its_exit_status(verb, capsys):
    assert "Exit status:" in help_text(capsys, verb)


def test_every_project_option_is_worded_the_same():
    parser = build_parser()
    verbs = parser._subparsers._group_actions[0].choices
    seen = {}
    for name, verb in verbs.items():
        parsers = [verb] + [p for a in verb._actions if hasattr(a, "choices") and isinstance(a.choices, dict)
                            for p in a.choices.values()]
        for sub in parsers:
            for action in sub._actions:
                if "--project" in action.option_strings and name != "transcripts":  # there: a session selector
                    seen[f"{name} {sub.prog}"] = action.help
    assert seen and set(seen.values()) == {PROJECT_HELP}, seen


def test_check_help_names_the_real_ids(capsys):
    from cc_hooks.commands.check import HELP

    text = help_text(capsys, "check")
    only = text[text.index("--only ID"):]
    assert all(check_id in only for check_id in CHECK_IDS)
    assert all(check_id in HELP for check_id in CHECK_IDS)
    for stale_name in ("gitignore trap", "push"):
        assert stale_name not in HELP


def test_trust_show_with_no_probes_says_there_is_nothing_to_trust(git_repo, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    code = main(["trust", "--show", "--project", str(git_repo)])
    out = capsys.readouterr().out
    assert code == 0 and "nothing to trust" in out and "not trusted" not in out


def test_project_may_be_any_directory_of_the_work_tree(git_repo, capsys):
    sub = git_repo / "src" / "deep"
    sub.mkdir(parents=True)
    assert main(["install", "--project", str(sub)]) == 0
    assert (git_repo / ".claude" / "settings.json").is_file() and not (sub / ".claude").exists()
    capsys.readouterr()
    assert main(["doctor", "--project", str(sub), "--json"]) in (0, 1)
    import json

    assert json.loads(capsys.readouterr().out)["project"] == str(git_repo)
