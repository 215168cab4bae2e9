"""Move what the CLI no longer needs out of a transcript; put it back byte for byte.

Layout (outside ``~/.claude``, so ``cleanupPeriodDays`` never sweeps it)::

    $CC_HOOKS_ARCHIVE_DIR | $XDG_DATA_HOME/cc-hooks/archive | ~/.local/share/cc-hooks/archive
        <project folder>/<session>.manifest.json   what was cut, hashes, state
        <project folder>/<session>.g<N>.jsonl.gz   the COMPLETE original (history), gzip
        <project folder>/<session>.lock            one cc-hooks at a time per session

The archive holds the whole original, so restore is trivially exact: it is the archive plus
whatever the CLI appended to the live file since the cut. Archiving a session again archives
that same concatenation (generation N+1 replaces N). The live file is rewritten with
``lines.plan_keep``'s selection.

Crash safety, in order: archive written (tmp, fsync, rename) -> manifest ``pending`` -> live tmp
written -> live file unchanged (size, mtime, sha256) -> rename -> manifest ``current``. A run that
finds ``pending`` finishes it when the live file holds the cut, and otherwise rolls it back; the
original is never touched before the rename and the rename is atomic.

A live writer loses nothing: the original stays open across the rename, and whatever a writer
appended to it after the size was taken (a writer that opened the file before the rename writes to
the old inode) is carried over to the end of the new file until the old one stops growing.
Every failure (a full disk, a file-size limit) removes the run's temporary files on its way out.
Archive folders are 0700 and their files 0600, whatever the umask: they hold whole conversations.
"""

from __future__ import annotations

import fcntl
import gzip
import hashlib
import json
import os
import time
import zlib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Iterable, Iterator, Optional

from cc_hooks.fsutil import atomic_write_text
from cc_hooks.transcript.lines import CHUNK, file_chunks, plan_keep, scan
from cc_hooks.transcript.store import DEFAULT_MIN_IDLE, liveness

FORMAT = 1
LEVEL = 6
SETTLE_SECONDS = 0.05  # how long the old inode must stay the same size before it is let go
MAX_SETTLE_SECONDS = 5.0
# Tests pause here to let a writer act between two steps of an archive (see ``_step``).
STEP_HOOK = None


class ArchiveError(Exception):
    """A session cannot be archived or restored; the message says why and what to do."""


@dataclass
class Generation:
    generation: int
    archive: str  # file name in the session's archive folder
    original_size: int
    original_sha256: str
    kept_size: int
    kept_sha256: str
    kept_ranges: list  # [[start, end]] of the original
    source_size: int  # the live file when cut
    source_sha256: str
    created: str
    compactions: int = 0


@dataclass
class Manifest:
    session: str
    transcript: str
    current: Optional[Generation] = None
    pending: Optional[Generation] = None
    format: int = FORMAT

    @classmethod
    def load(cls, path: Path) -> Optional["Manifest"]:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            raise ArchiveError(f"{path}: unreadable manifest ({exc}); fix or move it away") from exc
        if data.get("format") != FORMAT:
            raise ArchiveError(f"{path}: manifest format {data.get('format')!r}, expected {FORMAT}")
        for key in ("current", "pending"):
            if data.get(key):
                data[key] = Generation(**data[key])
        return cls(**data)

    def save(self, path: Path) -> None:
        atomic_write_text(path, json.dumps(asdict(self), indent=1) + "\n", mode=0o600)


@dataclass
class Outcome:
    transcript: str
    action: str  # archived | would-archive | restored | would-restore | skipped | verified | failed
    reason: str = ""
    original_size: int = 0
    kept_size: int = 0
    archive: Optional[str] = None
    notes: list = field(default_factory=list)

    @property
    def saved(self) -> int:
        return max(self.original_size - self.kept_size, 0)


def archive_root() -> Path:
    explicit = os.environ.get("CC_HOOKS_ARCHIVE_DIR")
    if explicit:
        return Path(explicit).expanduser()
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data).expanduser() / "cc-hooks" / "archive"


class Session:
    """One transcript and its archive files."""

    def __init__(self, transcript: str | os.PathLike, root: Optional[Path] = None):
        self.path = Path(os.path.abspath(transcript))
        self.id = self.path.stem
        self.folder = (root or archive_root()) / self.path.parent.name
        self.manifest_path = self.folder / f"{self.id}.manifest.json"
        self.live_tmp = self.path.parent / f".{self.path.name}.cc-hooks.tmp"

    def gz(self, name: str) -> Path:
        return self.folder / name

    def lock(self) -> "_Lock":
        private_folder(self.folder)
        return _Lock(self.folder / f"{self.id}.lock")


def private_folder(folder: Path) -> None:
    """``mkdir -p`` with every directory created 0700 (an archive holds whole conversations), and
    the session folder itself made 0700 if an older cc-hooks created it with the umask's mode."""
    from cc_hooks.state import private_dirs

    private_dirs(folder)
    if folder.stat().st_mode & 0o077:
        os.chmod(folder, 0o700)


def _step(name: str) -> None:
    """A point between two steps of an archive where a test may act (``STEP_HOOK(name)``)."""
    if STEP_HOOK is not None:
        STEP_HOOK(name)


class _Lock:
    def __init__(self, path: Path):
        self.path = path
        self.fd = -1

    def __enter__(self):
        self.fd = os.open(self.path, os.O_CREAT | os.O_RDWR, 0o600)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(self.fd)
            raise ArchiveError(f"{self.path}: another cc-hooks is working on this session") from None
        return self

    def __exit__(self, *exc):
        fcntl.flock(self.fd, fcntl.LOCK_UN)
        os.close(self.fd)


# --- streaming helpers ---------------------------------------------------------------------------


def sha256_of(path: Path, start: int = 0, end: Optional[int] = None) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        limit = os.fstat(handle.fileno()).st_size if end is None else end
        for chunk in file_chunks(handle, limit, start):
            digest.update(chunk)
    return digest.hexdigest()


def gz_chunks(path: Path) -> Iterator[bytes]:
    with open(path, "rb") as raw:
        inflater = zlib.decompressobj(wbits=31)  # gzip container
        while True:
            block = raw.read(CHUNK)
            if not block:
                break
            data = inflater.decompress(block)
            if data:
                yield data
            while inflater.unused_data and inflater.eof:  # a multi-member gzip file
                rest = inflater.unused_data
                inflater = zlib.decompressobj(wbits=31)
                data = inflater.decompress(rest)
                if data:
                    yield data
        tail = inflater.flush()
        if tail:
            yield tail
        if not inflater.eof:
            raise ArchiveError(f"{path}: archive is truncated")


def live_chunks(path: Path, start: int, end: int) -> Iterator[bytes]:
    with open(path, "rb") as handle:
        yield from file_chunks(handle, end, start)


def select_ranges(chunks: Iterable[bytes], ranges: list) -> Iterator[bytes]:
    """The bytes of ``ranges`` (ascending [start, end)) out of a stream."""
    pending = [tuple(r) for r in ranges]
    index, offset = 0, 0
    for chunk in chunks:
        chunk_end = offset + len(chunk)
        while index < len(pending) and pending[index][0] < chunk_end:
            start, end = pending[index]
            yield chunk[max(start, offset) - offset:min(end, chunk_end) - offset]
            if end > chunk_end:
                break
            index += 1
        offset = chunk_end


def _write_stream(target: Path, chunks: Iterable[bytes], like: Optional[os.stat_result] = None) -> str:
    """Write ``chunks`` to ``target`` (fsynced) with the mode and times of ``like``; return their sha256.

    Keeping the mtime matters: the CLI orders sessions by it (``--continue``, the resume picker).
    """
    digest = hashlib.sha256()
    with _private_open(target) as out:
        for chunk in chunks:
            digest.update(chunk)
            out.write(chunk)
        out.flush()
        os.fsync(out.fileno())
    if like is not None:
        os.chmod(target, like.st_mode & 0o7777)
        os.utime(target, ns=(like.st_atime_ns, like.st_mtime_ns))
    return digest.hexdigest()


def _private_open(path: Path):
    """``open(path, "wb")``, created 0600 whatever the umask, never through a symlink."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0), 0o600)
    os.fchmod(fd, 0o600)
    return os.fdopen(fd, "wb")


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _unlink(path: Path) -> None:
    try:
        path.unlink()
    except FileNotFoundError:
        pass


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


# --- recovery ------------------------------------------------------------------------------------


def recover(session: Session) -> Optional[str]:
    """Finish or roll back an interrupted run; return what was done (None: nothing to do)."""
    _unlink(session.live_tmp)
    for stale in session.folder.glob(f"{session.id}.g*.tmp"):
        _unlink(stale)
    manifest = Manifest.load(session.manifest_path)
    if manifest is None or manifest.pending is None:
        return None
    pending = manifest.pending
    size = session.path.stat().st_size if session.path.exists() else -1
    untouched = size >= pending.source_size and sha256_of(session.path, 0, pending.source_size) == pending.source_sha256
    cut = size >= pending.kept_size and sha256_of(session.path, 0, pending.kept_size) == pending.kept_sha256
    if cut and not untouched:
        previous = manifest.current
        manifest.current, manifest.pending = pending, None
        manifest.save(session.manifest_path)
        if previous and previous.archive != pending.archive:
            _unlink(session.gz(previous.archive))
        return f"finished an interrupted archive (generation {pending.generation})"
    manifest.pending = None
    manifest.save(session.manifest_path)
    _unlink(session.gz(pending.archive))
    if manifest.current is None:
        _unlink(session.manifest_path)
    return f"rolled back an interrupted archive (generation {pending.generation}); the transcript was intact"


# --- archive -------------------------------------------------------------------------------------


def archive_session(transcript: str | os.PathLike, *, execute: bool = False, min_idle: float = DEFAULT_MIN_IDLE,
                    root: Optional[Path] = None, opened: Optional[Iterable[str]] = None,
                    level: int = LEVEL) -> Outcome:
    session = Session(transcript, root)
    outcome = Outcome(str(session.path), "skipped")
    if not session.path.is_file():
        outcome.action, outcome.reason = "failed", "no such transcript"
        return outcome
    why_live = liveness(session.path, min_idle, opened)
    if why_live:
        outcome.reason = f"live: {why_live}; not touched"
        return outcome
    if not execute:  # a dry run changes nothing, not even the archive folder
        manifest = Manifest.load(session.manifest_path) or Manifest(session.id, str(session.path))
        if manifest.pending is not None:
            outcome.notes.append("an interrupted archive is pending; --execute recovers it first")
            manifest.pending = None
        return _archive(session, manifest, outcome, False, level)
    with session.lock():
        note = recover(session)
        if note:
            outcome.notes.append(note)
        manifest = Manifest.load(session.manifest_path) or Manifest(session.id, str(session.path))
        return _archive(session, manifest, outcome, True, level)


def _archive(session: Session, manifest: Manifest, outcome: Outcome, execute: bool, level: int) -> Outcome:
    stat = session.path.stat()
    size, mtime = stat.st_size, stat.st_mtime_ns
    current = manifest.current
    if current is not None and not _holds_cut(session.path, size, current):
        raise ArchiveError(
            f"{session.path}: no longer starts with the cut archived in {session.manifest_path}; "
            "it was rewritten since (run `cc-hooks transcripts restore` or move the manifest away)")

    def original() -> Iterator[bytes]:
        if current is not None:
            yield from gz_chunks(session.gz(current.archive))
            yield from live_chunks(session.path, current.kept_size, size)
        else:
            yield from live_chunks(session.path, 0, size)

    generation = (current.generation + 1) if current else 1
    name = f"{session.id}.g{generation}.jsonl.gz"
    gz_tmp = session.gz(name + ".tmp")
    digest = hashlib.sha256()
    if not execute:
        infos = scan(original(), digest)
        return _plan(session, outcome, infos, size, execute)[1]
    try:
        with _private_open(gz_tmp) as raw, gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=level, mtime=0) as gz:
            infos = scan(_tee_write(original(), gz), digest)
        with open(gz_tmp, "rb+") as raw:
            os.fsync(raw.fileno())
        plan, done = _plan(session, outcome, infos, size, execute)
        if done is not None:
            _unlink(gz_tmp)
            return done
        # Order matters for crash safety: the gz stays a .tmp until the manifest names it, and the live
        # file is replaced only after the gz has its final name (see the module docstring).
        source_sha = digest.hexdigest() if current is None else sha256_of(session.path, 0, size)
        kept_sha = _write_stream(session.live_tmp, select_ranges(original(), plan.ranges), stat)
        manifest.pending = Generation(generation, name, outcome.original_size, digest.hexdigest(), plan.kept_size, kept_sha,
                                      [list(r) for r in plan.ranges], size, source_sha, _now(), plan.compactions)
        manifest.save(session.manifest_path)
        os.replace(gz_tmp, session.gz(name))
        _fsync_dir(session.folder)
        return _swap_live(session, outcome, stat, source_sha, name)
    except Exception:
        _clean_up_failed_run(session, gz_tmp)
        raise
    except BaseException:  # an interrupt: the temporary files go, the manifest is for the next run to settle
        _unlink_quietly(gz_tmp, session.live_tmp)
        raise


def _plan(session: Session, outcome: Outcome, infos, size: int, execute: bool):
    """The cut, and the outcome when there is nothing (more) to do."""
    original_size = infos[-1].end if infos else 0
    plan = plan_keep(infos, original_size)
    outcome.original_size, outcome.kept_size = original_size, plan.kept_size
    if plan.last_boundary is None or plan.kept_size >= size:  # the live file would not shrink
        outcome.reason = "nothing to archive (no compaction)" if plan.last_boundary is None else "nothing to archive"
        outcome.kept_size = original_size
        return plan, outcome
    if not execute:
        outcome.action = "would-archive"
        return plan, outcome
    return plan, None


def _swap_live(session: Session, outcome: Outcome, stat: os.stat_result, source_sha: str, name: str) -> Outcome:
    """Replace the live file by the cut, carrying over what a writer appended meanwhile."""
    size = stat.st_size
    old = os.open(session.path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))  # the original, held across the rename
    try:
        if os.fstat(old).st_ino != stat.st_ino or not _unchanged(session.path, size, stat.st_mtime_ns, source_sha):
            _unlink(session.live_tmp)
            recover(session)
            outcome.reason = "changed while archiving; left as it was (try again later)"
            return outcome
        _step("before-replace")
        os.replace(session.live_tmp, session.path)
        _step("after-replace")
        carried = _carry_over(old, size, session.path)
    finally:
        os.close(old)
    _fsync_dir(session.path.parent)
    recover(session)  # pending -> current
    outcome.action, outcome.archive = "archived", str(session.gz(name))
    if carried:
        outcome.notes.append(f"carried over {carried} byte(s) appended while archiving")
    return outcome


def _carry_over(old: int, start: int, path: Path) -> int:
    """Append to ``path`` what was written to the replaced file (``old``) past ``start``, until it has
    not grown for ``SETTLE_SECONDS``; return how many bytes that was."""
    position, quiet_since, began = start, time.monotonic(), time.monotonic()
    while True:
        end = os.fstat(old).st_size
        if end > position:
            target = os.open(path, os.O_WRONLY | os.O_APPEND | getattr(os, "O_CLOEXEC", 0))
            try:
                while position < end:
                    chunk = os.pread(old, min(CHUNK, end - position), position)
                    if not chunk:
                        break
                    view = memoryview(chunk)
                    while view:
                        view = view[os.write(target, view):]
                    position += len(chunk)
                os.fsync(target)
            finally:
                os.close(target)
            quiet_since = time.monotonic()
        elif time.monotonic() - quiet_since >= SETTLE_SECONDS or time.monotonic() - began > MAX_SETTLE_SECONDS:
            return position - start
        time.sleep(0.005)


def _unlink_quietly(*paths: Path) -> None:
    for path in paths:
        try:
            _unlink(path)
        except OSError:
            pass


def _clean_up_failed_run(session: Session, gz_tmp: Path) -> None:
    """After a failure (ENOSPC, EFBIG, an interrupt): no temporary file stays, and a pending
    generation is rolled back while the live file is still the original."""
    _unlink_quietly(gz_tmp, session.live_tmp)
    try:
        recover(session)
    except Exception:
        pass  # the manifest cannot be rewritten (the disk is still full): the next run recovers it


def _tee_write(chunks: Iterable[bytes], sink) -> Iterator[bytes]:
    for chunk in chunks:
        sink.write(chunk)
        yield chunk


def _holds_cut(path: Path, size: int, generation: Generation) -> bool:
    return size >= generation.kept_size and sha256_of(path, 0, generation.kept_size) == generation.kept_sha256


def _unchanged(path: Path, size: int, mtime_ns: int, sha: str) -> bool:
    stat = path.stat()
    return stat.st_size == size and stat.st_mtime_ns == mtime_ns and sha256_of(path, 0, size) == sha


# --- restore and verify --------------------------------------------------------------------------


def restore_session(transcript: str | os.PathLike, *, execute: bool = False, min_idle: float = DEFAULT_MIN_IDLE,
                    root: Optional[Path] = None, opened: Optional[Iterable[str]] = None) -> Outcome:
    session = Session(transcript, root)
    outcome = Outcome(str(session.path), "skipped")
    if not session.manifest_path.exists():
        outcome.reason = "no archive for this session"
        return outcome
    if session.path.exists():
        why_live = liveness(session.path, min_idle, opened)
        if why_live:
            outcome.reason = f"live: {why_live}; not touched"
            return outcome
    if not execute:
        manifest = Manifest.load(session.manifest_path)
        if manifest is None or manifest.current is None:
            outcome.reason = "no archive for this session (or only an interrupted one)"
            return outcome
        return _restore(session, manifest, manifest.current, outcome, False)
    with session.lock():
        note = recover(session)
        if note:
            outcome.notes.append(note)
        manifest = Manifest.load(session.manifest_path)
        if manifest is None or manifest.current is None:
            outcome.reason = "no archive for this session"
            return outcome
        return _restore(session, manifest, manifest.current, outcome, execute)


def _restore(session: Session, manifest: Manifest, gen: Generation, outcome: Outcome, execute: bool) -> Outcome:
    exists = session.path.exists()
    stat = session.path.stat() if exists else None
    size = stat.st_size if stat else 0
    outcome.original_size, outcome.kept_size = gen.original_size, gen.kept_size
    if exists and not _holds_cut(session.path, size, gen):
        if size >= gen.original_size and sha256_of(session.path, 0, gen.original_size) == gen.original_sha256:
            if execute:  # a restore that stopped before cleaning up
                _drop_archive(session, gen)
            outcome.action, outcome.reason = "restored", "already restored; archive removed"
            return outcome
        raise ArchiveError(f"{session.path}: does not start with the archived cut; not restoring over it")
    appended = size - gen.kept_size if exists else 0
    if not execute:
        outcome.action = "would-restore"
        outcome.reason = f"+{appended} bytes appended since the cut" if appended else ""
        return outcome

    def restored() -> Iterator[bytes]:
        digest = hashlib.sha256()
        for chunk in gz_chunks(session.gz(gen.archive)):
            digest.update(chunk)
            yield chunk
        if digest.hexdigest() != gen.original_sha256:
            raise ArchiveError(f"{session.gz(gen.archive)}: sha256 does not match the manifest; not restoring")
        if exists:
            yield from live_chunks(session.path, gen.kept_size, size)

    try:
        _write_stream(session.live_tmp, restored(), stat)
        if exists and not _unchanged(session.path, size, stat.st_mtime_ns, sha256_of(session.path, 0, size)):
            raise ArchiveError(f"{session.path}: changed while restoring; left as it was (try again)")
    except BaseException:
        _unlink(session.live_tmp)
        raise
    os.replace(session.live_tmp, session.path)
    _fsync_dir(session.path.parent)
    _drop_archive(session, gen)
    outcome.action = "restored"
    outcome.reason = f"+{appended} bytes appended since the cut kept" if appended else ""
    if not exists:
        outcome.notes.append("the live transcript was gone; restored from the archive alone")
    return outcome


def _drop_archive(session: Session, gen: Generation) -> None:
    _unlink(session.manifest_path)
    _unlink(session.gz(gen.archive))


def verify_session(transcript: str | os.PathLike, root: Optional[Path] = None) -> Outcome:
    """Check an archive against its manifest and the live file against the cut."""
    session = Session(transcript, root)
    outcome = Outcome(str(session.path), "verified")
    manifest = Manifest.load(session.manifest_path)
    if manifest is None or manifest.current is None:
        outcome.action, outcome.reason = "skipped", "no archive for this session"
        if manifest is not None and manifest.pending is not None:
            outcome.action, outcome.reason = "failed", "an interrupted archive is pending (any archive run recovers it)"
        return outcome
    gen = manifest.current
    outcome.original_size, outcome.kept_size, outcome.archive = gen.original_size, gen.kept_size, str(session.gz(gen.archive))
    problems = []
    digest, size, kept = hashlib.sha256(), 0, hashlib.sha256()

    def counted() -> Iterator[bytes]:
        nonlocal size
        for chunk in gz_chunks(session.gz(gen.archive)):
            digest.update(chunk)
            size += len(chunk)
            yield chunk

    try:
        for piece in select_ranges(counted(), gen.kept_ranges):
            kept.update(piece)
    except (OSError, EOFError, zlib.error, ArchiveError) as exc:
        problems.append(f"archive unreadable: {exc}")
    if not problems:
        if size != gen.original_size or digest.hexdigest() != gen.original_sha256:
            problems.append(f"archive content differs from the manifest (size {size}, expected {gen.original_size})")
        if kept.hexdigest() != gen.kept_sha256:
            problems.append("the kept selection of the archive differs from the manifest")
    if not session.path.exists():
        outcome.notes.append("live transcript is gone (restore writes the archive alone)")
    elif not _holds_cut(session.path, session.path.stat().st_size, gen):
        problems.append("the live transcript no longer starts with the archived cut")
    else:
        appended = session.path.stat().st_size - gen.kept_size
        outcome.notes.append(f"live transcript holds the cut (+{appended} bytes appended since)")
    if problems:
        outcome.action, outcome.reason = "failed", "; ".join(problems)
    return outcome


def archived_transcripts(root: Optional[Path] = None, project_folder: Optional[str] = None) -> list[Path]:
    """Transcripts that have an archive, from the manifests."""
    base = root or archive_root()
    folders = [base / project_folder] if project_folder else ([p for p in base.iterdir() if p.is_dir()] if base.is_dir() else [])
    found = []
    for folder in folders:
        for manifest_path in sorted(folder.glob("*.manifest.json")):
            try:
                data = json.loads(manifest_path.read_text(encoding="utf-8"))
                found.append(Path(data["transcript"]))
            except (OSError, ValueError, KeyError):
                continue
    return found
