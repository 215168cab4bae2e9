"""The newest commits, with the words the claims verifiers compare sentences with.

Queue items and attributions are matched against the newest ``MAX_COMMITS`` commits of HEAD
(and those of the default branch HEAD lacks). Reading and splitting them into words is the
costly part, so the rows are remembered with their words (``cc_hooks.memo.remember_log``) and
extended from the last tip: after one new commit only that commit is read. Facts, never verdicts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cc_hooks.claims.words import significant_words

MAX_COMMITS = 5000
BODY_CHARS = 400
DEFAULT_BRANCHES = ("refs/heads/main", "refs/heads/master", "refs/remotes/origin/main", "refs/remotes/origin/master")
_VERSION_RE = re.compile(r"(?<![\w.])v?(\d+(?:\.\d+)+)(?![\w.]*\w)")
_BOOKKEEPING_RE = re.compile(
    r"^\s*(?:release|releasing|bump|version|v?\d+(?:\.\d+)+\b|prepare\b|changelog|update\s+(?:the\s+)?changelog|"
    r"merge\s+(?:pull\s+request|branch|remote-tracking|tag)|merged?\s+#\d+)|\b(?:release\s+notes|changelog|news\s+entry)\b",
    re.IGNORECASE,
)

@dataclass
class Commit:
    sha: str
    date: str  # committer date, YYYY-MM-DD
    subject: str
    body: str
    words: frozenset = frozenset()  # significant words and versions of the subject and the body's start
    source: str = ""  # the ref it was reached from ("" for HEAD)
    subject_words: frozenset = frozenset()

    @property
    def bookkeeping(self) -> bool:
        """A release, changelog or merge commit: it lists work, it did not do it."""
        return _BOOKKEEPING_RE.match(self.subject) is not None


class History:
    """The commits searched, newest first, with an index from word roots and references to their
    positions, so an item is compared only with the commits that share two of its words or name
    its reference. Commits are made from their rows when asked for."""

    def __init__(self, rows: list[list], index: dict):
        self.rows = rows
        self.by_root: dict[str, list[int]] = index["roots"]
        self.by_ref: dict[str, list[int]] = index["refs"]
        self._made: dict[int, Commit] = {}
        self._sets: dict[str, set] = {}

    def __len__(self) -> int:
        return len(self.rows)

    def commit(self, position: int) -> Commit:
        made = self._made.get(position)
        if made is None:
            made = self._made[position] = _commit(*self.rows[position])
        return made

    @property
    def commits(self):
        return (self.commit(p) for p in range(len(self.rows)))

    @property
    def oldest(self):
        """The oldest commit of HEAD searched (None when HEAD's whole history was read)."""
        heads = [row for row in self.rows if not row[2]]
        return heads[-1][0] if len(heads) >= MAX_COMMITS else None

    def sharing(self, wanted: list[str], at_least: int) -> list[Commit]:
        """Commits with ``at_least`` of the wanted words' roots, newest first.

        A commit with ``at_least`` of them has one outside the ``at_least - 1`` most common, so only
        the other words' commits are counted: a word every subject has ("module") costs nothing."""
        roots = sorted({root(w) for w in wanted}, key=lambda word: len(self.by_root.get(word, ())))
        if len(roots) < at_least:
            return []
        # Only positions seen outside the commonest words can reach the count: they are counted in the
        # rarer postings, then looked up in the commonest ones (sets made once per History).
        rare = len(roots) - (at_least - 1) if at_least > 1 else len(roots)
        counts: dict[int, int] = {}
        for word in roots[:rare]:
            for position in self.by_root.get(word, ()):
                counts[position] = counts.get(position, 0) + 1
        for word in roots[rare:]:
            members = self._members(word)
            for position in counts:
                if position in members:
                    counts[position] += 1
        return [self.commit(p) for p in sorted(p for p, n in counts.items() if n >= at_least)]

    def _members(self, word: str) -> set:
        members = self._sets.get(word)
        if members is None:
            members = self._sets[word] = set(self.by_root.get(word, ()))
        return members

    def novel(self, wanted: list[str]) -> list[str]:
        """The wanted words no commit searched has (versions aside): they name something new."""
        return [w for w in wanted if root(w) not in self.by_root and not _VERSION_RE.fullmatch(w)]

    def referencing(self, ref: str) -> list[Commit]:
        return [self.commit(p) for p in self.by_ref.get(ref.lower(), ())]


_REF_TOKEN_RE = re.compile(r"(?<![\w&/#])#\d{1,7}\b|\b[A-Z][A-Z0-9]{1,9}-\d{1,7}\b")


def root(word: str) -> str:
    """What two forms of a word share ("documentation"/"document", "annotation"/"annotate")."""
    return word[:6] if len(word) > 6 else word


def load(ctx) -> History:
    """The newest commits of HEAD (remembered and extended from the last tip: ``memo.remember_log``)
    and those of the default branch that HEAD lacks (read live: usually none); the index is
    remembered by the rows it was built from."""
    from cc_hooks.memo import remember, remember_log

    def derive(revs, previous):
        rows = _log_rows(ctx, revs)
        return (rows + list(previous or []))[:MAX_COMMITS]

    head = ctx.status().oid
    rows = remember_log(ctx.root, "claims-history", [f"{MAX_COMMITS}:{BODY_CHARS}"], derive, timeout=ctx.timeout(), head=head or "")
    refs = ctx.refs()
    others = [name for name in DEFAULT_BRANCHES if name in refs and refs[name].sha != head]
    if others:
        rows = rows + _log_rows(ctx, [*others, "--not", "HEAD"], source=True)
    key = f"{len(rows)}:{rows[0][0] if rows else ''}:{rows[-1][0] if rows else ''}"
    index = remember(ctx.state_dir, "claims-history-index", [key], lambda: _index(rows))
    return History(rows, index)


def _index(rows: list[list]) -> dict:
    roots: dict[str, list[int]] = {}
    refs: dict[str, list[int]] = {}
    for position, row in enumerate(rows):
        for word in {root(w) for w in row[5]}:
            roots.setdefault(word, []).append(position)
        for ref in dict.fromkeys(r.lower() for r in _REF_TOKEN_RE.findall(f"{row[3]}\n{row[4]}")):
            refs.setdefault(ref, []).append(position)
    return {"roots": roots, "refs": refs}


def _log_rows(ctx, revs: list, source: bool = False) -> list[list]:
    fmt = "%H%x1f%cs%x1f%S%x1f%s%x1f%b%x1e" if source else "%H%x1f%cs%x1f%x1f%s%x1f%b%x1e"
    extra = ["--source"] if source else []
    # HEAD's own commits are remembered (the next run at this HEAD does not read them): not prefetched.
    out = ctx.git("log", *revs, *extra, f"--max-count={MAX_COMMITS}", f"--format={fmt}", check=False, prefetch=source)
    rows = []
    for record in out.split("\x1e"):
        parts = record.strip("\n").split("\x1f")
        if len(parts) == 5:
            sha, date, where, subject, body = parts
            body = body[:BODY_CHARS]
            rows.append([sha, date, where, subject, body, sorted(item_words(subject + "\n" + body)), sorted(item_words(subject))])
    return rows


def _commit(sha: str, date: str, source: str, subject: str, body: str, words: list, subject_words: list) -> Commit:
    return Commit(sha, date, subject, body, frozenset(words), source, frozenset(subject_words))


def item_words(text: str) -> frozenset:
    """Significant words and version numbers ("4.3", "2026.6"): what an item and a commit share."""
    return frozenset(significant_words(_VERSION_RE.sub(" ", text))) | {m.group(1) for m in _VERSION_RE.finditer(text)}


