"""Run the real, pinned Claude Code CLI offline against ``FakeAnthropic``.

- ``ensure_cli(version)`` installs ``@anthropic-ai/claude-code@<version>`` once into
  ``$CC_HOOKS_E2E_CACHE/cli-<version>`` (default ``~/.cache/cc-hooks-e2e``) under a file lock.
- ``ClaudeRunner`` runs it with a temporary HOME (never the user's ``~/.claude``), a clean
  environment pointing at the fake, and a PATH like a user's: ``~/.local/bin`` (where tests link
  ``cc-hooks``, as pipx would), then the directories of git and node, then the system dirs.
- ``RunResult`` / ``Transcript`` read what the run left: exit code, output, session id and the
  session's JSONL transcript under the temp HOME.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Optional, Sequence

from .fakeapi import FakeAnthropic

DEFAULT_VERSIONS = "2.1.197,2.1.332"
PACKAGE = "@anthropic-ai/claude-code"
INSTALL_TIMEOUT = 1200  # seconds; the native binaries are 250-400 MB
RUN_TIMEOUT = 60.0
SYSTEM_PATH = ("/usr/local/bin", "/usr/bin", "/bin")
AUTO_COMPACT_WINDOW = "100000"  # the smallest window CLI 2.1.197 accepts (platform doc §9)


class PrerequisiteMissing(Exception):
    """node/npm or the pinned CLI is unavailable; the message says what to do."""


class ClaudeTimeout(AssertionError):
    pass


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def cache_root() -> Path:
    return Path(os.environ.get("CC_HOOKS_E2E_CACHE") or Path.home() / ".cache" / "cc-hooks-e2e")


def cli_versions() -> list[str]:
    raw = os.environ.get("CC_HOOKS_E2E_CLI_VERSIONS") or DEFAULT_VERSIONS
    return [v.strip() for v in raw.split(",") if v.strip()]


def cli_path(version: str, cache: Optional[Path] = None) -> Path:
    return (cache or cache_root()) / f"cli-{version}" / "node_modules" / ".bin" / "claude"


def installed_version(binary: Path) -> Optional[str]:
    if not binary.exists():
        return None
    try:
        out = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return out.split()[0] if out.split() else None


def ensure_cli(version: str, cache: Optional[Path] = None) -> Path:
    """The path of the pinned CLI binary, installing it first if needed (once, under a lock)."""
    cache = cache or cache_root()
    return npm_install("Claude Code CLI", PACKAGE, version, cli_path(version, cache), cache / f"cli-{version}.lock",
                       installed_version)


def npm_install(label: str, package: str, version: str, binary: Path, lock_path: Path, version_of) -> Path:
    """``binary`` of ``package@version`` in its own npm prefix (``binary.parents[2]``), installed once
    under ``lock_path`` (a parallel run may be installing the same version); ``version_of(binary)``
    says which version is there."""
    if version_of(binary) == version:
        return binary
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        raise PrerequisiteMissing(
            f"{label} {version} is not in {lock_path.parent} and node/npm are not on PATH "
            "(install Node.js >= 18 with npm to run the end-to-end tests)"
        )
    prefix = binary.parents[2]
    prefix.mkdir(parents=True, exist_ok=True)
    with open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if version_of(binary) != version:
            with open(prefix / "install.log", "a") as log:
                proc = subprocess.run(
                    [npm, "install", "--no-audit", "--no-fund", "--prefix", str(prefix), f"{package}@{version}"],
                    stdout=log, stderr=subprocess.STDOUT, timeout=INSTALL_TIMEOUT,
                )
            if proc.returncode != 0 or version_of(binary) != version:
                raise PrerequisiteMissing(
                    f"npm install {package}@{version} into {prefix} failed (exit {proc.returncode}); "
                    f"see {prefix / 'install.log'}"
                )
    return binary


def escape_project_dir(cwd: Path) -> str:
    """``~/.claude/projects/<this>/``: every non-alphanumeric character of the cwd becomes ``-``."""
    # Paths over 200 characters get a hash suffix instead; ``transcript_path`` falls back to a glob.
    return re.sub(r"[^A-Za-z0-9]", "-", str(cwd))


# --- transcripts --------------------------------------------------------------------------------


class Transcript:
    """The parsed lines of one session's JSONL (a trailing partial line is ignored)."""

    def __init__(self, path: Optional[Path]):
        self.path = path
        self.lines: list[dict] = []
        if path is not None and path.exists():
            for raw in path.read_text(encoding="utf-8").splitlines():
                try:
                    self.lines.append(json.loads(raw))
                except ValueError:
                    continue

    def attachments(self, type: Optional[str] = None, hook_event: Optional[str] = None,
                    hook_name: Optional[str] = None) -> list[dict]:
        """``attachment`` payloads, e.g. ``type="hook_success", hook_name="SessionStart:compact"``."""
        found = []
        for line in self.lines:
            att = line.get("attachment") if line.get("type") == "attachment" else None
            if not isinstance(att, dict):
                continue
            if type is not None and att.get("type") != type:
                continue
            if hook_event is not None and att.get("hookEvent") != hook_event:
                continue
            if hook_name is not None and att.get("hookName") != hook_name:
                continue
            found.append(att)
        return found

    def hook_successes(self, hook_name: str) -> list[dict]:
        return self.attachments("hook_success", hook_name=hook_name)

    def additional_context(self, hook_event: str = "SessionStart") -> list[str]:
        texts: list[str] = []
        for att in self.attachments("hook_additional_context", hook_event=hook_event):
            content = att.get("content")
            texts.extend(content if isinstance(content, list) else [str(content)])
        return texts

    def system_messages(self) -> list[dict]:
        return self.attachments("hook_system_message")

    def command_outputs(self) -> list[str]:
        """Texts of ``<local-command-stdout>`` user lines (e.g. what ``/compact`` showed the user)."""
        return [t for t in self.user_texts() if t.startswith("<local-command-stdout>")]

    def hook_outcomes(self, event: str) -> list[str]:
        """``completed successfully`` / ``failed`` per "<event> [<command>] ..." display line.

        PreCompact and PostCompact leave no ``hook_success`` attachment; the CLI shows their
        outcome in the ``/compact`` command output instead.
        """
        pattern = re.compile(rf"^{re.escape(event)} \[.*?\] (completed successfully|failed)", re.M | re.S)
        return [m.group(1) for text in self.command_outputs() for m in pattern.finditer(text)]

    def boundaries(self) -> list[dict]:
        return [l for l in self.lines if l.get("type") == "system" and l.get("subtype") == "compact_boundary"]

    def compact_summaries(self) -> list[dict]:
        return [l for l in self.lines if l.get("type") == "user" and l.get("isCompactSummary")]

    def user_texts(self) -> list[str]:
        texts = []
        for line in self.lines:
            if line.get("type") == "user":
                content = line.get("message", {}).get("content")
                texts.append(content if isinstance(content, str) else json.dumps(content))
        return texts

    def contains(self, needle: str) -> bool:
        return any(needle in json.dumps(line) for line in self.lines)


# --- running the CLI ----------------------------------------------------------------------------


@dataclass
class RunResult:
    argv: list[str]
    returncode: int
    stdout: str
    stderr: str
    duration: float
    transcript_path: Optional[Path]
    output: Optional[dict] = None  # the ``--output-format json`` result object

    @property
    def session_id(self) -> Optional[str]:
        return (self.output or {}).get("session_id")

    @property
    def result_text(self) -> str:
        return str((self.output or {}).get("result", ""))

    def transcript(self) -> Transcript:
        return Transcript(self.transcript_path)

    def describe(self) -> str:
        return f"argv={self.argv}\nexit={self.returncode}\nstdout={self.stdout[-2000:]}\nstderr={self.stderr[-2000:]}"


@dataclass
class ClaudeRunner:
    """Runs ``claude -p`` in ``cwd`` with ``home`` as HOME, against ``fake``."""

    cli: Path
    fake: FakeAnthropic
    home: Path
    cwd: Path
    timeout: float = RUN_TIMEOUT
    extra_env: dict[str, str] = field(default_factory=dict)
    runs: list[RunResult] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.home.mkdir(parents=True, exist_ok=True)
        self.bin_dir.mkdir(parents=True, exist_ok=True)

    @property
    def version(self) -> str:
        return self.cli.parents[2].name.removeprefix("cli-")

    @property
    def bin_dir(self) -> Path:
        """``~/.local/bin`` of the temp HOME: first on PATH, where pipx would put ``cc-hooks``."""
        return self.home / ".local" / "bin"

    @property
    def projects_dir(self) -> Path:
        return self.home / ".claude" / "projects" / escape_project_dir(self.cwd)

    def link_on_path(self, executable: Path, name: Optional[str] = None) -> Path:
        link = self.bin_dir / (name or executable.name)
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(executable)
        return link

    def env(self) -> dict[str, str]:
        tool_dirs = [str(Path(p).parent) for p in (shutil.which("git"), shutil.which("node")) if p]
        path = [str(self.bin_dir), *tool_dirs, *SYSTEM_PATH]
        env = {
            "HOME": str(self.home),
            "PATH": os.pathsep.join(dict.fromkeys(path)),
            "LANG": "C.UTF-8",
            "TERM": "dumb",
            "TMPDIR": os.environ.get("TMPDIR", "/tmp"),
            "ANTHROPIC_BASE_URL": self.fake.base_url,
            "ANTHROPIC_API_KEY": "sk-ant-test",
            "DISABLE_TELEMETRY": "1",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_AUTOUPDATER": "1",
        }
        env.update(self.extra_env)
        return env

    def transcript_path(self, session_id: str) -> Path:
        expected = self.projects_dir / f"{session_id}.jsonl"
        if expected.exists():
            return expected
        found = sorted((self.home / ".claude" / "projects").glob(f"*/{session_id}.jsonl"))
        return found[0] if found else expected

    def transcript(self, session_id: str) -> Transcript:
        return Transcript(self.transcript_path(session_id))

    def run(
        self,
        prompt: str,
        *,
        resume: Optional[str] = None,
        allowed_tools: Sequence[str] = (),
        extra_args: Sequence[str] = (),
        timeout: Optional[float] = None,
        env: Optional[dict[str, str]] = None,
        check: bool = True,
    ) -> RunResult:
        """``claude -p [--resume sid] [--allowedTools ...] -- <prompt>``; ``check`` asserts exit 0."""
        argv = [str(self.cli), "-p", "--output-format", "json"]
        if resume:
            argv += ["--resume", resume]
        if allowed_tools:
            argv += ["--allowedTools", *allowed_tools]
        argv += [*extra_args, "--", prompt]
        result = self._execute(argv, {**self.env(), **(env or {})}, timeout or self.timeout)
        self.runs.append(result)
        if check:
            assert result.returncode == 0, f"claude exited {result.returncode}\n{result.describe()}"
        return result

    def _execute(self, argv: list[str], env: dict[str, str], timeout: float) -> RunResult:
        started = time.monotonic()
        proc = subprocess.Popen(argv, cwd=self.cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
        try:
            stdout, stderr = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)  # the CLI and any hook it spawned
            stdout, stderr = proc.communicate()
            raise ClaudeTimeout(f"claude did not finish within {timeout}s\nargv={argv}\nstdout={stdout[-2000:]}\n"
                                f"stderr={stderr[-2000:]}")
        output = _parse_output(stdout)
        sid = (output or {}).get("session_id")
        return RunResult(argv, proc.returncode, stdout, stderr, time.monotonic() - started,
                         self.transcript_path(sid) if sid else None, output)

    # conveniences for multi-turn scripts

    def session(self, prompts: Iterable[str], **kwargs: Any) -> str:
        """Run ``prompts`` as one session (the first starts it, the rest resume it); the session id."""
        sid: Optional[str] = None
        for prompt in prompts:
            result = self.run(prompt, resume=sid, **kwargs)
            sid = sid or result.session_id
            assert sid, f"no session id in the output\n{result.describe()}"
        assert sid is not None
        return sid

    def compact(self, session_id: str, instructions: str = "", **kwargs: Any) -> RunResult:
        """Manual compaction: ``claude -p --resume <sid> "/compact <instructions>"``."""
        return self.run(f"/compact {instructions}".strip(), resume=session_id, **kwargs)

    def enable_auto_compaction(self) -> None:
        """Make auto compaction reachable offline: realistic token counts and a small window.

        Then resume the session with big prompts (``big_prompt()``) until
        ``transcript(sid).boundaries()`` shows an ``auto`` boundary (a few turns).
        """
        self.fake.realistic_usage()
        self.extra_env["CLAUDE_CODE_AUTO_COMPACT_WINDOW"] = AUTO_COMPACT_WINDOW

    def drive_auto_compaction(self, session_id: Optional[str] = None, max_turns: int = 8) -> str:
        """Send big prompts (resuming ``session_id``, or a new session) until an ``auto`` boundary.

        Each turn takes one scripted reply ("noted <n>"); the summary comes from ``fake.summary_text``.
        Returns the session id; asserts that a boundary appeared within ``max_turns``.
        """
        self.enable_auto_compaction()
        sid, before = session_id, (len(self.transcript(session_id).boundaries()) if session_id else 0)
        for n in range(max_turns):
            self.fake.queue_text(f"noted {n}")
            sid = self.run(big_prompt(f"turn {n}"), resume=sid).session_id
            assert sid
            if len(self.transcript(sid).boundaries()) > before:
                return sid
        raise AssertionError(f"no auto compaction after {max_turns} big turns (session {sid})")

    def settings_path(self, scope: str = "project") -> Path:
        if scope == "user":
            return self.home / ".claude" / "settings.json"
        return self.cwd / ".claude" / ("settings.local.json" if scope == "local" else "settings.json")

    def write_settings(self, settings: dict, scope: str = "project") -> Path:
        path = self.settings_path(scope)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(settings, indent=2), encoding="utf-8")
        return path


def big_prompt(tag: str, chars: int = 65_000) -> str:
    """A prompt of about ``chars`` characters (about chars/4 tokens) for driving auto compaction."""
    filler = f"{tag}: filler line to grow the context towards the auto-compaction threshold.\n"
    return (filler * (chars // len(filler) + 1))[:chars]


def _parse_output(stdout: str) -> Optional[dict]:
    for line in reversed(stdout.strip().splitlines()):
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        if isinstance(obj, dict):
            return obj
    return None
