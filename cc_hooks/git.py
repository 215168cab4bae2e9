"""The thin layer over git that everything else uses.

Every git process cc-hooks starts is built here (``command``, ``environment``): one
process per call (argv, never a shell) with a timeout, for the batched plumbing calls
the hooks make (``cat-file --batch-check``, ``for-each-ref``, ``log``). None of them can
run a program the repository configures (fsmonitor, hooks, filters, diff drivers,
signature programs, pagers, transports...): a clone received as an archive with its
``.git`` is as inert as its files (docs/security.md). Nothing here imports another
cc_hooks module; the runtime and the prefetch plug in with ``set_gate`` and
``set_early_answers``.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Optional, Sequence

# The environment of every git process. GIT_ALLOW_PROTOCOL (empty: no transport at all) takes
# precedence over every protocol.* setting, so no configured transport program can run, not even
# through a lazy fetch of a partial clone (docs/security.md, "Git runs no repository program").
GIT_ENV = {"LC_ALL": "C", "GIT_OPTIONAL_LOCKS": "0", "GIT_TERMINAL_PROMPT": "0", "GIT_PAGER": "cat",
           "GIT_ALLOW_PROTOCOL": "", "GIT_NO_REPLACE_OBJECTS": "1", "GIT_EDITOR": "false", "GIT_SEQUENCE_EDITOR": "false"}

# Settings that name a program git may run, given on every command line (``-c`` beats every file,
# the repository's own .git/config included). Values are inert: empty disables, ``false`` fails fast.
NO_PROGRAMS = (
    ("core.fsmonitor", "false"), ("core.hooksPath", os.devnull), ("core.pager", "cat"),
    ("core.editor", "false"), ("sequence.editor", "false"), ("core.sshCommand", "false"), ("core.askPass", ""),
    ("core.gitProxy", ""), ("core.alternateRefsCommand", ""), ("diff.external", ""), ("credential.helper", ""),
    ("gpg.program", "false"), ("gpg.openpgp.program", "false"), ("gpg.x509.program", "false"),
    ("gpg.ssh.program", "false"), ("gpg.ssh.defaultKeyCommand", ""), ("log.showSignature", "false"),
    ("protocol.allow", "never"), ("submodule.recurse", "false"), ("gc.auto", "0"), ("maintenance.auto", "false"),
)
# Settings whose section names a driver, tool or remote the repository defines: each one the
# repository's configuration sets (its names are read with `git config`) is given an inert value.
NAMED_PROGRAMS = {
    "filter": {"clean": "", "smudge": "", "process": "", "required": "false"},
    "diff": {"command": "", "textconv": ""},
    "merge": {"driver": ""},
    "trailer": {"cmd": "", "command": ""},
    "credential": {"helper": ""},
    "pager": None,  # pager.<command> = false
    "protocol": {"allow": "never"},
    "remote": {"uploadpack": "git-upload-pack", "receivepack": "git-receive-pack", "vcs": "", "proxy": ""},
    "tar": {"command": ""},
    "difftool": {"cmd": ""}, "mergetool": {"cmd": ""}, "browser": {"cmd": ""}, "man": {"cmd": ""},
    "guitool": {"cmd": ""}, "sendemail": {"smtpserver": "", "tocmd": "", "cccmd": "", "headercmd": ""},
}
# Options that keep a diff, log or status from running a driver or reaching into a submodule's own
# (unread) configuration; inserted right after the subcommand.
COMMAND_FLAGS = {
    "diff": ("--no-ext-diff", "--no-textconv", "--ignore-submodules=dirty"),
    "diff-index": ("--no-ext-diff", "--no-textconv", "--ignore-submodules=dirty"),
    "diff-files": ("--no-ext-diff", "--no-textconv", "--ignore-submodules=dirty"),
    "diff-tree": ("--no-ext-diff", "--no-textconv"),
    "log": ("--no-ext-diff", "--no-textconv", "--no-show-signature"),
    "show": ("--no-ext-diff", "--no-textconv", "--no-show-signature"),
    "whatchanged": ("--no-ext-diff", "--no-textconv", "--no-show-signature"),
    "status": ("--ignore-submodules=dirty",),
    "grep": ("--no-textconv",),
    "blame": ("--no-textconv",),
}
# Configuration the user wrote (machine-wide, their own, or this process's command line) is theirs;
# everything else (local, worktree, files those include) came with the repository.
USER_SCOPES = frozenset({"system", "global", "command"})


class GitError(Exception):
    """git is missing, failed, or took too long; the message says which."""


class GitTimeout(GitError):
    pass


# Who else has a say before a git process starts (set by the layers above, so this module imports
# none of them): ``may_start()`` is False in a handler the hook runtime gave up on; ``early(root,
# args, stdin, timeout)`` is the answer of a process cc_hooks.prefetch started earlier, or None.
_may_start: Optional[Callable[[], bool]] = None
_early: Optional[Callable] = None


def set_gate(may_start: Optional[Callable[[], bool]]) -> None:
    global _may_start
    _may_start = may_start


def set_early_answers(early: Optional[Callable]) -> None:
    global _early
    _early = early


def git_available() -> bool:
    return shutil.which("git") is not None


def check_not_abandoned() -> None:
    """GitTimeout once the hook runtime gave up on the handler that wants to run git."""
    if _may_start is not None and not _may_start():
        raise GitTimeout("the hook's time budget ran out; git not started")


def work_tree_root(path: str | os.PathLike) -> Optional[Path]:
    """The top of the work tree containing ``path``, found without spawning git."""
    start = Path(os.path.abspath(path))
    for directory in (start, *start.parents):
        if (directory / ".git").exists():
            return directory
    return None


def command(root: str | os.PathLike, args: Sequence[str], timeout: Optional[float] = 10.0,
            _keep: tuple = ()) -> list[str]:
    """The argv of ``git -C root args``, as every git process of cc-hooks is started: no program the
    repository configures can run (``NO_PROGRAMS``, ``NAMED_PROGRAMS``, ``COMMAND_FLAGS``)."""
    root = os.fspath(root)
    settings = [(k, v) for k, v in (*NO_PROGRAMS, *_named_overrides(root, timeout)) if k not in _keep]
    overrides = [item for key, value in settings for item in ("-c", f"{key}={value}")]
    return ["git", "--no-pager", "-C", root, *overrides, *with_flags(args)]


def hooks_path(root: str | os.PathLike, timeout: Optional[float] = 10.0) -> str:
    """Where git itself would look for the repository's hooks (``git rev-parse --git-path hooks``
    under the repository's own ``core.hooksPath``): for installing one, never for running it.
    ``rev-parse`` runs no hook, so this is the one command that keeps that setting."""
    check_not_abandoned()
    try:
        proc = subprocess.run(command(root, ("rev-parse", "--git-path", "hooks"), timeout, _keep=("core.hooksPath",)),
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout, env=environment())
    except subprocess.TimeoutExpired as exc:
        raise GitTimeout(f"git rev-parse took longer than {timeout:.1f}s") from exc
    except OSError as exc:
        raise GitError(f"cannot run git: {exc}") from exc
    if proc.returncode != 0:
        raise GitError(f"git rev-parse --git-path hooks failed: {(_text(proc.stderr).strip().splitlines() or ['?'])[0]}")
    return _text(proc.stdout).strip()


def asked(argv: Sequence[str]) -> list[str]:
    """What a caller asked ``command`` for, read back from the argv it built (for tests and logs):
    without the program, ``--no-pager -C root``, the leading ``-c`` overrides and the inserted flags."""
    rest = list(argv[1:])
    if rest[:1] == ["--no-pager"]:
        rest = rest[1:]
    if rest[:1] == ["-C"]:
        rest = rest[2:]
    while rest[:1] == ["-c"]:
        rest = rest[2:]
    at = subcommand_index(rest)
    if at is not None:
        flags = COMMAND_FLAGS.get(rest[at], ())
        if tuple(rest[at + 1 : at + 1 + len(flags)]) == flags:
            rest = rest[: at + 1] + rest[at + 1 + len(flags) :]
    return rest


def environment(extra: Optional[dict] = None) -> dict:
    return {**os.environ, **GIT_ENV, **(extra or {})}


def bounded_history(root) -> Optional[dict]:
    """``{"GIT_GRAFT_FILE": os.devnull}`` when ``root``'s grafts file is not a regular file: git reads
    a grafts file linked to ``/dev/zero`` without end (one line, never finished) while it walks
    history. A real grafts file is a regular one and stays in force."""
    try:
        mode = os.stat(os.path.join(root, ".git", "info", "grafts")).st_mode
    except (OSError, TypeError, ValueError):
        return None
    return None if stat.S_ISREG(mode) else {"GIT_GRAFT_FILE": os.devnull}


def with_flags(args: Sequence[str]) -> list[str]:
    """``args`` with the subcommand's ``COMMAND_FLAGS`` inserted right after it."""
    args = list(args)
    at = subcommand_index(args)
    if at is None:
        return args
    return [*args[: at + 1], *COMMAND_FLAGS.get(args[at], ()), *args[at + 1 :]]


def subcommand_index(args: Sequence[str]) -> Optional[int]:
    """Where the subcommand is in ``args`` (after global options such as ``-c k=v``), or None."""
    at = 0
    while at < len(args):
        arg = args[at]
        if arg in ("-c", "-C", "--git-dir", "--work-tree", "--namespace", "--config-env"):
            at += 2
        elif arg.startswith("-"):
            at += 1
        else:
            return at
    return None


_named: dict = {}
_named_lock = threading.Lock()


def _named_overrides(root: str, timeout: Optional[float]) -> list[tuple[str, str]]:
    """``NAMED_PROGRAMS`` overrides for the names the repository's configuration defines; read once
    per repository and configuration file (one ``git config`` of ~2 ms). A configuration git cannot
    read fails the command: an unread driver name could not be neutralized."""
    key = (os.path.abspath(root), _config_stamp(root))
    with _named_lock:
        if key not in _named:
            _named[key] = _read_named(root, timeout)
        return _named[key]


def _config_stamp(root: str) -> tuple:
    """The size and mtime of the files the repository's configuration most likely changed in."""
    stamp = []
    for name in (os.path.join(root, ".git", "config"), os.path.join(root, "config")):
        try:
            info = os.stat(name)
            stamp.append((info.st_size, info.st_mtime_ns))
        except OSError:
            stamp.append(None)
    return tuple(stamp)


def _read_named(root: str, timeout: Optional[float]) -> list[tuple[str, str]]:
    if not os.path.isdir(root):
        return []  # the command itself will say so
    check_not_abandoned()
    fixed = [item for key, value in NO_PROGRAMS for item in ("-c", f"{key}={value}")]
    listing = ["config", "--list", "--show-scope", "--name-only", "-z"]
    proc = _list_config(["git", "--no-pager", "-C", root, *fixed, *listing], timeout)
    if proc.returncode != 0 and b"show-scope" in proc.stderr:  # git < 2.26: every name counts as the repository's
        proc = _list_config(["git", "--no-pager", "-C", root, *fixed, *[a for a in listing if a != "--show-scope"]], timeout)
        fields = [part for name in proc.stdout.split(b"\0") for part in (b"local", name)]
    else:
        fields = proc.stdout.split(b"\0")
    if proc.returncode != 0:
        message = _text(proc.stderr).strip().splitlines()
        raise GitError(f"git cannot read this repository's configuration: {message[0] if message else proc.returncode}")
    return named_overrides(fields)


def _list_config(argv: list[str], timeout: Optional[float]) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout, env=environment())
    except subprocess.TimeoutExpired as exc:
        raise GitTimeout(f"git config took longer than {timeout:.1f}s") from exc
    except OSError as exc:
        raise GitError(f"cannot run git: {exc}") from exc


def named_overrides(fields: Sequence[bytes]) -> list[tuple[str, str]]:
    """The inert values for every ``NAMED_PROGRAMS`` key in ``git config --list --show-scope
    --name-only -z`` output (scope, name, scope, name, ...) that is not the user's."""
    found: dict[str, str] = {}
    for scope, name in zip(fields[0::2], fields[1::2]):
        scope, name = scope.decode("utf-8", "replace"), name.decode("utf-8", "surrogateescape")
        if scope in USER_SCOPES:
            continue
        section, _, rest = name.partition(".")
        section = section.lower()
        if section not in NAMED_PROGRAMS or not rest:
            continue
        keys = NAMED_PROGRAMS[section]
        subsection, _, key = rest.rpartition(".")
        if "=" in rest:  # `-c` splits at the first "=": such a name cannot be given an inert value
            raise GitError(f"the repository's git configuration names a {section} program cc-hooks cannot "
                           f"neutralize ({name[:80]!r}): git not run")
        if keys is None:  # pager.<command>
            found[f"{section}.{rest}"] = "false"
        elif subsection:
            for inert_key, value in keys.items():
                found[f"{section}.{subsection}.{inert_key}"] = value
    return sorted(found.items())


def run_git(
    root: str | os.PathLike,
    *args: str,
    input: Optional[str] = None,
    timeout: Optional[float] = 30.0,
    check: bool = True,
    prefetch: bool = True,
) -> str:
    """stdout of ``git -C root args...``; raises GitError on failure when ``check``. ``prefetch=False``:
    a command whose answer is remembered (``cc_hooks.memo``), so that the next run will not ask it
    again: neither answered by nor taught to ``cc_hooks.prefetch``, which would start it for nothing."""
    proc = _run(root, args, input.encode("utf-8", "replace") if input is not None else None, timeout, None, prefetch)
    stdout = _text(proc.stdout)
    if check and proc.returncode != 0:
        message = (_text(proc.stderr) or stdout).strip().splitlines()
        raise GitError(f"git {' '.join(args[:2])} failed: {message[0] if message else f'exit {proc.returncode}'}")
    return stdout


def run_git_bytes(
    root: str | os.PathLike,
    *args: str,
    input: Optional[bytes] = None,
    env: Optional[dict] = None,
    timeout: Optional[float] = 30.0,
) -> subprocess.CompletedProcess:
    """``run_git`` for bytes: ``cat-file --batch`` frames objects by their size in BYTES, and a
    patch check needs a private index (``env={"GIT_INDEX_FILE": ...}``). The caller reads the
    return code of the finished process."""
    return _run(root, args, input, timeout, env)


def _run(root, args: tuple, stdin: Optional[bytes], timeout: Optional[float], env: Optional[dict],
         prefetch: bool = True) -> subprocess.CompletedProcess:
    if not git_available():
        raise GitError("git is not installed (not found on PATH)")
    check_not_abandoned()
    if env is None and prefetch and _early is not None:  # a command the hook may have started early (cc_hooks.prefetch)
        answer = _early(root, args, stdin, timeout)
        if answer is not None:
            return answer
    bounded = bounded_history(root)
    try:
        return subprocess.run(
            command(root, args, timeout),
            **({"input": stdin} if stdin is not None else {"stdin": subprocess.DEVNULL}),
            capture_output=True,
            timeout=timeout,
            env=environment({**bounded, **(env or {})} if bounded else env),
        )
    except subprocess.TimeoutExpired as exc:
        raise GitTimeout(f"git {args[0] if args else ''} took longer than {timeout:.1f}s") from exc
    except OSError as exc:
        raise GitError(f"cannot run git: {exc}") from exc


def _text(data: bytes) -> str:
    """What ``subprocess`` text mode makes of git's output: UTF-8 (bad bytes replaced), universal newlines."""
    return data.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n")


def config_fingerprint(common_dir: str | os.PathLike) -> bytes:
    """The bytes of every git configuration file a command in this repository reads (repository,
    global, XDG, system) and the environment variables that add or replace them: what a fact
    remembered from git's output must be keyed by when configuration can shape that output."""
    home = os.path.expanduser("~")
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    files = [os.path.join(common_dir, "config"), os.path.join(common_dir, "config.worktree"),
             os.environ.get("GIT_CONFIG_GLOBAL") or os.path.join(home, ".gitconfig"), os.path.join(xdg, "git", "config"),
             os.environ.get("GIT_CONFIG_SYSTEM") or "/etc/gitconfig"]
    parts = [f"{k}={v}" for k, v in sorted(os.environ.items()) if k.startswith("GIT_CONFIG")]
    for name in files:
        try:
            with open(name, "rb") as handle:
                parts.append(f"{name}:{handle.read().hex()}")
        except OSError:
            parts.append(f"{name}: absent")
    return "\n".join(parts).encode()


def cat_blobs(root: str | os.PathLike, names: Iterable[str], timeout: float = 30.0) -> dict[str, Optional[bytes]]:
    """One ``git cat-file --batch`` for all object names: name -> content (None when missing)."""
    names = list(dict.fromkeys(n for n in names if n and "\n" not in n))
    if not names:
        return {}
    proc = run_git_bytes(root, "cat-file", "--batch", input=("\n".join(names) + "\n").encode(), timeout=timeout)
    if proc.returncode != 0:
        raise GitError(f"git cat-file failed: {proc.stderr.decode(errors='replace').strip()[:200]}")
    out, pos, result = proc.stdout, 0, {}
    for name in names:
        end = out.find(b"\n", pos)
        if end < 0:
            break
        header = out[pos:end].split()
        pos = end + 1
        if len(header) != 3 or not header[2].isdigit():  # "<name> missing" / "ambiguous"
            result[name] = None
            continue
        size = int(header[2])
        result[name] = out[pos : pos + size]
        pos += size + 1  # the content is followed by a newline
    return result


@dataclass(frozen=True)
class Head:
    branch: Optional[str]  # None when detached
    sha: Optional[str]  # None before the first commit


def head(root: str | os.PathLike, timeout: float = 10.0) -> Head:
    out = run_git(root, "rev-parse", "HEAD", "--abbrev-ref", "HEAD", check=False, timeout=timeout)
    lines = out.rstrip("\n").split("\n")  # one line each: a branch name may hold any other whitespace (U+2003)
    if len(lines) == 2 and lines[0]:
        branch = None if lines[1] == "HEAD" else lines[1]
        return Head(branch, lines[0])
    # No commit: either an unborn branch (a fresh repo) or a HEAD git cannot read.
    branch = run_git(root, "symbolic-ref", "-q", "--short", "HEAD", check=False, timeout=timeout).rstrip("\n")
    if not branch:
        raise GitError("HEAD is neither a commit nor a branch (is .git/HEAD damaged?)")
    return Head(branch, None)


def object_types(root: str | os.PathLike, names: Iterable[str], timeout: float = 10.0) -> dict[str, Optional[str]]:
    """One ``cat-file --batch-check`` for all names: name -> (full sha, type) or None if missing."""
    names = list(dict.fromkeys(n for n in names if n and "\n" not in n))
    if not names:
        return {}
    out = run_git(root, "cat-file", "--batch-check=%(objectname) %(objecttype)", input="\n".join(names) + "\n", timeout=timeout)
    result: dict[str, Optional[str]] = {}
    for name, line in zip(names, out.splitlines()):
        parts = line.split()
        result[name] = None if line.endswith(" missing") or line.endswith(" ambiguous") or len(parts) != 2 else line
    return result


def tracked_files(root: str | os.PathLike, timeout: float = 10.0) -> set[str]:
    out = run_git(root, "ls-files", "-z", timeout=timeout)
    return {p for p in out.split("\0") if p}


def ignored(root: str | os.PathLike, paths: Iterable[str], timeout: float = 10.0) -> set[str]:
    """The subset of ``paths`` that .gitignore rules ignore (one process)."""
    paths = [p for p in paths if p and "\0" not in p]
    if not paths:
        return set()
    out = run_git(root, "check-ignore", "-z", "--no-index", "--stdin", input="\0".join(paths) + "\0", check=False, timeout=timeout)
    return {p for p in out.split("\0") if p}
