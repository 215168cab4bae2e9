"""The verdicts of `guards prove` and where they are kept: one JSON file per guard in
``<state dir>/guards/``. Apart from ``prove`` (which runs guards in worktrees) so that
the compaction checklist reads the last verdicts without importing the runner."""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Iterable, Optional

PROVEN, DOES_NOT_DETECT, BROKEN, UNPROVABLE = "PROVEN", "DOES-NOT-DETECT", "BROKEN", "UNPROVABLE"
FAILING = (DOES_NOT_DETECT, BROKEN)
PROOFS_DIR = "guards"


@dataclass
class Proof:
    """One verdict of `guards prove`, as stored."""

    guard: str
    verdict: str
    reason: str
    head: Optional[str]
    time: str
    kind: str = ""
    ref: str = ""
    fixes: Optional[list] = None
    symptom: Optional[str] = None  # the entry's slug
    where: str = ""  # of the **Guard** bullet
    on_head: Optional[dict] = None  # Outcome.to_dict()
    fix_stripped: Optional[dict] = None
    seconds: float = 0.0

    def to_dict(self) -> dict:
        return asdict(self)


def proof_path(state: Path, name: str) -> Path:
    from cc_hooks.state import state_key

    return Path(state) / PROOFS_DIR / f"{state_key(name)}.json"


def store_proof(root: Path, proof: Proof) -> None:
    from cc_hooks.state import state_dir, write_json

    state = state_dir(root, create=True)
    if state is not None:
        write_json(proof_path(state, proof.guard), proof.to_dict())


def load_proof(state: Optional[Path], name: str) -> Optional[dict]:
    """The last stored proof of guard ``name``, or None."""
    from cc_hooks.state import read_json

    if state is None:
        return None
    data = read_json(proof_path(state, name))
    return data if isinstance(data, dict) and isinstance(data.get("verdict"), str) else None


def load_proofs(state: Optional[Path], names: Iterable[str]) -> dict[str, Optional[dict]]:
    """``load_proof`` for many guards: the proofs folder is listed once, and only the proofs
    stored there are opened (a ledger of 1,000 never-proven guards costs one ``scandir``)."""
    from cc_hooks.state import state_key

    names = list(names)
    try:
        stored = {entry.name for entry in os.scandir(Path(state) / PROOFS_DIR)} if state is not None else set()
    except OSError:
        stored = set()
    if not stored:
        return dict.fromkeys(names)
    return {name: load_proof(state, name) if f"{state_key(name)}.json" in stored else None for name in names}
