"""The fail-open hook runtime: read one event, dispatch, answer within a budget.

Whatever happens (bad JSON, an exception, a hanging git), the process exits 0
with at most one line on stderr, never a traceback, and the failure goes to the
hook log in the state directory. The only deliberate non-zero exit is
PreCompact's exit 2, which blocks a manual compaction by policy.

The hook program runs the handler in a child process (``isolate``): the parent, which only waits on
a pipe, answers at the deadline whatever the child is doing, even inside one regular expression
that holds the interpreter's lock, and then kills the child's process group, its git included. A
library caller (the tests, ``rehydrate``) runs it in a thread of its own process instead.
"""

from __future__ import annotations

import json
import os
import time
from typing import TYPE_CHECKING, Any, Callable, Optional

from cc_hooks.hook_result import SILENT, HookResult  # noqa: F401 - the handlers' answers (and their import path)

if TYPE_CHECKING:
    from pathlib import Path

MAX_STDIN_BYTES = 16 * 1024 * 1024
GRACE_SECONDS = 0.5
# A start-up up to this long counts against the budget (0.1-0.3 s is the hook's own cost); a longer
# one is a CPU starved by other work (20 parallel hooks on 2 cores: 3 s), the machine's and not the
# input's, and counting it would leave the handler no time to store what it must (PostCompact's
# capture): the budget then starts when the hook is ready, as a library caller's does.
STARTUP_CREDIT = 0.5
REPLY_SECONDS = 0.4  # the timeout answer imports pydantic and writes the log: ~0.25 s on a loaded box
# Idents of the handler threads the runtime gave up on: they may start no new git process
# (cc_hooks.git asks ``may_start_git``), so an abandoned thread cannot leave one running after exit.
_ABANDONED: set = set()

EVENT_MODULES = {
    "PreCompact": "pre_compact",
    "PostCompact": "post_compact",
    "SessionStart": "session_start",
    "UserPromptSubmit": "user_prompt_submit",
}
PREFETCH_EVENTS = ("SessionStart", "PreCompact", "PostCompact")  # cc_hooks.prefetch.EVENTS, without importing it
DEFAULT_SECONDS = {"PreCompact": 10.0, "SessionStart": 5.0, "PostCompact": 5.0, "UserPromptSubmit": 2.0}


def abandoned() -> bool:
    """True in a handler thread whose budget ran out."""
    import threading

    return threading.get_ident() in _ABANDONED


def may_start_git() -> bool:
    return not abandoned()


class Deadline:
    """A point in time that work must finish by; git calls take ``timeout()``."""

    def __init__(self, seconds: float, start: Optional[float] = None):
        self.seconds = seconds
        self.end = (time.monotonic() if start is None else start) + seconds
        self.on_reset: Optional[Callable[[float], None]] = None  # the isolated child tells its parent

    def remaining(self) -> float:
        return max(0.0, self.end - time.monotonic())

    def expired(self) -> bool:
        return self.remaining() <= 0.0

    def timeout(self, cap: float = 30.0) -> float:
        return max(0.05, min(cap, self.remaining()))

    def reset(self, seconds: float) -> None:
        """Re-anchor to ``seconds`` from the start (used once config is read)."""
        self.end = self.end - self.seconds + seconds
        self.seconds = seconds
        if self.on_reset is not None:
            self.on_reset(seconds)


class HookContext:
    """What a handler gets: the raw payload, where it runs, and its deadline."""

    def __init__(self, event: str, payload: dict[str, Any], cwd: Path, deadline: Deadline, harness=None,
                 steps: Optional[dict] = None):
        self.event, self.payload, self.cwd, self.deadline = event, payload, cwd, deadline
        self._harness = harness
        # What the handler has done so far, for its timeout answer (PostCompact: the summary was
        # captured, its audit queued): a plain dict, or one the isolated child mirrors to its parent.
        self.steps: dict = {} if steps is None else steps

    @property
    def harness(self):
        """The adapter of the CLI that sent the event (``cc_hooks.harness``); told by the payload
        when the hook command did not name it."""
        if self._harness is None:
            from cc_hooks.harness import detect

            self._harness = detect(self.payload)
        return self._harness

    @property
    def session_id(self) -> str:
        value = self.payload.get("session_id")
        return value if isinstance(value, str) else ""

    def state_dir(self, create: bool = False) -> Optional[Path]:
        from cc_hooks.state import state_dir

        try:
            return state_dir(self.cwd, create=create)
        except OSError as exc:
            self.log("warning", f"state directory unavailable: {exc}")
            return None

    def repo_root(self) -> Optional[Path]:
        from cc_hooks.git import work_tree_root

        return work_tree_root(self.cwd)

    def log(self, level: str, message: str) -> None:
        from cc_hooks.state import log_event

        log_event(self.cwd, level, self.event, message)


def read_payload(stream) -> dict[str, Any]:
    raw = stream.read(MAX_STDIN_BYTES + 1)
    if len(raw) > MAX_STDIN_BYTES:
        raise HookInputError(f"stdin larger than {MAX_STDIN_BYTES // (1024 * 1024)} MiB; ignored")
    if not raw.strip():
        raise HookInputError("empty stdin; expected one JSON object")
    try:
        data = json.loads(raw.decode("utf-8", errors="replace"))
    except (ValueError, RecursionError) as exc:
        raise HookInputError(f"stdin is not valid JSON ({str(exc)[:80]})") from None
    if not isinstance(data, dict):
        raise HookInputError(f"stdin is JSON {type(data).__name__}, expected an object")
    return data


class HookInputError(Exception):
    pass


def _cwd_of(payload: dict[str, Any]) -> str:
    cwd = payload.get("cwd")
    if isinstance(cwd, str) and cwd and "\0" not in cwd and os.path.isdir(cwd):
        return cwd
    try:
        return os.getcwd()
    except OSError:  # the session's directory was removed (a deleted worktree)
        where = f" ({cwd[:200]})" if isinstance(cwd, str) and cwd else ""
        raise HookInputError(f"the working directory{where} no longer exists; nothing to do") from None


def run_hook(stdin, stdout, stderr, started: Optional[float] = None, harness: Optional[str] = None,
             isolate: bool = False) -> int:
    """Answer one event; ``started`` (``time.monotonic()``) is when the budget began: the hook
    program passes its process's start (``process_start``), a library caller leaves it to now.
    ``harness``: the CLI that runs the hook (``cc-hooks hook --harness``), else told by the payload.
    ``isolate``: run the handler in a child process the deadline can abandon (where ``os.fork`` exists)."""
    try:
        payload = read_payload(stdin)
    except HookInputError as exc:
        return _emit(_failed(None, "?", str(exc)), stdout, stderr)
    event = str(payload.get("hook_event_name"))
    if event not in EVENT_MODULES:
        return 0  # not ours: stay silent
    if isolate and hasattr(os, "fork"):
        result = _answered_isolated(payload, event, started, harness)
    else:
        result = answered(payload, event, started, harness, _run_with_budget)
    return _emit(result, stdout, stderr)


def _answered_isolated(payload: dict, event: str, started: Optional[float], harness: Optional[str]):
    """The answer computed in a child process (cc_hooks.isolation); at the deadline this process
    answers with the handler's ``on_timeout``, from what the child said it had done."""
    from cc_hooks import isolation

    deadline = Deadline(DEFAULT_SECONDS[event], started)

    def work(child) -> None:
        answered(payload, event, started, harness, child.handle, child.deliver, wait_for_prefetch=False)

    def timed_out(steps: dict):
        holder: dict[str, Any] = {"cwd": None}
        try:
            module, ctx = context_for(payload, event, started, harness, holder)
            ctx.deadline, ctx.steps = deadline, steps
            ctx.log("error", f"handler did not finish within its {deadline.seconds:g}s budget")
            return module.on_timeout(ctx)
        except Exception as exc:  # fail open
            return _failed(holder["cwd"], event, f"{type(exc).__name__}: {exc}")

    def lost():
        return _failed(None, event, "the handler's process ended without an answer")

    return isolation.run(deadline, GRACE_SECONDS - REPLY_SECONDS, GRACE_SECONDS, work, timed_out, lost)


def answered(payload: dict, event: str, started: Optional[float], harness: Optional[str], run: Callable,
             deliver: Optional[Callable] = None, wait_for_prefetch: bool = True):
    """The event's answer, failing open: the handler runs through ``run(module, ctx)``;
    ``deliver(result)`` is told it before the prefetched git is reaped (the isolated child's parent
    need not wait for that)."""
    holder: dict[str, Any] = {"cwd": None}
    try:
        try:
            result = _dispatch(payload, event, started, harness, run, holder)
        except HookInputError as exc:
            result = _failed(holder["cwd"], event, str(exc))
        except Exception as exc:  # fail open: never break the session
            result = _failed(holder["cwd"], event, f"{type(exc).__name__}: {exc}")
        if deliver is not None:
            deliver(result)
        return result
    finally:
        if event in PREFETCH_EVENTS and wait_for_prefetch:
            from cc_hooks import prefetch

            prefetch.finish()


def _dispatch(payload: dict, event: str, started: Optional[float], harness: Optional[str], run: Callable,
              holder: dict):
    module, ctx = context_for(payload, event, started, harness, holder, prefetch=True)
    quick: Optional[Callable] = getattr(module, "quick", None)
    if quick is not None:
        result = quick(ctx.payload, str(ctx.cwd))
        if result is not None:
            return result
    return run(module, ctx)


def context_for(payload: dict, event: str, started: Optional[float], harness: Optional[str],
                holder: Optional[dict] = None, prefetch: bool = False):
    """(the event's handler module, its HookContext); ``prefetch`` starts the git the last run of
    this event ran, on another core while the handler imports."""
    from cc_hooks.harness import detect

    adapter = detect(payload, harness)
    payload = adapter.normalize(payload)
    cwd = _cwd_of(payload)
    if holder is not None:
        holder["cwd"] = cwd
    if prefetch and event in PREFETCH_EVENTS:
        from cc_hooks import prefetch as prefetching

        prefetching.start(event, cwd)
    import importlib
    from pathlib import Path

    module = importlib.import_module(f"cc_hooks.events.{EVENT_MODULES[event]}")
    return module, HookContext(event, payload, Path(cwd), Deadline(DEFAULT_SECONDS[event], started), adapter)


def process_start() -> Optional[float]:
    """When this process started, on the ``time.monotonic()`` clock (Linux: /proc/self/stat), so
    that the budget counts the interpreter's start-up and the imports too: Claude Code's clock
    starts at the spawn (issue 16, item 14). None where it cannot be told, or when the start-up
    took longer than ``STARTUP_CREDIT``."""
    try:
        with open("/proc/self/stat", "rb") as handle:
            fields = handle.read().rsplit(b")", 1)[1].split()
        started = int(fields[19]) / os.sysconf("SC_CLK_TCK")  # field 22: start time after boot
        age = time.clock_gettime(time.CLOCK_BOOTTIME) - started
    except (OSError, ValueError, IndexError, AttributeError):
        return None
    return time.monotonic() - age if 0 <= age <= STARTUP_CREDIT else None


def _run_with_budget(module, ctx: HookContext):
    import threading

    from cc_hooks import git

    git.set_gate(may_start_git)
    box: dict[str, Any] = {}

    def work() -> None:
        box["native_id"] = threading.get_native_id()
        try:
            box["result"] = module.handle(ctx)
        except BaseException as exc:  # reported by the caller
            box["error"] = exc
        finally:
            _ABANDONED.discard(threading.get_ident())

    import cc_hooks.protocol  # noqa: F401 - every handler needs it anyway; the timeout answer must not wait for pydantic's import

    thread = threading.Thread(target=work, name=f"cc-hooks-{ctx.event}", daemon=True)
    thread.start()
    # The handler may re-anchor the deadline once it has read the config.
    # The last REPLY_SECONDS of the grace are for the timeout answer and the exit: the budget plus
    # the grace is the promise, counted from the process's start.
    while thread.is_alive() and time.monotonic() < ctx.deadline.end + GRACE_SECONDS - REPLY_SECONDS:
        thread.join(timeout=0.05)
    if thread.is_alive():
        ctx.log("error", f"handler did not finish within its {ctx.deadline.seconds:g}s budget")
        _abandon(thread, box.get("native_id"))
        return module.on_timeout(ctx)
    if "error" in box:
        raise box["error"]
    return box.get("result")


def _children_of(native_id: Optional[int]) -> set[int]:
    """The processes thread ``native_id`` of this process started and that still run (Linux
    ``/proc/self/task/<tid>/children``; empty where it does not exist)."""
    try:
        with open(f"/proc/self/task/{native_id}/children", "rb") as handle:
            return {int(pid) for pid in handle.read().split()}
    except (OSError, ValueError):
        return set()


def _abandon(thread, native_id: Optional[int]) -> None:
    """Stop what the abandoned handler runs: a git hung on a lock or a network file system
    would otherwise outlive the hook, one more on every event. No new git may start; the
    second pass catches one that was starting during the first."""
    import signal

    _ABANDONED.add(thread.ident)
    if not thread.is_alive():  # it finished meanwhile: its ident may be reused
        _ABANDONED.discard(thread.ident)
    for attempt in range(2):
        for pid in _children_of(native_id):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        if attempt == 0:
            # A git the handler was spawning during the first pass is not yet our
            # child; 50 ms lets its fork land so the second pass can kill it.
            time.sleep(0.05)


def _emit(result, stdout, stderr) -> int:
    if result is None:
        return 0
    try:
        if result.stdout:
            stdout.write(result.stdout if result.stdout.endswith("\n") else result.stdout + "\n")
            stdout.flush()
        if result.stderr:
            stderr.write(result.stderr if result.stderr.endswith("\n") else result.stderr + "\n")
            stderr.flush()
    except (OSError, ValueError):
        pass  # the reader is gone: nothing more can reach it
    return result.exit_code if result.exit_code == 2 else 0


def _failed(cwd: Optional[str], event: str, message: str):
    """The fail-open answer: one line on stderr (and in the hook log), exit 0."""
    from cc_hooks.printable import printable

    line = " ".join(printable(message).split())[:300]
    if cwd is None:
        try:
            cwd = os.getcwd()
        except OSError:
            cwd = None  # no directory, so no state directory to log to
    if cwd is not None:
        from cc_hooks.state import log_event

        log_event(cwd, "error", event, line)
    return HookResult(stderr=f"cc-hooks: {event} hook skipped: {line}")
