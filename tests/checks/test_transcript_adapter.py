"""The session sweep on real transcripts: helper E's reader → `to_sweep` → the `session` check."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from cc_hooks.checks.session_sweep import find_outcomes, is_correction
from cc_hooks.checks.transcript_adapter import to_sweep
from cc_hooks.transcript import read_live
from cc_hooks.transcript.reader import LiveTranscript, ToolCall
from checks.conftest import git

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared"
DEMO = SHARED / "corpus" / "transcripts" / "cc-2.1.197-demo" / "5d2e4ca7-25bf-4f58-aee8-94b98dd92f3a.jsonl"
SPOTTER = SHARED / "corpus" / "transcripts" / "spotter-2.1.39"
CORRECTION = "No, don't add float support; we decided to keep integer-only arithmetic."
PYTEST = "python3 -m pytest -q test_calc.py"


def corpus(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"../shared/corpus not present: {path}")
    return path


def before_boundary(src: Path, dst: Path) -> Path:
    """The transcript as PreCompact saw it: every line before its last compact boundary."""
    data = src.read_bytes()
    hit = data.rfind(b'"compact_boundary"')
    dst.write_bytes(data[: data.rfind(b"\n", 0, hit) + 1] if hit >= 0 else data)
    return dst


@pytest.fixture
def demo(tmp_path) -> Path:
    return before_boundary(corpus(DEMO), tmp_path / "demo.jsonl")


def dated_commit(repo: Path, message: str, when: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
    subprocess.run(["git", "-C", str(repo), "commit", "-q", "-m", message], check=True, env=env, capture_output=True)
    return git(repo, "rev-parse", "HEAD").strip()


def demo_repo(base: Path, trailer: bool = True, decision: bool = False) -> Path:
    """A repository mirroring the demo session: calc.py with the sign bug, then the session's fix commit."""
    repo = base / "demo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    for key, value in (("user.name", "Dev"), ("user.email", "dev@example.com"), ("commit.gpgsign", "false")):
        git(repo, "config", key, value)
    (repo / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    (repo / "test_calc.py").write_text("from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n")
    git(repo, "add", "-A")
    dated_commit(repo, "Add calc", "2026-11-29T12:00:00Z")
    (repo / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    git(repo, "add", "calc.py")
    message = "Fix add() subtracting instead of adding" + ("\n\nSymptom: add(2, 3) returns -1" if trailer else "")
    dated_commit(repo, message, "2026-11-29T13:22:03Z")
    if decision:
        (repo / "DECISIONS.md").write_text("# Decision Ledger\n\n## 2026-11-29 — Keep integer-only arithmetic\n\n"
                                           "**Decision**: no float support (the user's call).\n")
        git(repo, "add", "DECISIONS.md")
        dated_commit(repo, "Record the integer-only decision", "2026-11-29T13:22:05Z")
    return repo


def session_check(repo: Path, transcript: Path):
    from cc_hooks.checks import run_check
    from cc_hooks.checks.context import make_context
    from cc_hooks.runtime import Deadline

    return run_check(make_context(repo, Deadline(30), transcript_path=transcript), "session")


# --- the adapter on the demo transcript -------------------------------------------


def test_demo_sweep_finds_the_fix_the_commit_and_the_correction(demo, tmp_path):
    found = to_sweep(read_live(demo), tmp_path)
    assert found.edits == ["calc.py"]  # /home/dev/demo/calc.py, relative to the session's cwd
    assert found.commit_hints == ["f202879"]
    assert found.started == "2026-11-29T13:22:01.244Z"
    assert found.first_commit_at == "2026-11-29T13:22:03.779Z"  # the `git add … && git commit` call
    [outcome] = find_outcomes(found.calls)
    assert outcome.command == PYTEST and outcome.is_test and outcome.edits == ["calc.py"]
    assert outcome.error == "FAILED test_calc.py::test_add - assert -1 == 5"
    assert [text for text, _ in found.prompts if is_correction(text)] == [CORRECTION]


def test_the_live_part_after_the_boundary_holds_none_of_it(tmp_path):
    live = read_live(corpus(DEMO))
    found = to_sweep(live, tmp_path)
    assert find_outcomes(found.calls) == [] and found.commit_hints == [] and found.edits == []
    assert [text for text, _ in found.prompts] == ["continue"]
    assert found.started == live.summary.timestamp


def test_session_check_counts_the_symptom_commit_as_the_record(demo, tmp_path):
    repo = demo_repo(tmp_path)
    result = session_check(repo, demo)
    [outcome] = result.data["outcomes"]
    assert outcome["command"] == PYTEST and outcome["recorded_by"].startswith("commit ")
    assert "Symptom: add(2, 3) returns -1" in outcome["recorded_by"]
    assert [c["symptoms"] for c in result.data["commits"]] == [["add(2, 3) returns -1"]]
    # The correction has no DECISIONS.md entry: the one unrecorded fact.
    assert result.status == "FAIL"
    assert [f.claim for f in result.findings] == [CORRECTION]


def test_session_check_fails_a_fix_committed_without_a_trailer(demo, tmp_path):
    repo = demo_repo(tmp_path, trailer=False)
    result = session_check(repo, demo)
    assert result.status == "FAIL"
    outcome = next(f for f in result.findings if f.command)
    assert outcome.command == PYTEST and outcome.file == "calc.py"
    assert outcome.commit == git(repo, "rev-parse", "HEAD").strip()  # the commit that holds the fix
    assert "FAILED test_calc.py::test_add - assert -1 == 5" in outcome.message
    assert result.data["outcomes"][0]["recorded_by"] is None


def test_a_commit_from_before_the_sessions_first_commit_command_is_not_the_sessions(demo, tmp_path):
    repo = demo_repo(tmp_path, trailer=False)
    fix = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "reset", "-q", "--hard", "HEAD~1")
    (repo / "DECISIONS.md").write_text("# Decision Ledger\n")  # the user's commit, during the session's first turn
    git(repo, "add", "DECISIONS.md")
    dated_commit(repo, "Add the decision ledger", "2026-11-29T13:22:02Z")
    git(repo, "cherry-pick", fix)
    result = session_check(repo, demo)
    assert [c["subject"] for c in result.data["commits"]] == ["Fix add() subtracting instead of adding"]
    assert result.data["corrections"][0]["recorded_by"] is None  # the user's ledger commit is not the session's record


def test_an_amended_away_commit_is_no_longer_the_sessions(demo, tmp_path):
    repo = demo_repo(tmp_path, trailer=False)
    old = git(repo, "rev-parse", "HEAD").strip()
    transcript = tmp_path / "hinted.jsonl"
    transcript.write_text(demo.read_text().replace("f202879", old[:7]))  # the session printed this commit
    env = {**os.environ, "GIT_COMMITTER_DATE": "2026-11-29T13:22:03Z"}
    subprocess.run(["git", "-C", str(repo), "commit", "-q", "--amend", "-m", "Fix add()\n\nSymptom: add(2, 3) returns -1"],
                   check=True, env=env)
    result = session_check(repo, transcript)
    assert [c["sha"] for c in result.data["commits"]] == [git(repo, "rev-parse", "HEAD").strip()]
    assert result.data["outcomes"][0]["recorded_by"].startswith("commit ")


def test_session_check_passes_when_everything_is_recorded(demo, tmp_path):
    repo = demo_repo(tmp_path, decision=True)
    result = session_check(repo, demo)
    assert result.status == "PASS", [str(f) for f in result.findings]
    assert result.data["corrections"][0]["recorded_by"] == "DECISIONS.md"


# --- the adapter's rules, on hand-made tool calls -----------------------------------


def tool(name, ident, result="ok", exit_code=None, is_error=False, **tool_input):
    call = ToolCall(ident, name, tool_input, None, "2026-11-29T10:00:00Z", result_text=result, is_error=is_error)
    if name == "Bash":
        call.command, call.exit_code = tool_input["command"], exit_code
    return call


def test_unknown_results_and_paths_outside_the_repo_are_left_out(tmp_path):
    calls = [
        tool("Bash", "1", "still running", None, command="make"),  # exit code unknown
        tool("Bash", "2", None, 0, command="make test"),  # no result in the live part
        tool("Edit", "3", file_path=str(tmp_path / "src" / "a.py")),
        tool("Edit", "4", "Error: file changed", is_error=True, file_path=str(tmp_path / "src" / "b.py")),
        tool("Write", "5", file_path="/home/someone/.claude/plans/plan.md"),
        tool("Bash", "6", "Exit code 2\nerror: x", 2, command="make"),
        tool("Read", "7", file_path=str(tmp_path / "src" / "a.py")),
        tool("Bash", "8", "Pre-commit validation failed:\\n[FORMAT] x", None, is_error=True, command="git commit -m a"),
        tool("Bash", "9", "The user doesn't want to proceed with this tool use.", None, is_error=True, command="rm -rf x"),
    ]
    live = LiveTranscript(str(tmp_path / "t.jsonl"), 0, 0, None, tool_calls=calls, cwd=str(tmp_path))
    found = to_sweep(live, tmp_path)
    assert [(c.name, c.command or c.file, c.ok) for c in found.calls] == [
        ("Edit", "src/a.py", True), ("Edit", "src/b.py", False), ("Bash", "make", False),
        ("Bash", "git commit -m a", False)]  # a hook's refusal is a failure; the user's is not
    assert found.edits == ["src/a.py"]


# --- the real spotter sessions (reviewed by hand; see the closing note of issue 4) ------

SPOTTER_IDS = ["258c7280-ae70-4798-800f-63464d01a85d", "4d5611e5-241a-462a-8d15-5122611a9569",
               "8463c716-a2ea-4c14-9efa-87158ebd9f20", "ae4a77f8-aedd-4bc1-888f-c94edc91af04",
               "fa812bfe-b295-4cca-9c2f-fdf01028cb46"]
# (session, part) -> (command, error line) of the outcomes the review confirmed as real problems solved.
EXPECTED = {
    ("258c7280", "pre"): [("mix test test/spotter_web/live/project_review_live_test.exs", "** (CompileError) test/spotter_web")],
    ("8463c716", "live"): [("mix test test/spotter_web/live/session_live_test.exs", "** (RuntimeError) Phoenix LiveView requires lazy_html"),
                           ("mix test test/spotter/services/transcript_renderer_test.exs", "Assertion with != failed"),
                           ("mix test", "** (RuntimeError) no :secret_key_base configuration")],
    ("fa812bfe", "pre"): [("mix test test/spotter/transcripts/jobs/sync_transcripts_test.exs", "Assertion with == failed")],
}


@pytest.fixture(scope="module")
def spotter_repo(tmp_path_factory) -> Path:
    repo = tmp_path_factory.mktemp("spotter") / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    git(repo, "-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "init")
    return repo


@pytest.mark.parametrize("part", ["pre", "live"])
@pytest.mark.parametrize("session", SPOTTER_IDS)
def test_spotter_sessions_sweep_cleanly(session, part, spotter_repo, tmp_path):
    src = corpus(SPOTTER / f"{session}.jsonl")
    transcript = tmp_path / "t.jsonl"
    if part == "pre":
        before_boundary(src, transcript)
    else:
        shutil.copyfile(src, transcript)
    result = session_check(spotter_repo, transcript)
    assert result.status in ("PASS", "FAIL"), result.summary  # it looked
    json.dumps(result.to_dict())  # the checkpoint can store it
    outcomes = [(o["command"], o["error"]) for o in result.data["outcomes"]]
    expected = EXPECTED.get((session[:8], part), [])
    assert len(outcomes) == len(expected), outcomes
    for (command, error), (want_command, want_error) in zip(outcomes, expected):
        assert command == want_command and error.startswith(want_error)
    assert not any(command.startswith("git ") for command, _ in outcomes)  # push, add, lint-gated commits: workflow
    assert result.data["corrections"] == []  # bead-driven sessions: no corrections by the user


def test_check_command_sweeps_a_transcript_by_hand(demo, tmp_path):
    import sys

    repo = demo_repo(tmp_path, trailer=False)
    proc = subprocess.run([sys.executable, "-m", "cc_hooks", "check", "--project", str(repo), "--transcript", str(demo),
                           "--only", "session", "--json"], capture_output=True, text=True, timeout=120)
    [session] = json.loads(proc.stdout)["checks"]
    assert proc.returncode == 1 and session["status"] == "FAIL"
    assert any(f.get("command") == PYTEST for f in session["findings"])
