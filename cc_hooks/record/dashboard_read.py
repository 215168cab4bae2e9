"""What reading a dashboard gives: the claims, the state block, the queue.

The shapes every backend exchanges (``cc_hooks.record.dashboard`` re-exports
them). A module of their own, because defining them costs milliseconds that a
hook whose dashboard facts are remembered (``cc_hooks.claims.rehydration``)
does not spend.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:  # pragma: no cover
    from cc_hooks.record.findings import Finding


# --- what backends exchange ------------------------------------------------------


@dataclass
class Claim:
    line: int  # 1-based line in the dashboard (0 when the backend has no lines)
    text: str
    kind: str  # "resume" (the resume point) or "bullet"


@dataclass
class StateBlock:
    line: int  # the heading's line
    end_line: int  # last line of the block
    date: Optional[str]  # ISO YYYY-MM-DD, None when undated or invalid
    date_text: str  # what the heading says after "CURRENT STATE"
    resume_point: Optional[Claim]
    claims: list[Claim]  # every claim, the resume point first when present


@dataclass
class QueueItem:
    line: int
    date: Optional[str]
    text: str
    done: bool


@dataclass
class DashboardRead:
    backend: str
    locator: str
    exists: bool
    state: Optional[StateBlock] = None
    queued: list[QueueItem] = field(default_factory=list)
    findings: list["Finding"] = field(default_factory=list)

    @property
    def open_items(self) -> list[QueueItem]:
        return [item for item in self.queued if not item.done]

    def to_dict(self) -> dict:
        data = asdict(self)
        data["findings"] = [f.model_dump() for f in self.findings]
        return data
