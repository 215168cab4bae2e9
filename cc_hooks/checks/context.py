"""What every check gets: the repo, its config, a deadline, the last checkpoint,
the transcript (optional) and cached lookups several checks share."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Optional

from cc_hooks.runtime import Deadline

PACKED_REFS_LIMIT = 256 * 1024 * 1024  # a repository with millions of refs; more is not a packed-refs git wrote

_HISTORY_ENV = ("GIT_REPLACE_REF_BASE", "GIT_GRAFT_FILE", "GIT_SHALLOW_FILE", "GIT_NO_REPLACE_OBJECTS", "GIT_DIR", "GIT_COMMON_DIR")


@dataclass
class CheckContext:
    root: Path
    config: Any  # cc_hooks.config.Config
    deadline: Deadline
    transcript_path: Optional[Path] = None
    checkpoint: Optional[dict] = None  # the last PreCompact checkpoint, if any
    state: Optional[Path] = None  # the state directory, if any
    errors: list[str] = field(default_factory=list)
    cache: dict = field(default_factory=dict)

    def timeout(self, cap: float = 10.0) -> float:
        return self.deadline.timeout(cap)

    def git(self, *args: str, input: Optional[str] = None, check: bool = True) -> str:
        from cc_hooks.git import run_git

        return run_git(self.root, *args, input=input, timeout=self.timeout(), check=check)

    # --- shared, cached lookups ---------------------------------------------

    @cached_property
    def head(self):
        from cc_hooks.git import head

        return head(self.root, timeout=self.timeout())

    @cached_property
    def history(self) -> Optional[str]:
        """HEAD's commit id when it alone decides what ``git log HEAD`` shows (a commit id hashes
        the whole history behind it), so a fact read from that history can be remembered by it;
        None when something else shapes the history git shows: a shallow clone (a fetch deepens
        it), grafts, replace refs or the environment variables that redirect them."""
        sha = self.head.sha
        if sha is None or self.state is None or any(os.environ.get(v) for v in _HISTORY_ENV):
            return None
        common = self.state.parent
        if (common / "shallow").exists() or (common / "info" / "grafts").exists():
            return None
        try:
            if any(os.scandir(common / "refs" / "replace")):
                return None
        except OSError:
            pass  # no replace refs folder: the usual case
        from cc_hooks.fsutil import RefusedFile, read_repo_bytes

        try:
            if b" refs/replace/" in read_repo_bytes(common / "packed-refs", limit=PACKED_REFS_LIMIT):
                return None
        except RefusedFile:
            return None  # a link to /dev/zero, a FIFO, a huge file: not read, and so not known to be plain
        except OSError:
            pass
        return sha

    @cached_property
    def head_tree(self):
        """HEAD's tree (``record.questions.head_tree``; None before the first commit), read once for
        every check that resolves pointers at HEAD. A failure to read it is raised each time asked."""
        from cc_hooks.record.questions import head_tree

        return head_tree(self.root, timeout=self.timeout(), has_commits=self.head.sha is not None)

    def pointer_tree(self):
        """What to pass as ``tree`` to ``record.questions.resolve_pointers``: the shared tree, or (when
        it cannot be read) the default, so the resolver reports the failure its own way."""
        from cc_hooks.git import GitError
        from cc_hooks.record.questions import READ_TREE

        try:
            return self.head_tree
        except GitError:
            return READ_TREE

    @cached_property
    def tracked(self) -> set[str]:
        from cc_hooks.git import tracked_files

        return tracked_files(self.root, timeout=self.timeout())

    @cached_property
    def worktree(self) -> dict:
        """One ``git status --porcelain=v2 --branch --untracked-files=all``: ``changes`` (path -> its
        two-letter status, as porcelain v1 writes it), ``upstream`` and ``ahead`` (the upstream only when
        git can compare HEAD with it)."""
        out = self.git("status", "--porcelain=v2", "--branch", "--untracked-files=all", "-z")
        changes: dict[str, str] = {}
        upstream, ahead = None, None
        records, index = out.split("\0"), 0
        while index < len(records):
            record = records[index]
            index += 1
            if record.startswith("# "):
                key, _, value = record[2:].partition(" ")
                if key == "branch.upstream":
                    upstream = value
                elif key == "branch.ab":
                    ahead = int(value.split()[0])
            elif record.startswith("? "):
                changes[record[2:]] = "??"
            elif record[:2] in ("1 ", "2 ", "u "):
                fields = record.split(" ", {"1": 8, "2": 9, "u": 10}[record[0]])
                changes[fields[-1]] = fields[1].replace(".", " ")
                index += record[0] == "2"  # a rename's source path follows its own NUL
        return {"changes": changes, "upstream": upstream if ahead is not None else None, "ahead": ahead or 0}

    @property
    def dirty(self) -> set[str]:
        """Paths with uncommitted changes (staged, unstaged or untracked)."""
        return set(self.worktree["changes"])

    def ignored(self, paths) -> set[str]:
        from cc_hooks.git import ignored

        return ignored(self.root, paths, timeout=self.timeout())

    @cached_property
    def declaration(self):
        """(Declaration, findings) of the dashboard (helper D's resolution)."""
        from cc_hooks.record.dashboard import find_declaration

        return find_declaration(self.root, self.config)

    @property
    def dashboard_path(self) -> Optional[str]:
        declaration = self.declaration[0]
        return declaration.locator if declaration.backend == "file" else None

    @property
    def record_paths(self) -> dict[str, str]:
        """role -> repo-relative path of every record file that lives in the repo."""
        record = self.config.record
        paths = {"symptoms": record.symptoms, "decisions": record.decisions, "questions": record.questions}
        if self.dashboard_path:
            paths["dashboard"] = self.dashboard_path
        return paths

    @cached_property
    def since(self) -> Optional[str]:
        """The checkpoint's HEAD when it is still an ancestor of HEAD (the "since the last checkpoint" base)."""
        sha = (self.checkpoint or {}).get("head")
        if not isinstance(sha, str) or not sha or self.head.sha is None:
            return None
        from cc_hooks.memo import is_ancestor

        # One process per pair, shared with the facts remembered up to the checkpoint's HEAD (cc_hooks.memo).
        return sha if is_ancestor(self.root, sha, self.head.sha, timeout=self.timeout()) else None  # else rewritten


def make_context(root: Path, deadline: Deadline, transcript_path=None, session_id: Optional[str] = None, config=None) -> CheckContext:
    """A context for ``root``: config (defaults on a bad file), state dir and last checkpoint."""
    from cc_hooks.checkpoint import latest_checkpoint
    from cc_hooks.config import load_config_or_default
    from cc_hooks.state import state_dir

    if config is None:
        config, _ = load_config_or_default(root)
    try:
        state = state_dir(root)
    except OSError:
        state = None
    checkpoint = latest_checkpoint(state, session_id, compacted_only=True) if state is not None and state.is_dir() else None
    return CheckContext(Path(root), config, deadline, Path(transcript_path) if transcript_path else None, checkpoint, state)
