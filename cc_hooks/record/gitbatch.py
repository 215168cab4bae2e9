"""Byte-exact git plumbing the record needs and ``cc_hooks.git.run_git`` (text only) cannot do.

``cat-file --batch`` frames objects by their size in BYTES, so its output must
be read as bytes; a patch check needs a private index (``GIT_INDEX_FILE``).
Same rules as ``run_git``: argv only, never a shell, a timeout, GitError.
"""

from __future__ import annotations

import os
import subprocess
from typing import Iterable, Optional

from cc_hooks.git import GIT_ENV, GitError, GitTimeout, check_not_abandoned, git_available


def run_git_bytes(
    root: str | os.PathLike,
    *args: str,
    input: Optional[bytes] = None,
    env: Optional[dict] = None,
    timeout: Optional[float] = 30.0,
) -> subprocess.CompletedProcess:
    """The finished process (stdout bytes, stderr bytes); the caller reads the return code."""
    if not git_available():
        raise GitError("git is not installed (not found on PATH)")
    check_not_abandoned()
    try:
        return subprocess.run(
            ["git", "-C", str(root), *args],
            input=input,
            capture_output=True,
            timeout=timeout,
            env={**os.environ, **GIT_ENV, **(env or {})},
        )
    except subprocess.TimeoutExpired as exc:
        raise GitTimeout(f"git {args[0] if args else ''} took longer than {timeout:.1f}s") from exc
    except OSError as exc:
        raise GitError(f"cannot run git: {exc}") from exc


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
