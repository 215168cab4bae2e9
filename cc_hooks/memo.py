"""Facts derived from file contents and from history, remembered across hook runs.

The ledgers only grow, so most of what a hook derives from them (parsed
entries, validation findings, the paths they name, the guards they cite) is
the same as the last time. ``remember`` keys such a fact by what it was derived
from (the bytes, plus the code that derived it) and keeps it as JSON in
``<state dir>/cache/``: an unchanged SYMPTOMS.md then costs a read and a hash,
not a parse. Anything wrong with the cache (missing, corrupt, read-only, full)
only costs the recomputation; it never changes an answer.

History is immutable too: ``remember_history`` keeps facts derived from the commits up to a sha
and, at a new HEAD, extends them with the commits since that sha alone (``<tip>..HEAD``), or
derives them again when the sha is no longer an ancestor of HEAD (a rewrite) or when something
else shapes the history git shows (``history_shape``: a deepened shallow clone, grafts, replace
refs). The cost of a hook after one new commit then does not depend on the length of history.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any, Callable, Iterable, Optional, Union

FOLDER = "cache"
_FULL_SHA = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")
KEEP_PER_KIND = 8  # the ledgers change at every compaction: old keys are dead weight
Part = Union[bytes, str]

_code: Optional[bytes] = None


def remember(state: Optional[Path], kind: str, parts: Iterable[Part], compute: Callable[[], Any]) -> Any:
    """``compute()``, or what it returned the last time for the same ``parts`` and code.

    The value must be JSON data; it comes back as JSON decodes it (lists, not tuples).
    """
    path = cache_path(state, kind, parts) if state is not None else None
    if path is not None:
        from cc_hooks.fsutil import read_state_bytes

        try:
            return json.loads(read_state_bytes(path))["value"]
        except (OSError, ValueError, KeyError, TypeError):
            pass
    value = compute()
    if path is not None and state.is_dir():
        _store(path, kind, value)
    return value


def remember_history(state: Optional[Path], kind: str, parts: Iterable[Part], head: str,
                     derive: Callable[[Optional[str], Any], Any], is_ancestor: Callable[[str], bool],
                     enough: Optional[Callable[[Any], bool]] = None) -> Any:
    """The facts of the history up to commit ``head``: ``derive(None, None)`` from scratch, or
    ``derive(tip, facts)`` to extend what was derived up to ``tip`` with ``tip..head`` when
    ``is_ancestor(tip)`` says ``tip`` is still in ``head``'s history.

    ``parts`` must name everything but the commits that shapes the facts (code, configuration, the
    history's shape); the entry is kept under them, whatever the tip, so a new HEAD finds it.
    ``enough(facts)``: whether the facts remembered at ``head`` itself answer this run's question;
    when not, ``derive(head, facts)`` extends them (facts asked for on demand, such as ancestry).
    """
    path = cache_path(state, kind, parts) if state is not None else None
    entry = _load(path) if path is not None else None
    tip = entry.get("tip") if isinstance(entry, dict) and "value" in entry else None
    if isinstance(tip, str) and tip == head:
        if enough is None or enough(entry["value"]):
            return entry["value"]
        value = derive(head, entry["value"])
    elif isinstance(tip, str) and tip and is_ancestor(tip):
        value = derive(tip, entry["value"])
    else:
        value = derive(None, None)
    if path is not None and state.is_dir():
        _store(path, kind, value, tip=head)
    return value


def remember_log(root: Union[str, os.PathLike], kind: str, parts: Iterable[Part],
                 derive: Callable[[list, Any], Any], timeout: float = 30.0, head: Optional[str] = None) -> Any:
    """``remember_history`` for the repository (or linked worktree) at ``root``: its HEAD, its state
    directory, its history's shape and every git configuration file are looked up here, and
    ``derive(revs, previous)`` gets the revisions to read (``[<head>]``, or ``[<tip>..<head>]`` with
    the facts up to ``<tip>``); ``head``: HEAD's sha when the caller knows it. Without a state directory, or when the history cannot be
    remembered, it is ``derive([<head>], None)`` every time."""
    from cc_hooks.git import run_git

    if head is None:  # the caller may already know it
        head = run_git(root, "rev-parse", "--verify", "-q", "HEAD^{commit}", timeout=timeout, check=False).strip()
    if not head:
        return derive(["HEAD"], None)
    return remember_commit(root, kind, parts, head, lambda tip, previous: derive([f"{tip}..{head}"] if tip and tip != head
                                                                                  else [head], previous), timeout)


def remember_commit(root: Union[str, os.PathLike], kind: str, parts: Iterable[Part], head: str,
                    derive: Callable[[Optional[str], Any], Any], timeout: float = 30.0,
                    enough: Optional[Callable[[Any], bool]] = None) -> Any:
    """``remember_history`` of the facts of commit ``head`` (a full sha) in the repository at ``root``,
    keyed by its history's shape and every git configuration file; ``derive(None, None)`` every
    time without a state directory, or when the history cannot be remembered."""
    from cc_hooks.git import config_fingerprint
    from cc_hooks.state import find_common_dir, state_dir

    try:
        common, state = find_common_dir(root), state_dir(root)
    except OSError:
        common, state = None, None
    shape = history_shape(common) if common is not None else None
    if state is None or shape is None:
        return derive(None, None)
    return remember_history(state, kind, [*parts, config_fingerprint(common), shape], head, derive,
                            lambda tip: is_ancestor(root, tip, head, timeout), enough)


_ANCESTRY: dict = {}  # (root, ancestor sha, descendant sha) -> bool: commits never change


def is_ancestor(root: Union[str, os.PathLike], tip: str, head: str, timeout: float = 30.0) -> bool:
    """Whether commit ``tip`` is in the history of commit ``head`` (``merge-base --is-ancestor``): asked
    of git once per pair of full shas in a process, however many remembered facts need it."""
    from cc_hooks.git import GitError, GitTimeout, run_git

    key = (os.path.abspath(os.fspath(root)), tip, head)
    if key in _ANCESTRY:
        return _ANCESTRY[key]
    try:
        run_git(root, "merge-base", "--is-ancestor", tip, head, timeout=timeout, prefetch=False)  # its shas change
        answer = True
    except GitTimeout:
        raise
    except GitError:
        answer = False  # rewritten history, or an object that no longer exists
    if _FULL_SHA.fullmatch(tip) and _FULL_SHA.fullmatch(head):  # a name ("HEAD") may move between questions
        _ANCESTRY[key] = answer
    return answer


PACKED_REFS_LIMIT = 256 * 1024 * 1024  # a repository with millions of refs; more is not a packed-refs git wrote
_SHAPE_ENV = ("GIT_REPLACE_REF_BASE", "GIT_GRAFT_FILE", "GIT_SHALLOW_FILE", "GIT_NO_REPLACE_OBJECTS", "GIT_DIR",
              "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES")


def history_shape(common_dir: Union[str, os.PathLike]) -> Optional[bytes]:
    """What besides the commits decides the history git shows, as bytes to key history facts by:
    the shallow boundary, the grafts and every replace ref. None when the environment redirects
    them (then nothing of the history is remembered)."""
    if any(os.environ.get(name) for name in _SHAPE_ENV):
        return None
    from cc_hooks.fsutil import RefusedFile, read_repo_bytes

    parts = []
    for name in ("shallow", os.path.join("info", "grafts")):
        try:
            parts.append(name.encode() + b":" + read_repo_bytes(os.path.join(common_dir, name), limit=PACKED_REFS_LIMIT))
        except RefusedFile:
            return None  # linked to /dev/zero, a FIFO, a huge file: the shape is not known
        except OSError:
            parts.append(name.encode() + b": absent")
    replace = os.path.join(common_dir, "refs", "replace")
    for folder, dirs, files in os.walk(replace):
        dirs.sort()
        for file in sorted(files):
            try:
                data = read_repo_bytes(os.path.join(folder, file), limit=4096)
                parts.append(os.path.relpath(os.path.join(folder, file), replace).encode() + b"=" + data)
            except RefusedFile:
                return None  # a replace ref that is no file git wrote: the history's shape is not known
            except OSError:
                parts.append(file.encode() + b": unreadable")
    try:
        packed = read_repo_bytes(os.path.join(common_dir, "packed-refs"), limit=PACKED_REFS_LIMIT)
        parts += [line for line in packed.splitlines() if b" refs/replace/" in line]
    except RefusedFile:
        return None  # packed-refs linked to /dev/zero, a FIFO, a huge file: not read, nothing remembered
    except OSError:
        pass
    return b"\n".join(parts)


def _load(path: Path) -> Any:
    try:
        with open(path, "rb") as handle:
            return json.loads(handle.read())
    except (OSError, ValueError):
        return None


def cache_path(state: Path, kind: str, parts: Iterable[Part]) -> Path:
    digest = hashlib.sha256(code_fingerprint())
    digest.update(kind.encode())
    for part in parts:
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "big"))  # ("ab", "c") and ("a", "bc") differ
        digest.update(data)
    return state / FOLDER / f"{kind}-{digest.hexdigest()[:40]}.json"


def code_fingerprint() -> bytes:
    """Which code derived a fact: the version, and the size and mtime of every module of
    the package (an editable install changes code without changing the version)."""
    global _code
    if _code is None:
        from cc_hooks import __version__

        package = os.path.dirname(os.path.abspath(__file__))
        stamps = [__version__]
        for folder, dirs, files in os.walk(package):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                if name.endswith(".py"):
                    info = os.stat(os.path.join(folder, name))
                    stamps.append(f"{os.path.relpath(folder, package)}/{name}:{info.st_size}:{info.st_mtime_ns}")
        _code = "\n".join(stamps).encode()
    return _code


def _store(path: Path, kind: str, value: Any, **extra: Any) -> None:
    from cc_hooks.fsutil import write_state_bytes
    from cc_hooks.state import private_dirs, state_root_of

    try:
        data = json.dumps({"value": value, **extra}, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        root = state_root_of(path)
        if root is None:
            private_dirs(path.parent)
        # Not durable: an entry a crash loses only costs its recomputation, and the two fsyncs cost
        # several times the rest of the write (13 ms against 2 ms an entry on this project's CI machine).
        write_state_bytes(root or path.parent, path, data, check_root=root is not None, durable=False)
        _prune(path.parent, kind, keep=path)
    except (OSError, TypeError, ValueError):
        pass  # a read-only or full state dir, or a value JSON cannot hold, only costs the cache


def _prune(folder: Path, kind: str, keep: Path) -> None:
    """Keep the newest ``KEEP_PER_KIND`` entries of ``kind``; remove the temporary files of writers that
    died between writing and renaming (``.<entry>.<pid>.<random>.tmp``)."""
    from cc_hooks.fsutil import process_alive

    entries = []
    for entry in os.scandir(folder):
        if entry.name.startswith(f"{kind}-") and entry.name.endswith(".json") and entry.name[len(kind) + 1:].count("-") == 0:
            try:
                entries.append((entry.stat().st_mtime_ns, entry.path))
            except OSError:
                continue
        elif entry.name.startswith(f".{kind}-") and entry.name.endswith(".tmp"):
            pid = entry.name.rsplit(".", 3)[1] if entry.name.count(".") >= 4 else ""
            if pid.isdigit() and int(pid) != os.getpid() and not process_alive(int(pid)):
                try:
                    os.unlink(entry.path)
                except OSError:
                    pass
    entries.sort(reverse=True)
    for _, stale in entries[KEEP_PER_KIND:]:
        if stale != str(keep):
            try:
                os.unlink(stale)
            except OSError:
                pass
