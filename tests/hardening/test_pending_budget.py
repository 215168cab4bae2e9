"""Issue 16, item 11: UserPromptSubmit delivers the queued audits that fit its budget and keeps
the rest queued; with 20 PostCompacts at once, every audit arrives, once, over the next prompts."""

from __future__ import annotations

import json
import re
import subprocess

from .conftest import git, make_repo
from .inert import entry_point, run

AUDITS = 20
MARKER_RE = re.compile(r"gone_(\d\d)\.py")


def test_twenty_parallel_audits_all_reach_the_model_a_few_a_prompt(tmp_path):
    repo = make_repo(tmp_path / "repo")
    # A small budget so that the audits cannot fit one prompt; long PostCompact and prompt budgets so
    # that a loaded machine does not time the processes out (that is not what this test is about).
    (repo / ".cc-hooks.toml").write_text("[hooks]\nbudget_chars = 1500\npost_compact_seconds = 60\n"
                                         "user_prompt_submit_seconds = 30\n")
    git(repo, "add", ".cc-hooks.toml")
    git(repo, "commit", "-qm", "config")
    procs = []
    for index in range(AUDITS):
        summary = f"Summary {index}: wrote `src/gone_{index:02d}.py` and ran `pytest tests/test_gone_{index:02d}.py`."
        payload = {"hook_event_name": "PostCompact", "session_id": "sess-q", "cwd": str(repo), "trigger": "auto",
                   "compact_summary": summary}
        proc = subprocess.Popen(entry_point() + ["hook"], cwd=repo, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        procs.append((proc, json.dumps(payload).encode()))
    for proc, data in procs:  # all started before any gets its input: they race for real
        proc.stdin.write(data)
        proc.stdin.close()
    for proc, _ in procs:
        assert proc.wait(timeout=300) == 0
        assert b"captured the compaction summary" in proc.stdout.read()
    seen: list[int] = []
    prompts = 0
    while prompts < AUDITS + 2:
        payload = {"hook_event_name": "UserPromptSubmit", "session_id": "sess-q", "cwd": str(repo), "prompt": "go"}
        proc = run(["hook"], repo, json.dumps(payload).encode())
        prompts += 1
        if not proc.stdout.strip():
            break
        context = json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]
        assert len(context) <= 1500
        assert "[cut to the" not in context  # whole audits only: the budget decides how many, not where to cut
        seen += sorted({int(n) for n in MARKER_RE.findall(context)})
    assert sorted(seen) == list(range(AUDITS)), seen  # each audit delivered, exactly once
    assert prompts > 2  # they did not all fit one prompt: the rest waited in the queue


STUCK_AFTER_CLAIM = """
import time
from cc_hooks import protocol
def stuck(*args, **kwargs):
    time.sleep(30)  # the handler has claimed the items and never gets its answer out
protocol.user_prompt_submit_output = stuck
"""


def test_an_audit_claimed_by_a_prompt_that_ran_out_of_time_reaches_the_next_one(tmp_path):
    repo = make_repo(tmp_path / "repo")
    payload = {"hook_event_name": "PostCompact", "session_id": "sess-t", "cwd": str(repo), "trigger": "auto",
               "compact_summary": "Summary: wrote `src/gone_07.py`."}
    assert b"captured" in run(["hook"], repo, json.dumps(payload).encode()).stdout
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(STUCK_AFTER_CLAIM)
    prompt = json.dumps({"hook_event_name": "UserPromptSubmit", "session_id": "sess-t", "cwd": str(repo), "prompt": "go"}).encode()
    first = run(["hook"], repo, prompt, env={"PYTHONPATH": str(site)})
    assert first.returncode == 0 and not first.stdout.strip(), first.stdout  # timed out: nothing printed
    second = run(["hook"], repo, prompt)
    context = json.loads(second.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "gone_07.py" in context  # not lost with the first prompt
    assert not run(["hook"], repo, prompt).stdout.strip()  # and delivered once
