"""What a check reports: a status, one summary line, and located findings."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

PASS = "PASS"
FAIL = "FAIL"
COULD_NOT_CHECK = "COULD_NOT_CHECK"
STATUSES = (FAIL, COULD_NOT_CHECK, PASS)  # report order


@dataclass
class Finding:
    """One problem, located as precisely as known (file:line, commit, claim, command).

    ``preserve`` marks a fact the summarizer must keep verbatim (an unrecorded
    outcome, a FAIL the next context must act on)."""

    message: str
    file: Optional[str] = None
    line: Optional[int] = None
    commit: Optional[str] = None
    claim: Optional[str] = None
    command: Optional[str] = None
    preserve: bool = True

    @property
    def where(self) -> str:
        parts = []
        if self.file:
            parts.append(f"{self.file}:{self.line}" if self.line else self.file)
        if self.commit:
            parts.append(f"commit {self.commit[:12]}")
        return ", ".join(parts)

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message

    def to_dict(self) -> dict:
        return {k: v for k, v in vars(self).items() if v is not None}  # every field is a scalar: no asdict deep copy

    @classmethod
    def from_dict(cls, data: dict) -> "Finding":
        known = {k: data[k] for k in ("message", "file", "line", "commit", "claim", "command", "preserve") if k in data}
        return cls(**known)


@dataclass
class CheckResult:
    id: str
    status: str
    summary: str
    findings: list[Finding] = field(default_factory=list)
    data: dict = field(default_factory=dict)  # check-specific extras (e.g. the session's outcomes)

    def to_dict(self) -> dict:
        out = {"id": self.id, "status": self.status, "summary": self.summary, "findings": [f.to_dict() for f in self.findings]}
        if self.data:
            out["data"] = self.data
        return out

    @classmethod
    def from_dict(cls, data: dict) -> "CheckResult":
        return cls(
            str(data.get("id", "?")),
            str(data.get("status", COULD_NOT_CHECK)),
            str(data.get("summary", "")),
            [Finding.from_dict(f) for f in data.get("findings", []) if isinstance(f, dict) and "message" in f],
            data.get("data") if isinstance(data.get("data"), dict) else {},
        )


def passed(check_id: str, summary: str, **data) -> CheckResult:
    return CheckResult(check_id, PASS, summary, [], data)


def failed(check_id: str, summary: str, findings: list[Finding], **data) -> CheckResult:
    return CheckResult(check_id, FAIL, summary, findings, data)


def could_not_check(check_id: str, reason: str, findings: Optional[list[Finding]] = None, **data) -> CheckResult:
    return CheckResult(check_id, COULD_NOT_CHECK, reason, findings or [], data)


def verdict(check_id: str, findings: list[Finding], ok: str, bad: str, **data) -> CheckResult:
    """FAIL with ``bad`` (``{n}`` = number of findings) when there are findings, else PASS with ``ok``."""
    if findings:
        return failed(check_id, bad.format(n=len(findings)), findings, **data)
    return passed(check_id, ok, **data)
