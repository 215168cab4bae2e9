"""The one shape every validator and check reports in."""

from __future__ import annotations

from typing import Iterable, Literal, Optional

from pydantic import BaseModel, ConfigDict

Severity = Literal["error", "warning", "info"]
SEVERITY_RANK = {"error": 0, "warning": 1, "info": 2}


class Finding(BaseModel):
    """Something missing or malformed, located as precisely as known.

    ``file`` is the path as the caller named it (usually relative to the repo
    root); ``line`` is 1-based (None when the problem is the whole file);
    ``entry`` is the GitHub-style slug of the entry concerned, if any; ``rule``
    is a stable id (see each validator's ``RULES``).
    """

    model_config = ConfigDict(frozen=True)

    file: str
    line: Optional[int] = None
    entry: Optional[str] = None
    rule: str
    message: str
    severity: Severity = "error"

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.severity} [{self.rule}] {self.message}"


def finding(
    file: str,
    line: Optional[int],
    rule: str,
    message: str,
    entry: Optional[str] = None,
    severity: Severity = "error",
) -> Finding:
    """A Finding from positional essentials (validation is cheaper than model_construct here)."""
    return Finding(file=file, line=line, entry=entry, rule=rule, message=message, severity=severity)


def sort_findings(findings: Iterable[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: (f.file, f.line or 0, SEVERITY_RANK.get(f.severity, 9), f.rule))


def has_errors(findings: Iterable[Finding]) -> bool:
    return any(f.severity == "error" for f in findings)
