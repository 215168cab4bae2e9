"""`cc-hooks guards prove` on a long history: its cost against the guard's own run time ×2.

A proof runs the guard twice (on HEAD, then with the fix reverted), so twice the
guard's run time is the floor; everything above it is the proof's overhead
(interpreter and imports, resolving the ledger, the throwaway worktree, the
reverse patch, clean-up). The repository is generated with ``git fast-import``:
``--commits`` commits touching ``--files`` files, the recorded fix in the middle
of the history, its test a plain pytest test. Both sides run with pytest plugin
autoloading off (this venv's hypothesis plugin costs more than the test).

    python bench/bench_guards.py [--commits 10000] [--files 500] [--runs 5] [--smoke]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import PY, machine, table, time_command  # noqa: E402

TEST_ID = "tests/test_add.py::test_add"


def _data(text: str) -> bytes:
    raw = text.encode()
    return b"data %d\n" % len(raw) + raw + b"\n"


def fast_import_stream(commits: int, files: int) -> bytes:
    """A linear history on main: one commit adds everything, one in the middle is the fix."""
    fix_at = commits // 2
    out = []
    for n in range(1, commits + 1):
        if n == 1:
            changes = {"pytest.ini": "[pytest]\n", "calc_add.py": "def add(a, b):\n    return a - b\n"}
            changes.update({f"files/f{i:04d}.txt": f"file {i}\n" for i in range(files)})
            message = "Start the calculator"
        elif n == fix_at:
            changes = {"calc_add.py": "def add(a, b):\n    return a + b\n",
                       "tests/test_add.py": "from calc_add import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"}
            message = "Fix add() subtracting\n\nSymptom: add(2, 3) returns -1"
        else:
            changes = {f"files/f{n % files:04d}.txt": f"file {n % files}, revision {n}\n"}
            message = f"Touch file {n % files}"
        out.append(b"commit refs/heads/main\n")
        out.append(b"committer Bench <bench@example.com> %d +0000\n" % (1_700_000_000 + n))
        out.append(_data(message))
        for path, text in changes.items():
            out.append(f"M 100644 inline {path}\n".encode() + _data(text))
        out.append(b"\n")
    return b"".join(out)


def make_repo(root: Path, commits: int, files: int) -> float:
    """The repository, checked out, with the fix recorded in SYMPTOMS.md; returns the generation time."""
    started = time.perf_counter()
    git = ["git", "-C", str(root)]
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    subprocess.run([*git, "fast-import", "--quiet"], input=fast_import_stream(commits, files), check=True)
    subprocess.run([*git, "reset", "-q", "--hard", "main"], check=True)
    fix = subprocess.run([*git, "log", "-1", "--format=%h", "--grep", "^Fix add"], capture_output=True, text=True,
                         check=True).stdout.strip()
    (root / "SYMPTOMS.md").write_text(
        "# Symptom Index\n\n## Symptom: add(2, 3) returns -1\n\n**Known causes**:\n\n"
        f"### Cause 1: add() subtracted — fixed in {fix}\n- **Mechanism**: wrong operator.\n"
        f"- **Discriminator**: add(2, 3).\n- **Fix**: use + ({fix}).\n- **Guard**: `{TEST_ID}`\n\n"
        "**Ruled out**:\n- none yet\n", encoding="utf-8")
    subprocess.run([*git, "add", "SYMPTOMS.md"], check=True)
    subprocess.run([*git, "-c", "user.name=b", "-c", "user.email=b@x", "commit", "-q", "-m", "Record the fix"], check=True)
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=10_000)
    parser.add_argument("--files", type=int, default=500)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--smoke", action="store_true", help="a small history and one run, to keep the script from rotting")
    args = parser.parse_args()
    commits, files, runs = (300, 50, 1) if args.smoke else (args.commits, args.files, args.runs)
    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "repo"
        generated = make_repo(repo, commits, files)
        guard = time_command([PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", TEST_ID], runs, cwd=str(repo), env=env)
        listing = time_command([PY, "-m", "cc_hooks", "guards", "list"], runs, cwd=str(repo), env=env)
        started = time.perf_counter()
        check = subprocess.run([PY, "-m", "cc_hooks", "guards", "prove", "--json"], cwd=str(repo), env=env,
                               capture_output=True, text=True)
        checked = time.perf_counter() - started
        if check.returncode != 0:
            raise SystemExit(f"guards prove did not prove the guard (exit {check.returncode}):\n{check.stdout}{check.stderr}")
        # --smoke: the checked run is the figure (a proof is the costliest command here; CI runs this script)
        prove = checked if args.smoke else time_command([PY, "-m", "cc_hooks", "guards", "prove"], runs, cwd=str(repo), env=env)
        worktrees = subprocess.run(["git", "-C", str(repo), "worktree", "list"], capture_output=True, text=True).stdout
        assert len(worktrees.splitlines()) == 1, worktrees
    floor = 2 * guard
    rows = [
        ("the guard alone (pytest one test)", f"{guard * 1000:.0f}", "-"),
        ("the guard ×2 (the floor of a proof)", f"{floor * 1000:.0f}", "1.00"),
        ("cc-hooks guards list (resolve only)", f"{listing * 1000:.0f}", f"{listing / floor:.2f}"),
        ("cc-hooks guards prove (one guard)", f"{prove * 1000:.0f}", f"{prove / floor:.2f}"),
    ]
    print(f"Machine: {machine()}")
    print(f"Repository: {commits} commits, {files + 4} files (generated with git fast-import in {generated:.1f}s); "
          + ("--smoke: one timed run each, figures meaningless\n" if args.smoke else f"median of {runs} run(s) after a warm-up\n"))
    print(table(rows, ("command", "ms", "x guard ×2")))
    print(f"\nproof overhead over the floor: {(prove - floor) * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
