"""What the verifiers share: the repo, the deadline, and git facts read once.

Every fact is read by one batched git process the first time a verifier asks
for it (all refs by one ``for-each-ref``, the work tree by one ``status``,
ancestry by one ``rev-list`` per target commit), so the number of git processes
depends on what kinds of claims there are, never on how many.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Iterable, Optional

from cc_hooks import git as gitmod

GIT_CALL_CAP = 10.0  # seconds; no single git call may take longer, whatever the budget
MIN_SECONDS = 0.05


class BudgetExhausted(Exception):
    """The deadline passed before a check could start."""


@dataclass
class Ref:
    refname: str  # refs/heads/main
    sha: str
    subject: str
    upstream: str = ""  # refs/remotes/origin/main
    track: str = ""  # "[ahead 1, behind 2]", "[gone]" or ""

    @property
    def short(self) -> str:
        for prefix in ("refs/heads/", "refs/tags/", "refs/remotes/"):
            if self.refname.startswith(prefix):
                return self.refname[len(prefix) :]
        return self.refname

    @property
    def ahead(self) -> int:
        return _track_count(self.track, "ahead")

    @property
    def behind(self) -> int:
        return _track_count(self.track, "behind")


@dataclass
class Status:
    branch: Optional[str]  # None when detached
    oid: Optional[str]  # None before the first commit
    upstream: Optional[str]
    ahead: int = 0
    behind: int = 0
    staged: list[str] = field(default_factory=list)
    unstaged: list[str] = field(default_factory=list)
    untracked: list[str] = field(default_factory=list)
    conflicted: list[str] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not (self.staged or self.unstaged or self.untracked or self.conflicted)


class VerifyContext:
    def __init__(self, root: Path, config, deadline, state_date: Optional[str] = None):
        self.root = Path(root)
        self.config = config
        self.deadline = deadline
        self.state_date = state_date
        self.git_calls = 0
        self._refs: Optional[dict[str, Ref]] = None
        self._status: Optional[Status] = None
        self._subjects: dict[str, str] = {}
        self._objects: dict[str, Optional[tuple[str, str]]] = {}
        self._tree: Optional[list[tuple[str, str, str]]] = None

    @cached_property
    def state_dir(self) -> Optional[Path]:
        """Where facts derived from bytes are remembered (``cc_hooks.state.state_dir``); None outside a repository."""
        from cc_hooks.state import state_dir

        return state_dir(self.root)

    # --- budget -----------------------------------------------------------------

    def timeout(self, cap: float = GIT_CALL_CAP) -> float:
        remaining = self.deadline.remaining()
        if remaining <= MIN_SECONDS:
            raise BudgetExhausted()
        return min(cap, remaining)

    def git(self, *args: str, input: Optional[str] = None, check: bool = True) -> str:
        self.git_calls += 1
        return gitmod.run_git(self.root, *args, input=input, timeout=self.timeout(), check=check)

    # --- facts ------------------------------------------------------------------

    def objects(self, names: Iterable[str]) -> dict[str, Optional[tuple[str, str]]]:
        """name -> (full sha, type), or None when git has no such object.

        Answers are kept: one process asks for the names not asked before, so
        ``verify_claims`` can ask every verifier's names at once up front.
        """
        names = [n for n in dict.fromkeys(names) if n]
        unknown = [n for n in names if n not in self._objects and "\n" not in n]
        if unknown:
            self.git_calls += 1
            raw = gitmod.object_types(self.root, unknown, timeout=self.timeout())
            for name, line in raw.items():
                self._objects[name] = tuple(line.split()) if line else None  # type: ignore[assignment]
        return {name: self._objects[name] for name in names if name in self._objects}

    def refs(self) -> dict[str, Ref]:
        """Every branch, tag and remote-tracking branch, by short and full name (one process)."""
        if self._refs is None:
            fmt = "%(refname)%00%(objectname)%00%(*objectname)%00%(upstream)%00%(upstream:track)%00%(contents:subject)"
            out = self.git("for-each-ref", f"--format={fmt}", "refs/heads", "refs/tags", "refs/remotes")
            refs: dict[str, Ref] = {}
            for line in out.splitlines():
                parts = line.split("\0")
                if len(parts) != 6 or parts[0].endswith("/HEAD"):
                    continue
                refname, sha, peeled, upstream, track, subject = parts
                ref = Ref(refname, peeled or sha, subject, upstream, track)
                refs[refname] = ref
                refs.setdefault(ref.short, ref)  # heads come first, so they win over tags and remotes
            self._refs = refs
        return self._refs

    def resolve_ref(self, name: str) -> Optional[Ref]:
        refs = self.refs()
        return refs.get(name) or refs.get(f"refs/heads/{name}") or refs.get(f"refs/tags/{name}")

    def status(self, untracked: bool = True) -> Status:
        """HEAD, upstream, ahead/behind and the changed paths (one process)."""
        if self._status is None:
            mode = "--untracked-files=normal" if untracked else "--untracked-files=no"
            out = self.git("status", "--porcelain=v2", "--branch", mode, "-z")
            self._status = _parse_status(out)
        return self._status

    def not_ancestors(self, target: str, shas: Iterable[str]) -> set[str]:
        """The subset of ``shas`` (full commit SHAs) not reachable from ``target`` (one process).

        ``git rev-list <shas> --not <target>`` lists exactly the commits reachable
        from the shas but not from the target, so an ancestor never appears.
        """
        shas = sorted(set(shas))
        if not shas:
            return set()
        out = self.git("rev-list", "--stdin", input="\n".join(shas) + f"\n^{target}\n")
        listed = set(out.split())
        return {sha for sha in shas if sha in listed}

    def outside(self, asks: dict[str, set[str]]) -> dict[str, set[str]]:
        """target -> the shas asked of it that it does not reach (``not_ancestors`` for each).

        Targets at the same commit (HEAD and its branch) share one process, and
        a target's own tip needs none: the answer depends only on the commit.
        """
        tips = {target: self._tip(target) for target in asks}
        groups: dict[str, tuple[str, set[str]]] = {}
        for target, shas in asks.items():
            groups.setdefault(tips[target] or target, (target, set()))[1].update(shas)
        found = {key: self.not_ancestors(name, {s for s in shas if s != tips[name]}) for key, (name, shas) in groups.items()}
        return {target: found[tips[target] or target] & set(shas) for target, shas in asks.items()}

    def _tip(self, target: str) -> Optional[str]:
        """The commit ``target`` names, when an already read fact says (no process)."""
        if target == "HEAD":
            return self._status.oid if self._status is not None else None
        ref = self._refs.get(target) if self._refs is not None else None
        return ref.sha if ref is not None and ref.refname == target else None

    def tree(self) -> list[tuple[str, str, str]]:
        """(path, sha, type) of every file and directory at HEAD (one process)."""
        if self._tree is None:
            out = self.git("ls-tree", "-r", "-t", "-z", "HEAD", check=False)
            entries = []
            for record in out.split("\0"):
                meta, _, path = record.partition("\t")
                parts = meta.split()
                if path and len(parts) == 3:
                    entries.append((path, parts[2], parts[1]))
            self._tree = entries
        return self._tree

    def subjects(self, shas: Iterable[str]) -> dict[str, str]:
        """Full sha -> subject line for existing commits (one process for those not yet known)."""
        wanted = [s for s in dict.fromkeys(shas) if s and s not in self._subjects]
        if wanted:
            out = self.git("log", "--no-walk=unsorted", "--format=%H%x00%s", "--stdin", input="\n".join(wanted) + "\n")
            for line in out.splitlines():
                sha, _, subject = line.partition("\0")
                self._subjects[sha] = subject
        return self._subjects


def _track_count(track: str, word: str) -> int:
    import re

    match = re.search(rf"{word} (\d+)", track)
    return int(match.group(1)) if match else 0


def _parse_status(out: str) -> Status:
    status = Status(branch=None, oid=None, upstream=None)
    records = out.split("\0")
    i = 0
    while i < len(records):
        record = records[i]
        i += 1
        if not record:
            continue
        if record.startswith("# "):
            key, _, value = record[2:].partition(" ")
            if key == "branch.oid":
                status.oid = None if value == "(initial)" else value
            elif key == "branch.head":
                status.branch = None if value == "(detached)" else value
            elif key == "branch.upstream":
                status.upstream = value
            elif key == "branch.ab":
                ahead, behind = value.split()
                status.ahead, status.behind = int(ahead), -int(behind)
            continue
        kind = record[0]
        if kind == "?":
            status.untracked.append(record[2:])
        elif kind == "u":
            status.conflicted.append(record.split(" ", 10)[-1])
        elif kind in "12":
            fields = record.split(" ", 9 if kind == "2" else 8)
            xy, path = fields[1], fields[-1]
            if kind == "2":
                i += 1  # the original path follows as its own record
            if xy[0] != ".":
                status.staged.append(path)
            if xy[1] != ".":
                status.unstaged.append(path)
    return status
