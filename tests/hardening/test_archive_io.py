"""Issue 16, items 5, 6 and 12: ``transcripts archive`` never loses what a live writer appends,
keeps its files private whatever the umask, and leaves no temporary file after a full disk or a
file-size limit."""

from __future__ import annotations

import errno
import hashlib
import os
import random
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from cc_hooks.transcript import archive as arc

from transcript.conftest import Synth, age, history

from .inert import entry_point

ITERATIONS = int(os.environ.get("CC_HOOKS_ARCHIVE_RACE_ITERATIONS", "500"))


def session(path: Path, turns: int = 6, compactions: int = 2) -> Path:
    s = Synth()
    for c in range(compactions):
        history(s, turns)
        s.boundary(f"summary {c}")
    s.user("live prompt")
    s.write(path)
    age(path)
    return path


def line(tag: str) -> bytes:
    return ('{"type":"user","uuid":"%s","message":{"role":"user","content":"late"}}\n' % tag).encode()


def append(path: Path, data: bytes) -> None:
    """As the CLI appends: open, one write, close."""
    with open(path, "ab") as handle:
        handle.write(data)


def restored_lines(path: Path, root: Path) -> list[bytes]:
    outcome = arc.restore_session(path, execute=True, min_idle=0, root=root, opened=[])
    assert outcome.action == "restored", outcome
    return path.read_bytes().splitlines(keepends=True)


def temporary_files(*folders: Path) -> list[Path]:
    return [p for folder in folders for p in folder.rglob("*") if p.name.endswith(".tmp")]


# --- item 5: a late append is carried over -------------------------------------------------------


@pytest.mark.parametrize("step", ["before-replace", "after-replace"])
def test_an_append_at_each_step_of_the_swap_is_kept(tmp_path, monkeypatch, step):
    """Deterministic: a writer acts at the injected pause between two steps."""
    path = session(tmp_path / "p" / "s.jsonl")
    root, before = tmp_path / "a", path.read_bytes()
    held = {}

    def writer(name):
        if name == "before-replace":  # the writer opens the live file now (the old inode) ...
            held["handle"] = open(path, "ab")
            if step == "before-replace":
                held["handle"].write(line("during"))
                held["handle"].flush()
        if name == "after-replace" and step == "after-replace":  # ... and writes after the rename
            held["handle"].write(line("during"))
            held["handle"].flush()

    monkeypatch.setattr(arc, "STEP_HOOK", writer)
    outcome = arc.archive_session(path, execute=True, min_idle=0, root=root, opened=[])
    held["handle"].close()
    monkeypatch.setattr(arc, "STEP_HOOK", None)
    assert outcome.action == "archived", outcome
    assert line("during") in path.read_bytes()
    assert any("carried over" in note for note in outcome.notes), outcome.notes
    assert b"".join(restored_lines(path, root)) == before + line("during")


def test_a_concurrent_writer_never_loses_a_byte(tmp_path):
    """ITERATIONS archives, each raced by a writer thread appending at random moments (open, write,
    close, as the CLI does; sometimes holding the file open across the rename)."""
    rng = random.Random(16)
    lost, archived, carried = [], 0, 0
    timing = None
    for index in range(ITERATIONS):
        folder = tmp_path / f"i{index}"
        path = session(folder / "p" / "s.jsonl")
        root = folder / "a"
        original = path.read_bytes()
        if timing is None:  # how long one archive takes here: the writer's window
            probe = session(folder / "probe" / "s.jsonl")
            started = time.monotonic()
            arc.archive_session(probe, execute=True, min_idle=0, root=folder / "probe-a", opened=[])
            timing = max(time.monotonic() - started, 0.01)
        tags = [f"late-{index}-{n}" for n in range(rng.randint(1, 4))]
        delays = sorted(rng.uniform(0, timing * 1.3) for _ in tags)
        hold = rng.random() < 0.3

        def write_all():
            started = time.monotonic()
            for tag, delay in zip(tags, delays):
                time.sleep(max(0.0, delay - (time.monotonic() - started)))
                if hold:
                    with open(path, "ab") as handle:
                        time.sleep(rng.uniform(0, 0.003))
                        handle.write(line(tag))
                else:
                    append(path, line(tag))

        thread = threading.Thread(target=write_all)
        thread.start()
        outcome = arc.archive_session(path, execute=True, min_idle=0, root=root, opened=[])
        thread.join()
        expected = original.splitlines(keepends=True) + [line(tag) for tag in tags]
        if outcome.action == "archived":
            archived += 1
            carried += any("carried over" in n for n in outcome.notes)
            got = restored_lines(path, root)
        else:
            got = path.read_bytes().splitlines(keepends=True)
        if sorted(got) != sorted(expected):
            lost.append((index, outcome.action, len(b"".join(expected)) - len(b"".join(got))))
        assert not temporary_files(folder), temporary_files(folder)
    assert lost == [], f"{len(lost)} of {ITERATIONS} runs lost bytes: {lost[:10]}"
    assert archived > ITERATIONS // 10, archived  # the race was really run against the swap, not only refused
    print(f"{ITERATIONS} runs: {archived} archived ({carried} with a carried-over append), 0 bytes lost")


# --- item 6: private whatever the umask ----------------------------------------------------------


def test_the_archive_is_private_under_umask_000(tmp_path):
    path = session(tmp_path / "p" / "s.jsonl")
    os.chmod(path, 0o600)
    root = tmp_path / "archive-root" / "nested"
    previous = os.umask(0)
    try:
        outcome = arc.archive_session(path, execute=True, min_idle=0, root=root, opened=[])
    finally:
        os.umask(previous)
    assert outcome.action == "archived", outcome
    folders = [root, root / "p"]
    files = list((root / "p").iterdir())
    assert {oct(f.stat().st_mode & 0o777) for f in folders} == {"0o700"}
    assert files and {(f.name, oct(f.stat().st_mode & 0o777)) for f in files} == {(f.name, "0o600") for f in files}
    assert path.stat().st_mode & 0o777 == 0o600


def test_an_existing_open_archive_folder_is_made_private(tmp_path):
    path = session(tmp_path / "p" / "s.jsonl")
    root = tmp_path / "a"
    (root / "p").mkdir(parents=True)
    os.chmod(root / "p", 0o755)
    arc.archive_session(path, execute=True, min_idle=0, root=root, opened=[])
    assert (root / "p").stat().st_mode & 0o777 == 0o700


# --- item 12: no temporary file after ENOSPC or EFBIG --------------------------------------------


class _FullDisk:
    """A file object that accepts ``room`` bytes, then raises ENOSPC."""

    def __init__(self, handle, room):
        self.handle, self.room = handle, room

    def write(self, data):
        if len(data) > self.room:
            raise OSError(errno.ENOSPC, "No space left on device")
        self.room -= len(data)
        return self.handle.write(data)

    def __getattr__(self, name):
        return getattr(self.handle, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.handle.close()


@pytest.mark.parametrize("failing", [0, 1, 2])  # the gz, the live copy, the manifest
def test_a_full_disk_during_archive_leaves_no_temporary_file(tmp_path, monkeypatch, failing):
    path = session(tmp_path / "p" / "s.jsonl")
    root, before = tmp_path / "a", path.read_bytes()
    real_open, real_save, opened = arc._private_open, arc.Manifest.save, []

    def full_open(target):
        opened.append(target)
        handle = real_open(target)
        return _FullDisk(handle, 100) if len(opened) - 1 == failing else handle

    def full_save(self, target):
        if failing == 2:
            from cc_hooks import fsutil

            real_fdopen = os.fdopen
            monkeypatch.setattr(fsutil.os, "fdopen", lambda fd, mode: _FullDisk(real_fdopen(fd, mode), 10))
            try:
                return real_save(self, target)
            finally:
                monkeypatch.setattr(fsutil.os, "fdopen", real_fdopen)
        return real_save(self, target)

    monkeypatch.setattr(arc, "_private_open", full_open)
    monkeypatch.setattr(arc.Manifest, "save", full_save)
    with pytest.raises(OSError, match="No space"):
        arc.archive_session(path, execute=True, min_idle=0, root=root, opened=[])
    assert temporary_files(tmp_path) == []
    assert path.read_bytes() == before


def test_a_full_disk_during_restore_leaves_no_temporary_file(tmp_path, monkeypatch):
    path = session(tmp_path / "p" / "s.jsonl")
    root, before = tmp_path / "a", path.read_bytes()
    assert arc.archive_session(path, execute=True, min_idle=0, root=root, opened=[]).action == "archived"
    cut = path.read_bytes()
    real_open = arc._private_open
    monkeypatch.setattr(arc, "_private_open", lambda target: _FullDisk(real_open(target), 100))
    with pytest.raises(OSError, match="No space"):
        arc.restore_session(path, execute=True, min_idle=0, root=root, opened=[])
    monkeypatch.setattr(arc, "_private_open", real_open)
    assert temporary_files(tmp_path) == [] and path.read_bytes() == cut
    assert b"".join(restored_lines(path, root)) == before


@pytest.mark.parametrize("verb", ["archive", "restore"])
def test_a_file_size_limit_through_the_cli_leaves_no_temporary_file(tmp_path, verb):
    """EFBIG for real: RLIMIT_FSIZE in the CLI's process, at every size from tiny to almost enough."""
    path = session(tmp_path / "p" / "s.jsonl", turns=40, compactions=3)
    root, before = tmp_path / "a", path.read_bytes()
    if verb == "restore":
        assert arc.archive_session(path, execute=True, min_idle=0, root=root, opened=[]).action == "archived"
    size = len(before)
    for limit in (64, 1024, size // 8, size // 4, size // 2, size - 1):
        proc = subprocess.run(
            entry_point() + ["transcripts", verb, str(path), "--execute", "--min-idle", "0", "--archive-dir", str(root)],
            capture_output=True, text=True, timeout=120,
            preexec_fn=lambda limit=limit: resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY)),
        )
        assert "Traceback" not in proc.stderr, proc.stderr
        assert temporary_files(tmp_path) == [], (limit, proc.stdout, proc.stderr, temporary_files(tmp_path))
    arc.archive_session(path, execute=True, min_idle=0, root=root, opened=[])  # whatever state it was left in
    assert b"".join(restored_lines(path, root)) == before


# --- the same through the installed entry point ---------------------------------------------------

PAUSE = """
import os
from cc_hooks.transcript import archive
def step(name):
    if name == os.environ["CC_HOOKS_TEST_STEP"]:  # the CLI appends exactly here, as a live session would
        with open(os.environ["CC_HOOKS_TEST_TRANSCRIPT"], "ab") as handle:
            handle.write(b'{"type":"user","uuid":"late","message":{"role":"user","content":"late"}}\\n')
archive.STEP_HOOK = step
"""


@pytest.mark.parametrize("step", ["before-replace", "after-replace"])
def test_the_cli_keeps_an_append_made_between_its_steps(tmp_path, step):
    path = session(tmp_path / "p" / "s.jsonl")
    root, before = tmp_path / "a", path.read_bytes()
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(PAUSE)
    env = {**os.environ, "PYTHONPATH": str(site), "CC_HOOKS_TEST_STEP": step, "CC_HOOKS_TEST_TRANSCRIPT": str(path)}
    proc = subprocess.run(entry_point() + ["transcripts", "archive", str(path), "--execute", "--min-idle", "0",
                                           "--archive-dir", str(root)], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0 and "archived" in proc.stdout, (proc.stdout, proc.stderr)
    late = b'{"type":"user","uuid":"late","message":{"role":"user","content":"late"}}\n'
    assert b"".join(restored_lines(path, root)) == before + late


def test_the_cli_archive_is_private_under_umask_000(tmp_path):
    path = session(tmp_path / "p" / "s.jsonl")
    os.chmod(path, 0o600)
    root = tmp_path / "archive"
    proc = subprocess.run(entry_point() + ["transcripts", "archive", str(path), "--execute", "--min-idle", "0",
                                           "--archive-dir", str(root)], capture_output=True, text=True, timeout=120,
                          preexec_fn=lambda: os.umask(0))
    assert proc.returncode == 0 and "archived" in proc.stdout, (proc.stdout, proc.stderr)
    found = [root, *root.rglob("*")]
    modes = {str(p.relative_to(tmp_path)): (p.is_dir(), oct(p.stat().st_mode & 0o777)) for p in found}
    assert len(found) >= 4 and all(mode == ("0o700" if is_dir else "0o600") for is_dir, mode in modes.values()), modes
