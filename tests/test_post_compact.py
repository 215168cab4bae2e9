"""PostCompact audits the captured summary; the audit reaches the model once, on the next prompt."""

from __future__ import annotations

import json

import pytest

from checks.conftest import build_record_repo
from test_hook import event, run_hook
from test_pre_compact import unrecorded_fix


@pytest.fixture
def repo(tmp_path):
    return build_record_repo(tmp_path)


def compact(repo, summary: str):
    run_hook(event("PreCompact", repo.root, trigger="auto", prompt_id="p-1"), repo.root)
    return run_hook(event("PostCompact", repo.root, trigger="auto", compact_summary=summary), repo.root)


def next_prompt(repo) -> str:
    proc = run_hook(event("UserPromptSubmit", repo.root, prompt="go on"), repo.root)
    return json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"] if proc.stdout else ""


def test_contradicted_commit_and_lost_item_reach_the_next_prompt_once(repo):
    sha = unrecorded_fix(repo)
    proc = compact(repo, "<analysis>x</analysis>\n<summary>The bug was fixed in commit deadbeef42.</summary>")
    assert proc.returncode == 0
    line = proc.stdout.decode()
    assert "1 contradicted" in line and "1 of 1 must-keep item(s) missing" in line
    context = next_prompt(repo)
    assert "CONTRADICTED" in context and "deadbeef42" in context
    assert "<summary>" not in context  # the claim is quoted without the summarizer's wrapper tag
    assert "Lost in the summary" in context and sha[:12] in context
    assert next_prompt(repo) == ""
    capture = next((repo.state / "summaries" / "sess-1").glob("*.json"))
    stored = json.loads(capture.read_text())
    assert stored["summary"].startswith("<analysis>") and stored["audit"]["counts"]["CONTRADICTED"] == 1


def test_a_summary_that_kept_the_item_and_true_claims(repo):
    sha = unrecorded_fix(repo)
    proc = compact(repo, f"<summary>Fixed string inputs in commit {sha[:9]} (`src/calc.py`); it lacks a Symptom trailer.</summary>")
    line = proc.stdout.decode()
    assert "0 contradicted" in line and "0 of 1 must-keep item(s) missing" in line
    context = next_prompt(repo)
    assert "VERIFIED" in context and "CONTRADICTED" not in context and "Lost in the summary" not in context


def test_the_compaction_confirms_the_checkpoint_of_its_own_prompt(repo):
    def checkpoint(prompt_id):
        return json.loads((repo.state / "checkpoints" / "sess-1" / f"{prompt_id}.json").read_text())

    run_hook(event("PreCompact", repo.root, trigger="manual", prompt_id="p-1"), repo.root)
    run_hook(event("PreCompact", repo.root, trigger="auto", prompt_id="p-2"), repo.root)  # fired, then bailed out
    run_hook(event("PostCompact", repo.root, trigger="manual", prompt_id="p-1", compact_summary="<summary>s</summary>"), repo.root)
    assert "compacted" in checkpoint("p-1") and "compacted" not in checkpoint("p-2")


@pytest.fixture
def roomy(repo):
    """The prompt hook's 1 s budget, raised: on a loaded machine its start-up alone can take that."""
    import subprocess

    (repo.root / ".cc-hooks.toml").write_text("[hooks]\nuser_prompt_submit_seconds = 4\n")
    subprocess.run(["git", "-C", str(repo.root), "add", ".cc-hooks.toml"], check=True)
    subprocess.run(["git", "-C", str(repo.root), "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q",
                    "-m", "Give the prompt hook room"], check=True)
    subprocess.run(["git", "-C", str(repo.root), "push", "-q", "origin", "HEAD"], check=True, capture_output=True)
    return repo


def test_the_person_is_told_in_one_line_what_the_summary_got_wrong(roomy):
    """Issue 18: the audit's line reaches the screen with the next prompt, after an auto compaction too."""
    repo = roomy
    unrecorded_fix(repo)
    compact(repo, "<summary>The bug was fixed in commit deadbeef42.\x1b[2J Next: ship `x`.</summary>")
    proc = run_hook(event("UserPromptSubmit", repo.root, prompt="go on"), repo.root)
    message = json.loads(proc.stdout)["systemMessage"]
    assert message.startswith("cc-hooks: the compaction summary got 1 claim(s) wrong: ")
    assert "`no commit deadbeef42 in this repository`" in message and "it lost 1 of 1 must-keep item(s)" in message
    assert message.endswith("0 verified, 1 contradicted, 0 unverified")
    assert "\x1b" not in message and "\n" not in message and len(message) <= 300
    assert "systemMessage" not in (run_hook(event("UserPromptSubmit", repo.root, prompt="again"), repo.root).stdout.decode())


def test_a_summary_with_nothing_wrong_says_so(roomy):
    repo = roomy
    compact(repo, "<summary>We talked.</summary>")
    proc = run_hook(event("UserPromptSubmit", repo.root, prompt="go on"), repo.root)
    message = json.loads(proc.stdout)["systemMessage"]
    assert message.startswith("cc-hooks: nothing in the compaction summary is contradicted (it names nothing checkable)")


def test_a_lost_must_keep_item_alone_is_named(roomy):
    unrecorded_fix(roomy)
    compact(roomy, "<summary>We talked.</summary>")
    proc = run_hook(event("UserPromptSubmit", roomy.root, prompt="go on"), roomy.root)
    assert json.loads(proc.stdout)["systemMessage"].startswith("cc-hooks: the compaction summary lost 1 of 1 must-keep item(s) — ")

