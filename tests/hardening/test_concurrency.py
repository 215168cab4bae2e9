"""Claude Code runs matching hooks in parallel and people run several sessions in one repo:
20 hook processes at once leave the state directory consistent, and every PostCompact audit is
delivered exactly once, by one UserPromptSubmit of its session."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from cc_hooks import state
from cc_hooks.fsutil import atomic_write_text

from .conftest import assert_sane, event, hook_in_process, hook_process

SESSIONS = ("s-a", "s-b", "s-c")


def summaries_in(context: str) -> int:
    """The PostCompact items in a prompt's context: an audit, or (a PostCompact that ran out of its
    budget on this loaded machine) the note that the captured summary is not verified."""
    return context.count("cc-hooks audit of the compaction summary") + context.count("has not verified its claims")


def start(payload: dict, cwd: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "cc_hooks", "hook"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=cwd)


def run_all(payloads: list[dict], cwd: Path) -> list[tuple[dict, int, str, str]]:
    procs = [(p, start(p, cwd)) for p in payloads]
    for payload, proc in procs:  # all started before any gets input: they race for real
        proc.stdin.write(json.dumps(payload).encode())
        proc.stdin.close()
    results = []
    for payload, proc in procs:
        out, err = proc.stdout.read(), proc.stderr.read()  # stderr is one line at most
        results.append((payload, proc.wait(timeout=120), out.decode(), err.decode()))
    return results


def assert_state_consistent(directory: Path) -> None:
    for path in directory.rglob("*"):
        if path.is_file() and path.suffix == ".json":
            json.loads(path.read_text())  # no torn file
    # A hook that ran out of its budget under this load exits while its handler writes: its
    # temporary file stays until the next write into that directory removes it.
    for path in list(directory.rglob("*.tmp")):
        atomic_write_text(path.parent / "sweep.json", "{}\n")
        assert not path.exists(), f"temporary file of a finished writer not removed: {path}"
    log = directory / "hook.log"
    if log.exists():
        for line in log.read_text().splitlines():
            json.loads(line)  # appends did not interleave


def test_twenty_mixed_hooks_at_once(repo):
    payloads = []
    for i in range(20):
        session = SESSIONS[i % 3]
        kind = i % 4
        if kind == 0:
            payloads.append(event("PreCompact", repo, session_id=session, trigger="auto", prompt_id=f"p{i}"))
        elif kind == 1:
            payloads.append(event("PostCompact", repo, session_id=session, trigger="auto", compact_summary=f"summary {i}: on main"))
        elif kind == 2:
            payloads.append(event("SessionStart", repo, session_id=session, source="compact", prompt_id=f"p{i - 2}"))
        else:
            payloads.append(event("UserPromptSubmit", repo, session_id=session, prompt=f"prompt {i}"))
    results = run_all(payloads, repo)
    delivered = {s: 0 for s in SESSIONS}
    for payload, code, out, err in results:
        from .conftest import Answer

        answer = Answer(payload["hook_event_name"], code, out, err, 0.0)
        assert_sane(answer)
        if payload["hook_event_name"] == "UserPromptSubmit" and out.strip():
            delivered[payload["session_id"]] += summaries_in(answer.context())
    directory = repo / ".git" / "cc-hooks"
    # Checkpoints: one per PreCompact, none torn or lost.
    checkpoints = sorted(p.stem for p in (directory / "checkpoints").rglob("*.json"))
    assert checkpoints == sorted(f"p{i}" for i in range(0, 20, 4))
    # Captures: one per PostCompact, even by one that ran out of its budget.
    assert len(list((directory / "summaries").rglob("*.json"))) == 5
    # Every audit is delivered exactly once: what the racing prompts took plus what is still queued.
    for session in SESSIONS:
        answer = hook_in_process(json.dumps(event("UserPromptSubmit", repo, session_id=session, prompt="later")).encode())
        if answer.stdout.strip():
            delivered[session] += summaries_in(answer.context())
    posted = {s: sum(1 for p in payloads if p["hook_event_name"] == "PostCompact" and p["session_id"] == s) for s in SESSIONS}
    assert delivered == posted
    assert_state_consistent(directory)


def test_pending_items_added_at_once_are_all_delivered_once(tmp_path):
    """add_pending from many writers at once (PostCompacts of one session) loses nothing, and
    take_pending from many readers at once delivers each item exactly once."""
    directory = tmp_path / "state"
    directory.mkdir()
    writers = 16
    code = (
        "import sys; from pathlib import Path; from cc_hooks import state\n"
        "for n in range(5): state.add_pending(Path(sys.argv[1]), 'same', {'kind': 'x', 'text': sys.argv[2] + '-' + str(n)})\n"
    )
    procs = [subprocess.Popen([sys.executable, "-c", code, str(directory), f"w{i}"]) for i in range(writers)]
    for proc in procs:
        assert proc.wait(timeout=60) == 0
    taken: list[str] = []
    lock = threading.Lock()

    def take():
        got = state.take_pending(directory, "same")
        if isinstance(got, dict):
            with lock:
                taken.extend(item["text"] for item in got["items"])

    with ThreadPoolExecutor(8) as pool:
        for _ in range(16):
            pool.submit(take)
    assert sorted(taken) == sorted(f"w{i}-{n}" for i in range(writers) for n in range(5))
    assert state.take_pending(directory, "same") is None


def test_concurrent_prompts_of_one_session_deliver_an_audit_once(repo):
    hook_process(json.dumps(event("PostCompact", repo, session_id="one", trigger="auto", compact_summary="s")).encode(), repo)
    results = run_all([event("UserPromptSubmit", repo, session_id="one", prompt=str(i)) for i in range(10)], repo)
    assert all(code == 0 for _, code, _, _ in results)
    outputs = [out for _, _, out, _ in results if out.strip()]
    # Under this load a prompt may run out of its 1 s budget before it claims the item: then
    # the item waits for the next prompt. Delivered once in total, never lost, never twice.
    later = hook_in_process(json.dumps(event("UserPromptSubmit", repo, session_id="one", prompt="later")).encode())
    assert len(outputs) + bool(later.stdout.strip()) == 1, (outputs, later)


def test_pending_quick_path_is_one_listdir(repo):
    """UserPromptSubmit's quick path: nothing queued costs one directory listing, no pydantic."""
    common = str(repo / ".git")
    assert state.has_pending(common, "nobody") is False
    state.add_pending(repo / ".git" / "cc-hooks", "somebody", {"kind": "x", "text": "t"})
    assert state.has_pending(common, "somebody") is True
    assert state.has_pending(common, "nobody") is False
    state.take_pending(repo / ".git" / "cc-hooks", "somebody")
    assert state.has_pending(common, "somebody") is False
    assert os.path.isdir(repo / ".git" / "cc-hooks")


class _RunsOutAfter:
    """A deadline that expires after ``n`` checks (the runtime gave up mid-handler)."""

    def __init__(self, n: int):
        self.n = n

    def expired(self) -> bool:
        self.n -= 1
        return self.n < 0

    def reset(self, seconds: float) -> None:
        pass  # the config's budget does not stop this countdown


def test_items_claimed_too_late_are_queued_again(repo):
    from cc_hooks.events import user_prompt_submit
    from cc_hooks.runtime import HookContext

    directory = repo / ".git" / "cc-hooks"
    state.add_pending(directory, "late", {"kind": "x", "text": "the audit"})
    ctx = HookContext("UserPromptSubmit", {"session_id": "late"}, repo, _RunsOutAfter(1))
    assert user_prompt_submit.handle(ctx) is None  # claimed, then too late to print
    again = HookContext("UserPromptSubmit", {"session_id": "late"}, repo, _RunsOutAfter(10))
    assert "the audit" in user_prompt_submit.handle(again).stdout
    assert state.take_pending(directory, "late") is None


def test_an_item_claimed_by_a_prompt_that_died_is_delivered_by_the_next(repo):
    """SIGKILL between the claim (rename) and the delivery must not lose the item."""
    directory = repo / ".git" / "cc-hooks"
    state.add_pending(directory, "s", {"kind": "x", "text": "survives"})
    folder = state.pending_dir(directory, "s")
    [name] = os.listdir(folder)
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    os.rename(folder / name, folder / f".{name}.taken-{dead.pid}")  # what the killed prompt left
    assert state.has_pending(str(repo / ".git"), "s")  # the quick path sees the orphaned claim
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        state.add_pending(directory, "s", {"kind": "x", "text": "in flight elsewhere"})
        [other] = [n for n in os.listdir(folder) if not n.startswith(".")]
        os.rename(folder / other, folder / f".{other}.taken-{alive.pid}")  # a live prompt is delivering it
        got = state.take_pending(directory, "s")
        assert [item["text"] for item in got["items"]] == ["survives"]
        assert state.take_pending(directory, "s") is None
    finally:
        alive.kill()
        alive.wait()
