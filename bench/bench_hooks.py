"""Hook start-up cost: SessionStart and UserPromptSubmit as Claude Code runs them.

Baselines measured in the same run: ``python -c pass`` (the floor of any Python
hook) and ``python -c "import pydantic, git"`` (the floor of a hook that
validates its input and touches git). Prints ratios; absolute times drift on
shared machines, ratios much less.

    python bench/bench_hooks.py [--runs N] [--smoke]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import PY, machine, table, time_command  # noqa: E402


def make_repo(root: Path) -> Path:
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    (root / "README.md").write_text("bench\n")
    subprocess.run(["git", "-C", str(root), "add", "."], check=True)
    subprocess.run(
        ["git", "-C", str(root), "-c", "user.name=b", "-c", "user.email=b@x", "commit", "-q", "-m", "init"], check=True
    )
    return root


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--smoke", action="store_true", help="a few runs, to keep the script from rotting")
    args = parser.parse_args()
    runs = 3 if args.smoke else args.runs
    with tempfile.TemporaryDirectory() as tmp:
        repo = make_repo(Path(tmp) / "repo")

        def payload(name: str, **fields) -> bytes:
            return json.dumps({"hook_event_name": name, "session_id": "bench", "cwd": str(repo), **fields}).encode()

        hook = [PY, "-m", "cc_hooks", "hook"]
        floor = time_command([PY, "-c", "pass"], runs)
        imports = time_command([PY, "-c", "import pydantic, git"], runs)
        prompt = time_command(hook, runs, payload("UserPromptSubmit", prompt="hi"), cwd=str(repo))
        start = time_command(hook, runs, payload("SessionStart", source="startup"), cwd=str(repo))
    rows = [
        ("python -c pass", f"{floor * 1000:.1f}", "1.00", "-"),
        ('python -c "import pydantic, git"', f"{imports * 1000:.1f}", f"{imports / floor:.2f}", "1.00"),
        ("UserPromptSubmit, nothing pending", f"{prompt * 1000:.1f}", f"{prompt / floor:.2f}", f"{prompt / imports:.2f}"),
        ("SessionStart (startup)", f"{start * 1000:.1f}", f"{start / floor:.2f}", f"{start / imports:.2f}"),
    ]
    print(f"Machine: {machine()}; median of {runs} runs after a warm-up\n")
    print(table(rows, ("command", "ms", "x python -c pass", "x import pydantic, git")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
