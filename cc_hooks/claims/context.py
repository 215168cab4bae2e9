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

import re

GIT_CALL_CAP = 10.0  # seconds; no single git call may take longer, whatever the budget
MIN_SECONDS = 0.05
MAX_ANCESTORS = 10_000  # remembered ancestors of a target; more start the list again
DIFF_LIMIT = 4 * 1024 * 1024  # bytes of diff read to see which identifiers commits changed


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
    def kind(self) -> str:
        if self.refname.startswith("refs/remotes/"):
            return "remote-tracking branch"
        return "tag" if self.refname.startswith("refs/tags/") else "branch"

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
        self.ambiguous: set[str] = set()
        self._places: dict[str, Optional[str]] = {}
        self._history = None  # names git found more than one object for
        self._tree: Optional[list[tuple[str, str, str]]] = None
        self._merged: dict[str, dict[str, str]] = {}
        self._deletions: dict[str, Optional[tuple[str, str]]] = {}

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

    def git(self, *args: str, input: Optional[str] = None, check: bool = True, prefetch: bool = True) -> str:
        self.git_calls += 1
        return gitmod.run_git(self.root, *args, input=input, timeout=self.timeout(), check=check, prefetch=prefetch)

    # --- facts ------------------------------------------------------------------

    def objects(self, names: Iterable[str]) -> dict[str, Optional[tuple[str, str]]]:
        """name -> (full sha, type), or None when git has no such object.

        Answers are kept: one process asks for the names not asked before, so
        ``verify_claims`` can ask every verifier's names at once up front.
        """
        names = [n for n in dict.fromkeys(names) if n]
        unknown = [n for n in names if n not in self._objects and "\n" not in n]
        if unknown:
            out = self.git("cat-file", "--batch-check=%(objectname) %(objecttype)", input="\n".join(unknown) + "\n")
            for name, line in zip(unknown, out.splitlines()):
                parts = line.split()
                if line.endswith(" ambiguous"):
                    self.ambiguous.add(name)
                found = len(parts) == 2 and parts[1] not in ("missing", "ambiguous")
                self._objects[name] = (parts[0], parts[1]) if found else None
        return {name: self._objects[name] for name in names if name in self._objects}

    def commits(self, names: Iterable[str]) -> dict[str, str]:
        """name -> full sha, for the names (``objects``) that are commits."""
        return {name: obj[0] for name, obj in self.objects(names).items() if obj and obj[1] == "commit"}

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
        """The ref ``name`` means, as git resolves it: a full refname, a local branch, a tag,
        ``<remote>/<branch>``, then a branch that exists only as one remote's tracking branch
        (what ``git checkout name`` would create from; ``origin`` wins a tie)."""
        refs = self.refs()
        for full in (name, f"refs/heads/{name}", f"refs/tags/{name}", f"refs/remotes/{name}"):
            ref = refs.get(full)
            if ref is not None and ref.refname == full:
                return ref
        remote = sorted(
            (r for key, r in refs.items() if key == r.refname and r.refname.startswith("refs/remotes/") and r.refname.split("/", 3)[3:] == [name]),
            key=lambda r: (r.refname.split("/")[2] != "origin", r.refname),
        )
        return remote[0] if remote else None
    def status(self, untracked: bool = True) -> Status:
        """HEAD, upstream, ahead/behind and the changed paths (one process)."""
        if self._status is None:
            mode = "--untracked-files=normal" if untracked else "--untracked-files=no"
            out = self.git("status", "--porcelain=v2", "--branch", mode, "-z")
            self._status = _parse_status(out)
        return self._status

    def not_ancestors(self, target: str, shas: Iterable[str]) -> set[str]:
        """The subset of ``shas`` (full commit SHAs) not reachable from ``target`` (one process, or none).

        ``git rev-list <shas> --not <target>`` lists exactly the commits reachable
        from the shas but not from the target, so an ancestor never appears. It walks
        from the target back to the oldest sha asked, so the ancestors found are
        remembered by the target's commit (``cc_hooks.memo.remember_commit``): an ancestor of
        a commit is an ancestor of every descendant, and only the shas not known so are asked.
        """
        shas = sorted(set(shas))
        if not shas:
            return set()
        tip = self._tip(target)
        if tip is None:
            return self._not_ancestors(target, shas, prefetch=True)
        from cc_hooks.memo import remember_commit

        def derive(known_tip, known):
            known = _shas(known) if len(_shas(known)) < MAX_ANCESTORS else set()
            unknown = [sha for sha in shas if sha not in known]
            return sorted(known | (set(unknown) - self._not_ancestors(tip, unknown)))

        ancestors = _shas(remember_commit(self.root, "claims-ancestors", [target], tip, derive, timeout=self.timeout(),
                                          enough=lambda known: set(shas) <= _shas(known)))
        # Every sha asked is now either a remembered ancestor or was asked of git just now (and is not one).
        return {sha for sha in shas if sha not in ancestors}

    def _not_ancestors(self, target: str, shas: list[str], prefetch: bool = False) -> set[str]:
        if not shas:
            return set()
        out = self.git("rev-list", "--stdin", input="\n".join(shas) + f"\n^{target}\n", prefetch=prefetch)
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

    def place(self, path: str) -> Optional[str]:
        """The path as HEAD has it: itself, or the one file or directory whose path ends in it
        (`okio.api` -> `okio/api/okio.api`); None when HEAD has none, or several."""
        path = path.strip().rstrip("/")
        entries = self.tree()
        if any(entry[0] == path for entry in entries):
            return path
        found = [entry[0] for entry in entries if entry[0].endswith("/" + path)]
        return found[0] if len(found) == 1 else None

    def subjects(self, shas: Iterable[str]) -> dict[str, str]:
        """Full sha -> subject line for existing commits (one process for those not yet known)."""
        wanted = [s for s in dict.fromkeys(shas) if s and s not in self._subjects]
        if wanted:
            out = self.git("log", "--no-walk=unsorted", "--format=%H%x00%s", "--stdin", input="\n".join(wanted) + "\n")
            for line in out.splitlines():
                sha, _, subject = line.partition("\0")
                self._subjects[sha] = subject
        return self._subjects


    def commit_texts(self, shas: Iterable[str], diff: bool = False, limit: int = DIFF_LIMIT) -> dict[str, "CommitText"]:
        """Full sha -> its message and changed paths (and, with ``diff``, its added and removed
        lines, at most ``limit`` bytes in all), one process for all of them."""
        shas = [s for s in dict.fromkeys(shas) if s]
        if not shas:
            return {}
        args = ["log", "--no-walk=unsorted", "--stdin", "--no-renames", "--diff-merges=first-parent", "--format=%x1e%H%x1f%B%x1f"]
        args += ["-p", "-U0", "--no-ext-diff", "--no-textconv"] if diff else ["--name-only"]
        out = self.git(*args, input="\n".join(shas) + "\n")
        texts = {}
        for record in out.split("\x1e")[1:]:
            sha, _, rest = record.partition("\x1f")
            message, _, changes = rest.partition("\x1f")
            if diff:
                paths = re.findall(r"^\+\+\+ b/(.+)$|^--- a/(.+)$", changes, re.M)
                names = sorted({a or b for a, b in paths})
                truncated = len(changes) > limit
                texts[sha] = CommitText(sha, message.strip(), names, changes[:limit], truncated)
            else:
                texts[sha] = CommitText(sha, message.strip(), [p for p in changes.split("\n") if p.strip()])
        return texts

    def pull_request(self, number: int) -> Optional[str]:
        """The full sha of the newest commit of HEAD's remembered history that merged or squashed
        pull request ``number`` ("Merge pull request #N from ...", "Subject (#N)"), or None."""
        pattern = re.compile(rf"^Merge pull request #{number}\b|\(#{number}\)\s*$")
        return next((row[0] for row in self.history().rows if not row[2] and pattern.search(row[3])), None)

    def merged(self, sha: str, limit: int = 50) -> dict[str, str]:
        """The commits a merge commit brought in (full sha -> subject, at most ``limit``), read once."""
        if sha not in self._merged:
            out = self.git("log", f"--max-count={limit}", "--format=%H%x1f%s", f"{sha}^1..{sha}^2", check=False)
            self._merged[sha] = dict(line.split("\x1f", 1) for line in out.splitlines() if "\x1f" in line)
        return self._merged[sha]

    def removals(self, shas: Iterable[str]) -> dict[str, set[str]]:
        """Full sha -> the paths that commit deleted or renamed away (one ``diff-tree`` for all)."""
        shas = [s for s in dict.fromkeys(shas) if s]
        if not shas:
            return {}
        out = self.git("diff-tree", "--stdin", "-r", "-M", "--name-status", "-z", "--root", input="\n".join(shas) + "\n")
        found: dict[str, set[str]] = {sha: set() for sha in shas}
        fields = out.split("\0")
        current, i = None, 0
        while i < len(fields):
            field = fields[i].strip("\n")
            i += 1
            if re.fullmatch(r"[0-9a-f]{40}", field):
                current = field
            elif current and field[:1] in "DR" and field[:1] and i < len(fields):
                found.setdefault(current, set()).add(fields[i])
                i += 2 if field[0] == "R" else 1
            elif current and field[:1] in "AMTCU" and field[:1]:
                i += 2 if field[0] == "C" else 1
        return found

    def deletions(self, paths: Iterable[str], max_commits: int = 20000) -> dict[str, tuple[str, str]]:
        """path -> (full sha, subject) of the newest commit on HEAD that deleted or renamed it away,
        among the newest commits (``history``), with one ``log`` with the paths as pathspecs; a
        directory counts when files under it went."""
        wanted = sorted({p.rstrip("/") for p in paths if p})
        paths = [p for p in wanted if p not in self._deletions]  # each path's answer is read once per run
        if not paths:
            return {p: self._deletions[p] for p in wanted if self._deletions[p] is not None}
        oldest = self.history().oldest  # the same window as the queue's: bounded, whatever the history's length
        bound = [f"^{oldest}"] if oldest else []
        out = self.git(
            "log", "HEAD", *bound, f"--max-count={max_commits}", "--diff-filter=DR", "-M", "--name-status", "-z",
            "--format=%x1e%H%x1f%s", "--", *paths, check=False,
        )
        found: dict[str, tuple[str, str]] = {}
        for record in out.split("\x1e")[1:]:
            head, _, changes = record.partition("\0")
            sha, _, subject = head.strip("\n").partition("\x1f")
            fields = [f.strip("\n") for f in changes.split("\0")]
            gone = {fields[i + 1] for i in range(len(fields) - 1) if fields[i][:1] in ("D", "R") and len(fields[i]) <= 4}
            for path in paths:
                if path not in found and any(g == path or g.startswith(path + "/") for g in gone):
                    found[path] = (sha, subject)
        self._deletions.update({p: found.get(p) for p in paths})
        return {p: self._deletions[p] for p in wanted if self._deletions[p] is not None}

    def history(self):
        """The newest commits with their words (``cc_hooks.claims.history``), read once per run."""
        if self._history is None:
            from cc_hooks.claims import history

            self._history = history.load(self)
        return self._history

    def places(self, shas: Iterable[str]) -> dict[str, Optional[str]]:
        """Full sha -> a branch, remote-tracking branch or tag that contains it, or None (one
        ``name-rev`` for all shas not placed before)."""
        wanted = [s for s in dict.fromkeys(shas) if s and s not in self._places]
        if wanted:
            out = self.git("name-rev", "--name-only", "--exclude=refs/remotes/*/HEAD", *wanted, check=False)
            for sha, name in zip(wanted, out.splitlines()):
                name = re.split(r"[~^]", name.strip(), 1)[0]
                for prefix in ("remotes/", "tags/"):
                    name = name[len(prefix):] if name.startswith(prefix) else name
                self._places[sha] = None if name in ("", "undefined") else name
        return {sha: self._places.get(sha) for sha in shas}


@dataclass
class CommitText:
    sha: str
    message: str
    paths: list[str]
    diff: str = ""
    truncated: bool = False


def _shas(value) -> set[str]:
    """The shas of a remembered list (anything else: none)."""
    return {item for item in value if isinstance(item, str)} if isinstance(value, list) else set()


def _track_count(track: str, word: str) -> int:
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
