"""The thin layer over git that everything else uses.

Two doors: ``open_repo`` gives a GitPython ``Repo`` for commands that walk
history; ``run_git`` runs one git process (argv, never a shell) with a timeout,
for the batched plumbing calls the hooks make (``cat-file --batch-check``,
``for-each-ref``, ``log``). GitPython is imported only when a Repo is opened.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Optional

GIT_ENV = {"LC_ALL": "C", "GIT_OPTIONAL_LOCKS": "0", "GIT_TERMINAL_PROMPT": "0", "GIT_PAGER": "cat"}


class GitError(Exception):
    """git is missing, failed, or took too long; the message says which."""


class GitTimeout(GitError):
    pass


def git_available() -> bool:
    return shutil.which("git") is not None


def check_not_abandoned() -> None:
    """GitTimeout once the hook runtime gave up on the handler that wants to run git."""
    from cc_hooks import runtime

    if runtime.abandoned():
        raise GitTimeout("the hook's time budget ran out; git not started")


def work_tree_root(path: str | os.PathLike) -> Optional[Path]:
    """The top of the work tree containing ``path``, found without spawning git."""
    start = Path(os.path.abspath(path))
    for directory in (start, *start.parents):
        if (directory / ".git").exists():
            return directory
    return None


def run_git(
    root: str | os.PathLike,
    *args: str,
    input: Optional[str] = None,
    timeout: Optional[float] = 30.0,
    check: bool = True,
) -> str:
    """stdout of ``git -C root args...``; raises GitError on failure when ``check``."""
    proc = _run(root, args, input.encode("utf-8", "replace") if input is not None else None, timeout, None)
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


def _run(root, args: tuple, stdin: Optional[bytes], timeout: Optional[float], env: Optional[dict]) -> subprocess.CompletedProcess:
    if not git_available():
        raise GitError("git is not installed (not found on PATH)")
    check_not_abandoned()
    if env is None:  # a command the hook may have started early (cc_hooks.prefetch)
        from cc_hooks import prefetch

        running = prefetch.take(root, args, stdin)
        if running is not None:
            proc = prefetch.wait(running, timeout)
            if proc is None:
                raise GitTimeout(f"git {args[0] if args else ''} took longer than {timeout:.1f}s")
            return proc
    try:
        return subprocess.run(
            ["git", "-C", str(root), *args],
            **({"input": stdin} if stdin is not None else {"stdin": subprocess.DEVNULL}),
            capture_output=True,
            timeout=timeout,
            env={**os.environ, **GIT_ENV, **(env or {})},
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


def open_repo(path: str | os.PathLike):
    """A GitPython Repo for the repository containing ``path``; GitError if none."""
    import git  # lazy: GitPython costs ~100 ms to import

    try:
        return git.Repo(path, search_parent_directories=True)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError) as exc:
        raise GitError(f"{path} is not inside a git repository") from exc
    except git.GitCommandNotFound as exc:
        raise GitError("git is not installed (not found on PATH)") from exc


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
