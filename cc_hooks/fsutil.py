"""The file access rules of cc-hooks: one reader and one writer for repository files, one writer
for state files, atomic writes for the rest (the user's own files).

``read_repo_bytes``: a repository file (config, ledgers, dashboard, CLAUDE.md, questions) is read
only when it is a regular file, inside the repository once symlinks are resolved, and at most
``REPO_FILE_LIMIT`` bytes; otherwise ``RefusedFile`` (an OSError, so every existing ``except
OSError`` turns it into a finding) says which rule it broke. A tracked symlink to ``/dev/zero`` or
a FIFO therefore costs one ``open`` and one ``fstat``, not the hook's memory and budget.

``write_state_bytes`` / ``append_state_line``: a state file is written only inside a state
directory owned by this user and not open to others (0700), through no symlink at any level, with
a temporary file created ``O_EXCL|O_NOFOLLOW`` and renamed over the name (a planted symlink is
replaced, never written through): a repository received as an archive ships its ``.git``, and
``.git/cc-hooks/hook.log -> ~/.bashrc`` must not get JSON appended.

``write_repo_bytes`` / ``check_repo_path`` / ``remove_repo_file``: a file of the work tree
(project settings, the launcher, skills, the record files, the dashboard) is written by the same
walk as a state file, from the top of the work tree: every directory opened ``O_NOFOLLOW``
relative to its parent, a temporary file ``O_EXCL|O_NOFOLLOW``, fsync, rename within the
directory. A symlink at any level, the name's own included (dangling or not), and a path that
leads outside the work tree or into ``.git`` are refused (``RefusedFile``, one line naming the path
and the link): a repository that ships ``.claude -> ~/.claude`` must not make ``install --scope
project`` write the user's settings. ``install``, ``uninstall`` and ``dashboard migrate`` check
every file they will write (``init`` every file it will create) before the first write
(``check_repo_path``), so a refusal leaves everything as it was.

``atomic_write_bytes``: temp file in the same directory, fsync, rename. A reader never sees a
half-written file, and a crash leaves either the old or the new content (and a temporary file,
which the next write of the same file removes). Writing through a symlink replaces its target and
keeps the link (the user's own files: the user-scope settings and launcher, the trust store);
the replaced file's permission bits are kept.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path

REPO_FILE_LIMIT = 4 * 1024 * 1024  # the biggest record file cc-hooks reads (a ledger of years is < 1 MB)
STATE_FILE_LIMIT = 16 * 1024 * 1024


class RefusedFile(OSError):
    """A file cc-hooks will not read or write; ``strerror`` is the one-line reason."""

    def __init__(self, path, reason: str, code: int = errno.EPERM):
        super().__init__(code, reason, os.fspath(path))

    def __str__(self) -> str:
        return self.strerror  # callers name the file already


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def read_repo_bytes(path: str | os.PathLike, root: str | os.PathLike | None = None, limit: int = REPO_FILE_LIMIT,
                    truncate: bool = False) -> bytes:
    """The bytes of a repository file, by the rules of the module docstring.

    FileNotFoundError when it does not exist; RefusedFile when it is outside ``root`` (symlinks
    resolved), not a regular file, or bigger than ``limit`` (with ``truncate``: its first ``limit``
    bytes instead); other OSErrors as ``open`` raises them."""
    path = os.fspath(path)
    if root is not None:
        real_root, real = os.path.realpath(root), os.path.realpath(path)
        if os.path.commonpath([real_root, real]) != real_root:
            raise RefusedFile(path, f"resolves outside the repository (to {real}); not read")
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)  # O_NONBLOCK: opening a FIFO must not wait for a writer
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise RefusedFile(path, f"{_kind(info.st_mode)}, not a regular file; not read")
        if info.st_size > limit and not truncate:
            raise RefusedFile(path, f"too large ({info.st_size} bytes; cc-hooks reads at most {limit}); not read", errno.EFBIG)
        os.set_blocking(fd, True)
        if truncate:
            return _read_all(fd, limit)
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:  # it grew while being read
            raise RefusedFile(path, f"too large (over {limit} bytes; cc-hooks reads at most {limit}); not read", errno.EFBIG)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_repo_text(path: str | os.PathLike, root: str | os.PathLike | None = None, limit: int = REPO_FILE_LIMIT,
                   encoding: str = "utf-8", errors: str = "replace") -> str:
    """``read_repo_bytes`` decoded (invalid UTF-8 replaced unless ``errors`` says otherwise), with
    universal newlines as ``Path.read_text`` gives them."""
    text = read_repo_bytes(path, root, limit).decode(encoding, errors)
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def read_state_bytes(path: str | os.PathLike, limit: int = STATE_FILE_LIMIT) -> bytes:
    """A state file's bytes: the file itself, never a symlink's target, and bounded."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise RefusedFile(path, f"{_kind(info.st_mode)}, not a regular file; not read")
        if info.st_size > limit:
            raise RefusedFile(path, f"too large ({info.st_size} bytes); not read", errno.EFBIG)
        os.set_blocking(fd, True)
        return _read_all(fd, limit)
    finally:
        os.close(fd)


def _read_all(fd: int, limit: int) -> bytes:
    chunks, size = [], 0
    while size < limit:
        chunk = os.read(fd, min(1 << 20, limit - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def check_state_root(root: str | os.PathLike, tighten: bool = True) -> None:
    """RefusedFile unless ``root`` is a real directory (not a symlink) owned by this user that no
    one else can write: the one line says what to do. One that others can only read (made by a
    cc-hooks before every state directory was created 0700) is made 0700 here."""
    info = os.lstat(root)
    if stat.S_ISLNK(info.st_mode) or not stat.S_ISDIR(info.st_mode):
        raise RefusedFile(root, "the cc-hooks state directory is not a directory (a symlink?); not written — move it away")
    if info.st_uid != os.geteuid():
        raise RefusedFile(root, f"the cc-hooks state directory belongs to uid {info.st_uid}, not you; not written — move it away")
    if info.st_mode & 0o022:
        raise RefusedFile(root, f"the cc-hooks state directory is mode {stat.S_IMODE(info.st_mode):04o}, writable by others; "
                                f"not written — check its content, then `chmod 700 {os.fspath(root)}`")
    if info.st_mode & 0o077 and tighten:
        os.chmod(root, 0o700)


_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)


def _descend(fd: int, parts: list[str], make_dir, refuse) -> int | None:
    """The directory reached from the open directory ``fd`` (consumed) through ``parts``, each one
    opened ``O_NOFOLLOW`` relative to its parent: no symlink at any level is followed.
    ``make_dir(name, parent_fd)`` creates a missing part; without it a missing part ends the walk
    (None). ``refuse(index, parent_fd)`` is the exception for a part that is a symlink or not a
    directory."""
    try:
        for index, part in enumerate(parts):
            if make_dir is not None:
                try:
                    make_dir(part, fd)
                except FileExistsError:
                    pass
            try:
                child = os.open(part, _DIR_FLAGS, dir_fd=fd)
            except FileNotFoundError:
                if make_dir is not None:
                    raise
                os.close(fd)
                return None
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise refuse(index, fd) from None
                raise
            os.close(fd)
            fd = child
    except BaseException:
        os.close(fd)
        raise
    return fd


def _private_dir(name: str, parent: int) -> None:
    os.mkdir(name, 0o700, dir_fd=parent)
    os.chmod(name, 0o700, dir_fd=parent)  # the umask may have removed bits, never added: make it exact


def state_parent(root: str | os.PathLike, path: str | os.PathLike, check_root: bool = True) -> int:
    """An open directory fd for ``path``'s parent, reached from ``root`` through real directories
    only (each one created 0700 when missing): no symlink at any level is followed."""
    root, path = os.path.abspath(root), os.path.abspath(path)
    rel = os.path.relpath(os.path.dirname(path), root)
    if rel.startswith(".."):
        raise RefusedFile(path, f"not inside the state directory {root}; not written")
    if check_root:
        check_state_root(root)
    parts = [] if rel == "." else rel.split(os.sep)

    def refuse(index: int, _parent: int) -> RefusedFile:
        return RefusedFile(path, f"{parts[index]!r} in the state directory is a symlink or not a directory; not written")

    return _descend(os.open(root, _DIR_FLAGS), parts, _private_dir, refuse)


def _replace_in(parent: int, name: str, data: bytes, create_mode: int, mode: int | None, durable: bool) -> None:
    """Write ``data`` to a temporary file created ``O_EXCL|O_NOFOLLOW`` in the directory ``parent``
    (``create_mode`` less the umask, then exactly ``mode`` when given) and rename it over ``name``:
    whatever ``name`` was, a symlink included, is replaced, never written through."""
    tmp = f".{name}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0), create_mode,
                 dir_fd=parent)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            if mode is not None:
                os.fchmod(fd, mode)
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, name, src_dir_fd=parent, dst_dir_fd=parent)
    except BaseException:
        try:
            os.unlink(tmp, dir_fd=parent)
        except OSError:
            pass
        raise
    if durable:
        try:
            os.fsync(parent)
        except OSError:
            pass
    _remove_stale_temps(parent)


def write_state_bytes(root: str | os.PathLike, path: str | os.PathLike, data: bytes, check_root: bool = True,
                      durable: bool = True) -> None:
    """Atomically write a private state file (0600) under the state directory ``root``; ``durable``
    also fsyncs the file and its directory (a cache entry can do without)."""
    parent = state_parent(root, path, check_root)
    try:
        _replace_in(parent, os.path.basename(path), data, 0o600, 0o600, durable)
    finally:
        os.close(parent)


# --- repository files: written through no symlink, inside the work tree -----------------------------


def _repo_parts(root: str, path: str | os.PathLike) -> tuple[str, list[str]]:
    """(``path`` as the messages show it, its components below ``root``); RefusedFile when it leads
    outside the work tree (``..``, an absolute path elsewhere) or into a git directory."""
    given = os.fspath(path)
    full = os.path.normpath(os.path.join(root, given))  # an absolute ``given`` replaces ``root``
    rel = os.path.relpath(full, root)
    from_root = not os.path.isabs(given) or given.startswith(root.rstrip(os.sep) + os.sep)
    shown = rel.replace(os.sep, "/") if from_root else full
    if rel == "." or rel == ".." or rel.startswith(".." + os.sep):
        raise RefusedFile(given, f"refusing to write {shown}: the path leads outside the work tree {root}")
    parts = rel.split(os.sep)
    if any(part.casefold() == ".git" for part in parts):
        raise RefusedFile(given, f"refusing to write {shown}: it is inside the git directory, not the work tree")
    return shown, parts


def _link_refusal(path: str, shown: str, parts: list[str], index: int, parent: int) -> OSError:
    """RefusedFile for a part that is a symlink; NotADirectoryError for a part that is some other file
    (a mistake, not a link to follow)."""
    from cc_hooks.printable import clean

    try:
        target = os.readlink(parts[index], dir_fd=parent)
    except OSError:
        return NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), path)
    name = "/".join(parts[: index + 1])
    return RefusedFile(path, f"refusing to write {shown}: {clean(name)} is a symbolic link to {clean(target)}")


def _repo_parent(path: str | os.PathLike, root: str | os.PathLike, create: bool) -> tuple[str, list[str], int | None]:
    """(shown, parts, an open fd of the parent directory) of a repository file, reached from ``root``
    through real directories only (created when missing if ``create``; else a missing one gives None)."""
    root = os.path.abspath(root)
    shown, parts = _repo_parts(root, path)
    given = os.fspath(path)

    def refuse(index: int, parent: int) -> OSError:
        return _link_refusal(given, shown, parts, index, parent)

    make_dir = (lambda name, parent: os.mkdir(name, 0o777, dir_fd=parent)) if create else None
    return shown, parts, _descend(os.open(root, os.O_RDONLY | os.O_DIRECTORY), parts[:-1], make_dir, refuse)


def _regular_file_mode(path: str | os.PathLike, shown: str, parts: list[str], parent: int) -> int | None:
    """The permission bits of the regular file at the last part, None when there is none;
    RefusedFile for a symlink (a dangling one too) or anything that is not a regular file."""
    try:
        info = os.stat(parts[-1], dir_fd=parent, follow_symlinks=False)
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(info.st_mode):
        raise _link_refusal(os.fspath(path), shown, parts, len(parts) - 1, parent)
    if not stat.S_ISREG(info.st_mode):
        from cc_hooks.printable import clean

        name = clean("/".join(parts))
        raise RefusedFile(path, f"refusing to write {shown}: {name} is {_kind(info.st_mode)}, not a regular file")
    return stat.S_IMODE(info.st_mode)


def write_repo_bytes(root: str | os.PathLike, path: str | os.PathLike, data: bytes, mode: int | None = None) -> None:
    """Atomically write a file of the work tree at ``root`` (``path``: absolute, or relative to
    ``root``), creating missing directories; the file keeps its permission bits unless ``mode``
    says otherwise (a new one gets 0666 less the umask).

    RefusedFile (its message one line naming the path and the link) when a directory on the way or
    the name itself is a symlink, dangling or not, when the name is not a regular file, or when the
    path leads outside the work tree or into ``.git``: a repository's links must not make cc-hooks
    write the user's files. A plain file on the way is NotADirectoryError."""
    shown, parts, parent = _repo_parent(path, root, create=True)
    try:
        current = _regular_file_mode(path, shown, parts, parent)
        _replace_in(parent, parts[-1], data, 0o666, current if mode is None else mode, durable=True)
    finally:
        os.close(parent)


def write_repo_text(root: str | os.PathLike, path: str | os.PathLike, text: str, mode: int | None = None) -> None:
    write_repo_bytes(root, path, text.encode("utf-8", errors="surrogateescape"), mode)


def check_repo_path(root: str | os.PathLike, path: str | os.PathLike) -> None:
    """RefusedFile when ``write_repo_bytes(root, path, ...)`` would be refused; creates nothing
    (a command checks every file it will write before it writes the first)."""
    shown, parts, parent = _repo_parent(path, root, create=False)
    if parent is not None:
        try:
            _regular_file_mode(path, shown, parts, parent)
        finally:
            os.close(parent)


def remove_repo_file(root: str | os.PathLike, path: str | os.PathLike) -> None:
    """Unlink a regular file of the work tree, reached through no symlink (``write_repo_bytes``'s
    rules); FileNotFoundError when it is not there."""
    shown, parts, parent = _repo_parent(path, root, create=False)
    if parent is None:
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), os.fspath(path))
    try:
        if _regular_file_mode(path, shown, parts, parent) is None:
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), os.fspath(path))
        os.unlink(parts[-1], dir_fd=parent)
    finally:
        os.close(parent)


def append_state_line(root: str | os.PathLike, path: str | os.PathLike, data: bytes) -> None:
    """Append to a private state file (the hook log), creating it 0600; never through a symlink."""
    parent = state_parent(root, path)
    try:
        fd = os.open(os.path.basename(path), os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW | os.O_NONBLOCK
                     | getattr(os, "O_CLOEXEC", 0), 0o600, dir_fd=parent)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise RefusedFile(path, "is a symlink; not written") from None
        raise
    finally:
        os.close(parent)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise RefusedFile(path, "not a regular file; not written")
        os.write(fd, data)
    finally:
        os.close(fd)


def atomic_write_bytes(path: str | os.PathLike, data: bytes, mode: int | None = None) -> None:
    target = Path(os.path.realpath(path))
    if mode is None:
        try:
            mode = target.stat().st_mode & 0o7777
        except FileNotFoundError:
            mode = None
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    _fsync_dir(target.parent)
    _remove_stale_temps(target.parent)


def _remove_stale_temps(directory: Path | int) -> None:
    """Delete the temporary files that writers which are gone left in ``directory`` (a path, or an
    open fd) (a SIGKILL between the temp file and the rename, or a hook process that exited while
    its abandoned handler was writing; in a work tree ``git add -A`` would commit them). Only our
    own names are touched: ``.<name>.<pid>.<8 random characters>.tmp``."""
    try:
        entries = os.listdir(directory)
    except OSError:
        return
    dir_fd = directory if isinstance(directory, int) else None
    for name in entries:
        if not (name.startswith(".") and name.endswith(".tmp")):
            continue
        parts = name.rsplit(".", 3)  # ['.<name>', pid, random, 'tmp']
        if len(parts) != 4 or not parts[1].isdigit() or len(parts[2]) != 8:
            continue
        pid = int(parts[1])
        if pid == os.getpid() or process_alive(pid):
            continue
        try:
            os.unlink(name if dir_fd is not None else os.path.join(directory, name), dir_fd=dir_fd)
        except OSError:
            pass


def process_alive(pid: int) -> bool:
    """True while ``pid`` exists (also when it belongs to another user)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, owned by someone else
    return True


def atomic_write_text(path: str | os.PathLike, text: str, mode: int | None = None) -> None:
    atomic_write_bytes(path, text.encode("utf-8"), mode)


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
