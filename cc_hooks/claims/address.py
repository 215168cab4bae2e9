"""An address: the part of a sentence that makes it checkable, and its kinds.

Found by ``cc_hooks.claims.addresses`` (the extractor, with its many regexes);
kept apart so the claim model and the verifiers need not load the extractor.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

SHA = "sha"
BRANCH = "branch"
NAME = "name"  # a ref or a path, resolved by the verifier
PATH = "path"
REF = "ref"  # issue / ticket reference
PROBE = "probe"


@dataclass(frozen=True)
class Address:
    kind: str
    value: str  # the sha, name, path (without :line), reference or probe name
    line: Optional[int] = None  # path:line
    end_line: Optional[int] = None  # path:line-end
    quoted: bool = field(default=False, compare=False)  # written in backticks: a deliberate name

    def __str__(self) -> str:
        if self.kind == PROBE:
            return f"(probe: {self.value})"
        if self.line is None:
            return self.value
        return f"{self.value}:{self.line}" + (f"-{self.end_line}" if self.end_line else "")

    def to_dict(self) -> dict:
        data = {"kind": self.kind, "value": self.value}
        if self.line is not None:
            data["line"] = self.line
        if self.end_line is not None:
            data["end_line"] = self.end_line
        return data
