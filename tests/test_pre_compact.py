"""PreCompact as Claude Code runs it: the checklist, the checkpoint, the instructions, the policy."""

from __future__ import annotations

import json

import pytest

from checks.conftest import build_record_repo
from test_hook import event, run_hook


@pytest.fixture
def repo(tmp_path):
    return build_record_repo(tmp_path)


def unrecorded_fix(repo) -> str:
    repo.write("src/calc.py", "def add(a, b):\n    return int(a) + int(b)\n")
    sha = repo.commit("fix: coerce string inputs", "src/calc.py")
    repo.push()
    return sha


def checkpoint(repo, prompt_id="p-1") -> dict:
    return json.loads((repo.state / "checkpoints" / "sess-1" / f"{prompt_id}.json").read_text())


def test_healthy_repo_scores_full_and_writes_a_checkpoint(repo):
    proc = run_hook(event("PreCompact", repo.root, trigger="auto", custom_instructions=None, prompt_id="p-1"), repo.root)
    text = proc.stdout.decode()
    assert proc.returncode == 0
    assert text.startswith("cc-hooks compaction checklist: 9/10 PASS, 1 could not be checked")
    assert "Preserve verbatim" not in text and "commit sha" in text
    data = checkpoint(repo)
    assert data["head"] == repo.git("rev-parse", "HEAD").strip()
    assert {r["id"]: r["status"] for r in data["results"]}["ledgers"] == "PASS"


def test_unrecorded_fix_is_preserved_verbatim(repo):
    sha = unrecorded_fix(repo)
    proc = run_hook(event("PreCompact", repo.root, trigger="manual", custom_instructions="keep it short", prompt_id="p-1"), repo.root)
    text = proc.stdout.decode()
    assert proc.returncode == 0 and "FAIL: trailers" in text
    preserve = text.split("Preserve verbatim", 1)[1]
    assert sha[:12] in preserve and "fix: coerce string inputs" in preserve
    assert "keep it short" not in text  # the user's own instructions are Claude Code's to repeat
    items = checkpoint(repo)["preserve"]
    assert items[0]["check"] == "trailers" and sha[:7] in items[0]["tokens"]["shas"]


def test_missing_audit_stays_in_the_score_line(repo):
    import shutil

    shutil.rmtree(repo.state / "audits")
    text = run_hook(event("PreCompact", repo.root, trigger="auto", prompt_id="p-1"), repo.root).stdout.decode()
    assert "FAIL: audit" in text and "Preserve verbatim" not in text


def block_manual(repo):
    repo.write(".cc-hooks.toml", '[hooks]\nprecompact_policy = "block-manual"\n')


def test_block_manual_blocks_then_a_rerun_within_60s_passes(repo):
    sha = unrecorded_fix(repo)
    block_manual(repo)
    first = run_hook(event("PreCompact", repo.root, trigger="manual", prompt_id="p-1"), repo.root)
    err = first.stderr.decode()
    assert first.returncode == 2 and first.stdout == b""
    assert sha[:12] in err and "/compact again within 60 s" in err and "CC_HOOKS_ALLOW_COMPACT=1" in err
    second = run_hook(event("PreCompact", repo.root, trigger="manual", prompt_id="p-2"), repo.root)
    assert second.returncode == 0 and b"Preserve verbatim" in second.stdout
    third = run_hook(event("PreCompact", repo.root, trigger="manual", prompt_id="p-3"), repo.root)
    assert third.returncode == 2  # the override is spent


def test_block_manual_never_blocks_auto_or_with_the_env_override(repo):
    unrecorded_fix(repo)
    block_manual(repo)
    auto = run_hook(event("PreCompact", repo.root, trigger="auto", prompt_id="p-1"), repo.root)
    assert auto.returncode == 0 and b"FAIL: trailers" in auto.stdout
    env = run_hook(event("PreCompact", repo.root, trigger="manual", prompt_id="p-2"), repo.root, env={"CC_HOOKS_ALLOW_COMPACT": "1"})
    assert env.returncode == 0


def test_block_manual_lets_a_complete_record_through(repo):
    block_manual(repo)
    proc = run_hook(event("PreCompact", repo.root, trigger="manual", prompt_id="p-1"), repo.root)
    assert proc.returncode == 0


def test_warn_policy_never_blocks(repo):
    unrecorded_fix(repo)
    proc = run_hook(event("PreCompact", repo.root, trigger="manual", prompt_id="p-1"), repo.root)
    assert proc.returncode == 0 and b"FAIL: trailers" in proc.stdout
