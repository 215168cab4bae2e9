"""What a hook process prints and how it exits: the one type the runtime and the I/O models share
(a module of its own, so that neither imports the other)."""

from __future__ import annotations


class HookResult:
    """What the hook process prints and how it exits."""

    __slots__ = ("stdout", "stderr", "exit_code")

    def __init__(self, stdout: str = "", stderr: str = "", exit_code: int = 0):
        self.stdout, self.stderr, self.exit_code = stdout, stderr, exit_code

    def __repr__(self) -> str:
        return f"HookResult(stdout={self.stdout!r}, stderr={self.stderr!r}, exit_code={self.exit_code})"


SILENT = HookResult()
