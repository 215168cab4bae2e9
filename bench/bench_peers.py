"""Peers on the same bytes: each installed from PyPI into its own venv under the bench cache.

- ``cchooks`` (hook SDK): a minimal SessionStart hook — parse stdin, emit context — the floor of a
  Python hook written with a peer SDK.
- ``claude-code-log``: ``claude_code_log.converter.load_transcript(path, silent=True)``, the call
  its ``convert`` command makes per JSONL file (read, parse every line into its pydantic models),
  with no cache manager; beside our reader (``cc_hooks.transcript.read_live``).
- ``cozempic``: ``cozempic diagnose <path>`` (read-only bloat analysis of one session); beside
  ``cc-hooks transcripts stats``. Its first run of any command wires 7 hooks into
  ``~/.claude/settings.json``, updates itself and sends telemetry unless told not to: every peer
  run here gets a throwaway HOME and ``COZEMPIC_NO_GLOBAL_INIT/NO_AUTO_INIT/NO_AUTO_UPDATE/NO_TELEMETRY``.

The venvs are never the project's. ``python bench/bench_peers.py [--smoke]`` runs only this part
(transcripts from ``bench/fixtures.py``); ``bench/run_all.py`` runs it with everything else.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fixtures  # noqa: E402

PINS = {"cchooks": "cchooks==0.1.5", "claude-code-log": "claude-code-log==1.7.0", "cozempic": "cozempic==1.8.39"}
QUIET = {"COZEMPIC_NO_GLOBAL_INIT": "1", "COZEMPIC_NO_AUTO_INIT": "1", "COZEMPIC_NO_AUTO_UPDATE": "1",
         "COZEMPIC_NO_TELEMETRY": "1"}
CCHOOKS_HOOK = '''\
from cchooks import create_context
from cchooks.contexts import SessionStartContext

context = create_context()
if isinstance(context, SessionStartContext):
    context.output.add_context("Project notes: see next_steps.md")
'''
LOAD = ("import sys; from pathlib import Path; from claude_code_log.converter import load_transcript; "
        "load_transcript(Path(sys.argv[1]), silent=True)")


class Peers:
    def __init__(self, install: bool = True):
        self.install = install
        self.root = fixtures.cache_root() / "venvs"
        self.status: dict[str, str] = {}

    def python(self, name: str) -> Path | str:
        """The venv's python, installing the pinned package first if allowed; else why not."""
        if name in self.status and not self.status[name].startswith("ok"):
            return self.status[name]
        venv = self.root / name
        py = venv / "bin" / "python"
        if not py.exists() or not (venv / ".installed").exists():
            if not self.install:
                self.status[name] = f"not installed (run without --smoke once to install {PINS[name]})"
                return self.status[name]
            try:
                subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True, capture_output=True)
                subprocess.run([str(py), "-m", "pip", "install", "-q", PINS[name]], check=True, capture_output=True,
                               timeout=600)
                (venv / ".installed").write_text(PINS[name] + "\n")
            except (subprocess.SubprocessError, OSError) as exc:
                detail = getattr(exc, "stderr", b"") or b""
                self.status[name] = f"could not install {PINS[name]}: {exc} {detail.decode(errors='replace')[-300:]}"
                return self.status[name]
        version = subprocess.run([str(py), "-m", "pip", "show", name], capture_output=True, text=True).stdout
        self.status[name] = "ok " + next((l.split()[1] for l in version.splitlines() if l.startswith("Version:")), "?")
        return py

    def quiet_env(self) -> dict[str, str]:
        return dict(QUIET)

    def cchooks_hook(self) -> list[str] | str:
        py = self.python("cchooks")
        if isinstance(py, str):
            return py
        script = self.root / "cchooks_session_start.py"
        script.write_text(CCHOOKS_HOOK, encoding="utf-8")
        return [str(py), str(script)]

    def transcript_commands(self, path: Path, mb: str, env: dict) -> list:
        from run_all import Cmd

        cmds = []
        py = self.python("claude-code-log")
        name = f"claude-code-log load_transcript, {mb}"
        cmds.append(Cmd(name, [], error=py) if isinstance(py, str) else
                    Cmd(name, [str(py), "-c", LOAD, str(path)], env=env, memory=True))
        py = self.python("cozempic")
        name = f"cozempic diagnose, {mb}"
        cmds.append(Cmd(name, [], error=py) if isinstance(py, str) else
                    Cmd(name, [str(py.parent / "cozempic"), "diagnose", str(path)], env=env, memory=True))
        return cmds

    def describe(self) -> str:
        return "; ".join(f"{PINS[n]}: {self.status.get(n, 'not used')}" for n in PINS)


def main() -> int:
    import os

    from run_all import FULL, MB, PY, SMOKE, Cmd, run_group
    from _timing import machine, table

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="tiny transcripts; peers only if already installed")
    args = parser.parse_args()
    size = SMOKE if args.smoke else FULL
    peers = Peers(install=not args.smoke)
    with tempfile.TemporaryDirectory(prefix="cc-hooks-bench-peers-") as tmp:
        env = {**os.environ, "HOME": tmp, **peers.quiet_env()}
        cmds = []
        for size_bytes, path in fixtures.transcripts(size.transcripts).items():
            mb = f"{path.stat().st_size / MB:.0f} MB"
            cmds.append(Cmd(f"our reader (read_live), {mb}", [PY, "-c", "import sys; from cc_hooks.transcript import "
                                                             "read_live; read_live(sys.argv[1])", str(path)], env=env))
            cmds.append(Cmd(f"cc-hooks transcripts stats, {mb}", [PY, "-m", "cc_hooks", "transcripts", "stats", "--json",
                                                                 str(path)], env=env))
            cmds += peers.transcript_commands(path, mb, env)
        run_group([c for c in cmds if not c.error], size.heavy_runs)
    print(f"\nMachine: {machine()}; {peers.describe()}\n")
    print(table([(c.name, f"{c.median * 1000:,.0f}" if c.median else f"n/a: {c.error}") for c in cmds], ("command", "ms")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
