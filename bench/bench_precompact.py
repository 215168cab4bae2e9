"""PreCompact wall time: the real ``python -m cc_hooks hook`` process on a PreCompact
payload, in a repository with 10,000 commits, with a 150 MB transcript (92% of it
before the last compact boundary) and with a 12 MB one that has the same live tail.

Both transcripts are built from real corpus lines (../shared/corpus/transcripts/
spotter-2.1.39): the dead part repeats a session's pre-boundary lines, the live
tail repeats its post-boundary lines (assistant message ids made unique per
repetition so the reader does not merge them). Ratios are measured in the same
run: 150 MB / 12 MB (target <= 1.3: the sweep must not grow with the dead part)
and PreCompact / ``python -c "import pydantic, git"`` (target <= 2).

    python bench/bench_precompact.py [--runs N] [--smoke]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import PY, machine, table, time_command  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / ".." / "shared" / "corpus" / "transcripts" / "spotter-2.1.39"
SESSION = "8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl"
MB = 1024 * 1024
RECORD_AT = 0.99  # the record files are added at 99% of the history: a late adopter, no checkpoint yet


def fast_import_repo(root: Path, commits: int) -> Path:
    """A repository with ``commits`` commits (200 files, one changed per commit), built by `git fast-import`,
    with a healthy record (the cc-hooks ledgers, questions and a dashboard dated at HEAD) added at 99%."""
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    record_at = int(commits * RECORD_AT)
    last_day = time.strftime("%Y-%m-%d", time.gmtime(_when(commits)))
    _import(root, range(1, record_at), record_at)
    fix = subprocess.run(["git", "-C", str(root), "rev-parse", "main"], capture_output=True, text=True, check=True).stdout.strip()
    _import(root, range(record_at, commits + 1), record_at, record_files(fix[:10], last_day), continues=True)
    subprocess.run(["git", "-C", str(root), "checkout", "-q", "-f", "main"], check=True)
    return root


def _when(n: int) -> int:
    return 1_700_000_000 + n * 600  # 2023-11 onwards, all before the transcript's session


def _import(root: Path, numbers: range, record_at: int, record: dict | None = None, continues: bool = False) -> None:
    chunks = []
    for n in numbers:
        fix = n % 7 == 0
        subject = f"fix: handle case {n}" if fix else f"Change module {n % 200}"
        trailer = f"\n\nSymptom: case {n} crashed" if fix and n >= record_at else ""
        message = (subject + trailer).encode()
        body = f"# module {n % 200}\nVALUE = {n}\n".encode()
        chunks.append(b"commit refs/heads/main\nmark :%d\n" % n)
        chunks.append(b"committer Bench <bench@example.com> %d +0000\n" % _when(n))
        chunks.append(b"data %d\n%s\n" % (len(message), message))
        if n > numbers.start:
            chunks.append(b"from :%d\n" % (n - 1))
        elif continues:
            chunks.append(b"from refs/heads/main^0\n")
        chunks.append(b"M 100644 inline src/mod_%03d.py\ndata %d\n%s\n" % (n % 200, len(body), body))
        if record and n == numbers.start:
            for name, text in record.items():
                data = text.encode()
                chunks.append(b"M 100644 inline %s\ndata %d\n%s\n" % (name.encode(), len(data), data))
    subprocess.run(["git", "-C", str(root), "fast-import", "--quiet"], input=b"".join(chunks), check=True)


def record_files(fix: str, day: str) -> dict[str, str]:
    return {
        "SYMPTOMS.md": "# Symptom Index\n\nAppend-only. Keyed by observable.\n\n---\n\n## Symptom: case 7 crashed\n\n"
                       f"**Known causes**:\n\n### Cause 1: an off-by-one in the case table — fixed in {fix}\n"
                       "- **Mechanism**: `src/mod_007.py` indexed past the end.\n- **Discriminator**: only the last case crashes.\n"
                       f"- **Fix**: bound the index ({fix})\n- **Guard**: tests/test_mod.py::test_last_case\n",
        "DECISIONS.md": f"# Decision Ledger\n\nAppend-only, dated.\n\n---\n\n## {day} — Keep modules flat\n\n"
                        "**Decision**: one file per module.\n**Context**: the bench repository.\n"
                        "**Rejected alternatives**:\n- packages — rejected because nothing imports across modules\n"
                        "**Consequences**: 200 files in src/.\n",
        "COLDSTART_QUESTIONS.md": "# Cold-start questions\n\n- Where is module 1? → src/mod_001.py\n- Why flat? → DECISIONS.md\n",
        "next_steps.md": f"# Next steps\n\n## CURRENT STATE — {day}\nResume point: module 200.\n- Case 7 fixed in `{fix}`.\n\n"
                         f"## QUEUED\n- {day} — Add module 201.\n",
        "CLAUDE.md": "# Notes\n\nDashboard: file next_steps.md\n",
        "tests/test_mod.py": "def test_last_case():\n    assert True\n",
    }


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def split_at_boundary(path: Path) -> tuple[list[bytes], list[bytes]]:
    """(lines before the last boundary, the boundary and every line after it)."""
    lines = path.read_bytes().splitlines(keepends=True)
    last = max(i for i, line in enumerate(lines) if b'"compact_boundary"' in line)
    return lines[:last], lines[last:]


def build_transcript(path: Path, dead_bytes: int, live_bytes: int, source: Path) -> int:
    dead, tail = split_at_boundary(source)
    boundary, live = tail[:2], tail[2:]  # the boundary and its summary line, then the live lines
    with open(path, "wb") as out:
        written = 0
        while written < dead_bytes:
            for line in dead:
                out.write(line)
                written += len(line)
                if written >= dead_bytes:
                    break
        out.writelines(boundary)
        rep, live_written = 0, 0
        while live_written < live_bytes:
            rep += 1
            chunk = b"".join(live).replace(b'"msg_', b'"msg_r%d_' % rep)
            out.write(chunk)
            live_written += len(chunk)
    return path.stat().st_size


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--smoke", action="store_true", help="small sizes and one run, to keep the script from rotting")
    args = parser.parse_args()
    source = CORPUS / SESSION
    if not source.is_file():
        print(f"../shared/corpus not present: {source}", file=sys.stderr)
        return 0 if args.smoke else 1
    runs = 1 if args.smoke else args.runs
    commits = 500 if args.smoke else 10_000
    big_mb, typical_mb = (4, 0.2) if args.smoke else (150, 1)
    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        repo = fast_import_repo(base / "repo", commits)
        big = build_transcript(base / "big.jsonl", int(big_mb * MB * 0.92), int(big_mb * MB * 0.08), source)
        small = build_transcript(base / "small.jsonl", 0, int(big_mb * MB * 0.08), source)
        typical = build_transcript(base / "typical.jsonl", int(big_mb * MB * 0.08), int(typical_mb * MB), source)
        env = {**os.environ, "CC_HOOKS_LOG": os.environ.get("CC_HOOKS_LOG", "")}

        def payload(transcript: Path, session: str) -> bytes:
            return json.dumps({"hook_event_name": "PreCompact", "session_id": session, "cwd": str(repo),
                               "transcript_path": str(transcript), "trigger": "auto", "custom_instructions": None}).encode()

        hook = [PY, "-m", "cc_hooks", "hook"]
        commands = {
            "imports": ([PY, "-c", "import pydantic, git"], b""),
            "small": (hook, payload(base / "small.jsonl", "bench-small")),
            "big": (hook, payload(base / "big.jsonl", "bench-big")),
            "typical": (hook, payload(base / "typical.jsonl", "bench-typical")),
        }
        # Round-robin (each sample after its own warm-up) so a noisy neighbour slows all three alike.
        # CPU time (the process and its git children) is reported too: on a loaded machine it holds still.
        samples: dict[str, list[float]] = {name: [] for name in commands}
        cpu: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(runs):
            for name, (argv, stdin) in commands.items():
                before = children_cpu()
                samples[name].append(time_command(argv, 1, stdin, cwd=str(repo), env=env))
                cpu[name].append((children_cpu() - before) / 2)  # the warm-up and the timed run
        imports, t_small, t_big, t_typical = (statistics.median(samples[n]) for n in ("imports", "small", "big", "typical"))
        c_imports, c_small, c_big, c_typical = (statistics.median(cpu[n]) for n in ("imports", "small", "big", "typical"))
        check = subprocess.run([PY, "-m", "cc_hooks", "hook"], cwd=str(repo), capture_output=True, input=json.dumps(
            {"hook_event_name": "PreCompact", "session_id": "bench-out", "cwd": str(repo),
             "transcript_path": str(base / "big.jsonl"), "trigger": "auto"}).encode())
    first_line = check.stdout.decode(errors="replace").splitlines()[:1]
    def row(label: str, wall: float, cpu_s: float, commits_text: str) -> tuple[str, ...]:
        return (label, commits_text, f"{wall * 1000:.0f}", f"{wall / imports:.2f}", f"{cpu_s * 1000:.0f}", f"{cpu_s / c_imports:.2f}")

    rows = [
        row('python -c "import pydantic, git"', imports, c_imports, "-"),
        row(f"PreCompact, {small / MB:.1f} MB transcript (live tail only)", t_small, c_small, f"{commits:,}"),
        row(f"PreCompact, {big / MB:.1f} MB transcript (92% dead)", t_big, c_big, f"{commits:,}"),
        row(f"PreCompact, {typical / MB:.1f} MB transcript, {typical_mb:g} MB live (a context window)", t_typical, c_typical,
            f"{commits:,}"),
    ]
    print(f"Machine: {machine()}; median of {runs} interleaved runs, each after a warm-up\n")
    print(f"Load average before / after: {load[0]:.1f} / {os.getloadavg()[0]:.1f}\n")
    print(table(rows, ("command", "commits", "wall ms", "x import (wall)", "CPU ms", "x import (CPU)")))
    print(f"\n{big / MB:.0f} MB / {small / MB:.0f} MB: {t_big / t_small:.2f} wall, {c_big / c_small:.2f} CPU (target <= 1.3); "
          f"PreCompact / import pydantic, git: {t_big / imports:.2f} wall, {c_big / c_imports:.2f} CPU (target <= 2)")
    print(f"hook output: {first_line[0] if first_line else check.stderr.decode(errors='replace')[-300:]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
