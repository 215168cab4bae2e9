"""The tool's own state: ``$(git rev-parse --git-common-dir)/cc-hooks/``.

Located without spawning git (this runs on every prompt): walk up from the
working directory to the first ``.git`` (a directory, or a file pointing at a
linked worktree's or submodule's git dir), then follow ``commondir``. Linked
worktrees therefore share one state directory. A directory that only looks like
a git dir is taken as git reports it, and a common dir inside a work tree is
refused (issue 16, item 10). Outside a repository there is no state directory
and nothing is written.
"""

from __future__ import annotations

import json
import os
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

STATE_DIR_NAME = "cc-hooks"
LOG_NAME = "hook.log"
LOG_MAX_BYTES = 256 * 1024


def git_dir_path(start: str) -> str | None:
    """The git dir of the repository containing ``start`` (worktree-specific), as git finds it.

    Plain ``os.path`` on purpose: this runs on every prompt, and pathlib's import
    alone costs more than the walk. The walk is git's own discovery for a ``.git``
    entry; a directory that merely looks like a git dir (``HEAD``, ``objects/``,
    ``refs/``: a bare repository, the inside of a ``.git``, or a tracked directory
    made to look like one) is taken only as git itself reports it."""
    directory = os.path.abspath(start)
    while True:
        dot_git = os.path.join(directory, ".git")
        if os.path.isdir(dot_git):
            return dot_git
        if os.path.isfile(dot_git):
            try:
                with open(dot_git, encoding="utf-8", errors="replace") as handle:
                    text = handle.read(4096).strip()
            except OSError:
                return None
            if not text.startswith("gitdir:"):
                return None
            return os.path.normpath(os.path.join(directory, text[len("gitdir:") :].strip()))
        if _looks_like_git_dir(directory):
            return _reported_git_dir(start)
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


def _looks_like_git_dir(directory: str) -> bool:
    return (
        os.path.isfile(os.path.join(directory, "HEAD"))
        and os.path.isdir(os.path.join(directory, "objects"))
        and os.path.isdir(os.path.join(directory, "refs"))
    )


def _reported_git_dir(start: str) -> str | None:
    """``git rev-parse --absolute-git-dir`` from ``start`` (None when git finds no repository)."""
    from cc_hooks.git import GitError, run_git

    try:
        found = run_git(start, "rev-parse", "--absolute-git-dir", timeout=5.0, check=False).strip()
    except GitError:
        return None
    return found if found and os.path.isabs(found) else None


def common_dir_path(start: str) -> str | None:
    """The git common dir (shared by all linked worktrees) of ``start``'s repository; None when
    there is none, or when it lies inside a work tree (a tracked directory that looks like a git
    dir, or a ``commondir`` pointing into the tree): state is never kept among tracked files."""
    git_dir = git_dir_path(start)
    if git_dir is None:
        return None
    try:
        with open(os.path.join(git_dir, "commondir"), encoding="utf-8") as handle:
            rel = handle.read(4096).strip()
    except OSError:
        common = git_dir
    else:
        common = os.path.normpath(os.path.join(git_dir, rel))
    return None if _inside_a_work_tree(common) else common


def _inside_a_work_tree(common: str) -> bool:
    """``common`` is below the top of some work tree without being inside that tree's git dir."""
    if os.path.basename(common) == ".git":  # <top>/.git: the usual layout (git tracks no ".git")
        return False
    common = os.path.realpath(common)
    directory = os.path.dirname(common)
    while True:
        dot_git = os.path.join(directory, ".git")
        if os.path.lexists(dot_git):
            own = os.path.realpath(git_dir_path(directory) or dot_git)
            return not (common == own or common.startswith(own.rstrip(os.sep) + os.sep))
        parent = os.path.dirname(directory)
        if parent == directory:
            return False
        directory = parent


def find_git_dir(start: str | os.PathLike) -> Path | None:
    from pathlib import Path

    found = git_dir_path(os.fspath(start))
    return Path(found) if found else None


def find_common_dir(start: str | os.PathLike) -> Path | None:
    from pathlib import Path

    found = common_dir_path(os.fspath(start))
    return Path(found) if found else None


def state_dir(start: str | os.PathLike, create: bool = False) -> Path | None:
    common = find_common_dir(start)
    if common is None:
        return None
    directory = common / STATE_DIR_NAME
    if create and not directory.is_dir():
        private_dirs(directory)
    return directory


def log_event(start: str | os.PathLike | None, level: str, event: str, message: str) -> None:
    """Append one JSON line to the hook log; never raises (the log is best effort), never writes
    through a symlink planted at ``hook.log`` (``state_file`` rules)."""
    try:
        directory = state_dir(start or os.getcwd(), create=True)
        if directory is None:
            return
        from cc_hooks.fsutil import append_state_line

        path = os.path.join(directory, LOG_NAME)
        line = json.dumps(
            {"ts": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "level": level, "event": event, "message": message},
            ensure_ascii=False,
        )
        _rotate_if_big(path)
        append_state_line(directory, path, (line + "\n").encode("utf-8"))
    except Exception:
        pass


def _rotate_if_big(path: str) -> None:
    try:
        if os.lstat(path).st_size > LOG_MAX_BYTES:
            os.replace(path, path + ".1")  # a symlink is moved, not followed
    except FileNotFoundError:
        pass


def read_log(start: str | os.PathLike, limit: int = 20) -> list[dict]:
    directory = state_dir(start)
    if directory is None:
        return []
    from cc_hooks.fsutil import read_state_bytes

    try:
        lines = read_state_bytes(directory / LOG_NAME, LOG_MAX_BYTES * 4).decode("utf-8", "replace").splitlines()
    except OSError:
        return []
    entries = []
    for line in lines[-limit:]:
        try:
            entries.append(json.loads(line))
        except ValueError:
            continue
    return entries


def state_key(session_id: str) -> str:
    """A file-name-safe key for a session id (ids are UUIDs, but never trust input)."""
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in session_id)[:128]
    return safe or "unknown-session"


# --- the layout of the state directory -------------------------------------
# hook.log                               failures and notes, one JSON object a line
# checkpoints/<session>/<key>.json       what PreCompact found (key: prompt_id or time)
# summaries/<session>/<stamp>.json       PostCompact's capture of the harness summary (+ audit)
# reports/<session>/<stamp>.json         the report SessionStart injected after a compaction (cc_hooks.summaries.store)
# pending/<session>/<stamp>-<pid>.json   one item of context for the next UserPromptSubmit of that session
# precompact.<repo>.<session>.<prompt>.<status>  empty: a PreCompact whose checkpoint is not stored (cc_hooks.markers)
# cache/<kind>-<hash>.json               facts derived from file bytes (cc_hooks.memo)
# prefetch-<event>.json                  the git commands the last run of <event> issued (cc_hooks.prefetch)


def write_json(path: Path, data: object) -> None:
    """Atomically write private JSON state (0600), creating parent directories (0700), through no
    symlink: under a state directory (an ancestor named ``cc-hooks``) that directory must be this
    user's and private (``fsutil.write_state_bytes``), or the write is refused with one line."""
    from cc_hooks.fsutil import write_state_bytes

    payload = (json.dumps(data, ensure_ascii=False, indent=1, default=str) + "\n").encode("utf-8")
    root = state_root_of(path)
    if root is None:  # a loose folder (tests, a caller's own directory): only the no-follow rules
        private_dirs(path.parent)
        write_state_bytes(path.parent, path, payload, check_root=False)
        return
    if not os.path.lexists(root):
        from pathlib import Path

        private_dirs(Path(root))
    write_state_bytes(root, path, payload)


def state_root_of(path: str | os.PathLike) -> str | None:
    """The state directory ``path`` lies in: its nearest ancestor named ``cc-hooks``."""
    directory = os.path.dirname(os.path.abspath(path))
    while True:
        if os.path.basename(directory) == STATE_DIR_NAME:
            return directory
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


def private_dirs(directory: Path) -> None:
    """``mkdir -p`` where every directory created is 0700 (``mkdir(parents=True)`` gives the
    parents the umask's permissions, 0777 under ``umask 0``)."""
    missing = []
    while not directory.exists():
        missing.append(directory)
        if directory.parent == directory:
            break
        directory = directory.parent
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=0o700)
        except FileExistsError:
            pass
        else:
            os.chmod(folder, 0o700)  # the umask may have removed bits, never added: make it exact


def read_json(path: Path) -> object | None:
    """A state file's JSON; None when it is missing, unreadable, not JSON, or a symlink."""
    from cc_hooks.fsutil import read_state_bytes

    try:
        return json.loads(read_state_bytes(path).decode("utf-8"))
    except (OSError, ValueError):
        return None


def write_problem(exc: OSError) -> str:
    """Why a state write failed, as the one line ``not_stored`` shows ("No space left on device")."""
    return exc.strerror or str(exc) or type(exc).__name__


def not_stored(what: str, problem: str) -> str:
    """How every hook says that a state write failed: "could not store the compaction summary (No
    space left on device)" (the state directory's own log is on the same full disk)."""
    from cc_hooks.printable import clean

    return f"could not store the {what} ({clean(problem)[:300]})"


def stamp() -> str:
    """A sortable, file-name-safe UTC time stamp with microseconds."""
    now = time.time()
    return time.strftime("%Y%m%dT%H%M%S", time.gmtime(now)) + f"{int((now % 1) * 1e6):06d}Z"


def pending_dir(directory: Path, session_id: str) -> Path:
    from pathlib import Path

    return Path(directory) / "pending" / state_key(session_id)


def has_pending(common_dir: str, session_id: str) -> bool:
    """The hot-path check of UserPromptSubmit: one listdir, no pathlib."""
    try:
        names = os.listdir(os.path.join(common_dir, STATE_DIR_NAME, "pending", state_key(session_id)))
    except OSError:
        return False
    return any(not name.startswith(".") or ".taken-" in name for name in names)  # a claim may be orphaned


def pending_name() -> str:
    """The file name of a queued item: its time (the queue's order), its writer, a random tail."""
    return f"{stamp()}-{os.getpid()}-{os.urandom(3).hex()}.json"


def add_pending(directory: Path, session_id: str, item: dict, name: str | None = None) -> str:
    """Queue ``item`` for the next prompt of the session; the name of its file (``pending_name``).

    One file per item, so writers never read-modify-write a shared file: two
    PostCompacts of one session at once both get their item delivered."""
    name = name or pending_name()
    write_json(pending_dir(directory, session_id) / name, {"session_id": session_id, "item": item})
    return name


def replace_pending(directory: Path, session_id: str, name: str, item: dict) -> None:
    """Put ``item`` in the place of the queued item ``name`` (same name, same place in the queue):
    a prompt finds the old one or the new one, never both. Nothing happens when a prompt has taken
    the old one already (it delivers that one). OSError when the new one cannot be written: the old
    one stays queued. Killed in between, the old one is left as a claim of a dead process, which the
    next prompt delivers."""
    folder = pending_dir(directory, session_id)
    claimed = folder / f".{name}.taken-{os.getpid()}"
    try:
        os.rename(folder / name, claimed)  # first, so that a prompt's claim and ours cannot both win
    except FileNotFoundError:
        return
    try:
        write_json(folder / name, {"session_id": session_id, "item": item})
    except BaseException:
        os.rename(claimed, folder / name)
        raise
    os.unlink(claimed)


def take_pending(directory: Path, session_id: str, room: int | None = None, claims: list | None = None) -> dict | None:
    """Claim and remove the queued items of a session, oldest first: exactly once, even
    when several hook processes race (only one ``rename`` of each file can succeed).

    With ``room``, only the items whose texts fit in ``room`` characters together (joined by a
    blank line) are taken, and always the first one; the rest stay queued, in order, for the next
    prompt. With ``claims`` (a list), the claimed files are not removed but appended to it, for
    ``settle_claims`` once the answer is out: a process that dies before that leaves claims of a
    dead pid, which the next prompt delivers. Returns ``{"session_id": ..., "items": [...]}`` or
    None when nothing was claimed."""
    folder = pending_dir(directory, session_id)
    try:
        entries = os.listdir(folder)
    except OSError:
        return None
    # Queued items, and items a prompt claimed but died before delivering (SIGKILL at its timeout).
    names = sorted(name for name in entries if not name.startswith(".") or _orphaned_claim(name))
    items, used = [], 0
    for name in names:
        item_name = name.rsplit(".taken-", 1)[0][1:] if name.startswith(".") else name
        claimed = folder / f".{item_name}.taken-{os.getpid()}"
        try:
            os.rename(folder / name, claimed)
        except OSError:
            continue  # another process took it
        data = read_json(claimed)
        item = data.get("item") if isinstance(data, dict) else None
        size = len(item.get("text") or "") + 2 if isinstance(item, dict) and isinstance(item.get("text"), str) else 0
        if room is not None and items and used + size > room + 2:
            try:
                os.rename(claimed, folder / item_name)  # back in the queue under its own name: order kept
            except OSError:
                pass
            break
        if claims is not None:
            claims.append(claimed)
        else:
            try:
                os.unlink(claimed)
            except OSError:
                pass
        if isinstance(item, dict):
            items.append(item)
            used += size
    return {"session_id": session_id, "items": items} if items else None


def settle_claims(claims: list, delivered: bool) -> None:
    """Remove the claimed files of ``take_pending`` (delivered) or put them back in the queue
    under their own names, order kept (not delivered)."""
    for claimed in claims:
        try:
            if delivered:
                os.unlink(claimed)
            else:
                os.rename(claimed, claimed.parent / claimed.name.rsplit(".taken-", 1)[0][1:])
        except OSError:
            pass


def _orphaned_claim(name: str) -> bool:
    """``.<item>.taken-<pid>`` of a process that is gone."""
    head, sep, pid = name.rpartition(".taken-")
    if not sep or not pid.isdigit() or int(pid) == os.getpid():
        return False
    from cc_hooks.fsutil import process_alive

    return not process_alive(int(pid))
