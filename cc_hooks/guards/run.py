"""Run one guard and read its exit code tri-state (methodology §7).

0 observed healthy, 1 observed the anomaly, 2 could not observe. Any other
code, a signal, a timeout, a program that cannot start, or an untrusted
configured command is "could not observe" too: never a pass. Guards run
without a shell, in their own process group (so a timeout or an interrupt
takes their children down with them), with stdin closed.

A pytest id runs as ``python -m pytest -q -p no:cacheprovider <id>`` in the
repo root, with the project's Python (``cc_hooks.guards.environment``: a
configured command or interpreter, the project's ``.venv``, ``python3`` on
PATH), and every outcome says which; pytest's codes map to the same states:
0 → 0; 1 → 1, unless the summary counts errors and no failures (a fixture broke
before anything was observed) or that Python has no pytest → 2; anything else
(2 interrupted or collection error, 3 internal error, 4 usage error, 5 nothing
collected) → 2.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from dataclasses import asdict, dataclass
from typing import Optional

from cc_hooks.guards.environment import Environment, resolve_environment
from cc_hooks.guards.resolve import PYTEST, Guard

HEALTHY, ANOMALY, UNOBSERVED = 0, 1, 2
STATE_NAMES = {HEALTHY: "healthy", ANOMALY: "anomaly", UNOBSERVED: "could not observe"}
OUTPUT_TAIL = 4000
PYTEST_CODES = {2: "pytest was interrupted or could not collect the test", 3: "pytest internal error",
                4: "pytest usage error (no such test?)", 5: "pytest collected no test"}
_FAILED_RE = re.compile(r"\b(\d+) failed\b")
_ERRORS_RE = re.compile(r"\b(\d+) errors?\b")
_NO_PYTEST_RE = re.compile(r"No module named pytest\b|No module named '?pytest'?$", re.MULTILINE)


@dataclass
class Outcome:
    guard: str
    state: int  # HEALTHY | ANOMALY | UNOBSERVED
    reason: str  # why, in one phrase
    returncode: Optional[int] = None  # the process's own code (None: never ran / timed out)
    seconds: float = 0.0
    output: str = ""  # the tail of stdout+stderr
    environment: str = ""  # which environment ran it (Environment.label)

    @property
    def state_name(self) -> str:
        return STATE_NAMES[self.state]

    def to_dict(self) -> dict:
        data = asdict(self)
        data["state_name"] = self.state_name
        return data


def run_guard(guard: Guard, cwd: str | os.PathLike, trusted: bool, env: Optional[dict] = None,
              timeout: Optional[float] = None, environment: Optional[Environment] = None) -> Outcome:
    """Run ``guard`` in ``cwd``; ``trusted`` says whether the repo's guard table is trusted;
    ``environment`` which Python runs it (default: the one of the project at ``cwd``)."""
    if not guard.runnable:
        return Outcome(guard.name, UNOBSERVED, guard.problem or f"no guard ({guard.gap or 'none recorded'})")
    environment = environment or resolve_environment(cwd)
    label = environment.label
    if guard.needs_trust and not trusted:
        return Outcome(guard.name, UNOBSERVED, "not trusted: the guard table of .cc-hooks.toml is not trusted (`cc-hooks trust`)",
                       environment=label)
    if guard.needs_trust:  # the trusted table names files: they must be the bytes trusted, here too
        from cc_hooks.trust import argv_changed

        changed = argv_changed(guard.argv, cwd)
        if changed:
            return Outcome(guard.name, UNOBSERVED, f"not trusted: {changed}", environment=label)
    if environment.configured and not trusted:
        return Outcome(guard.name, UNOBSERVED, f"not trusted: guards run with {label}, which runs only after `cc-hooks trust`",
                       environment=label)
    if environment.problem:
        return Outcome(guard.name, UNOBSERVED, environment.problem, environment=label)
    limit = timeout if timeout is not None else guard.timeout
    argv = environment.argv(guard.argv)
    code, output, seconds, error = execute(argv, cwd, limit, environment.env(env if env is not None else guard_env()))
    if error:
        return Outcome(guard.name, UNOBSERVED, error, code, seconds, output, label)
    if guard.kind == PYTEST and code == 1 and _NO_PYTEST_RE.search(output[:2000]):
        return Outcome(guard.name, UNOBSERVED, f"pytest is not installed in {label}", code, seconds, output, label)
    state, reason = interpret(guard, code, output)
    return Outcome(guard.name, state, reason, code, seconds, output, label)


def interpret(guard: Guard, code: int, output: str) -> tuple[int, str]:
    if guard.kind == PYTEST:
        if code == 0:
            return HEALTHY, "test passed"
        if code == 1:
            if _count(_ERRORS_RE, output) and not _count(_FAILED_RE, output):
                return UNOBSERVED, "the test errored before it could observe (pytest counted errors, no failures)"
            return ANOMALY, "test failed"
        return UNOBSERVED, f"{PYTEST_CODES.get(code, 'pytest')} (exit {code})"
    if code == 0:
        return HEALTHY, "exit 0"
    if code == 1:
        return ANOMALY, "exit 1"
    if code == 2:
        return UNOBSERVED, "exit 2: the guard could not observe"
    if code < 0:
        return UNOBSERVED, f"killed by signal {-code}"
    return UNOBSERVED, f"exit {code} is not a verifier code (0 healthy, 1 anomaly, 2 could not observe)"


def _count(pattern: re.Pattern, output: str) -> int:
    lines = [line for line in output.splitlines() if line.strip()]
    summary = lines[-1] if lines else ""
    return sum(int(m.group(1)) for m in pattern.finditer(summary))


def guard_env(extra_path: tuple[str, ...] = ()) -> dict:
    """The environment a guard runs in: the caller's, without writing bytecode into the tree."""
    env = dict(os.environ)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    if extra_path:
        env["PYTHONPATH"] = os.pathsep.join([*extra_path, *filter(None, [env.get("PYTHONPATH")])])
    return env


def execute(argv: list[str], cwd, timeout: float, env: Optional[dict]) -> tuple[Optional[int], str, float, str]:
    """(returncode, output tail, seconds, error); error is non-empty when the guard could not be run to the end."""
    started = time.monotonic()
    try:
        proc = subprocess.Popen(
            argv, cwd=str(cwd), env=env if env is not None else guard_env(), stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
        )
    except OSError as exc:
        return None, "", time.monotonic() - started, f"cannot run {argv[0]}: {exc.strerror or exc}"
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        stop(proc)
        out = _drain(proc)
        return None, _tail(out), time.monotonic() - started, f"timed out after {timeout:g}s"
    except BaseException:  # KeyboardInterrupt, SystemExit from a signal: take the guard down, then go on up
        stop(proc)
        raise
    return proc.returncode, _tail(out), time.monotonic() - started, ""


def stop(proc: subprocess.Popen, grace: float = 2.0) -> None:
    """SIGTERM the guard's process group, SIGKILL it after ``grace`` seconds, reap it."""
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            proc.wait(timeout=wait)
            # the leader is gone; make sure nothing of its group survives it
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            return
        except subprocess.TimeoutExpired:
            continue


def _drain(proc: subprocess.Popen) -> bytes:
    try:
        out, _ = proc.communicate(timeout=5)
        return out or b""
    except (subprocess.TimeoutExpired, ValueError, OSError):
        return b""


def _tail(out: Optional[bytes]) -> str:
    text = (out or b"").decode("utf-8", errors="replace")
    return text[-OUTPUT_TAIL:]
