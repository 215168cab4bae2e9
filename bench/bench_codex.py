"""Hook latency on Codex payloads, against the same floors as the rest of bench/.

The package is built and installed as users run it (``installed.install``: a wheel in a fresh venv),
each hook runs through the exact command ``cc-hooks install --harness codex`` wires (``sh -c``, the
project's ``.venv`` found from the working directory), with payloads and a rollout in the shape
Codex 0.171.0 sends and writes. Floors, measured in the same interleaved run: ``python -c pass`` of
a bare venv and ``python -c "import pydantic, git"`` of a venv with only those (``installed.bare``,
``installed.deps``). The same events through Claude Code's wired command are measured beside them,
so the ratio Codex / Claude Code says what the harness layer costs. The prompt hook runs for a
session other than the one PostCompact queues audits for: "nothing pending" is its common case. Prints a table; it does not
write docs/benchmarks.md.

    python bench/bench_codex.py [--runs N] [--smoke]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))
import installed  # noqa: E402
from _timing import machine, table  # noqa: E402

SESSION = "01a23189-94b4-7c42-aa55-27c3556c08e0"


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), "-c", "user.name=Bench", "-c", "user.email=b@example.com", *args],
                   check=True, capture_output=True)


def make_repo(root: Path, venv: Path) -> Path:
    repo = root / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "Initial commit")
    (repo / ".venv").symlink_to(venv)
    with open(repo / ".git" / "info" / "exclude", "a", encoding="utf-8") as handle:
        handle.write("/.venv\n")
    subprocess.run([str(venv / "bin" / "cc-hooks"), "init", "--project", str(repo)], check=True, capture_output=True)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "Adopt cc-hooks")
    return repo


def make_rollout(codex_home: Path, repo: Path) -> Path:
    from harness.rollout import Rollout, rollout_path

    r = Rollout(rollout_path(codex_home, SESSION), repo, SESSION)
    for n in range(20):
        r.prompt(f"step {n}")
        r.command("python3 -c 'import calc'", "", exit_code=n % 2)
    r.compacted("Fixed add() in calc.py; the tests pass on branch `main`.")
    r.prompt("go on")
    return r.save()


def sample(argv, stdin: bytes, cwd: Path, env: dict) -> float:
    started = time.perf_counter()
    proc = subprocess.run(argv, input=stdin, capture_output=True, cwd=cwd, env=env)
    elapsed = time.perf_counter() - started
    if proc.returncode != 0:
        raise RuntimeError(f"{argv[:3]} exited {proc.returncode}: {proc.stderr[-500:]!r}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--smoke", action="store_true", help="a few runs, to keep the script from rotting")
    args = parser.parse_args()
    runs = 2 if args.smoke else args.runs
    cache = installed.venv_root()
    venv, bare, deps = installed.install(cache), installed.bare(cache), installed.deps(cache)
    from cc_hooks import settings
    from cc_hooks.harness import codex_hooks

    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        repo = make_repo(base, venv)
        rollout = make_rollout(base / "codex-home", repo)
        env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "CLAUDE_PROJECT_DIR")}
        env.update(HOME=str(base / "home"), CODEX_HOME=str(base / "codex-home"))
        codex_cmd = codex_hooks.hook_command("project")
        claude_cmd = settings.hook_command("project")
        claude_env = {**env, "CLAUDE_PROJECT_DIR": str(repo)}

        def codex(event, command=codex_cmd, session=SESSION, **fields):
            data = {"session_id": session, "transcript_path": str(rollout), "cwd": str(repo), "hook_event_name": event,
                    "model": "gpt-5.5", **fields}
            return ["sh", "-c", command], json.dumps(data).encode(), env

        def claude(event, command=claude_cmd, **fields):
            data = {"session_id": "bench-claude", "transcript_path": str(base / "none.jsonl"), "cwd": str(repo),
                    "hook_event_name": event, **fields}
            return ["sh", "-c", command], json.dumps(data).encode(), claude_env

        cases = {
            "python -c pass (bare venv)": ([str(bare / "bin" / "python"), "-c", "pass"], b"", env),
            'python -c "import pydantic, git"': ([str(deps / "bin" / "python"), "-c", "import pydantic, git"], b"", env),
            "Codex UserPromptSubmit, nothing pending": codex("UserPromptSubmit", codex_hooks.prompt_command(codex_cmd),
                                                             session="bench-prompt", turn_id="t1", prompt="hi"),
            "Claude Code UserPromptSubmit, nothing pending": claude("UserPromptSubmit", settings.prompt_command(claude_cmd), prompt="hi"),
            "Codex SessionStart (startup)": codex("SessionStart", source="startup"),
            "Claude Code SessionStart (startup)": claude("SessionStart", source="startup"),
            "Codex PreCompact (auto)": codex("PreCompact", turn_id="t1", trigger="auto"),
            "Codex PostCompact (summary from the rollout)": codex("PostCompact", turn_id="t1", trigger="auto"),
        }
        for argv, stdin, case_env in cases.values():  # warm-up: page cache, .pyc, memo
            sample(argv, stdin, repo, case_env)
        times: dict = {name: [] for name in cases}
        for _ in range(runs):  # interleaved: a noisy neighbour slows every case alike
            for name, (argv, stdin, case_env) in cases.items():
                times[name].append(sample(argv, stdin, repo, case_env))
    median = {name: statistics.median(values) for name, values in times.items()}
    floor, imports = median["python -c pass (bare venv)"], median['python -c "import pydantic, git"']
    rows = [(name, f"{value * 1000:.1f}", f"{value / floor:.2f}", f"{value / imports:.2f}") for name, value in median.items()]
    print(f"Machine: {machine()}; median of {runs} interleaved runs after a warm-up\n")
    print(table(rows, ("command", "ms", "x python -c pass", "x import pydantic, git")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
