"""The Codex rollout reader: the live part after the newest ``compacted`` record, in the sweep's terms."""

from __future__ import annotations

from pathlib import Path

from cc_hooks.checks.session_sweep import find_outcomes
from cc_hooks.checks.transcript_adapter import to_sweep
from cc_hooks.harness import CODEX, for_transcript
from cc_hooks.harness.codex_rollout import newest_summary, read_live

from .rollout import Rollout, rollout_path


def session(tmp_path: Path) -> Rollout:
    repo = tmp_path / "repo"
    repo.mkdir()
    return Rollout(rollout_path(tmp_path / "codex"), repo)


def test_a_failing_command_fixed_by_a_patch_is_an_outcome(tmp_path):
    r = session(tmp_path)
    r.prompt("run the tests")
    r.command("python3 test_calc.py", "AssertionError: add(2, 3) returned -1\n", exit_code=1)
    r.patch("calc.py", "    return a - b", "    return a + b")
    r.command("python3 test_calc.py", "1 passed\n")
    r.command("git commit -qam 'Fix add'", "[main 1a2b3c4] Fix add\n 1 file changed\n")
    live = read_live(r.save())
    assert [(c.name, c.exit_code) for c in live.tool_calls if c.name == "Bash"] == [("Bash", 1), ("Bash", 0), ("Bash", 0)]
    assert live.files_edited == [str(r.cwd / "calc.py")]
    assert [c.sha for c in live.commits] == ["1a2b3c4"]
    assert [p.text for p in live.user_prompts] == ["run the tests"]
    sweep = to_sweep(live, r.cwd)
    [outcome] = find_outcomes(sweep.calls)
    assert outcome.command == "python3 test_calc.py"
    assert outcome.error == "AssertionError: add(2, 3) returned -1"
    assert outcome.edits == ["calc.py"]


def test_the_live_part_starts_after_the_newest_compaction(tmp_path):
    r = session(tmp_path)
    r.prompt("first")
    r.command("make", "error: boom\n", exit_code=2)
    r.compacted("FIRST SUMMARY")
    r.prompt("second")
    r.compacted("SECOND SUMMARY mentions `calc.py`")
    r.prompt("third")
    r.command("ls", "calc.py\n")
    live = read_live(r.save())
    assert live.summary.text == "SECOND SUMMARY mentions `calc.py`"
    assert [p.text for p in live.user_prompts] == ["third"]
    assert [c.command for c in live.tool_calls] == ["ls"]
    assert newest_summary(r.path) == "SECOND SUMMARY mentions `calc.py`"  # Codex's preamble dropped


def test_no_compaction_no_summary_and_a_torn_last_line_is_skipped(tmp_path):
    r = session(tmp_path)
    r.prompt("hello")
    path = r.save()
    with open(path, "a", encoding="utf-8") as handle:
        handle.write('{"timestamp":"2026-12-01T12:18:00.000Z","type":"response_item","payload":{"type":"mess')
    live = read_live(path)
    assert live.summary is None and newest_summary(path) is None
    assert [p.text for p in live.user_prompts] == ["hello"] and live.bad_lines == 1
    assert live.session_id == r.session and live.cwd == str(r.cwd)


def test_a_rollout_is_recognised_by_its_name(tmp_path):
    r = session(tmp_path)
    assert for_transcript(r.save()).name == CODEX
    assert for_transcript(tmp_path / "5d1f3c1e-0000-4000-8000-000000000000.jsonl").name == "claude-code"
