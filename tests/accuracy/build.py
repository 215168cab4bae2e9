"""Deterministic corpus repositories: a spec of named commits, built with ``git fast-import``.

A ``Spec`` lists commits by a symbolic mark name ("views-fix"), each with its
branch, date, message and the files it writes, deletes or renames. ``build``
imports them into a bare "upstream" repository, then makes a real ``git clone``
of it, so every branch but the default one is remote-only, exactly as in a
fresh clone. Commits marked ``local`` are imported into the clone only
(unpushed work); ``after_clone`` steps then move HEAD and dirty the work tree.

Identity and dates are fixed, so the same spec always gives the same SHAs.
Text is resolved through placeholders (``BuiltRepo.resolve``):

- ``{sha:mark}`` 7 hex digits, ``{shaN:mark}`` N digits (N < 7 only when that
  prefix is unique among all objects of the clone and has a letter in it),
  ``{sha40:mark}`` the full sha;
- ``{amb4:mark}`` a 4-digit prefix of the commit that the builder made
  ambiguous on purpose (``Spec.ambiguous``: a second commit with the same prefix);
- ``{nosha4:seed}`` / ``{nosha:seed}`` a 4 / 7 digit hex prefix of no object at all;
- ``{line:path:needle}`` the line of the first line containing ``needle`` in
  ``path`` at HEAD, ``{nlines:path}`` the number of lines of ``path`` at HEAD.
"""

from __future__ import annotations

import datetime
import hashlib
import os
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional, Union

AUTHOR = "Dana Corpus <dana@corpus.invalid>"
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Dana Corpus",
    "GIT_AUTHOR_EMAIL": "dana@corpus.invalid",
    "GIT_COMMITTER_NAME": "Dana Corpus",
    "GIT_COMMITTER_EMAIL": "dana@corpus.invalid",
    "GIT_AUTHOR_DATE": "2026-11-30T12:00:00+0000",
    "GIT_COMMITTER_DATE": "2026-11-30T12:00:00+0000",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_TERMINAL_PROMPT": "0",
}

Content = Union[str, Callable[[str], str]]  # new text, or a function of the old text


@dataclass
class CommitSpec:
    mark: str
    branch: str
    message: str
    date: str  # YYYY-MM-DD
    writes: dict[str, Optional[Content]]  # None deletes
    renames: list[tuple[str, str]]
    parent: Optional[str]  # mark; None: the branch's previous commit
    merge: Optional[str]
    local: bool
    seq: int


@dataclass
class Spec:
    name: str
    default_branch: str = "main"
    commits: list[CommitSpec] = field(default_factory=list)
    tags: list[tuple[str, str, str]] = field(default_factory=list)  # (name, mark, message)
    ambiguous: list[str] = field(default_factory=list)  # marks given a same-prefix twin
    after_clone: list[tuple] = field(default_factory=list)
    _tips: dict[str, str] = field(default_factory=dict)

    def commit(
        self,
        mark: str,
        message: str,
        date: str,
        branch: Optional[str] = None,
        writes: Optional[dict[str, Optional[Content]]] = None,
        renames: tuple = (),
        parent: Optional[str] = None,
        merge: Optional[str] = None,
        local: bool = False,
    ) -> str:
        if any(c.mark == mark for c in self.commits):
            raise ValueError(f"{self.name}: mark {mark} used twice")
        branch = branch or self.default_branch
        self.commits.append(
            CommitSpec(mark, branch, message, date, dict(writes or {}), list(renames), parent, merge, local, len(self.commits))
        )
        self._tips[branch] = mark
        return mark

    def tag(self, name: str, mark: str, message: str = "") -> None:
        self.tags.append((name, mark, message))

    def checkout(self, target: str, detach: bool = False) -> None:
        """After the clone: check out a branch (``target``) or a mark (detached)."""
        self.after_clone.append(("checkout", target, detach))

    def move_branch(self, branch: str, mark: str) -> None:
        """After the clone: point local ``branch`` at ``mark`` (for example behind its upstream)."""
        self.after_clone.append(("move", branch, mark))

    def track(self, branch: str, upstream: str) -> None:
        self.after_clone.append(("track", branch, upstream))

    def modify(self, path: str, content: Content, stage: bool = False) -> None:
        """After the clone: change the work tree (and the index when ``stage``)."""
        self.after_clone.append(("modify", path, content, stage))


@dataclass
class BuiltRepo:
    name: str
    path: Path  # the clone: where cases are checked
    upstream: Path
    shas: dict[str, str]  # mark -> full sha
    ambiguous: dict[str, str]  # mark -> the ambiguous 4-digit prefix
    _objects: Optional[list[str]] = None

    def git(self, *args: str, input: Optional[str] = None) -> str:
        return git(self.path, *args, input=input)

    def sha(self, mark: str, length: int = 7) -> str:
        if mark not in self.shas:
            raise KeyError(f"{self.name}: no commit marked {mark!r}")
        full = self.shas[mark]
        if length < 7 and not self.unique(full[:length]):
            raise ValueError(f"{self.name}: {full[:length]} ({mark}) is not a unique prefix")
        if length < 7 and full[:length].isdigit():
            # `2940` reads as a number as much as a commit: a corpus claim must not hinge on that.
            raise ValueError(f"{self.name}: {full[:length]} ({mark}) has no hex letter; pick another length or commit")
        return full[:length]

    def unique(self, prefix: str) -> bool:
        if self._objects is None:
            out = self.git("cat-file", "--batch-all-objects", "--batch-check=%(objectname)")
            self._objects = out.split()
        return sum(1 for o in self._objects if o.startswith(prefix)) == 1

    def absent(self, seed: str, length: int) -> str:
        """A hex prefix (with a letter in it) that no object of the clone starts with, derived from ``seed``."""
        self.unique("")
        for n in range(10000):
            prefix = hashlib.sha1(f"{seed}{n}".encode()).hexdigest()[:length]
            if re.search("[a-f]", prefix) and re.search("[0-9]", prefix) and not any(o.startswith(prefix) for o in self._objects):
                return prefix
        raise RuntimeError("no absent prefix")

    def head_text(self, path: str) -> str:
        return self.git("show", f"HEAD:{path}")

    def resolve(self, text: str) -> str:
        return _PLACEHOLDER_RE.sub(lambda m: self._placeholder(m.group(1), m.group(2)), text)

    def _placeholder(self, kind: str, arg: str) -> str:
        if kind == "sha":
            return self.sha(arg)
        if kind.startswith("sha"):
            return self.sha(arg, int(kind[3:]))
        if kind == "amb4":
            if arg not in self.ambiguous:
                raise KeyError(f"{self.name}: {arg} was not made ambiguous")
            return self.ambiguous[arg]
        if kind == "line":
            path, _, needle = arg.partition(":")
            for number, line in enumerate(self.head_text(path).splitlines(), 1):
                if needle in line:
                    return str(number)
            raise KeyError(f"{self.name}: {needle!r} not in {path} at HEAD")
        if kind in ("nosha4", "nosha"):
            return self.absent(arg, 4 if kind == "nosha4" else 7)
        if kind == "nlines":
            return str(len(self.head_text(arg).splitlines()))
        raise KeyError(f"unknown placeholder {kind}")


_PLACEHOLDER_RE = re.compile(r"\{(sha\d*|amb4|nosha4|nosha|line|nlines):([^{}]+)\}")


def git(cwd: Path, *args: str, input: Optional[str] = None) -> str:
    result = subprocess.run(
        ["git", *args], cwd=cwd, input=input, capture_output=True, text=True, env={**os.environ, **GIT_ENV}
    )
    if result.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} in {cwd}: {result.stderr.strip()}")
    return result.stdout


def _timestamp(date: str, seq: int) -> int:
    """Noon UTC of ``date`` plus ``seq`` minutes: dates as written, order as listed."""
    day = datetime.datetime.fromisoformat(date).replace(hour=12, tzinfo=datetime.timezone.utc)
    return int(day.timestamp()) + 60 * seq


def _states(spec: Spec) -> dict[str, dict[str, str]]:
    """mark -> the full tree (path -> text) after that commit."""
    states: dict[str, dict[str, str]] = {}
    tips: dict[str, str] = {}
    forks: dict[str, str] = {}
    for c in spec.commits:
        base_mark = c.parent or tips.get(c.branch)
        if c.parent and c.branch not in tips:
            forks[c.branch] = c.parent
        files = dict(states[base_mark]) if base_mark else {}
        if c.merge:
            files = _merged(files, states, forks, c.merge, spec)
        for old, new in c.renames:
            files[new] = files.pop(old)
        for path, content in c.writes.items():
            if content is None:
                if path not in files:
                    raise ValueError(f"{spec.name}/{c.mark}: deleting {path}, which does not exist")
                del files[path]
            else:
                files[path] = content(files.get(path, "")) if callable(content) else content
        states[c.mark] = files
        tips[c.branch] = c.mark
    return states


def _merged(files, states, forks, merge_mark, spec):
    branch = next(c.branch for c in spec.commits if c.mark == merge_mark)
    base = states.get(forks.get(branch, ""), {})
    other = states[merge_mark]
    merged = dict(files)
    for path in set(base) | set(other):
        if other.get(path) != base.get(path):
            if path in other:
                merged[path] = other[path]
            else:
                merged.pop(path, None)
    return merged


def _data(text: str) -> bytes:
    raw = text.encode("utf-8")
    return b"data %d\n" % len(raw) + raw + b"\n"


def _stream(spec: Spec, states, local: bool, shas: dict[str, str]) -> bytes:
    """The fast-import stream of the upstream commits (``local`` False) or the local ones."""
    marks = {c.mark: i + 1 for i, c in enumerate(spec.commits)}
    out = [b"feature done\n"]
    seen_branches: set[str] = set()
    tips: dict[str, str] = {}
    for c in spec.commits:
        previous = c.parent or tips.get(c.branch)
        tips[c.branch] = c.mark
        if c.local != local:
            continue
        stamp = _timestamp(c.date, c.seq)
        out.append(b"commit refs/heads/%s\nmark :%d\n" % (c.branch.encode(), marks[c.mark]))
        out.append(b"author %s %d +0000\ncommitter %s %d +0000\n" % (AUTHOR.encode(), stamp, AUTHOR.encode(), stamp))
        out.append(_data(c.message))
        if previous and (c.parent or c.branch not in seen_branches):
            out.append(_ref(previous, marks, shas, spec) + b"\n")
        if c.merge:
            out.append(b"merge " + _ref(c.merge, marks, shas, spec)[5:] + b"\n")
        seen_branches.add(c.branch)
        out.append(b"deleteall\n")
        for path in sorted(states[c.mark]):
            out.append(b"M 100644 inline %s\n" % path.encode())
            out.append(_data(states[c.mark][path]))
        out.append(b"\n")
    if not local:
        for name, mark, message in spec.tags:
            stamp = _timestamp(next(c.date for c in spec.commits if c.mark == mark), 59)
            out.append(b"tag %s\nfrom :%d\ntagger %s %d +0000\n" % (name.encode(), marks[mark], AUTHOR.encode(), stamp))
            out.append(_data(message or name))
    out.append(b"done\n")
    return b"".join(out)


def _ref(mark: str, marks, shas, spec) -> bytes:
    """``from`` a mark of this stream, or of an already imported commit by its sha."""
    if mark in shas:
        return b"from %s" % shas[mark].encode()
    return b"from :%d" % marks[mark]


def _import(repo: Path, stream: bytes, marks_file: Path, spec: Spec, shas: dict[str, str]) -> None:
    result = subprocess.run(
        ["git", "fast-import", "--quiet", f"--export-marks={marks_file}"],
        cwd=repo, input=stream, capture_output=True, env={**os.environ, **GIT_ENV},
    )
    if result.returncode != 0:
        raise RuntimeError(f"fast-import {spec.name}: {result.stderr.decode(errors='replace')}")
    names = {i + 1: c.mark for i, c in enumerate(spec.commits)}
    for line in marks_file.read_text().splitlines():
        mark, sha = line.split()
        shas[names[int(mark[1:])]] = sha


def _twin(repo: Path, mark: str, sha: str, branch: str) -> str:
    """A second commit whose sha starts with the same 4 digits as ``sha`` (a real collision, found by search)."""
    tree = git(repo, "rev-parse", f"{sha}^{{tree}}").strip()
    prefix = sha[:4]
    for nonce in range(1, 2_000_000):
        stamp = 1790000000 + nonce
        body = (
            f"tree {tree}\nparent {sha}\nauthor {AUTHOR} {stamp} +0000\ncommitter {AUTHOR} {stamp} +0000\n\n"
            f"Scratch notes\n"
        ).encode()
        digest = hashlib.sha1(b"commit %d\0" % len(body) + body).hexdigest()
        if digest.startswith(prefix):
            written = git(repo, "hash-object", "-t", "commit", "-w", "--stdin", input=body.decode()).strip()
            assert written == digest, (written, digest)
            git(repo, "update-ref", f"refs/heads/{branch}", written)
            return prefix
    raise RuntimeError(f"no twin for {mark}")


def build(spec: Spec, root: Path) -> BuiltRepo:
    root = Path(root)
    upstream = root / f"{spec.name}.git"
    clone = root / spec.name
    git(root, "init", "-q", "--bare", "-b", spec.default_branch, str(upstream))
    states = _states(spec)
    shas: dict[str, str] = {}
    _import(upstream, _stream(spec, states, False, shas), root / f"{spec.name}.marks", spec, shas)
    ambiguous = {}
    for i, mark in enumerate(spec.ambiguous):
        ambiguous[mark] = _twin(upstream, mark, shas[mark], f"scratch-{i + 1}")
    git(root, "clone", "-q", "--no-hardlinks", str(upstream), str(clone))
    git(clone, "config", "user.name", "Dana Corpus")
    git(clone, "config", "user.email", "dana@corpus.invalid")
    if any(c.local for c in spec.commits):
        _import(clone, _stream(spec, states, True, shas), root / f"{spec.name}.local.marks", spec, shas)
        git(clone, "reset", "-q", "--hard")
    for step in spec.after_clone:
        _after_clone(clone, step, shas)
    return BuiltRepo(spec.name, clone, upstream, shas, ambiguous)


def _after_clone(clone: Path, step: tuple, shas: dict[str, str]) -> None:
    kind = step[0]
    if kind == "checkout":
        _, target, detach = step
        if detach:
            git(clone, "checkout", "-q", "--detach", shas.get(target, target))
        else:
            git(clone, "checkout", "-q", target)
    elif kind == "move":
        _, branch, mark = step
        current = git(clone, "symbolic-ref", "-q", "--short", "HEAD").strip()
        if current == branch:
            git(clone, "reset", "-q", "--hard", shas[mark])
        else:
            git(clone, "branch", "-f", branch, shas[mark])
    elif kind == "track":
        _, branch, upstream = step
        git(clone, "branch", "-q", f"--set-upstream-to={upstream}", branch)
    elif kind == "modify":
        _, path, content, stage = step
        target = clone / path
        old = target.read_text() if target.exists() else ""
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content(old) if callable(content) else content)
        if stage:
            git(clone, "add", path)
    else:
        raise ValueError(kind)


def fingerprint(repo: BuiltRepo) -> dict:
    """What must be identical between two builds of the same spec."""
    return {
        "shas": dict(repo.shas),
        "refs": repo.git("for-each-ref", "--format=%(refname) %(objectname)"),
        "head": repo.git("rev-parse", "HEAD").strip(),
        "status": repo.git("status", "--porcelain=v1", "--branch"),
        "ambiguous": dict(repo.ambiguous),
    }
