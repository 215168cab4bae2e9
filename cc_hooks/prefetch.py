"""Start a hook's git processes while its imports still run.

A hook spends its first ~100 ms importing pydantic on one core while git could
run on another. So the runtime remembers which git commands the last run of an
event issued in this work tree (arguments and stdin, per event, in the state
directory) and starts the same commands as soon as the next payload is read.
When the handler later runs the very same command, ``cc_hooks.git`` takes that
process's answer instead of starting another; anything else runs as usual.

Only the timing changes: every answer comes from a process of this run, started
a few tens of milliseconds before it is asked for (these hooks write only to the
state directory, never to the work tree, the index or the refs, so nothing the
hook does in between can change the answer). A command nobody asks for again is
killed at the end. UserPromptSubmit, which must stay a ``stat()``, never prefetches.

The list is replayed only when it is exactly what this code wrote for this work tree: it
carries an HMAC keyed by a per-user secret outside every repository
(``~/.config/cc-hooks/prefetch.key``), and is read only from a regular file of the user's,
never through a symlink. A list planted in the state directory (a repository received as
an archive with its ``.git``) is ignored, whatever it holds; and every process starts
through ``cc_hooks.git.command``, so no repository-configured program runs either way.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import subprocess
import threading
from typing import Optional

EVENTS = ("SessionStart", "PreCompact", "PostCompact")
MAX_COMMANDS = 24
MAX_INPUT_BYTES = 64 * 1024
FILE = "prefetch-{event}.json"
MAX_FILE_BYTES = MAX_COMMANDS * (MAX_INPUT_BYTES + 8192)
KEY_FILE = "prefetch.key"
# Commands that only read: the learned list lives in the state dir, and nothing else is started from it.
READ_ONLY = frozenset("cat-file check-ignore diff diff-tree for-each-ref grep log ls-files ls-tree merge-base rev-list "
                      "rev-parse show status".split())
GLOBAL_OPTIONS = frozenset({"--literal-pathspecs", "--no-pager"})
# Options that write a file or run a program; git takes any unambiguous prefix of a long option
# (``--open=`` is ``--open-files-in-pager``), so a prefix of one of these is refused as well.
WRITING_OPTIONS = ("--output", "--output-directory", "--open-files-in-pager", "--ext-diff", "--textconv",
                   "--exec", "--upload-pack", "--receive-pack", "--config-env")
WRITING_SHORT = "O"  # grep -O<pager>

Key = tuple  # (root, args, stdin bytes or None)


class _Running:
    """A started git: its stdin is written now (what the pipe takes without blocking), and its
    output is read when the handler asks for it: no thread competes with the imports meanwhile."""

    def __init__(self, argv: list[str], stdin: Optional[bytes], env: dict):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        self.rest: Optional[bytes] = None
        if stdin is not None:
            self._feed(stdin)

    def _feed(self, data: bytes) -> None:
        handle = self.proc.stdin
        os.set_blocking(handle.fileno(), False)
        try:
            written = os.write(handle.fileno(), data) if data else 0
        except BlockingIOError:
            written = 0
        except BrokenPipeError:  # git exited early; its answer says why
            written = len(data)
        if written < len(data):
            self.rest = data[written:]  # communicate() writes the rest when the answer is wanted
            return
        handle.close()
        self.proc.stdin = None

    def kill(self) -> None:
        if self.proc.poll() is None:
            try:
                self.proc.kill()
            except OSError:
                pass


class _Session:
    """The prefetch of one hook run: what was started, what the handler ran."""

    def __init__(self, event: str, root: str, store: str, learned: list):
        self.event, self.root, self.store, self.learned = event, root, store, learned
        self.running: dict[Key, _Running] = {}  # started and not yet taken
        self.started: list[_Running] = []
        self.journal: list[dict] = []
        self.hits = 0
        self.spawner: Optional[threading.Thread] = None

    def spawn(self) -> None:
        """Start every learned command. Runs in a thread of its own: each start waits ~1 ms for git's
        exec, with the GIL released, while the main thread imports."""
        from cc_hooks import git

        try:
            env = git.environment(git.bounded_history(self.root))
            for entry in self.learned:
                stdin = entry["stdin"].encode("latin-1") if entry["stdin"] is not None else None
                key = (self.root, tuple(entry["args"]), stdin)
                if key not in self.running:
                    running = _Running(git.command(self.root, entry["args"]), stdin, env)
                    self.running[key] = running
                    self.started.append(running)
        except Exception:  # no git, no processes left: what started is used, the rest runs as usual
            pass

    def spawned(self) -> None:
        """Wait until every learned command is started (long done by the time the handler asks)."""
        if self.spawner is not None:
            self.spawner.join()
            self.spawner = None

    def record(self, key: Key) -> None:
        root, args, stdin = key
        if (root == self.root and len(self.journal) < MAX_COMMANDS and reads_only(args)
                and (stdin is None or len(stdin) <= MAX_INPUT_BYTES)):
            entry = {"args": list(args), "stdin": stdin.decode("latin-1") if stdin is not None else None}
            if entry not in self.journal:
                self.journal.append(entry)


_session: Optional[_Session] = None


def start(event: str, cwd: str) -> None:
    """Start the git commands the last ``event`` in this work tree ran. Never raises."""
    global _session
    if event not in EVENTS:
        return
    try:
        from cc_hooks import git
        from cc_hooks.state import STATE_DIR_NAME, common_dir_path

        top, common = git.work_tree_root(cwd), common_dir_path(cwd)
        if top is None or common is None:
            return
        root = str(top)
        store = os.path.join(common, STATE_DIR_NAME, FILE.format(event=event))
        session = _Session(event, root, store, _load(store, root))
        if session.learned:
            session.spawner = threading.Thread(target=session.spawn, name="cc-hooks-prefetch", daemon=True)
            session.spawner.start()
        _session = session
        git.set_early_answers(answer)
    except Exception:  # prefetching is only ever a speed-up
        _session = None


def answer(root, args: tuple, stdin: Optional[bytes], timeout: Optional[float]) -> Optional[subprocess.CompletedProcess]:
    """What ``cc_hooks.git`` asks before it starts a process: the finished prefetched process for
    exactly this command, or None (start it)."""
    running = take(root, args, stdin)
    if running is None:
        return None
    proc = wait(running, timeout)
    if proc is None:
        from cc_hooks.git import GitTimeout

        raise GitTimeout(f"git {args[0] if args else ''} took longer than {timeout:.1f}s")
    return proc


def take(root, args: tuple, stdin: Optional[bytes]) -> Optional[_Running]:
    """The prefetched ``git -C root args`` with this stdin (``wait`` gives its answer), or None
    when there is none (run it). Every call is remembered for the next run's prefetch."""
    session = _session
    if session is None:
        return None
    key = (os.path.abspath(os.fspath(root)), tuple(args), stdin)
    session.record(key)
    session.spawned()
    running = session.running.pop(key, None)
    if running is None:
        return None
    session.hits += 1
    return running


def wait(running: _Running, timeout: Optional[float]) -> Optional[subprocess.CompletedProcess]:
    """The finished process, or None after ``timeout`` seconds (the process is killed)."""
    try:
        out, err = running.proc.communicate(running.rest, timeout=timeout)
    except subprocess.TimeoutExpired:
        running.kill()
        return None
    return subprocess.CompletedProcess(running.proc.args, running.proc.returncode, out, err)


def finish() -> Optional[dict]:
    """Kill every prefetched git still running (unused, or taken by a handler the runtime gave up
    on), and remember what the handler ran for the next run. Returns counts (for tests)."""
    global _session
    session, _session = _session, None
    if session is None:
        return None
    from cc_hooks import git

    git.set_early_answers(None)
    session.spawned()
    for running in session.started:
        running.kill()
    for running in session.running.values():  # never taken: reap them and close their pipes
        try:
            running.proc.communicate(timeout=1.0)
        except (subprocess.TimeoutExpired, OSError, ValueError):
            pass
    if session.journal and session.journal != session.learned:
        _save(session.store, session.root, session.journal)
    return {"started": len(session.started), "hits": session.hits, "unused": len(session.running)}


def remember() -> None:
    """Only remember what the handler ran, without waiting for or reaping anything: for the isolated
    child, whose process group is killed right after (cc_hooks.isolation)."""
    session = _session
    if session is not None and session.journal and session.journal != session.learned:
        _save(session.store, session.root, session.journal)


def reads_only(args) -> bool:
    """``args`` run a read-only git subcommand (after at most the harmless global options)."""
    rest = list(args)
    while rest and rest[0] in GLOBAL_OPTIONS:
        rest.pop(0)
    return bool(rest) and rest[0] in READ_ONLY and not any(_writes(a) for a in rest[1:])


def _writes(arg: str) -> bool:
    if arg.startswith("--"):
        name = arg.split("=", 1)[0]
        return len(name) > 2 and any(option.startswith(name) for option in WRITING_OPTIONS)
    return arg.startswith("-") and WRITING_SHORT in arg[1:]


def _load(store: str, root: str) -> list:
    """The list this code saved for ``root``, or [] for anything else (absent, planted, forged,
    another work tree's, corrupt)."""
    data = _read_own_file(store)
    key = user_key(create=False)
    if not isinstance(data, dict) or key is None or not isinstance(data.get("mac"), str) or not data["mac"].isascii():
        return []
    body = {"root": data.get("root"), "commands": data.get("commands")}
    if body["root"] != root or not hmac.compare_digest(data["mac"], _mac(key, body)):
        return []
    good = []
    for entry in body["commands"][:MAX_COMMANDS] if isinstance(body["commands"], list) else []:
        if (isinstance(entry, dict) and isinstance(entry.get("args"), list)
                and all(isinstance(a, str) and "\0" not in a for a in entry["args"]) and reads_only(entry["args"])
                and (entry.get("stdin") is None or isinstance(entry.get("stdin"), str))):
            good.append({"args": entry["args"], "stdin": entry.get("stdin")})
    return good


def _read_own_file(path: str):
    """The JSON in ``path`` when it is a regular file of this user's, opened without following a
    symlink and read within ``MAX_FILE_BYTES``; None otherwise."""
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid() or info.st_size > MAX_FILE_BYTES:
            return None
        raw = os.read(fd, MAX_FILE_BYTES + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    try:
        return json.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None


def _mac(key: bytes, body: dict) -> str:
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hmac.new(key, canonical.encode("ascii"), hashlib.sha256).hexdigest()


def key_path() -> str:
    base = os.environ.get("XDG_CONFIG_HOME") or ""
    root = base if os.path.isabs(base) else os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(root, "cc-hooks", KEY_FILE)


def user_key(create: bool) -> Optional[bytes]:
    """This user's prefetch secret (32 random bytes, 0600, in a 0700 directory of theirs); made on
    first use when ``create``. None when it cannot be read or made: prefetching then stays off."""
    import stat

    path = key_path()
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except FileNotFoundError:
        return _make_key(path) if create else None
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid() or info.st_mode & 0o077:
            return None
        key = os.read(fd, 64)
    except OSError:
        return None
    finally:
        os.close(fd)
    return key if len(key) == 32 else None


def _make_key(path: str) -> Optional[bytes]:
    """Write the key whole under a private name, then link it in place: a hook racing this one
    sees no key or the whole key, and the first link wins."""
    key = os.urandom(32)
    temp = f"{path}.{os.getpid()}-{os.urandom(4).hex()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        try:
            os.write(fd, key)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.link(temp, path)
    except FileExistsError:  # another hook made it first
        return user_key(create=False)
    except OSError:
        return None
    finally:
        try:
            os.unlink(temp)
        except OSError:
            pass
    return key


def _save(store: str, root: str, commands: list) -> None:
    from pathlib import Path

    from cc_hooks.state import write_json

    key = user_key(create=True)
    if key is None:
        return
    body = {"root": root, "commands": commands}
    try:
        write_json(Path(store), {**body, "mac": _mac(key, body)})
    except (OSError, ValueError):
        pass  # a read-only or full state dir only costs the speed-up
