"""SessionStart with the rehydration report, as Claude Code runs the hook, at scale.

The repository of ``bench_rehydrate.py`` (10,000 commits) with dashboards of 10
and 200 claims of every kind; the hook process is timed for ``startup`` and for
``resume`` (which also audits a captured compaction summary). Ratios, all
measured in the same run: to ``python -c pass`` (the floor of any Python hook),
to SessionStart on a one-commit repository without a record (the foundation
benchmark's hook), and 200 claims to 10 (batching keeps it near 1).

    python bench/bench_session_start.py [--commits N] [--runs N] [--smoke]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import PY, machine, table, time_command  # noqa: E402
from bench_hooks import make_repo  # noqa: E402
from bench_rehydrate import build_repo, dashboard  # noqa: E402

HOOK = [PY, "-m", "cc_hooks", "hook"]
SUMMARY = "<summary>\n- Fixed the parser in commit deadbee1.\n- Work is on branch `main`.\n- Tests pass.\n</summary>"


def payload(repo: Path, source: str) -> bytes:
    return json.dumps({"hook_event_name": "SessionStart", "session_id": "bench", "cwd": str(repo), "source": source}).encode()


def capture_summary(repo: Path, env: dict) -> None:
    """What PostCompact leaves on disk for the next resume to audit."""
    event = {"hook_event_name": "PostCompact", "session_id": "bench", "cwd": str(repo), "trigger": "manual", "compact_summary": SUMMARY}
    subprocess.run(HOOK, input=json.dumps(event).encode(), capture_output=True, cwd=repo, env=env, check=True)


def counts_line(repo: Path, source: str, env: dict) -> str:
    out = subprocess.run(HOOK, input=payload(repo, source), capture_output=True, cwd=repo, env=env, check=True).stdout
    return json.loads(out).get("systemMessage", "")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--smoke", action="store_true", help="tiny repository, two runs each (for CI)")
    args = parser.parse_args()
    commits, runs = (200, 2) if args.smoke else (args.commits, args.runs)
    with tempfile.TemporaryDirectory(prefix="cc-hooks-bench-") as tmp:
        env = {**os.environ, "XDG_CONFIG_HOME": str(Path(tmp) / "xdg")}
        repo = Path(tmp) / "repo"
        started = time.perf_counter()
        build_repo(repo, commits)
        built = time.perf_counter() - started
        capture_summary(repo, env)
        floor = time_command([PY, "-c", "pass"], runs)
        bare = make_repo(Path(tmp) / "bare")
        hook_floor = time_command(HOOK, runs, payload(bare, "startup"), cwd=str(bare), env=env)
        rows, timings = [], {}
        for claims in (10, 200):
            (repo / "next_steps.md").write_text(dashboard(repo, claims), encoding="utf-8")
            for source in ("startup", "resume"):
                seconds = time_command(HOOK, runs, payload(repo, source), cwd=str(repo), env=env)
                timings[claims, source] = seconds
                rows.append((f"{source}, {claims} claims", f"{seconds * 1000:.0f}", f"{seconds / floor:.1f}",
                             f"{seconds / hook_floor:.2f}", counts_line(repo, source, env)))
    print(f"Machine: {machine()}; {commits} commits (built in {built:.1f}s); median of {runs} runs after a warm-up\n")
    print(f"python -c pass: {floor * 1000:.0f} ms; SessionStart on a one-commit repo without a record: {hook_floor * 1000:.0f} ms\n")
    print(table(rows, ("SessionStart", "ms", "x python -c pass", "x foundation hook", "systemMessage")))
    worst = max(timings[200, s] / timings[10, s] for s in ("startup", "resume"))
    print(f"\nratio 200/10 claims: {worst:.2f} (worst of startup and resume)")
    if worst > (3.0 if args.smoke else 2.0):  # the smoke run is two samples on a tiny repository: noisy
        print("FAIL: the cost grows with the number of claims (batching broken?)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
