"""Which commits HEAD's history reverted, and which of those reverts were reverted in turn.

git writes a revert as `Revert "<subject>"` with "This reverts commit <sha>." in its body; a revert of
a revert is `Revert "Revert "<subject>""`. A commit is *reverted* at HEAD when some commit of HEAD's
history reverts it and that revert is not itself reverted (the chain's parity). Reverts are found by
their message: one ``git log --grep`` over HEAD's history for every fix asked about. Reverts by content
(the inverse patch without the message) are the fix comparison's job (``record.fixes``).
"""

from __future__ import annotations

import re
from typing import Iterable, Optional

_THIS_REVERTS_RE = re.compile(r"This reverts commit ([0-9a-f]{7,40})", re.I)
_REVERT_SUBJECT_RE = re.compile(r'^Revert\s+"(.*)"\s*$')


def is_revert(subject: str) -> bool:
    """A subject git wrote for a revert (`Revert "<subject>"`)."""
    return re.match(r'Revert\s+"', subject.strip()) is not None


def reverted(root, shas: Iterable[str], timeout: float = 30.0) -> dict[str, tuple[str, str]]:
    """Full sha -> (the reverting commit's full sha, its subject), for each of ``shas`` (full shas of
    HEAD's history) that HEAD's history reverted and did not restore."""
    from cc_hooks.git import run_git

    wanted = [s for s in dict.fromkeys(shas) if s]
    if not wanted:
        return {}
    out = run_git(root, "log", "--format=%x1e%H%x1f%s%x1f%b", "-i", "--grep=This reverts commit", "--grep=^Revert ", "HEAD",
                  check=False, timeout=timeout)
    reverts = []  # (sha, subject, the shas it names, the subject it names)
    for record in out.split("\x1e")[1:]:
        sha, _, rest = record.partition("\x1f")
        subject, _, body = rest.partition("\x1f")
        named = [m.lower() for m in _THIS_REVERTS_RE.findall(body)]
        quoted = _REVERT_SUBJECT_RE.match(subject.strip())
        reverts.append((sha.strip(), subject.strip(), named, quoted.group(1) if quoted else None))
    subjects = _subjects(root, [*wanted, *(r[0] for r in reverts)], timeout) if reverts else {}
    by_target: dict[str, list[tuple[str, str]]] = {}
    for sha, subject, named, quoted in reverts:
        for target in list(subjects):
            if any(target.startswith(n) for n in named) or (not named and quoted is not None and subjects[target] == quoted):
                by_target.setdefault(target, []).append((sha, subject))
    found = {}
    for sha in wanted:
        undone = _standing_revert(sha, by_target, set())
        if undone is not None:
            found[sha] = undone
    return found


def _standing_revert(sha: str, by_target: dict, seen: set) -> Optional[tuple[str, str]]:
    """A revert of ``sha`` that no later revert undid (a revert of a revert restores the commit)."""
    for revert in by_target.get(sha, []):
        if revert[0] in seen:
            continue
        if _standing_revert(revert[0], by_target, seen | {sha}) is None:
            return revert
    return None


def _subjects(root, shas: list[str], timeout: float) -> dict[str, str]:
    from cc_hooks.git import run_git

    out = run_git(root, "log", "--no-walk=unsorted", "--format=%H%x1f%s", "--stdin", input="\n".join(dict.fromkeys(shas)) + "\n",
                  check=False, timeout=timeout)
    return {sha: subject for sha, _, subject in (line.partition("\x1f") for line in out.splitlines()) if subject or sha}
