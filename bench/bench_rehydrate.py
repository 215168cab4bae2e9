"""Benchmark `cc-hooks rehydrate`: does verification cost grow with the number of claims?

Builds a repository with 10,000 commits (``git fast-import``, a few seconds),
plants dashboards of 10 and 200 claims of every kind, and times the full
``cc-hooks rehydrate`` process (median of several runs) next to the baseline
``python -c "import pydantic, git"`` measured in the same run. Batching means
the 200/10 ratio stays near 1.

    python bench/bench_rehydrate.py            # 10,000 commits
    python bench/bench_rehydrate.py --smoke    # tiny repo, for CI
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BASE_EPOCH = 1_764_000_000  # 2025-11-24; commits are ten minutes apart


def git(repo: Path, *args: str, input: bytes | None = None) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, input=input).stdout.decode()


def build_repo(repo: Path, commits: int) -> None:
    repo.mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    chunks = []
    for i in range(commits):
        when = BASE_EPOCH + i * 600
        body = f"line {i}\n".encode() * 3
        message = f"Change module {i % 97} step {i}\n".encode()
        chunks.append(
            b"commit refs/heads/main\n"
            + f"mark :{i + 1}\ncommitter Bench <bench@example.com> {when} +0000\n".encode()
            + f"data {len(message)}\n".encode()
            + message
            + (f"from :{i}\n".encode() if i else b"")
            + f"M 644 inline src/mod{i % 97}.py\ndata {len(body)}\n".encode()
            + body
            + b"\n"
        )
    git(repo, "fast-import", "--quiet", input=b"".join(chunks))
    git(repo, "checkout", "-q", "-f", "main")
    git(repo, "branch", "feature", "HEAD~50")
    (repo / "DECISIONS.md").write_text(
        "# Decision Ledger\n\n## 2099-01-01 — Token lifetime is 30 minutes\n**Decision**: 30 minutes.\n"
        "**Context**: x\n**Rejected alternatives**:\n- 1 hour — rejected because risk\n**Consequences**: y\n",
        encoding="utf-8",
    )


def dashboard(repo: Path, claims: int) -> str:
    shas = git(repo, "rev-list", "--max-count=5000", "HEAD").split()
    templates = [
        lambda i: f"Change landed in `{shas[(i * 37) % len(shas)][:8]}`.",
        lambda i: f"Branch `feature` at `{shas[50][:8]}`, not merged into `main`.",
        lambda i: f"Module code in `src/mod{i % 97}.py:2`.",
        lambda i: "Working tree clean.",
        lambda i: f"Awaiting the user's ruling on widget policy {i}.",
        lambda i: f"Staging runs v{i}. (probe: staging)",
        lambda i: f"Notes about item {i} with nothing to check.",
        lambda i: f"Missing commit `{'%07x' % (0xabc0000 + i)}` is claimed.",
    ]
    state = [f"- {templates[i % len(templates)](i)}" for i in range(claims * 3 // 4)]
    queued = [f"- 2025-12-01 — Refactor module {i % 97} helpers number {i}" for i in range(claims - len(state))]
    return "\n".join(
        ["# Next steps", "", "## CURRENT STATE — 2025-12-01", "Resume point: continue on `main`.", *state, "", "## QUEUED", *queued, ""]
    )


def timed(argv: list[str], repeats: int, env: dict) -> float:
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(argv, capture_output=True, env=env)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="tiny repository, two runs each (for CI)")
    parser.add_argument("--commits", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    commits, repeats = (200, 2) if args.smoke else (args.commits, args.repeats)
    with tempfile.TemporaryDirectory(prefix="cc-hooks-bench-") as tmp:
        repo = Path(tmp) / "repo"
        env = {**os.environ, "XDG_CONFIG_HOME": str(Path(tmp) / "xdg")}
        start = time.perf_counter()
        build_repo(repo, commits)
        print(f"repository: {commits} commits built in {time.perf_counter() - start:.1f}s")
        baseline = timed([sys.executable, "-c", "import pydantic, git"], repeats, env)
        print(f"baseline `python -c \"import pydantic, git\"`: {baseline * 1000:.0f} ms")
        results = {}
        for claims in (10, 200):
            (repo / "next_steps.md").write_text(dashboard(repo, claims), encoding="utf-8")
            argv = [sys.executable, "-m", "cc_hooks", "rehydrate", "--project", str(repo)]
            check = subprocess.run(argv, capture_output=True, text=True, env=env)
            if check.returncode not in (0, 1):
                print(check.stdout, check.stderr, file=sys.stderr)
                return 1
            results[claims] = timed(argv, repeats, env)
            print(f"rehydrate, {claims:>3} claims: {results[claims] * 1000:.0f} ms median  ({check.stderr.strip()})")
        ratio = results[200] / results[10]
        print(f"ratio 200/10 claims: {ratio:.2f}")
        print(f"ratio to the import baseline: {results[10] / baseline:.2f} (10 claims), {results[200] / baseline:.2f} (200 claims)")
        if ratio > (3.0 if args.smoke else 2.0):  # the smoke run is two samples on a tiny repo: noisy
            print("FAIL: the cost grows with the number of claims (batching broken?)", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
