"""The fresh-clone view: HEAD materialized in a temporary directory, as a stranger's clone.

A detached worktree of HEAD (``git worktree add --detach``): only what HEAD
tracks is there, so ignored files (``CLAUDE.md``, ``.claude/``, local scripts)
and uncommitted changes are absent, while ``git log`` still works inside it
(the cold-start auditor searches history last). The user's git hooks do not
run (``core.hooksPath`` points at nothing). A worktree, not ``git archive``:
an archive drops ``export-ignore`` files a clone has and has no history.

The view is removed when the ``with`` block ends, also on an error, on Ctrl-C
(SIGINT) and on SIGTERM (turned into ``Interrupted`` so ``finally`` runs). A
view whose audit was killed outright (SIGKILL) is removed by the next audit.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

PREFIX = "cc-hooks-audit-"
OWNER = "owner.pid"  # beside the view: the pid of the audit that made it


class FreshCloneError(Exception):
    """The view could not be made (no commits yet, git failed); the message says why."""


class Interrupted(KeyboardInterrupt):
    """SIGTERM (or SIGHUP) arrived while a view existed."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


@dataclass
class View:
    path: Path  # the fresh-clone view (a detached worktree of ``head``)
    head: str  # the commit it shows
    root: Path  # the repository it was made from
    ignored: list[str] = field(default_factory=list)  # ignored paths of the work tree ("dir/" for a directory)
    uncommitted: list[str] = field(default_factory=list)  # changed or untracked paths of the work tree


@contextlib.contextmanager
def fresh_clone(root: str | os.PathLike, timeout: float = 120.0) -> Iterator[View]:
    """Yield a ``View`` of ``root``'s HEAD; remove it afterwards, whatever happens."""
    from cc_hooks.git import GitError, head, run_git

    root = Path(root).resolve()
    try:
        sha = head(root).sha
    except GitError as exc:
        raise FreshCloneError(str(exc)) from exc
    if sha is None:
        raise FreshCloneError("no commits yet: a fresh clone would be empty")
    sweep_orphans(root)
    with _signals_interrupt():
        temp = Path(tempfile.mkdtemp(prefix=PREFIX))
        path = temp / (root.name or "repo")
        try:
            (temp / OWNER).write_text(str(os.getpid()))
            try:
                run_git(root, "-c", f"core.hooksPath={os.devnull}", "worktree", "add", "--detach", "--quiet",
                        str(path), sha, timeout=timeout)
            except GitError as exc:
                raise FreshCloneError(f"cannot make the fresh-clone view: {exc}") from exc
            yield View(path, sha, root, *_work_tree_extras(root, timeout))
        finally:
            with _signals_ignored():
                remove_view(root, temp)


def remove_view(root: Path, temp: Path) -> None:
    """Remove the view's directory and its worktree registration (never raises)."""
    from cc_hooks.git import GitError, run_git

    view = temp / (root.name or "repo")
    try:
        run_git(root, "worktree", "remove", "--force", "--force", str(view), timeout=60, check=False)
    except GitError:
        pass
    shutil.rmtree(temp, ignore_errors=True)
    try:
        run_git(root, "worktree", "prune", timeout=60, check=False)
    except GitError:
        pass


def sweep_orphans(root: Path) -> list[Path]:
    """Remove the views of audits that were killed (SIGKILL leaves no ``finally``): a registered
    ``cc-hooks-audit-*`` worktree whose owner process is gone. Returns what was removed."""
    from cc_hooks.git import GitError, run_git

    try:
        out = run_git(root, "worktree", "list", "--porcelain", timeout=30, check=False)
    except GitError:
        return []
    removed = []
    for line in out.splitlines():
        if not line.startswith("worktree "):
            continue
        temp = Path(line[len("worktree "):]).parent
        if temp.name.startswith(PREFIX) and not _owner_alive(temp):
            remove_view(root, temp)
            removed.append(temp)
    return removed


def _owner_alive(temp: Path) -> bool:
    try:
        pid = int((temp / OWNER).read_text().strip())
    except (OSError, ValueError):
        return False  # the owner file is written before the worktree is registered
    from cc_hooks.fsutil import process_alive

    return process_alive(pid)


def _work_tree_extras(root: Path, timeout: float) -> tuple[list[str], list[str]]:
    """(ignored, uncommitted) paths of the real work tree: what the view lacks."""
    from cc_hooks.git import run_git

    ignored = run_git(root, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory",
                      timeout=timeout, check=False)
    status = run_git(root, "status", "--porcelain", "-z", "--untracked-files=all", timeout=timeout, check=False)
    return sorted(p for p in ignored.split("\0") if p), _changed_paths(status)


def _changed_paths(status: str) -> list[str]:
    """Paths of ``git status --porcelain -z`` (a rename's or copy's source follows it: skipped)."""
    changed, entries = [], iter(status.split("\0"))
    for entry in entries:
        if len(entry) > 3:
            changed.append(entry[3:])
            if entry[0] in "RC":
                next(entries, None)
    return changed


_CAUGHT = ("SIGTERM", "SIGHUP")


@contextlib.contextmanager
def _signals_interrupt() -> Iterator[None]:
    """While the view exists, SIGTERM/SIGHUP raise ``Interrupted`` (SIGINT already raises
    KeyboardInterrupt), so the cleanup in ``finally`` runs. Main thread only."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def raise_interrupted(signum, frame):
        raise Interrupted(signum)

    previous = {}
    for name in _CAUGHT:
        signum = getattr(signal, name, None)
        if signum is not None:
            previous[signum] = signal.signal(signum, raise_interrupted)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


@contextlib.contextmanager
def _signals_ignored() -> Iterator[None]:
    """A second Ctrl-C must not cut the cleanup short."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    names = ("SIGINT", *_CAUGHT)
    previous = {}
    for name in names:
        signum = getattr(signal, name, None)
        if signum is not None:
            previous[signum] = signal.signal(signum, signal.SIG_IGN)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)

