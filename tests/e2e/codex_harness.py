"""Run the real, pinned Codex CLI offline against ``FakeResponses``.

- ``ensure_codex(version)`` installs ``@openai/codex@<version>`` once into
  ``$CC_HOOKS_E2E_CACHE/codex-<version>`` (default ``~/.cache/cc-hooks-e2e``) under a file lock, as
  ``harness.ensure_cli`` does for Claude Code (the native binary comes in an optional dependency).
- ``CodexRunner`` runs ``codex exec`` with a temporary HOME and ``CODEX_HOME``, a custom provider
  pointing at the fake (no login), and a PATH like a user's: ``~/.local/bin`` first (where the tests
  link ``cc-hooks``), then git's and node's directories, then the system ones.
- ``AppServer`` speaks ``codex app-server``'s JSON-RPC on stdio: the trust inventory
  (``hooks/list``) and a manual compaction (``thread/compact/start``, what ``/compact`` does).
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Sequence

from .fakeresponses import FakeResponses
from .harness import SYSTEM_PATH, cache_root, npm_install

PACKAGE = "@openai/codex"
DEFAULT_VERSION = "0.171.0"
RUN_TIMEOUT = 60.0
MODEL = "gpt-5.5"  # a model Codex knows, so it offers apply_patch; the fake answers whatever the name
AUTO_COMPACT_LIMIT = 20_000  # well above the ~6.4k Codex estimates right after a compaction
CONFIG = """model = "{model}"
model_provider = "fake"
approval_policy = "never"
sandbox_mode = "danger-full-access"
model_auto_compact_token_limit = {limit}
model_context_window = 100000
check_for_update_on_startup = false
[model_providers.fake]
name = "Fake loopback"
base_url = "{base_url}"
wire_api = "responses"
env_key = "FAKE_API_KEY"
request_max_retries = 0
stream_max_retries = 0
[features]
hooks = true
[analytics]
enabled = false
"""


def codex_version() -> str:
    return os.environ.get("CC_HOOKS_E2E_CODEX_VERSION") or DEFAULT_VERSION


def codex_path(version: str, cache: Optional[Path] = None) -> Path:
    return (cache or cache_root()) / f"codex-{version}" / "node_modules" / ".bin" / "codex"


def installed_version(binary: Path) -> Optional[str]:
    if not binary.exists():
        return None
    try:
        out = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    words = out.split()
    return words[-1] if words else None  # "codex-cli 0.171.0"


def ensure_codex(version: Optional[str] = None, cache: Optional[Path] = None) -> Path:
    """The path of the pinned Codex binary, installing it first if needed (once, under a lock)."""
    version = version or codex_version()
    cache = cache or cache_root()
    return npm_install("Codex CLI", PACKAGE, version, codex_path(version, cache), cache / f"codex-{version}.lock",
                       installed_version)


@dataclass
class CodexRun:
    argv: list
    returncode: int
    stdout: str
    stderr: str
    duration: float

    def describe(self) -> str:
        return f"argv={self.argv}\nexit={self.returncode}\nstdout={self.stdout[-2000:]}\nstderr={self.stderr[-3000:]}"


@dataclass
class CodexRunner:
    """``codex exec`` in ``cwd`` with ``home`` as HOME and ``home/.codex`` as CODEX_HOME, against ``fake``."""

    codex: Path
    fake: FakeResponses
    home: Path
    cwd: Path
    timeout: float = RUN_TIMEOUT
    runs: list = field(default_factory=list)

    def __post_init__(self) -> None:
        self.codex_home.mkdir(parents=True, exist_ok=True)
        self.bin_dir.mkdir(parents=True, exist_ok=True)
        self.config_path.write_text(CONFIG.format(model=MODEL, limit=AUTO_COMPACT_LIMIT, base_url=self.fake.base_url))

    @property
    def codex_home(self) -> Path:
        return self.home / ".codex"

    @property
    def config_path(self) -> Path:
        return self.codex_home / "config.toml"

    @property
    def bin_dir(self) -> Path:
        return self.home / ".local" / "bin"

    def add_config(self, text: str) -> None:
        with open(self.config_path, "a", encoding="utf-8") as handle:
            handle.write("\n" + text.strip() + "\n")

    def trust_project(self) -> None:
        self.add_config(f'[projects."{self.cwd}"]\ntrust_level = "trusted"')

    def link_on_path(self, executable: Path) -> Path:
        link = self.bin_dir / executable.name
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(executable)
        return link

    def env(self) -> dict:
        tool_dirs = [str(Path(p).parent) for p in (shutil.which("git"), shutil.which("node")) if p]
        return {
            "HOME": str(self.home), "CODEX_HOME": str(self.codex_home),
            "PATH": os.pathsep.join(dict.fromkeys([str(self.bin_dir), *tool_dirs, *SYSTEM_PATH])),
            "LANG": "C.UTF-8", "TERM": "dumb", "TMPDIR": os.environ.get("TMPDIR", "/tmp"), "FAKE_API_KEY": "fake-key",
            "GIT_AUTHOR_NAME": "Test User", "GIT_AUTHOR_EMAIL": "test@example.com",
            "GIT_COMMITTER_NAME": "Test User", "GIT_COMMITTER_EMAIL": "test@example.com",
        }

    def exec(self, prompt: str, *, resume: bool = False, extra: Sequence[str] = (), check: bool = True) -> CodexRun:
        """``codex exec [resume --last] -- <prompt>`` (hooks must be trusted: nothing bypasses it)."""
        argv = [str(self.codex), "exec", *extra, *(["resume", "--last"] if resume else []), prompt]
        started = time.monotonic()
        proc = subprocess.Popen(argv, cwd=self.cwd, env=self.env(), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
        try:
            stdout, stderr = proc.communicate(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            stdout, stderr = proc.communicate()
            raise AssertionError(f"codex did not finish within {self.timeout}s\nstderr={stderr[-3000:]}")
        run = CodexRun(argv, proc.returncode, stdout, stderr, time.monotonic() - started)
        self.runs.append(run)
        if check:
            assert run.returncode == 0, f"codex exited {run.returncode}\n{run.describe()}"
        return run

    def rollouts(self) -> list[Path]:
        return sorted((self.codex_home / "sessions").rglob("rollout-*.jsonl"))

    def app_server(self) -> "AppServer":
        return AppServer(self)


class AppServer:
    """``codex app-server`` over stdio: send requests, wait for responses and notifications."""

    def __init__(self, runner: CodexRunner):
        self.proc = subprocess.Popen([str(runner.codex), "app-server"], cwd=runner.cwd, env=runner.env(),
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, start_new_session=True)
        self.notifications: list[dict] = []
        self._ids = iter(range(1, 1_000_000))
        # A thread reads the lines: select() on the pipe cannot see lines readline() already buffered,
        # so a select loop waited out its timeout with the answer in the buffer (hooks/list, 30 s).
        self._lines: "queue.Queue[Optional[str]]" = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()
        self.request("initialize", {"clientInfo": {"name": "cc-hooks-e2e", "version": "0"}})
        self.notify("initialized")

    def notify(self, method: str, params: Optional[dict] = None) -> None:
        self._send({"jsonrpc": "2.0", "method": method, **({"params": params} if params is not None else {})})

    def request(self, method: str, params: dict, timeout: float = 30.0) -> dict:
        ident = next(self._ids)
        self._send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            message = self._read(end)
            if message is None:
                break
            if message.get("id") == ident and "method" not in message:
                assert "error" not in message, f"{method}: {message['error']}"
                return message.get("result") or {}
        raise AssertionError(f"no answer to {method} within {timeout}s")

    def wait_for(self, method: str, timeout: float = 30.0, where=lambda params: True) -> dict:
        for seen in self.notifications:
            if seen.get("method") == method and where(seen.get("params") or {}):
                return seen
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            message = self._read(end)
            if message is None:
                break
            if message.get("method") == method and where(message.get("params") or {}):
                return message
        raise AssertionError(f"no {method} within {timeout}s; seen: {[n.get('method') for n in self.notifications][-30:]}")

    def wait_turn(self, timeout: float = 30.0) -> list[dict]:
        """The notifications of the next turn (a compaction is one), from ``turn/started`` until the
        thread is idle again (a completed compaction sends no ``turn/completed``, an interrupted one does)."""
        self.notifications.clear()
        end = time.monotonic() + timeout
        started = None
        while time.monotonic() < end:
            for i, seen in enumerate(self.notifications):
                if started is None and seen.get("method") == "turn/started":
                    started = i
                if (started is not None and i > started and seen.get("method") == "thread/status/changed"
                        and (seen.get("params") or {}).get("status", {}).get("type") == "idle"):
                    self._drain(0.3)  # a turn/completed may follow the idle status
                    return self.notifications[started:]
            if self._read(end) is None:
                break
        raise AssertionError(f"no whole turn within {timeout}s; seen: {[n.get('method') for n in self.notifications]}")

    def _drain(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while self._read(end) is not None:
            pass

    def _send(self, message: dict) -> None:
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def _pump(self) -> None:
        for line in self.proc.stdout:
            self._lines.put(line)
        self._lines.put(None)  # the server's stdout closed

    def _read(self, end: float) -> Optional[dict]:
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, end - time.monotonic()))
            except queue.Empty:
                return None
            if line is None:
                self._lines.put(None)  # stays closed for the next reader
                return None
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if "method" in message:
                self.notifications.append(message)
                if "id" in message:  # a request from the server (an approval): decline, never hang
                    self._send({"jsonrpc": "2.0", "id": message["id"], "result": {"decision": "decline"}})
            return message

    def hooks(self, cwd: Path) -> list[dict]:
        result = self.request("hooks/list", {"cwds": [str(cwd)]})
        return [hook for entry in result.get("data", []) for hook in entry.get("hooks", [])]

    def close(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except OSError:
            pass
        self.proc.wait()

    def __enter__(self) -> "AppServer":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def trust_hooks(runner: CodexRunner) -> list[str]:
    """Record trust for every hook Codex lists as not trusted, in the format Codex itself persists
    (``[hooks.state."<key>"] trusted_hash``): what "Trust all and continue" does. Returns the keys."""
    with runner.app_server() as server:
        pending = [h for h in server.hooks(runner.cwd) if h.get("trustStatus") != "trusted"]
    runner.add_config("".join(f'[hooks.state."{h["key"]}"]\ntrusted_hash = "{h["currentHash"]}"\n' for h in pending))
    return [h["key"] for h in pending]
