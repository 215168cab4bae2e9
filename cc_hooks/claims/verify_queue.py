"""Queue claims: is a pending item really pending, is a DONE item really done?

One ``git log HEAD --since=<oldest item date>`` lists every commit that could
have done queued work. A commit *does* an item when it references the item
explicitly (its ``#123`` / ``KEY-123`` / SHA in the subject or body) or
clearly matches its work (most of the item's significant words, and at least
two, in the subject). A pending item with such a commit is CONTRADICTED
("landed in <sha> <subject>"); a DONE item needs one to be VERIFIED.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from typing import Optional

from cc_hooks.claims import address as addr
from cc_hooks.claims.context import VerifyContext
from cc_hooks.claims.model import CONTRADICTED, QUEUE, UNVERIFIED, VERIFIED, Claim
from cc_hooks.claims.words import clearly_matches, significant_words

NAME = "queue"
MAX_COMMITS = 5000


@dataclass
class Commit:
    sha: str
    date: str  # committer date, YYYY-MM-DD
    subject: str
    body: str
    words: frozenset = frozenset()  # the subject's significant words, computed once


def applies(claim: Claim) -> bool:
    return claim.kind == QUEUE


def verify(ctx: VerifyContext, claims: list[Claim]) -> None:
    claims = [c for c in claims if applies(c)]
    dated = [(c, _date_of(ctx, c)) for c in claims]
    for claim, date in dated:
        if date is None:
            claim.add("queue item", UNVERIFIED, "undated: no window of commits to search", NAME)
    dates = [d for _, d in dated if d]
    if not dates:
        return
    commits = _commits_since(ctx, min(dates))
    index = CommitIndex(commits)
    windows = {date: [c for c in commits if c.date >= date] for date in set(dates)}  # items share dates
    for claim, date in dated:
        if date is not None:
            _judge(claim, date, windows[date], index)


def _date_of(ctx: VerifyContext, claim: Claim) -> Optional[str]:
    """The item's own date (the dashboard reader falls back to the state block's)."""
    if claim.date and re.fullmatch(r"\d{4}-\d{2}-\d{2}", claim.date):
        return claim.date
    return None


def _commits_since(ctx: VerifyContext, date: str) -> list[Commit]:
    # A day of slack: --since compares timestamps, the items carry calendar dates.
    since = (datetime.date.fromisoformat(date) - datetime.timedelta(days=1)).isoformat()
    out = ctx.git(
        "log", "HEAD", f"--since={since}", f"--max-count={MAX_COMMITS}", "--format=%H%x1f%cs%x1f%s%x1f%b%x1e", check=False
    )
    commits = []
    for record in out.split("\x1e"):
        parts = record.strip("\n").split("\x1f")
        if len(parts) == 4:
            commits.append(Commit(*parts, words=frozenset(significant_words(parts[2]))))
    return commits


def _judge(claim: Claim, date: str, commits: list[Commit], index: "CommitIndex") -> None:
    match = find_landing(claim, commits, index, date)
    if match is not None:
        commit, how = match
        landed = f'{how} {commit.sha[:7]} "{commit.subject}" ({commit.date})'
        if claim.done:
            claim.add("queue item", VERIFIED, f"done: {landed}", NAME)
        else:
            claim.add("queue item", CONTRADICTED, f"landed: {landed}", NAME)
        return
    searched = f"no commit on HEAD since {date} references it or matches its words ({len(commits)} searched)"
    claim.add("queue item", UNVERIFIED if claim.done else VERIFIED, searched, NAME)


def find_landing(
    claim: Claim, commits: list[Commit], index: Optional["CommitIndex"] = None, since: str = ""
) -> Optional[tuple[Commit, str]]:
    """The newest commit that references the item or clearly does its work.

    A DONE item that names a commit ("DONE — X, landed in `abc1234`") is done
    by that commit when it is on HEAD in the window; a pending item naming one
    ("revert `abc1234`") is about it, so only a later reference lands it.
    """
    if claim.done:
        for sha in claim_refs(claim, addr.SHA):
            named = next((commit for commit in commits if commit.sha.startswith(sha)), None)
            if named is not None:
                return named, "landed in"
    patterns = [(ref, re.compile(rf"(?<![\w#-]){re.escape(ref)}(?![\w-])", re.IGNORECASE)) for ref in claim_refs(claim, addr.REF)]
    patterns += [(sha, re.compile(rf"\b{re.escape(sha)}")) for sha in claim_refs(claim, addr.SHA)]
    if patterns:
        for commit in commits:
            message = f"{commit.subject}\n{commit.body}"
            for label, pattern in patterns:
                if pattern.search(message) and not commit.sha.startswith(label):
                    return commit, f"{label} referenced in"
    wanted = significant_words(_work_text(claim))
    if len(wanted) < 2:
        return None
    for commit in (index.candidates(wanted, since) if index else commits):
        if clearly_matches(wanted, commit.words):
            return commit, "matched by"
    return None


class CommitIndex:
    """The commits of the window and, per significant word, which subjects have it."""

    def __init__(self, commits: list[Commit]):
        self.commits = commits
        self.by_word: dict[str, set[int]] = {}
        for position, commit in enumerate(commits):
            for word in commit.words:
                self.by_word.setdefault(word, set()).add(position)

    def candidates(self, wanted: list[str], since: str) -> list[Commit]:
        """Commits dated ``since`` or later whose subject has at least two wanted words, newest first.

        A subject with two wanted words has one besides the most common of
        them, so only the other words' commits are looked at: a word every
        subject has ("module") costs nothing.
        """
        postings = sorted((self.by_word.get(word, set()) for word in wanted), key=len)
        if len(postings) < 2:
            return []
        wanted_set = set(wanted)
        pool = set().union(*postings[:-1])
        hits = [p for p in pool if self.commits[p].date >= since and len(wanted_set & self.commits[p].words) >= 2]
        return [self.commits[p] for p in sorted(hits)]


def claim_refs(claim: Claim, kind: str) -> list[str]:
    return [a.value for a in claim.addresses_of(kind)]


def _work_text(claim: Claim) -> str:
    """The item without its date, DONE marker and references."""
    text = re.sub(r"^\s*(?:DONE\s+)?\d{4}-\d{2}-\d{2}\s*(?:[—–:-]+\s*)?", "", claim.text)
    text = re.sub(r"^\s*DONE\b\s*[—–:-]*\s*", "", text, flags=re.IGNORECASE)
    for address in claim.addresses:
        if address.kind in (addr.REF, addr.SHA, addr.PROBE):
            text = text.replace(address.value, " ")
    return text
