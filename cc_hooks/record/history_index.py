"""Triage's index of HEAD's history: each commit's row and the commits each word appears in.

Triage ranks every commit HEAD shipped by the symptom's words (``cc_hooks.record.evidence``).
Reading and splitting 50,000 messages costs seconds, and history is immutable, so the index is
remembered (``cc_hooks.memo.remember_log``) and extended with ``<last>..HEAD`` alone; a rewrite
(the last tip no longer an ancestor of HEAD) derives it again. Facts, never verdicts.

A row is ``[sha, date, subject, symptoms, second parent]``, oldest first, so a new commit only
appends. Postings map a word to the positions of the commits holding it, as one string of
comma-separated positions (decoded only for the words a query asks about):

- ``subject``: the stemmed words of the subject (``evidence.words_of``);
- ``body``: those of the rest of the message, minus the subject's;
- ``names``: code-like tokens of the message, lowercased (``get_pager_file``, ``click.echo``,
  ``--no-color``, ``KeyError``, ``#123``): what "the message names `x`" is looked up in.
"""

from __future__ import annotations

import re
from typing import Optional

_REC, _FIELD, _ITEM = "\x1e", "\x1f", "\x1d"
_FORMAT = f"{_REC}%H{_FIELD}%aI{_FIELD}%P{_FIELD}%(trailers:key=Symptom,valueonly,unfold,separator=%x1d){_FIELD}%B"
_TOKEN_RE = re.compile(r"#\d{1,7}\b|-{1,2}[A-Za-z][\w-]*|[A-Za-z_][\w.]*\w")
VERSION = "3"  # change when the rows or the postings change shape


_CODE_TOKEN_RE = re.compile(r"^[#-]|[_.]|.[A-Z]")


class HistoryIndex:
    def __init__(self, value: dict):
        self.rows: list[list] = value["rows"]
        self._postings = {kind: value[kind] for kind in ("subject", "body", "names")}
        self._positions: Optional[dict[str, int]] = None

    def __len__(self) -> int:
        return len(self.rows)

    def postings(self, kind: str, word: str) -> list[int]:
        found = self._postings[kind].get(word)
        return [int(p) for p in found.split(",")] if found else []

    def naming(self, identifier: str) -> set[int]:
        """Positions of the commits whose message names ``identifier`` (as part of a token, any case)."""
        wanted = identifier.lower()
        found: set[int] = set()
        for token, positions in self._postings["names"].items():
            if wanted in token:
                found.update(int(p) for p in positions.split(","))
        return found

    def position(self, sha: str) -> Optional[int]:
        if self._positions is None:
            self._positions = {row[0]: i for i, row in enumerate(self.rows)}
        return self._positions.get(sha)


def load(root, timeout: float = 30.0, head: Optional[str] = None) -> HistoryIndex:
    """The index of HEAD's history, remembered and extended from the last tip (one ``git log``
    of the commits since)."""
    from cc_hooks.memo import remember_log

    def derive(revs, previous):
        return extend(previous, _read(root, revs, timeout))

    return HistoryIndex(remember_log(root, "triage-history", [VERSION], derive, timeout=timeout, head=head))


def extend(previous: Optional[dict], commits: list[tuple]) -> dict:
    """``previous`` (or an empty index) with ``commits`` (oldest first) appended."""
    from cc_hooks.record.evidence import word_stemmer

    words_of = word_stemmer()
    value = previous or {"rows": [], "subject": {}, "body": {}, "names": {}}
    added: dict[str, dict[str, list[str]]] = {"subject": {}, "body": {}, "names": {}}
    start = len(value["rows"])
    for offset, (sha, date, parents, symptoms, message) in enumerate(commits):
        subject = message.split("\n", 1)[0].strip()
        position = str(start + offset)
        value["rows"].append([sha, date, subject, symptoms, parents[1] if len(parents) > 1 else ""])
        subject_words = words_of(subject)
        names = {t.rstrip(".").lower() for t in _TOKEN_RE.findall(message) if _CODE_TOKEN_RE.search(t)}
        for kind, words in (("subject", subject_words), ("body", words_of(message) - subject_words), ("names", names)):
            for word in words:
                added[kind].setdefault(word, []).append(position)
    for kind, found in added.items():
        postings = value[kind]
        for word, positions in found.items():
            joined = ",".join(positions)
            postings[word] = f"{postings[word]},{joined}" if word in postings else joined
    return value


def _read(root, revs: list, timeout: float) -> list[tuple]:
    """(sha, date, parents, symptoms, message) of ``revs``' commits, oldest first (one ``git log``)."""
    from cc_hooks.git import run_git

    out = run_git(root, "log", f"--format={_FORMAT}", *revs, "--", timeout=timeout, check=revs != ["HEAD"])  # unborn: none
    commits = []
    for record in out.split(_REC)[1:]:
        parts = record.split(_FIELD, 4)
        if len(parts) < 5:
            continue
        sha, date, parents, trailers, message = parts
        symptoms = [v.strip() for v in trailers.split(_ITEM) if v.strip()]
        commits.append((sha, date, parents.split(), symptoms, message.rstrip("\n")))
    commits.reverse()
    return commits
