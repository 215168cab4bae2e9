"""Issue 16, item 14: the budget is a promise. Measured from the spawn of the installed entry point
(Claude Code's clock), no hook runs past its budget by more than 0.5 s on the inputs that broke
it: a 2 GB sparse transcript (PreCompact took 10.9 s on 10 s) and a config linked to /dev/zero
(SessionStart took 5.8 s on 5 s)."""

from __future__ import annotations

import json
import time

import pytest

from checks.conftest import build_record_repo

from .conftest import hook_in_process
from .test_symlinks import measured, point_at

SLACK = 0.5
BUDGETS = {"PreCompact": 10.0, "SessionStart": 5.0, "PostCompact": 5.0}
DEFAULTS = BUDGETS  # a stuck handler never reads the config: the default budget is the one that holds


@pytest.fixture
def repo(tmp_path):
    return build_record_repo(tmp_path)


def sparse(path, size=2 * 1024**3, records=True):
    with open(path, "wb") as handle:
        if records:
            handle.write(b'{"type":"user","message":{"role":"user","content":"hi"}}\n')
        handle.truncate(size)
        if records:
            handle.seek(0, 2)
            handle.write(b'\n{"type":"user","message":{"role":"user","content":"end"}}\n')
    return path


def payload(name, repo, transcript):
    extra = {"PreCompact": {"trigger": "auto", "prompt_id": "p"}, "SessionStart": {"source": "compact"},
             "PostCompact": {"trigger": "auto", "compact_summary": "done in `src/calc.py`"}}[name]
    return json.dumps({"hook_event_name": name, "session_id": "s", "cwd": str(repo.root),
                       "transcript_path": str(transcript), **extra}).encode()


@pytest.mark.parametrize("records", [False, True], ids=["zeros", "zeros-between-records"])
@pytest.mark.parametrize("name", list(BUDGETS))
def test_a_two_gigabyte_sparse_transcript_stays_within_the_budget(repo, tmp_path, name, records):
    transcript = sparse(tmp_path / "t.jsonl", records=records)
    code, out, err, seconds, rss = measured(["hook"], repo.root, payload(name, repo, transcript))
    assert code == 0 and "Traceback" not in err, err
    assert seconds <= BUDGETS[name] + SLACK, f"{name}: {seconds:.2f} s"
    assert rss < 400 * 1024, f"{rss} KB"


def test_session_start_with_a_config_linked_to_dev_zero_stays_within_the_budget(repo, tmp_path):
    point_at(repo, ".cc-hooks.toml", "/dev/zero")
    code, out, err, seconds, rss = measured(["hook"], repo.root, payload("SessionStart", repo, tmp_path / "none.jsonl"))
    assert code == 0 and seconds <= BUDGETS["SessionStart"] + SLACK, seconds
    assert "not a regular file" in out or "outside the repository" in out or out, out


STUCK = """
import time
from cc_hooks.events import {module} as handler
def handle(ctx):
    time.sleep(60)  # a handler that never returns (a read that blocks, a loop)
handler.handle = handle
"""


@pytest.mark.parametrize("name, module", [("PreCompact", "pre_compact"), ("SessionStart", "session_start")])
def test_a_handler_that_never_finishes_answers_within_the_slack(repo, tmp_path, name, module):
    """The worst case: the handler never returns. Start-up counts against the budget (Claude Code's
    clock starts at the spawn) and the timeout answer comes before budget + 0.5 s."""
    import os

    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(STUCK.format(module=module))
    (repo.root / ".cc-hooks.toml").write_text("[hooks]\npre_compact_seconds = 2.0\nsession_start_seconds = 2.0\n")
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = str(site)
    try:
        code, out, err, seconds, _ = measured(["hook"], repo.root, payload(name, repo, tmp_path / "none.jsonl"))
    finally:
        if old is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = old
    assert code == 0 and "did not finish" in out, (name, out, err)
    assert seconds <= DEFAULTS[name] + SLACK, f"{name}: {seconds:.2f} s"


STUCK_AUDIT = """
import time
from cc_hooks.events import post_compact
def audit_summary(*args, **kwargs):
    time.sleep(60)  # an audit that never ends (a huge history on a loaded machine)
post_compact.audit_summary = audit_summary
"""


def test_a_post_compact_out_of_budget_still_captures_the_summary_and_says_it_is_unverified(repo, tmp_path, monkeypatch):
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(STUCK_AUDIT)
    # a long prompt budget: a loaded machine must not delay the delivery (not what this test is about)
    (repo.root / ".cc-hooks.toml").write_text("[hooks]\npost_compact_seconds = 1.0\nuser_prompt_submit_seconds = 30\n")
    summary = "<summary>The fix landed in commit deadbeef42.</summary>"
    data = json.dumps({"hook_event_name": "PostCompact", "session_id": "sess-t", "cwd": str(repo.root),
                       "trigger": "auto", "compact_summary": summary}).encode()
    monkeypatch.setenv("PYTHONPATH", str(site))
    code, out, err, seconds, _ = measured(["hook"], repo.root, data)
    monkeypatch.delenv("PYTHONPATH")
    assert code == 0 and "captured the compaction summary" in out and "audit ran out of its budget" in out, (out, err)
    captures = list((repo.state / "summaries" / "sess-t").glob("*.json"))
    assert [json.loads(p.read_text())["summary"] for p in captures] == [summary]
    prompt = json.dumps({"hook_event_name": "UserPromptSubmit", "session_id": "sess-t", "cwd": str(repo.root),
                         "prompt": "go on"}).encode()
    monkeypatch.chdir(repo.root)
    assert "has not verified its claims" in hook_in_process(prompt).stdout  # in-process: no start-up under load
    assert hook_in_process(prompt).stdout == ""  # delivered once



def test_the_prompt_budget_of_the_config_is_the_one_the_prompt_hook_keeps(repo, monkeypatch):
    """A slow delivery (3 s, more than the default 2 s and its grace) still reaches the model when the
    config gives the prompt hook 30 s: the handler re-anchors its deadline to the config's budget."""
    from cc_hooks import state

    (repo.root / ".cc-hooks.toml").write_text("[hooks]\nuser_prompt_submit_seconds = 30\n")
    state.add_pending(repo.state, "sess-p", {"kind": "summary", "text": "queued for the next prompt"})
    real = state.take_pending

    def slow_take(*args, **kwargs):
        time.sleep(3.0)
        return real(*args, **kwargs)

    monkeypatch.setattr(state, "take_pending", slow_take)
    monkeypatch.chdir(repo.root)
    answer = hook_in_process(json.dumps({"hook_event_name": "UserPromptSubmit", "session_id": "sess-p",
                                         "cwd": str(repo.root), "prompt": "go on"}).encode())
    assert answer.code == 0 and "queued for the next prompt" in answer.stdout, answer
