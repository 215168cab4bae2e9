"""Faults lose nothing silently (issue 51, items 2 and 3), through the installed entry point.

A state directory that cannot be written: PreCompact and SessionStart say what they could not
store, as PostCompact does, and SessionStart tells "PreCompact ran but could not store its
checkpoint" from "PreCompact did not run" (or says it cannot tell). A PostCompact killed after
storing the summary, before its audit was queued: the audit still reaches the next prompt, once.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from .conftest import make_repo
from .faults import fill, mounted_tmpfs, payload


@pytest.fixture
def env(tmp_path) -> dict:
    """A private HOME and runtime directory (where a marker goes when the state directory takes none)."""
    home, runtime = tmp_path / "home", tmp_path / "runtime"
    home.mkdir()
    runtime.mkdir(mode=0o700)
    return {**os.environ, "HOME": str(home), "XDG_RUNTIME_DIR": str(runtime)}


def hook(cli: Path, raw: bytes, cwd: Path, env: dict) -> subprocess.CompletedProcess:
    proc = subprocess.run([str(cli), "hook"], input=raw, cwd=cwd, env=env, capture_output=True, timeout=120)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr.decode(), proc
    return proc


def session_start(cli: Path, repo: Path, env: dict, **fields) -> tuple[str, str]:
    """(the report, the person's line) of SessionStart(compact)."""
    proc = hook(cli, payload("SessionStart", repo, **fields), repo, env)
    answer = json.loads(proc.stdout)
    return answer["hookSpecificOutput"]["additionalContext"], answer["systemMessage"]


def capture_note(report: str) -> str:
    [line] = [line for line in report.splitlines() if line.lstrip("- ").startswith("Capture ")]
    return line


@pytest.mark.parametrize("fault, size, readonly, why", [
    ("full", "64k", False, "No space left on device"),
    ("read-only", "1m", True, "Read-only file system"),
])
def test_unwritable_state_directory_precompact_and_session_start_say_what_was_not_stored(
        installed_cli, tmp_path, env, fault, size, readonly, why):
    repo = make_repo(tmp_path / "repo")
    with mounted_tmpfs(repo / ".git" / "cc-hooks", size, readonly) as state:
        if not readonly:
            fill(state)
        pre = hook(installed_cli, payload("PreCompact", repo, prompt_id="p-1"), repo, env).stdout.decode()
        report, line = session_start(installed_cli, repo, env, prompt_id="p-1")
    assert f"cc-hooks: could not store the compaction checkpoint ({why})" in pre, pre
    assert pre.startswith("cc-hooks compaction checklist:")  # the checklist itself still reaches the summarizer
    note = capture_note(report)
    assert f"the PreCompact hook ran but could not store its checkpoint ({why})" in note, note
    assert "did not run" not in report and "no PreCompact" not in line, (report, line)
    assert f"could not store the rehydration report ({why})" in line, line
    assert "summaries show" not in line  # nothing was kept there to show


def test_nothing_writable_anywhere_session_start_says_it_cannot_tell(installed_cli, tmp_path, env):
    repo = make_repo(tmp_path / "repo")
    with mounted_tmpfs(repo / ".git" / "cc-hooks", "1m", readonly=True), \
            mounted_tmpfs(tmp_path / "runtime-ro", "1m", readonly=True) as runtime:
        env = {**env, "XDG_RUNTIME_DIR": str(runtime)}
        pre = hook(installed_cli, payload("PreCompact", repo, prompt_id="p-1"), repo, env).stdout.decode()
        report, line = session_start(installed_cli, repo, env, prompt_id="p-1")
    assert "cc-hooks: could not store the compaction checkpoint (Read-only file system)" in pre, pre
    note = capture_note(report)
    assert "whether the PreCompact hook ran cannot be told" in note, note
    assert "did not run" not in report and "no PreCompact" not in line, (report, line)


# --- killed mid-hook: its git blocks on a FIFO, so the kill lands at a known step ----------------------------


def killed_once(cli: Path, raw: bytes, repo: Path, env: dict, reached, step: str) -> None:
    """Run the hook with its git stuck (``objects/info/alternates`` is a FIFO no one writes: every git
    that reads objects waits on it) and SIGKILL all of it once ``reached()``: no git-using step after
    ``step`` can have happened, and every write before it has."""
    fifo = repo / ".git" / "objects" / "info" / "alternates"
    os.mkfifo(fifo)
    proc = subprocess.Popen([str(cli), "hook"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, cwd=repo, env=env, start_new_session=True)
    try:
        proc.stdin.write(raw)
        proc.stdin.close()
        end = time.monotonic() + 60
        while not reached():
            assert proc.poll() is None and time.monotonic() < end, f"the hook never got to {step}"
            time.sleep(0.01)
    finally:
        kill_session(proc.pid)
        proc.wait(timeout=30)
        fifo.unlink()


def kill_session(leader: int) -> None:
    """SIGKILL every process of the session ``leader`` leads (the hook, its isolated child, its git)."""
    for _ in range(50):
        members = []
        for entry in os.listdir("/proc"):
            try:
                if entry.isdigit() and os.getsid(int(entry)) == leader:
                    members.append(int(entry))
            except OSError:
                continue
        if not members:
            return
        for pid in members:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.05)


def files(folder: Path, suffix: str) -> list[Path]:
    return [p for p in folder.iterdir() if p.name.endswith(suffix)] if folder.is_dir() else []


def test_a_precompact_killed_during_its_checks_is_told_from_one_that_never_ran(installed_cli, tmp_path, env):
    repo = make_repo(tmp_path / "repo")
    state = repo / ".git" / "cc-hooks"
    killed_once(installed_cli, payload("PreCompact", repo, prompt_id="p-1"), repo, env,
                lambda: files(state, ".running"), "its marker")
    assert not (state / "checkpoints").exists()
    report, line = session_start(installed_cli, repo, env, prompt_id="p-1")
    assert "the PreCompact hook started but did not finish" in capture_note(report), report
    assert "PreCompact did not finish" in line, line
    report, line = session_start(installed_cli, repo, env, prompt_id="p-2")  # a compaction it never ran for
    assert "the PreCompact hook did not run" in capture_note(report) and "no PreCompact" in line, report


def test_post_compact_killed_after_storing_the_summary_its_audit_reaches_the_next_prompt_once(installed_cli, tmp_path, env):
    """Killed once the capture is stored, while the audit's first git waits: before its audit is queued."""
    repo = make_repo(tmp_path / "repo")
    # Budgets no loaded machine reaches: the kill, not the timeout answer, must end PostCompact.
    (repo / ".cc-hooks.toml").write_text("[hooks]\npost_compact_seconds = 60\nuser_prompt_submit_seconds = 30\n")
    hook(installed_cli, payload("PreCompact", repo, prompt_id="p-1"), repo, env)  # its must-keep items
    captures = repo / ".git" / "cc-hooks" / "summaries" / "sess-1"
    summary = "<summary>The bug was fixed in commit deadbeef42.</summary>"
    killed_once(installed_cli, payload("PostCompact", repo, prompt_id="p-1", compact_summary=summary), repo, env,
                lambda: files(captures, ".json"), "the capture")
    [capture] = [json.loads(p.read_text()) for p in files(captures, ".json")]
    assert capture["summary"] == summary and "audit" not in capture  # killed between the two writes

    first = hook(installed_cli, payload("UserPromptSubmit", repo), repo, env).stdout.decode()
    assert first.strip(), "the audit of the stored summary never reached the next prompt"
    context = json.loads(first)["hookSpecificOutput"]["additionalContext"]
    assert "CONTRADICTED" in context and "deadbeef42" in context, context
    assert "Lost in the summary" in context  # the must-keep items of PreCompact's checkpoint
    assert "got 1 claim(s) wrong" in json.loads(first)["systemMessage"]
    assert hook(installed_cli, payload("UserPromptSubmit", repo), repo, env).stdout == b""  # once
    [stored] = [json.loads(p.read_text()) for p in files(captures, ".json")]
    assert stored["audit"]["counts"]["CONTRADICTED"] == 1  # kept with the capture, for `summaries show`


# --- what the other kill points leave, recovered the same way (the state each one leaves, by hand) ----------


def due_item(repo: Path, summary: str) -> dict:
    from cc_hooks.events.post_compact import AUDIT_DUE, unchecked_item

    capture = repo / ".git" / "cc-hooks" / "summaries" / "sess-1" / "20261201T080059123456Z.json"
    return {**unchecked_item(capture), "kind": AUDIT_DUE, "session_id": "sess-1", "trigger": "auto", "prompt_id": None,
            "summary": summary}


def next_prompt(repo: Path):
    from .conftest import hook_in_process

    return hook_in_process(payload("UserPromptSubmit", repo))


@pytest.fixture
def roomy_repo(tmp_path) -> Path:
    repo = make_repo(tmp_path / "repo")
    (repo / ".cc-hooks.toml").write_text("[hooks]\nuser_prompt_submit_seconds = 30\n")  # a loaded machine is not the subject
    return repo


def test_killed_before_the_capture_was_written_the_prompt_audits_the_queued_summary(roomy_repo):
    from cc_hooks import state

    repo, directory = roomy_repo, roomy_repo / ".git" / "cc-hooks"
    state.add_pending(directory, "sess-1", due_item(repo, "<summary>Fixed in commit deadbeef42.</summary>"))
    first = next_prompt(repo)
    assert "CONTRADICTED" in first.context() and "deadbeef42" in first.context(), first
    assert next_prompt(repo).stdout == ""
    [capture] = (directory / "summaries" / "sess-1").glob("*.json")
    assert json.loads(capture.read_text())["audit"]["counts"]["CONTRADICTED"] == 1  # the capture is written now


def test_killed_after_the_audit_was_stored_the_prompt_delivers_that_audit(roomy_repo):
    """The audit PostCompact stored with the capture is delivered as it is, not run again (here the
    queued summary names nothing checkable: a new audit would find nothing wrong)."""
    from cc_hooks import state

    repo, directory = roomy_repo, roomy_repo / ".git" / "cc-hooks"
    item = due_item(repo, "<summary>Nothing to check here.</summary>")
    stored = {"claims": [{"text": "fixed in commit deadbeef42", "verdict": "CONTRADICTED", "evidence": "no such commit"}],
              "counts": {"VERIFIED": 0, "CONTRADICTED": 1, "UNVERIFIED": 0}, "preserve_total": 0, "missing": []}
    state.write_json(Path(item["capture"]), {"session_id": "sess-1", "summary": "s", "audit": stored})
    state.add_pending(directory, "sess-1", item)
    first = next_prompt(repo)
    assert "CONTRADICTED" in first.context() and "no such commit" in first.context(), first
    assert next_prompt(repo).stdout == ""


def test_a_queued_item_a_prompt_has_taken_is_not_queued_again():
    """PostCompact's last step (the audit in the place of its queued item) after a prompt took that
    item already: nothing more is queued (the prompt delivered it), so nothing arrives twice."""
    import tempfile

    from cc_hooks import state

    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp) / "cc-hooks"
        name = state.add_pending(directory, "s", {"kind": "summary-audit-due", "text": "placeholder"})
        assert [item["text"] for item in state.take_pending(directory, "s")["items"]] == ["placeholder"]
        state.replace_pending(directory, "s", name, {"kind": "summary-audit", "text": "the audit"})
        assert state.take_pending(directory, "s") is None
        other = state.add_pending(directory, "s", {"kind": "summary-audit-due", "text": "placeholder"})
        state.replace_pending(directory, "s", other, {"kind": "summary-audit", "text": "the audit"})
        assert [item["text"] for item in state.take_pending(directory, "s")["items"]] == ["the audit"]
        assert os.listdir(state.pending_dir(directory, "s")) == []
