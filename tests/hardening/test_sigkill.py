"""SIGKILL at every step: each command runs as a real process and is killed at points spread
over its whole run (no test hook in the product: the kill times are spread from 0 to a little past
the time a full run takes, one run per point). After every kill the original is intact or the
change is complete, and the next run completes. CC_HOOKS_KILL_RUNS sets the runs per command."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cc_hooks import settings

from .conftest import git, make_repo

RUNS = int(os.environ.get("CC_HOOKS_KILL_RUNS", "12"))
ROOT = Path(__file__).resolve().parents[2]


def timed_run(argv: list[str], cwd: Path, env: dict | None = None) -> float:
    started = time.monotonic()
    proc = subprocess.run(argv, cwd=cwd, env={**os.environ, **(env or {})}, capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return time.monotonic() - started


def run_and_kill(argv: list[str], cwd: Path, delay: float, env: dict | None = None) -> int:
    proc = subprocess.Popen(argv, cwd=cwd, env={**os.environ, **(env or {})}, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    time.sleep(delay)
    proc.send_signal(signal.SIGKILL)
    return proc.wait(timeout=60)


def delays(full: float) -> list[float]:
    """Kill points spread evenly over [0, 1.1 x a full run]."""
    return [full * 1.1 * i / max(1, RUNS - 1) for i in range(RUNS)]


def temp_litter(directory: Path) -> list[Path]:
    return [p for p in directory.rglob("*") if p.name.endswith(".tmp")]


# --- install ------------------------------------------------------------------------------------

ORIGINAL_SETTINGS = b'{\n  "model": "opus",\n  "hooks": {\n    "Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]\n  }\n}\n'


def test_install_killed_anywhere_leaves_the_original_or_the_merge(tmp_path):
    repo = make_repo(tmp_path / "repo")
    path = repo / ".claude" / "settings.json"
    path.parent.mkdir()
    argv = [sys.executable, "-m", "cc_hooks", "install", "--scope", "project"]
    path.write_bytes(ORIGINAL_SETTINGS)
    full = timed_run(argv, repo)
    merged = path.read_bytes()
    expected = settings.merge(json.loads(ORIGINAL_SETTINGS), settings.wired_command("project"))[0]
    assert json.loads(merged) == expected
    outcomes = {"original": 0, "merged": 0}
    for delay in delays(full):
        path.write_bytes(ORIGINAL_SETTINGS)
        run_and_kill(argv, repo, delay)
        now = path.read_bytes()
        assert now in (ORIGINAL_SETTINGS, merged), now
        outcomes["original" if now == ORIGINAL_SETTINGS else "merged"] += 1
        timed_run(argv, repo)  # the next run completes
        assert path.read_bytes() == merged
    assert not temp_litter(repo / ".claude"), temp_litter(repo / ".claude")
    assert outcomes["original"], outcomes  # some kills did land before the write


# --- init ---------------------------------------------------------------------------------------


def test_init_killed_anywhere_leaves_whole_files_and_the_next_run_completes(tmp_path):
    template = make_repo(tmp_path / "template")
    argv = [sys.executable, "-m", "cc_hooks", "init"]
    reference = tmp_path / "reference"
    shutil.copytree(template, reference)
    full = timed_run(argv, reference)
    created = {p.relative_to(reference): p.read_bytes() for p in reference.iterdir() if p.is_file() and p.name != "README.md"}
    assert len(created) >= 5
    for n, delay in enumerate(delays(full)):
        repo = tmp_path / f"run{n}"
        shutil.copytree(template, repo)
        run_and_kill(argv, repo, delay)
        for rel, content in created.items():
            if (repo / rel).exists():
                assert (repo / rel).read_bytes() == content, rel  # whole, never torn
        timed_run(argv, repo)
        for rel, content in created.items():
            assert (repo / rel).read_bytes() == content, rel
        status = git(repo, "status", "--porcelain", "--untracked-files=all")
        assert ".tmp" not in status, status  # no temporary file left for `git add -A` to commit
        shutil.rmtree(repo)


# --- dashboard updates --------------------------------------------------------------------------

UPDATE = (
    "import sys\n"
    "from pathlib import Path\n"
    "from cc_hooks.record.backends.file import Backend\n"
    "Backend(Path(sys.argv[1]), 'next_steps.md').update('resume at src/a.py', ['claim one', 'claim two'], date='2026-11-29')\n"
)


def test_dashboard_update_killed_anywhere_leaves_the_old_or_the_new_file(tmp_path):
    repo = make_repo(tmp_path / "repo")
    assert subprocess.run([sys.executable, "-m", "cc_hooks", "init"], cwd=repo, capture_output=True).returncode == 0
    path = repo / "next_steps.md"
    original = path.read_bytes()
    argv = [sys.executable, "-c", UPDATE, str(repo)]
    full = timed_run(argv, repo)
    updated = path.read_bytes()
    assert updated != original and b"claim two" in updated
    for delay in delays(full):
        path.write_bytes(original)
        run_and_kill(argv, repo, delay)
        assert path.read_bytes() in (original, updated)
        timed_run(argv, repo)
        assert path.read_bytes() == updated
    status = git(repo, "status", "--porcelain", "--untracked-files=all")
    assert ".tmp" not in status, status


# --- transcripts archive ------------------------------------------------------------------------


def test_transcripts_archive_killed_anywhere_keeps_the_session_restorable(tmp_path):
    sys.path.insert(0, str(ROOT))
    from tests.transcript.conftest import Synth, age, history

    synth = Synth()
    for c in range(3):
        history(synth, 30)
        synth.boundary(f"summary {c}")
    synth.user("live prompt")
    source = tmp_path / "source.jsonl"
    synth.write(source)
    original = source.read_bytes()
    folder = tmp_path / "projects" / "-home-dev-demo"
    folder.mkdir(parents=True)
    path = folder / "11111111-2222-3333-4444-555555555555.jsonl"
    archive_dir = tmp_path / "archive"

    def fresh() -> None:
        shutil.rmtree(archive_dir, ignore_errors=True)
        for stale in folder.iterdir():
            stale.unlink()
        path.write_bytes(original)
        age(path)

    def cli(action: str) -> list[str]:
        return [sys.executable, "-m", "cc_hooks", "transcripts", action, str(path), "--execute", "--min-idle", "0",
                "--archive-dir", str(archive_dir)]

    fresh()
    full = timed_run(cli("archive"), tmp_path)
    archived = path.read_bytes()
    assert len(archived) < len(original)
    for delay in delays(full):
        fresh()
        run_and_kill(cli("archive"), tmp_path, delay)
        assert path.read_bytes() in (original, archived)  # the live file is whole: old or cut
        subprocess.run(cli("archive"), cwd=tmp_path, capture_output=True, timeout=120)  # finishes or recovers
        assert path.read_bytes() == archived
        assert not [p for p in folder.iterdir() if p.name.endswith(".tmp")]
        assert subprocess.run(cli("restore"), cwd=tmp_path, capture_output=True, timeout=120).returncode == 0
        assert path.read_bytes() == original  # byte for byte


# --- the write window itself: kill the moment a temporary file appears ----------------------------


def kill_when_temp_appears(argv: list[str], cwd: Path, watch: Path, timeout: float = 30) -> bool:
    """Start the command, watch ``watch`` for a ``*.tmp`` file (the atomic write has begun: the
    temporary file exists, the rename has not happened) and SIGKILL right then. True if it did."""
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    end = time.monotonic() + timeout
    caught = False
    while proc.poll() is None and time.monotonic() < end:
        try:
            if any(name.endswith(".tmp") for name in os.listdir(watch)):
                proc.send_signal(signal.SIGKILL)
                caught = True
                break
        except FileNotFoundError:
            pass
    proc.wait(timeout=60)
    return caught


def test_install_killed_inside_its_write_keeps_the_original_and_cleans_up_next_run(tmp_path):
    repo = make_repo(tmp_path / "repo")
    path = repo / ".claude" / "settings.json"
    path.parent.mkdir()
    argv = [sys.executable, "-m", "cc_hooks", "install", "--scope", "project"]
    path.write_bytes(ORIGINAL_SETTINGS)
    timed_run(argv, repo)
    merged = path.read_bytes()
    caught = 0
    for _ in range(5):
        path.write_bytes(ORIGINAL_SETTINGS)
        if kill_when_temp_appears(argv, repo, path.parent):
            caught += 1
            # whole either way: the rename may have won the race against the kill
            assert path.read_bytes() in (ORIGINAL_SETTINGS, merged)
        timed_run(argv, repo)
        assert path.read_bytes() == merged
    if not caught:
        pytest.skip("the writes finished before the watcher saw a temporary file; nothing was interrupted")
    assert not temp_litter(repo / ".claude"), temp_litter(repo / ".claude")


def test_init_killed_inside_a_write_leaves_no_temporary_file_in_the_work_tree(tmp_path):
    template = make_repo(tmp_path / "template")
    argv = [sys.executable, "-m", "cc_hooks", "init"]
    caught = 0
    for n in range(5):
        repo = tmp_path / f"run{n}"
        shutil.copytree(template, repo)
        caught += kill_when_temp_appears(argv, repo, repo)
        timed_run(argv, repo)
        status = git(repo, "status", "--porcelain", "--untracked-files=all")
        assert ".tmp" not in status, status
    if not caught:
        pytest.skip("the writes finished before the watcher saw a temporary file; nothing was interrupted")


def test_the_next_write_removes_only_temporary_files_of_dead_writers(tmp_path):
    from cc_hooks.fsutil import atomic_write_text

    target = tmp_path / "f.json"
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        stale = tmp_path / f".f.json.{dead.pid}.abc.tmp"
        in_flight = tmp_path / f".f.json.{alive.pid}.abc.tmp"
        stale_sibling = tmp_path / f".other.json.{dead.pid}.abcdefgh.tmp"  # another file, same dead writer
        stale = tmp_path / f".f.json.{dead.pid}.abcdefgh.tmp"
        in_flight = tmp_path / f".f.json.{alive.pid}.abcdefgh.tmp"
        foreign = tmp_path / ".f.json.bak.123.tmp"  # not our naming
        unknown = tmp_path / ".f.json.oldstyle.tmp"
        for path in (stale, stale_sibling, in_flight, foreign, unknown):
            path.write_text("x")
        atomic_write_text(target, "{}")
        assert not stale.exists() and not stale_sibling.exists()
        assert in_flight.exists() and foreign.exists() and unknown.exists()
    finally:
        alive.kill()
        alive.wait()
