"""The hook's handler in a child process that the deadline can abandon (POSIX ``fork``).

A thread cannot be stopped, and a regular expression or any C loop that holds the interpreter's
lock keeps even the waiting thread from answering: a budget kept by a thread holds only while
Python gets the lock back (issue 42). Here the parent forks before anything reads the repository,
waits on a pipe, and answers at the deadline whatever the child is doing; then it kills the child's
process group, so a hung git dies with it.

The child sends newline-delimited JSON on the pipe:

- ``{"deadline": S}``: the handler re-anchored its budget to S seconds (from the config);
- ``{"step": [key, value]}``: what the handler has done, for the timeout answer (``ctx.steps``);
- ``{"result": {...} | null}``: the answer (stdout, stderr, exit code), sent before the child
  reaps its prefetched git, so the parent need not wait for that.

Backstops: the child's own ``SIGALRM``, left at its default action (the kernel ends the process,
no interpreter lock needed), fires at the deadline plus the grace should the parent be killed
first; a child that ends without an answer gets the fail-open line.
"""

from __future__ import annotations

import json
import os
import select
import signal
import time
from typing import Any, Callable, Optional

from cc_hooks.hook_result import HookResult

_CHUNK = 1 << 16
_TIMED_OUT, _ENDED = object(), object()


def run(deadline, answer_by: float, backstop: float, work: Callable, timed_out: Callable, lost: Callable):
    """``work(child)`` in a child process, which gives its answer through ``child.deliver`` and
    runs the handler through ``child.handle(module, ctx)``; ``timed_out(steps)`` answers instead
    once ``deadline.end + answer_by`` passes, ``lost()`` when the child ends without an answer.
    The kernel ends the child at ``deadline.end + backstop`` should this process be gone by then."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child's lines run in the forked process
        os.close(read_fd)
        _Child(write_fd, deadline, backstop).run(work)
    os.close(write_fd)
    try:
        os.setpgid(pid, pid)  # as the child does: whichever runs first, the group exists before any git
    except OSError:
        pass
    steps: dict[str, Any] = {}
    try:
        outcome = _await(read_fd, deadline, answer_by, steps)
    finally:
        os.close(read_fd)
    if outcome is _TIMED_OUT:
        _stop(pid)
        return timed_out(steps)
    _reap(pid, block=outcome is _ENDED)
    return lost() if outcome is _ENDED else outcome


def _await(read_fd: int, deadline, answer_by: float, steps: dict):
    """The child's result, ``_TIMED_OUT`` at the deadline, or ``_ENDED`` when the pipe closed first."""
    buffer = b""
    while True:
        left = deadline.end + answer_by - time.monotonic()
        if left <= 0:
            return _TIMED_OUT
        ready, _, _ = select.select([read_fd], [], [], left)
        if not ready:
            continue
        chunk = os.read(read_fd, _CHUNK)
        if not chunk:
            return _ENDED
        buffer += chunk
        *lines, buffer = buffer.split(b"\n")
        for line in lines:
            message = json.loads(line)
            if "deadline" in message:
                deadline.reset(float(message["deadline"]))
            elif "step" in message:
                key, value = message["step"]
                steps[key] = value
            elif "result" in message:
                return _result_of(message["result"])


def _result_of(data: Optional[dict]):
    if data is None:
        return None
    return HookResult(data.get("stdout", ""), data.get("stderr", ""), int(data.get("exit_code", 0)))


def _stop(pid: int) -> None:
    """Kill the child and everything it started (its own process group), and reap them all: the
    orphaned git come to this process (a subreaper, on Linux), as an init that never reaps would
    keep them as zombies."""
    _adopt_orphans()
    for kill in (os.killpg, os.kill):
        try:
            kill(pid, signal.SIGKILL)
        except OSError:
            pass
    give_up = time.monotonic() + 0.2  # a process stuck in the kernel (a dead NFS mount) is not waited for
    while time.monotonic() < give_up:
        try:
            reaped, _ = os.waitpid(-pid, os.WNOHANG)  # any process of the child's group
        except ChildProcessError:
            return
        if reaped == 0:
            time.sleep(0.005)


def _adopt_orphans() -> None:
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        pass  # not Linux: the orphans go to init


def _reap(pid: int, block: bool) -> None:
    try:
        os.waitpid(pid, 0 if block else os.WNOHANG)
    except ChildProcessError:
        pass


# --- the child ----------------------------------------------------------------------------------


class _Channel:
    def __init__(self, fd: int):
        self.fd = fd

    def send(self, message: dict) -> None:
        data = (json.dumps(message, default=str) + "\n").encode("utf-8")
        try:
            while data:
                data = data[os.write(self.fd, data):]
        except OSError:
            pass  # the parent is gone (it answered at the deadline): nothing can reach it


class _MirroredSteps(dict):
    def __init__(self, channel: _Channel):
        super().__init__()
        self._channel = channel

    def __setitem__(self, key, value) -> None:
        super().__setitem__(key, value)
        self._channel.send({"step": [key, value]})


class _Child:
    """The forked process's side: its answer and its steps go to the parent on the pipe."""

    def __init__(self, write_fd: int, deadline, backstop: float):
        self.channel, self.deadline, self.backstop = _Channel(write_fd), deadline, backstop

    def run(self, work: Callable) -> None:  # pragma: no cover - runs forked
        code = 0
        try:
            try:
                os.setpgid(0, 0)  # its git joins this group: the parent's killpg reaches all of it
            except OSError:
                pass
            _detach_streams()
            self._arm(self.deadline)
            work(self)
            _end_group()
        except BaseException:
            code = 1
        finally:
            os._exit(code)

    def handle(self, module, ctx):
        """Run the handler with no budget of its own (the parent keeps it), telling the parent
        when it re-anchors its deadline and what it has done."""
        def tell(seconds: float) -> None:
            self._arm(ctx.deadline)
            self.channel.send({"deadline": seconds})

        ctx.deadline.on_reset = tell
        ctx.steps = _MirroredSteps(self.channel)
        return module.handle(ctx)

    def deliver(self, result) -> None:
        _remember_prefetch()  # before the answer: the next hook's prefetch reads it (a race if after)
        self.channel.send({"result": None if result is None else
                           {"stdout": result.stdout, "stderr": result.stderr, "exit_code": result.exit_code}})
        os.close(self.channel.fd)

    def _arm(self, deadline) -> None:
        """The kernel ends this process at the backstop, whatever holds the interpreter."""
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
        signal.setitimer(signal.ITIMER_REAL, max(0.05, deadline.end + self.backstop - time.monotonic()))


def _end_group() -> None:
    """The answer is out: end this process and every git it or the prefetch started (a hung one must not outlive the hook; nobody waits for them now)."""
    children = _children()
    if children is None:  # no /proc: the whole group, this process last
        if os.getpgid(0) == os.getpid():  # never the harness's group, should setpgid have failed
            os.killpg(0, signal.SIGKILL)
        return
    for pid in children:  # killed and reaped here: a git left to an init that never reaps stays a zombie
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except OSError:
            pass  # gone already, or reaped by the thread that started it


def _remember_prefetch() -> None:
    import sys

    prefetch = sys.modules.get("cc_hooks.prefetch")  # imported only by the events that prefetch
    try:
        if prefetch is not None:
            prefetch.remember()
    except Exception:  # only ever a speed-up
        pass


def _children() -> Optional[list[int]]:
    """The processes this one started that still exist (Linux: /proc/self/task/*/children)."""
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return None
    found: list[int] = []
    for task in tasks:
        try:
            with open(f"/proc/self/task/{task}/children", "rb") as handle:
                found += [int(pid) for pid in handle.read().split()]
        except (OSError, ValueError):
            continue
    return found


def _detach_streams() -> None:
    """The child holds no copy of the hook's stdout and stderr: the harness reads them to their end,
    which must come when the parent exits, not when the child has reaped its git."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)
