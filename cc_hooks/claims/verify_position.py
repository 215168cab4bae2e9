"""Position claims: "awaiting the user's ruling on X", "at step 3 of the plan".

Checked against the decision ledger: an entry dated on or after the state
block whose title or decision shares the claim's key words (most of them, and
at least two, or the only one) settles what the claim says is still open, so
it CONTRADICTS the claim, quoting the entry. No such entry: VERIFIED (the
ledger agrees nothing was decided since). Same-day entries count, because a
date cannot order an entry and a state block written on the same day.

The ledger's entries are remembered by its bytes (``cc_hooks.memo``): an
unchanged ledger is neither parsed nor is its parser imported.
"""

from __future__ import annotations

import re
from typing import NamedTuple, Optional

from cc_hooks.claims.context import VerifyContext
from cc_hooks.claims.model import CONTRADICTED, POSITION, UNVERIFIED, VERIFIED, Claim
from cc_hooks.claims.words import clearly_matches, significant_words

NAME = "position"
EARLIER_RATIO = 1.0  # an entry older than the state block settles it only when it names every key word
_CUE_WORDS = set(
    significant_words(
        "awaiting waiting blocked pending user users owner ruling rulings decision decisions answer approval review input "
        "confirmation go-ahead sign-off question questions phrase plan resume point maintainer maintainers team lead "
        "reviewer reviewers manager client customer product"
    )
)
_TOPIC_RE = re.compile(r"\b(?:on|about|for|regarding|re|whether|of)\s+(.+)$", re.IGNORECASE)


class Entry(NamedTuple):
    """What a position claim is judged by, of one decision ledger entry."""

    date: Optional[str]
    title: str
    decision: Optional[str]
    start: int
    heading: str


def applies(claim: Claim) -> bool:
    return claim.kind == POSITION


def verify(ctx: VerifyContext, claims: list[Claim]) -> None:
    claims = [c for c in claims if applies(c)]
    if not claims:
        return
    entries, problem = _entries(ctx)
    entries = [(entry, _entry_words(entry)) for entry in entries]  # once, not once per claim
    for claim in claims:
        date = claim.date or ctx.state_date
        if problem:
            claim.add("decision ledger", UNVERIFIED, problem, NAME)
        elif not date:
            claim.add("decision ledger", UNVERIFIED, "the state block is undated: no way to tell later rulings from earlier ones", NAME)
        else:
            _judge(ctx, claim, date, entries)


def key_words(text: str) -> list[str]:
    """What the position is about: the words after "ruling on", else the claim's own words."""
    match = _TOPIC_RE.search(text)
    topic = match.group(1) if match else text
    words = [w for w in significant_words(topic) if w not in _CUE_WORDS] + _versions(topic)
    if not words and match:
        words = [w for w in significant_words(text) if w not in _CUE_WORDS] + _versions(text)
    return words


def _versions(text: str) -> list[str]:
    """"Python 3.9", "v1.4": version numbers name what a ruling is about as much as words do."""
    return list(dict.fromkeys(re.findall(r"(?<![\w.])v?(\d+(?:\.\d+)+)(?![\w.]*\w)", text)))


def _judge(ctx: VerifyContext, claim: Claim, date: str, entries: list[tuple[Entry, set]]) -> None:
    words = key_words(claim.text)
    if not words:
        claim.add("decision ledger", UNVERIFIED, "the claim names nothing to look for in the decision ledger", NAME)
        return
    later = [(e, known) for e, known in entries if e.date and e.date >= date]
    earlier = [(e, known) for e, known in entries if e.date and e.date < date]
    settled = [e for e, known in later if clearly_matches(words, known)]
    settled += [e for e, known in earlier if clearly_matches(words, known, ratio=EARLIER_RATIO)]
    for entry in settled[:1]:
        if True:
            quote = f"## {entry.heading}" + (f" / Decision: {entry.decision}" if entry.decision else "")
            claim.add(
                "decision ledger",
                CONTRADICTED,
                f"{_ledger_name(ctx)}:{entry.start} settled it: {_clip(quote)}",
                NAME,
            )
            return
    claim.add(
        "decision ledger",
        VERIFIED,
        f"no {_ledger_name(ctx)} entry settles it ({len(later)} dated {date} or later, {len(earlier)} earlier)",
        NAME,
    )


def _entry_words(entry: Entry) -> set[str]:
    text = f"{entry.title} {entry.decision or ''}"
    return set(significant_words(text)) | set(_versions(text))


def _ledger_name(ctx: VerifyContext) -> str:
    return ctx.config.record.decisions if ctx.config is not None else "DECISIONS.md"


def _entries(ctx: VerifyContext) -> tuple[list[Entry], Optional[str]]:
    from cc_hooks.memo import remember

    name = _ledger_name(ctx)
    try:
        from cc_hooks.fsutil import read_repo_bytes

        data = read_repo_bytes(ctx.root / name, ctx.root)
    except FileNotFoundError:
        return [], f"{name} does not exist"
    except OSError as exc:
        return [], f"{name} cannot be read ({exc.strerror or exc})"
    facts = remember(ctx.state_dir, "position-entries", [name, data], lambda: _parse_entries(data, name))
    return [Entry(*fact) for fact in facts], None


def _parse_entries(data: bytes, name: str) -> list[list]:
    """The facts of every entry, decoded as ``Path.read_text(errors="replace")`` would."""
    import io

    from cc_hooks.record.decisions import parse_decisions

    text = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="replace").read()
    return [[e.date, e.title, e.decision, e.start, e.heading] for e in parse_decisions(text, name).entries]


def _clip(text: str, limit: int = 240) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
