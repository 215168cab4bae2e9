"""The hooks as Codex runs them (``cc-hooks hook --harness codex``): real processes, real temp repos,
rollouts in the shape Codex 0.171.0 writes, the outputs Codex honours."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from checks.conftest import build_record_repo
from test_pre_compact import unrecorded_fix

from .rollout import Rollout, rollout_path

TURN = "01a23189-9885-7b52-8793-51aaacf82d10"


@pytest.fixture
def repo(tmp_path):
    return build_record_repo(tmp_path)


@pytest.fixture
def rollout(repo, tmp_path) -> Rollout:
    r = Rollout(rollout_path(tmp_path / "codex-home"), repo.root)
    r.prompt("fix it")
    return r


def codex_event(name: str, rollout: Rollout, **fields) -> dict:
    """A payload as Codex sends it: ``turn_id`` (not ``prompt_id``), the rollout as ``transcript_path``."""
    return {"session_id": rollout.session, "transcript_path": str(rollout.path), "cwd": str(rollout.cwd),
            "hook_event_name": name, "model": "gpt-5.5", **fields}


def hook(payload: dict, cwd: Path, harness: str | None = "codex", env: dict | None = None) -> subprocess.CompletedProcess:
    argv = [sys.executable, "-m", "cc_hooks", "hook", *(["--harness", harness] if harness else [])]
    base = {k: v for k, v in os.environ.items() if k != "CLAUDE_PROJECT_DIR"}
    return subprocess.run(argv, input=json.dumps(payload).encode(), capture_output=True, cwd=cwd,
                          env={**base, **(env or {})}, timeout=60)


def answer(proc) -> dict:
    assert proc.returncode == 0, proc.stderr.decode()
    return json.loads(proc.stdout) if proc.stdout.strip() else {}


def checkpoint(repo, rollout, turn=TURN) -> dict:
    return json.loads((repo.state / "checkpoints" / rollout.session / f"{turn}.json").read_text())


def test_pre_compact_prints_only_the_person_s_line_and_keys_the_checkpoint_by_turn(repo, rollout):
    sha = unrecorded_fix(repo)
    rollout.save()
    out = answer(hook(codex_event("PreCompact", rollout, trigger="auto", turn_id=TURN), repo.root))
    assert set(out) == {"systemMessage"}  # Codex ignores stdout: no summarizer instructions
    assert "FAIL: trailers" in out["systemMessage"] and "must-keep item(s) unrecorded" in out["systemMessage"]
    data = checkpoint(repo, rollout)
    assert data["prompt_id"] == TURN and any(sha[:12] in item["text"] for item in data["preserve"])


def test_block_manual_is_continue_false_for_manual_only(repo, rollout):
    sha = unrecorded_fix(repo)
    repo.write(".cc-hooks.toml", '[hooks]\nprecompact_policy = "block-manual"\n')
    rollout.save()
    auto = answer(hook(codex_event("PreCompact", rollout, trigger="auto", turn_id="t-auto"), repo.root))
    assert "continue" not in auto  # a blocked auto compaction would fail the turn
    manual = hook(codex_event("PreCompact", rollout, trigger="manual", turn_id="t-manual"), repo.root)
    blocked = answer(manual)
    assert blocked["continue"] is False and sha[:12] in blocked["stopReason"]
    assert "/compact again within 60 s" in blocked["stopReason"]
    assert blocked["systemMessage"].startswith("cc-hooks blocked this compaction")


def test_post_compact_audits_the_rollout_summary_and_the_next_prompt_delivers_it_once(repo, rollout):
    unrecorded_fix(repo)
    rollout.save()
    answer(hook(codex_event("PreCompact", rollout, trigger="auto", turn_id=TURN), repo.root))
    rollout.compacted("The bug was fixed in commit deadbeef42 on branch `main`.")
    rollout.save()
    post = answer(hook(codex_event("PostCompact", rollout, trigger="auto", turn_id=TURN), repo.root))
    assert set(post) == {"systemMessage"} and "1 contradicted" in post["systemMessage"]
    [capture] = (repo.state / "summaries" / rollout.session).glob("*.json")
    assert json.loads(capture.read_text())["summary"] == "The bug was fixed in commit deadbeef42 on branch `main`."
    assert checkpoint(repo, rollout).get("compacted")  # matched to its PreCompact by turn_id
    prompt = codex_event("UserPromptSubmit", rollout, turn_id="t-next", prompt="go on")
    context = answer(hook(prompt, repo.root))["hookSpecificOutput"]["additionalContext"]
    assert "CONTRADICTED" in context and "deadbeef42" in context and "Lost in the summary" in context
    assert answer(hook(prompt, repo.root)) == {}


def test_session_start_after_compaction_states_the_debt_as_facts(repo, rollout):
    sha = unrecorded_fix(repo)
    rollout.save()
    answer(hook(codex_event("PreCompact", rollout, trigger="auto", turn_id=TURN), repo.root))
    out = answer(hook(codex_event("SessionStart", rollout, source="compact"), repo.root))
    report = out["hookSpecificOutput"]["additionalContext"]
    assert out["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert "Capture debt" in report and sha[:12] in report
    assert "Codex does not pass PreCompact's findings to its summarizer" in report


@pytest.mark.parametrize("source", ["startup", "resume", "clear"])
def test_session_start_injects_the_report_on_every_source(repo, rollout, source):
    rollout.save()
    out = answer(hook(codex_event("SessionStart", rollout, source=source), repo.root))
    assert "VERIFIED" in out["hookSpecificOutput"]["additionalContext"]


def test_the_harness_is_told_by_the_payload_without_the_flag(repo, rollout):
    unrecorded_fix(repo)
    rollout.save()
    out = answer(hook(codex_event("PreCompact", rollout, trigger="auto", turn_id=TURN), repo.root, harness=None))
    assert set(out) == {"systemMessage"}
    claude = {"hook_event_name": "PreCompact", "session_id": "s", "cwd": str(repo.root), "trigger": "auto",
              "transcript_path": str(repo.root / "t.jsonl")}
    proc = hook(claude, repo.root, harness=None)
    assert proc.returncode == 0 and b"Preserve verbatim" in proc.stdout  # Claude Code's summarizer instructions
