"""Every benchmark in one run: hook latency, CLI verbs, transcript work beside peers, growth, memory.

Builds (or reuses, from the cache) the seeded scale fixtures of ``bench/fixtures.py``, times every
command as a subprocess (median of several interleaved runs, each command warmed up first, so a
noisy neighbour slows every command of a group alike), measures each hook's peak memory, checks
the targets of issue 8 as ratios measured in this same run, prints the tables and writes
``docs/benchmarks.md``.

    python bench/run_all.py                 # full size (~15 min); writes docs/benchmarks.md
    python bench/run_all.py --smoke         # tiny fixtures, peers only if already installed (CI)
    python bench/run_all.py --smoke --out /tmp/b.md
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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fixtures  # noqa: E402
from _timing import PY, machine, table  # noqa: E402
from bench_peers import Peers  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
MB = fixtures.MB
HOOK = [PY, "-m", "cc_hooks", "hook"]
CLI = [PY, "-m", "cc_hooks"]
TIME_BIN = shutil.which("time", path="/usr/bin:/bin")


@dataclass
class Size:
    commits: tuple[int, int]
    claims: tuple[int, int]
    transcripts: tuple[int, int]
    runs: int
    heavy_runs: int
    ledgers: dict = field(default_factory=dict)
    warm: bool = True


FULL = Size((10_000, 50_000), (10, 200), (12 * MB, 150 * MB), runs=7, heavy_runs=3)
SMOKE = Size((300, 600), (10, 200), (1 * MB, 3 * MB), runs=1, heavy_runs=1,
             ledgers={"files": 40, "symptoms": 40, "decisions": 20, "questions": 30}, warm=False)


@dataclass
class Cmd:
    name: str
    argv: list[str]
    stdin: bytes = b""
    cwd: Optional[str] = None
    env: Optional[dict] = None
    prepare: Optional[Callable[[], None]] = None  # before every sample, untimed
    memory: bool = False  # also measure peak RSS (one extra run)
    samples: list[float] = field(default_factory=list)
    peak_mb: Optional[float] = None
    error: Optional[str] = None

    @property
    def median(self) -> Optional[float]:
        return statistics.median(self.samples) if self.samples else None

    def once(self) -> float:
        if self.prepare:
            self.prepare()
        started = time.perf_counter()
        proc = subprocess.run(self.argv, input=self.stdin, capture_output=True, cwd=self.cwd, env=self.env)
        elapsed = time.perf_counter() - started
        if proc.returncode not in (0, 1, 2):
            raise RuntimeError(f"{self.name}: exit {proc.returncode}: {proc.stderr.decode(errors='replace')[-400:]}")
        return elapsed

    def measure_peak(self) -> None:
        if not TIME_BIN:
            return
        if self.prepare:
            self.prepare()
        proc = subprocess.run([TIME_BIN, "-f", "MAXRSS %M", *self.argv], input=self.stdin, capture_output=True,
                              cwd=self.cwd, env=self.env)
        line = [l for l in proc.stderr.decode(errors="replace").splitlines() if l.startswith("MAXRSS ")]
        self.peak_mb = int(line[-1].split()[1]) / 1024 if line else None


def run_group(cmds: list[Cmd], runs: int, log=print, warm: bool = True) -> None:
    """One warm-up each, then ``runs`` rounds over the group (interleaved). Without ``warm`` (smoke):
    the first run counts and no memory run, so each command runs once."""
    live = []
    for cmd in cmds:
        try:
            sample = cmd.once()
            live.append(cmd)
            if not warm:
                cmd.samples.append(sample)
                cmd.memory = False
        except Exception as exc:  # noqa: BLE001 - recorded and reported in the table
            cmd.error = str(exc)[:300]
            log(f"  {cmd.name}: {cmd.error}")
    for _ in range(runs if warm else 0):
        for cmd in live:
            cmd.samples.append(cmd.once())
    for cmd in live:
        if cmd.memory:
            cmd.measure_peak()
        log(f"  {cmd.name}: {cmd.median * 1000:.0f} ms" + (f", peak {cmd.peak_mb:.0f} MB" if cmd.peak_mb else ""))


def payload(event: str, session: str, cwd: Path, **fields) -> bytes:
    return json.dumps({"hook_event_name": event, "session_id": session, "cwd": str(cwd), **fields}).encode()


def summary_text(repo: Path) -> str:
    """A compaction summary that restates the dashboard's claims (what the PostCompact audit checks)."""
    body = (repo / "next_steps.md").read_text(encoding="utf-8")
    return ("<analysis>The user asked to continue the refactor.</analysis>\n<summary>\n1. Primary Request: "
            "continue the refactor.\n2. Current state:\n" + body + "\n</summary>\n")


def build_all(size: Size, work: Path, env: dict, log=print) -> dict:
    started = time.perf_counter()
    repos = {}
    for commits in size.commits:
        for claims in size.claims:
            pristine = fixtures.scale_repo(commits, claims, **size.ledgers)
            repos[commits, claims] = fixtures.work_copy(pristine, work / f"repo-{commits}-{claims}")
    small, large = size.transcripts
    paths = fixtures.transcripts(size.transcripts)
    log(f"fixtures ready in {time.perf_counter() - started:.1f}s (cache: {fixtures.cache_root()})")
    return {"repos": repos, "small": paths[small], "large": paths[large]}


def measure(size: Size, work: Path, peers: Peers, log=print) -> dict:
    env = {**os.environ, "HOME": str(work / "home"), "XDG_CONFIG_HOME": str(work / "xdg"),
           "XDG_DATA_HOME": str(work / "xdg-data"), "CLAUDE_CONFIG_DIR": str(work / "claude"),
           "CC_HOOKS_ARCHIVE_DIR": str(work / "archive"), **peers.quiet_env()}
    (work / "home").mkdir()
    fx = build_all(size, work, env, log)
    repos, small, large = fx["repos"], fx["small"], fx["large"]
    lo, hi = size.commits
    few, many = size.claims
    main = repos[lo, many]

    def hook(name, repo, event, session, **fields):
        return Cmd(name, HOOK, payload(event, session, repo, **fields), cwd=str(repo), env=env, memory=True)

    floors = [
        Cmd("python -c pass", [PY, "-c", "pass"], env=env, memory=True),
        Cmd('python -c "import pydantic, git"', [PY, "-c", "import pydantic, git"], env=env, memory=True),
    ]
    cchooks = peers.cchooks_hook()
    if isinstance(cchooks, str):
        floors.append(Cmd("cchooks minimal SessionStart hook", [], error=cchooks))
    else:
        floors.append(Cmd("cchooks minimal SessionStart hook", cchooks, payload("SessionStart", "b", main, source="startup"),
                          cwd=str(main), env=env, memory=True))
    hooks = [
        hook("UserPromptSubmit, nothing pending", main, "UserPromptSubmit", "bench-prompt", prompt="go on"),
        *[hook(f"SessionStart report, {c:,} commits, {n} claims", repos[c, n], "SessionStart", "bench-start",
               source="startup") for c in size.commits for n in size.claims],
        hook(f"PreCompact, {lo:,} commits, {small.stat().st_size / MB:.0f} MB transcript", main, "PreCompact", "bench-pre-small",
             transcript_path=str(small), trigger="auto"),
        hook(f"PreCompact, {lo:,} commits, {large.stat().st_size / MB:.0f} MB transcript", main, "PreCompact", "bench-pre-large",
             transcript_path=str(large), trigger="auto"),
        hook(f"PreCompact, {hi:,} commits, {large.stat().st_size / MB:.0f} MB transcript", repos[hi, many], "PreCompact",
             "bench-pre-hi", transcript_path=str(large), trigger="auto"),
        hook(f"PostCompact audit, {lo:,} commits, {many}-claim summary", main, "PostCompact", "bench-post",
             trigger="auto", compact_summary=summary_text(main)),
    ]
    log("hooks and floors:")
    run_group([c for c in floors if not c.error] + hooks, size.runs, log, size.warm)

    archive_copy = {s: work / "to-archive" / f"{s}.jsonl" for s in ("small", "large")}
    archive_copy["small"].parent.mkdir()

    def fresh(which, source):
        return lambda: fixtures.fresh_transcript(source, archive_copy[which])

    cli = [
        Cmd(f"cc-hooks check, {lo:,} commits, {many} claims, {small.stat().st_size / MB:.0f} MB transcript",
            [*CLI, "check", "--project", str(main), "--transcript", str(small)], env=env, memory=True),
        Cmd(f"cc-hooks rehydrate, {lo:,} commits, {many} claims", [*CLI, "rehydrate", "--project", str(main)], env=env,
            memory=True),
        Cmd(f"cc-hooks rehydrate, {hi:,} commits, {many} claims", [*CLI, "rehydrate", "--project", str(repos[hi, many])],
            env=env, memory=True),
        Cmd(f"cc-hooks triage, {lo:,} commits", [*CLI, "triage", "--project", str(main), "request 17 times out",
                                                  "timeout after deploy"], env=env, memory=True),
        Cmd(f"cc-hooks triage, {hi:,} commits", [*CLI, "triage", "--project", str(repos[hi, many]),
                                                  "request 17 times out", "timeout after deploy"], env=env, memory=True),
    ]
    log("CLI verbs:")
    run_group(cli, size.runs, log, size.warm)

    transcript = []
    for label, path in (("small", small), ("large", large)):
        mb = f"{path.stat().st_size / MB:.0f} MB"
        transcript += [
            Cmd(f"our reader (read_live), {mb}", [PY, "-c", "import sys; from cc_hooks.transcript import read_live; "
                                                  "read_live(sys.argv[1])", str(path)], env=env, memory=True),
            Cmd(f"cc-hooks transcripts stats, {mb}", [*CLI, "transcripts", "stats", "--json", str(path)], env=env,
                memory=True),
            *peers.transcript_commands(path, mb, env),
            Cmd(f"cc-hooks transcripts archive --execute, {mb}",
                [*CLI, "transcripts", "archive", "--execute", "--json", str(archive_copy[label])], env=env,
                prepare=fresh(label, path), memory=True),
            Cmd(f"gzip -6, {mb}", ["sh", "-c", 'gzip -6 -c "$1" > /dev/null', "gzip", str(path)], env=env, memory=True),
        ]
    log("transcript work, ours and peers:")
    run_group(transcript, size.heavy_runs, log, size.warm)
    return {"floors": floors, "hooks": hooks, "cli": cli, "transcript": transcript, "fixtures": fx}


# --- report ---------------------------------------------------------------------------------------


def by_name(results: dict) -> dict[str, Cmd]:
    return {c.name: c for group in ("floors", "hooks", "cli", "transcript") for c in results[group]}


def ms(cmd: Cmd) -> str:
    return f"{cmd.median * 1000:,.0f}" if cmd.median is not None else "n/a"


def rows_for(cmds: list[Cmd], floor: Cmd, imports: Cmd) -> list[tuple[str, ...]]:
    rows = []
    for c in cmds:
        if c.median is None:
            rows.append((c.name, "n/a", "-", "-", "-", f"not run: {c.error}"))
            continue
        rows.append((c.name, ms(c), f"{c.median / floor.median:.2f}", f"{c.median / imports.median:.2f}",
                     f"{c.peak_mb:.0f}" if c.peak_mb else "-", ""))
    return rows


def targets(results: dict, size: Size) -> list[tuple[str, str, str, str]]:
    by = by_name(results)
    lo, hi = size.commits
    few, many = size.claims
    small, large = (results["fixtures"][k].stat().st_size / MB for k in ("small", "large"))
    floor, imports = by["python -c pass"], by['python -c "import pydantic, git"']

    def r(a: str, b: Cmd | str) -> Optional[float]:
        b = by[b] if isinstance(b, str) else b
        return by[a].median / b.median if by[a].median and b.median else None

    out = []

    def add(label, ratio, limit, reverse=False):
        if ratio is None:
            out.append((label, "n/a", f"{'≥' if reverse else '≤'} {limit}", "NOT MEASURED"))
            return
        ok = ratio >= limit if reverse else ratio <= limit
        out.append((label, f"{ratio:.2f}", f"{'≥' if reverse else '≤'} {limit}", "met" if ok else "MISSED"))

    add("UserPromptSubmit (nothing pending) / python -c pass", r("UserPromptSubmit, nothing pending", floor), 2)
    start_many = f"SessionStart report, {lo:,} commits, {many} claims"
    add(f"SessionStart {lo:,} commits {many} claims / import pydantic, git", r(start_many, imports), 1.5)
    add(f"SessionStart {many} claims / {few} claims ({lo:,} commits)",
        r(start_many, f"SessionStart report, {lo:,} commits, {few} claims"), 1.2)
    pre_large = f"PreCompact, {lo:,} commits, {large:.0f} MB transcript"
    add(f"PreCompact {lo:,} commits {large:.0f} MB / import pydantic, git", r(pre_large, imports), 2)
    add(f"PreCompact {large:.0f} MB / {small:.0f} MB", r(pre_large, f"PreCompact, {lo:,} commits, {small:.0f} MB transcript"), 1.3)
    for ours, peer in (("our reader (read_live)", "claude-code-log load_transcript"),
                       ("cc-hooks transcripts stats", "cozempic diagnose")):
        for mb in (small, large):
            a, b = f"{ours}, {mb:.0f} MB", f"{peer}, {mb:.0f} MB"
            if a in by and b in by and by[a].median and by[b].median:
                add(f"{peer} / {ours}, {mb:.0f} MB (peer time over ours)", by[b].median / by[a].median, 1, reverse=True)
            else:
                out.append((f"{peer} / {ours}, {mb:.0f} MB", "n/a", "≥ 1", f"NOT MEASURED: {by[b].error if b in by else 'peer absent'}"))
    worst = max(((c.peak_mb or 0), c.name) for c in results["hooks"])
    out.append((f"peak memory of every hook (largest: {worst[1]})", f"{worst[0]:.0f} MB", "≤ 100 MB",
                "met" if 0 < worst[0] <= 100 else ("NOT MEASURED" if not worst[0] else "MISSED")))
    return out


def growth(results: dict, size: Size) -> list[tuple[str, ...]]:
    by = by_name(results)
    lo, hi = size.commits
    few, many = size.claims
    small, large = (results["fixtures"][k].stat().st_size / MB for k in ("small", "large"))
    pairs = [
        (f"SessionStart, {few} → {many} claims ({lo:,} commits)", f"SessionStart report, {lo:,} commits, {few} claims",
         f"SessionStart report, {lo:,} commits, {many} claims"),
        (f"SessionStart, {lo:,} → {hi:,} commits ({many} claims)", f"SessionStart report, {lo:,} commits, {many} claims",
         f"SessionStart report, {hi:,} commits, {many} claims"),
        (f"PreCompact, {small:.0f} → {large:.0f} MB ({lo:,} commits)", f"PreCompact, {lo:,} commits, {small:.0f} MB transcript",
         f"PreCompact, {lo:,} commits, {large:.0f} MB transcript"),
        (f"PreCompact, {lo:,} → {hi:,} commits ({large:.0f} MB)", f"PreCompact, {lo:,} commits, {large:.0f} MB transcript",
         f"PreCompact, {hi:,} commits, {large:.0f} MB transcript"),
        (f"rehydrate, {lo:,} → {hi:,} commits", f"cc-hooks rehydrate, {lo:,} commits, {many} claims",
         f"cc-hooks rehydrate, {hi:,} commits, {many} claims"),
        (f"triage, {lo:,} → {hi:,} commits", f"cc-hooks triage, {lo:,} commits", f"cc-hooks triage, {hi:,} commits"),
    ]
    for what in ("our reader (read_live)", "cc-hooks transcripts stats", "claude-code-log load_transcript",
                 "cozempic diagnose", "cc-hooks transcripts archive --execute", "gzip -6"):
        pairs.append((f"{what}, {small:.0f} → {large:.0f} MB", f"{what}, {small:.0f} MB", f"{what}, {large:.0f} MB"))
    rows = []
    for label, a, b in pairs:
        if a not in by or b not in by or by[a].median is None or by[b].median is None:
            continue
        ca, cb = by[a], by[b]
        mem = f"{ca.peak_mb:.0f} → {cb.peak_mb:.0f}" if ca.peak_mb and cb.peak_mb else "-"
        rows.append((label, f"{ms(ca)} → {ms(cb)}", f"{cb.median / ca.median:.2f}", mem))
    return rows


def render(results: dict, size: Size, smoke: bool, load: tuple[float, float], took: float, peers: Peers) -> str:
    by = by_name(results)
    floor, imports = by["python -c pass"], by['python -c "import pydantic, git"']
    header = ("command", "ms", "× python -c pass", "× import pydantic, git", "peak MB", "note")
    fx = results["fixtures"]
    small, large = fx["small"], fx["large"]
    lines = [
        "# Benchmarks",
        "",
        "Generated by `python bench/run_all.py`" + (" --smoke (tiny fixtures: figures meaningless)" if smoke else "")
        + f" in {took / 60:.1f} min.",
        "",
        f"- Machine: {machine()}.",
        f"- Load average (1 min) at start {load[0]:.2f}, at end {load[1]:.2f}"
        + (" — the machine was shared with other work during the run; absolute times drift, the ratios below "
           "are measured in the same run (interleaved rounds)." if max(load) > 0.5 else "."),
        (f"- Every figure: median of {size.runs} interleaved runs after a warm-up ({size.heavy_runs} for the "
        "transcript/peer group). Peak memory: max RSS of one run (`/usr/bin/time -f %M`)." if size.warm else
         "- Smoke: one run per command, no warm-up, no memory run."),
        f"- Fixtures (seeded, cached, built by `bench/fixtures.py`): repositories of {size.commits[0]:,} and "
        f"{size.commits[1]:,} commits (`git fast-import`, {size.ledgers.get('files', 300)} files, ~4% fix commits with a "
        f"`Symptom:` trailer, SYMPTOMS.md {size.ledgers.get('symptoms', 1000)} entries, DECISIONS.md "
        f"{size.ledgers.get('decisions', 500)}, COLDSTART_QUESTIONS.md {size.ledgers.get('questions', 300)} lines, "
        f"dashboards of {size.claims[0]} and {size.claims[1]} claims); transcripts of {small.stat().st_size / MB:.1f} "
        f"and {large.stat().st_size / MB:.1f} MB from real corpus lines with the same live tail "
        f"({transcript_shape(small)}; {transcript_shape(large)}).",
        f"- Peers: {peers.describe()}.",
        "",
        "## Targets (issue 8 §3)",
        "",
        table(targets(results, size), ("target", "measured", "limit", "verdict")),
        "",
        "## Floors and hooks",
        "",
        table(rows_for(results["floors"] + results["hooks"], floor, imports), header),
        "",
        "## CLI verbs",
        "",
        table(rows_for(results["cli"], floor, imports), header),
        "",
        "## Transcript work, ours beside peers (same bytes)",
        "",
        table(rows_for(results["transcript"], floor, imports), header),
        "",
        "## Growth",
        "",
        table(growth(results, size), ("growth", "ms", "ratio", "peak MB")),
        "",
    ]
    return "\n".join(lines)


def transcript_shape(path: Path) -> str:
    sys.path.insert(0, str(ROOT))
    from cc_hooks.transcript import read_live

    live = read_live(path)
    boundaries = path.read_bytes().count(b'"subtype":"compact_boundary"')
    return (f"{path.stat().st_size / MB:.1f} MB: {boundaries} compactions, "
            f"{100 * live.live_offset / live.size:.1f}% before the last boundary")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="tiny fixtures, one run each; peers only if installed")
    parser.add_argument("--runs", type=int, help="runs per command (default 7; 1 with --smoke)")
    parser.add_argument("--out", help="where to write the markdown (default docs/benchmarks.md; none with --smoke)")
    args = parser.parse_args()
    size = SMOKE if args.smoke else FULL
    if args.runs:
        size.runs = args.runs
    out = Path(args.out) if args.out else (None if args.smoke else ROOT / "docs" / "benchmarks.md")
    load0, started = os.getloadavg()[0], time.perf_counter()
    peers = Peers(install=not args.smoke)
    with tempfile.TemporaryDirectory(prefix="cc-hooks-bench-run-") as tmp:
        results = measure(size, Path(tmp), peers)
        took = time.perf_counter() - started
        text = render(results, size, args.smoke, (load0, os.getloadavg()[0]), took, peers)
    print("\n" + text)
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
        print(f"\nwritten: {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
